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

const raw = JSON.parse(fs.readFileSync(join(import.meta.dirname, "../../test/fixtures/statusline/subscriber.json"), "utf8")) as {
  rate_limits: { five_hour: { used_percentage: number; resets_at: number }; seven_day: { used_percentage: number; resets_at: number } };
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
  const r = report();
  const w5 = r.rateLimits!.fiveHour!;
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
  assert.equal(queryRateLimits(store, [SOURCE], clock.now()).map((l) => l.primary?.usedPercent), [raw.rate_limits.five_hour.used_percentage]);
  assert.is(intake.refused, 1);
});

test.run();
