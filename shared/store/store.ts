// Our own SQLite file (never OpenClaw's): WAL, synchronous=FULL, versioned migrations. A kill -9
// at any moment loses nothing committed: SQLite replays or discards the WAL on the next open.
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
// disk is not reported healthy while every write fails.
import Database from "better-sqlite3";
import { closeSync, existsSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Clock } from "../clock.js";
import { InsightsError } from "../errors.js";
import { packageRoot } from "../package-root.js";
import { createPrivateFile, ensurePrivateDir, securePrivateFile } from "../private-files.js";
import { MIGRATIONS, type Migration } from "./migrations.js";

export interface StoreHealth {
  ok: boolean;
  error?: string;
  /** Epoch ms of the first failed write of the current outage; set while ingestion is stalled. */
  stalledSince?: number;
}

/** Opens a SQLite file (better-sqlite3's constructor unless a test injects a failing loader). */
export type SqliteOpener = (filename: string) => Database.Database;

export interface WriteFailure {
  /** SQLite's code, e.g. SQLITE_FULL. */
  code: string;
  message: string;
  since: number;
}

export interface OpenStoreOptions {
  clock: Clock;
  migrations?: Migration[];
  /** Called when a file SQLite calls corrupt was moved aside so the daemon could start fresh. */
  onRecovered?: (movedTo: string, reason: string) => void;
  /** Called when writes start failing (a failure) and when they work again (null). */
  onWriteHealth?: (failure: WriteFailure | null) => void;
  /** Replaces the SQLite loader (tests simulate a native module that does not load). */
  open?: SqliteOpener;
}

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

  private constructor(
    readonly db: Database.Database,
    readonly path: string,
    readonly schemaVersion: number,
    private readonly clock: Clock,
    private readonly onWriteHealth: ((failure: WriteFailure | null) => void) | undefined,
  ) {}

  static open(path: string, { clock, migrations = MIGRATIONS, onRecovered, onWriteHealth, open = defaultOpener }: OpenStoreOptions): Store {
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
    return new Store(db, path, version, clock, onWriteHealth);
  }

  /**
   * Runs `fn` in one transaction; a throw rolls it back. A storage failure is remembered (the
   * store reports itself stalled) until a later transaction commits a change.
   */
  transaction<T>(fn: () => T): T {
    const before = this.writeFailure ? this.totalChanges() : 0;
    let result: T;
    try {
      result = this.db.transaction(fn)();
    } catch (err) {
      this.noteFailure(err);
      throw err;
    }
    // Only a commit that changed rows proves the disk takes writes again (an empty one writes nothing).
    if (this.writeFailure && this.totalChanges() > before) {
      this.writeFailure = null;
      this.onWriteHealth?.(null);
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

  health(): StoreHealth {
    try {
      this.db.prepare("SELECT 1").get();
    } catch (err) {
      return { ok: false, error: message(err) };
    }
    const f = this.writeFailure;
    if (!f) return { ok: true };
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
    if (first) this.onWriteHealth?.(this.writeFailure);
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
