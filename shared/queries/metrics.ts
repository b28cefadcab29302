// Aggregated metrics of one agent over a time range (spec: metrics; design §5 for the ranges and
// buckets). Tokens, cost and turns come from the per-message token_usage rows, errors and
// warnings from the gateway log events, uptime from the stored gateway probes.
import { hasCapability } from "../providers/registry.js";
import { finiteTotal, finiteTotals } from "../base/usage-guard.js";
import type { Store } from "../store/store.js";
import type { EventScope } from "./events.js";
import { bucketLabel, DAY, HOUR, MINUTE, offsetMs } from "./time.js";
import { usd } from "./money.js";

export type MetricsRange = "THIRTY_MIN" | "ONE_HOUR" | "SIX_HOUR" | "TWELVE_HOUR" | "TWENTY_FOUR_HOUR" | "SEVEN_DAY" | "THIRTY_DAY";

/**
 * Bucket count and width per range (design §5). The week and the month reach past the raw rows'
 * retention: their usage comes from the hourly rollups there, so their buckets are whole hours.
 */
export const RANGES: Record<MetricsRange, { buckets: number; stepMs: number }> = {
  THIRTY_MIN: { buckets: 6, stepMs: 5 * MINUTE },
  ONE_HOUR: { buckets: 12, stepMs: 5 * MINUTE },
  SIX_HOUR: { buckets: 24, stepMs: 15 * MINUTE },
  TWELVE_HOUR: { buckets: 24, stepMs: 30 * MINUTE },
  TWENTY_FOUR_HOUR: { buckets: 24, stepMs: HOUR },
  SEVEN_DAY: { buckets: 28, stepMs: 6 * HOUR },
  THIRTY_DAY: { buckets: 30, stepMs: DAY },
};

/**
 * Buckets this wide sit on the caller's local boundaries (midnight, 06:00, …), not UTC's: a day
 * bar is a day where the user lives. The offset is the zone's at the window's end, so across a
 * daylight-saving change the older bars are off by that hour (their sums stay exact).
 */
const LOCAL_GRID_MIN_STEP = 6 * HOUR;

export interface MetricsBucket {
  /** Epoch seconds. */
  start: number;
  end: number;
  label: string;
  tokens: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  turns: number;
  errors: number;
  warnings: number;
  /** Share of probes in the bucket that found the gateway up; null without probes. */
  uptimePercent: number | null;
}

export interface ModelTokens {
  model: string;
  tokens: number;
  costUsd: number;
}

export interface Metrics {
  range: MetricsRange;
  from: string;
  to: string;
  /** All tokens of the agent ever, in thousands. */
  totalTokensK: number;
  /**
   * The source's newest recorded activity, at any time (null: none yet): tells an empty range
   * apart from a source with no history ("no activity in the last 24 h; last activity 5 days ago").
   */
  lastActivityAt: string | null;
  /** Tokens within the range, in thousands. */
  rangeTokensK: number;
  totalErrors: number;
  totalWarnings: number;
  totalTurns: number;
  costUsd: number;
  /** Responses in the range with no known price: they add nothing to costUsd, which is then a lower bound. */
  unpricedResponses: number;
  uptimePercent: number | null;
  tokensByModel: ModelTokens[];
  buckets: MetricsBucket[];
}

interface MetricsOptions {
  range?: MetricsRange | null;
  /** End of the window: an ISO date (the window ends at that day's end, UTC) or date-time; default now. */
  date?: string | null;
  now: number;
  timeZone: string;
  /** BCP 47 locale of the bucket labels (default en). */
  locale?: string;
  /** retentionRawDays: before it, hourly rollups (default: raw rows only). */
  rawDays?: number;
}

/** Resolves `date` to the window's end, or throws a RangeError naming the bad value. */
export function windowEnd(date: string | null | undefined, now: number): number {
  if (!date) return now;
  const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(date);
  const ms = Date.parse(dayOnly ? `${date}T00:00:00Z` : date);
  if (Number.isNaN(ms)) throw new RangeError(`date ${JSON.stringify(date)} is not an ISO date or date-time`);
  return Math.min(now, dayOnly ? ms + 24 * HOUR : ms);
}

/**
 * The bucket grid of a range ending at `end`. Buckets sit on step boundaries so consecutive polls
 * line up. "Now" always falls inside the last bucket (the current, partial one); a given date's
 * end (`exclusiveEnd`) is not part of the window.
 */
export function bucketGrid(range: MetricsRange, end: number, exclusiveEnd = false, timeZone = "UTC"): { count: number; stepMs: number; start: number; lastEnd: number } {
  const { buckets: count, stepMs } = RANGES[range];
  const off = stepMs >= LOCAL_GRID_MIN_STEP ? offsetMs(end, timeZone) : 0;
  const local = end + off;
  const lastEnd = (exclusiveEnd ? Math.ceil(local / stepMs) * stepMs : Math.floor(local / stepMs) * stepMs + stepMs) - off;
  return { count, stepMs, start: lastEnd - count * stepMs, lastEnd };
}

const k = (n: number): number => Math.round(n / 10) / 100;

/** The bucket grid a metrics question covers: what the store is asked, whatever the clock. */
export interface MetricsWindow {
  range: MetricsRange;
  count: number;
  stepMs: number;
  /** Epoch ms, inclusive. */
  start: number;
  /** Epoch ms, exclusive. */
  lastEnd: number;
}

export function metricsWindow(range: MetricsRange | null | undefined, date: string | null | undefined, now: number, timeZone = "UTC"): MetricsWindow {
  const r = range ?? "TWENTY_FOUR_HOUR";
  return { range: r, ...bucketGrid(r, windowEnd(date, now), Boolean(date), timeZone) };
}

/**
 * Where the raw rows are known whole (retentionRawDays back, on an hour): before it, an hour's
 * usage is its rollup where retention made one, else its raw rows (history a first scan just read,
 * not rolled up yet). As usage-cost.ts and usage-report.ts count.
 */
export const rawFromOf = (now: number, rawDays: number): number => Math.ceil((now - rawDays * DAY) / HOUR) * HOUR;

/** A stable name of the window, for caches. */
export const windowKey = (w: MetricsWindow): string => `${w.range}|${w.start}|${w.lastEnd}`;

/** A source's token use over a window, per bucket and per model (before labels and rounding). */
interface WindowUsage {
  buckets: Array<{ input: number; output: number; cacheRead: number; cacheWrite: number; cost: number; turns: number }>;
  /** Assistant replies' tokens and cost per model, most tokens first. */
  models: Array<{ model: string; tokens: number; cost: number }>;
  unpriced: number;
}

/** Errors and warnings of a source's event log per bucket. */
type WindowEvents = Array<{ errors: number; warnings: number }>;

/** Gateway probes per bucket (OpenClaw's uptime): how many, and how many found it up. */
type WindowProbes = Array<{ n: number; up: number }>;

// Statements are prepared once per connection: preparing costs more than a small query runs.
const statements = new WeakMap<object, Map<string, unknown>>();
function stmt<T>(store: Store, sql: string, make: (sql: string) => T): T {
  let m = statements.get(store.db);
  if (!m) statements.set(store.db, (m = new Map()));
  let s = m.get(sql) as T | undefined;
  if (!s) m.set(sql, (s = make(sql)));
  return s;
}

const USAGE_SQL = `SELECT CAST((ts - @start) / @step AS INTEGER) AS i, model, sum(input) AS input, sum(output) AS output, sum(cache_read) AS cacheRead,
        sum(cache_write) AS cacheWrite, sum(cost_usd) AS cost, sum(role = 'user') AS turns, sum(role = 'assistant') AS replies,
        sum(unpriced) AS unpriced
 FROM token_usage WHERE source_id = @source AND ts >= @start AND ts < @end GROUP BY i, model`;

// A window reaching before the raw rows' start: raw rows there only for hours with no rollup, the
// rollups for the others (a whole hour falls into the bucket its start is in).
const USAGE_ROLLUP_SQL = `SELECT i, model, sum(input) AS input, sum(output) AS output, sum(cacheRead) AS cacheRead, sum(cacheWrite) AS cacheWrite,
        sum(cost) AS cost, sum(turns) AS turns, sum(replies) AS replies, sum(unpriced) AS unpriced FROM (
   SELECT CAST((ts - @start) / @step AS INTEGER) AS i, model, input, output, cache_read AS cacheRead, cache_write AS cacheWrite, cost_usd AS cost,
          role = 'user' AS turns, role = 'assistant' AS replies, unpriced
   FROM token_usage u WHERE source_id = @source AND ts >= @start AND ts < @end
     AND (ts >= @rawFrom OR NOT EXISTS (SELECT 1 FROM token_usage_hourly h WHERE h.hour = (u.ts / ${HOUR}) * ${HOUR} AND h.source_id = u.source_id))
   UNION ALL
   SELECT CAST((hour - @start) / @step AS INTEGER), model, input, output, cache_read, cache_write, cost_usd, turns, messages, unpriced
   FROM token_usage_hourly WHERE source_id = @source AND hour >= @start AND hour < min(@rawFrom, @end)
 ) GROUP BY i, model`;

/**
 * One pass over the window's usage rows (covering index source_id, ts, ...) gives both the buckets
 * and the per-model split: the rows are grouped by bucket and model and folded here. `rawFrom`
 * (rawFromOf): where a window starting earlier takes the hourly rollups.
 */
export function queryWindowUsage(store: Store, sourceId: string, w: MetricsWindow, rawFrom = -Infinity): WindowUsage {
  const rollups = w.start < rawFrom;
  const sql = rollups ? USAGE_ROLLUP_SQL : USAGE_SQL;
  const params = { source: sourceId, start: w.start, end: w.lastEnd, step: w.stepMs, ...(rollups ? { rawFrom } : {}) };
  const usage = stmt(store, sql, (q) => store.db.prepare(q)).all(params) as Array<{
    i: number;
    model: string;
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
    cost: number;
    turns: number;
    replies: number;
    unpriced: number;
  }>;
  const buckets: WindowUsage["buckets"] = Array.from({ length: w.count }, () => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, turns: 0 }));
  let unpriced = 0;
  const models = new Map<string, { tokens: number; cost: number }>();
  for (const u of usage) {
    // Finite and never negative even if an older version stored a poisoned row (GraphQL refuses Infinity).
    finiteTotals(u, ["input", "output", "cacheRead", "cacheWrite", "cost"]);
    const tokens = u.input + u.output + u.cacheRead + u.cacheWrite;
    if (u.replies > 0) {
      const m = models.get(u.model) ?? { tokens: 0, cost: 0 };
      m.tokens += tokens;
      m.cost += u.cost;
      models.set(u.model, m);
    }
    const b = buckets[u.i];
    if (!b) continue;
    unpriced += Math.max(0, u.unpriced || 0);
    b.input += u.input;
    b.output += u.output;
    b.cacheRead += u.cacheRead;
    b.cacheWrite += u.cacheWrite;
    b.cost += u.cost;
    b.turns += u.turns;
  }
  const byModel = [...models.entries()].map(([model, m]) => ({ model, tokens: m.tokens, cost: m.cost })).sort((a, b) => b.tokens - a.tokens || a.model.localeCompare(b.model));
  return { buckets, models: byModel, unpriced };
}

const EVENTS_SQL = `SELECT CAST((ts - @start) / @step AS INTEGER) AS i, sum(type = 'error') AS errors, sum(type = 'warning') AS warnings
 FROM log_events WHERE type IN ('error', 'warning') AND ts >= @start AND ts < @end
   AND (source_id = @source OR (source_id IS NULL AND provider = @provider)) GROUP BY i`;

export function queryWindowEvents(store: Store, scope: EventScope, w: MetricsWindow): WindowEvents {
  const rows = stmt(store, EVENTS_SQL, (q) => store.db.prepare(q)).all({ source: scope.sourceId, provider: scope.provider, start: w.start, end: w.lastEnd, step: w.stepMs }) as Array<{
    i: number;
    errors: number;
    warnings: number;
  }>;
  const out: WindowEvents = Array.from({ length: w.count }, () => ({ errors: 0, warnings: 0 }));
  for (const e of rows) {
    const b = out[e.i];
    if (!b) continue;
    b.errors = e.errors;
    b.warnings = e.warnings;
  }
  return out;
}

const PROBES_SQL = `SELECT CAST((ts - @start) / @step AS INTEGER) AS i, count(*) AS n, sum(up) AS up FROM gateway_samples WHERE ts >= @start AND ts < @end GROUP BY i`;

const PROBES_ROLLUP_SQL = `SELECT i, sum(n) AS n, sum(up) AS up FROM (
   SELECT CAST((ts - @start) / @step AS INTEGER) AS i, 1 AS n, up FROM gateway_samples g WHERE ts >= @start AND ts < @end
     AND (ts >= @rawFrom OR NOT EXISTS (SELECT 1 FROM gateway_samples_hourly h WHERE h.hour = (g.ts / ${HOUR}) * ${HOUR}))
   UNION ALL
   SELECT CAST((hour - @start) / @step AS INTEGER), samples, up_samples FROM gateway_samples_hourly WHERE hour >= @start AND hour < min(@rawFrom, @end)
 ) GROUP BY i`;

/** The gateway's stored probes per bucket (they are the gateway's, the same for every OpenClaw source). */
export function queryWindowProbes(store: Store, w: MetricsWindow, rawFrom = -Infinity): WindowProbes {
  const rollups = w.start < rawFrom;
  const sql = rollups ? PROBES_ROLLUP_SQL : PROBES_SQL;
  const params = { start: w.start, end: w.lastEnd, step: w.stepMs, ...(rollups ? { rawFrom } : {}) };
  const rows = stmt(store, sql, (q) => store.db.prepare(q)).all(params) as Array<{ i: number; n: number; up: number }>;
  const out: WindowProbes = Array.from({ length: w.count }, () => ({ n: 0, up: 0 }));
  for (const p of rows) {
    const b = out[p.i];
    if (!b) continue;
    b.n = p.n;
    b.up = p.up;
  }
  return out;
}

const LIFETIME_SQL = "SELECT coalesce(sum(input + output + cache_read + cache_write), 0) AS t FROM transcript_totals WHERE source_id = ?";

const LAST_ACTIVITY_SQL = "SELECT max(last_activity) AS t FROM transcript_totals WHERE source_id = ?";

/** The newest activity the source's transcripts recorded (epoch ms), at any time; null without any. */
export function queryLastActivity(store: Store, sourceId: string): number | null {
  const row = stmt(store, LAST_ACTIVITY_SQL, (q) => store.db.prepare(q)).get(sourceId) as { t: number | null };
  return typeof row.t === "number" && Number.isFinite(row.t) ? row.t : null;
}

/** All tokens of a source ever (its transcripts' totals). */
export function queryLifetimeTokens(store: Store, sourceId: string): number {
  const row = stmt(store, LIFETIME_SQL, (q) => store.db.prepare(q)).get(sourceId) as { t: number };
  return finiteTotal(row.t);
}

/** The newest row id of a table (0 when empty): a table only appended to has changed when it moves. */
export function lastRowId(store: Store, table: "gateway_samples" | "log_events"): number {
  const sql = `SELECT coalesce(max(rowid), 0) FROM ${table}`;
  return stmt(store, sql, (q) => store.db.prepare(q).pluck()).get() as number;
}

/** The answer from its parts; every call builds new objects (the parts may be shared by callers). */
export function assembleMetrics(
  w: MetricsWindow,
  parts: { usage: WindowUsage; events: WindowEvents; probes: WindowProbes | null; lifetimeTokens: number; lastActivity: number | null },
  timeZone: string,
  locale?: string,
): Metrics {
  const { usage, events, probes } = parts;
  let probeCount = 0;
  let upCount = 0;
  const buckets: MetricsBucket[] = usage.buckets.map((u, i) => {
    const s = w.start + i * w.stepMs;
    const p = probes?.[i];
    if (p && p.n > 0) {
      probeCount += p.n;
      upCount += p.up;
    }
    return {
      start: s / 1000,
      end: (s + w.stepMs) / 1000,
      label: bucketLabel(s, w.stepMs, timeZone, locale),
      tokens: u.input + u.output + u.cacheRead + u.cacheWrite,
      inputTokens: u.input,
      outputTokens: u.output,
      cacheReadTokens: u.cacheRead,
      cacheWriteTokens: u.cacheWrite,
      costUsd: usd(u.cost),
      turns: u.turns,
      errors: events[i]?.errors ?? 0,
      warnings: events[i]?.warnings ?? 0,
      uptimePercent: p && p.n > 0 ? Math.round((p.up / p.n) * 1000) / 10 : null,
    };
  });
  const sum = (f: (b: MetricsBucket) => number): number => buckets.reduce((a, b) => a + f(b), 0);
  return {
    range: w.range,
    from: new Date(w.start).toISOString(),
    to: new Date(w.lastEnd).toISOString(),
    totalTokensK: k(parts.lifetimeTokens),
    lastActivityAt: parts.lastActivity === null ? null : new Date(parts.lastActivity).toISOString(),
    rangeTokensK: k(sum((b) => b.tokens)),
    totalErrors: sum((b) => b.errors),
    totalWarnings: sum((b) => b.warnings),
    totalTurns: sum((b) => b.turns),
    costUsd: usd(sum((b) => b.costUsd)),
    unpricedResponses: usage.unpriced,
    uptimePercent: probeCount ? Math.round((upCount / probeCount) * 1000) / 10 : null,
    tokensByModel: usage.models.map((m) => ({ model: m.model || "unknown", tokens: m.tokens, costUsd: usd(m.cost) })),
    buckets,
  };
}

/** Metrics straight from the store (no cache): the read model keeps the parts between changes. */
export function queryMetrics(store: Store, scope: EventScope, options: MetricsOptions): Metrics {
  const w = metricsWindow(options.range, options.date, options.now, options.timeZone);
  const rawFrom = rawFromOf(options.now, options.rawDays ?? Infinity);
  return assembleMetrics(
    w,
    {
      usage: queryWindowUsage(store, scope.sourceId, w, rawFrom),
      events: queryWindowEvents(store, scope, w),
      // Uptime is the agent gateway's: other providers have no long-running process to probe.
      probes: hasCapability(scope.provider, "gateway") ? queryWindowProbes(store, w, rawFrom) : null,
      lifetimeTokens: queryLifetimeTokens(store, scope.sourceId),
      lastActivity: queryLastActivity(store, scope.sourceId),
    },
    options.timeZone,
    options.locale,
  );
}
