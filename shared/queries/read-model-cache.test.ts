// The read model keeps answers between changes (read-cache.ts). These tests check that what it
// keeps is never wrong: a change of one source refreshes that source's answers and no other's,
// the clock moving into a new bucket moves the metrics, a session turns IDLE 30 minutes after its
// last activity with nothing written, and rows no source reports (a session list replaced
// without a change, a gateway probe, a log line) are seen at once. Expected figures come from the
// fixture files and from what the test appends, never from the code under test.
import { appendFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectedTotals, FIXTURE_NOW, fixtureTranscripts } from "../../test/helpers/fixture-expectations.js";
import { runRetention } from "../store/retention.js";
import { fixtureReadModel, type FixtureModel } from "../../test/helpers/read-model.js";
import { copyFixture, FILES_FIXTURE, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import type { Metrics } from "./metrics.js";
import type { SessionView } from "./sessions.js";
import { HOUR, MINUTE } from "./time.js";

test.after(removeTempDirs);

/** The files-era fixture with a second agent (`ops`, a copy of `main`): two sources to tell apart. */
async function twoSources(): Promise<FixtureModel & { dir: string }> {
  const dir = copyFixture(FILES_FIXTURE);
  cpSync(join(dir, "agents", "main"), join(dir, "agents", "ops"), { recursive: true });
  const f = await fixtureReadModel(dir);
  assert.equal(f.degraded, []);
  assert.equal(
    f.model.agents().map((a) => a.id),
    ["agent:main", "agent:ops"],
  );
  return { ...f, dir };
}

function sessionsJson(dir: string, agent: string): string {
  return join(dir, "agents", agent, "sessions", "sessions.json");
}

let turn = 0;
/** One user and one assistant message of `tokens` input tokens at `iso`, appended to `key`'s transcript (as OpenClaw writes them). */
function appendTurn(dir: string, agent: string, key: string, tokens: number, iso: string): void {
  const index = JSON.parse(readFileSync(sessionsJson(dir, agent), "utf8")) as Record<string, { sessionId: string }>;
  const id = index[key]?.sessionId;
  assert.ok(id, `${key} is in ${agent}'s sessions.json`);
  turn++;
  const user = { type: "message", id: `cache-u${turn}`, parentId: null, timestamp: iso, message: { role: "user", content: `turn ${turn}` } };
  const reply = {
    type: "message",
    id: `cache-a${turn}`,
    parentId: `cache-u${turn}`,
    timestamp: iso,
    message: { role: "assistant", content: [{ type: "text", text: "ok" }], model: "fake-model", provider: "fakellm", usage: { input: tokens, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } } },
  };
  appendFileSync(join(dir, "agents", agent, "sessions", `${id}.jsonl`), `${JSON.stringify(user)}\n${JSON.stringify(reply)}\n`);
}

const bucketTokens = (m: Metrics): number => m.buckets.reduce((a, b) => a + b.tokens, 0);
const byKey = (list: readonly SessionView[], key: string): SessionView => {
  const s = list.find((x) => x.key === key);
  assert.ok(s, `${key} is listed`);
  return s;
};

test("a change of one source refreshes that source's answers and keeps the other's", async () => {
  const { dir, model, collector } = await twoSources();
  const main1 = model.sessions("agent:main");
  const ops1 = model.sessions("agent:ops");
  const mainMetrics1 = model.metrics("agent:main", { range: "TWENTY_FOUR_HOUR" });
  const opsMetrics1 = model.metrics("agent:ops", { range: "TWENTY_FOUR_HOUR" });
  const mainLife1 = model.lifetimeStats("agent:main");
  const mainCounts1 = model.sessionCounts("agent:main");
  const mainCost1 = model.usageCost("agent:main");
  // Asked again with nothing changed: the same answers (kept, not made again).
  assert.is(model.sessions("agent:main"), main1);
  assert.is(model.sessions("agent:ops"), ops1);

  appendTurn(dir, "main", "agent:main:main", 1000, "2026-11-21T23:19:30.000Z");
  const changed: string[] = [];
  const off = collector.onChange((s) => changed.push(s));
  await collector.collectOnce(10_000);
  off();
  assert.ok(changed.includes("agent:main"), "the collector reported main's change");
  assert.not.ok(changed.includes("agent:ops"), "ops did not change");

  const main2 = model.sessions("agent:main");
  assert.is.not(main2, main1);
  assert.is(byKey(main2, "agent:main:main").totalTokens, byKey(main1, "agent:main:main").totalTokens + 1000);
  assert.is(byKey(main2, "agent:main:main").turnCount, byKey(main1, "agent:main:main").turnCount + 1);
  const mainMetrics2 = model.metrics("agent:main", { range: "TWENTY_FOUR_HOUR" });
  assert.is(bucketTokens(mainMetrics2), bucketTokens(mainMetrics1) + 1000);
  assert.is(mainMetrics2.totalTurns, mainMetrics1.totalTurns + 1);
  assert.is(model.lifetimeStats("agent:main").totalTokens, mainLife1.totalTokens + 1000);
  assert.is(model.sessionCounts("agent:main").total, mainCounts1.total);
  const cost2 = model.usageCost("agent:main");
  assert.is.not(cost2, mainCost1, "usage cost is made again after the change");
  assert.is(cost2.byModel.reduce((a, m) => a + m.messages, 0), mainCost1.byModel.reduce((a, m) => a + m.messages, 0) + 1, "the appended reply is counted");

  // ops: the very same answers, its figures unmoved.
  assert.is(model.sessions("agent:ops"), ops1);
  assert.equal(model.metrics("agent:ops", { range: "TWENTY_FOUR_HOUR" }), opsMetrics1);
  await collector.stop();
});

test("the clock moving into a new bucket moves the metrics window; within a bucket the answer stays", async () => {
  const { dir, model, collector, clock } = await twoSources();
  const transcripts = fixtureTranscripts(dir);
  const check = (m: Metrics, what: string): void => {
    const from = Date.parse(m.from);
    const to = Date.parse(m.to);
    assert.ok(clock.now() >= to - HOUR && clock.now() < to, `${what}: now is in the last bucket`);
    assert.is(bucketTokens(m), expectedTotals(transcripts, (ts) => ts >= from && ts < to).total, `${what}: tokens in the window`);
    assert.is(m.totalTurns, expectedTotals(transcripts, (ts) => ts >= from && ts < to).userMessages, `${what}: turns in the window`);
  };
  // FIXTURE_NOW is 23:20 UTC: the 24-hour grid ends at midnight.
  const m1 = model.metrics("agent:main", { range: "TWENTY_FOUR_HOUR" });
  assert.is(m1.to, "2026-11-22T00:00:00.000Z");
  check(m1, "at 23:20");
  clock.advance(39 * MINUTE + 59_999);
  const m2 = model.metrics("agent:main", { range: "TWENTY_FOUR_HOUR" });
  assert.equal(m2, m1, "23:59:59.999 is still in the same bucket");
  clock.advance(1);
  const m3 = model.metrics("agent:main", { range: "TWENTY_FOUR_HOUR" });
  assert.is(m3.to, "2026-11-22T01:00:00.000Z");
  assert.is(m3.buckets.length, 24);
  check(m3, "at midnight");
  assert.is(m3.buckets[22]?.start, m1.buckets[23]?.start, "the grid moved by one bucket");
  // A short range moves every 5 minutes.
  const short1 = model.metrics("agent:main", { range: "THIRTY_MIN" });
  clock.advance(5 * MINUTE);
  const short2 = model.metrics("agent:main", { range: "THIRTY_MIN" });
  assert.is(Date.parse(short2.to) - Date.parse(short1.to), 5 * MINUTE);
  // Much later, the recording has left the window altogether.
  clock.advance(2 * 24 * HOUR);
  assert.is(bucketTokens(model.metrics("agent:main", { range: "TWENTY_FOUR_HOUR" })), 0);
  await collector.stop();
});

test("a session turns IDLE 30 minutes after its last activity and DONE after 24 hours, with nothing written", async () => {
  const { model, collector, clock } = await twoSources();
  const key = "agent:main:main";
  const last = Date.parse(model.session("agent:main", key)?.lastActivityAt ?? "");
  assert.ok(Number.isFinite(last), "the session has a last activity");
  const status = (): string => byKey(model.sessions("agent:main", { grouped: false }), key).status;
  const activeKeys = (): string[] => model.sessions("agent:main", { activeOnly: true, grouped: false }).map((s) => s.key);

  clock.set(last + 30 * MINUTE - 1);
  assert.is(status(), "ACTIVE");
  assert.ok(activeKeys().includes(key));
  const active = model.sessionCounts("agent:main").ACTIVE;
  assert.ok(active >= 1);
  // Asked twice: kept.
  assert.is(model.sessions("agent:main", { grouped: false }), model.sessions("agent:main", { grouped: false }));

  clock.set(last + 30 * MINUTE);
  assert.is(status(), "IDLE", "30 minutes after the last activity");
  assert.not.ok(activeKeys().includes(key));
  assert.is(model.sessionCounts("agent:main").ACTIVE, active - 1);
  assert.is(model.sessionCounts("agent:main").IDLE >= 1, true);

  clock.set(last + 24 * HOUR);
  assert.is(status(), "DONE", "24 hours after the last activity");
  await collector.stop();
});

test("a session list the source replaced without reporting a change is not answered from before", async () => {
  const { dir, model, collector } = await twoSources();
  const key = "agent:main:cron:aa96047d-3887-48e0-a05c-0533fd1f5372";
  assert.is(byKey(model.sessions("agent:main", { grouped: false }), key).displayName, "Cron: legacy-probe-every-2m");
  // A new label only: the session's activity and status are the same, so no change is reported.
  const file = sessionsJson(dir, "main");
  const index = JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, unknown>>;
  (index[key] as Record<string, unknown>).label = "Cron: renamed";
  writeFileSync(file, JSON.stringify(index));
  const changed: string[] = [];
  const off = collector.onChange((s) => changed.push(s));
  await collector.collectOnce(10_000);
  off();
  assert.not.ok(changed.includes("agent:main"), "the source reported no change (a relabel alone is not one)");
  assert.is(byKey(model.sessions("agent:main", { grouped: false }), key).displayName, "Cron: renamed");
  await collector.stop();
});

test("a gateway probe and a gateway log line show in the next metrics; a log line keeps the sessions", async () => {
  const { dir, model, collector, store, clock } = await twoSources();
  const sessions = model.sessions("agent:main");
  const life = model.lifetimeStats("agent:main");
  const m1 = model.metrics("agent:main", { range: "ONE_HOUR" });
  assert.is(m1.uptimePercent, 0, "the one stored probe found the gateway down");
  // A probe that found it up, stored as the gateway monitor stores it (no source reports it).
  store.db.prepare("INSERT INTO gateway_samples (ts, up, pid, cpu_percent, rss_mb, latency_ms) VALUES (?, 1, 4242, 1.0, 100, 2.0)").run(clock.now());
  assert.is(model.metrics("agent:main", { range: "ONE_HOUR" }).uptimePercent, 50);
  assert.is(model.metrics("agent:ops", { range: "ONE_HOUR" }).uptimePercent, 50, "the gateway's probes are every OpenClaw source's");

  const log = join(dir, "logs", "openclaw-2026-11-21.log");
  const line = { "0": '{"subsystem":"diagnostic"}', "1": "cache test warning", _meta: { logLevelName: "WARN" }, time: new Date(clock.now() - MINUTE).toISOString(), message: "cache test warning" };
  appendFileSync(log, `${JSON.stringify(line)}\n`);
  const causes: string[] = [];
  const off = collector.onChange((source, cause) => causes.push(`${source} ${cause}`));
  await collector.collectOnce(10_000);
  off();
  assert.ok(causes.includes("agent:main logs"), `the log line was reported as a change of agent:main: ${causes.join(", ")}`);
  assert.not.ok(causes.includes("agent:main sources"), "no transcript changed");
  const m2 = model.metrics("agent:main", { range: "ONE_HOUR" });
  assert.is(m2.totalWarnings, m1.totalWarnings + 1);
  // A log line changes no session, usage or lifetime figure: those answers are kept.
  assert.is(model.sessions("agent:main"), sessions);
  assert.equal(model.lifetimeStats("agent:main"), life);
  await collector.stop();
});

test("a transcript cut to nothing is forgotten in the next answers, though the session index did not move", async () => {
  const { dir, model, collector } = await twoSources();
  const key = "agent:main:main";
  const index = JSON.parse(readFileSync(sessionsJson(dir, "main"), "utf8")) as Record<string, { sessionId: string }>;
  const id = index[key]?.sessionId as string;
  const gone = fixtureTranscripts(dir).filter((t) => t.sessionId === id);
  assert.is(gone.length, 1);
  const cut = expectedTotals(gone);
  assert.ok(cut.total > 0, "the transcript has tokens to lose");
  const session1 = byKey(model.sessions("agent:main"), key).totalTokens;
  const life1 = model.lifetimeStats("agent:main").totalTokens;
  const m1 = model.metrics("agent:main", { range: "TWENTY_FOUR_HOUR" });
  const [from, to] = [Date.parse(m1.from), Date.parse(m1.to)];
  const inWindow = expectedTotals(gone, (ts) => ts >= from && ts < to).total;
  assert.ok(inWindow > 0, "some of its tokens are in the 24-hour window");
  const projects1 = model.projects("agent:main").reduce((a, p) => a + p.totalTokens, 0);

  // Cut to nothing (as a rewrite would start): the scan reads it again from its start and finds no
  // event, sessions.json is untouched.
  writeFileSync(join(dir, "agents", "main", "sessions", `${id}.jsonl`), "");
  const changed: string[] = [];
  const off = collector.onChange((s) => changed.push(s));
  await collector.collectOnce(10_000);
  off();
  assert.ok(changed.includes("agent:main"), "the refresh reported main's change (its figures went down)");
  assert.is(byKey(model.sessions("agent:main"), key).totalTokens, session1 - cut.total);
  assert.is(model.lifetimeStats("agent:main").totalTokens, life1 - cut.total);
  assert.is(bucketTokens(model.metrics("agent:main", { range: "TWENTY_FOUR_HOUR" })), bucketTokens(m1) - inWindow);
  assert.is(model.projects("agent:main").reduce((a, p) => a + p.totalTokens, 0), projects1 - cut.total);
  await collector.stop();
});

test("retention that prunes rows no answer is kept across, whoever runs it", async () => {
  // Eight days after the recording: its usage rows are older than rawDays (7) and not rolled up yet.
  const now = FIXTURE_NOW + 8 * 24 * HOUR;
  const dir = copyFixture(FILES_FIXTURE);
  const { model, collector, store } = await fixtureReadModel(dir, now);
  const day = "2026-11-21";
  const expected = expectedTotals(fixtureTranscripts(dir), (ts) => new Date(ts).toISOString().startsWith(day)).total;
  assert.ok(expected > 0, "the fixture has tokens on its day");
  const tokensOn = (): number => model.usageCost("agent:main", "UTC").byDay.find((d) => d.date === day)?.totalTokens ?? 0;
  assert.is(tokensOn(), expected, "from the raw rows");
  // Rolled up into hours, raw rows pruned: the same figures (from the rollups).
  runRetention(store, { rawDays: 7, rollupDays: 90 }, now);
  assert.is(tokensOn(), expected, "from the hourly rollups");
  // Rollups kept for one day only: the day is gone (the read model is not told; the store says so).
  runRetention(store, { rawDays: 7, rollupDays: 1 }, now);
  assert.is(tokensOn(), 0, "pruned");
  await collector.stop();
});

test.run();
