import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readCron, readCronFromDb, readCronFromFiles } from "./cron.js";
import type { CronData } from "./cron.js";
import { FIXTURES_DIR } from "../../../../test/helpers/openclaw-fixtures.js";

/** A writable copy of a fixture state dir's `state/` folder inside a fresh temp state dir. */
function copyState(version: string): string {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  fs.cpSync(path.join(FIXTURES_DIR, `openclaw-${version}`, "state"), path.join(stateDir, "state"), { recursive: true });
  for (const f of fs.readdirSync(path.join(stateDir, "state"))) fs.chmodSync(path.join(stateDir, "state", f), 0o644);
  return stateDir;
}

const dbOf = (stateDir: string) => path.join(stateDir, "state", "openclaw.sqlite");

function query<T>(stateDir: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(dbOf(stateDir), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

function must(r: ReturnType<typeof readCron>): CronData {
  if (!r.ok) throw r.error;
  return r.value;
}

interface JobRow {
  job_id: string;
  name: string;
  enabled: number;
  agent_id: string | null;
  job_json: string;
  state_json: string;
  updated_at: number;
}

function checkJobsAgainstRows(stateDir: string, data: CronData, nowMs: number) {
  const rows = query<JobRow>(stateDir, "SELECT job_id, name, enabled, agent_id, job_json, state_json, updated_at FROM cron_jobs");
  assert.is(data.jobs.length, rows.length);
  for (const row of rows) {
    const job = JSON.parse(row.job_json) as { agentId?: string; schedule: { kind: string } };
    const state = JSON.parse(row.state_json) as { lastRunAtMs?: number; lastRunStatus?: string; lastDurationMs?: number; consecutiveErrors?: number; nextRunAtMs: number };
    const got = data.jobs.find((j) => j.id === row.job_id);
    assert.ok(got, row.name);
    assert.is(got!.name, row.name);
    assert.is(got!.enabled, row.enabled === 1);
    assert.is(got!.agentId, job.agentId ?? row.agent_id ?? null);
    assert.is(got!.schedule.kind, job.schedule.kind);
    assert.is(got!.lastRunAt, state.lastRunAtMs ?? null);
    assert.is(got!.lastStatus, state.lastRunStatus ?? null);
    assert.is(got!.lastDurationMs, state.lastDurationMs ?? null);
    assert.is(got!.consecutiveErrors, state.consecutiveErrors ?? 0);
    if (state.nextRunAtMs >= nowMs) assert.is(got!.nextRunAt, state.nextRunAtMs, row.name);
  }
}

test("2026.9.6: jobs from job_json/state_json, runs from receipts joined to task_runs", () => {
  const stateDir = copyState("2026.9.6");
  const [{ now }] = query<{ now: number }>(stateDir, "SELECT max(updated_at) AS now FROM cron_jobs") as [{ now: number }];
  const data = must(readCron(stateDir, { nowMs: now, runsPerJob: 3, hostTimeZone: "UTC" }));
  assert.is(data.store, "sqlite");
  checkJobsAgainstRows(stateDir, data, now);
  const probe = data.jobs.find((j) => j.name === "probe-every-2m")!;
  assert.is(probe.schedule.text, "every 2m");
  const dream = data.jobs.find((j) => j.name === "Memory Dreaming Promotion")!;
  assert.is(dream.schedule.text, "cron 0 3 * * *");
  assert.is(data.jobs.find((j) => j.name === "heartbeat-main")!.displayName, "Heartbeat (main)");

  // Run history: the newest 3 receipts per job, with the task's detail attached.
  const receipts = query<{ job_id: string; receipt_id: string; status: string; started_at_ms: number; finished_at_ms: number; error_text: string | null }>(
    stateDir,
    "SELECT job_id, receipt_id, status, started_at_ms, finished_at_ms, error_text FROM cron_run_receipts ORDER BY started_at_ms DESC",
  );
  const jobIds = [...new Set(receipts.map((r) => r.job_id))];
  assert.equal(Object.keys(data.runs).sort(), jobIds.sort());
  for (const jobId of jobIds) {
    const want = receipts.filter((r) => r.job_id === jobId).slice(0, 3);
    const got = data.runs[jobId]!;
    assert.equal(got.map((r) => r.id), want.map((r) => r.receipt_id));
    got.forEach((run, i) => {
      assert.is(run.status, want[i]!.status);
      assert.is(run.startedAt, want[i]!.started_at_ms);
      assert.is(run.durationMs, want[i]!.finished_at_ms - want[i]!.started_at_ms);
      assert.is(run.error, want[i]!.error_text);
    });
  }
  const tasks = query<{ run_id: string; detail_json: string; child_session_key: string | null }>(stateDir, "SELECT run_id, detail_json, child_session_key FROM task_runs WHERE runtime = 'cron'");
  const newestProbe = data.runs[probe.id]![0]!;
  const task = tasks.find((t) => t.run_id.split(":")[3] === newestProbe.id)!;
  const detail = JSON.parse(task.detail_json) as { summary: string; model: string; sessionId: string; usage: { total_tokens: number } };
  assert.is(newestProbe.summary, detail.summary);
  assert.is(newestProbe.totalTokens, detail.usage.total_tokens);
  assert.is(newestProbe.model, detail.model);
  assert.is(newestProbe.sessionKey, task.child_session_key);
  assert.is(newestProbe.sessionId, detail.sessionId);
  // The one manual run carries its request run id.
  const all = must(readCron(stateDir, { nowMs: now, runsPerJob: 100 }));
  const manual = query<{ receipt_id: string; request_run_id: string }>(stateDir, "SELECT receipt_id, request_run_id FROM cron_run_receipts WHERE request_run_id IS NOT NULL");
  assert.is(manual.length, 1);
  assert.is(all.runs[probe.id]!.find((r) => r.id === manual[0]!.receipt_id)!.runId, manual[0]!.request_run_id);
  assert.is(Object.values(all.runs).flat().length, receipts.length);
});

test("2026.7.1: projection-era cron_jobs and cron_run_logs", () => {
  const stateDir = copyState("2026.7.1");
  const [{ now }] = query<{ now: number }>(stateDir, "SELECT max(updated_at) AS now FROM cron_jobs") as [{ now: number }];
  const data = must(readCron(stateDir, { nowMs: now }));
  checkJobsAgainstRows(stateDir, data, now);
  const logs = query<{ job_id: string; seq: number; status: string; duration_ms: number; total_tokens: number; entry_json: string }>(
    stateDir,
    "SELECT job_id, seq, status, duration_ms, total_tokens, entry_json FROM cron_run_logs ORDER BY seq DESC",
  );
  assert.ok(logs.length > 0);
  const run = data.runs[logs[0]!.job_id]![0]!;
  const entry = JSON.parse(logs[0]!.entry_json) as { runAtMs: number; ts: number; runId: string; sessionKey: string };
  assert.is(run.status, logs[0]!.status);
  assert.is(run.durationMs, logs[0]!.duration_ms);
  assert.is(run.totalTokens, logs[0]!.total_tokens);
  assert.is(run.startedAt, entry.runAtMs);
  assert.is(run.finishedAt, entry.ts);
  assert.is(run.runId, entry.runId);
  assert.is(run.sessionKey, entry.sessionKey);
});

test("2026.7.1 with an unreadable job_json falls back to the projection columns", () => {
  const stateDir = copyState("2026.7.1");
  const [row] = query<{ job_id: string; every_ms: number; anchor_ms: number; name: string; last_run_status: string }>(
    stateDir,
    "SELECT job_id, every_ms, anchor_ms, name, last_run_status FROM cron_jobs",
  );
  const db = new Database(dbOf(stateDir));
  db.prepare("UPDATE cron_jobs SET job_json = '{broken', state_json = 'nope'").run();
  db.close();
  const r = readCron(stateDir, { nowMs: 0 });
  assert.ok(r.ok);
  if (!r.ok) return;
  const job = r.value.jobs[0]!;
  assert.is(job.id, row!.job_id);
  assert.is(job.name, row!.name);
  assert.equal(job.schedule.spec, { kind: "every", everyMs: row!.every_ms, anchorMs: row!.anchor_ms });
  assert.is(job.lastStatus, row!.last_run_status);
  assert.equal(r.warnings.map((w) => w.code), ["BAD_JSON", "BAD_JSON"]);
});

test("2026.9.6 with one broken job row: that job skipped with a warning, the rest read", () => {
  const stateDir = copyState("2026.9.6");
  const db = new Database(dbOf(stateDir));
  db.prepare("UPDATE cron_jobs SET job_json = 'x' WHERE name = 'heartbeat-main'").run();
  const total = (db.prepare("SELECT count(*) AS n FROM cron_jobs").get() as { n: number }).n;
  db.close();
  const r = readCronFromDb(dbOf(stateDir), { nowMs: 0 });
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.is(r.value.jobs.length, total - 1);
  assert.equal(r.warnings.map((w) => w.code), ["BAD_ROW"]);
});

/** A pre-2026.6.1 file store in the documented shape. */
function writeFileStore(stateDir: string) {
  const cron = path.join(stateDir, "cron");
  fs.mkdirSync(path.join(cron, "runs"), { recursive: true });
  const jobs = [
    {
      id: "job-every",
      agentId: "main",
      name: "every-5m",
      enabled: true,
      createdAtMs: 1_000_000,
      schedule: { kind: "every", everyMs: 300_000, anchorMs: 1_000_000 },
      payload: { kind: "agentTurn", message: "ping" },
      state: { lastRunAtMs: 1_000_000, lastStatus: "ok" },
    },
    {
      id: "job-at",
      name: "once",
      enabled: false,
      schedule: { kind: "at", at: "2026-11-22T03:00:00Z" },
      payload: { kind: "systemEvent", text: "x" },
      state: {},
    },
    "not a job",
  ];
  fs.writeFileSync(path.join(cron, "jobs.json"), JSON.stringify({ version: 1, jobs }));
  fs.writeFileSync(
    path.join(cron, "jobs-state.json"),
    JSON.stringify({ version: 1, jobs: { "job-every": { lastRunAtMs: 1_600_000, lastRunStatus: "error", lastDurationMs: 1200, consecutiveErrors: 2, lastError: "boom", nextRunAtMs: 1_900_000 } } }),
  );
  const entries = [
    { ts: 1_301_000, jobId: "job-every", action: "finished", status: "ok", summary: "one", runId: "r1", runAtMs: 1_300_000, durationMs: 1000, usage: { total_tokens: 10 } },
    { ts: 1_601_200, jobId: "job-every", action: "finished", status: "error", error: "boom", runId: "r2", runAtMs: 1_600_000, durationMs: 1200 },
  ];
  fs.writeFileSync(path.join(cron, "runs", "job-every.jsonl"), entries.map((e) => JSON.stringify(e)).join("\n") + "\n{broken\n");
  return { jobs, entries };
}

test("file store: jobs.json + jobs-state.json + runs/<id>.jsonl", () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  const { entries } = writeFileStore(stateDir);
  const r = readCron(stateDir, { nowMs: 1_700_000 });
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.is(r.value.store, "files");
  assert.equal(r.value.jobs.map((j) => j.id), ["job-every", "job-at"]);
  const every = r.value.jobs[0]!;
  // jobs-state.json overrides the job's embedded state.
  assert.is(every.lastRunAt, 1_600_000);
  assert.is(every.lastStatus, "error");
  assert.is(every.consecutiveErrors, 2);
  assert.is(every.lastError, "boom");
  assert.is(every.nextRunAt, 1_900_000);
  assert.is(every.agentId, "main");
  const at = r.value.jobs[1]!;
  assert.is(at.enabled, false);
  assert.is(at.nextRunAt, null);
  assert.is(at.schedule.text, "at 2026-11-22T03:00:00.000Z");
  const runs = r.value.runs["job-every"]!;
  assert.equal(runs.map((x) => x.runId), [entries[1]!.runId, entries[0]!.runId]);
  assert.is(runs[1]!.totalTokens, 10);
  assert.is(runs[0]!.error, "boom");
  assert.is(runs[0]!.finishedAt, entries[1]!.ts);
  assert.equal(r.warnings.map((w) => w.code).sort(), ["BAD_JSON", "BAD_ROW"]);
  // Stored next run in the past: computed from the schedule instead (re-based on the last run).
  const later = readCronFromFiles(path.join(stateDir, "cron"), { nowMs: 2_000_000, runsPerJob: 1 });
  assert.ok(later.ok);
  if (later.ok) {
    assert.is(later.value.jobs[0]!.nextRunAt, 2_200_000);
    assert.is(later.value.runs["job-every"]!.length, 1);
  }
});

test("a bare-array jobs.json is accepted", () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  fs.mkdirSync(path.join(stateDir, "cron"));
  fs.writeFileSync(path.join(stateDir, "cron", "jobs.json"), JSON.stringify([{ id: "a", name: "a", schedule: { kind: "cron", expr: "*/5 * * * *", tz: "UTC" } }]));
  const r = readCron(stateDir, { nowMs: Date.UTC(2026, 0, 1, 0, 1) });
  assert.ok(r.ok);
  if (r.ok) assert.is(r.value.jobs[0]!.nextRunAt, Date.UTC(2026, 0, 1, 0, 5));
});

test("store selection and errors", () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  const none = readCron(empty, { nowMs: 0 });
  assert.ok(!none.ok && none.error.kind === "missing");

  // SQLite present but without cron_jobs, legacy files present: the files.
  const legacy = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  fs.mkdirSync(path.join(legacy, "state"));
  new Database(dbOf(legacy)).exec("CREATE TABLE other (x)").close();
  writeFileStore(legacy);
  const r = readCron(legacy, { nowMs: 0 });
  assert.ok(r.ok && r.value.store === "files");

  const corrupt = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  fs.mkdirSync(path.join(corrupt, "state"));
  fs.writeFileSync(dbOf(corrupt), "this is not a database, just some text that is long enough ".repeat(100));
  const c = readCron(corrupt, { nowMs: 0 });
  assert.ok(!c.ok && c.error.kind === "corrupt");

  fs.mkdirSync(path.join(empty, "cron"));
  fs.writeFileSync(path.join(empty, "cron", "jobs.json"), "{not json");
  const bad = readCron(empty, { nowMs: 0 });
  assert.ok(!bad.ok && bad.error.kind === "corrupt");
});

test("the fixture database is not modified by reading", () => {
  const stateDir = copyState("2026.9.6");
  const before = fs.readFileSync(dbOf(stateDir));
  must(readCron(stateDir, { nowMs: 0 }));
  assert.ok(before.equals(fs.readFileSync(dbOf(stateDir))));
});

test.run();
