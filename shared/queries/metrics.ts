// Aggregated metrics of one agent over a time range (spec: metrics; design §5 for the ranges and
// buckets). Tokens, cost and turns come from the per-message token_usage rows, errors and
// warnings from the gateway log events, uptime from the stored gateway probes.
import { finiteTotal, finiteTotals } from "../sources/usage-guard.js";
import type { Store } from "../store/store.js";
import type { EventScope } from "./events.js";
import { clockLabel, HOUR, MINUTE } from "./time.js";
import { usd } from "./money.js";

export type MetricsRange = "THIRTY_MIN" | "ONE_HOUR" | "SIX_HOUR" | "TWELVE_HOUR" | "TWENTY_FOUR_HOUR";

/** Bucket count and width per range (design §5). */
export const RANGES: Record<MetricsRange, { buckets: number; stepMs: number }> = {
  THIRTY_MIN: { buckets: 6, stepMs: 5 * MINUTE },
  ONE_HOUR: { buckets: 12, stepMs: 5 * MINUTE },
  SIX_HOUR: { buckets: 24, stepMs: 15 * MINUTE },
  TWELVE_HOUR: { buckets: 24, stepMs: 30 * MINUTE },
  TWENTY_FOUR_HOUR: { buckets: 24, stepMs: HOUR },
};

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

export interface MetricsOptions {
  range?: MetricsRange | null;
  /** End of the window: an ISO date (the window ends at that day's end, UTC) or date-time; default now. */
  date?: string | null;
  now: number;
  timeZone: string;
  /** BCP 47 locale of the bucket labels (default en). */
  locale?: string;
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
export function bucketGrid(range: MetricsRange, end: number, exclusiveEnd = false): { count: number; stepMs: number; start: number; lastEnd: number } {
  const { buckets: count, stepMs } = RANGES[range];
  const lastEnd = exclusiveEnd ? Math.ceil(end / stepMs) * stepMs : Math.floor(end / stepMs) * stepMs + stepMs;
  return { count, stepMs, start: lastEnd - count * stepMs, lastEnd };
}

const k = (n: number): number => Math.round(n / 10) / 100;

export function queryMetrics(store: Store, scope: EventScope, options: MetricsOptions): Metrics {
  const range = options.range ?? "TWENTY_FOUR_HOUR";
  const { count, stepMs, start, lastEnd } = bucketGrid(range, windowEnd(options.date, options.now), Boolean(options.date));
  const buckets: MetricsBucket[] = Array.from({ length: count }, (_, i) => {
    const s = start + i * stepMs;
    return {
      start: s / 1000,
      end: (s + stepMs) / 1000,
      label: clockLabel(s, options.timeZone, options.locale),
      tokens: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0,
      turns: 0,
      errors: 0,
      warnings: 0,
      uptimePercent: null,
    };
  });
  const params = { source: scope.sourceId, provider: scope.provider, start, end: lastEnd, step: stepMs };
  // One pass over the range's usage rows (index source_id, ts) gives both the buckets and the
  // per-model split: the rows are grouped by bucket and model and folded here.
  const usage = store.db
    .prepare(
      `SELECT CAST((ts - @start) / @step AS INTEGER) AS i, model, sum(input) AS input, sum(output) AS output, sum(cache_read) AS cacheRead,
              sum(cache_write) AS cacheWrite, sum(cost_usd) AS cost, sum(role = 'user') AS turns, sum(role = 'assistant') AS replies,
              sum(unpriced) AS unpriced
       FROM token_usage WHERE source_id = @source AND ts >= @start AND ts < @end GROUP BY i, model`,
    )
    .all(params) as Array<{ i: number; model: string; input: number; output: number; cacheRead: number; cacheWrite: number; cost: number; turns: number; replies: number; unpriced: number }>;
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
    b.inputTokens += u.input;
    b.outputTokens += u.output;
    b.cacheReadTokens += u.cacheRead;
    b.cacheWriteTokens += u.cacheWrite;
    b.tokens += tokens;
    b.costUsd += u.cost;
    b.turns += u.turns;
  }
  for (const b of buckets) b.costUsd = usd(b.costUsd);
  const events = store.db
    .prepare(
      `SELECT CAST((ts - @start) / @step AS INTEGER) AS i, sum(type = 'error') AS errors, sum(type = 'warning') AS warnings
       FROM log_events WHERE type IN ('error', 'warning') AND ts >= @start AND ts < @end
         AND (source_id = @source OR (source_id IS NULL AND provider = @provider)) GROUP BY i`,
    )
    .all(params) as Array<{ i: number; errors: number; warnings: number }>;
  for (const e of events) {
    const b = buckets[e.i];
    if (!b) continue;
    b.errors = e.errors;
    b.warnings = e.warnings;
  }
  // Uptime is the OpenClaw gateway's: other providers have no long-running process to probe.
  const probes =
    scope.provider === "openclaw"
      ? (store.db
          .prepare(`SELECT CAST((ts - @start) / @step AS INTEGER) AS i, count(*) AS n, sum(up) AS up FROM gateway_samples WHERE ts >= @start AND ts < @end GROUP BY i`)
          .all(params) as Array<{ i: number; n: number; up: number }>)
      : [];
  let probeCount = 0;
  let upCount = 0;
  for (const p of probes) {
    const b = buckets[p.i];
    if (!b) continue;
    b.uptimePercent = Math.round((p.up / p.n) * 1000) / 10;
    probeCount += p.n;
    upCount += p.up;
  }
  const byModel = [...models.entries()].map(([model, m]) => ({ model, tokens: m.tokens, cost: m.cost })).sort((a, b) => b.tokens - a.tokens || a.model.localeCompare(b.model));
  const lifetime = store.db
    .prepare("SELECT coalesce(sum(input + output + cache_read + cache_write), 0) AS t FROM transcript_totals WHERE source_id = ?")
    .get(scope.sourceId) as { t: number };
  const sum = (f: (b: MetricsBucket) => number): number => buckets.reduce((a, b) => a + f(b), 0);
  return {
    range,
    from: new Date(start).toISOString(),
    to: new Date(lastEnd).toISOString(),
    totalTokensK: k(finiteTotal(lifetime.t)),
    rangeTokensK: k(sum((b) => b.tokens)),
    totalErrors: sum((b) => b.errors),
    totalWarnings: sum((b) => b.warnings),
    totalTurns: sum((b) => b.turns),
    costUsd: usd(sum((b) => b.costUsd)),
    unpricedResponses: unpriced,
    uptimePercent: probeCount ? Math.round((upCount / probeCount) * 1000) / 10 : null,
    tokensByModel: byModel.map((m) => ({ model: m.model || "unknown", tokens: m.tokens, costUsd: usd(m.cost) })),
    buckets,
  };
}
