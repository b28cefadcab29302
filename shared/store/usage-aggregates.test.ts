// usage_steps and usage_hours (migration v9) are kept by triggers: whatever writes token_usage or
// token_usage_hourly (inserts, a rolled-back re-read, a forgotten transcript, retention's rollups
// and pruning, an update), each stays equal to the GROUP BY of the table it follows, a step or hour
// left with no row goes, a store an older version wrote is backfilled, and the daily report read
// from them puts every response on its day in zones 30 and 45 minutes off the hour. Expected
// figures are computed here from the rows written (and Intl for the days), never by the report.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { providerReadModel } from "../../test/helpers/provider-model.js";
import { claudeResponses, dayIn, figuresOf, groupBy, sums } from "../../test/helpers/usage-expectations.js";
import { manualClock } from "../base/clock.js";
import { buildIndex } from "../pricing/dataset.js";
import { parsePriceOverrides } from "../pricing/overrides.js";
import { Pricer } from "../pricing/pricer.js";
import { copyClaudeHome, transcriptFiles } from "../../test/helpers/claude-code-fixture.js";
import { OFFSET_SPAN, offsetPieces } from "../queries/usage-cells.js";
import type { UsageReportParams } from "../queries/usage-params.js";
import { queryUsageReport, type UsageReport } from "../queries/usage-report.js";
import { MIGRATIONS } from "./migrations.js";
import { runRetention } from "./retention.js";
import { Store } from "./store.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const now = Date.UTC(2026, 10, 24, 12, 30);
const dirs: string[] = [];

function open(path?: string): Store {
  const file = path ?? join(newDir(), "insights.db");
  return Store.open(file, { clock: manualClock(now) });
}

function newDir(): string {
  const d = mkdtempSync(join(tmpdir(), "gi-usage-agg-"));
  dirs.push(d);
  return d;
}

test.after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Row {
  ts: number;
  role?: "user" | "assistant";
  source?: string;
  session?: string;
  model?: string;
  input: number;
  cost?: number;
}

function write(store: Store, r: Row): void {
  store.db
    .prepare(
      `INSERT INTO token_usage (ts, role, source_id, session_id, session_key, model, input, output, cache_read, cache_write, cost_usd, reasoning, unpriced)
       VALUES (?, ?, ?, ?, 'k1', ?, ?, 2, 3, 4, ?, 1, ?)`,
    )
    .run(r.ts, r.role ?? "assistant", r.source ?? "claude-code:default", r.session ?? "s1", r.model ?? "m", r.input, r.cost ?? 0.1, r.model === "free" ? 1 : 0);
}

const COLS = "input, output, cache_read, cache_write, reasoning, cost_usd, unpriced";
const SUMS = "sum(input) AS input, sum(output) AS output, sum(cache_read) AS cache_read, sum(cache_write) AS cache_write, sum(reasoning) AS reasoning, sum(cost_usd) AS cost_usd, sum(unpriced) AS unpriced";

type Agg = Record<string, number | string>;

/** Costs to the nano-dollar (float sums in another order differ in the last bits); the rest exact. */
const rounded = (rows: Agg[]): Agg[] => rows.map((r) => ({ ...r, cost_usd: Math.round((r.cost_usd as number) * 1e9) / 1e9 }));

/** Both aggregates against a GROUP BY of what they follow, written here. */
function assertFollows(store: Store, what: string): void {
  const steps = store.db.prepare(`SELECT source_id, at, model, responses, rows, ${COLS} FROM usage_steps ORDER BY 1, 2, 3`).all() as Agg[];
  const fromRaw = store.db
    .prepare(
      `SELECT source_id, (ts / ${15 * MINUTE}) * ${15 * MINUTE} AS at, model, count(*) AS responses, count(*) AS rows, ${SUMS}
       FROM token_usage WHERE role = 'assistant' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    )
    .all() as Agg[];
  assert.equal(rounded(steps), rounded(fromRaw), `${what}: usage_steps`);
  const hours = store.db.prepare(`SELECT source_id, hour, model, responses, rows, ${COLS} FROM usage_hours ORDER BY 1, 2, 3`).all() as Agg[];
  const fromRollups = store.db
    .prepare(
      `SELECT source_id, hour, model, sum(messages) AS responses, count(*) AS rows, ${SUMS}
       FROM token_usage_hourly WHERE messages > 0 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    )
    .all() as Agg[];
  assert.equal(rounded(hours), rounded(fromRollups), `${what}: usage_hours`);
}

const params = (p: Partial<UsageReportParams> = {}): UsageReportParams => ({ report: "daily", provider: null, since: null, until: null, timeZone: "UTC", breakdown: false, weekStart: "monday", ...p });
const report = (store: Store, p: Partial<UsageReportParams> = {}, at = now): UsageReport => queryUsageReport(store, params(p), { now: at, rawDays: 7, demo: false, scanComplete: true });

/** Per day: [responses, input] of the report's rows. */
const days = (r: UsageReport): Record<string, [number, number]> => Object.fromEntries(r.rows.map((x) => [x.key, [x.responses, x.inputTokens]]));

test("inserts, a rolled-back transaction, deletes and updates: the steps follow token_usage; a step left empty goes", () => {
  const store = open();
  const day = Date.UTC(2026, 10, 23);
  // Both sides of a step's edge, several models, a user row (not a response), another source.
  write(store, { ts: day + 15 * MINUTE - 1, input: 10 });
  write(store, { ts: day + 15 * MINUTE, input: 20 });
  write(store, { ts: day + 15 * MINUTE + 5, input: 30, model: "free" });
  write(store, { ts: day + 16 * MINUTE, input: 1000, role: "user" });
  write(store, { ts: day + 16 * MINUTE, input: 40, source: "codex:default", session: "s2" });
  write(store, { ts: day + 20 * MINUTE, input: 50, session: "s3", model: "solo", cost: 0.3 });
  assertFollows(store, "after inserts");
  assert.is((store.db.prepare("SELECT count(*) AS n FROM usage_steps").get() as { n: number }).n, 5);

  // A re-read that fails half-way is rolled back: so are the triggers' writes.
  assert.throws(() =>
    store.transaction(() => {
      write(store, { ts: day + 15 * MINUTE, input: 7 });
      store.db.prepare("DELETE FROM token_usage WHERE session_id = 's3'").run();
      throw new Error("re-read failed");
    }),
  );
  assertFollows(store, "after a rollback");
  assert.equal(days(report(store)), { "2026-11-23": [5, 150] });

  // A transcript forgotten (deleted file, rescan): its step had nothing else and goes, float residue and all.
  store.db.prepare("DELETE FROM token_usage WHERE source_id = ? AND session_id = ?").run("claude-code:default", "s3");
  assertFollows(store, "after a forgotten transcript");
  assert.is((store.db.prepare("SELECT count(*) AS n FROM usage_steps WHERE at = ?").get(day + 15 * MINUTE) as { n: number }).n, 3, "00:15 keeps m, free and codex's m; solo went");
  assert.equal(days(report(store)), { "2026-11-23": [4, 100] });

  // Nothing updates token_usage today; should anything, the steps follow (moved to another step, another role).
  store.db.prepare("UPDATE token_usage SET ts = ts + ? WHERE input = 10").run(DAY);
  store.db.prepare("UPDATE token_usage SET role = 'assistant' WHERE role = 'user'").run();
  assertFollows(store, "after updates");
  assert.equal(days(report(store)), { "2026-11-23": [4, 1090], "2026-11-24": [1, 10] });
  store.close();
});

test("retention: rollups and pruning keep usage_hours equal to the rollups, and the daily report the same before and after", () => {
  const store = open();
  store.db.prepare("INSERT INTO session_meta (source_id, session_key, project) VALUES ('claude-code:default', 'k1', '/home/op/code/api')").run();
  const expected: Record<string, [number, number]> = {};
  // Twenty days of history, every 5 hours 10 minutes (so steps and hours of every kind), two sources.
  for (let t = now - 20 * DAY; t < now; t += 5 * HOUR + 10 * MINUTE) {
    const source = Math.floor(t / HOUR) % 3 === 0 ? "codex:default" : "claude-code:default";
    write(store, { ts: t, input: 7, source });
    const key = new Date(t).toISOString().slice(0, 10);
    const e = expected[key] ?? [0, 0];
    expected[key] = [e[0] + 1, e[1] + 7];
  }
  assert.equal(days(report(store)), expected, "all raw");
  // The job at start: rolls up every complete hour, late ones included, prunes the raw rows past 7 days.
  const r = runRetention(store, { rawDays: 7, rollupDays: 90 }, now);
  assert.ok((r.deleted.token_usage ?? 0) > 0 && r.rolledUpHours > 0, "something was rolled up and pruned");
  assertFollows(store, "after retention");
  assert.equal(days(report(store)), expected, "rollups before the raw window, raw rows after");
  // An hour later: the rollups of the newest complete hours are recomputed (upserts fire the update triggers).
  write(store, { ts: now + 5 * MINUTE, input: 3 });
  runRetention(store, { rawDays: 7, rollupDays: 90 }, now + HOUR + MINUTE);
  assertFollows(store, "after a second run");
  const key = new Date(now).toISOString().slice(0, 10);
  const e = expected[key] ?? [0, 0];
  expected[key] = [e[0] + 1, e[1] + 3];
  assert.equal(days(report(store, {}, now + HOUR + MINUTE)), expected, "the second run counts nothing twice");
  // Rollups past retentionRollupDays go, and with them their hours.
  runRetention(store, { rawDays: 7, rollupDays: 10 }, now + HOUR + MINUTE);
  assertFollows(store, "after rollups were pruned");
  store.close();
});

test("a store an older version wrote (v8) is backfilled by the migration", () => {
  const dir = newDir();
  const file = join(dir, "insights.db");
  const store = open(file);
  for (let i = 0; i < 50; i++) write(store, { ts: now - i * 37 * MINUTE, input: i, model: i % 2 ? "a" : "b" });
  runRetention(store, { rawDays: 1, rollupDays: 90 }, now);
  const before = report(store, {}, now);
  // Back to v8: no aggregates, no triggers (as 0.1.0 with alerts left it).
  store.db.exec(`DROP TABLE usage_steps; DROP TABLE usage_hours;
    DROP TRIGGER usage_steps_add; DROP TRIGGER usage_steps_remove; DROP TRIGGER usage_steps_change_old; DROP TRIGGER usage_steps_change_new;
    DROP TRIGGER usage_hours_add; DROP TRIGGER usage_hours_remove; DROP TRIGGER usage_hours_change_old; DROP TRIGGER usage_hours_change_new;
    DELETE FROM schema_migrations WHERE version >= 9;`);
  store.db.pragma("user_version = 8");
  write(store, { ts: now - 5 * MINUTE, input: 1000 });
  store.close();
  const again = open(file);
  assert.is(again.db.pragma("user_version", { simple: true }), Math.max(...MIGRATIONS.map((m) => m.version)));
  assertFollows(again, "after the migration");
  const after = report(again, {}, now);
  assert.is(after.totals.inputTokens, before.totals.inputTokens + 1000);
  assert.is(after.totals.responses, before.totals.responses + 1);
  again.close();
});

test("days in zones 30 and 45 minutes off the hour: each response on its local day, a millisecond either side of midnight", () => {
  const store = open();
  const zones = ["Asia/Kathmandu", "Asia/Kolkata", "America/St_Johns", "Australia/Lord_Howe", "Australia/Eucla", "Pacific/Chatham", "America/New_York", "UTC"];
  const rows: Row[] = [];
  let input = 1;
  // Local midnights of each zone over three days (found by Intl, step by step), and instants 1 ms around them.
  const dayOf = (ts: number, zone: string): string => new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(ts);
  for (const zone of zones) {
    // Around Lord Howe's and Chatham's change in April and New York's and St John's in November.
    for (const [a, b] of [[Date.UTC(2026, 3, 2), Date.UTC(2026, 3, 7)], [Date.UTC(2026, 9, 30), Date.UTC(2026, 10, 3)]] as const) {
      for (let t = a; t < b; t += 15 * MINUTE) {
        if (dayOf(t, zone) !== dayOf(t - 1, zone)) rows.push({ ts: t - 1, input: input++ }, { ts: t, input: input++ }, { ts: t + 1, input: input++ });
      }
    }
  }
  for (const r of rows) write(store, r);
  for (const zone of zones) {
    const expected: Record<string, [number, number]> = {};
    for (const r of rows) {
      const key = dayOf(r.ts, zone);
      const e = expected[key] ?? [0, 0];
      expected[key] = [e[0] + 1, e[1] + r.input];
    }
    // Every row still raw: the 15-minute steps. (Hourly rollups cannot place a response in a zone
    // off the whole hour: usage older than retentionRawDays is counted by the UTC hour, docs/usage.md.)
    assert.equal(days(report(store, { timeZone: zone }, Date.UTC(2026, 10, 4))), expected, `${zone}, steps`);
    const monthly = report(store, { timeZone: zone, report: "monthly" }, Date.UTC(2026, 10, 4));
    assert.is(monthly.totals.inputTokens, rows.reduce((s, r) => s + r.input, 0), `${zone}: monthly totals`);
  }
  store.close();
});

test("through the scanner: a transcript rewritten shorter is forgotten and re-read; the daily sums follow the files as they are", async () => {
  const { claudeDir, home } = copyClaudeHome();
  const { store, collector, clock } = await providerReadModel("claude-code", home, {
    now: Date.UTC(2026, 10, 24, 12, 0),
    pricer: new Pricer({ overrides: parsePriceOverrides({}, "test"), dataset: buildIndex([], "empty") }),
  });
  const expectDaily = (what: string): void => {
    const expected = [...groupBy(claudeResponses(claudeDir), (x) => dayIn(x.ts, "UTC"))].map(([day, rs]) => [day, sums(rs)]);
    const r = queryUsageReport(store, params(), { now: clock.now(), rawDays: 7, demo: false, scanComplete: true });
    assert.equal(
      r.rows.map((x) => [x.key, figuresOf(x)]),
      expected,
      what,
    );
    assertFollows(store, what);
  };
  try {
    expectDaily("after the first scan");
    // The transcript with the most responses, rewritten with only its first half (a restart).
    const before = claudeResponses(claudeDir).length;
    const biggest = transcriptFiles(claudeDir)
      .map((f) => join(claudeDir, f))
      .sort((x, y) => statSync(y).size - statSync(x).size)[0] as string;
    const lines = readFileSync(biggest, "utf8").split("\n").filter(Boolean);
    writeFileSync(biggest, `${lines.slice(0, Math.floor(lines.length / 2)).join("\n")}\n`);
    assert.ok(claudeResponses(claudeDir).length < before, "the rewrite dropped responses");
    await collector.collectOnce(60_000);
    expectDaily("after the rewrite");
  } finally {
    await collector.stop();
    store.close();
  }
});

test("a hostile timestamp 200,000 years out costs one more span, not a walk to it; it counts on no day, the rest as before", () => {
  const store = open();
  write(store, { ts: Date.UTC(2026, 10, 23, 10), input: 5 });
  write(store, { ts: 8_000_000_000_000_000, input: 7 });
  write(store, { ts: -8_000_000_000_000_000, input: 9 });
  for (const zone of ["UTC", "Asia/Kathmandu", "America/New_York"]) {
    assert.equal(days(report(store, { timeZone: zone })), { "2026-11-23": [1, 5] }, zone);
  }
  store.close();
});

test("offsetPieces: the offset of every instant (every 31 minutes over 2026, and a second either side of each change) as Intl gives it", () => {
  for (const zone of ["Australia/Lord_Howe", "Pacific/Chatham", "America/New_York", "Asia/Kathmandu", "Europe/London", "UTC"]) {
    const from = Date.UTC(2026, 0, 1);
    const to = Date.UTC(2027, 0, 1);
    const spans: number[] = [];
    for (let t = from; t < to; t += OFFSET_SPAN) spans.push(Math.floor(t / OFFSET_SPAN));
    const pieces = offsetPieces(spans, zone);
    const f = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    const offsetAt = (t: number): number => {
      const parts = f.formatToParts(t);
      const get = (k: string): number => Number(parts.find((x) => x.type === k)?.value);
      return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")) - (t - (t % 1000));
    };
    const pieceAt = (t: number): number | undefined => pieces.find((x) => t < x.until)?.offset;
    for (let t = from; t < to; t += 31 * MINUTE) {
      if (pieceAt(t) !== offsetAt(t)) assert.unreachable(`${zone} at ${new Date(t).toISOString()}: ${pieceAt(t)} != ${offsetAt(t)}`);
    }
    for (const x of pieces.slice(0, -1)) {
      assert.is(pieceAt(x.until - 1000), offsetAt(x.until - 1000), `${zone}: the second before ${new Date(x.until).toISOString()}`);
      assert.is(pieceAt(x.until), offsetAt(x.until), `${zone}: the change at ${new Date(x.until).toISOString()}`);
      assert.is.not(offsetAt(x.until - 1000), offsetAt(x.until));
    }
    assert.is(pieces.length, zone === "UTC" || zone === "Asia/Kathmandu" ? 1 : 3, `${zone}: two changes a year`);
  }
});

test.run();
