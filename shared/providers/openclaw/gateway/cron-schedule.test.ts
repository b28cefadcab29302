import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { computeNextRunAt, describeSchedule, formatInterval, nextCronRun, nextOnGrid, parseAtMs, parseSchedule } from "./cron-schedule.js";
import { FIXTURES_DIR } from "../../../../test/helpers/openclaw-fixtures.js";

interface Row {
  job_json: string;
  state_json: string;
  updated_at: number;
}

/** Copies a fixture state DB (a read-only open still wants to create -wal/-shm) and returns its cron rows. */
/** The fields of job_json / state_json these tests look at. */
interface FixtureJob {
  name: string;
  enabled: boolean;
  createdAtMs: number;
  schedule: { kind: string; everyMs: number; anchorMs: number };
}
interface FixtureState {
  nextRunAtMs: number;
  lastRunAtMs?: number;
  lastRunStatus?: string;
}

function fixtureJobs(version: string): { job: FixtureJob; state: FixtureState; updatedAt: number }[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  fs.cpSync(path.join(FIXTURES_DIR, `openclaw-${version}`, "state"), dir, { recursive: true });
  for (const f of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, f), 0o644);
  const db = new Database(path.join(dir, "openclaw.sqlite"), { readonly: true });
  const rows = db.prepare("SELECT job_json, state_json, updated_at FROM cron_jobs").all() as Row[];
  db.close();
  return rows.map((r) => ({ job: JSON.parse(r.job_json) as FixtureJob, state: JSON.parse(r.state_json) as FixtureState, updatedAt: r.updated_at }));
}

test("2026.9.6 fixture: computed next run equals the stored nextRunAtMs when computed at the time it was stored", () => {
  const jobs = fixtureJobs("2026.9.6");
  assert.is(jobs.length, 4);
  const kinds = new Set<string>();
  for (const { job, state, updatedAt } of jobs) {
    const schedule = parseSchedule(job.schedule);
    assert.ok(schedule, job.name);
    kinds.add(schedule!.kind);
    // The probe VM ran in UTC, so cron expressions without tz were evaluated in UTC.
    const next = computeNextRunAt(schedule!, {
      nowMs: updatedAt,
      lastRunAtMs: state.lastRunAtMs,
      createdAtMs: job.createdAtMs,
      lastStatus: state.lastRunStatus,
      enabled: job.enabled,
      hostTimeZone: "UTC",
    });
    assert.is(next, state.nextRunAtMs, job.name);
  }
  assert.equal([...kinds].sort(), ["cron", "every"]);
});

test("2026.7.1 fixture: the anchor grid gives the stored next run (its only run was a manual one)", () => {
  const [row] = fixtureJobs("2026.7.1");
  const s = row!.job.schedule;
  assert.is(nextOnGrid(s.anchorMs, s.everyMs, row!.updatedAt), row!.state.nextRunAtMs);
});

test("every: grid before any run, re-based on the last run while it is ahead, back to the grid after", () => {
  const s = { kind: "every" as const, everyMs: 60_000, anchorMs: 1_000_000 };
  assert.is(computeNextRunAt(s, { nowMs: 500_000 }), 1_000_000);
  assert.is(computeNextRunAt(s, { nowMs: 1_000_000 }), 1_060_000);
  assert.is(computeNextRunAt(s, { nowMs: 1_130_000 }), 1_180_000);
  assert.is(computeNextRunAt(s, { nowMs: 1_130_000, lastRunAtMs: 1_120_500 }), 1_180_500);
  assert.is(computeNextRunAt(s, { nowMs: 1_300_000, lastRunAtMs: 1_120_500 }), 1_360_000);
  // No anchor: createdAtMs is the anchor.
  assert.is(computeNextRunAt({ kind: "every", everyMs: 10 }, { nowMs: 125, createdAtMs: 100 }), 130);
  assert.is(computeNextRunAt(s, { nowMs: 0, enabled: false }), null);
  assert.is(computeNextRunAt({ kind: "every", everyMs: 0 }, { nowMs: 0 }), null);
});

test("cron: tz respected, host zone used without tz, invalid expression -> null", () => {
  const now = Date.UTC(2026, 10, 21, 12, 0);
  assert.is(nextCronRun("0 3 * * *", now, "UTC"), Date.UTC(2026, 10, 22, 3, 0));
  // 03:00 in Tokyo (UTC+9) is 18:00 UTC the day before.
  assert.is(nextCronRun("0 3 * * *", now, "Asia/Tokyo"), Date.UTC(2026, 10, 21, 18, 0));
  assert.is(computeNextRunAt({ kind: "cron", expr: "0 3 * * *" }, { nowMs: now, hostTimeZone: "Asia/Tokyo" }), Date.UTC(2026, 10, 21, 18, 0));
  assert.is(computeNextRunAt({ kind: "cron", expr: "0 3 * * *", tz: "UTC" }, { nowMs: now, hostTimeZone: "Asia/Tokyo" }), Date.UTC(2026, 10, 22, 3, 0));
  // Six fields: seconds first.
  assert.is(nextCronRun("30 */5 * * * *", now, "UTC"), now + 30_000);
  assert.is(nextCronRun("not a cron", now), null);
});

test("at: once, in the future only, done after a successful run", () => {
  const at = "2026-11-22T03:00:00Z";
  const atMs = Date.UTC(2026, 10, 22, 3);
  assert.is(parseAtMs(at), atMs);
  assert.is(parseAtMs("2026-11-22T03:00:00"), atMs, "offset-less is UTC");
  assert.is(parseAtMs("2026-11-22T04:00:00+01:00"), atMs);
  assert.is(parseAtMs(atMs), atMs);
  assert.is(parseAtMs(String(atMs)), atMs);
  assert.is(parseAtMs("soon"), null);
  assert.is(computeNextRunAt({ kind: "at", at }, { nowMs: atMs - 1 }), atMs);
  assert.is(computeNextRunAt({ kind: "at", at }, { nowMs: atMs + 1 }), null);
  assert.is(computeNextRunAt({ kind: "at", at }, { nowMs: atMs - 1, lastRunAtMs: atMs, lastStatus: "ok" }), null);
});

test("parseSchedule and describeSchedule", () => {
  assert.equal(parseSchedule({ kind: "every", everyMs: 120000, anchorMs: 5 }), { kind: "every", everyMs: 120000, anchorMs: 5 });
  assert.equal(parseSchedule({ kind: "stream", command: ["x"] }), { kind: "other", type: "stream" });
  assert.is(parseSchedule({ kind: "every" }), null);
  assert.is(parseSchedule("every 2m"), null);
  assert.is(describeSchedule({ kind: "every", everyMs: 120000 }), "every 2m");
  assert.is(describeSchedule({ kind: "every", everyMs: 604_800_000 }), "every 7d");
  assert.is(describeSchedule({ kind: "cron", expr: "0 3 * * *", tz: "Europe/Berlin" }), "cron 0 3 * * * (Europe/Berlin)");
  assert.is(describeSchedule({ kind: "at", at: "2026-11-22T03:00:00Z" }), "at 2026-11-22T03:00:00.000Z");
  assert.is(formatInterval(5_400_000), "1h 30m");
  assert.is(formatInterval(1500), "1s 500ms");
  assert.is(computeNextRunAt({ kind: "other", type: "on-exit" }, { nowMs: 0 }), null);
});

test.run();
