// Our own SQLite file (never OpenClaw's): WAL, synchronous=FULL, versioned migrations. A kill -9
// at any moment loses nothing committed: SQLite replays or discards the WAL on the next open.
// Writes that can be read again from the providers' files (a scan's sums with its cursor, in one
// transaction) commit with synchronous=NORMAL instead (TransactionOptions.rederivable): no fsync
// per commit. A power loss can then undo the last such commits, never corrupt the file, and the
// cursor goes back with them, so those events are read again, not lost or counted twice.
//
// Opening tells three failures apart before touching anything: SQLite itself not loading (a
// native module built for another Node: `npm rebuild better-sqlite3`, the file is left alone),
// a file SQLite says is not a database or is corrupt (moved aside, a fresh store started), and
// anything else (permissions, a full disk, a lock: a clear STORE_ERROR, the file left alone).
// The file and its -wal/-shm are private (0600; SQLite gives -wal/-shm the main file's mode) and
// never reached through a symlink.
//
// Writes go through `transaction`, which remembers a storage failure (disk full, I/O error,
// read-only) until a later write commits: `health()` then reports ingestion as stalled, so a full
// disk is not reported healthy while every write fails. A storage failure reaches the caller as
// STORE_ERROR saying what is wrong (the disk is full), not as a raw SQLite error.
//
// The file can be deleted or replaced under the running daemon (a cleanup script, a restore):
// SQLite keeps writing to the open, unlinked inode and everything would be gone at the next start.
// `checkFile` compares the path's dev/ino with the file opened (store-file.ts); on a change the
// store writes its open copy back to the path (SQLite's online backup, in steps, so the event loop
// keeps turning), keeps any file found in its place aside, reopens, and health says what happened.
import Database from "better-sqlite3";
import { closeSync, existsSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Clock } from "../base/clock.js";
import { InsightsError } from "../base/errors.js";
import { packageRoot } from "../base/package-root.js";
import { createPrivateFile, ensurePrivateDir, securePrivateFile } from "../base/private-files.js";
import { MIGRATIONS, type Migration } from "./migrations.js";
import { fileIdOf, sameFile, type FileId, type StoreIncident } from "./store-file.js";

export type { StoreIncident } from "./store-file.js";

export interface StoreHealth {
  ok: boolean;
  error?: string;
  /** Healthy, but something happened the operator must hear of (the file was recreated). */
  warning?: string;
  /** Epoch ms of the first failed write of the current outage; set while ingestion is stalled. */
  stalledSince?: number;
}

/** Opens a SQLite file (better-sqlite3's constructor unless a test injects a failing loader). */
type SqliteOpener = (filename: string) => Database.Database;

interface WriteFailure {
  /** SQLite's code, e.g. SQLITE_FULL. */
  code: string;
  message: string;
  since: number;
}

interface OpenStoreOptions {
  clock: Clock;
  migrations?: Migration[];
  /** Called when a file SQLite calls corrupt was moved aside so the daemon could start fresh. */
  onRecovered?: (movedTo: string, reason: string) => void;
  /** Called when writes start failing (a failure) and when they work again (null). */
  onWriteHealth?: (failure: WriteFailure | null) => void;
  /** Replaces the SQLite loader (tests simulate a native module that does not load). */
  open?: SqliteOpener;
  /** Called when the file is found deleted or replaced, and again with the outcome of the recovery. */
  onFileIncident?: (incident: StoreIncident) => void;
}

interface TransactionOptions {
  /**
   * Everything written can be derived again from files outside the store, and what says how far
   * they were read (a scan cursor) is written in the same transaction. Commits with
   * synchronous=NORMAL (WAL: not fsynced until the next checkpoint or a FULL commit): a first
   * scan made one fsync per group, ~30 % of its wall time. A power loss may undo such a commit
   * whole, never a part of it; a kill -9 loses nothing (the WAL is written before commit returns).
   */
  rederivable?: boolean;
}

/** How long health keeps saying the file was recreated (a WARN) after it was. */
export const INCIDENT_SHOWN_MS = 24 * 60 * 60_000;

const defaultOpener: SqliteOpener = (filename) => new Database(filename);

/** SQLite result codes that mean the storage failed, not the statement (a constraint, a typo). */
const STORAGE_CODES = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|BUSY|LOCKED|NOMEM|PERM|PROTOCOL)/;

function sqliteCode(err: unknown): string | null {
  return err instanceof Database.SqliteError && typeof err.code === "string" ? err.code : null;
}

/** SQLite itself says the file is not a database, or is damaged: the only case for moving it aside. */
function isCorruptFile(err: unknown): boolean {
  if (err instanceof QuickCheckFailed) return true;
  const code = sqliteCode(err);
  return code !== null && (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT"));
}

class QuickCheckFailed extends Error {}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export class Store {
  private writeFailure: WriteFailure | null = null;
  private changesStmt: Database.Statement | null = null;
  private rewriteCount = 0;
  private fileId: FileId | null;
  private incidentNow: StoreIncident | null = null;
  private recovering: Promise<void> | null = null;

  private constructor(
    private conn: Database.Database,
    readonly path: string,
    readonly schemaVersion: number,
    private readonly clock: Clock,
    private readonly opts: Pick<OpenStoreOptions, "onWriteHealth" | "onFileIncident"> & { migrations: Migration[]; open: SqliteOpener },
  ) {
    this.fileId = fileIdOf(path);
  }

  /**
   * The connection. It changes when the file was recreated (checkFile): hold statements only
   * together with the connection they were prepared on.
   */
  get db(): Database.Database {
    return this.conn;
  }

  static open(path: string, { clock, migrations = MIGRATIONS, onRecovered, onWriteHealth, onFileIncident, open = defaultOpener }: OpenStoreOptions): Store {
    ensurePrivateDir(dirname(path), "the store's directory");
    checkDriver(open, path);
    prepareFiles(path);
    let db: Database.Database;
    try {
      db = openChecked(open, path);
    } catch (err) {
      if (err instanceof InsightsError) throw err;
      if (!isCorruptFile(err)) throw cannotOpen(path, err);
      // SQLite says it is not a database, or damaged beyond its own recovery: keep the file for
      // the operator, start a fresh one, and say so loudly rather than refusing to run.
      const movedTo = `${path}.corrupt-${clock.now()}`;
      renameSync(path, movedTo);
      for (const suffix of ["-wal", "-shm"]) if (existsSync(path + suffix)) renameSync(path + suffix, movedTo + suffix);
      onRecovered?.(movedTo, message(err));
      prepareFiles(path);
      try {
        db = openChecked(open, path);
      } catch (again) {
        throw cannotOpen(path, again);
      }
    }
    const version = migrate(db, migrations, clock);
    return new Store(db, path, version, clock, { onWriteHealth, onFileIncident, migrations, open });
  }

  /**
   * Runs `fn` in one transaction; a throw rolls it back. A storage failure is remembered (the
   * store reports itself stalled) until a later transaction commits a change.
   */
  transaction<T>(fn: () => T, opts: TransactionOptions = {}): T {
    const before = this.writeFailure ? this.totalChanges() : 0;
    // SQLite refuses to change the safety level inside a transaction: a nested call keeps the outer's.
    const relaxed = opts.rederivable === true && !this.db.inTransaction;
    let result: T;
    try {
      if (relaxed) setSynchronous(this.db, "NORMAL");
      result = this.db.transaction(fn)();
    } catch (err) {
      this.noteFailure(err);
      throw storageError(this.path, err);
    } finally {
      // Every other write (API changes, alerts) is fsynced at its commit, as before.
      if (relaxed && this.db.open) setSynchronous(this.db, "FULL");
    }
    // Only a commit that changed rows proves the disk takes writes again (an empty one writes nothing).
    if (this.writeFailure && this.totalChanges() > before) {
      this.writeFailure = null;
      this.opts.onWriteHealth?.(null);
    }
    return result;
  }

  /**
   * How many times rows were rewritten underneath every source (retention rolled raw rows up
   * and pruned old ones): answers kept about any source hold only while this count is unchanged.
   */
  get rewrites(): number {
    return this.rewriteCount;
  }

  /** Call inside the transaction that rewrites rows no source owns the change of (retention). */
  noteRewritten(): void {
    this.rewriteCount++;
  }

  /** The current write outage, if writes are failing. */
  get failingWrites(): WriteFailure | null {
    return this.writeFailure;
  }

  /** The last deletion or replacement of the file and what became of it; null when none. */
  get incident(): StoreIncident | null {
    return this.incidentNow;
  }

  /** Settles once a recovery under way is done (tests, and a clean stop). */
  async settled(): Promise<void> {
    await this.recovering;
  }

  /**
   * Is the file at the path still the one open? One stat; on a change, the recovery starts
   * (at most one at a time). Call it on a timer; health() calls it too.
   */
  checkFile(): void {
    if (this.recovering || this.fileId === null || !this.conn.open) return;
    const now = fileIdOf(this.path);
    if (now !== null && sameFile(now, this.fileId)) return;
    const kind = now === null ? "deleted" : "replaced";
    const at = this.clock.now();
    this.incidentNow = {
      kind,
      at,
      state: "recovering",
      message: `the store file ${this.path} was ${kind === "deleted" ? "deleted" : "replaced by another file"} while the daemon ran (noticed ${iso(at)}); writing the daemon's open copy back to it`,
      movedAside: null,
      lost: null,
    };
    this.opts.onFileIncident?.(this.incidentNow);
    this.recovering = this.recover(kind, at).finally(() => {
      this.recovering = null;
    });
  }

  private async recover(kind: StoreIncident["kind"], at: number): Promise<void> {
    const tmp = `${this.path}.recover-${at}`;
    let copyError: string | null = null;
    try {
      // Writes made meanwhile through this connection reach the copy too (SQLite updates a backup
      // from its own source connection); nothing awaits between its end and the switch below.
      await this.conn.backup(tmp);
    } catch (err) {
      copyError = message(err);
      for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(tmp + suffix, { force: true });
    }
    const old = this.conn;
    try {
      old.close();
    } catch {
      // the new connection below is what matters
    }
    // Whatever is at the path now (a replacement, a -wal/-shm left by the old connection) must not
    // mix with the new file: a -wal beside it would be replayed into it.
    const aside = `${this.path}.replaced-${at}`;
    let movedAside: string | null = null;
    for (const suffix of ["", "-wal", "-shm"]) {
      if (!existsSync(this.path + suffix)) continue;
      renameSync(this.path + suffix, aside + suffix);
      if (suffix === "") movedAside = aside;
    }
    let lost: string | null = null;
    try {
      if (copyError === null) {
        securePrivateFile(tmp, "the store file");
        renameSync(tmp, this.path);
      } else {
        lost = `the daemon's copy could not be written back (${copyError}); a new empty store was started: channels, rules and mutes made through the API, alert history and stored usage history are gone (config.json's channels and rules still apply); the collectors read the providers' files again, so totals come back as far as those files reach`;
      }
      prepareFiles(this.path);
      this.conn = openChecked(this.opts.open, this.path);
      migrate(this.conn, this.opts.migrations, this.clock);
      this.fileId = fileIdOf(this.path);
    } catch (err) {
      // No file can be had: keep answering from memory rather than failing every request.
      this.conn = this.opts.open(":memory:");
      migrate(this.conn, this.opts.migrations, this.clock);
      this.fileId = null;
      lost = `the store could not be recreated (${message(err)}); the daemon runs on an in-memory store until it is restarted: nothing it collects or is told through the API is kept`;
    }
    this.changesStmt = null;
    // Every answer kept about the old connection's rows is rebuilt.
    this.rewriteCount++;
    const what = kind === "deleted" ? "deleted" : "replaced by another file";
    this.incidentNow = {
      kind,
      at,
      state: lost === null ? "recovered" : this.fileId === null ? "failed" : "recreated-empty",
      message:
        lost === null
          ? `the store file ${this.path} was ${what} (noticed ${iso(at)}) and was written back from the daemon's open copy: nothing was lost${movedAside ? `; the file found in its place is kept as ${movedAside}` : ""}`
          : `the store file ${this.path} was ${what} (noticed ${iso(at)}): ${lost}${movedAside ? `; the file found in its place is kept as ${movedAside}` : ""}`,
      movedAside,
      lost,
    };
    this.opts.onFileIncident?.(this.incidentNow);
  }

  health(): StoreHealth {
    this.checkFile();
    const inc = this.incidentNow;
    if (inc && (inc.state === "recovering" || inc.state === "failed")) return { ok: false, error: inc.message };
    try {
      this.db.prepare("SELECT 1").get();
    } catch (err) {
      return { ok: false, error: message(err) };
    }
    const f = this.writeFailure;
    const warning = inc && this.clock.now() - inc.at < INCIDENT_SHOWN_MS ? { warning: inc.message } : {};
    if (!f) return { ok: true, ...warning };
    return {
      ok: false,
      error: `ingestion stalled: writes to ${this.path} fail since ${new Date(f.since).toISOString()} (${f.code}: ${f.message}); collection resumes where it stopped once writes work again`,
      stalledSince: f.since,
    };
  }

  sizeBytes(): number {
    let total = 0;
    for (const suffix of ["", "-wal"]) {
      try {
        total += statSync(this.path + suffix).size;
      } catch {
        // no WAL right after a checkpoint
      }
    }
    return total;
  }

  getMeta(key: string): string | undefined {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.transaction(() => this.db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, value));
  }

  close(): void {
    if (!this.db.open) return;
    // Fold the WAL back so the file on disk is complete on its own after a clean stop.
    try {
      this.db.pragma("wal_checkpoint(TRUNCATE)");
    } catch {
      // still closes below
    }
    this.db.close();
  }

  private totalChanges(): number {
    this.changesStmt ??= this.db.prepare("SELECT total_changes()").pluck();
    return this.changesStmt.get() as number;
  }

  private noteFailure(err: unknown): void {
    const code = sqliteCode(err);
    if (code === null || !STORAGE_CODES.test(code)) return;
    const first = this.writeFailure === null;
    this.writeFailure = { code, message: message(err), since: this.writeFailure?.since ?? this.clock.now() };
    if (first) this.opts.onWriteHealth?.(this.writeFailure);
  }
}

/**
 * Loads SQLite on a throw-away in-memory database, so a native module that does not load (built
 * for another Node) is told apart from a bad file before the file is touched.
 */
function checkDriver(open: SqliteOpener, path: string): void {
  let probe: Database.Database;
  try {
    probe = open(":memory:");
  } catch (err) {
    let root = "the gateway-insights install";
    try {
      root = packageRoot();
    } catch {
      // keep the generic wording
    }
    throw new InsightsError(
      "STORE_ERROR",
      `SQLite (the better-sqlite3 native module) does not load under Node ${process.version}: ${message(err)}. The store ${path} was not touched. Run \`npm rebuild better-sqlite3\` in ${root} (or reinstall gateway-insights with this Node), then start again.`,
      { path, node: process.version },
      { cause: err },
    );
  }
  probe.close();
}

/** The store's files: never links, never another user's, 0600; a new store starts as an empty 0600 file so -wal/-shm are 0600 too. */
function prepareFiles(path: string): void {
  if (!securePrivateFile(path, "the store file")) {
    try {
      closeSync(createPrivateFile(path));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      securePrivateFile(path, "the store file");
    }
  }
  for (const suffix of ["-wal", "-shm"]) securePrivateFile(path + suffix, "the store file");
}

/**
 * Sets the connection's safety level. Prepared anew each time: SQLite applies this pragma when it
 * compiles the statement, so a statement kept and run again changes nothing.
 */
function setSynchronous(db: Database.Database, level: "NORMAL" | "FULL"): void {
  db.pragma(`synchronous = ${level}`);
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** A failed write as the caller should see it: a storage failure as STORE_ERROR saying what is wrong. */
function storageError(path: string, err: unknown): unknown {
  const code = sqliteCode(err);
  if (code === null || !STORAGE_CODES.test(code)) return err;
  const what = /FULL/.test(code)
    ? "the disk is full: free space on it"
    : /READONLY|PERM|CANTOPEN/.test(code)
      ? "the store cannot be written: check its file and directory"
      : /BUSY|LOCKED/.test(code)
        ? "the store is locked by another process"
        : "the store's disk failed to read or write";
  return new InsightsError("STORE_ERROR", `nothing was saved: ${what} (${code})`, { path, code }, { cause: err });
}

function cannotOpen(path: string, err: unknown): InsightsError {
  const code = sqliteCode(err) ?? (err as NodeJS.ErrnoException).code ?? "";
  const hint = /FULL|ENOSPC/.test(code)
    ? "the disk is full: free space on it"
    : /READONLY|PERM|CANTOPEN|EACCES|EPERM|EROFS/.test(code)
      ? "check that this user can read and write it and its directory"
      : /BUSY|LOCKED/.test(code)
        ? "another process holds it locked: stop it"
        : "the file was left as it is";
  return new InsightsError("STORE_ERROR", `cannot open the store ${path}: ${message(err)} (${hint})`, { path, code }, { cause: err });
}

function openChecked(open: SqliteOpener, path: string): Database.Database {
  const db = open(path);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.pragma("busy_timeout = 5000");
    // 1 MB of page cache (better-sqlite3 builds SQLite with 16 MB). SQLite mallocs its cache page
    // by page among the daemon's other allocations; pages it frees (shrink_memory, a reader at
    // rest) end up as holes glibc keeps and cannot trim, so what matters at rest is how large the
    // caches ever grew. With 4 MB here and 2 MB per agent reader (agent-db.ts), a daemon on 10,000
    // sessions held ~24 MB of such free memory at rest (malloc_trim(0) via gdb gave it back);
    // with 1 MB and 512 KB, ~11 MB, and 134 MB at rest after one card against 151 MB.
    db.pragma("cache_size = -1000");
    db.pragma("foreign_keys = ON");
    const check = db.pragma("quick_check", { simple: true });
    if (check !== "ok") throw new QuickCheckFailed(`quick_check: ${String(check)}`);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Brings the schema to the latest version; refuses a file written by a newer gateway-insights. */
export function migrate(db: Database.Database, migrations: Migration[], clock: Clock): number {
  const current = db.pragma("user_version", { simple: true }) as number;
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  const latest = sorted.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new InsightsError(
      "STORE_TOO_NEW",
      `the store ${db.name} has schema version ${current}, newer than this gateway-insights knows (${latest}); upgrade gateway-insights or move the file away`,
      { current, latest },
    );
  }
  for (const m of sorted) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, clock.now());
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return Math.max(current, latest);
}
