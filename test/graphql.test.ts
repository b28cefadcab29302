// The GraphQL API against a real daemon on loopback over the real fixtures: every root query and
// every AgentNamespace field, with numbers checked against values computed in this test from
// the fixture files (test/helpers/fixture-expectations.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { removeTempDirs, FILES_FIXTURE, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import { byKey, expectedLog, expectedTotals, fixtureCronJobs, fixtureTranscripts } from "./helpers/fixture-expectations.js";
import { FIXTURE_NOW, gql, gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

const near = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} != ${b}`);

const AGENT = `source(selector: { id: "agent:main" }) { ... on AgentNamespace`;

async function ready(d: TestDaemon): Promise<void> {
  // The first scan runs at start; lifetimeStats.isReady says when it is done.
  for (let i = 0; i < 200; i++) {
    const r = await gqlData<{ source: { lifetimeStats: { isReady: boolean } } }>(d, `{ ${AGENT} { lifetimeStats { isReady } } } }`);
    if (r.source.lifetimeStats.isReady) {
      const logs = await gqlData<{ source: { recentLogs: unknown[] } }>(d, `{ ${AGENT} { recentLogs(count: 1) { time } } } }`);
      if (logs.source.recentLogs.length) return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the daemon did not finish its first scan");
}

for (const fixture of [SQLITE_FIXTURE, FILES_FIXTURE]) {
  test(`${fixture}: sources, system, lifetimeStats, sessions and session`, async () => {
    const d = await startDaemon({ fixture });
    try {
      await ready(d);
      const transcripts = fixtureTranscripts(d.openclawDir);
      const all = expectedTotals(transcripts);

      const s = await gqlData<{ sources: Array<{ id: string; name: string; status: string; attributes: { category: string; provider: string | null; tags: string[] } }> }>(
        d,
        `{ sources { id name status attributes { category provider tags } } }`,
      );
      assert.equal(s.sources, [
        { id: "agent:main", name: "main", status: "CONNECTED", attributes: { category: "AGENT", provider: "PROVIDER_A", tags: ["openclaw", "main"] } },
        { id: "dashboard:self", name: "gateway-insights", status: "CONNECTED", attributes: { category: "DASHBOARD", provider: null, tags: ["gateway-insights"] } },
      ]);
      const filtered = await gqlData<{ a: Array<{ id: string }>; b: Array<{ id: string }>; c: Array<{ id: string }> }>(
        d,
        `{ a: sources(filter: { category: DASHBOARD }) { id } b: sources(context: { tags: ["openclaw"] }) { id } c: sources(filter: { status: ERROR }) { id } }`,
      );
      assert.equal(filtered, { a: [{ id: "dashboard:self" }], b: [{ id: "agent:main" }], c: [] });

      const sys = await gqlData<{ system: { provider: string; demo: boolean; gateway: Record<string, unknown>; resources: Record<string, unknown>; channels: unknown[]; health: { status: string; checks: Array<{ name: string; status: string }> } } }>(
        d,
        `{ system { provider health { status } ... on ProviderASystem { demo gateway { running version appVersion uptime pid updateAvailable } resources { cpu memoryMB diskMB sampledAt } channels { provider name connected latencyMs } health { checks { name status message } } } } }`,
      );
      assert.is(sys.system.provider, "PROVIDER_A");
      assert.is(sys.system.demo, false);
      assert.equal(sys.system.gateway, { running: false, version: fixture === SQLITE_FIXTURE ? "2026.9.6" : "2026.7.1", appVersion: "0.1.0", uptime: null, pid: null, updateAvailable: null });
      assert.is(sys.system.health.status, "UNHEALTHY", "no gateway runs beside the fixture");
      assert.equal(sys.system.health.checks.find((c) => c.name === "gateway")?.status, "FAIL");
      // Health messages follow context.locale; without one they stay the API's plain English.
      const readyMessage = async (context: string): Promise<string | null | undefined> =>
        (await gqlData<{ system: { health: { checks: Array<{ name: string; message: string | null }> } } }>(d, `{ system${context} { health { checks { name message } } } }`)).system.health.checks.find((c) => c.name === "ready")?.message;
      assert.is(await readyMessage(""), "the gateway is down");
      assert.is(await readyMessage(`(context: { locale: "en-US" })`), "the gateway is down");
      assert.is(await readyMessage(`(context: { locale: "zh-CN" })`), "网关已停止");
      assert.is(await readyMessage(`(context: { locale: "zh" })`), "网关已停止");

      const life = await gqlData<{ source: { lifetimeStats: Record<string, number | string | boolean> } }>(
        d,
        `{ ${AGENT} { lifetimeStats { isReady createdAt daysSinceCreation totalSessions totalInputTokens totalOutputTokens totalCacheReadTokens totalCacheWriteTokens totalTokens totalUserMessages totalAssistantMessages totalCostUsd } } } }`,
      );
      const l = life.source.lifetimeStats;
      assert.equal(
        { ...l, totalCostUsd: 0 },
        {
          isReady: true,
          createdAt: new Date(all.firstEvent as number).toISOString(),
          daysSinceCreation: 0,
          totalSessions: transcripts.length,
          totalInputTokens: all.input,
          totalOutputTokens: all.output,
          totalCacheReadTokens: all.cacheRead,
          totalCacheWriteTokens: all.cacheWrite,
          totalTokens: all.total,
          totalUserMessages: all.userMessages,
          totalAssistantMessages: all.assistantMessages,
          totalCostUsd: 0,
        },
      );
      near(l.totalCostUsd as number, all.costUsd, "totalCostUsd");

      const keys = byKey(transcripts);
      const list = await gqlData<{ source: { sessions: Array<{ key: string; kind: string; model: string; status: string; totalTokens: number; inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; costUsd: number; turnCount: number; windows: number; subAgents: unknown[] }> } }>(
        d,
        `{ ${AGENT} { sessions(filter: { sortBy: TOKENS_DESC }) { key kind model status totalTokens inputTokens outputTokens cacheReadTokens cacheWriteTokens costUsd turnCount windows subAgents { key } } } } }`,
      );
      assert.equal(list.source.sessions.map((x) => x.key).sort(), [...keys.keys()].sort());
      for (const x of list.source.sessions) {
        const e = expectedTotals(keys.get(x.key) ?? []);
        assert.equal(
          [x.totalTokens, x.inputTokens, x.outputTokens, x.cacheReadTokens, x.cacheWriteTokens, x.turnCount, x.windows],
          [e.total, e.input, e.output, e.cacheRead, e.cacheWrite, e.userMessages, keys.get(x.key)?.length],
          x.key,
        );
        near(x.costUsd, e.costUsd, `${x.key} cost`);
        assert.is(x.model, "fake-model");
        assert.ok(["ACTIVE", "IDLE", "DONE", "FAILED"].includes(x.status));
      }
      assert.equal(list.source.sessions.map((x) => x.totalTokens), [...list.source.sessions.map((x) => x.totalTokens)].sort((a, b) => b - a));
      const one = await gqlData<{ source: { session: { key: string; turnCount: number } | null; none: null } }>(
        d,
        `{ ${AGENT} { session(key: "agent:main:main") { key turnCount } none: session(key: "agent:main:nope") { key } } } }`,
      );
      assert.equal(one.source.session, { key: "agent:main:main", turnCount: expectedTotals(keys.get("agent:main:main") ?? []).userMessages });
      assert.is(one.source.none, null);
    } finally {
      await d.stop();
    }
  });

  test(`${fixture}: metrics, events, eventDensity, eventCounts, cronJobs, usageCost, recentLogs`, async () => {
    const d = await startDaemon({ fixture });
    try {
      await ready(d);
      const transcripts = fixtureTranscripts(d.openclawDir);
      const m = await gqlData<{ source: { metrics: { range: string; from: string; to: string; totalTokensK: number; rangeTokensK: number; totalTurns: number; costUsd: number; totalErrors: number; totalWarnings: number; uptimePercent: number | null; tokensByModel: Array<{ model: string; tokens: number }>; buckets: Array<{ tokens: number; label: string }> } } }>(
        d,
        `{ ${AGENT} { metrics(range: TWENTY_FOUR_HOUR) { range from to totalTokensK rangeTokensK totalTurns costUsd totalErrors totalWarnings uptimePercent tokensByModel { model tokens } buckets { tokens label } } } } }`,
      );
      const metrics = m.source.metrics;
      const from = Date.parse(metrics.from);
      const to = Date.parse(metrics.to);
      const inRange = expectedTotals(transcripts, (ts) => ts >= from && ts < to);
      assert.is(metrics.buckets.length, 24);
      assert.is(metrics.rangeTokensK, Math.round(inRange.total / 10) / 100);
      assert.is(metrics.totalTokensK, Math.round(expectedTotals(transcripts).total / 10) / 100);
      assert.is(metrics.totalTurns, inRange.userMessages);
      near(metrics.costUsd, inRange.costUsd, "range cost");
      assert.is(metrics.buckets.reduce((a, b) => a + b.tokens, 0), inRange.total);
      assert.equal(metrics.tokensByModel.map((x) => x.model), ["fake-model"]);
      assert.match(metrics.buckets[0]?.label ?? "", /^\d\d:\d\d$/);
      assert.ok(inRange.total > 0);

      // The context's defaultRange applies when the field has no range; an explicit one wins.
      const ranged = await gqlData<{ source: { a: { range: string; buckets: unknown[] }; b: { range: string } } }>(
        d,
        `{ source(selector: { id: "agent:main" }, context: { defaultRange: ONE_HOUR, timezone: "Asia/Shanghai", locale: "zh-CN" }) { ... on AgentNamespace { a: metrics { range buckets { start } } b: metrics(range: SIX_HOUR) { range } } } }`,
      );
      assert.is(ranged.source.a.range, "ONE_HOUR");
      assert.is(ranged.source.a.buckets.length, 12);
      assert.is(ranged.source.b.range, "SIX_HOUR");

      const log = expectedLog(readFileSync(join(d.openclawDir, "logs", "openclaw-2026-11-21.log"), "utf8"));
      const ev = await gqlData<{ source: { events: Array<{ type: string; ts: number; module: string }>; restarts: unknown[]; none: unknown[]; eventCounts: Record<string, number>; eventDensity: Array<Record<string, number | boolean>>; recentLogs: Array<{ time: string }> } }>(
        d,
        `{ ${AGENT} { events { type ts module } restarts: events(types: ["restart"], limit: 10) { ts } none: events(from: 0, to: 1) { ts } eventCounts { error warning restart } eventDensity { hour count hasError hasWarning hasRestart errorCount warningCount restartCount epochStart } recentLogs(count: 7) { time } } } }`,
      );
      const e = ev.source;
      assert.equal(e.eventCounts, { error: log.error, warning: log.warning, restart: log.restart });
      assert.is(e.events.length, log.error + log.warning + log.restart);
      assert.equal(e.events.map((x) => x.ts), [...e.events.map((x) => x.ts)].sort((a, b) => b - a), "newest first");
      assert.is(e.restarts.length, log.restart);
      assert.equal(e.none, []);
      assert.is(e.eventDensity.length, 24);
      assert.is(e.eventDensity.reduce((a, b) => a + (b.count as number), 0), log.error + log.warning + log.restart);
      assert.is(e.eventDensity.reduce((a, b) => a + (b.warningCount as number), 0), log.warning);
      assert.ok(e.eventDensity.some((b) => b.hasRestart === true) === log.restart > 0);
      assert.equal(e.recentLogs.map((x) => Date.parse(x.time)), log.storedTimes.slice(-7));
      const filtered = await gqlData<{ source: { warn: Array<{ level: string }>; gw: Array<{ module: string }> } }>(
        d,
        `{ ${AGENT} { warn: recentLogs(count: 1000, filter: { level: WARN }) { level } gw: recentLogs(count: 1000, filter: { module: "gateway/" }) { module } } } }`,
      );
      assert.is(filtered.source.warn.length, log.error + log.warning, "WARN and above: the warnings and errors of the log");
      assert.ok(filtered.source.warn.every((x) => ["WARN", "ERROR", "FATAL"].includes(x.level)));
      assert.ok(filtered.source.gw.length > 0 && filtered.source.gw.every((x) => x.module === "gateway" || x.module.startsWith("gateway/")));

      const cost = await gqlData<{ source: { usageCost: { currency: string; totalUsd: number; todayUsd: number; byModel: Array<{ model: string; costUsd: number; messages: number }>; byDay: Array<{ date: string; costUsd: number }> } } }>(
        d,
        `{ ${AGENT} { usageCost { currency totalUsd todayUsd byModel { model costUsd messages } byDay { date costUsd } } } } }`,
      );
      const all = expectedTotals(transcripts);
      near(cost.source.usageCost.totalUsd, all.costUsd, "usageCost.totalUsd");
      assert.is(cost.source.usageCost.currency, "USD");
      assert.is(cost.source.usageCost.byModel[0]?.messages, all.assistantMessages);
      assert.is(cost.source.usageCost.byDay.length, 30);

      const cron = await gqlData<{ source: { cronJobs: Array<{ id: string; name: string; enabled: boolean; schedule: string; nextRunAt: string | null; recentRuns: unknown[] }> } }>(
        d,
        `{ ${AGENT} { cronJobs { id name enabled schedule scheduleKind lastRunAt lastStatus lastDurationMs nextRunAt consecutiveErrors recentRuns { id status } } } } }`,
      );
      const jobs = fixtureCronJobs(d.openclawDir).filter((j) => (j.agentId ?? "main") === "main");
      assert.equal(cron.source.cronJobs.map((j) => j.id).sort(), jobs.map((j) => j.id).sort());
      for (const j of cron.source.cronJobs) assert.is(j.enabled, jobs.find((x) => x.id === j.id)?.enabled);
    } finally {
      await d.stop();
    }
  });
}

test("sessionTranscript pages with cursors; before+after, bad cursors and unknown keys are errors", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  try {
    await ready(d);
    const windows = byKey(fixtureTranscripts(d.openclawDir)).get("agent:main:cron:9dfb4fae-b7f6-4eae-a966-549a6bcfe1c0") ?? [];
    const expected = expectedTotals(windows);
    const q = `query($before: String, $after: String, $limit: Int) { ${AGENT} { sessionTranscript(sessionKey: "agent:main:cron:9dfb4fae-b7f6-4eae-a966-549a6bcfe1c0", limit: $limit, before: $before, after: $after) {
      sessionKey displayName model channel kind thinkingLevel startedAt fileSize totalTokens contextTokens durationMs isSubAgent parentDisplayName spawnPrompt totalMessages
      messages { id cursor role text totalTokens inputTokens toolCalls { name } } pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } } } }`;
    type Page = { source: { sessionTranscript: { totalMessages: number; totalTokens: number; kind: string; fileSize: number; messages: Array<{ cursor: string; role: string; totalTokens: number }>; pageInfo: { hasPreviousPage: boolean; hasNextPage: boolean; startCursor: string | null; endCursor: string | null } } } };
    const first = (await gqlData<Page>(d, q, { limit: 4 })).source.sessionTranscript;
    assert.is(first.totalMessages, expected.messages);
    assert.is(first.totalTokens, expected.total);
    assert.is(first.kind, "cron");
    assert.is(first.fileSize, windows.reduce((a, w) => a + w.bytes, 0));
    assert.is(first.messages.length, 4);
    assert.equal([first.pageInfo.hasPreviousPage, first.pageInfo.hasNextPage], [true, false]);
    const all = [...first.messages];
    let page = first;
    while (page.pageInfo.hasPreviousPage) {
      page = (await gqlData<Page>(d, q, { limit: 4, before: page.pageInfo.startCursor })).source.sessionTranscript;
      all.unshift(...page.messages);
    }
    assert.is(all.length, expected.messages);
    assert.is(all.reduce((a, m) => a + m.totalTokens, 0), expected.total);
    const next = (await gqlData<Page>(d, q, { limit: 2, after: all[0]?.cursor })).source.sessionTranscript;
    assert.equal(next.messages.map((m) => m.cursor), all.slice(1, 3).map((m) => m.cursor));
    assert.is(next.pageInfo.hasNextPage, true);

    const both = await gql(d, q, { before: first.pageInfo.startCursor, after: first.pageInfo.endCursor });
    assert.is(both.body.errors?.[0]?.extensions?.code, "BAD_USER_INPUT");
    const bad = await gql(d, q, { before: "garbage" });
    assert.is(bad.body.errors?.[0]?.extensions?.code, "BAD_USER_INPUT");
    const unknown = await gql(d, `{ ${AGENT} { sessionTranscript(sessionKey: "agent:main:ghost") { totalMessages } } } }`);
    assert.is(unknown.body.errors?.[0]?.extensions?.code, "NOT_FOUND");
  } finally {
    await d.stop();
  }
});

test("source: the dashboard namespace, an ambiguous selector, an unknown one, bad context", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  try {
    const dash = await gqlData<{ source: Record<string, unknown> }>(
      d,
      `{ source(selector: { category: DASHBOARD }) { ... on DashboardNamespace { source { id } version now uptimeSeconds demo openclawDir authMode url requestsTotal store { ok schemaVersion sizeBytes } } } }`,
    );
    assert.equal((dash.source.source as { id: string }).id, "dashboard:self");
    assert.is(dash.source.version, "0.1.0");
    const now = Date.parse(dash.source.now as string);
    assert.ok(now >= FIXTURE_NOW && now < FIXTURE_NOW + 60_000, "the daemon's clock (the tests shift it to the fixture's day)");
    assert.is(dash.source.demo, false);
    assert.is(dash.source.authMode, "token");
    assert.is(dash.source.openclawDir, d.openclawDir);
    assert.is((dash.source.store as { ok: boolean }).ok, true);
    assert.ok((dash.source.requestsTotal as number) >= 1);

    const amb = await gql(d, `{ source { __typename } }`);
    assert.is(amb.status, 200);
    assert.is(amb.body.errors?.[0]?.extensions?.code, "AMBIGUOUS_SELECTOR");
    assert.equal(amb.body.errors?.[0]?.extensions?.matches, ["agent:main", "dashboard:self"]);
    assert.match(amb.body.errors?.[0]?.message ?? "", /agent:main, dashboard:self/);
    const none = await gql(d, `{ source(selector: { id: "agent:ghost" }) { __typename } }`);
    assert.is(none.body.errors?.[0]?.extensions?.code, "NOT_FOUND");
    const tz = await gql(d, `{ source(selector: { id: "agent:main" }, context: { timezone: "Mars/Base" }) { __typename } }`);
    assert.is(tz.body.errors?.[0]?.extensions?.code, "BAD_USER_INPUT");
    const badRange = await gql(d, `{ ${AGENT} { metrics(date: "not a date") { range } } } }`);
    assert.is(badRange.body.errors?.[0]?.extensions?.code, "BAD_USER_INPUT");
    const typo = await gql(d, `{ sourcez { id } }`);
    assert.is(typo.status, 400);
    assert.is(typo.body.errors?.[0]?.extensions?.code, "GRAPHQL_VALIDATION_FAILED");
  } finally {
    await d.stop();
  }
});

test("the access log echoes the trace id and never holds the token", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  try {
    await gqlData(d, `{ sources(context: { traceId: "trace-abc.123" }) { id } }`);
    await fetch(`${d.url}/?token=${encodeURIComponent(d.token)}`, { redirect: "manual" });
    await fetch(`${d.url}/graphql`, { method: "POST", headers: { authorization: "Bearer wrong-token-0123456789-0123456789-01", "content-type": "application/json" }, body: "{}" });
    await d.daemon.stop("read the log");
    checkLog(readFileSync(d.paths.logFile, "utf8"), d.token);
  } finally {
    await d.stop();
  }
});

function checkLog(log: string, token: string): void {
  const lines = log.split("\n").filter((l) => l.includes('"msg":"request"'));
  assert.ok(lines.some((l) => l.includes('"traceId":"trace-abc.123"') && l.includes('"auth":"bearer"')), "trace id in the access log");
  assert.ok(lines.length >= 3);
  assert.not.ok(log.includes(token), "the token never reaches the log");
  assert.not.ok(log.includes("wrong-token-0123456789"), "nor a wrong one");
}

test.run();
