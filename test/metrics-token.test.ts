// The read-only scrape credential (config metricsToken, INSIGHTS_METRICS_TOKEN) against a real
// daemon: it reads GET /metrics (and /health), and everywhere else it is refused with 403
// INSUFFICIENT_SCOPE: GraphQL queries and mutations (HTTP, graphql-ws upgrade and
// connectionParams), /api/*, /mcp, the dashboard and its sign-in link. The API token still reads
// /metrics; a wrong token is still 401; the token is never written to the log; a short one, or
// one equal to the API token, stops the start.
import { readFileSync } from "node:fs";
import { createClient as createWsClient } from "graphql-ws";
import { test } from "uvu";
import * as assert from "uvu/assert";
import WebSocket from "ws";
import { InsightsError } from "../shared/base/errors.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { gql, startDaemon, type TestDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

const METRICS_TOKEN = "scrape-only-0123456789abcdefghijklmnopqrstuvwxyz";
const API_TOKEN = "admin-token-0123456789abcdefghijklmnopqrstuvwxyz";
const scrapeAuth = { authorization: `Bearer ${METRICS_TOKEN}` };

async function refused(res: Response, what: string): Promise<void> {
  const text = await res.text();
  assert.is(res.status, 403, `${what}: ${text.slice(0, 200)}`);
  assert.is((JSON.parse(text) as { code: string }).code, "INSUFFICIENT_SCOPE", what);
}

/** The HTTP status a WebSocket upgrade to /graphql gets with these headers. */
function upgradeStatus(d: TestDaemon, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${d.url.replace("http", "ws")}/graphql`, "graphql-transport-ws", { headers });
    ws.on("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on("open", () => {
      resolve(101);
      ws.close();
    });
    ws.on("error", (err) => (err.message.includes("Unexpected server response") ? undefined : reject(err)));
  });
}

test("the metrics token reads /metrics and /health and nothing else", async () => {
  const d = await startDaemon({ env: { INSIGHTS_TOKEN: API_TOKEN, INSIGHTS_METRICS_TOKEN: METRICS_TOKEN } });
  try {
    const metrics = await fetch(`${d.url}/metrics`, { headers: scrapeAuth });
    assert.is(metrics.status, 200);
    assert.match(await metrics.text(), /^insights_build_info\{host="[^"]+",version="[^"]+"\} 1$/m);
    assert.is((await fetch(`${d.url}/health`, { headers: scrapeAuth })).status, 200);
    // The API token still scrapes; a wrong one is still a 401.
    assert.is((await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${API_TOKEN}` } })).status, 200);
    const wrong = await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } });
    assert.is(wrong.status, 401);

    // GraphQL: a query and a mutation, both refused before anything runs.
    await refused(await fetch(`${d.url}/graphql`, { method: "POST", headers: { ...scrapeAuth, "content-type": "application/json" }, body: JSON.stringify({ query: "{ sources { id } }" }) }), "a GraphQL query");
    await refused(await fetch(`${d.url}/graphql`, { method: "POST", headers: { ...scrapeAuth, "content-type": "application/json" }, body: JSON.stringify({ query: "mutation { restartGateway { ok } }" }) }), "a GraphQL mutation");
    await refused(await fetch(`${d.url}/graphql?query=${encodeURIComponent("{ sources { id } }")}`, { headers: scrapeAuth }), "a GraphQL GET");
    // The REST and browser routes, MCP (loopback-only, no credential needed: still not with this one).
    await refused(await fetch(`${d.url}/api/session`, { headers: scrapeAuth }), "/api/session");
    await refused(await fetch(`${d.url}/api/snapshot`, { method: "POST", headers: { ...scrapeAuth, "content-type": "application/json" }, body: "{}" }), "/api/snapshot");
    await refused(await fetch(`${d.url}/api/logout`, { method: "POST", headers: scrapeAuth }), "/api/logout");
    await refused(
      await fetch(`${d.url}/mcp`, { method: "POST", headers: { ...scrapeAuth, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) }),
      "/mcp",
    );
    await refused(await fetch(`${d.url}/`, { headers: scrapeAuth }), "the dashboard");
    // As a sign-in link it signs nobody in.
    const link = await fetch(`${d.url}/?token=${encodeURIComponent(METRICS_TOKEN)}`, { redirect: "manual" });
    assert.is(link.status, 403);
    assert.is(link.headers.get("set-cookie"), null);
    assert.match(await link.text(), /read-only metrics token/);

    // graphql-ws: on the upgrade, and in connectionParams (closed with 4403).
    assert.is(await upgradeStatus(d, scrapeAuth), 403);
    const closed = await new Promise<number>((resolve) => {
      const client = createWsClient({
        url: `${d.url.replace("http", "ws")}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: false,
        connectionParams: { authorization: `Bearer ${METRICS_TOKEN}` },
        on: { closed: (e) => resolve((e as { code: number }).code) },
      });
      client.on("connected", () => resolve(0));
    });
    assert.is(closed, 4403);

    // Being refused for its scope is no guess: it never trips the failure limiter.
    for (let i = 0; i < 12; i++) await refused(await fetch(`${d.url}/api/session`, { headers: scrapeAuth }), "again");
    assert.is((await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${API_TOKEN}` } })).status, 200);
    assert.is((await gql({ url: d.url, token: API_TOKEN }, "{ sources { id } }")).status, 200);
  } finally {
    await d.stop({ keep: true });
  }
  const log = readFileSync(d.paths.logFile, "utf8");
  assert.ok(log.includes('"auth":"metrics"'), "the access log says how a request authenticated");
  assert.not.ok(log.includes(METRICS_TOKEN), "the metrics token is never logged");
  assert.not.ok(log.includes(API_TOKEN), "nor the API token");
});

test("a metrics token shorter than 32 characters, or equal to the API token, stops the start", async () => {
  const envs: Array<Record<string, string>> = [{ INSIGHTS_METRICS_TOKEN: "too-short" }, { INSIGHTS_TOKEN: API_TOKEN, INSIGHTS_METRICS_TOKEN: API_TOKEN }];
  for (const env of envs) {
    try {
      const d = await startDaemon({ env });
      await d.stop();
      assert.unreachable(`started with ${JSON.stringify(Object.keys(env))}`);
    } catch (err) {
      assert.instance(err, InsightsError);
      assert.is((err as InsightsError).code, "CONFIG_INVALID");
      assert.match((err as Error).message, /metricsToken/);
      assert.not.match((err as Error).message, new RegExp(API_TOKEN), "the value is not printed back");
      assert.not.match((err as Error).message, /too-short/);
    }
  }
});

test("the generated API token file and a configured metrics token that equals it: refused too", async () => {
  const first = await startDaemon();
  await first.stop({ keep: true });
  try {
    const d = await startDaemon({ again: { ...first, env: { ...first.env, INSIGHTS_METRICS_TOKEN: first.token } } });
    await d.stop();
    assert.unreachable("started with the metrics token equal to the token file's");
  } catch (err) {
    assert.is((err as InsightsError).code, "CONFIG_INVALID");
    assert.match((err as Error).message, /metricsToken = "<hidden>"/);
  }
});

test.run();
