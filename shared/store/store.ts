// Our own SQLite file (never OpenClaw's): WAL, synchronous=FULL, versioned migrations. A kill -9
// at any moment loses nothing committed: SQLite replays or discards the WAL on the next open.
import Database from "better-sqlite3";
import { existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Clock } from "../clock.js";
import { InsightsError } from "../errors.js";
import { MIGRATIONS, type Migration } from "./migrations.js";

export interface StoreHealth {
  ok: boolean;
  error?: string;
}

export interface OpenStoreOptions {
  clock: Clock;
  migrations?: Migration[];
  /** Called when an unreadable file was moved aside so the daemon could start fresh. */
  onRecovered?: (movedTo: string, reason: string) => void;
}

export class Store {
  private lastError: string | undefined;

  private constructor(
    readonly db: Database.Database,
    readonly path: string,
    readonly schemaVersion: number,
  ) {}

  static open(path: string, { clock, migrations = MIGRATIONS, onRecovered }: OpenStoreOptions): Store {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    let db: Database.Database;
    try {
      db = openChecked(path);
    } catch (err) {
      if (err instanceof InsightsError) throw err;
      // Not a database, or damaged beyond SQLite's own recovery: keep the file for the operator,
      // start a fresh one, and say so loudly rather than refusing to run.
      const movedTo = `${path}.corrupt-${clock.now()}`;
      renameSync(path, movedTo);
      for (const suffix of ["-wal", "-shm"]) if (existsSync(path + suffix)) renameSync(path + suffix, movedTo + suffix);
      onRecovered?.(movedTo, err instanceof Error ? err.message : String(err));
      db = openChecked(path);
    }
    const version = migrate(db, migrations, clock);
    return new Store(db, path, version);
  }

  /** Runs `fn` in one transaction; a throw rolls it back. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  health(): StoreHealth {
    try {
      this.db.prepare("SELECT 1").get();
      this.lastError = undefined;
      return { ok: true };
    } catch (err) {
      this.lastError = err instanceof Error ? err.message : String(err);
      return { ok: false, error: this.lastError };
    }
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
    this.db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, value);
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
}

function openChecked(path: string): Database.Database {
  const db = new Database(path);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.pragma("busy_timeout = 5000");
    // 4 MB of page cache (better-sqlite3 builds SQLite with 16 MB): the store is small and hot.
    db.pragma("cache_size = -4000");
    db.pragma("foreign_keys = ON");
    const check = db.pragma("quick_check", { simple: true });
    if (check !== "ok") throw new Error(`quick_check: ${String(check)}`);
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
