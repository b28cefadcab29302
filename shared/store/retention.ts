// Keeps the store bounded: rolls raw rows up into hours, then deletes raw rows older than
// retentionRawDays and rollups older than retentionRollupDays. Lifetime totals
// (transcript_totals) and scan cursors are never pruned.
import type { Store } from "./store.js";

interface RetentionPolicy {
  rawDays: number;
  rollupDays: number;
}

/** Raw tables and the column holding their epoch-ms time. */
const RAW_TABLES: ReadonlyArray<{ table: string; ts: string }> = [
  { table: "gateway_samples", ts: "ts" },
  { table: "token_usage", ts: "ts" },
  { table: "log_events", ts: "ts" },
];
const ROLLUP_TABLES: ReadonlyArray<{ table: string; ts: string }> = [
  { table: "gateway_samples_hourly", ts: "hour" },
  { table: "token_usage_hourly", ts: "hour" },
];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// The hours about to be recomputed hold every raw row still, so their usage rollups are rebuilt
// whole: a row upserted under a key that no longer comes out (the session's project became known
// since the last run, or all its raw rows went) would otherwise stay beside the new one and count twice.
const CLEAR_USAGE_ROLLUPS = `DELETE FROM token_usage_hourly WHERE hour >= :from AND hour < :to`;

// Each recomputes the rollup of every complete hour in [from, to) from the raw rows (idempotent).
const ROLLUPS = [
  `INSERT INTO gateway_samples_hourly (hour, samples, up_samples, cpu_avg, rss_max_mb)
   SELECT (ts / ${HOUR}) * ${HOUR} AS h, count(*), sum(up), avg(cpu_percent), max(rss_mb)
   FROM gateway_samples WHERE ts >= :from AND ts < :to GROUP BY h
   ON CONFLICT (hour) DO UPDATE SET samples = excluded.samples, up_samples = excluded.up_samples,
     cpu_avg = excluded.cpu_avg, rss_max_mb = excluded.rss_max_mb`,
  // The project comes from what the transcripts said about the session (Claude Code, Codex).
  `INSERT INTO token_usage_hourly (hour, source_id, model, project, turns, messages, input, output, cache_read, cache_write, cost_usd, reasoning, unpriced)
   SELECT (u.ts / ${HOUR}) * ${HOUR} AS h, u.source_id, u.model, coalesce(m.project, '') AS p, sum(u.role = 'user'), sum(u.role = 'assistant'),
     sum(u.input), sum(u.output), sum(u.cache_read), sum(u.cache_write), sum(u.cost_usd), sum(u.reasoning), sum(u.unpriced)
   FROM token_usage u LEFT JOIN session_meta m ON m.source_id = u.source_id AND m.session_key = u.session_key
   WHERE u.ts >= :from AND u.ts < :to GROUP BY h, u.source_id, u.model, p
   ON CONFLICT (hour, source_id, model, project) DO UPDATE SET turns = excluded.turns, messages = excluded.messages, input = excluded.input,
     output = excluded.output, cache_read = excluded.cache_read, cache_write = excluded.cache_write, cost_usd = excluded.cost_usd,
     reasoning = excluded.reasoning, unpriced = excluded.unpriced`,
];

// Hours before the window above that were never rolled up: history a first scan read (a
// transcript a month old lands in token_usage today), or rows written after the last run before a
// daemon stopped for longer than rawDays. They are rolled up from what is there before it is
// deleted, else they were lost. An hour that already has a rollup (of that source, for usage)
// keeps it: its raw rows may have been pruned in part since, and would roll up short.
const LATE_ROLLUPS = [
  `INSERT INTO gateway_samples_hourly (hour, samples, up_samples, cpu_avg, rss_max_mb)
   SELECT (ts / ${HOUR}) * ${HOUR} AS h, count(*), sum(up), avg(cpu_percent), max(rss_mb)
   FROM gateway_samples WHERE ts < :from AND NOT EXISTS (SELECT 1 FROM gateway_samples_hourly x WHERE x.hour = (ts / ${HOUR}) * ${HOUR}) GROUP BY h
   ON CONFLICT (hour) DO NOTHING`,
  `INSERT INTO token_usage_hourly (hour, source_id, model, project, turns, messages, input, output, cache_read, cache_write, cost_usd, reasoning, unpriced)
   SELECT (u.ts / ${HOUR}) * ${HOUR} AS h, u.source_id, u.model, coalesce(m.project, '') AS p, sum(u.role = 'user'), sum(u.role = 'assistant'),
     sum(u.input), sum(u.output), sum(u.cache_read), sum(u.cache_write), sum(u.cost_usd), sum(u.reasoning), sum(u.unpriced)
   FROM token_usage u LEFT JOIN session_meta m ON m.source_id = u.source_id AND m.session_key = u.session_key
   WHERE u.ts < :from AND NOT EXISTS (SELECT 1 FROM token_usage_hourly x WHERE x.hour = (u.ts / ${HOUR}) * ${HOUR} AND x.source_id = u.source_id)
   GROUP BY h, u.source_id, u.model, p
   ON CONFLICT (hour, source_id, model, project) DO NOTHING`,
];

interface RetentionResult {
  rolledUpHours: number;
  deleted: Record<string, number>;
}

export function runRetention(store: Store, policy: RetentionPolicy, now: number): RetentionResult {
  return store.transaction(() => {
    // Before any row moves: answers kept about the rows (the read model's) are dropped.
    store.noteRewritten();
    // Only hours whose raw rows are all still kept: an hour half-pruned would roll up short.
    const rawCutoff = now - policy.rawDays * DAY;
    const from = Math.ceil(rawCutoff / HOUR) * HOUR;
    const to = Math.floor(now / HOUR) * HOUR;
    let rolledUpHours = 0;
    store.db.prepare(CLEAR_USAGE_ROLLUPS).run({ from, to });
    for (const sql of ROLLUPS) rolledUpHours += store.db.prepare(sql).run({ from, to }).changes;
    for (const sql of LATE_ROLLUPS) rolledUpHours += store.db.prepare(sql).run({ from }).changes;
    const deleted: Record<string, number> = {};
    for (const { table, ts } of RAW_TABLES) {
      deleted[table] = store.db.prepare(`DELETE FROM ${table} WHERE ${ts} < ?`).run(rawCutoff).changes;
    }
    // Rate limits: the history goes with the raw rows, the latest figures of each source's limits
    // stay (a per-model weekly window is a limit of its own, read as such).
    deleted.rate_limit_samples = store.db
      .prepare(
        `DELETE FROM rate_limit_samples WHERE ts < ?
           AND rowid NOT IN (SELECT (SELECT rowid FROM rate_limit_samples x WHERE x.source_id = s.source_id AND x.limit_id IS s.limit_id ORDER BY ts DESC, rowid DESC LIMIT 1)
                             FROM (SELECT DISTINCT source_id, limit_id FROM rate_limit_samples) s)`,
      )
      .run(rawCutoff).changes;
    for (const { table, ts } of ROLLUP_TABLES) {
      deleted[table] = store.db.prepare(`DELETE FROM ${table} WHERE ${ts} < ?`).run(now - policy.rollupDays * DAY).changes;
    }
    return { rolledUpHours, deleted };
  });
}
