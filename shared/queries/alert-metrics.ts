// What alert rules measure over a time window, straight from the store: usage (cost, tokens,
// unpriced responses) by model, and classified events (errors, warnings) in a scope. Raw rows
// where they are still kept, hourly rollups before that (so a month window outlives
// retentionRawDays, counted by whole hours there). Cheap: covering indexes, one statement each.
import { hasCapability, providerOfSourceId } from "../providers/registry.js";
import { finiteTotals } from "../base/usage-guard.js";
import type { Store } from "../store/store.js";
import { DAY, HOUR } from "./time.js";

interface UsageWindowArgs {
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  now: number;
  /** retentionRawDays: raw rows are kept this long. */
  rawDays: number;
  /** Only these sources; null: every source. */
  sourceIds: readonly string[] | null;
  /** Only sessions whose working directory is this (Claude Code, Codex). */
  project?: string | null;
}

export interface ModelUsage {
  model: string;
  costUsd: number;
  tokens: number;
  /** Responses with no known price (their cost is not in costUsd). */
  unpriced: number;
}

/** Usage in [from, to) by model. */
export function queryUsageWindow(store: Store, a: UsageWindowArgs): ModelUsage[] {
  const rawFrom = Math.ceil((a.now - a.rawDays * DAY) / HOUR) * HOUR;
  const sources = a.sourceIds === null ? null : JSON.stringify(a.sourceIds);
  const project = a.project ?? null;
  const rows = store.db
    .prepare(
      `SELECT model, sum(cost_usd) AS cost_usd, sum(tokens) AS tokens, sum(unpriced) AS unpriced FROM (
         SELECT u.model, u.cost_usd, u.input + u.output + u.cache_read + u.cache_write AS tokens, u.unpriced
         FROM token_usage u
         WHERE u.role = 'assistant' AND u.ts >= max(@from, @rawFrom) AND u.ts < @to
           AND (@sources IS NULL OR u.source_id IN (SELECT value FROM json_each(@sources)))
           AND (@project IS NULL OR EXISTS (SELECT 1 FROM session_meta m WHERE m.source_id = u.source_id AND m.session_key = u.session_key AND m.project = @project))
         UNION ALL
         SELECT h.model, h.cost_usd, h.input + h.output + h.cache_read + h.cache_write, h.unpriced
         FROM token_usage_hourly h
         WHERE h.hour >= @from AND h.hour < min(@rawFrom, @to) AND h.messages > 0
           AND (@sources IS NULL OR h.source_id IN (SELECT value FROM json_each(@sources)))
           AND (@project IS NULL OR h.project = @project)
       ) GROUP BY model`,
    )
    .all({ from: a.from, to: a.to, rawFrom, sources, project }) as Array<{ model: string; cost_usd: number; tokens: number; unpriced: number }>;
  return rows.map((r) => {
    const f = finiteTotals(r, ["cost_usd", "tokens"]);
    return { model: r.model || "unknown", costUsd: f.cost_usd, tokens: f.tokens, unpriced: r.unpriced ?? 0 };
  });
}

interface EventWindowArgs {
  type: "error" | "warning";
  from: number;
  to: number;
  /** Only this provider's events; null: every provider. */
  provider: string | null;
  /** Only this source's events (OpenClaw's gateway-wide lines count for each of its agents); null: any. */
  sourceId: string | null;
}

/** Classified events of `type` in [from, to). */
export function queryEventCountWindow(store: Store, a: EventWindowArgs): number {
  // A gateway's own lines (no source id) count for each of its agents.
  const owner = a.sourceId ? providerOfSourceId(a.sourceId) : null;
  const sourceProvider = owner && hasCapability(owner, "gateway") ? owner : "";
  const row = store.db
    .prepare(
      `SELECT count(*) AS n FROM log_events
       WHERE type = @type AND ts >= @from AND ts < @to
         AND (@provider IS NULL OR provider = @provider)
         AND (@source IS NULL OR source_id = @source OR (source_id IS NULL AND provider = @sourceProvider))`,
    )
    .get({ type: a.type, from: a.from, to: a.to, provider: a.provider, source: a.sourceId, sourceProvider }) as { n: number };
  return row.n;
}
