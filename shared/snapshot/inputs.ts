// What the card is built from: the read model's views, gateway-wide. A gateway runs one or more
// agents; each agent's views come as the per-agent queries return them and buildCardModel sums
// them (and de-duplicates the gateway-wide log lines every agent's event query repeats). A part
// whose source failed is null and its name goes into `degradedSources`; the card says so.
import type { Message } from "../i18n/message.js";
import type { EventView } from "../queries/events.js";
import type { LifetimeStats } from "../queries/lifetime.js";
import type { Metrics } from "../queries/metrics.js";
import type { SessionView } from "../queries/sessions.js";
import type { UsageCost } from "../queries/usage-cost.js";
import type { SourceStatus } from "../ingest/source-status.js";
import type { CronJobInfo } from "../sources/gateway/cron.js";

export type HealthLevel = "HEALTHY" | "DEGRADED" | "UNHEALTHY";
export type CheckStatus = "PASS" | "WARN" | "FAIL";

/** The gateway group of the system namespace. */
export interface GatewayInput {
  running: boolean;
  /** OpenClaw's version. */
  version: string | null;
  /** gateway-insights' own version. */
  appVersion: string;
  uptimeSeconds: number | null;
  pid: number | null;
  updateAvailable: boolean | null;
  latestVersion: string | null;
}

export interface ResourcesInput {
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

export interface HealthInput {
  status: HealthLevel;
  /** `text`, the message as catalog id and parameters, is what the card prints, in its language. */
  checks: Array<{ name: string; status: CheckStatus; message: string | null; text?: Message | null }>;
}

export interface SourceInput {
  id: string;
  name: string;
  status: SourceStatus;
  lastError: string | null;
}

/** One agent's views, each as its query returns it for the snapshot's range; null when it failed. */
export interface AgentCardInputs {
  agentId: string;
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

export interface CardInputs {
  /** Null when the gateway probe failed: the card says "unknown" rather than "stopped". */
  gateway: GatewayInput | null;
  resources: ResourcesInput | null;
  /** Null when channel status could not be read; [] when none are configured. */
  channels: ChannelInput[] | null;
  health: HealthInput | null;
  sources: SourceInput[];
  agents: AgentCardInputs[];
  /** All cron jobs of the gateway; null when the cron store could not be read. */
  cronJobs: CronJobInfo[] | null;
  /** IANA zone for the clock times on the card (the read model's zone); default UTC. */
  timeZone?: string;
}
