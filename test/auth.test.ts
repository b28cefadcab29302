// Authentication and hardening against a real daemon (design §7 and §5): bearer and cookie
// sessions, the token-link exchange, rotation and grace, CSRF, no-auth's loopback rule, the
// brute-force limit, query limits, body size, security headers and the Prometheus endpoint.
import { request } from "node:http";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../shared/base/clock.js";
import { InsightsError } from "../shared/base/errors.js";
import { removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import { expectedTotals, fixtureTranscripts } from "./helpers/fixture-expectations.js";
import { FIXTURE_NOW, gql, startDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

const HOUR = 3_600_000;
const SECURITY_HEADERS = ["x-content-type-options", "x-frame-options", "referrer-policy", "cache-control"];

function rawPost(base: string, path: string, body: string, headers: Record<string, string>): Promise<number> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/graphql`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

test("no credential and a wrong token: 401 with WWW-Authenticate and code UNAUTHENTICATED", async () => {
  const d = await startDaemon();
  try {
    const attempts: Array<Record<string, string>> = [{}, { authorization: "Bearer not-the-token-but-long-enough-to-look-real" }, { authorization: "Bearer " }];
    for (const headers of attempts) {
      const res = await post(d.url, { query: "{ sources { id } }" }, headers);
      assert.is(res.status, 401);
      assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
      const body = (await res.json()) as { code: string; message: string };
      assert.is(body.code, "UNAUTHENTICATED");
      for (const h of SECURITY_HEADERS) assert.ok(res.headers.get(h), `${h} on a 401`);
    }
    const ok = await gql(d, "{ sources { id } }");
    assert.is(ok.status, 200);
    for (const h of SECURITY_HEADERS) assert.ok(ok.headers.get(h), `${h} on a 200`);
    const health = await fetch(`${d.url}/health`);
    assert.is(health.status, 200, "/health needs no credential");
    const missing = await fetch(`${d.url}/nope`, { headers: { authorization: `Bearer ${d.token}` } });
    assert.is(missing.status, 404);
    assert.ok(missing.headers.get("x-content-type-options"));
  } finally {
    await d.stop();
  }
});

test("an INSIGHTS_TOKEN shorter than 32 characters stops the start", async () => {
  try {
    const d = await startDaemon({ env: { INSIGHTS_TOKEN: "short-token" } });
    await d.stop();
    assert.unreachable("the daemon started with a short token");
  } catch (err) {
    assert.instance(err, InsightsError);
    assert.is((err as InsightsError).code, "CONFIG_INVALID");
    assert.match((err as Error).message, /token.*at least 32/);
    assert.not.match((err as Error).message, /short-token/, "the secret is not echoed");
  }
});

test("the token link becomes a cookie session; CSRF header and Origin guard its POSTs", async () => {
  const d = await startDaemon();
  try {
    const bad = await fetch(`${d.url}/?token=wrong`, { redirect: "manual" });
    assert.is(bad.status, 401);
    assert.is(bad.headers.get("set-cookie"), null);
    const res = await fetch(`${d.url}/?token=${encodeURIComponent(d.token)}`, { redirect: "manual" });
    assert.is(res.status, 303);
    assert.is(res.headers.get("location"), "/");
    const setCookie = res.headers.get("set-cookie") ?? "";
    assert.match(setCookie, /^insights_session=[^;]+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+/);
    const cookie = setCookie.split(";")[0] as string;
    const info = (await (await fetch(`${d.url}/api/session`, { headers: { cookie } })).json()) as { auth: string; csrf: string };
    assert.is(info.auth, "cookie");
    assert.match(info.csrf, /^[A-Za-z0-9_-]{20,}$/);

    const origin = d.url;
    const ok = await post(d.url, { query: "{ sources { id } }" }, { cookie, "x-insights-csrf": info.csrf, origin });
    assert.is(ok.status, 200);
    const noCsrf = await post(d.url, { query: "{ sources { id } }" }, { cookie, origin });
    assert.is(noCsrf.status, 403);
    assert.is(((await noCsrf.json()) as { code: string }).code, "CSRF_FAILED");
    const wrongCsrf = await post(d.url, { query: "{ sources { id } }" }, { cookie, origin, "x-insights-csrf": "AAAAAAAAAAAAAAAAAAAAAA" });
    assert.is(wrongCsrf.status, 403);
    const foreign = await post(d.url, { query: "{ sources { id } }" }, { cookie, "x-insights-csrf": info.csrf, origin: "http://evil.example" });
    assert.is(foreign.status, 403);
    const forged = await post(d.url, { query: "{ sources { id } }" }, { cookie: cookie.slice(0, -4) + "AAAA", "x-insights-csrf": info.csrf, origin });
    assert.is(forged.status, 401);
    const logout = await fetch(`${d.url}/api/logout`, { method: "POST", headers: { cookie, "x-insights-csrf": info.csrf, origin } });
    assert.is(logout.status, 204);
    assert.match(logout.headers.get("set-cookie") ?? "", /Max-Age=0/);
  } finally {
    await d.stop();
  }
});

test("a cookie survives a key rotation within the grace period and expires after it", async () => {
  const clock = manualClock(FIXTURE_NOW);
  const d = await startDaemon({ clock, env: { INSIGHTS_SESSION_ROTATE_HOURS: "1", INSIGHTS_SESSION_GRACE_HOURS: "1" } });
  try {
    const res = await fetch(`${d.url}/?token=${encodeURIComponent(d.token)}`, { redirect: "manual" });
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const session = async (): Promise<Response> => fetch(`${d.url}/api/session`, { headers: { cookie } });
    assert.is((await session()).status, 200);
    clock.advance(1.5 * HOUR); // rotated at +1 h; the old key verifies until +2 h
    assert.is((await session()).status, 200, "within grace");
    const fresh = await fetch(`${d.url}/?token=${encodeURIComponent(d.token)}`, { redirect: "manual" });
    const freshCookie = (fresh.headers.get("set-cookie") ?? "").split(";")[0] as string;
    assert.is.not(freshCookie, cookie, "new cookies come from the new key");
    clock.advance(HOUR); // +2.5 h: the first key is gone
    const expired = await session();
    assert.is(expired.status, 401);
    const body = (await expired.json()) as { code: string; message: string };
    assert.is(body.code, "UNAUTHENTICATED");
    assert.match(body.message, /expired/);
    assert.is((await fetch(`${d.url}/api/session`, { headers: { cookie: freshCookie } })).status, 200, "the newer cookie still works");
  } finally {
    await d.stop();
  }
});

test("no-auth mode: loopback peers need nothing, remote peers get 403 FORBIDDEN_REMOTE (except /health)", async () => {
  const d = await startDaemon({ env: { INSIGHTS_NO_AUTH: "true" }, peerOf: (req) => (req.headers["x-test-peer"] as string | undefined) ?? req.socket.remoteAddress });
  try {
    const local = await post(d.url, { query: "{ sources { id } }" });
    assert.is(local.status, 200);
    for (const peer of ["203.0.113.7", "2001:db8::1", "::ffff:198.51.100.4"]) {
      const remote = await post(d.url, { query: "{ sources { id } }" }, { "x-test-peer": peer });
      assert.is(remote.status, 403, peer);
      assert.is(((await remote.json()) as { code: string }).code, "FORBIDDEN_REMOTE");
    }
    const health = await fetch(`${d.url}/health`, { headers: { "x-test-peer": "203.0.113.7" } });
    assert.is(health.status, 200);
    // fetch() will not send a foreign Host header; node:http will.
    const rebound = await rawPost(d.url, "/graphql", JSON.stringify({ query: "{ sources { id } }" }), { host: "evil.example:41080", "content-type": "application/json" });
    assert.is(rebound, 403, "a DNS-rebinding Host is refused in no-auth mode too");
  } finally {
    await d.stop();
  }
});

test("repeated wrong tokens from one peer get 429 with Retry-After; the right token still passes", async () => {
  const d = await startDaemon();
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await post(d.url, { query: "{ sources { id } }" }, { authorization: `Bearer guess-${i}-0123456789012345678901234567` })).status);
    assert.equal(statuses.slice(0, 10), Array(10).fill(401));
    assert.is(statuses[10], 429);
    const blocked = await post(d.url, { query: "{ sources { id } }" }, { authorization: "Bearer guess-again-0123456789012345678901234567" });
    assert.is(blocked.status, 429);
    assert.ok(Number(blocked.headers.get("retry-after")) > 0);
    assert.is(((await blocked.json()) as { code: string }).code, "RATE_LIMITED");
    const badLink = await fetch(`${d.url}/?token=still-wrong`, { redirect: "manual" });
    assert.is(badLink.status, 429, "a wrong sign-in link is refused during the block too");
    assert.is((await post(d.url, { query: "{ sources { id } }" }, { authorization: `Bearer ${d.token}` })).status, 200, "the right token is never refused for someone else's guesses");
    const link = await fetch(`${d.url}/?token=${encodeURIComponent(d.token)}`, { redirect: "manual" });
    assert.is(link.status, 303, "the right sign-in link works during the block");
  } finally {
    await d.stop();
  }
});

test("bad sign-in links from anyone on the machine do not lock out the dashboard, Prometheus or a bearer client", async () => {
  const d = await startDaemon();
  try {
    // A session signed in before the attack, as the open dashboard has it.
    const signIn = await fetch(`${d.url}/?token=${encodeURIComponent(d.token)}`, { redirect: "manual" });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const csrf = ((await (await fetch(`${d.url}/api/session`, { headers: { cookie } })).json()) as { csrf: string }).csrf;
    // Every local client is the same peer (127.0.0.1): twenty bad links from another local process.
    for (let i = 0; i < 20; i++) assert.ok([401, 429].includes((await fetch(`${d.url}/?token=bad-${i}`, { redirect: "manual" })).status));
    assert.is((await fetch(`${d.url}/?token=bad-again`, { redirect: "manual" })).status, 429, "the guesser is slowed");
    const bearer = { authorization: `Bearer ${d.token}` };
    assert.is((await fetch(`${d.url}/metrics`, { headers: bearer })).status, 200, "Prometheus");
    assert.is((await gql(d, "{ sources { id } }")).status, 200, "a bearer client");
    assert.is((await fetch(`${d.url}/api/session`, { headers: { cookie } })).status, 200, "the dashboard's GET");
    assert.is((await post(d.url, { query: "{ sources { id } }" }, { cookie, "x-insights-csrf": csrf, origin: d.url })).status, 200, "the dashboard's POST");
    const snap = await fetch(`${d.url}/api/snapshot`, { method: "POST", headers: { ...bearer, "content-type": "application/json" }, body: JSON.stringify({ format: "json" }) });
    assert.is(snap.status, 200, "the REST snapshot");
    assert.is((await fetch(`${d.url}/api/session`)).status, 401, "no credential is still 401, not a lockout");
  } finally {
    await d.stop();
  }
});

test("limits: too deep, too many aliases, too large, batching", async () => {
  const d = await startDaemon();
  try {
    const nest = (n: number): string => (n === 0 ? "key" : `subAgents { ${nest(n - 1)} }`);
    // source > sessions > key is 3 levels; each subAgents adds one.
    const ok = await gql(d, `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { sessions { ${nest(9)} } } } }`);
    assert.is(ok.status, 200, JSON.stringify(ok.body.errors));
    const deep = await gql(d, `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { sessions { ${nest(10)} } } } }`);
    assert.is(deep.status, 400);
    assert.match(deep.body.errors?.[0]?.message ?? "", /13 levels deep; at most 12/);
    const viaFragment = await gql(d, `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { sessions { ...S } } } } fragment S on Session { ${nest(10)} }`);
    assert.is(viaFragment.status, 400, "fragments are expanded");

    const aliases = (n: number): string => Array.from({ length: n }, (_, i) => `a${i}: sources { id }`).join(" ");
    assert.is((await gql(d, `{ ${aliases(30)} }`)).status, 200);
    const many = await gql(d, `{ ${aliases(31)} }`);
    assert.is(many.status, 400);
    assert.match(many.body.errors?.[0]?.message ?? "", /more than 30 aliases/);

    const big = await post(d.url, { query: `{ sources { id } }`, variables: { pad: "x".repeat(101 * 1024) } }, { authorization: `Bearer ${d.token}` });
    assert.is(big.status, 413);
    const batch = await post(d.url, [{ query: "{ sources { id } }" }, { query: "{ sources { id } }" }], { authorization: `Bearer ${d.token}` });
    assert.is(batch.status, 400, "no batching");
    const notJson = await post(d.url, "{ not json", { authorization: `Bearer ${d.token}` });
    assert.is(notJson.status, 400);
    const introspection = await gql<{ __schema: { queryType: { name: string } } }>(d, `{ __schema { queryType { name } } }`);
    assert.is(introspection.body.data?.__schema.queryType.name, "Query", "introspection is on");
  } finally {
    await d.stop();
  }
});

test("GET /metrics: same auth as /graphql; gateway, sessions, tokens and cost by model, events, daemon figures", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  try {
    assert.is((await fetch(`${d.url}/metrics`)).status, 401);
    const transcripts = fixtureTranscripts(d.openclawDir);
    const all = expectedTotals(transcripts);
    let text = "";
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${d.token}` } });
      assert.is(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
      text = await res.text();
      // The first pass writes the transcripts' figures before it lists the sessions: wait for both.
      if (text.includes(`openclaw_tokens_total{agent="main",model="fake-model",provider="fakellm",type="input"} ${all.input}`) && text.includes('openclaw_sessions{agent="main"')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const value = (line: string): number => Number(text.split("\n").find((l) => l.startsWith(line + " "))?.slice(line.length + 1));
    assert.is(value(`openclaw_tokens_total{agent="main",model="fake-model",provider="fakellm",type="input"}`), all.input);
    assert.is(value(`openclaw_tokens_total{agent="main",model="fake-model",provider="fakellm",type="output"}`), all.output);
    assert.is(value(`openclaw_tokens_total{agent="main",model="fake-model",provider="fakellm",type="cache_read"}`), all.cacheRead);
    assert.ok(Math.abs(value(`openclaw_cost_usd_total{agent="main",model="fake-model",provider="fakellm"}`) - all.costUsd) < 1e-9);
    assert.is(value(`openclaw_assistant_messages_total{agent="main",model="fake-model",provider="fakellm"}`), all.assistantMessages);
    assert.is(value("openclaw_gateway_up"), 0);
    assert.match(text, /# TYPE openclaw_tokens_total counter/);
    assert.match(text, /# TYPE openclaw_sessions gauge/);
    assert.match(text, /openclaw_sessions\{agent="main",status="(active|idle|done|failed)"\} \d+/);
    assert.match(text, /openclaw_log_events_total\{type="warning"\} \d+/);
    assert.match(text, /openclaw_health_check_status\{check="gateway"\} 2/);
    assert.match(text, /insights_http_requests_total\{route="\/metrics",method="GET",status="401"\} 1/);
    assert.match(text, /insights_resident_memory_bytes \d+/);
  } finally {
    await d.stop();
  }
});

test.run();
