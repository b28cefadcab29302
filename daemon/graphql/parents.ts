// What the namespace resolvers hand to their fields: the read-model view plus the root query's
// QueryContext, so a field without its own argument (a range, a time zone) uses the context's.
import type { MetricsRange } from "../../shared/queries/metrics.js";
import type { DashboardView } from "../../shared/queries/read-model.js";
import type { DataSourceView } from "../../shared/queries/sources.js";
import type { SystemView } from "../../shared/queries/system.js";
import type { ProviderSystemView } from "../../shared/queries/provider-system.js";
import type { ProviderWith } from "../../shared/providers/registry.js";

/** A root query's `context` argument, validated. */
export interface QueryCtx {
  traceId: string | null;
  locale: string;
  timeZone: string | null;
  defaultRange: MetricsRange | null;
  tags: string[] | null;
}

export type SystemParent = SystemView & { provider: ProviderWith<"gateway">; qctx: QueryCtx };

/** Claude Code's or Codex's system (ProviderBSystem, ProviderCSystem). */
export type ProviderSystemParent = ProviderSystemView & { qctx: QueryCtx };

export interface AgentParent {
  kind: "agent";
  /** `agent:main`, `claude-code:default`: what the read model is asked with. */
  sourceId: string;
  /** The id within its provider (AgentNamespace.agentId). */
  agentId: string;
  source: DataSourceView;
  qctx: QueryCtx;
}

/** The dashboard's figures are read once per query, not once per field (each stats the store). */
export type DashboardParent = DashboardView & {
  kind: "dashboard";
  source: DataSourceView;
  qctx: QueryCtx;
};
