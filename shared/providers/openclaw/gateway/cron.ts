// OpenClaw automations (cron jobs) and their recent runs, read-only, from whichever store exists:
//
// - state SQLite `$STATE/state/openclaw.sqlite`, table `cron_jobs` (2026.6.1+). `job_json` + `state_json`
//   are canonical in both eras; 2026.7.1 also has ~40 projection columns (`schedule_kind`, `every_ms`,
//   `last_run_status`, …) that we use only when the JSON is unreadable.
//   Run history: 2026.9.6 `cron_run_receipts` (one row per run, status + times + error) joined to
//   `task_runs` (runtime 'cron'; `detail_json` holds summary, model, usage, sessionId) by the task's
//   run id `cron:<jobId>:<startedAtMs>:<receiptId>[:…]`; 2026.7.1 `cron_run_logs` (one finished entry per
//   run, `entry_json` = the run-log entry).
// - before 2026.6.1, files: `$STATE/cron/jobs.json` ({version, jobs[]} or a bare array), `jobs-state.json`
//   ({version, jobs: {<id>: state}}), `runs/<jobId>.jsonl` (one run-log entry per line). `openclaw doctor`
//   imports them and renames them `*.migrated`; renamed files are ignored here.
// Times are epoch milliseconds throughout.
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { classifyIoError, fail, ok, SourceError } from "../../result.js";
import type { SourceResult, SourceWarning } from "../../result.js";
import { checkSqliteFiles, openRegular, readRegularFile } from "../../../base/safe-open.js";
import { computeNextRunAt, describeSchedule, parseSchedule } from "./cron-schedule.js";
import type { CronData, CronJobInfo, CronRunInfo } from "../../gateway-contract.js";

// The shapes are the contract's (what queries and the card read); re-exported for the gateway side.
export type { CronData, CronJobInfo, CronRunInfo };

export interface CronReadOptions {
  nowMs: number;
  /** How many recent runs per job; default 20. */
  runsPerJob?: number;
  /** Zone for cron expressions without tz (the gateway host's); default this process's zone. */
  hostTimeZone?: string;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

function parseJsonObject(raw: unknown): Obj | null {
  if (typeof raw !== "string") return null;
  try {
    const v: unknown = JSON.parse(raw);
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

/** Builds the public job record from the job JSON and its runtime state. */
function toJobInfo(job: Obj, state: Obj, fallback: { id?: string; name?: string; agentId?: string | null; enabled?: boolean }, opts: CronReadOptions): CronJobInfo | null {
  const id = text(job.id) ?? fallback.id ?? null;
  if (!id) return null;
  const spec = parseSchedule(job.schedule);
  const enabled = typeof job.enabled === "boolean" ? job.enabled : fallback.enabled ?? true;
  const lastRunAt = num(state.lastRunAtMs);
  const lastStatus = text(state.lastRunStatus) ?? text(state.lastStatus);
  const stored = num(state.nextRunAtMs) ?? num(job.nextRunAtMs);
  let nextRunAt: number | null = null;
  if (enabled) {
    nextRunAt =
      stored !== null && stored >= opts.nowMs
        ? stored
        : spec
          ? computeNextRunAt(spec, {
              nowMs: opts.nowMs,
              lastRunAtMs: lastRunAt,
              createdAtMs: num(job.createdAtMs),
              lastStatus,
              enabled,
              ...(opts.hostTimeZone ? { hostTimeZone: opts.hostTimeZone } : {}),
            })
          : null;
  }
  const kind = spec ? (spec.kind === "other" ? spec.type : spec.kind) : isObj(job.schedule) && typeof job.schedule.kind === "string" ? job.schedule.kind : "unknown";
  return {
    id,
    name: text(job.name) ?? fallback.name ?? id,
    displayName: text(job.displayName),
    agentId: text(job.agentId) ?? fallback.agentId ?? null,
    enabled,
    schedule: { kind, text: spec ? describeSchedule(spec) : kind, spec },
    lastRunAt,
    lastStatus,
    lastDurationMs: num(state.lastDurationMs),
    lastError: text(state.lastError),
    nextRunAt,
    dueAt: enabled ? (stored ?? nextRunAt) : null,
    consecutiveErrors: num(state.consecutiveErrors) ?? 0,
  };
}

/** A run-log entry (2026.7.1 `entry_json`, file-store `runs/*.jsonl`) -> run record. */
function runFromEntry(e: Obj, id: string, jobIdFallback: string): CronRunInfo {
  const durationMs = num(e.durationMs);
  const startedAt = num(e.runAtMs);
  const ts = num(e.ts);
  const usage = isObj(e.usage) ? e.usage : {};
  return {
    jobId: text(e.jobId) ?? jobIdFallback,
    id,
    runId: text(e.runId),
    status: text(e.status) ?? "unknown",
    startedAt: startedAt ?? (ts !== null && durationMs !== null ? ts - durationMs : null),
    finishedAt: ts ?? (startedAt !== null && durationMs !== null ? startedAt + durationMs : null),
    durationMs,
    error: text(e.error),
    summary: text(e.summary),
    sessionId: text(e.sessionId),
    sessionKey: text(e.sessionKey),
    model: text(e.model),
    provider: text(e.provider),
    totalTokens: num(usage.total_tokens) ?? num(usage.totalTokens),
    deliveryStatus: text(e.deliveryStatus),
  };
}

// ---------------------------------------------------------------------------------------------- SQLite

interface ColumnRow {
  name: string;
}

function tableColumns(db: Database.Database, table: string): Set<string> {
  const rows = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as ColumnRow[];
  return new Set(rows.map((r) => r.name));
}

/** 2026.7.1 projection columns -> job JSON, for rows whose job_json is unreadable. */
function jobFromProjection(r: Obj): Obj {
  const schedule: Obj = { kind: r.schedule_kind };
  if (r.every_ms !== null && r.every_ms !== undefined) schedule.everyMs = r.every_ms;
  if (r.anchor_ms !== null && r.anchor_ms !== undefined) schedule.anchorMs = r.anchor_ms;
  if (r.schedule_expr) schedule.expr = r.schedule_expr;
  if (r.schedule_tz) schedule.tz = r.schedule_tz;
  if (r.at) schedule.at = r.at;
  return { id: r.job_id, name: r.name, agentId: r.agent_id, enabled: r.enabled === 1, createdAtMs: r.created_at_ms, schedule };
}

function stateFromProjection(r: Obj): Obj {
  const s: Obj = {};
  const map: [string, string][] = [
    ["next_run_at_ms", "nextRunAtMs"],
    ["last_run_at_ms", "lastRunAtMs"],
    ["last_run_status", "lastRunStatus"],
    ["last_error", "lastError"],
    ["last_duration_ms", "lastDurationMs"],
    ["consecutive_errors", "consecutiveErrors"],
  ];
  for (const [col, key] of map) if (r[col] !== null && r[col] !== undefined) s[key] = r[col];
  return s;
}

interface ReceiptRow {
  receipt_id: string;
  job_id: string;
  request_run_id: string | null;
  status: string;
  started_at_ms: number;
  finished_at_ms: number | null;
  error_text: string | null;
  detail_json: string | null;
  child_session_key: string | null;
  terminal_summary: string | null;
}

function receiptRuns(db: Database.Database, limit: number, warnings: SourceWarning[]): CronRunInfo[] {
  const hasTasks = tableColumns(db, "task_runs").has("detail_json");
  // The task's run id is `cron:<jobId>:<startedAtMs>:<receiptId>`, optionally followed by `:<request run id>`.
  const taskJoin = hasTasks
    ? `LEFT JOIN task_runs t ON t.runtime = 'cron' AND t.source_id = r.job_id
         AND (t.run_id = 'cron:' || r.job_id || ':' || r.started_at_ms || ':' || r.receipt_id
              OR substr(t.run_id, 1, length('cron:' || r.job_id || ':' || r.started_at_ms || ':' || r.receipt_id) + 1)
                 = 'cron:' || r.job_id || ':' || r.started_at_ms || ':' || r.receipt_id || ':')`
    : "";
  const taskCols = hasTasks ? "t.detail_json, t.child_session_key, t.terminal_summary" : "NULL AS detail_json, NULL AS child_session_key, NULL AS terminal_summary";
  const rows = db
    .prepare(
      `SELECT r.receipt_id, r.job_id, r.request_run_id, r.status, r.started_at_ms, r.finished_at_ms, r.error_text, ${taskCols}
       FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY job_id ORDER BY started_at_ms DESC, receipt_id DESC) AS rn
             FROM cron_run_receipts) r
       ${taskJoin}
       WHERE r.rn <= ?
       ORDER BY r.job_id, r.started_at_ms DESC`,
    )
    .all(limit) as ReceiptRow[];
  const seen = new Set<string>();
  const out: CronRunInfo[] = [];
  for (const r of rows) {
    if (seen.has(r.receipt_id)) continue; // two task rows matched one receipt: keep the first
    seen.add(r.receipt_id);
    let detail: Obj = {};
    if (r.detail_json !== null) {
      const d = parseJsonObject(r.detail_json);
      if (d) detail = d;
      else warnings.push({ code: "BAD_JSON", message: "task_runs.detail_json is not a JSON object", where: `task_runs:cron:${r.receipt_id}` });
    }
    const usage = isObj(detail.usage) ? detail.usage : {};
    const finishedAt = r.finished_at_ms;
    out.push({
      jobId: r.job_id,
      id: r.receipt_id,
      runId: r.request_run_id ?? text(detail.runId),
      status: r.status,
      startedAt: r.started_at_ms,
      finishedAt,
      durationMs: finishedAt !== null ? finishedAt - r.started_at_ms : num(detail.durationMs),
      error: r.error_text ?? text(detail.error),
      summary: text(detail.summary) ?? r.terminal_summary,
      sessionId: text(detail.sessionId),
      sessionKey: r.child_session_key,
      model: text(detail.model),
      provider: text(detail.provider),
      totalTokens: num(usage.total_tokens),
      deliveryStatus: text(detail.deliveryStatus),
    });
  }
  return out;
}

interface RunLogRow extends Obj {
  job_id: string;
  seq: number;
  entry_json: string;
}

function runLogRuns(db: Database.Database, limit: number, warnings: SourceWarning[]): CronRunInfo[] {
  const rows = db
    .prepare(
      `SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY job_id ORDER BY seq DESC) AS rn FROM cron_run_logs)
       WHERE rn <= ? ORDER BY job_id, seq DESC`,
    )
    .all(limit) as RunLogRow[];
  return rows.map((r) => {
    const entry = parseJsonObject(r.entry_json);
    if (!entry) warnings.push({ code: "BAD_JSON", message: "cron_run_logs.entry_json is not a JSON object; using its columns", where: `cron_run_logs:${r.job_id}:${r.seq}` });
    // Columns first (they are what the gateway indexes), the entry for anything they lack.
    const e: Obj = { ...(entry ?? {}) };
    const cols: [string, string][] = [
      ["ts", "ts"],
      ["status", "status"],
      ["error", "error"],
      ["summary", "summary"],
      ["session_id", "sessionId"],
      ["session_key", "sessionKey"],
      ["run_id", "runId"],
      ["run_at_ms", "runAtMs"],
      ["duration_ms", "durationMs"],
      ["model", "model"],
      ["provider", "provider"],
      ["delivery_status", "deliveryStatus"],
    ];
    for (const [col, key] of cols) if (r[col] !== null && r[col] !== undefined) e[key] = r[col];
    const run = runFromEntry(e, `${r.job_id}:${r.seq}`, r.job_id);
    if (run.totalTokens === null && typeof r.total_tokens === "number") run.totalTokens = r.total_tokens;
    return run;
  });
}

function groupRuns(runs: CronRunInfo[]): Record<string, CronRunInfo[]> {
  const out: Record<string, CronRunInfo[]> = {};
  for (const r of runs) (out[r.jobId] ??= []).push(r);
  for (const list of Object.values(out)) list.sort((a, b) => (b.startedAt ?? b.finishedAt ?? 0) - (a.startedAt ?? a.finishedAt ?? 0));
  return out;
}

/** Reads jobs and recent runs from the state SQLite. The database is opened read-only and never written. */
export function readCronFromDb(dbPath: string, opts: CronReadOptions): SourceResult<CronData> {
  const warnings: SourceWarning[] = [];
  let db: Database.Database | undefined;
  try {
    // SQLite's own opens block on a FIFO: the db and its side files are checked first (safe-open.ts).
    checkSqliteFiles(dbPath);
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    checkSqliteFiles(dbPath); // again: -wal and -shm are opened by the first query
    db.pragma("busy_timeout = 2000");
    const jobCols = tableColumns(db, "cron_jobs");
    if (!jobCols.has("job_json")) {
      return fail(new SourceError("unsupported", `${dbPath}: no cron_jobs table with job_json`, { where: dbPath }), warnings);
    }
    const projection = jobCols.has("schedule_kind");
    const order = jobCols.has("sort_order") ? "ORDER BY sort_order, name" : "ORDER BY name";
    const rows = db.prepare(`SELECT * FROM cron_jobs ${order}`).all() as Obj[];
    const jobs: CronJobInfo[] = [];
    for (const r of rows) {
      const where = `cron_jobs:${String(r.job_id)}`;
      let job = parseJsonObject(r.job_json);
      if (!job) {
        if (!projection) {
          warnings.push({ code: "BAD_ROW", message: "job_json is not a JSON object; job skipped", where });
          continue;
        }
        warnings.push({ code: "BAD_JSON", message: "job_json is not a JSON object; using the projection columns", where });
        job = jobFromProjection(r);
      }
      let state = parseJsonObject(r.state_json);
      if (!state) {
        warnings.push({ code: "BAD_JSON", message: "state_json is not a JSON object", where });
        state = projection ? stateFromProjection(r) : {};
      } else if (projection) {
        state = { ...stateFromProjection(r), ...state };
      }
      const info = toJobInfo(
        job,
        state,
        { id: text(r.job_id) ?? undefined, name: text(r.name) ?? undefined, agentId: text(r.agent_id), enabled: r.enabled === 1 },
        opts,
      );
      if (info) jobs.push(info);
      else warnings.push({ code: "BAD_ROW", message: "job has no id", where });
    }

    const limit = Math.max(0, opts.runsPerJob ?? 20);
    let runs: CronRunInfo[] = [];
    if (limit > 0) {
      if (tableColumns(db, "cron_run_receipts").has("receipt_id")) runs = receiptRuns(db, limit, warnings);
      else if (tableColumns(db, "cron_run_logs").has("entry_json")) runs = runLogRuns(db, limit, warnings);
    }
    return ok({ store: "sqlite", jobs, runs: groupRuns(runs) }, warnings);
  } catch (err) {
    return fail(classifyIoError(err, dbPath), warnings);
  } finally {
    db?.close();
  }
}

// ----------------------------------------------------------------------------------------------- files

const RUN_LOG_TAIL_BYTES = 1 << 20;

function readJsonFile(p: string): unknown {
  return JSON.parse(readRegularFile(p).toString("utf8"));
}

/** The last `limit` entries of a `runs/<jobId>.jsonl`, newest first; reads at most its last 1 MiB. */
function readRunLog(file: string, jobId: string, limit: number, warnings: SourceWarning[]): CronRunInfo[] {
  let buf: Buffer;
  let skippedHead = false;
  const { fd, stat } = openRegular(file);
  try {
    const size = stat.size;
    const start = Math.max(0, size - RUN_LOG_TAIL_BYTES);
    skippedHead = start > 0;
    buf = Buffer.alloc(size - start);
    fs.readSync(fd, buf, 0, buf.length, start);
  } finally {
    fs.closeSync(fd);
  }
  const lines = buf.toString("utf8").split("\n");
  if (skippedHead) lines.shift(); // the first line was cut by the tail window
  const out: CronRunInfo[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const e = parseJsonObject(line);
    if (!e) {
      warnings.push({ code: "BAD_JSON", message: "run-log line is not a JSON object", where: `${file}:${i + 1}` });
      return;
    }
    // Only finished entries are runs (the action field is absent in some older entries).
    if (e.action !== undefined && e.action !== "finished") return;
    out.push(runFromEntry(e, `${jobId}:${i + 1}`, jobId));
  });
  return out.reverse().slice(0, limit);
}

/** Reads the pre-2026.6.1 file store in `cronDir` (`$STATE/cron`). */
export function readCronFromFiles(cronDir: string, opts: CronReadOptions): SourceResult<CronData> {
  const warnings: SourceWarning[] = [];
  const jobsPath = path.join(cronDir, "jobs.json");
  let doc: unknown;
  try {
    doc = readJsonFile(jobsPath);
  } catch (err) {
    if (err instanceof SyntaxError) return fail(new SourceError("corrupt", `${jobsPath}: not valid JSON`, { where: jobsPath }, { cause: err }));
    return fail(classifyIoError(err, jobsPath));
  }
  const list = Array.isArray(doc) ? doc : isObj(doc) && Array.isArray(doc.jobs) ? doc.jobs : null;
  if (!list) return fail(new SourceError("corrupt", `${jobsPath}: expected {version, jobs: [...]} or an array`, { where: jobsPath }));

  let states: Obj = {};
  const statePath = path.join(cronDir, "jobs-state.json");
  try {
    const s = readJsonFile(statePath);
    if (isObj(s) && isObj(s.jobs)) states = s.jobs;
    else warnings.push({ code: "UNKNOWN_FORMAT", message: "jobs-state.json has no jobs object", where: statePath });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") warnings.push({ code: "BAD_JSON", message: "jobs-state.json could not be read", where: statePath });
  }

  const jobs: CronJobInfo[] = [];
  list.forEach((j: unknown, i: number) => {
    const where = `${jobsPath}#${i}`;
    if (!isObj(j)) {
      warnings.push({ code: "BAD_ROW", message: "job is not an object", where });
      return;
    }
    const id = text(j.id);
    const own = isObj(j.state) ? j.state : {};
    const external = id && isObj(states[id]) ? (states[id] as Obj) : {};
    const info = toJobInfo(j, { ...own, ...external }, {}, opts);
    if (info) jobs.push(info);
    else warnings.push({ code: "BAD_ROW", message: "job has no id", where });
  });

  const limit = Math.max(0, opts.runsPerJob ?? 20);
  const runs: Record<string, CronRunInfo[]> = {};
  if (limit > 0) {
    for (const job of jobs) {
      const file = path.join(cronDir, "runs", `${job.id}.jsonl`);
      try {
        const r = readRunLog(file, job.id, limit, warnings);
        if (r.length) runs[job.id] = r;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") warnings.push({ code: "BAD_ROW", message: `run log unreadable: ${(err as Error).message}`, where: file });
      }
    }
  }
  return ok({ store: "files", jobs, runs }, warnings);
}

// ------------------------------------------------------------------------------------------- selection

/**
 * Reads cron from an OpenClaw state dir: the state SQLite when it has a `cron_jobs` table, else the legacy
 * file store. When the SQLite store is empty but un-imported legacy files exist (the gateway has not
 * started since an upgrade), the files are what the gateway will run, so they are returned.
 */
export function readCron(stateDir: string, opts: CronReadOptions): SourceResult<CronData> {
  const dbPath = path.join(stateDir, "state", "openclaw.sqlite");
  const cronDir = path.join(stateDir, "cron");
  const hasFiles = fs.existsSync(path.join(cronDir, "jobs.json"));
  if (fs.existsSync(dbPath)) {
    const fromDb = readCronFromDb(dbPath, opts);
    if (fromDb.ok && (fromDb.value.jobs.length > 0 || !hasFiles)) return fromDb;
    if (!fromDb.ok && !(fromDb.error.kind === "unsupported" && hasFiles)) return fromDb;
  }
  if (hasFiles) return readCronFromFiles(cronDir, opts);
  return fail(new SourceError("missing", `${stateDir}: no cron store (state/openclaw.sqlite or cron/jobs.json)`, { where: stateDir }));
}
