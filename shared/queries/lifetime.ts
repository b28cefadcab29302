// All-time totals of one source (spec: lifetimeStats), from the transcript scan's totals.
import type { AgentSnapshot } from "../ingest/agent-source.js";
import { finiteTotals } from "../base/usage-guard.js";
import type { Store } from "../store/store.js";
import { DAY } from "./time.js";
import { usd } from "./money.js";
import type { Sums } from "./usage-figures.js";

export interface LifetimeStats {
  isReady: boolean;
  createdAt: string;
  daysSinceCreation: number;
  totalSessions: number;
  totalInputTokens: number;
  totalOutputTokens: number;
  totalCacheReadTokens: number;
  totalCacheWriteTokens: number;
  totalReasoningTokens: number;
  totalTokens: number;
  totalUserMessages: number;
  totalAssistantMessages: number;
  totalCostUsd: number;
  /** Responses whose model has no known price: their cost is not in totalCostUsd. */
  unpricedResponses: number;
}

/** The source's all-time sums (its transcripts' totals): what the store holds; the read model keeps it between changes. */
interface LifetimeRow extends Omit<Sums, "responses"> {
  users: number;
  assistants: number;
  first: number | null;
}

export function queryLifetimeRow(store: Store, sourceId: string): LifetimeRow {
  const row = store.db
    .prepare(
      `SELECT coalesce(sum(input), 0) AS input, coalesce(sum(output), 0) AS output, coalesce(sum(cache_read), 0) AS cacheRead,
              coalesce(sum(cache_write), 0) AS cacheWrite, coalesce(sum(reasoning), 0) AS reasoning, coalesce(sum(cost_usd), 0) AS cost,
              coalesce(sum(unpriced), 0) AS unpriced, coalesce(sum(user_messages), 0) AS users,
              coalesce(sum(assistant_messages), 0) AS assistants, min(coalesce(first_event, first_activity)) AS first
       FROM transcript_totals WHERE source_id = ?`,
    )
    .get(sourceId) as LifetimeRow;
  // Finite and never negative even if an older version stored a poisoned row (GraphQL refuses Infinity).
  return finiteTotals(row, ["input", "output", "cacheRead", "cacheWrite", "reasoning", "cost"]);
}

export function queryLifetimeStats(store: Store, agent: AgentSnapshot, now: number): LifetimeStats {
  return lifetimeStatsOf(queryLifetimeRow(store, agent.id), agent, now);
}

export function lifetimeStatsOf(r: LifetimeRow, agent: AgentSnapshot, now: number): LifetimeStats {
  // Earliest known activity: the earliest transcript event of any type (a `session` header comes
  // before the first message; rows summed before first_event existed fall back to their first
  // message), else the earliest session start.
  const sessionStarts = agent.sessions.map((s) => s.startedAt).filter((v): v is number => typeof v === "number");
  const created = r.first ?? (sessionStarts.length ? Math.min(...sessionStarts) : now);
  return {
    isReady: agent.firstPassDone,
    createdAt: new Date(created).toISOString(),
    daysSinceCreation: Math.max(0, Math.floor((now - created) / DAY)),
    totalSessions: agent.transcripts,
    totalInputTokens: r.input,
    totalOutputTokens: r.output,
    totalCacheReadTokens: r.cacheRead,
    totalCacheWriteTokens: r.cacheWrite,
    totalReasoningTokens: r.reasoning,
    totalTokens: r.input + r.output + r.cacheRead + r.cacheWrite,
    totalUserMessages: r.users,
    totalAssistantMessages: r.assistants,
    totalCostUsd: usd(r.cost),
    unpricedResponses: r.unpriced,
  };
}
