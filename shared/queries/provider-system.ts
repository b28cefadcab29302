// The system namespace of a provider without a gateway (design §9: ProviderBSystem for Claude
// Code, ProviderCSystem for Codex): the CLI versions its files show, its processes running now with
// their CPU and memory, the plan's rate limits where the provider records them, and its health
// checks. Pure: the caller passes everything in.
import type { AgentSnapshot } from "../ingest/agent-source.js";
import { list as listOf, msg, type Message } from "../i18n/message.js";
import type { ProviderWithout } from "../providers/registry.js";
import type { FilesystemSpace } from "../base/disk-usage.js";
import type { SourceResult } from "../providers/result.js";
import type { StoreHealth } from "../store/store.js";
import { agentSourceView, type DataSourceView } from "./sources.js";
import { healthOf, type Health, type HealthCheck } from "./health.js";
import { rateLimitCheck, type RateLimitsView } from "./rate-limits.js";
import { check, detectionCheck, diskCheck, sourcesCheck, storeCheck } from "./system.js";
import { iso } from "./time.js";

interface LiveSessionView {
  source: string;
  sessionKey: string;
  pid: number | null;
  startedAt: string | null;
  status: string | null;
  project: string | null;
  cliVersion: string | null;
  cpu: number | null;
  memoryMB: number | null;
}

interface UnpricedModelView {
  model: string;
  responses: number;
  tokens: number;
}

/** The providers without a gateway of their own. */
type GatewaylessProvider = ProviderWithout<"gateway">;

export interface ProviderSystemView {
  provider: GatewaylessProvider;
  demo: boolean;
  /** CLI versions seen, newest first. */
  versions: string[];
  liveSessions: LiveSessionView[];
  sources: DataSourceView[];
  health: Health;
  /** Codex: the plan's windows per install, as last recorded; [] for Claude Code. */
  rateLimits: RateLimitsView[];
}

interface ProviderSystemInputs {
  provider: GatewaylessProvider;
  demo: boolean;
  agents: readonly AgentSnapshot[];
  providerError: string | null;
  /** Models whose responses had no known price. */
  unpriced: readonly UnpricedModelView[];
  store: StoreHealth;
  disk: SourceResult<FilesystemSpace>;
  /** Codex: the latest rate limits per install. */
  rateLimits?: readonly RateLimitsView[];
  /** Why there are no rate limits, when the provider can tell (Claude Code: no status line, an API-key login). */
  rateLimitsMissing?: Message | null;
}

/** Dotted versions, newest first (numeric parts compared as numbers). */
function newestFirst(versions: Iterable<string>): string[] {
  const parts = (v: string): number[] => v.split(/[^0-9]+/).filter(Boolean).map(Number);
  return [...new Set(versions)].sort((a, b) => {
    const x = parts(a);
    const y = parts(b);
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      const d = (y[i] ?? 0) - (x[i] ?? 0);
      if (d !== 0) return d;
    }
    return b.localeCompare(a);
  });
}

function pricingCheck(unpriced: readonly UnpricedModelView[]): HealthCheck {
  if (!unpriced.length) return check("pricing", "PASS", msg("health.pricing.ok"));
  return check("pricing", "WARN", msg("health.pricing.unpriced", { n: unpriced.reduce((a, u) => a + u.responses, 0), models: listOf(unpriced.slice(0, 5).map((u) => u.model)) }));
}

export function queryProviderSystem(i: ProviderSystemInputs): ProviderSystemView {
  const versions = new Set<string>();
  const live: LiveSessionView[] = [];
  for (const a of i.agents) {
    if (a.appVersion) versions.add(a.appVersion);
    for (const l of a.live) {
      if (l.cliVersion) versions.add(l.cliVersion);
      live.push({ source: a.id, sessionKey: l.sessionKey, pid: l.pid, startedAt: iso(l.startedAt), status: l.status, project: l.cwd, cliVersion: l.cliVersion, cpu: l.cpuPercent, memoryMB: l.memoryMB });
    }
  }
  const detection = detectionCheck(i.agents);
  const checks = [sourcesCheck(i.agents, i.providerError, "installs"), ...(detection ? [detection] : []), pricingCheck(i.unpriced), ...(i.rateLimits ? [rateLimitCheck(i.rateLimits, i.rateLimitsMissing ?? null)] : []), diskCheck(i.disk, { diskUsedPercent: null, diskFreeMB: null }), storeCheck(i.store)];
  return {
    provider: i.provider,
    demo: i.demo,
    versions: newestFirst(versions),
    liveSessions: live,
    sources: i.agents.map(agentSourceView),
    health: healthOf(checks),
    rateLimits: [...(i.rateLimits ?? [])],
  };
}
