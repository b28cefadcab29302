// Lifetime counters for Prometheus (GET /metrics): tokens and cost per source, model and project,
// and classified events per provider and type. Kept in tables retention never prunes, so they only
// grow (a transcript re-read from the start is the one exception: a counter reset).
import type { ProviderName } from "../providers/registry.js";
import { finiteTotals } from "../base/usage-guard.js";
import type { Store } from "../store/store.js";

export interface ModelCounter {
  /** The source (`agent:main`, `claude-code:default`). */
  sourceId: string;
  model: string;
  /** The model's vendor as the transcripts name it (OpenClaw's provider id, `anthropic`, `openai`). */
  provider: string;
  /** The session's working directory; "" when unknown (OpenClaw). */
  project: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  costUsd: number;
  unpriced: number;
  messages: number;
}

export function queryModelCounters(store: Store): ModelCounter[] {
  const rows = store.db
    .prepare(
      `SELECT tm.source_id AS sourceId, tm.model, tm.provider, coalesce(m.project, '') AS project, sum(tm.input) AS input, sum(tm.output) AS output,
              sum(tm.cache_read) AS cacheRead, sum(tm.cache_write) AS cacheWrite, sum(tm.reasoning) AS reasoning, sum(tm.cost_usd) AS costUsd,
              sum(tm.unpriced) AS unpriced, sum(tm.messages) AS messages
       FROM transcript_models tm
       LEFT JOIN transcript_totals t ON t.source_id = tm.source_id AND t.session_id = tm.session_id
       LEFT JOIN session_meta m ON m.source_id = t.source_id AND m.session_key = t.session_key
       GROUP BY tm.source_id, tm.model, tm.provider, project ORDER BY tm.source_id, tm.model, tm.provider, project`,
    )
    .all() as ModelCounter[];
  // A Prometheus counter must be finite and must not go below zero (an older version's poisoned row).
  return rows.map((r) => finiteTotals(r, ["input", "output", "cacheRead", "cacheWrite", "costUsd"]));
}

/** Classified events ever seen of one provider (OpenClaw's gateway log, or a provider's incidents), per type. */
export function queryEventTotals(store: Store, provider: ProviderName): Record<"error" | "warning" | "restart", number> {
  const out = { error: 0, warning: 0, restart: 0 };
  for (const r of store.db.prepare("SELECT type, count FROM event_totals WHERE provider = ?").all(provider) as Array<{ type: string; count: number }>) {
    if (r.type in out) out[r.type as keyof typeof out] = r.count;
  }
  return out;
}

/** Models whose responses had no known price, in these sources, most responses first. */
export function queryUnpricedModels(store: Store, sourceIds: readonly string[]): Array<{ model: string; responses: number; tokens: number }> {
  if (!sourceIds.length) return [];
  return store.db
    .prepare(
      `SELECT model, sum(unpriced) AS responses, sum(input + output + cache_read + cache_write) AS tokens FROM transcript_models
       WHERE unpriced > 0 AND source_id IN (SELECT value FROM json_each(?)) GROUP BY model ORDER BY responses DESC, model`,
    )
    .all(JSON.stringify(sourceIds)) as Array<{ model: string; responses: number; tokens: number }>;
}
