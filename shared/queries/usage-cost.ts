// Token cost breakdown of one agent (design §5: usageCost): the all-time total from the scan's
// totals, and by model and by day from the recorded per-message costs: raw rows where they are
// still kept, hourly rollups before that (per hour, one or the other, as usage-report.ts).
import { finiteTotal, finiteTotals } from "../base/usage-guard.js";
import type { Store } from "../store/store.js";
import { DAY, dayKey, HOUR, MINUTE, startOfDay, startOfMonth } from "./time.js";
import { usd } from "./money.js";

const QUARTER = 15 * MINUTE;

export interface ModelCost {
  model: string;
  provider: string | null;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  totalTokens: number;
  messages: number;
  /** Responses with no known price: their cost is not in costUsd. */
  unpricedResponses: number;
}

export interface DayCost {
  date: string;
  costUsd: number;
  totalTokens: number;
  messages: number;
}

export interface UsageCost {
  currency: "USD";
  totalUsd: number;
  todayUsd: number;
  /** Since the first of this month, midnight in the zone. */
  monthUsd: number;
  monthTokens: number;
  byModel: ModelCost[];
  byDay: DayCost[];
}

interface UsageCostOptions {
  now: number;
  timeZone: string;
  /** Raw rows are kept this long (retentionRawDays); older periods come from hourly rollups. */
  rawDays: number;
  /** How many days `byDay` covers, ending today (default 30). */
  days?: number;
}

interface Row {
  ts: number;
  model: string;
  provider: string;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  cost_usd: number;
  unpriced: number;
  messages: number;
}

/**
 * Everything of the clock and the options the answer depends on: the same window over an
 * unchanged store gives the same answer (the read model keys its cache on it).
 */
interface UsageCostWindow {
  timeZone: string;
  days: number;
  /** Start of the first day (epoch ms). */
  from: number;
  /** Raw rows are read from here on; before it, hourly rollups where retention made them. */
  rawFrom: number;
  /** Today's date in the zone. */
  today: string;
  /** Start of this month in the zone (epoch ms). */
  monthFrom: number;
}

export function usageCostWindow({ now, timeZone, rawDays, days = 30 }: UsageCostOptions): UsageCostWindow {
  return {
    timeZone,
    days,
    from: startOfDay(now - (days - 1) * DAY, timeZone),
    // The raw rows cover whole hours from here on; before it, an hour's rollup where retention made
    // one, else its raw rows (history a first scan just read: retention rolls it up later).
    rawFrom: Math.ceil((now - rawDays * DAY) / HOUR) * HOUR,
    today: dayKey(now, timeZone),
    monthFrom: startOfMonth(now, timeZone),
  };
}

export function queryUsageCost(store: Store, sourceId: string, options: UsageCostOptions): UsageCost {
  return usageCostIn(store, sourceId, usageCostWindow(options));
}

export function usageCostIn(store: Store, sourceId: string, { timeZone, days, from: daysFrom, rawFrom, today: todayKey, monthFrom }: UsageCostWindow): UsageCost {
  // The month may begin before the days shown (the 31st shows 30 days).
  const from = Math.min(daysFrom, monthFrom);
  const total = store.db.prepare("SELECT coalesce(sum(cost_usd), 0) AS c FROM transcript_totals WHERE source_id = ?").get(sourceId) as { c: number };
  const rows = store.db
    .prepare(
      // Raw rows in 15-minute steps: every real UTC offset is a multiple of 15 minutes, so no
      // step straddles a local midnight.
      `SELECT (ts / ${QUARTER}) * ${QUARTER} AS ts, model, provider, sum(input) AS input, sum(output) AS output, sum(cache_read) AS cache_read,
              sum(cache_write) AS cache_write, sum(cost_usd) AS cost_usd, sum(unpriced) AS unpriced, count(*) AS messages
       FROM token_usage u WHERE source_id = @agent AND role = 'assistant' AND ts >= @from
         AND (ts >= @rawFrom OR NOT EXISTS (SELECT 1 FROM token_usage_hourly h WHERE h.hour = (u.ts / ${HOUR}) * ${HOUR} AND h.source_id = u.source_id))
       GROUP BY 1, model, provider
       UNION ALL
       SELECT hour AS ts, model, '' AS provider, input, output, cache_read, cache_write, cost_usd, unpriced, messages
       FROM token_usage_hourly WHERE source_id = @agent AND messages > 0 AND hour >= @from AND hour < @rawFrom`,
    )
    .all({ agent: sourceId, from, rawFrom }) as Row[];

  const byModel = new Map<string, ModelCost>();
  const byDay = new Map<string, DayCost>();
  let monthUsd = 0;
  let monthTokens = 0;
  for (let d = 0; d < days; d++) {
    const key = dayKey(daysFrom + d * DAY + HOUR * 12, timeZone);
    byDay.set(key, { date: key, costUsd: 0, totalTokens: 0, messages: 0 });
  }
  for (const r of rows) {
    // Finite and never negative even if an older version stored a poisoned row (GraphQL refuses Infinity).
    finiteTotals(r, ["input", "output", "cache_read", "cache_write", "cost_usd"]);
    const tokens = r.input + r.output + r.cache_read + r.cache_write;
    if (r.ts >= monthFrom) {
      monthUsd += r.cost_usd;
      monthTokens += tokens;
    }
    if (r.ts < daysFrom) continue;
    const m = byModel.get(r.model) ?? { model: r.model || "unknown", provider: r.provider || null, costUsd: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0, messages: 0, unpricedResponses: 0 };
    m.costUsd += r.cost_usd;
    m.inputTokens += r.input;
    m.outputTokens += r.output;
    m.cacheReadTokens += r.cache_read;
    m.cacheWriteTokens += r.cache_write;
    m.totalTokens += tokens;
    m.messages += r.messages;
    m.unpricedResponses += r.unpriced;
    if (!m.provider && r.provider) m.provider = r.provider;
    byModel.set(r.model, m);
    const day = byDay.get(dayKey(r.ts, timeZone));
    if (day) {
      day.costUsd += r.cost_usd;
      day.totalTokens += tokens;
      day.messages += r.messages;
    }
  }
  const today = byDay.get(todayKey);
  return {
    currency: "USD",
    totalUsd: usd(finiteTotal(total.c)),
    todayUsd: usd(today?.costUsd ?? 0),
    monthUsd: usd(monthUsd),
    monthTokens,
    byModel: [...byModel.values()].map((m) => ({ ...m, costUsd: usd(m.costUsd) })).sort((a, b) => b.costUsd - a.costUsd || a.model.localeCompare(b.model)),
    byDay: [...byDay.values()].map((d) => ({ ...d, costUsd: usd(d.costUsd) })),
  };
}
