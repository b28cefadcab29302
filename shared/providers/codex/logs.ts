// Codex's own log rows (codex-format.md §3, §13.5): table `logs` of `CODEX_HOME/logs_2.sqlite`,
// written by the TUI / app-server only (`codex exec` writes none), read incrementally after the
// last row id (AUTOINCREMENT: ids only grow and are never reused) and mapped to neutral entries
// the core feeds to `recentLogs`.
//
// How the database is read without writing beside it. The writer keeps it in WAL mode, and:
// - a plain read-only open creates `-wal`/`-shm` files next to the database when they are missing
//   (checked with better-sqlite3 12 / SQLite 3.53), so it would write into CODEX_HOME;
// - `file:...?immutable=1` is not available: better-sqlite3 opens paths without SQLITE_OPEN_URI and
//   is built with SQLITE_USE_URI=0 (only the SQLITE_USE_URI=1 environment variable, read once when
//   the addon loads, turns URIs on for the whole process). It would also be wrong on a live
//   database: immutable reads only the main file, so the rows still in the WAL (the newest ones,
//   until the next checkpoint) are missed, and a checkpoint running meanwhile can be read half-done.
// So the reader works on a private snapshot in its own temp dir: the main file (copied again only
// when it changed, i.e. after a checkpoint) and the WAL (copied when it changed, at most a few MB
// with the default autocheckpoint). The snapshot is opened read-only and SQLite replays the WAL
// copy, dropping an incomplete last transaction. The copy is consistent when, around it, the main
// file did not change (a checkpoint writes it) and the WAL header did not change (a WAL restart
// rewrites it): then every page a checkpoint could have moved is still in the WAL copy. Otherwise
// it is taken again (three tries, then an error for this call; the cursor does not move).
// The trade-off: the cost of copying the WAL on each changed poll, against never missing a row or
// touching Codex's files.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import Database from "better-sqlite3";
import { LOG_LEVELS, type LogLevel } from "../contract.js";
import { SourceError, classifyIoError, fail, ok } from "../result.js";
import type { SourceResult, SourceWarning } from "../result.js";
import { copyRegularFile, openRegular } from "../../base/safe-open.js";
import { clip, shortText } from "./shape.js";

export const LOGS_DB = "logs_2.sqlite";

export interface CodexLogEntry {
  /** The row id (what the cursor follows). */
  id: number;
  /** Epoch ms (`ts` seconds + `ts_nanos`). */
  ts: number;
  /** `ts` as an ISO-8601 UTC time. */
  time: string;
  level: LogLevel;
  /** The tracing target (`codex_app_server::message_processor`). */
  module: string;
  message: string;
  /** The thread (= session id) the row belongs to, when it names one. */
  sessionKey: string | null;
}

/** Plain JSON for the store. */
interface CodexLogCursor {
  v: 1;
  /** The last row id consumed. */
  afterId: number;
  /** Inode of logs_2.sqlite when that row was read: another inode is another database. */
  ino: number;
}

interface CodexLogBatch {
  entries: CodexLogEntry[];
  cursor: CodexLogCursor;
  /** Caught up with the rows written now. */
  done: boolean;
  /** The database was replaced or recreated: reading restarted at its first row. */
  restarted: boolean;
}

interface CodexLogReaderOptions {
  /** Where the private snapshot dir is made (default os.tmpdir()). */
  tmpRoot?: string;
  /** Longest message kept (default 4000 characters). */
  messageMax?: number;
}

const DEFAULT_LOG_LIMIT = 500;
const MAX_LOG_LIMIT = 5000;
const WAL_HEADER_BYTES = 32;
const COPY_TRIES = 3;

interface Snapshot {
  /** Stat key of the source main file the private copy reflects. */
  main: string;
  /** Stat key of the source WAL copied with it, or null when there was none. */
  wal: string | null;
  ino: number;
}

function statKey(st: fs.Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch (err) {
    if ((err as { code?: unknown }).code === "ENOENT") return null;
    throw err;
  }
}

function headerOf(p: string): Buffer | null {
  let fd: number;
  try {
    ({ fd } = openRegular(p));
  } catch (err) {
    if ((err as { code?: unknown }).code === "ENOENT") return null;
    throw err;
  }
  try {
    const buf = Buffer.alloc(WAL_HEADER_BYTES);
    const n = fs.readSync(fd, buf, 0, WAL_HEADER_BYTES, 0);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

function removeIfThere(p: string): void {
  fs.rmSync(p, { force: true });
}

function isCursor(v: unknown): v is CodexLogCursor {
  const c = v as Partial<CodexLogCursor> | null;
  return typeof c === "object" && c !== null && c.v === 1 && Number.isSafeInteger(c.afterId) && (c.afterId as number) >= 0 && Number.isSafeInteger(c.ino) && (c.ino as number) >= 0;
}

const LEVELS: ReadonlySet<string> = new Set(LOG_LEVELS);

/** Codex's tracing levels are TRACE..ERROR; `WARNING` is folded into WARN. Anything else is not a level. */
export function levelOf(v: unknown): LogLevel | null {
  if (typeof v !== "string") return null;
  const up = v.trim().toUpperCase();
  const name = up === "WARNING" ? "WARN" : up;
  return LEVELS.has(name) ? (name as LogLevel) : null;
}

interface RawRow {
  id: unknown;
  ts: unknown;
  ts_nanos: unknown;
  level: unknown;
  target: unknown;
  module_path: unknown;
  body: unknown;
  thread_id: unknown;
}

/** A row as an entry, or a reason to skip it. */
export function entryOf(row: RawRow, messageMax: number): CodexLogEntry | string {
  const id = row.id;
  if (typeof id !== "number" || !Number.isSafeInteger(id)) return "id is not an integer";
  const secs = row.ts;
  if (typeof secs !== "number" || !Number.isSafeInteger(secs) || secs <= 0 || secs >= 1e11) return "ts is not a time in seconds";
  const nanos = typeof row.ts_nanos === "number" && Number.isSafeInteger(row.ts_nanos) && row.ts_nanos >= 0 && row.ts_nanos < 1e9 ? row.ts_nanos : 0;
  const level = levelOf(row.level);
  if (level === null) return "level is not one of TRACE, DEBUG, INFO, WARN, ERROR";
  const ts = secs * 1000 + Math.floor(nanos / 1e6);
  return {
    id,
    ts,
    time: new Date(ts).toISOString(),
    level,
    module: shortText(row.target, 200) ?? shortText(row.module_path, 200) ?? "codex",
    message: typeof row.body === "string" ? clip(row.body, messageMax) : "",
    sessionKey: shortText(row.thread_id, 200),
  };
}

/** Reads `logs_2.sqlite` of one install; keep one per install and `close()` it to remove its snapshot. */
export class CodexLogReader {
  private tmp: string | null = null;
  private db: Database.Database | null = null;
  private snap: Snapshot | null = null;
  /** Stat key of the source main file the private main copy holds (reused while the source is unchanged). */
  private copiedMain: string | null = null;
  private select: Database.Statement | null = null;
  private readonly src: string;
  private readonly messageMax: number;

  constructor(
    installDir: string,
    private readonly opts: CodexLogReaderOptions = {},
  ) {
    this.src = path.join(installDir, LOGS_DB);
    this.messageMax = opts.messageMax ?? 4000;
  }

  private privatePath(): string {
    this.tmp ??= fs.mkdtempSync(path.join(this.opts.tmpRoot ?? os.tmpdir(), "gi-codex-logs-"));
    return path.join(this.tmp, "logs.sqlite");
  }

  private closeDb(): void {
    this.select = null;
    if (this.db) {
      try {
        this.db.close();
      } catch {
        // already unusable
      }
    }
    this.db = null;
    this.snap = null;
  }

  /** Brings the private snapshot up to date; null when there is no logs database. */
  private refresh(): SourceResult<Snapshot | null> {
    const wal = `${this.src}-wal`;
    for (let attempt = 0; attempt < COPY_TRIES; attempt++) {
      let m1: fs.Stats | null;
      let w1: fs.Stats | null;
      let h1: Buffer | null;
      try {
        m1 = statOrNull(this.src);
        if (m1 === null) {
          this.closeDb();
          return ok(null);
        }
        if (!m1.isFile()) return fail(new SourceError("corrupt", `${this.src}: not a regular file`, { where: this.src }));
        w1 = statOrNull(wal);
        h1 = w1 ? headerOf(wal) : null;
      } catch (err) {
        return fail(classifyIoError(err, this.src));
      }
      const mainKey = statKey(m1);
      const walKey = w1 ? statKey(w1) : null;
      if (this.db && this.snap && this.snap.main === mainKey && this.snap.wal === walKey) return ok(this.snap);
      this.closeDb();
      const priv = this.privatePath();
      try {
        if (this.copiedMain !== mainKey) {
          this.copiedMain = null;
          copyRegularFile(this.src, priv);
          this.copiedMain = mainKey;
        }
        removeIfThere(`${priv}-shm`);
        // Through a checked fd: copyFileSync's plain open blocks for good on a FIFO planted here.
        if (w1) copyRegularFile(wal, `${priv}-wal`);
        else removeIfThere(`${priv}-wal`);
        const m2 = statOrNull(this.src);
        const h2 = w1 ? headerOf(`${priv}-wal`) : null;
        const walNow = statOrNull(wal) !== null;
        const stable = m2 !== null && statKey(m2) === mainKey && walNow === (w1 !== null) && (h1 === null ? h2 === null : h2 !== null && h1.equals(h2));
        if (!stable) {
          this.copiedMain = null;
          continue;
        }
      } catch (err) {
        this.copiedMain = null;
        return fail(classifyIoError(err, this.src));
      }
      try {
        this.db = new Database(priv, { readonly: true, fileMustExist: true });
      } catch (err) {
        this.copiedMain = null;
        return fail(classifyIoError(err, this.src));
      }
      this.snap = { main: mainKey, wal: walKey, ino: m1.ino };
      return ok(this.snap);
    }
    return fail(new SourceError("timeout", `${this.src}: kept changing while being copied; try again`, { where: this.src }));
  }

  /** The SELECT for the columns this database has (optional ones read as NULL). */
  private statement(db: Database.Database, warnings: SourceWarning[]): Database.Statement | null {
    if (this.select) return this.select;
    const cols = new Set((db.prepare("SELECT name FROM pragma_table_info('logs')").all() as Array<{ name: string }>).map((r) => r.name));
    if (!cols.has("id") || !cols.has("ts") || !cols.has("level")) {
      warnings.push({ code: "UNKNOWN_FORMAT", message: "no logs table with id, ts and level; no log rows read", where: this.src });
      return null;
    }
    const col = (name: string, as: string = name): string => (cols.has(name) ? `"${name}" AS ${as}` : `NULL AS ${as}`);
    this.select = db.prepare(
      `SELECT id, ts, ${col("ts_nanos")}, level, ${col("target")}, ${col("module_path")}, ${col("feedback_log_body", "body")}, ${col("thread_id")} FROM logs WHERE id > ? ORDER BY id LIMIT ?`,
    );
    return this.select;
  }

  /** The highest id ever given (sqlite_sequence), or the highest present; 0 for an empty table. */
  private static highWater(db: Database.Database): number {
    let seq: unknown = null;
    try {
      seq = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'logs'").get() as { seq?: unknown } | undefined)?.seq;
    } catch {
      // no sqlite_sequence: the table is not AUTOINCREMENT
    }
    const max = (db.prepare("SELECT max(id) AS m FROM logs").get() as { m: unknown }).m;
    const n = (v: unknown): number => (typeof v === "number" && Number.isSafeInteger(v) ? v : 0);
    return Math.max(n(seq), n(max));
  }

  /**
   * Rows after `cursor` (null or anything malformed = from the first row), at most `limit`
   * (default 500, at most 5000). A row that cannot be read is skipped with a BAD_ROW warning and
   * the cursor moves past it.
   */
  read(cursor: unknown, limit: number = DEFAULT_LOG_LIMIT): SourceResult<CodexLogBatch> {
    const max = Number.isFinite(limit) && limit >= 1 ? Math.min(Math.floor(limit), MAX_LOG_LIMIT) : DEFAULT_LOG_LIMIT;
    const given = cursor === null || cursor === undefined ? null : isCursor(cursor) ? cursor : null;
    let restarted = cursor !== null && cursor !== undefined && given === null;
    const warnings: SourceWarning[] = [];
    const snap = this.refresh();
    if (!snap.ok) return fail(snap.error, snap.warnings);
    if (snap.value === null || !this.db) {
      return ok({ entries: [], cursor: given ?? { v: 1, afterId: 0, ino: 0 }, done: true, restarted: false });
    }
    const db = this.db;
    try {
      let afterId = given?.afterId ?? 0;
      // Another inode, or ids below the cursor: another database (deleted and made again), read from its start.
      if (given && (given.ino !== snap.value.ino || CodexLogReader.highWater(db) < afterId)) {
        afterId = 0;
        restarted = true;
      }
      const stmt = this.statement(db, warnings);
      if (!stmt) return ok({ entries: [], cursor: { v: 1, afterId, ino: snap.value.ino }, done: true, restarted }, warnings);
      const rows = stmt.all(afterId, max + 1) as RawRow[];
      const done = rows.length <= max;
      const entries: CodexLogEntry[] = [];
      for (const row of rows.slice(0, max)) {
        const e = entryOf(row, this.messageMax);
        const id = typeof row.id === "number" && Number.isSafeInteger(row.id) ? row.id : null;
        if (typeof e === "string") warnings.push({ code: "BAD_ROW", message: `${e}; row skipped`, where: `logs:${id ?? "?"}` });
        else entries.push(e);
        if (id !== null && id > afterId) afterId = id;
      }
      return ok({ entries, cursor: { v: 1, afterId, ino: snap.value.ino }, done, restarted }, warnings);
    } catch (err) {
      this.closeDb();
      this.copiedMain = null;
      return fail(classifyIoError(err, this.src), warnings);
    }
  }

  /** Closes the snapshot and removes its temp dir. */
  close(): void {
    this.closeDb();
    if (this.tmp) fs.rmSync(this.tmp, { recursive: true, force: true });
    this.tmp = null;
    this.copiedMain = null;
  }
}

export function openCodexLogs(installDir: string, opts: CodexLogReaderOptions = {}): CodexLogReader {
  return new CodexLogReader(installDir, opts);
}
