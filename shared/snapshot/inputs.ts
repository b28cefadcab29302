// What the card is built from: the read model's views, per provider. Each provider runs one or
// more sources (OpenClaw agents, Claude Code and Codex installs); each source's views come as the
// per-source queries return them and buildCardModel sums them per provider (and de-duplicates the
// provider-wide log lines every source's event query repeats). A part whose source failed is null
// and its name goes into `degradedSources`; the card says so.
import type { Message } from "../i18n/message.js";
import type { EventView } from "../queries/events.js";
import type { HealthVerdict } from "../queries/health.js";
import type { LifetimeStats } from "../queries/lifetime.js";
import type { Metrics } from "../queries/metrics.js";
import type { ActiveAlertFigure } from "../queries/read-model.js";
import type { RateLimitsView } from "../queries/rate-limits.js";
import type { SessionView } from "../queries/sessions.js";
import type { GatewayState } from "../queries/system.js";
import type { UsageCost } from "../queries/usage-cost.js";
import type { SourceStatus } from "../ingest/source-status.js";
import type { CronJobInfo, CronRunInfo } from "../providers/contract.js";
import { hasCapability, type ProviderWith, type ProviderWithout } from "../providers/registry.js";

export type HealthLevel = "HEALTHY" | "DEGRADED" | "UNHEALTHY";
export type CheckStatus = "PASS" | "WARN" | "FAIL";

/** OpenClaw's gateway, as `system.gateway` gives it. */
interface GatewayInput {
  /** The one field a label reads (UP, DOWN, DEMO, UNKNOWN): never "stopped" in demo mode. */
  state: GatewayState;
  running: boolean;
  /** OpenClaw's version. */
  version: string | null;
  uptimeSeconds: number | null;
  pid: number | null;
  updateAvailable: boolean | null;
  latestVersion: string | null;
}

interface ResourcesInput {
  /** CPU % of the gateway's process tree (100 = one core). */
  cpuPercent: number | null;
  memoryMB: number | null;
  diskMB: number | null;
}

export interface ChannelInput {
  provider: string;
  name: string;
  connected: boolean;
  latencyMs: number | null;
}

/** The daemon's one verdict (ReadModel.overallHealth()) and the checks behind it. */
export interface HealthInput {
  status: HealthLevel;
  verdict: HealthVerdict;
  /** `text`, the message as catalog id and parameters, is what the card prints, in its language. */
  checks: Array<{ name: string; status: CheckStatus; message: string | null; text?: Message | null }>;
}

export interface SourceInput {
  id: string;
  name: string;
  status: SourceStatus;
  lastError: string | null;
}

/** One source's views, each as its query returns it for the snapshot's range; null when it failed. */
export interface AgentCardInputs {
  /** `agent:main`, `claude-code:default`, `codex:default`. */
  sourceId: string;
  /** Sessions as `querySessions` returns them, grouped (sub-agents nested), most tokens first. */
  sessions: SessionView[] | null;
  /**
   * Every session's count (the list above may be cut at its limit): when present, the card's
   * session totals come from here.
   */
  sessionCounts?: { total: number; active: number } | null;
  /** `queryMetrics` for the snapshot's range (METRICS_RANGE[range]). */
  metrics: Metrics | null;
  /** `queryEvents` over the range, newest first (use MAX_EVENT_LIMIT: counts come from this list). */
  events: EventView[] | null;
  /** Only the full card shows these. */
  lifetime?: LifetimeStats | null;
  usageCost?: UsageCost | null;
}

interface ProviderInputsBase {
  /** The provider's sources (full card). */
  sources: SourceInput[];
  agents: AgentCardInputs[];
}

export interface OpenClawCardInputs extends ProviderInputsBase {
  provider: ProviderWith<"gateway">;
  /** Null when the gateway probe failed: the card says "unknown" rather than "stopped". */
  gateway: GatewayInput | null;
  resources: ResourcesInput | null;
  /** Null when channel status could not be read; [] when none are configured. */
  channels: ChannelInput[] | null;
  /** All cron jobs of the gateway; null when the cron store could not be read. */
  cronJobs: CronJobInfo[] | null;
  /** Recent runs per job id, newest first: a job running now is not overdue. */
  cronRuns?: Readonly<Record<string, readonly CronRunInfo[]>>;
}

/** Claude Code or Codex: a CLI with no gateway. */
export interface CliCardInputs extends ProviderInputsBase {
  provider: ProviderWithout<"gateway">;
  /** Null when the provider's system could not be read. */
  cli: { versions: string[]; liveSessions: number } | null;
  /** Codex: the plan's rate limits per install (ProviderCSystem.rateLimits); null when unreadable. */
  rateLimits?: RateLimitsView[] | null;
}

export type ProviderCardInputs = OpenClawCardInputs | CliCardInputs;

export function isGatewayInputs(p: ProviderCardInputs): p is OpenClawCardInputs {
  return hasCapability(p.provider, "gateway");
}

export interface CardInputs {
  /** gateway-insights' own version. */
  appVersion: string;
  /** The daemon's one verdict over every provider; null when a provider's state could not be read. */
  health: HealthInput | null;
  /** One entry per provider read, in the order OpenClaw, Claude Code, Codex. */
  providers: ProviderCardInputs[];
  /** IANA zone for the clock times on the card (the read model's zone); default UTC. */
  timeZone?: string;
  /**
   * The alerts firing now, daemon-wide (ReadModel.activeAlerts()): [] when none, null when they
   * could not be read, absent where no rules are evaluated (a card made without the daemon).
   */
  alerts?: ActiveAlertFigure[] | null;
}

export type AlertInput = ActiveAlertFigure;
