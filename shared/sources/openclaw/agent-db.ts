// Reader for the per-agent SQLite DB of OpenClaw >= 2026.7.2 (`agents/<id>/agent/openclaw-agent.sqlite`).
// The gateway writes it live in WAL mode, so we open it read-only and keep every read a single
// statement run to completion: no read transaction stays open between calls to block checkpoints.
import * as fs from "node:fs";
import Database from "better-sqlite3";
import { SourceError, classifyIoError, fail, ok } from "../result.js";
import type { SourceResult, SourceWarning } from "../result.js";
import { parseTranscriptEvent, reportUsageProblems } from "./transcript-event.js";
import type { TranscriptEvent } from "./transcript-event.js";
import { decodeZstd } from "./zstd.js";
import type { ZstdDecoder } from "./zstd.js";

export type RawSessionStatus = "running" | "done" | "failed" | "killed" | "timeout";

const STATUSES: ReadonlySet<string> = new Set(["running", "done", "failed", "killed", "timeout"]);

export function asSessionStatus(v: unknown): RawSessionStatus | null {
  return typeof v === "string" && STATUSES.has(v) ? (v as RawSessionStatus) : null;
}

/** One `session_nodes` row: one per session key. */
export interface SessionNodeRow {
  sessionKey: string;
  currentSessionId: string;
  /** The parsed `entry_json` (a SessionEntry), or null when it was not a JSON object (warned). */
  entry: Record<string, unknown> | null;
  updatedAt: number;
  status: RawSessionStatus | null;
  createdAt: number | null;
  createdVia: string | null;
  parentSessionKey: string | null;
  spawnedBy: string | null;
  label: string | null;
  displayName: string | null;
  archivedAt: number | null;
  lastInteractionAt: number | null;
  lastActivityAt: number | null;
}

/** One `session_windows` row: one per sessionId (a history generation under a key). */
export interface SessionWindowRow {
  sessionId: string;
  sessionKey: string;
  previousSessionId: string | null;
  reason: string | null;
  createdAt: number;
  updatedAt: number;
  transcriptUpdatedAt: number | null;
  startedAt: number | null;
  endedAt: number | null;
  status: RawSessionStatus | null;
  chatType: string | null;
  channel: string | null;
  modelProvider: string | null;
  model: string | null;
  parentSessionKey: string | null;
  spawnedBy: string | null;
  displayName: string | null;
}

export interface SchemaMeta {
  schemaVersion: number | null;
  appVersion: string | null;
}

/** Per-transcript summary for change detection. */
export interface TranscriptStat {
  sessionId: string;
  maxSeq: number;
  count: number;
}

export interface TranscriptEventBatch {
  /** Parsed events in seq order; `pos` is the seq. */
  events: TranscriptEvent[];
  /** The seq to pass as `afterSeq` next time (the last row read, parsed or not). */
  lastSeq: number;
  /** True when fewer than `limit` rows were left: the reader has caught up. */
  done: boolean;
}

export interface AgentDbOptions {
  /** Busy timeout for the rare moment the WAL index is being rebuilt. */
  timeoutMs?: number;
  /** Injected for tests; defaults to the runtime's best decoder. */
  zstd?: ZstdDecoder;
}

interface NodeSqlRow {
  session_key: string;
  current_session_id: string;
  entry_json: string;
  updated_at: number;
  status: string | null;
  created_at: number | null;
  created_via: string | null;
  parent_session_key: string | null;
  spawned_by: string | null;
  label: string | null;
  display_name: string | null;
  archived_at: number | null;
  last_interaction_at: number | null;
  last_activity_at: number | null;
}

interface WindowSqlRow {
  session_id: string;
  session_key: string;
  previous_session_id: string | null;
  reason: string | null;
  created_at: number;
  updated_at: number;
  transcript_updated_at: number | null;
  started_at: number | null;
  ended_at: number | null;
  status: string | null;
  chat_type: string | null;
  channel: string | null;
  model_provider: string | null;
  model: string | null;
  parent_session_key: string | null;
  spawned_by: string | null;
  display_name: string | null;
}

interface EventSqlRow {
  seq: number;
  created_at: number;
  event_json: string | null;
  event_zstd: Buffer | null;
}

/**
 * The session entry's three big blobs (skills, system prompt report, context budget: ~14 KB of the
 * usual ~15 KB). Nothing here reads them, and keeping them for 10k sessions dominated both the
 * refresh time and the heap, so both eras drop them as they read an entry.
 */
export const UNREAD_ENTRY_FIELDS = ["skillsSnapshot", "systemPromptReport", "contextBudgetStatus"] as const;

// Dropped in SQL, before the JSON reaches JavaScript. A malformed entry is passed on as it is, to
// be warned about.
const NODE_SQL = `SELECT session_key, current_session_id,
  CASE WHEN json_valid(entry_json) THEN json_remove(entry_json, ${UNREAD_ENTRY_FIELDS.map((f) => `'$.${f}'`).join(", ")}) ELSE entry_json END AS entry_json,
  updated_at, status, created_at, created_via,
  parent_session_key, spawned_by, label, display_name, archived_at, last_interaction_at, last_activity_at
  FROM session_nodes ORDER BY session_key`;

const ENTRY_FULL_READ_EVERY = 20;

/**
 * The same without entry_json (~30 ms where the full read and parse is ~125 ms at 2,376 sessions:
 * 35 MB of entries; the columns after entry_json still cost a walk of its overflow pages).
 */
const NODE_HEAD_SQL = `SELECT session_key, current_session_id,
  updated_at, status, created_at, created_via,
  parent_session_key, spawned_by, label, display_name, archived_at, last_interaction_at, last_activity_at
  FROM session_nodes ORDER BY session_key`;

const NODE_ENTRY_SQL = `SELECT
  CASE WHEN json_valid(entry_json) THEN json_remove(entry_json, ${UNREAD_ENTRY_FIELDS.map((f) => `'$.${f}'`).join(", ")}) ELSE entry_json END AS entry_json,
  updated_at FROM session_nodes WHERE session_key = ?`;

const WINDOW_SQL = `SELECT session_id, session_key, previous_session_id, reason, created_at, updated_at,
  transcript_updated_at, started_at, ended_at, status, chat_type, channel, model_provider, model,
  parent_session_key, spawned_by, display_name
  FROM session_windows ORDER BY session_key, created_at, session_id`;

// Walks the (session_id, seq) primary-key index only; the event payloads are never touched.
const STATS_SQL = `SELECT session_id AS sessionId, max(seq) AS maxSeq, count(*) AS count
  FROM transcript_events GROUP BY session_id ORDER BY session_id`;

const EVENTS_SQL = `SELECT seq, created_at, event_json, event_zstd FROM transcript_events
  WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`;

const MAX_SEQ_SQL = "SELECT max(seq) AS maxSeq FROM transcript_events WHERE session_id = ?";

const REQUIRED_TABLES = ["session_nodes", "session_windows", "transcript_events"] as const;

function parseEntry(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Reads `schema_meta`: prefers the `primary` row, else any row naming an app version. */
function schemaMetaOf(db: Database.Database): SchemaMeta {
  const rows = db.prepare("SELECT meta_key, schema_version, app_version FROM schema_meta").all() as {
    meta_key: string;
    schema_version: number | null;
    app_version: string | null;
  }[];
  const primary = rows.find((r) => r.meta_key === "primary");
  // 2026.7.1 state DBs leave primary.app_version NULL and put it on the `startup-migrations` row.
  const version = (v: string | null): v is string => typeof v === "string" && /^\d{4}\.\d+\.\d+/.test(v);
  const primaryVersion = primary?.app_version ?? null;
  const appVersion = version(primaryVersion) ? primaryVersion : (rows.find((r) => version(r.app_version))?.app_version ?? null);
  return { schemaVersion: primary?.schema_version ?? null, appVersion };
}

function openReadOnly(dbPath: string, timeoutMs: number): SourceResult<Database.Database> {
  // better-sqlite3 reports a missing parent dir as a plain TypeError, so check existence ourselves.
  try {
    const st = fs.statSync(dbPath);
    if (!st.isFile()) return fail(new SourceError("corrupt", `${dbPath}: not a regular file`, { where: dbPath }));
  } catch (err) {
    return fail(classifyIoError(err, dbPath));
  }
  let db: Database.Database;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true, timeout: timeoutMs });
  } catch (err) {
    return fail(classifyIoError(err, dbPath));
  }
  try {
    // Opening is lazy: the header is only checked by the first query, which is where a non-SQLite file fails.
    db.prepare("SELECT count(*) FROM sqlite_master").get();
    // A reader per agent: a 512 KB page cache each instead of better-sqlite3's 16 MB. Freed pages
    // stay with glibc (under the daemon's live allocations, so never trimmed): 2 MB each left the
    // daemon at rest ~16 MB larger on 10,000 sessions (store.ts, openChecked, has the figures).
    db.pragma("cache_size = -500");
  } catch (err) {
    db.close();
    return fail(classifyIoError(err, dbPath));
  }
  return ok(db);
}

/** Opens any OpenClaw DB just long enough to read its `schema_meta` (e.g. the file-era state DB). */
export function readSchemaMeta(dbPath: string, timeoutMs = 2000): SourceResult<SchemaMeta> {
  const opened = openReadOnly(dbPath, timeoutMs);
  if (!opened.ok) return fail(opened.error);
  const db = opened.value;
  try {
    return ok(schemaMetaOf(db));
  } catch (err) {
    return fail(classifyIoError(err, `${dbPath}:schema_meta`));
  } finally {
    db.close();
  }
}

export class AgentDb {
  private readonly stmts = new Map<string, Database.Statement>();
  /**
   * Each session's parsed entry with the updated_at it was read at. The gateway bumps updated_at
   * with every write of the entry, so a pass after one turn parses that session's entry only.
   */
  private readonly entries = new Map<string, { updatedAt: number; entry: Record<string, unknown> | null }>();
  /** Every ENTRY_FULL_READ_EVERY-th listing reads every entry again, so a write that kept its updated_at is not missed for long. */
  private listings = 0;

  private constructor(
    readonly path: string,
    private readonly db: Database.Database,
    private readonly zstd: ZstdDecoder,
  ) {}

  /** Opens read-only; a missing file, a non-SQLite file or a DB without the session tables is a SourceError. */
  static open(dbPath: string, opts: AgentDbOptions = {}): SourceResult<AgentDb> {
    const opened = openReadOnly(dbPath, opts.timeoutMs ?? 2000);
    if (!opened.ok) return fail(opened.error);
    const db = opened.value;
    try {
      const have = new Set(
        (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
      );
      const missing = REQUIRED_TABLES.filter((t) => !have.has(t));
      if (missing.length > 0) {
        db.close();
        return fail(new SourceError("unsupported", `${dbPath}: not an OpenClaw agent DB (no ${missing.join(", ")})`, { where: dbPath }));
      }
    } catch (err) {
      db.close();
      return fail(classifyIoError(err, dbPath));
    }
    return ok(new AgentDb(dbPath, db, opts.zstd ?? decodeZstd));
  }

  // Prepared once and reused; `.all()`/`.get()` run each statement to completion and reset it, so a
  // cached statement holds no read transaction between calls.
  private stmt(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  private guard<T>(where: string, read: (warnings: SourceWarning[]) => T): SourceResult<T> {
    const warnings: SourceWarning[] = [];
    if (!this.db.open) return fail(new SourceError("missing", `${this.path}: reader is closed`, { where: this.path }));
    try {
      return ok(read(warnings), warnings);
    } catch (err) {
      return fail(classifyIoError(err, `${this.path}:${where}`), warnings);
    }
  }

  /** Every session key, archived ones included (`archivedAt` says which). */
  sessionNodes(): SourceResult<SessionNodeRow[]> {
    return this.guard("session_nodes", (warnings) => {
      const heads = this.stmt(NODE_HEAD_SQL).all() as Array<Omit<NodeSqlRow, "entry_json">>;
      const stale = heads.filter((h) => this.entries.get(h.session_key)?.updatedAt !== h.updated_at);
      this.listings++;
      if ((stale.length > 50 && stale.length > heads.length / 8) || this.listings % ENTRY_FULL_READ_EVERY === 0) {
        // Many changed (the first pass): one read of every entry beats a query per session.
        this.entries.clear();
        for (const r of this.stmt(NODE_SQL).all() as NodeSqlRow[]) this.entries.set(r.session_key, { updatedAt: r.updated_at, entry: parseEntry(r.entry_json) });
      } else {
        const one = this.stmt(NODE_ENTRY_SQL);
        for (const h of stale) {
          const r = one.get(h.session_key) as { entry_json: string; updated_at: number } | undefined;
          // Written again since the heads were read: kept under the updated_at it has now, so the
          // next pass sees the head move and reads it again if needed.
          if (r) this.entries.set(h.session_key, { updatedAt: r.updated_at, entry: parseEntry(r.entry_json) });
        }
        if (this.entries.size > heads.length) {
          const keys = new Set(heads.map((h) => h.session_key));
          for (const k of this.entries.keys()) if (!keys.has(k)) this.entries.delete(k);
        }
      }
      return heads.map((r) => {
        const entry = this.entries.get(r.session_key)?.entry ?? null;
        if (entry === null) {
          warnings.push({ code: "BAD_JSON", message: "entry_json is not a JSON object; listed from its columns only", where: `session_nodes:${r.session_key}` });
        }
        return {
          sessionKey: r.session_key,
          currentSessionId: r.current_session_id,
          entry,
          updatedAt: r.updated_at,
          status: asSessionStatus(r.status),
          createdAt: r.created_at,
          createdVia: r.created_via,
          parentSessionKey: r.parent_session_key,
          spawnedBy: r.spawned_by,
          label: r.label,
          displayName: r.display_name,
          archivedAt: r.archived_at,
          lastInteractionAt: r.last_interaction_at,
          lastActivityAt: r.last_activity_at,
        };
      });
    });
  }

  /** Every session window, grouped by key and ordered by creation. */
  sessionWindows(): SourceResult<SessionWindowRow[]> {
    return this.guard("session_windows", () =>
      (this.stmt(WINDOW_SQL).all() as WindowSqlRow[]).map((r) => ({
        sessionId: r.session_id,
        sessionKey: r.session_key,
        previousSessionId: r.previous_session_id,
        reason: r.reason,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        transcriptUpdatedAt: r.transcript_updated_at,
        startedAt: r.started_at,
        endedAt: r.ended_at,
        status: asSessionStatus(r.status),
        chatType: r.chat_type,
        channel: r.channel,
        modelProvider: r.model_provider,
        model: r.model,
        parentSessionKey: r.parent_session_key,
        spawnedBy: r.spawned_by,
        displayName: r.display_name,
      })),
    );
  }

  /**
   * Changes whenever another connection (the gateway) committed to the DB since the last call on
   * this reader: an O(1) way to skip a refresh when nothing happened.
   */
  dataVersion(): SourceResult<number> {
    return this.guard("data_version", () => this.db.pragma("data_version", { simple: true }) as number);
  }

  schemaMeta(): SourceResult<SchemaMeta> {
    return this.guard("schema_meta", () => schemaMetaOf(this.db));
  }

  /** Max seq and row count per transcript: the scanner skips transcripts whose numbers did not move. */
  transcriptStats(): SourceResult<TranscriptStat[]> {
    return this.guard("transcript_events", () => this.stmt(STATS_SQL).all() as TranscriptStat[]);
  }

  /** Highest seq of one transcript, -1 when it has no events. */
  maxSeq(sessionId: string): SourceResult<number> {
    return this.guard("transcript_events", () => (this.stmt(MAX_SEQ_SQL).get(sessionId) as { maxSeq: number | null }).maxSeq ?? -1);
  }

  /**
   * Up to `limit` events of one transcript with seq > afterSeq, in order. A row that cannot be
   * decompressed or parsed is a warning and is skipped, but `lastSeq` still moves past it.
   */
  transcriptEvents(sessionId: string, afterSeq: number, limit: number): SourceResult<TranscriptEventBatch> {
    const max = Math.max(1, Math.floor(limit));
    return this.guard("transcript_events", (warnings) => {
      const rows = this.stmt(EVENTS_SQL).all(sessionId, afterSeq, max) as EventSqlRow[];
      const events: TranscriptEvent[] = [];
      let lastSeq = afterSeq;
      for (const r of rows) {
        lastSeq = r.seq;
        let text = r.event_json;
        if (text === null) {
          if (r.event_zstd === null) {
            warnings.push({ code: "BAD_ROW", message: "row has neither event_json nor event_zstd", where: `transcript_events:${sessionId}:${r.seq}` });
            continue;
          }
          try {
            text = this.zstd(r.event_zstd).toString("utf8");
          } catch (err) {
            warnings.push({ code: "DECODE_FAILED", message: `event_zstd: ${(err as Error).message}`, where: `transcript_events:${sessionId}:${r.seq}` });
            continue;
          }
        }
        const event = parseTranscriptEvent(text, r.seq, r.created_at);
        if (event === undefined) {
          warnings.push({ code: "BAD_JSON", message: "event is not a JSON object", where: `transcript_events:${sessionId}:${r.seq}` });
          continue;
        }
        reportUsageProblems(event, `transcript_events:${sessionId}:${r.seq}`, warnings);
        events.push(event);
      }
      return { events, lastSeq, done: rows.length < max };
    });
  }

  /** Hands the page cache back (sqlite3_db_release_memory): pages are read again from the OS cache when next needed. */
  releaseMemory(): void {
    this.guard("shrink_memory", () => this.db.pragma("shrink_memory"));
  }

  close(): void {
    this.stmts.clear();
    if (this.db.open) this.db.close();
  }
}
