// The contract's gateway capability (docs/providers.md "The gateway capability"): what a provider
// that runs an agent gateway of its own (OpenClaw today) gives the layers above it. Ingest,
// queries, the card and the daemon use these types and the capability object the provider's
// module.ts exports (loaded by shared/providers/modules.ts); none of them imports the provider's folder, so the
// gateway's file formats, RPC protocol and CLI stay the provider's business.
import type { Clock } from "../base/clock.js";
import type { Logger } from "../base/log/logger.js";
import type { Store } from "../store/store.js";
import type { LogLevel, Provider } from "./contract.js";
import type { LookedAt } from "./looked-at.js";
import type { SourceError, SourceResult, SourceWarning } from "./result.js";

// --- Cron jobs (design §5: cronJobs) ---------------------------------------------------------

/** A job's schedule as the gateway stores it. */
export type CronSchedule =
  | { kind: "every"; everyMs: number; anchorMs?: number | null }
  | { kind: "cron"; expr: string; tz?: string | null; staggerMs?: number | null }
  | { kind: "at"; at: string | number }
  | { kind: "other"; type: string };

export interface CronJobInfo {
  id: string;
  name: string;
  /** The gateway's display name for built-in jobs ("Heartbeat (main)"), else null. */
  displayName: string | null;
  agentId: string | null;
  enabled: boolean;
  schedule: {
    /** every | cron | at, or the raw kind for event-driven schedules (on-exit, stream). */
    kind: string;
    text: string;
    spec: CronSchedule | null;
  };
  lastRunAt: number | null;
  lastStatus: string | null;
  lastDurationMs: number | null;
  lastError: string | null;
  /** The gateway's stored next run while it is still ahead, else computed from the schedule. */
  nextRunAt: number | null;
  /**
   * When the job should have run next as the gateway recorded it, even if that is past (the job is
   * late), else `nextRunAt`; null when disabled. Compared with the clock, it says whether a job is overdue.
   */
  dueAt: number | null;
  consecutiveErrors: number;
}

export interface CronRunInfo {
  jobId: string;
  /** The run's id in the gateway's store (unique per job). */
  id: string;
  /** The gateway's run id when it recorded one (e.g. `manual:<jobId>:<ms>:1`). */
  runId: string | null;
  /** ok | error | skipped | running | interrupted | superseded (as the gateway wrote it). */
  status: string;
  startedAt: number | null;
  finishedAt: number | null;
  durationMs: number | null;
  error: string | null;
  summary: string | null;
  sessionId: string | null;
  sessionKey: string | null;
  model: string | null;
  provider: string | null;
  totalTokens: number | null;
  deliveryStatus: string | null;
}

export interface CronData {
  store: "sqlite" | "files";
  jobs: CronJobInfo[];
  /** Per job id, newest first. */
  runs: Record<string, CronRunInfo[]>;
}

// --- The gateway's own log ------------------------------------------------------------------

export interface GatewayLogEntry {
  /** The line's own time (ISO with offset), as written. */
  time: string;
  /** `time` as epoch ms. */
  timeMs: number;
  level: LogLevel;
  /** Subsystem, module or logger name. */
  module: string;
  message: string;
  agentId: string | null;
  sessionKey: string | null;
  channel: string | null;
  traceId: string | null;
}

export type GatewayLogEventType = "error" | "warning" | "restart";

export type ParsedLogLine = { ok: true; entry: GatewayLogEntry } | { ok: false; warning: SourceWarning };

export interface GatewayLogLine {
  text: string;
  /** The physical file the line was read from (may be an archive). */
  file: string;
  /** Byte offset of the line's start in that file. */
  offset: number;
}

/**
 * How the gateway's log is read: followed from a cursor across rotation and midnight, one line
 * parsed at a time, and restarts told from the lines. Cursors and tracker states are plain JSON
 * the core stores and hands back unchanged; only the provider reads them.
 */
export interface GatewayLogFormat {
  follow(
    cursor: unknown,
    o: { resolveActivePath: (nowMs: number) => string; clock: Clock; maxBytes?: number },
  ): SourceResult<{ lines: GatewayLogLine[]; cursor: unknown; caughtUp: boolean }>;
  parse(line: string, where: string): ParsedLogLine;
  /** A restart detector resumed from a stored state (null: a fresh one). */
  restarts(state: unknown): { classify(entry: GatewayLogEntry): GatewayLogEventType | null; state(): unknown };
}

// --- The gateway's process, channels and updates (the system namespace) ----------------------

export interface GatewayProbe {
  live: { live: boolean; status: string | null; httpStatus: number; roundTripMs: number };
  /** null when readiness failed while liveness answered (see `readyError`). */
  ready: {
    ready: boolean;
    failing: string[];
    uptimeMs: number | null;
    eventLoop: { degraded: boolean | null; delayP99Ms: number | null; utilization: number | null; reasons: string[] };
    httpStatus: number;
    roundTripMs: number;
  } | null;
  readyError: SourceError | null;
}

export interface ChannelStatus {
  /** Channel id, e.g. "telegram". */
  provider: string;
  /** Account display name, else the account id. */
  name: string;
  accountId: string;
  /** The gateway's label for the channel ("Telegram"), else the id. */
  label: string;
  connected: boolean;
  /** Whether `connected` was reported by the channel or inferred from running/health/probe. */
  connectedSource: "reported" | "derived";
  running: boolean | null;
  enabled: boolean | null;
  configured: boolean | null;
  /** The channel's own probe round trip; null when no probe ran. */
  latencyMs: number | null;
  probeOk: boolean | null;
  lastError: string | null;
  /** Gateway verdict: healthy, busy, disconnected, not-running, stale-socket, stuck, ... */
  healthState: string | null;
  lastConnectedAt: number | null;
  lastProbeAt: number | null;
  /** Status issues reported for this account. */
  issues: string[];
}

export interface GatewayView {
  running: boolean;
  url: string | null;
  port: number | null;
  pid: number | null;
  startedAt: number | null;
  uptimeSeconds: number | null;
  version: string | null;
  latencyMs: number | null;
  error: string | null;
  ready: boolean | null;
  failing: string[];
  eventLoopDelayMs: number | null;
  eventLoopDegraded: boolean | null;
  updateAvailable: boolean | null;
  latestVersion: string | null;
}

export interface ResourcesView {
  cpuPercent: number | null;
  memoryMB: number | null;
  diskMB: number | null;
  diskFreeMB: number | null;
  diskUsedPercent: number | null;
  sampledAt: number | null;
}

export interface ChannelsView {
  list: ChannelStatus[];
  checkedAt: number | null;
  error: string | null;
  rpcLatencyMs: number | null;
  source: "rpc" | "cli" | null;
  /** This process never probes channels (a one-off CLI command): there is nothing to wait for. */
  off?: boolean;
}

export interface SystemSnapshot {
  demo: boolean;
  checkedAt: number | null;
  gateway: GatewayView;
  resources: ResourcesView;
  channels: ChannelsView;
}

export interface GatewayMonitorOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Our own state dir: the RPC device identity lives there. */
  stateDir: string;
  /** config.gatewayUrl when set, read on every probe so a reload applies. */
  gatewayUrl: () => string | null;
  /** The gateway's CLI (config openclawCommand) for the channel fallback and the update check. */
  command?: () => string;
  env?: Record<string, string | undefined>;
  sampleMs: number;
  /** Test seams. */
  probeHttp?: (url: string) => Promise<SourceResult<GatewayProbe>>;
  channels?: boolean;
  updates?: boolean;
  onChange?: () => void;
}

/**
 * Watches the gateway process from outside on its own timers (liveness, resources, channels,
 * updates); every sample is stored for uptime %. A dead or slow gateway only changes the snapshot.
 */
export interface GatewayMonitor {
  snapshot(): SystemSnapshot;
  /** True once the first probe has finished. */
  readonly ready: boolean;
  start(): void;
  stop(): Promise<void>;
  /** One liveness + resource sample; `record: false` keeps it out of the stored samples. */
  tick(o?: { record?: boolean }): Promise<void>;
  setSampleInterval(ms: number): void;
  /** After an update ran: forget the cached answer and ask again. */
  recheckUpdates(): Promise<void>;
}

// --- The capability ---------------------------------------------------------------------------

/** Where the gateway's state lives, and how it was chosen (status output). */
export interface GatewayLocation {
  dir: string;
  demo: boolean;
  origin: "config" | "env" | "home" | "demo";
}

export interface LocateOptions {
  /** The provider's dir config option; null: not set. */
  configured: string | null;
  env?: Record<string, string | undefined>;
}

/** One located gateway install, opened: its provider and the gateway side bound to it. */
export interface GatewaySide {
  readonly location: GatewayLocation;
  /** Reads the gateway's agents, one install each, like any provider. */
  readonly provider: Provider;
  monitor(o: GatewayMonitorOptions): GatewayMonitor;
  readCron(o: { nowMs: number; hostTimeZone?: string }): SourceResult<CronData>;
  /** Today's active log file at an instant (re-resolved: the config may move it, a dated name moves at midnight). */
  activeLogPath(nowMs: number): string;
  readonly log: GatewayLogFormat;
  /** The agent the gateway's config marks as its default, or null when none is marked. */
  configuredDefaultAgent(): string | null;
}

export type GatewayOperationName = "restart" | "update";

/**
 * The gateway side of a provider module: locating the install, opening it, and the operations
 * run through the gateway's CLI (restartGateway, updateGateway).
 */
export interface GatewayCapability {
  /** The configured dir, else the provider's env variable, else its default when it exists; null: none. */
  locate(o: LocateOptions): GatewayLocation | null;
  /** Where it is read when forced on and none was found. */
  defaultLocation(env: Record<string, string | undefined>): GatewayLocation;
  /** The dir locate would choose and what is there (status, /health). Stat calls only. */
  lookedAt(o: LocateOptions): LookedAt;
  open(location: GatewayLocation, env: Record<string, string | undefined>): GatewaySide;
  operations: {
    /** The CLI's arguments per operation. */
    args: Readonly<Record<GatewayOperationName, readonly string[]>>;
    /** What the CLI's environment must add to point it at this install. */
    env(location: GatewayLocation): Record<string, string>;
  };
}
