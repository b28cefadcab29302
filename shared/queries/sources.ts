// The data sources (design §3, §9): one AGENT source per OpenClaw agent, Claude Code install and
// Codex install, plus `dashboard:self`; their filter (`sources(filter)`) and the selector that
// picks one (`source(selector)`).
import type { AgentSnapshot } from "../ingest/agent-source.js";
import type { SourceStatus } from "../ingest/source-status.js";
import { InsightsError } from "../base/errors.js";
import { PROVIDER_ENUM, type ProviderEnum } from "../providers/contract.js";
import { iso } from "./time.js";

export type Category = "AGENT" | "DASHBOARD";
export type Provider = ProviderEnum;

export const DASHBOARD_SOURCE_ID = "dashboard:self";

export interface DataSourceView {
  id: string;
  name: string;
  status: SourceStatus;
  attributes: { category: Category; provider: Provider | null; tags: string[] };
  lastError: string | null;
  /** When the status last changed. */
  since: string | null;
}

export interface SourceFilter {
  category?: Category | null;
  provider?: Provider | null;
  status?: SourceStatus | null;
  /** Every tag must be present. */
  tags?: readonly string[] | null;
}

export interface SourceSelector extends Omit<SourceFilter, "status"> {
  id?: string | null;
}

export function agentSourceView(a: AgentSnapshot): DataSourceView {
  return {
    id: a.id,
    name: a.name,
    status: a.state.status,
    attributes: { category: "AGENT", provider: PROVIDER_ENUM[a.provider], tags: [...a.tags] },
    lastError: a.state.lastError,
    since: iso(a.state.since),
  };
}

export function dashboardSourceView(startedAt: number): DataSourceView {
  return {
    id: DASHBOARD_SOURCE_ID,
    name: "gateway-insights",
    status: "CONNECTED",
    attributes: { category: "DASHBOARD", provider: null, tags: ["gateway-insights"] },
    lastError: null,
    since: iso(startedAt),
  };
}

function matches(s: DataSourceView, f: SourceFilter & { id?: string | null }): boolean {
  if (f.id && s.id !== f.id) return false;
  if (f.category && s.attributes.category !== f.category) return false;
  if (f.provider && s.attributes.provider !== f.provider) return false;
  if (f.status && s.status !== f.status) return false;
  if (f.tags?.length && !f.tags.every((t) => s.attributes.tags.includes(t))) return false;
  return true;
}

export function filterSources(all: readonly DataSourceView[], filter: SourceFilter = {}): DataSourceView[] {
  return all.filter((s) => matches(s, filter));
}

/**
 * The one source a selector names. No selector, or one that matches several sources, is
 * AMBIGUOUS_SELECTOR listing the candidates; none matching is NOT_FOUND.
 */
export function selectSource(all: readonly DataSourceView[], selector: SourceSelector = {}): DataSourceView {
  const found = all.filter((s) => matches(s, selector));
  if (found.length === 1) return found[0] as DataSourceView;
  if (found.length === 0) throw new InsightsError("NOT_FOUND", `no source matches ${describe(selector)}`, { selector });
  throw new InsightsError("AMBIGUOUS_SELECTOR", `${found.length} sources match ${describe(selector)}: ${found.map((s) => s.id).join(", ")}; narrow it with id or tags`, {
    matches: found.map((s) => s.id),
  });
}

function describe(selector: SourceSelector): string {
  const parts = Object.entries(selector).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0));
  return parts.length ? `{${parts.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ")}}` : "an empty selector";
}
