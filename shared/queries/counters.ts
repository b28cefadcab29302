// Lifetime counters for Prometheus (GET /metrics): tokens and cost per agent and model, and
// classified gateway log events per type. Kept in tables retention never prunes, so they only
// grow (a transcript re-read from the start is the one exception: a counter reset).
import { finiteTotals } from "../sources/usage-guard.js";
import type { Store } from "../store/store.js";

export interface ModelCounter {
  agentId: string;
  model: string;
  provider: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costUsd: number;
  messages: number;
}

export function queryModelCounters(store: Store): ModelCounter[] {
  const rows = store.db
    .prepare(
      `SELECT agent_id AS agentId, model, provider, sum(input) AS input, sum(output) AS output, sum(cache_read) AS cacheRead,
              sum(cache_write) AS cacheWrite, sum(cost_usd) AS costUsd, sum(messages) AS messages
       FROM transcript_models GROUP BY agent_id, model, provider ORDER BY agent_id, model, provider`,
    )
    .all() as ModelCounter[];
  // A Prometheus counter must be finite and must not go below zero (an older version's poisoned row).
  return rows.map((r) => finiteTotals(r, ["input", "output", "cacheRead", "cacheWrite", "costUsd"]));
}

export function queryEventTotals(store: Store): Record<"error" | "warning" | "restart", number> {
  const out = { error: 0, warning: 0, restart: 0 };
  for (const r of store.db.prepare("SELECT type, count FROM event_totals").all() as Array<{ type: string; count: number }>) {
    if (r.type in out) out[r.type as keyof typeof out] = r.count;
  }
  return out;
}
