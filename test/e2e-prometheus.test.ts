// A fleet seen through a real Prometheus (Debian's prometheus package), started here on loopback
// with a temporary config: two daemons with different data, each its own scrape target with a
// `host` target label, scraped with the read-only metrics token. PromQL's per-provider sums equal
// the two daemons' own GraphQL totals; a daemon restart (on the same address, with new usage
// written while it was down) shows as no counter reset and an increase() of the real growth, not
// a jump; every panel query of docs/grafana/gateway-insights.json returns data; the rate-limit
// gauges of two machines on one account fold with max by (account); a real scrape passes
// `promtool check metrics`; the metrics token cannot call a mutation.
// Outside CI a machine without the prometheus binary skips with a message.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { systemClock } from "../shared/base/clock.js";
import { copyClaudeHome, transcriptFiles } from "./helpers/claude-code-fixture.js";
import { copyCodexHome, rolloutFiles } from "./helpers/codex-fixture.js";
import { makeTempDir, removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { freePort, ROOT } from "./helpers/cli.js";
import { gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";

const METRICS_TOKEN = "prometheus-scrape-token-0123456789abcdefghijkl";
const ACCOUNT_ID = "acc-fleet-test-0001";
const SECRETS = ["eyJhbGciOiJSUzI1NiJ9.fake-id-token", "secret-access-token-do-not-leak", "secret-refresh-token-do-not-leak"];

let prom: ChildProcess | null = null;
let promUrl = "";
const daemons: TestDaemon[] = [];
let skip = false;

function hasPrometheus(): Promise<boolean> {
  return new Promise((resolve) => execFile("prometheus", ["--version"], (err) => resolve(!(err && (err as NodeJS.ErrnoException).code === "ENOENT"))));
}

/** A Codex home copy logged in to ACCOUNT_ID (a ChatGPT login's auth.json, with fake tokens). */
function codexHomeWithLogin(home: string): void {
  cpSync(copyCodexHome().home, home, { recursive: true });
  const auth = { OPENAI_API_KEY: null, tokens: { id_token: SECRETS[0], access_token: SECRETS[1], refresh_token: SECRETS[2], account_id: ACCOUNT_ID }, last_refresh: "2026-11-23T20:00:00Z" };
  writeFileSync(join(home, ".codex", "auth.json"), JSON.stringify(auth, null, 2), { mode: 0o600 });
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Vector {
  metric: Record<string, string>;
  value: [number, string];
}

async function promql(expr: string, time?: number): Promise<Vector[]> {
  const params = new URLSearchParams({ query: expr, ...(time !== undefined ? { time: String(time) } : {}) });
  const res = await fetch(`${promUrl}/api/v1/query?${params}`);
  const body = (await res.json()) as { status: string; error?: string; data: { resultType: string; result: Vector[] | [number, string] } };
  if (body.status !== "success") throw new Error(`${expr}: ${body.error}`);
  // A scalar (`... - time()` is still a vector; `vector(0)` too): only vectors are used here.
  return body.data.resultType === "vector" ? (body.data.result as Vector[]) : [];
}

const num = (v: Vector | undefined): number => Number(v?.value[1] ?? NaN);

test.before(async () => {
  if (!(await hasPrometheus())) {
    if (process.env.CI) throw new Error("prometheus is missing in CI: .ci/run installs Debian's prometheus package");
    console.log("e2e-prometheus.test: skipped, the prometheus binary is not installed (apt-get install prometheus)");
    skip = true;
    return;
  }
  // alpha: OpenClaw (the fixture) and Codex; beta: Claude Code and Codex on the same ChatGPT account.
  const alphaHome = makeTempDir("gi-alpha-");
  codexHomeWithLogin(alphaHome);
  const betaHome = makeTempDir("gi-beta-");
  cpSync(copyClaudeHome().home, betaHome, { recursive: true });
  codexHomeWithLogin(betaHome);
  const env = { INSIGHTS_METRICS_TOKEN: METRICS_TOKEN };
  // The real clock on both: a clock shifted to the OpenClaw fixture's day (the default) would date
  // the Codex rollouts (two days later) in the future, and such rate-limit readings are refused.
  daemons.push(await startDaemon({ clock: systemClock, env: { ...env, HOME: alphaHome, INSIGHTS_HOST_NAME: "alpha-box" } }));
  daemons.push(await startDaemon({ clock: systemClock, env: { ...env, HOME: betaHome, INSIGHTS_OPENCLAW: "off", INSIGHTS_HOST_NAME: "beta-box" } }));

  const dir = makeTempDir("gi-prom-");
  writeFileSync(join(dir, "token"), METRICS_TOKEN, { mode: 0o600 });
  const [alpha, beta] = daemons as [TestDaemon, TestDaemon];
  const target = (d: TestDaemon): string => new URL(d.url).host;
  writeFileSync(
    join(dir, "prometheus.yml"),
    [
      "global: { scrape_interval: 1s, evaluation_interval: 1s }",
      `rule_files: [${JSON.stringify(join(ROOT, "docs", "alerting-rules.yml"))}]`,
      "scrape_configs:",
      "  - job_name: gateway-insights",
      "    scrape_interval: 1s",
      "    scrape_timeout: 1s",
      `    authorization: { credentials_file: ${JSON.stringify(join(dir, "token"))} }`,
      "    static_configs:",
      `      - { targets: [${JSON.stringify(target(alpha))}], labels: { host: alpha } }`,
      `      - { targets: [${JSON.stringify(target(beta))}], labels: { host: beta } }`,
      "",
    ].join("\n"),
  );
  const port = await freePort();
  promUrl = `http://127.0.0.1:${port}`;
  prom = spawn("prometheus", [`--config.file=${join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`, "--log.level=warn"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  prom.stderr?.on("data", (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  await until(`Prometheus to be ready (${stderr})`, async () => ((await fetch(`${promUrl}/-/ready`)).ok ? true : undefined));
  // Both targets up: the metrics token scrapes.
  await until("both targets up", async () => {
    const up = await promql("up");
    return up.length === 2 && up.every((v) => v.value[1] === "1") ? true : undefined;
  });
});

test.after(async () => {
  if (prom && prom.exitCode === null) {
    const exited = new Promise((r) => prom?.once("exit", r));
    prom.kill("SIGTERM");
    await exited;
  }
  for (const d of daemons) await d.stop().catch(() => undefined);
  removeTempDirs();
});

/** Tokens and cost per provider, from one daemon's GraphQL (lifetimeStats of each source). */
async function graphqlTotals(d: TestDaemon): Promise<Map<string, { tokens: number; cost: number }>> {
  const { sources } = await gqlData<{ sources: Array<{ id: string }> }>(d, "{ sources { id } }");
  const out = new Map<string, { tokens: number; cost: number }>();
  for (const { id } of sources) {
    const provider = id.startsWith("agent:") ? "openclaw" : id.startsWith("claude-code:") ? "claude-code" : id.startsWith("codex:") ? "codex" : null;
    if (!provider) continue;
    const data = await gqlData<{ source: { lifetimeStats: { isReady: boolean; totalTokens: number; totalCostUsd: number } } }>(
      d,
      `{ source(selector: { id: ${JSON.stringify(id)} }) { ... on AgentNamespace { lifetimeStats { isReady totalTokens totalCostUsd } } } }`,
    );
    const l = data.source.lifetimeStats;
    if (!l.isReady) throw new Error(`${id} has not finished its first scan`);
    const t = out.get(provider) ?? { tokens: 0, cost: 0 };
    t.tokens += l.totalTokens;
    t.cost += l.totalCostUsd;
    out.set(provider, t);
  }
  return out;
}

test("sum by (provider) over both targets equals the two daemons' own GraphQL totals", async () => {
  if (skip) return;
  const want = new Map<string, { tokens: number; cost: number }>();
  for (const d of daemons) for (const [p, t] of await graphqlTotals(d)) want.set(p, { tokens: (want.get(p)?.tokens ?? 0) + t.tokens, cost: (want.get(p)?.cost ?? 0) + t.cost });
  assert.equal([...want.keys()].sort(), ["claude-code", "codex", "openclaw"]);
  const tokens = await until("Prometheus' token sums to match GraphQL", async () => {
    const got = await promql("sum by (provider) (insights_tokens_total)");
    const byProvider = new Map(got.map((v) => [v.metric.provider as string, num(v)]));
    return [...want].every(([p, t]) => byProvider.get(p) === t.tokens) && byProvider.size === want.size ? byProvider : undefined;
  });
  assert.ok([...tokens.values()].every((v) => v > 0));
  const cost = new Map((await promql("sum by (provider) (insights_cost_usd_total)")).map((v) => [v.metric.provider as string, num(v)]));
  for (const [p, t] of want) assert.ok(Math.abs((cost.get(p) ?? NaN) - t.cost) < 1e-6, `${p} cost ${cost.get(p)} vs ${t.cost}`);
  // Each series is told apart by its target labels, and each daemon names itself in insights_build_info.
  const info = await promql("insights_build_info");
  assert.equal(info.map((v) => [v.metric.host, v.metric.exported_host]).sort(), [["alpha", "alpha-box"], ["beta", "beta-box"]]);
  assert.equal((await promql('count by (host) (insights_tokens_total{provider="codex"})')).map((v) => v.metric.host).sort(), ["alpha", "beta"]);
});

test("rate limits of one account on two machines: one series per host, max by (account) gives the figure once", async () => {
  if (skip) return;
  const account = `acct-${createHash("sha256").update(`gateway-insights:codex-account:${ACCOUNT_ID}`).digest("hex").slice(0, 12)}`;
  const series = await until("rate-limit series of both hosts", async () => {
    const v = await promql('insights_rate_limit_used_ratio{window="primary"}');
    return v.length === 2 ? v : undefined;
  });
  assert.equal(series.map((v) => [v.metric.host, v.metric.account]).sort(), [["alpha", account], ["beta", account]]);
  const max = await promql('max by (account, window) (insights_rate_limit_used_ratio{window="primary"})');
  assert.is(max.length, 1);
  assert.is(num(max[0]), num(series[0]));
  assert.ok(num(max[0]) > 0 && num(max[0]) <= 1);
});

test("a real scrape passes promtool check metrics and carries no login secret", async () => {
  if (skip) return;
  for (const d of daemons) {
    const text = await (await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    for (const s of [...SECRETS, ACCOUNT_ID]) assert.not.ok(text.includes(s), `the scrape contains ${s}`);
    for (const family of text.matchAll(/^([a-z_:][a-z0-9_:]*)(?:\{| )/gm)) assert.match(text, new RegExp(`^# TYPE ${family[1]} (counter|gauge)$`, "m"));
    const r = await new Promise<{ code: number; out: string }>((resolve) => {
      const p = execFile("promtool", ["check", "metrics"], { timeout: 60_000 }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }));
      p.stdin?.end(text);
    });
    assert.is(r.code, 0, r.out);
    assert.is(r.out.trim(), "", "no lint problems");
  }
});

test("the metrics token scrapes but cannot call a mutation", async () => {
  if (skip) return;
  const d = daemons[0] as TestDaemon;
  const res = await fetch(`${d.url}/graphql`, { method: "POST", headers: { authorization: `Bearer ${METRICS_TOKEN}`, "content-type": "application/json" }, body: JSON.stringify({ query: "mutation { restartGateway { ok } }" }) });
  assert.is(res.status, 403);
  assert.is(((await res.json()) as { code: string }).code, "INSUFFICIENT_SCOPE");
});

test("every panel query of the Grafana dashboard returns data, for all hosts and for one", async () => {
  if (skip) return;
  const dash = JSON.parse(readFileSync(join(ROOT, "docs", "grafana", "gateway-insights.json"), "utf8")) as {
    __inputs: Array<{ name: string; pluginId: string }>;
    templating: { list: Array<{ name: string; definition: string }> };
    panels: Array<{ id: number; type: string; title: string; datasource?: { uid: string }; targets?: Array<{ expr: string }> }>;
  };
  assert.equal(dash.__inputs.map((i) => [i.name, i.pluginId]), [["DS_PROMETHEUS", "prometheus"]]);
  assert.equal(dash.templating.list.map((v) => v.name), ["host", "provider"]);
  // The variables' own queries: label_values(metric, label) through the label values API.
  for (const v of dash.templating.list) {
    const m = /^label_values\((.+), (\w+)\)$/.exec(v.definition);
    assert.ok(m, v.definition);
    const res = (await (await fetch(`${promUrl}/api/v1/label/${m[2]}/values?${new URLSearchParams({ "match[]": (m[1] as string).replace('"$host"', '".*"') })}`)).json()) as { data: string[] };
    assert.equal(res.data, v.name === "host" ? ["alpha", "beta"] : ["claude-code", "codex", "openclaw"], v.name);
  }
  const queries = dash.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ id: p.id, title: p.title, expr: t.expr, uid: p.datasource?.uid })));
  // Panels that show only what is wrong or current (5xx, checks not passing, windows not reset yet)
  // may rightly be empty here; their own tests below check what they show.
  const mayBeEmpty = new Set([14, 18, 21, 22]);
  assert.ok(queries.length >= 15, "the dashboard has its panels");
  // Scrapes every second: a minute of rate window has many samples; the range covers the whole test.
  await until("a minute-wide rate window to have two samples", async () => ((await promql("count_over_time(up[1m])")).every((v) => num(v) >= 3) ? true : undefined));
  for (const host of [".*", "alpha"]) {
    for (const q of queries) {
      assert.is(q.uid, "${DS_PROMETHEUS}", `${q.title}: the data source is the import's input`);
      const expr = q.expr.replaceAll("$host", host).replaceAll("$provider", ".*").replaceAll("$__rate_interval", "1m").replaceAll("$__range", "15m");
      assert.not.match(expr, /\$/, `${q.title}: every variable substituted`);
      const result = await promql(expr);
      if (!mayBeEmpty.has(q.id)) assert.ok(result.length > 0, `${q.title} (host ${host}): ${expr} returned no data`);
    }
  }
});

test("a daemon restart: no counter reset, increase() is the real growth, not a jump", async () => {
  if (skip) return;
  const beta = daemons[1] as TestDaemon;
  const port = Number(new URL(beta.url).port);
  const before = num((await promql('sum(insights_tokens_total{host="beta"})'))[0]);
  const start = Date.now() / 1000;
  await beta.stop({ keep: true });
  await until("beta to be seen down", async () => ((await promql('up{host="beta"}'))[0]?.value[1] === "0" ? true : undefined));
  // While it is down, Claude Code writes one more response (a copy of one with new ids and usage).
  const home = beta.env.HOME as string;
  // The main session's transcript, not a sub-agent's.
  const file = transcriptFiles(join(home, ".claude")).find((f) => !f.includes("/subagents/")) as string;
  const path = join(home, ".claude", file);
  // any: raw fixture JSON, copied and changed the way Claude Code would write it.
  const lines = readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
  const template = lines.find((l) => l.type === "assistant" && l.message?.usage && l.message.model !== "<synthetic>") as Record<string, any>;
  const usage = { input_tokens: 1000, output_tokens: 200, cache_read_input_tokens: 30, cache_creation_input_tokens: 4 };
  const added = { ...template, uuid: "0f0f0f0f-0000-4000-8000-00000000fe01", requestId: "req_fleet_restart_1", timestamp: new Date().toISOString(), message: { ...template.message, id: "msg_fleet_restart_1", usage } };
  appendFileSync(path, `${JSON.stringify(added)}\n`);
  const real = 1000 + 200 + 30 + 4;

  const again = await startDaemon({ again: beta, port, clock: systemClock });
  daemons[1] = again;
  await until("beta's counter to include the new response", async () => (num((await promql('sum(insights_tokens_total{host="beta"})'))[0]) === before + real ? true : undefined));
  // A few more scrapes after it, so the window holds samples on both sides of the restart.
  const seen = Date.now();
  await until("more scrapes of beta", async () => {
    const recent = await promql(`count_over_time(up{host="beta"}[${Math.ceil((Date.now() - seen) / 1000)}s])`);
    return num(recent[0]) >= 3 ? true : undefined;
  });
  const window = `${Math.ceil(Date.now() / 1000 - start) + 10}s`;
  assert.is(num((await promql(`sum(resets(insights_tokens_total{host="beta"}[${window}]))`))[0]), 0, "no counter went backwards across the restart");
  const increase = num((await promql(`sum(increase(insights_tokens_total{host="beta"}[${window}]))`))[0]);
  // increase() extrapolates a little to the window's edges; a reset would have added the whole counter (>100k).
  assert.ok(increase >= real && increase < real * 2, `increase() ${increase} for a real growth of ${real} (counter ${before})`);
  assert.ok(before > 10 * real, "a jump would have stood out");
});

/** The dashboard's panels by id, with each query's variables filled in. */
function panelQueries(range: string): Map<number, string[]> {
  const dash = JSON.parse(readFileSync(join(ROOT, "docs", "grafana", "gateway-insights.json"), "utf8")) as { panels: Array<{ id: number; targets?: Array<{ expr: string }> }> };
  return new Map(dash.panels.map((p) => [p.id, (p.targets ?? []).map((t) => t.expr.replaceAll("$host", ".*").replaceAll("$provider", ".*").replaceAll("$__rate_interval", "1m").replaceAll("$__range", range))]));
}

/** Appends responses to beta's main Claude Code transcript (copies of a fixture response with new ids, models and usage). */
function appendClaudeResponses(d: TestDaemon, tag: string, responses: Array<{ model: string; usage: { input_tokens: number; output_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number } }>): number {
  const claudeDir = join(d.env.HOME as string, ".claude");
  const path = join(claudeDir, transcriptFiles(claudeDir).find((f) => !f.includes("/subagents/")) as string);
  // any: raw fixture JSON, copied and changed the way Claude Code would write it.
  const lines = readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
  const template = lines.find((l) => l.type === "assistant" && l.message?.usage && l.message.model !== "<synthetic>") as Record<string, any>;
  let tokens = 0;
  const out = responses.map((r, i) => {
    const n = `${tag}${i}`;
    tokens += r.usage.input_tokens + r.usage.output_tokens + r.usage.cache_read_input_tokens + r.usage.cache_creation_input_tokens;
    return JSON.stringify({ ...template, uuid: `0f0f0f0f-0000-4000-8000-${createHash("sha256").update(n).digest("hex").slice(0, 12)}`, requestId: `req_${n}`, timestamp: new Date().toISOString(), message: { ...template.message, id: `msg_${n}`, model: r.model, usage: r.usage } });
  });
  appendFileSync(path, `${out.join("\n")}\n`);
  return tokens;
}

const hostOf = (d: TestDaemon): string => (d === daemons[0] ? "alpha" : "beta");

test("the dashboard's range panels equal the daemons' own growth over the window, series born in it included", async () => {
  if (skip) return;
  const beta = daemons[1] as TestDaemon;
  const totals = async (): Promise<Map<string, { tokens: number; cost: number }>> => {
    const out = new Map<string, { tokens: number; cost: number }>();
    for (const d of daemons) for (const [p, t] of await graphqlTotals(d)) out.set(`${hostOf(d)}/${p}`, t);
    return out;
  };
  // Prometheus holds each daemon's current figures: the window's start.
  const before = await totals();
  const sumOf = (m: Map<string, { tokens: number }>): number => [...m.values()].reduce((a, t) => a + t.tokens, 0);
  await until("Prometheus to hold the figures before the window", async () => (num((await promql("sum(insights_tokens_total)"))[0]) === sumOf(before) ? true : undefined));
  await new Promise((r) => setTimeout(r, 2000));
  const t0 = Date.now() / 1000;
  // Inside the window: a response of a model already seen, one of a model beta never used (new
  // series for every counter) and one of a model with no price (a new unpriced series, born at 1).
  const added = appendClaudeResponses(beta, "fleet_window_", [
    { model: "claude-sonnet-4-5-20250929", usage: { input_tokens: 1200, output_tokens: 340, cache_read_input_tokens: 5000, cache_creation_input_tokens: 64 } },
    { model: "claude-opus-4-1-20250805", usage: { input_tokens: 900, output_tokens: 410, cache_read_input_tokens: 0, cache_creation_input_tokens: 2048 } },
    { model: "claude-made-up-model-9", usage: { input_tokens: 77, output_tokens: 33, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
  ]);
  const after = await until("beta's totals to include the new responses", async () => {
    const t = await totals();
    return sumOf(t) === sumOf(before) + added ? t : undefined;
  });
  await until("Prometheus to scrape them", async () => (num((await promql("sum(insights_tokens_total)"))[0]) === sumOf(after) ? true : undefined));
  const t1 = Math.ceil(Date.now() / 1000);
  const range = `${Math.ceil(t1 - t0)}s`;
  const q = panelQueries(range);
  const at = async (id: number): Promise<Vector[]> => promql((q.get(id) as string[])[0] as string, t1);
  const growth = (key: (k: string) => string, field: "tokens" | "cost"): Map<string, number> => {
    const m = new Map<string, number>();
    for (const [k, v] of after) m.set(key(k), (m.get(key(k)) ?? 0) + v[field] - (before.get(k)?.[field] ?? 0));
    return m;
  };
  const close = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9;

  // Panel 8, total tokens; panel 7, tokens by host.
  assert.is(num((await at(8))[0]), added, "total tokens in the window");
  const byHost = growth((k) => k.split("/")[0] as string, "tokens");
  assert.equal(new Map((await at(7)).map((v) => [v.metric.host as string, num(v)])), byHost);
  assert.is(byHost.get("beta"), added);
  // Panel 4, total spend; panel 3, spend by host and provider.
  const cost = growth((k) => k, "cost");
  const total = [...cost.values()].reduce((a, b) => a + b, 0);
  assert.ok(total > 0 && close(num((await at(4))[0]), total), `total spend ${num((await at(4))[0])} vs ${total}`);
  for (const v of await at(3)) assert.ok(close(num(v), cost.get(`${v.metric.host}/${v.metric.provider}`) ?? NaN), `${v.metric.host}/${v.metric.provider}: ${num(v)}`);
  assert.is((await at(3)).length, cost.size);
  // Panel 15: the one unpriced response.
  assert.is(num((await at(15))[0]), 1, "unpriced responses in the window");
});

test("the rate-limit panels leave out windows that have reset, and show a current one", async () => {
  if (skip) return;
  const q = panelQueries("15m");
  const now = Date.now() / 1000;
  const raw = await promql("insights_rate_limit_resets_timestamp_seconds");
  assert.ok(raw.length > 0 && raw.every((v) => num(v) < now), "the fixture's windows have all reset by now");
  assert.equal(await promql((q.get(21) as string[])[0] as string), [], "no expired window in the used-ratio panel");
  assert.equal(await promql((q.get(22) as string[])[0] as string), [], "no negative time to reset");

  // Codex records a new reading on beta: a current 5-hour window.
  const beta = daemons[1] as TestDaemon;
  const codexDir = join(beta.env.HOME as string, ".codex");
  const rollout = join(codexDir, rolloutFiles(codexDir)[0] as string);
  const resetsAt = Math.floor(now) + 3600;
  const line = { timestamp: new Date().toISOString(), type: "event_msg", payload: { type: "token_count", info: null, rate_limits: { limit_id: "codex", limit_name: null, primary: { used_percent: 42.5, window_minutes: 300, resets_at: resetsAt }, secondary: null, credits: null, plan_type: null } } };
  appendFileSync(rollout, `${JSON.stringify(line)}\n`);
  const used = await until("the current window in the used-ratio panel", async () => {
    const v = await promql((q.get(21) as string[])[0] as string);
    return v.length > 0 ? v : undefined;
  });
  assert.equal(used.map((v) => [v.metric.window, num(v)]), [["primary", 0.425]]);
  const left = await promql((q.get(22) as string[])[0] as string);
  assert.equal(left.map((v) => v.metric.window), ["primary"]);
  assert.ok(num(left[0]) > 0 && num(left[0]) <= 3600, `time to reset ${num(left[0])}`);
});

test("the filtered panels show only what their titles say: HTTP 5xx, checks not passing, provider sources", async () => {
  if (skip) return;
  const q = panelQueries("15m");
  const statuses = (await promql((q.get(14) as string[])[0] as string)).map((v) => v.metric.status as string);
  assert.ok(statuses.every((s) => /^5\d\d$/.test(s)), `statuses ${statuses}`);
  const all = await promql('max by (host, check) (openclaw_health_check_status{host=~".*"})');
  assert.ok(all.some((v) => num(v) === 0), "some checks pass");
  const shown = await promql((q.get(18) as string[])[0] as string);
  assert.equal(shown.map((v) => `${v.metric.host}/${v.metric.check}`).sort(), all.filter((v) => num(v) > 0).map((v) => `${v.metric.host}/${v.metric.check}`).sort());
  const sources = await promql("insights_source_up");
  assert.ok(sources.length > 0 && sources.every((v) => v.metric.source !== "dashboard:self" && v.metric.provider), "only the providers' sources");
});

test.run();
