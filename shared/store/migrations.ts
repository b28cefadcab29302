// Versioned schema changes for our own SQLite file. PRAGMA user_version holds the version; each
// migration runs in its own transaction, so a crash mid-migration leaves the previous version.
import type { Database } from "better-sqlite3";

export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: "base: meta, gateway samples and hourly rollups",
    up(db) {
      db.exec(`
        CREATE TABLE meta (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        ) STRICT;
        CREATE TABLE schema_migrations (
          version INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          applied_at INTEGER NOT NULL
        ) STRICT;
        -- One probe of the gateway every sampleIntervalSeconds: liveness and resources.
        CREATE TABLE gateway_samples (
          ts INTEGER NOT NULL,
          up INTEGER NOT NULL CHECK (up IN (0, 1)),
          pid INTEGER,
          cpu_percent REAL,
          rss_mb REAL,
          latency_ms REAL
        ) STRICT;
        CREATE INDEX gateway_samples_ts ON gateway_samples (ts);
        -- Hourly rollups outlive the raw samples (retentionRollupDays vs retentionRawDays).
        CREATE TABLE gateway_samples_hourly (
          hour INTEGER PRIMARY KEY,
          samples INTEGER NOT NULL,
          up_samples INTEGER NOT NULL,
          cpu_avg REAL,
          rss_max_mb REAL
        ) STRICT;
      `);
    },
  },
];

export const LATEST_VERSION = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);
