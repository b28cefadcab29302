// Reader for the per-agent SQLite DB of OpenClaw >= 2026.7.2 (`agents/<id>/agent/openclaw-agent.sqlite`).
// The gateway writes it live in WAL mode, so we open it read-only and keep every read a single
// statement run to completion: no read transaction stays open between calls to block checkpoints.
import Database from "better-sqlite3";
import { SourceError, classifyIoError, fail, ok } from "../result.js";
import type { SourceResult, SourceWarning } from "../result.js";
import { checkSqliteFiles } from "../../base/safe-open.js";
import { parseTranscriptEvent, reportUsageProblems } from "./transcript-event.js";
import type { TranscriptEvent } from "./transcript-event.js";
import { decodeZstd } from "./zstd.js";
import type { ZstdDecoder } from "./zstd.js";

type RawSessionStatus = "running" | "done" | "failed" | "killed" | "timeout";

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

interface SchemaMeta {
  schemaVersion: number | null;
  appVersion: string | null;
}

/** Per-transcript summary for change detection. */
export interface TranscriptStat {
  sessionId: string;
  maxSeq: number;
  count: number;
}

interface TranscriptEventBatch {
  /** Parsed events in seq order; `pos` is the seq. */
  events: TranscriptEvent[];
  /** The seq to pass as `afterSeq` next time (the last row read, parsed or not). */
  lastSeq: number;
  /** True when fewer than `limit` rows were left: the reader has caught up (false when the batch stopped at its byte budget). */
  done: boolean;
}

interface AgentDbOptions {
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
 * Which rows moved: (session_key, updated_at) only, walked in the gateway's
 * idx_agent_session_nodes_updated_at (~1 ms at 2,376 sessions where the head columns, stored after
 * entry_json, cost a walk of every entry's overflow pages: ~20 ms).
 */
const NODE_STAMPS_SQL = "SELECT session_key, updated_at FROM session_nodes";

/** The key order, from the primary key index alone (read again only when keys come or go). */
const NODE_ORDER_SQL = "SELECT session_key FROM session_nodes ORDER BY session_key";

/** One row, entry included: the rows whose updated_at moved. */
const NODE_ONE_SQL = `SELECT session_key, current_session_id,
  CASE WHEN json_valid(entry_json) THEN json_remove(entry_json, ${UNREAD_ENTRY_FIELDS.map((f) => `'$.${f}'`).join(", ")}) ELSE entry_json END AS entry_json,
  updated_at, status, created_at, created_via,
  parent_session_key, spawned_by, label, display_name, archived_at, last_interaction_at, last_activity_at
  FROM session_nodes WHERE session_key = ?`;

/**
 * The first listing read in stretches: a chunk of rows per statement, run to completion (no read
 * transaction held across a pause), in key order. 2,376 entries in one go held the loop ~60 ms.
 */
const NODE_CHUNK_SQL = `${NODE_SQL.replace(" ORDER BY session_key", "")} WHERE session_key > ? ORDER BY session_key LIMIT ?`;
const NODE_FIRST_CHUNK_SQL = `${NODE_SQL} LIMIT ?`;
const CHUNK_ROWS = 250;

/** Above this many moved rows (and an eighth of all), one read of everything beats a query per row. */
const INCREMENTAL_MAX = 50;

const WINDOW_COLUMNS = `session_id, session_key, previous_session_id, reason, created_at, updated_at,
  transcript_updated_at, started_at, ended_at, status, chat_type, channel, model_provider, model,
  parent_session_key, spawned_by, display_name`;

const WINDOW_SQL = `SELECT ${WINDOW_COLUMNS} FROM session_windows ORDER BY session_key, created_at, session_id`;

const WINDOW_ONE_SQL = `SELECT ${WINDOW_COLUMNS} FROM session_windows WHERE session_id = ?`;

/**
 * What a write to a window moves: the gateway sets updated_at when it writes the row and
 * transcript_updated_at with every transcript append (the 2026.9.6 fixture: it is at or after the
 * window's last event in every window). ~2.5 ms at 4,000 windows, where reading them whole is ~13 ms.
 */
const WINDOW_STAMPS_SQL = "SELECT session_id, updated_at, transcript_updated_at FROM session_windows";

const WINDOW_ORDER_SQL = "SELECT session_id FROM session_windows ORDER BY session_key, created_at, session_id";

const WINDOW_CHUNK_SQL = `SELECT ${WINDOW_COLUMNS} FROM session_windows WHERE session_id > ? ORDER BY session_id LIMIT ?`;
const WINDOW_FIRST_CHUNK_SQL = `SELECT ${WINDOW_COLUMNS} FROM session_windows ORDER BY session_id LIMIT ?`;

// Walks the (session_id, seq) primary-key index only; the event payloads are never touched.
const STATS_SQL = `SELECT session_id AS sessionId, max(seq) AS maxSeq, count(*) AS count
  FROM transcript_events GROUP BY session_id ORDER BY session_id`;

/** A read of events stops after this many characters of event JSON (the rest comes with the next call). */
const BATCH_MAX_BYTES = 128 * 1024;

const EVENTS_SQL = `SELECT seq, created_at, event_json, event_zstd FROM transcript_events
  WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`;

const MAX_SEQ_SQL = "SELECT max(seq) AS maxSeq FROM transcript_events WHERE session_id = ?";

const STATS_CHUNK_SQL = `SELECT session_id AS sessionId, max(seq) AS maxSeq, count(*) AS count
  FROM transcript_events WHERE session_id > ? GROUP BY session_id ORDER BY session_id LIMIT ?`;
const STATS_FIRST_CHUNK_SQL = `SELECT session_id AS sessionId, max(seq) AS maxSeq, count(*) AS count
  FROM transcript_events GROUP BY session_id ORDER BY session_id LIMIT ?`;

const STAT_ONE_SQL = "SELECT max(seq) AS maxSeq, count(*) AS count FROM transcript_events WHERE session_id = ?";

// transcript_events is a rowid table: an insert takes a rowid above every row's, so the rows after
// the highest rowid seen are the ones appended since (found by the rowid b-tree, O(new rows)).
const MAX_ROWID_SQL = "SELECT max(rowid) AS maxRowid FROM transcript_events";
// No DISTINCT: with it SQLite walks the whole (session_id, seq) index instead of the rowid range.
const WRITTEN_AFTER_SQL = "SELECT session_id FROM transcript_events WHERE rowid > ? LIMIT ?";

const REQUIRED_TABLES = ["session_nodes", "session_windows", "transcript_events"] as const;

function parseEntry(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const SCHEMA_META_SQL = "SELECT meta_key, schema_version, app_version FROM schema_meta";

/** Reads `schema_meta`: prefers the `primary` row, else any row naming an app version. `stmt`: a prepared SCHEMA_META_SQL to reuse. */
function schemaMetaOf(db: Database.Database, stmt?: Database.Statement): SchemaMeta {
  const rows = (stmt ?? db.prepare(SCHEMA_META_SQL)).all() as {
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
  // SQLite's own open(2) blocks on a FIFO: the db, -wal, -shm and -journal must be regular files
  // (safe-open.ts says what window remains).
  try {
    checkSqliteFiles(dbPath);
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
    // Again right before the first query, which is where SQLite opens -wal and -shm.
    checkSqliteFiles(dbPath);
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

function nodeRowOf(r: NodeSqlRow): SessionNodeRow {
  return {
    sessionKey: r.session_key,
    currentSessionId: r.current_session_id,
    entry: parseEntry(r.entry_json),
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
}

function windowRowOf(r: WindowSqlRow): SessionWindowRow {
  return {
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
  };
}

export class AgentDb {
  private readonly stmts = new Map<string, Database.Statement>();
  /**
   * Each session's row, entry parsed, as read at its updated_at. The gateway bumps updated_at with
   * every write of the row, so a pass after one turn reads and parses that session's row only.
   */
  private readonly nodes = new Map<string, SessionNodeRow>();
  /** The rows in key order, as last returned; null when keys came or went since. */
  private nodeList: SessionNodeRow[] | null = null;
  /** Every ENTRY_FULL_READ_EVERY-th listing reads every row again, so a write that kept its updated_at is not missed for long. */
  private listings = 0;
  /** The same for session windows, by session id. */
  private readonly windows = new Map<string, SessionWindowRow>();
  private windowList: SessionWindowRow[] | null = null;
  private windowReads = 0;
  /** Rows read whole by a warm-up since the last listing: that listing's periodic full read is done. */
  private nodesWarm = false;
  private windowsWarm = false;

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
      // SQLite opens a -wal or -journal that appeared since on any read, with a blocking open(2):
      // one planted as a FIFO is refused here first (four stats, a few µs).
      checkSqliteFiles(this.path);
      return ok(read(warnings), warnings);
    } catch (err) {
      return fail(classifyIoError(err, `${this.path}:${where}`), warnings);
    }
  }

  /** Every session key, archived ones included (`archivedAt` says which), in key order. */
  sessionNodes(): SourceResult<SessionNodeRow[]> {
    return this.guard("session_nodes", (warnings) => {
      this.listings++;
      const due = this.nodeList === null || (this.listings % ENTRY_FULL_READ_EVERY === 0 && !this.nodesWarm);
      this.nodesWarm = false;
      let list = !due && this.nodeList !== null ? this.nodesSince(this.nodeList) : null;
      if (list === null) {
        // The first listing, the periodic one, or many rows moved: one read of every row.
        this.nodes.clear();
        list = (this.stmt(NODE_SQL).all() as NodeSqlRow[]).map((r) => {
          const row = nodeRowOf(r);
          this.nodes.set(row.sessionKey, row);
          return row;
        });
      }
      this.nodeList = list;
      for (const r of list) {
        if (r.entry === null) warnings.push({ code: "BAD_JSON", message: "entry_json is not a JSON object; listed from its columns only", where: `session_nodes:${r.sessionKey}` });
      }
      // A copy: the caller owns the array it gets.
      return list.slice();
    });
  }

  /** The listing after `prev`, reading only the rows whose updated_at moved; null when a full read is due. */
  private nodesSince(prev: SessionNodeRow[]): SessionNodeRow[] | null {
    const stamps = this.stmt(NODE_STAMPS_SQL).all() as Array<{ session_key: string; updated_at: number }>;
    const moved = stamps.filter((s) => this.nodes.get(s.session_key)?.updatedAt !== s.updated_at);
    if (moved.length > INCREMENTAL_MAX && moved.length > stamps.length / 8) return null;
    let keysChanged = false;
    const one = this.stmt(NODE_ONE_SQL);
    for (const m of moved) {
      const r = one.get(m.session_key) as NodeSqlRow | undefined;
      if (!r) {
        // Deleted since the stamps were read.
        keysChanged ||= this.nodes.delete(m.session_key);
        continue;
      }
      // Kept under the updated_at it has now (it may have been written again since the stamps):
      // the next pass sees it move if it did.
      if (!this.nodes.has(m.session_key)) keysChanged = true;
      this.nodes.set(m.session_key, nodeRowOf(r));
    }
    if (this.nodes.size !== stamps.length) {
      const present = new Set(stamps.map((s) => s.session_key));
      for (const k of this.nodes.keys()) if (!present.has(k)) this.nodes.delete(k);
      keysChanged = true;
    }
    if (keysChanged) {
      // SQLite's own order (BINARY collation), not a JavaScript sort that orders some strings differently.
      const order = this.stmt(NODE_ORDER_SQL).pluck().all() as string[];
      const list: SessionNodeRow[] = [];
      for (const k of order) {
        const row = this.nodes.get(k);
        if (row) list.push(row); // a key inserted after the stamps: listed next pass
      }
      return list;
    }
    if (moved.length === 0) return prev;
    return prev.map((r) => this.nodes.get(r.sessionKey) ?? r);
  }

  /** The rows as last listed or warmed (the objects themselves), null before the first. */
  heldSessionNodes(): readonly SessionNodeRow[] | null {
    return this.nodeList;
  }

  /** Every session window, grouped by key and ordered by creation. */
  sessionWindows(): SourceResult<SessionWindowRow[]> {
    return this.guard("session_windows", () => {
      this.windowReads++;
      const due = this.windowList === null || (this.windowReads % ENTRY_FULL_READ_EVERY === 0 && !this.windowsWarm);
      this.windowsWarm = false;
      let list = !due && this.windowList !== null ? this.windowsSince(this.windowList) : null;
      if (list === null) {
        this.windows.clear();
        list = (this.stmt(WINDOW_SQL).all() as WindowSqlRow[]).map((r) => {
          const row = windowRowOf(r);
          this.windows.set(row.sessionId, row);
          return row;
        });
      }
      this.windowList = list;
      return list.slice();
    });
  }

  /** The windows after `prev`, reading only those whose updated_at or transcript_updated_at moved; null when a full read is due. */
  private windowsSince(prev: SessionWindowRow[]): SessionWindowRow[] | null {
    const stamps = this.stmt(WINDOW_STAMPS_SQL).all() as Array<{ session_id: string; updated_at: number; transcript_updated_at: number | null }>;
    const moved = stamps.filter((s) => {
      const w = this.windows.get(s.session_id);
      return w === undefined || w.updatedAt !== s.updated_at || w.transcriptUpdatedAt !== s.transcript_updated_at;
    });
    if (moved.length > INCREMENTAL_MAX && moved.length > stamps.length / 8) return null;
    let reorder = false;
    const one = this.stmt(WINDOW_ONE_SQL);
    for (const m of moved) {
      const r = one.get(m.session_id) as WindowSqlRow | undefined;
      const old = this.windows.get(m.session_id);
      if (!r) {
        reorder ||= this.windows.delete(m.session_id);
        continue;
      }
      const row = windowRowOf(r);
      // A new window, or one whose place in the order moved.
      if (!old || old.sessionKey !== row.sessionKey || old.createdAt !== row.createdAt) reorder = true;
      this.windows.set(row.sessionId, row);
    }
    if (this.windows.size !== stamps.length) {
      const present = new Set(stamps.map((s) => s.session_id));
      for (const k of this.windows.keys()) if (!present.has(k)) this.windows.delete(k);
      reorder = true;
    }
    if (reorder) {
      const list: SessionWindowRow[] = [];
      for (const id of this.stmt(WINDOW_ORDER_SQL).pluck().all() as string[]) {
        const row = this.windows.get(id);
        if (row) list.push(row);
      }
      return list;
    }
    if (moved.length === 0) return prev;
    return prev.map((w) => this.windows.get(w.sessionId) ?? w);
  }

  /**
   * Rows of a whole table in chunks of CHUNK_ROWS, `pause()` awaited between them; each chunk is one
   * statement run to completion. Rows written between chunks are read at whatever state they have
   * then: each row keeps its own stamp, so the next listing reads what moved after.
   */
  private async chunked<R>(where: string, first: string, next: string, keyOf: (r: R) => string, pause: () => Promise<void>): Promise<SourceResult<R[]>> {
    const rows: R[] = [];
    let after: string | null = null;
    for (;;) {
      const from = after;
      const chunk = this.guard(where, () => (from === null ? this.stmt(first).all(CHUNK_ROWS) : this.stmt(next).all(from, CHUNK_ROWS)) as R[]);
      if (!chunk.ok) return chunk;
      for (const r of chunk.value) rows.push(r);
      const last = chunk.value[chunk.value.length - 1];
      if (chunk.value.length < CHUNK_ROWS || last === undefined) return ok(rows);
      after = keyOf(last);
      await pause();
    }
  }

  /**
   * Before the first listing and the periodic full one: every session row read and parsed in
   * stretches, so that the sessionNodes() after it only looks at what moved meanwhile. A no-op when
   * the next listing is an incremental one anyway.
   */
  async warmSessionNodes(pause: () => Promise<void>): Promise<SourceResult<void>> {
    if (this.nodeList !== null && (this.listings + 1) % ENTRY_FULL_READ_EVERY !== 0) return ok(undefined);
    const listings = this.listings;
    const read = await this.chunked<NodeSqlRow>("session_nodes", NODE_FIRST_CHUNK_SQL, NODE_CHUNK_SQL, (r) => r.session_key, pause);
    if (!read.ok) return read;
    // Listed by another call meanwhile: keep what that one read.
    if (this.listings !== listings) return ok(undefined);
    this.nodesWarm = true;
    this.nodes.clear();
    const list: SessionNodeRow[] = [];
    for (const r of read.value) {
      const row = nodeRowOf(r);
      this.nodes.set(row.sessionKey, row);
      list.push(row);
    }
    this.nodeList = list;
    return ok(undefined);
  }

  /** The same for the session windows. */
  async warmSessionWindows(pause: () => Promise<void>): Promise<SourceResult<void>> {
    if (this.windowList !== null && (this.windowReads + 1) % ENTRY_FULL_READ_EVERY !== 0) return ok(undefined);
    const reads = this.windowReads;
    const read = await this.chunked<WindowSqlRow>("session_windows", WINDOW_FIRST_CHUNK_SQL, WINDOW_CHUNK_SQL, (r) => r.session_id, pause);
    if (!read.ok) return read;
    const order = this.guard("session_windows", () => this.stmt(WINDOW_ORDER_SQL).pluck().all() as string[]);
    if (!order.ok) return order;
    if (this.windowReads !== reads) return ok(undefined);
    this.windowsWarm = true;
    this.windows.clear();
    for (const r of read.value) this.windows.set(r.session_id, windowRowOf(r));
    const list: SessionWindowRow[] = [];
    for (const id of order.value) {
      const row = this.windows.get(id);
      if (row) list.push(row);
    }
    // A window added between the chunks and the order (or gone): the next listing sees the count move.
    this.windowList = list;
    return ok(undefined);
  }

  /** transcriptStats() in stretches. */
  async transcriptStatsPaced(pause: () => Promise<void>): Promise<SourceResult<TranscriptStat[]>> {
    return this.chunked<TranscriptStat>("transcript_events", STATS_FIRST_CHUNK_SQL, STATS_CHUNK_SQL, (r) => r.sessionId, pause);
  }

  /**
   * Changes whenever another connection (the gateway) committed to the DB since the last call on
   * this reader: an O(1) way to skip a refresh when nothing happened.
   */
  dataVersion(): SourceResult<number> {
    return this.guard("data_version", () => this.db.pragma("data_version", { simple: true }) as number);
  }

  schemaMeta(): SourceResult<SchemaMeta> {
    return this.guard("schema_meta", () => schemaMetaOf(this.db, this.stmt(SCHEMA_META_SQL)));
  }

  /** Max seq and row count per transcript: the scanner skips transcripts whose numbers did not move. */
  transcriptStats(): SourceResult<TranscriptStat[]> {
    return this.guard("transcript_events", () => this.stmt(STATS_SQL).all() as TranscriptStat[]);
  }

  /** Max seq and row count of one transcript; null when it has no events. */
  transcriptStat(sessionId: string): SourceResult<TranscriptStat | null> {
    return this.guard("transcript_events", () => {
      const r = this.stmt(STAT_ONE_SQL).get(sessionId) as { maxSeq: number | null; count: number };
      return r.maxSeq === null ? null : { sessionId, maxSeq: r.maxSeq, count: r.count };
    });
  }

  /** The highest rowid of transcript_events (-1 when empty): rows appended later have higher ones. */
  maxEventRowid(): SourceResult<number> {
    return this.guard("transcript_events", () => (this.stmt(MAX_ROWID_SQL).get() as { maxRowid: number | null }).maxRowid ?? -1);
  }

  /**
   * The transcripts with a row above `rowid` (appended since that rowid was the highest); null when
   * there are more than `limit` such rows (a full count is cheaper then).
   */
  transcriptsWrittenAfter(rowid: number, limit: number): SourceResult<Set<string> | null> {
    return this.guard("transcript_events", () => {
      const ids = this.stmt(WRITTEN_AFTER_SQL).pluck().all(rowid, limit) as string[];
      return ids.length >= limit ? null : new Set(ids);
    });
  }

  /** Highest seq of one transcript, -1 when it has no events. */
  maxSeq(sessionId: string): SourceResult<number> {
    return this.guard("transcript_events", () => (this.stmt(MAX_SEQ_SQL).get(sessionId) as { maxSeq: number | null }).maxSeq ?? -1);
  }

  /**
   * Up to `limit` events of one transcript with seq > afterSeq, in order, and no more than
   * BATCH_MAX_BYTES of them (at least one row). A row that cannot be
   * decompressed or parsed is a warning and is skipped, but `lastSeq` still moves past it.
   */
  transcriptEvents(sessionId: string, afterSeq: number, limit: number): SourceResult<TranscriptEventBatch> {
    const max = Math.max(1, Math.floor(limit));
    return this.guard("transcript_events", (warnings) => {
      const events: TranscriptEvent[] = [];
      let lastSeq = afterSeq;
      let rows = 0;
      let bytes = 0;
      // Iterated, and left once BATCH_MAX_BYTES of events are read: 1,000 events of a busy agent are
      // ~2 MB to decompress and parse, ~70 ms of the loop in one call during a first scan. Leaving the
      // loop resets the statement, so no read transaction outlives the call.
      for (const r of this.stmt(EVENTS_SQL).iterate(sessionId, afterSeq, max) as IterableIterator<EventSqlRow>) {
        rows++;
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
        bytes += text.length;
        const event = parseTranscriptEvent(text, r.seq, r.created_at);
        if (event === undefined) {
          warnings.push({ code: "BAD_JSON", message: "event is not a JSON object", where: `transcript_events:${sessionId}:${r.seq}` });
        } else {
          reportUsageProblems(event, `transcript_events:${sessionId}:${r.seq}`, warnings);
          events.push(event);
        }
        if (bytes >= BATCH_MAX_BYTES) return { events, lastSeq, done: false };
      }
      return { events, lastSeq, done: rows < max };
    });
  }

  /**
   * Hands the page cache back (sqlite3_db_release_memory): pages are read again from the OS cache
   * when next needed. `atRest`: the rows kept for reading only what moved go too (the next
   * listing reads them all, as the first does).
   */
  releaseMemory(atRest = false): void {
    if (atRest) {
      this.nodes.clear();
      this.nodeList = null;
      this.listings = 0;
      this.windows.clear();
      this.windowList = null;
      this.windowReads = 0;
      this.nodesWarm = false;
      this.windowsWarm = false;
    }
    this.guard("shrink_memory", () => this.db.pragma("shrink_memory"));
  }

  close(): void {
    this.stmts.clear();
    if (this.db.open) this.db.close();
  }
}
