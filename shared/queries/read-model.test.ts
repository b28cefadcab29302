// The read model over both real fixture eras: every number is compared with values computed
// from the fixture files themselves (test/helpers/fixture-expectations.ts), never with the code
// under test.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { byKey, expectedLog, expectedTotals, fixtureCronJobs, fixtureTranscripts } from "../../test/helpers/fixture-expectations.js";
import { InsightsError } from "../base/errors.js";
import { Collector } from "../ingest/collector.js";
import { copyFixture, FILES_FIXTURE, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";
import { Store } from "../store/store.js";
import { RANGES } from "./metrics.js";
import { ReadModel } from "./read-model.js";
import { fixtureReadModel, type FixtureModel } from "../../test/helpers/read-model.js";

test.after(removeTempDirs);

const near = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} != ${b}`);

async function setup(fixture: string): Promise<{ dir: string; model: ReadModel; collector: Collector; store: Store; clock: FixtureModel["clock"] }> {
  const dir = copyFixture(fixture);
  const f = await fixtureReadModel(dir);
  assert.equal(f.degraded, []);
  return { dir, model: f.model, collector: f.collector, store: f.store, clock: f.clock };
}

function expectCode(fn: () => unknown, code: string): InsightsError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, InsightsError);
    assert.is((err as InsightsError).code, code);
    return err as InsightsError;
  }
  throw new Error(`expected an InsightsError ${code}, nothing was thrown`);
}

for (const fixture of [SQLITE_FIXTURE, FILES_FIXTURE]) {
  test(`${fixture}: sources, lifetime totals and sessions match the transcripts`, async () => {
    const { dir, model, collector } = await setup(fixture);
    const transcripts = fixtureTranscripts(dir);
    const all = expectedTotals(transcripts);
    assert.ok(all.assistantMessages > 0 && all.total > 0, "the fixture has usage");

    assert.equal(model.sources().map((s) => `${s.id}:${s.status}:${s.attributes.category}`), ["agent:main:CONNECTED:AGENT", "dashboard:self:CONNECTED:DASHBOARD"]);
    assert.equal(model.sources({ category: "AGENT" }).map((s) => s.id), ["agent:main"]);
    assert.equal(model.sources({ tags: ["openclaw", "main"] }).map((s) => s.id), ["agent:main"]);
    assert.equal(model.sources({ status: "ERROR" }), []);

    const life = model.lifetimeStats("agent:main");
    assert.is(life.isReady, true);
    assert.is(life.totalSessions, transcripts.length);
    assert.is(life.totalInputTokens, all.input);
    assert.is(life.totalOutputTokens, all.output);
    assert.is(life.totalCacheReadTokens, all.cacheRead);
    assert.is(life.totalCacheWriteTokens, all.cacheWrite);
    assert.is(life.totalTokens, all.total);
    assert.is(life.totalUserMessages, all.userMessages);
    assert.is(life.totalAssistantMessages, all.assistantMessages);
    // The earliest event of any type: a transcript's `session` header comes before its first message.
    assert.ok((all.firstEvent as number) < (all.firstActivity as number), "the fixture's first header precedes its first message");
    assert.is(life.createdAt, new Date(all.firstEvent as number).toISOString());
    near(life.totalCostUsd, all.costUsd, "lifetime cost");

    const keys = byKey(transcripts);
    const sessions = model.sessions("agent:main", { grouped: false });
    assert.equal(sessions.map((s) => s.key).sort(), [...keys.keys()].sort());
    for (const s of sessions) {
      const e = expectedTotals(keys.get(s.key) ?? []);
      assert.is(s.totalTokens, e.total, `${s.key} totalTokens`);
      assert.is(s.inputTokens, e.input, `${s.key} input`);
      assert.is(s.outputTokens, e.output, `${s.key} output`);
      assert.is(s.cacheReadTokens, e.cacheRead, `${s.key} cacheRead`);
      assert.is(s.turnCount, e.userMessages, `${s.key} turnCount`);
      assert.is(s.windows, keys.get(s.key)?.length);
      near(s.costUsd, e.costUsd, `${s.key} cost`);
      assert.is(s.kind, s.key.includes(":cron:") ? "cron" : "direct");
      assert.is(s.model, "fake-model");
    }
    const byTokens = model.sessions("agent:main", { sortBy: "TOKENS_DESC", grouped: false }).map((s) => s.totalTokens);
    assert.equal(byTokens, [...byTokens].sort((a, b) => b - a));
    assert.is(model.sessions("agent:main", { limit: 1 }).length, 1);
    const main = model.session("agent:main", "agent:main:main");
    assert.is(main?.turnCount, expectedTotals(keys.get("agent:main:main") ?? []).userMessages);
    assert.is(model.session("agent:main", "agent:main:nope"), null);
    expectCode(() => model.sessions("ghost"), "NOT_FOUND");
    await collector.stop();
  });

  test(`${fixture}: metrics, events, cost, cron and logs`, async () => {
    const { dir, model, collector, clock } = await setup(fixture);
    const transcripts = fixtureTranscripts(dir);

    for (const range of Object.keys(RANGES) as Array<keyof typeof RANGES>) {
      const m = model.metrics("agent:main", { range });
      assert.is(m.buckets.length, RANGES[range].buckets, range);
      const from = Date.parse(m.from);
      const to = Date.parse(m.to);
      const e = expectedTotals(transcripts, (ts) => ts >= from && ts < to);
      assert.is(m.rangeTokensK, Math.round(e.total / 10) / 100, `${range} rangeTokensK`);
      assert.is(m.totalTurns, e.userMessages, `${range} turns`);
      near(m.costUsd, e.costUsd, `${range} cost`);
      assert.is(m.buckets.reduce((a, b) => a + b.tokens, 0), e.total, `${range} bucket sum`);
      assert.is(m.totalTokensK, Math.round(expectedTotals(transcripts).total / 10) / 100);
      assert.is(m.uptimePercent, 0, "every stored probe found the gateway down");
    }
    const day = model.metrics("agent:main", { range: "TWENTY_FOUR_HOUR" });
    assert.ok(day.rangeTokensK > 0, "the recording is inside the last 24 h");
    expectCode(() => model.metrics("agent:main", { date: "yesterday" }), "BAD_USER_INPUT");
    expectCode(() => model.metrics("agent:main", { timeZone: "Mars/Olympus" }), "BAD_USER_INPUT");

    const log = expectedLog(readFileSync(join(dir, "logs", "openclaw-2026-11-21.log"), "utf8"));
    const counts = model.eventCounts("agent:main");
    assert.equal(counts, { error: log.error, warning: log.warning, restart: log.restart });
    assert.is(model.events("agent:main", { types: ["restart"] }).length, log.restart);
    assert.is(model.events("agent:main").length, Math.min(200, log.error + log.warning + log.restart));
    assert.is(model.events("agent:main", { limit: 1 }).length, Math.min(1, log.error + log.warning + log.restart));
    expectCode(() => model.events("agent:main", { types: ["boom"] }), "BAD_USER_INPUT");
    const density = model.eventDensity("agent:main");
    assert.is(density.length, 24);
    assert.is(density.reduce((a, b) => a + b.count, 0), log.error + log.warning + log.restart);
    assert.is(density.reduce((a, b) => a + b.restartCount, 0), log.restart);
    const recent = model.recentLogs("agent:main", 5);
    assert.is(recent.length, 5);
    assert.equal(recent.map((r) => Date.parse(r.time)), log.storedTimes.slice(-5));

    const cost = model.usageCost("agent:main");
    near(cost.totalUsd, expectedTotals(transcripts).costUsd, "total cost");
    near(cost.todayUsd, expectedTotals(transcripts, (ts) => ts >= Date.parse("2026-11-21T00:00:00Z")).costUsd, "today cost");
    assert.equal(cost.byModel.map((m) => m.model), ["fake-model"]);
    assert.is(cost.byDay.length, 30);

    const jobs = fixtureCronJobs(dir).filter((j) => (j.agentId ?? "main") === "main");
    const listed = model.cronJobs("agent:main");
    assert.equal(listed.map((j) => j.id).sort(), jobs.map((j) => j.id).sort());
    for (const j of listed) assert.is(j.enabled, jobs.find((x) => x.id === j.id)?.enabled);

    // Overdue: enabled and more than a minute past the run the gateway scheduled, by the model's
    // (injected) clock. No run of the fixtures is in progress, so none is excused for running.
    const overdue = (now: number): Record<string, number | null> =>
      Object.fromEntries(
        jobs.map((j) => {
          assert.ok(j.nextRunAtMs !== null, `${j.id} has a stored next run`);
          const late = now - (j.nextRunAtMs as number);
          return [j.id, j.enabled && late > 60_000 ? Math.floor(late / 1000) : null];
        }),
      );
    const seen = (): Record<string, number | null> => Object.fromEntries(model.cronJobs("agent:main").map((j) => [j.id, j.overdue ? j.overdueSeconds : null]));
    for (const j of model.cronJobs("agent:main")) assert.is(j.overdue, j.overdueSeconds !== null);
    const before = seen();
    assert.equal(before, overdue(model.now()));
    clock.advance(3_600_000);
    const after = seen();
    assert.equal(after, overdue(model.now()), "an hour later, by the injected clock");
    assert.ok(Object.keys(before).some((id) => before[id] === null && after[id] !== null), "a job falls overdue as the clock moves on");
    await collector.stop();
  });

  test(`${fixture}: the transcript pages through every message`, async () => {
    const { dir, model, collector } = await setup(fixture);
    const windows = byKey(fixtureTranscripts(dir)).get("agent:main:main") ?? [];
    const expected = expectedTotals(windows);
    const first = model.sessionTranscript("agent:main", { sessionKey: "agent:main:main", limit: 1 });
    assert.is(first.totalMessages, expected.messages);
    assert.is(first.fileSize, windows.reduce((a, w) => a + w.bytes, 0));
    assert.is(first.totalTokens, expected.total);
    assert.is(first.messages.length, 1);
    assert.is(first.pageInfo.hasNextPage, false, "the default page is the newest");
    // Walk backwards to the start, one message per page.
    const seen = [...first.messages];
    let page = first;
    while (page.pageInfo.hasPreviousPage) {
      page = model.sessionTranscript("agent:main", { sessionKey: "agent:main:main", limit: 1, before: page.pageInfo.startCursor });
      seen.unshift(...page.messages);
    }
    assert.is(seen.length, expected.messages);
    assert.equal(seen.filter((m) => m.role === "user").length, expected.userMessages);
    const forward = model.sessionTranscript("agent:main", { sessionKey: "agent:main:main", limit: 500, after: seen[0]?.cursor });
    assert.is(forward.messages.length, expected.messages - 1);
    expectCode(() => model.sessionTranscript("agent:main", { sessionKey: "agent:main:main", before: "x", after: "y" }), "BAD_USER_INPUT");
    expectCode(() => model.sessionTranscript("agent:main", { sessionKey: "agent:main:main", before: "not-a-cursor" }), "BAD_USER_INPUT");
    expectCode(() => model.sessionTranscript("agent:main", { sessionKey: "agent:main:ghost" }), "NOT_FOUND");
    await collector.stop();
  });
}

test("selectors: one source, ambiguity listed, nothing found", async () => {
  const { model, collector } = await setup(SQLITE_FIXTURE);
  assert.is(model.select({ id: "agent:main" }).kind, "agent");
  assert.is(model.select({ category: "DASHBOARD" }).kind, "dashboard");
  const err = expectCode(() => model.select({}), "AMBIGUOUS_SELECTOR");
  assert.equal(err.details.matches, ["agent:main", "dashboard:self"]);
  expectCode(() => model.select({ id: "agent:ghost" }), "NOT_FOUND");
  await collector.stop();
});

test("system: no gateway outside demo mode is UNHEALTHY with a failing gateway check", async () => {
  const { model, collector } = await setup(SQLITE_FIXTURE);
  const sys = model.system();
  assert.ok(sys);
  assert.is(sys.gateway.running, false);
  assert.is(sys.gateway.version, "2026.9.6");
  assert.is(sys.gateway.appVersion, "0.1.0");
  assert.is(sys.health.status, "UNHEALTHY");
  assert.equal(sys.health.checks.find((c) => c.name === "gateway")?.status, "FAIL");
  assert.equal(sys.health.checks.find((c) => c.name === "sources")?.status, "PASS");
  assert.equal(sys.health.checks.find((c) => c.name === "store")?.status, "PASS");
  await collector.stop();
});

test.run();
