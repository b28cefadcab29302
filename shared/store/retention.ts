// Keeps the store bounded: rolls raw samples up into hours, then deletes raw rows older than
// retentionRawDays and rollups older than retentionRollupDays.
import type { Store } from "./store.js";

export interface RetentionPolicy {
  rawDays: number;
  rollupDays: number;
}

/** Raw tables and the column holding their epoch-ms time. Later migrations add theirs here. */
export const RAW_TABLES: ReadonlyArray<{ table: string; ts: string }> = [{ table: "gateway_samples", ts: "ts" }];
export const ROLLUP_TABLES: ReadonlyArray<{ table: string; ts: string }> = [{ table: "gateway_samples_hourly", ts: "hour" }];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface RetentionResult {
  rolledUpHours: number;
  deleted: Record<string, number>;
}

export function runRetention(store: Store, policy: RetentionPolicy, now: number): RetentionResult {
  return store.transaction(() => {
    const rolledUpHours = rollUpGatewaySamples(store, now);
    const deleted: Record<string, number> = {};
    for (const { table, ts } of RAW_TABLES) {
      deleted[table] = store.db.prepare(`DELETE FROM ${table} WHERE ${ts} < ?`).run(now - policy.rawDays * DAY).changes;
    }
    for (const { table, ts } of ROLLUP_TABLES) {
      deleted[table] = store.db.prepare(`DELETE FROM ${table} WHERE ${ts} < ?`).run(now - policy.rollupDays * DAY).changes;
    }
    return { rolledUpHours, deleted };
  });
}

/** Recomputes every complete hour still covered by raw samples (idempotent). */
function rollUpGatewaySamples(store: Store, now: number): number {
  const currentHour = Math.floor(now / HOUR) * HOUR;
  return store.db
    .prepare(
      `INSERT INTO gateway_samples_hourly (hour, samples, up_samples, cpu_avg, rss_max_mb)
       SELECT (ts / ${HOUR}) * ${HOUR} AS h, count(*), sum(up), avg(cpu_percent), max(rss_mb)
       FROM gateway_samples WHERE ts < ? GROUP BY h
       ON CONFLICT (hour) DO UPDATE SET samples = excluded.samples, up_samples = excluded.up_samples,
         cpu_avg = excluded.cpu_avg, rss_max_mb = excluded.rss_max_mb`,
    )
    .run(currentHour).changes;
}
