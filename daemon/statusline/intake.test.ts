import fs from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../../shared/base/clock.js";
import { InsightsError } from "../../shared/base/errors.js";
import type { AgentSnapshot } from "../../shared/ingest/agent-source.js";
import { LogHub } from "../../shared/base/log/logger.js";
import { queryRateLimitHistory, queryRateLimits } from "../../shared/queries/rate-limits.js";
import type { UsageCost } from "../../shared/queries/usage-cost.js";
import { parseStatusInput } from "../../shared/statusline/input.js";
import { reportOf, type StatusReport } from "../../shared/statusline/report.js";
import { appendToSpool } from "../../shared/statusline/spool.js";
import { Store } from "../../shared/store/store.js";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { FIVE_HOUR_MINUTES, SEVEN_DAY_MINUTES, StatuslineIntake } from "./intake.js";
import { HeldConditions, measure, type AlertInputs } from "../../shared/alerts/measure.js";
import { BUILTIN_RULES, resolveRule } from "../../shared/alerts/rules.js";

type Win = { used_percentage: number; resets_at: number };
const raw = JSON.parse(fs.readFileSync(join(import.meta.dirname, "../../test/fixtures/statusline/subscriber.json"), "utf8")) as {
  rate_limits: { five_hour: Win; seven_day: Win; seven_day_opus: Win };
};
/** The fixture's reading, taken an hour before its 5-hour window resets. */
const NOW = raw.rate_limits.five_hour.resets_at * 1000 - 3_600_000;
const SOURCE = "claude-code:default";

test.after(removeTempDirs);

function setUp(storeFile?: string) {
  const home = makeTempDir("gi-intake-");
  const ccDir = join(home, ".claude");
  fs.mkdirSync(join(ccDir, "projects"), { recursive: true });
  const clock = manualClock(NOW);
  const store = Store.open(storeFile ?? join(makeTempDir(), "insights.db"), { clock });
  const agent = { id: SOURCE, provider: "claude-code", dir: ccDir } as const;
  const warnings: string[] = [];
  const changed: string[] = [];
  const model = {
    // Only the fields the intake reads.
    agents: () => [agent as unknown as AgentSnapshot],
    usageCost: (id: string) => ({ todayUsd: id === SOURCE ? 1.25 : 0 }) as UsageCost,
  };
  const intake = new StatuslineIntake({ store, model, clock, logger: new LogHub({ console: "off" }).logger, countWarning: (_s, w) => warnings.push(w.message), changed: (s) => changed.push(s) });
  const report = (over: Partial<StatusReport> = {}): StatusReport => {
    const input = parseStatusInput(JSON.stringify({ ...raw, transcript_path: join(ccDir, "projects", "-app", "s.jsonl") }));
    if (!input) throw new Error("fixture");
    return { ...reportOf(input, NOW, {}), ...over };
  };
  return { home, ccDir, clock, store, intake, warnings, changed, report };
}

test("a reading is stored under the install of its config dir, with its time, once per change; today's cost comes back", () => {
  const { store, intake, report, changed, clock } = setUp();
  const r = report();
  assert.equal(intake.report({ ...r }), { source: SOURCE, todayUsd: 1.25 });
  intake.report({ ...r, at: NOW + 1000 });
  const [got] = queryRateLimits(store, [SOURCE], clock.now());
  assert.ok(got);
  assert.equal([got.primary?.usedPercent, got.primary?.windowMinutes, got.primary?.resetsAt], [raw.rate_limits.five_hour.used_percentage, FIVE_HOUR_MINUTES, new Date(raw.rate_limits.five_hour.resets_at * 1000).toISOString()]);
  assert.equal([got.secondary?.usedPercent, got.secondary?.windowMinutes], [raw.rate_limits.seven_day.used_percentage, SEVEN_DAY_MINUTES]);
  assert.is(got.updatedAt, new Date(NOW).toISOString());
  assert.equal(changed, [SOURCE], "the same figures again add no row and announce nothing");
  const moved = { ...r.rateLimits!, fiveHour: { ...r.rateLimits!.fiveHour!, usedPercent: raw.rate_limits.five_hour.used_percentage + 5 } };
  clock.advance(60_000);
  intake.report({ ...r, at: NOW + 60_000, rateLimits: moved });
  assert.equal(queryRateLimitHistory(store, SOURCE, clock.now()).map((s) => s.primaryUsedPercent), [raw.rate_limits.five_hour.used_percentage, raw.rate_limits.five_hour.used_percentage + 5]);
});

test("impossible readings are refused as Codex's are (out of range, reset beyond the window, future-dated): counted, never stored", () => {
  const { store, intake, report, warnings, clock } = setUp();
  // The plan's windows alone (the fixture's per-model window is a limit of its own: tested below).
  const r = report();
  r.rateLimits = { ...r.rateLimits!, perModel: {} };
  const w5 = r.rateLimits.fiveHour!;
  const bad: StatusReport[] = [
    { ...r, rateLimits: { ...r.rateLimits!, fiveHour: { ...w5, usedPercent: 250 } } },
    { ...r, rateLimits: { ...r.rateLimits!, fiveHour: { ...w5, usedPercent: -3 } } },
    { ...r, rateLimits: { ...r.rateLimits!, fiveHour: { ...w5, resetsAt: NOW + 2 * FIVE_HOUR_MINUTES * 60_000 } } },
    { ...r, at: NOW + 24 * 3_600_000 },
  ];
  for (const b of bad) {
    try {
      intake.report({ ...b });
      assert.unreachable("took an impossible reading");
    } catch (err) {
      assert.is((err as InsightsError).code, "INVALID_PARAM");
    }
  }
  assert.is(warnings.length, bad.length);
  assert.is(intake.refused, bad.length);
  assert.equal(queryRateLimits(store, [SOURCE], clock.now()), []);
  for (const params of [{}, { at: NOW, responded: true, configDir: "x".repeat(5000) }, { ...r, rateLimits: "lots" }]) {
    assert.throws(() => intake.report(params as Record<string, unknown>), (e: unknown) => e instanceof InsightsError && e.code === "INVALID_PARAM");
  }
  assert.throws(() => intake.report({ ...r, configDir: "/nowhere/.claude" }), (e: unknown) => e instanceof InsightsError && e.code === "NOT_FOUND");
});

test("why there are none: no status line in settings.json, then waiting, then an API-key login (kept across a restart)", () => {
  const { ccDir, store, intake, report } = setUp();
  assert.is(intake.missing([SOURCE])?.id, "health.rateLimit.noStatusLine");
  fs.writeFileSync(join(ccDir, "settings.json"), JSON.stringify({ statusLine: { type: "command", command: "'/usr/bin/node' '/opt/gi/dist/cli/main.js' statusline" } }));
  assert.is(intake.missing([SOURCE])?.id, "health.rateLimit.waiting");
  intake.report({ ...report({ rateLimits: null, responded: true }) });
  assert.is(intake.missing([SOURCE])?.id, "health.rateLimit.apiKey");
  const file = store.path;
  store.close();
  const again = setUp(file);
  assert.is(again.intake.missing([SOURCE])?.id, "health.rateLimit.apiKey", "the store's meta table keeps it");
});

test("the spool is taken in at start and emptied; readings for an install not read here are dropped", async () => {
  const { home, store, intake, report, clock } = setUp();
  const spool = join(home, "state", "statusline-spool.jsonl");
  appendToSpool(spool, report());
  appendToSpool(spool, report({ configDir: "/elsewhere/.claude" }));
  await intake.takeSpool(spool, () => true, 10, 1000);
  assert.not.ok(fs.existsSync(spool));
  assert.equal(queryRateLimits(store, [SOURCE], clock.now()).filter((l) => l.limitId === "claude").map((l) => l.primary?.usedPercent), [raw.rate_limits.five_hour.used_percentage]);
  assert.is(intake.refused, 1);
});

/** The per-model window the fixture carries, by its field, and the limit id it is stored under. */
const OPUS = raw.rate_limits.seven_day_opus;
const OPUS_LIMIT = "claude:seven_day_opus";

function alertInputs(store: Store, now: number): AlertInputs {
  return {
    now,
    timeZone: "UTC",
    sources: () => [{ id: SOURCE, provider: "claude-code" }],
    usage: () => [],
    eventCount: () => 0,
    sessions: () => [],
    gatewayState: () => null,
    checks: () => [],
    rateLimits: () => queryRateLimits(store, [SOURCE], now),
  };
}
const builtin = (id: string) => resolveRule(BUILTIN_RULES.find((x) => x.id === id)!, "builtin");

test("a per-model weekly window is a limit of its own (claude:seven_day_opus): its figure as secondary, its own history, listed after the plan's", () => {
  const { store, intake, report, clock } = setUp();
  const r = report();
  intake.report({ ...r });
  // The opus window moves, the plan's windows do not: one row more for the opus limit only.
  clock.advance(60_000);
  intake.report({ ...r, at: NOW + 60_000, rateLimits: { ...r.rateLimits!, perModel: { opus: { ...r.rateLimits!.perModel.opus!, usedPercent: OPUS.used_percentage + 2 } } } });
  const got = queryRateLimits(store, [SOURCE], clock.now());
  assert.equal(got.map((l) => l.limitId), ["claude", OPUS_LIMIT]);
  const opus = got[1]!;
  assert.is(opus.primary, null);
  assert.equal([opus.secondary?.usedPercent, opus.secondary?.windowMinutes, opus.secondary?.resetsAt], [OPUS.used_percentage + 2, SEVEN_DAY_MINUTES, new Date(OPUS.resets_at * 1000).toISOString()]);
  assert.is(got[0]!.secondary?.usedPercent, raw.rate_limits.seven_day.used_percentage, "the plan's weekly window is not the opus one");
  assert.equal(queryRateLimitHistory(store, SOURCE, clock.now(), 7, OPUS_LIMIT).map((h) => [h.primaryUsedPercent, h.secondaryUsedPercent]), [
    [null, OPUS.used_percentage],
    [null, OPUS.used_percentage + 2],
  ]);
  assert.equal(queryRateLimitHistory(store, SOURCE, clock.now()).map((h) => h.secondaryUsedPercent), [raw.rate_limits.seven_day.used_percentage], "the plan's history holds its own rows only");
  // Past the plan's 5-hour reset the plan's figures are stale; the weekly opus window holds until its own reset.
  clock.set(raw.rate_limits.five_hour.resets_at * 1000 + 60_000);
  const later = queryRateLimits(store, [SOURCE], clock.now());
  assert.equal(later.map((l) => [l.limitId, l.stale]), [["claude", true], [OPUS_LIMIT, false]]);
});

test("an impossible per-model window is refused alone, as the plan's are (out of range, reset beyond a week): counted, the rest kept", () => {
  const { store, intake, report, warnings, clock } = setUp();
  const r = report();
  const opus = r.rateLimits!.perModel.opus!;
  intake.report({ ...r });
  const bad = [
    { ...opus, usedPercent: 150 },
    { ...opus, usedPercent: -1 },
    { ...opus, resetsAt: NOW + 2 * SEVEN_DAY_MINUTES * 60_000 },
  ];
  const moved = { ...r.rateLimits!.fiveHour!, usedPercent: raw.rate_limits.five_hour.used_percentage + 1 };
  for (const [i, b] of bad.entries()) {
    // The plan's windows moved in the same reading: they are kept, and the call succeeds.
    assert.equal(intake.report({ ...r, at: NOW + i + 1, rateLimits: { ...r.rateLimits!, fiveHour: moved, perModel: { opus: b } } }).source, SOURCE);
  }
  assert.is(warnings.length, bad.length);
  assert.ok(warnings.every((w) => w.includes("seven_day_opus")), warnings.join("; "));
  const got = queryRateLimits(store, [SOURCE], clock.now());
  assert.equal(got.map((l) => [l.limitId, l.primary?.usedPercent ?? null, l.secondary?.usedPercent]), [
    ["claude", moved.usedPercent, raw.rate_limits.seven_day.used_percentage],
    [OPUS_LIMIT, null, OPUS.used_percentage],
  ], "the last possible opus reading stays in force");
  // The plan's windows refused: the call fails as before; a possible opus window in it is still kept.
  assert.throws(
    () => intake.report({ ...r, at: NOW + 10, rateLimits: { ...r.rateLimits!, fiveHour: { ...moved, usedPercent: 250 }, perModel: { opus: { ...opus, usedPercent: OPUS.used_percentage + 3 } } } }),
    (e: unknown) => e instanceof InsightsError && e.code === "INVALID_PARAM",
  );
  assert.equal(queryRateLimits(store, [SOURCE], clock.now()).map((l) => l.primary?.usedPercent ?? l.secondary?.usedPercent), [moved.usedPercent, OPUS.used_percentage + 3]);
});

test("the built-in rate-limit rules cover a per-model window and name it: 80 % warns, a projection full before the reset fires", () => {
  const { store, intake, report, clock } = setUp();
  const r = report();
  // Opus at 85 % (the plan's windows under 80 %), then at 95 % ten minutes later: about 60 % an hour, full long before its reset days away.
  const at = (used: number) => ({ ...r.rateLimits!, perModel: { opus: { ...r.rateLimits!.perModel.opus!, usedPercent: used } } });
  intake.report({ ...r, rateLimits: at(85) });
  clock.advance(10 * 60_000);
  intake.report({ ...r, at: clock.now(), rateLimits: at(95) });
  const used = measure(builtin("rate-limit"), alertInputs(store, clock.now()), new HeldConditions()) ?? [];
  const opusUsed = used.find((s) => s.subject === `${SOURCE}/${OPUS_LIMIT}/secondary`);
  assert.ok(opusUsed, JSON.stringify(used));
  assert.is(opusUsed.value, 95);
  assert.match(opusUsed.label, /^seven_day_opus window of claude-code:default/);
  const projected = measure(builtin("rate-limit-projection"), alertInputs(store, clock.now()), new HeldConditions()) ?? [];
  const opusProj = projected.find((s) => s.subject === `${SOURCE}/${OPUS_LIMIT}/secondary`);
  assert.ok(opusProj?.projection, JSON.stringify(projected));
  assert.match(opusProj.label, /^seven_day_opus window/);
  // 10 points in 10 minutes: 100 % is reached 5 minutes after the last reading.
  assert.is(opusProj.projection.reachesAt, clock.now() + 5 * 60_000);
  assert.is(opusProj.projection.windowEnd, OPUS.resets_at * 1000);
});

test.run();
