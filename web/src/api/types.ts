// The shapes of the API answers this page asks for: a hand-written subset of
// daemon/graphql/schema.graphql (the schema's documentation is the reference for every field).

export type SourceStatus = "INITIALIZING" | "CONNECTED" | "DISCONNECTED" | "ERROR";
export type HealthLevel = "HEALTHY" | "DEGRADED" | "UNHEALTHY";
export type CheckStatus = "PASS" | "WARN" | "FAIL";
export type SessionStatus = "ACTIVE" | "IDLE" | "DONE" | "FAILED";
export type MetricsRange = "THIRTY_MIN" | "ONE_HOUR" | "SIX_HOUR" | "TWELVE_HOUR" | "TWENTY_FOUR_HOUR";
export type LogLevel = "TRACE" | "DEBUG" | "INFO" | "WARN" | "ERROR" | "FATAL";

export interface DataSource {
  id: string;
  name: string;
  status: SourceStatus;
  lastError: string | null;
  since: string | null;
  attributes: { category: "AGENT" | "DASHBOARD"; provider: string | null; tags: string[] };
}

export interface Gateway {
  running: boolean;
  version: string | null;
  appVersion: string;
  uptime: number | null;
  pid: number | null;
  port: number | null;
  url: string | null;
  startedAt: string | null;
  updateAvailable: boolean | null;
  latestVersion: string | null;
  latencyMs: number | null;
  checkedAt: string | null;
  error: string | null;
}

export interface Resources {
  cpu: number | null;
  memoryMB: number | null;
  diskMB: number | null;
  diskFreeMB: number | null;
  sampledAt: string | null;
}

export interface Channel {
  provider: string;
  name: string;
  connected: boolean;
  latencyMs: number | null;
  lastError: string | null;
}

export interface HealthCheck {
  name: string;
  status: CheckStatus;
  message: string | null;
}

export interface SystemInfo {
  provider: string;
  demo: boolean;
  gateway: Gateway;
  resources: Resources;
  channels: Channel[];
  health: { status: HealthLevel; checks: HealthCheck[] };
}

export interface DashboardInfo {
  version: string;
  /** The daemon's clock (shifted in demo mode). */
  now: string;
  startedAt: string;
  uptimeSeconds: number;
  demo: boolean;
  authMode: string | null;
}

export interface MetricsBucket {
  start: number;
  end: number;
  label: string;
  tokens: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  turns: number;
  errors: number;
  warnings: number;
  uptimePercent: number | null;
}

export interface Metrics {
  range: MetricsRange;
  from: string;
  to: string;
  rangeTokensK: number;
  totalErrors: number;
  totalWarnings: number;
  totalTurns: number;
  costUsd: number;
  uptimePercent: number | null;
  tokensByModel: Array<{ model: string; tokens: number; costUsd: number }>;
  buckets: MetricsBucket[];
}

export type PeriodTotals = Pick<Metrics, "rangeTokensK" | "totalErrors" | "totalWarnings" | "totalTurns" | "costUsd" | "uptimePercent">;

export interface LifetimeStats {
  isReady: boolean;
  createdAt: string;
  daysSinceCreation: number;
  totalSessions: number;
  totalInputTokens: number;
  totalOutputTokens: number;
  totalCacheReadTokens: number;
  totalCacheWriteTokens: number;
  totalTokens: number;
  totalUserMessages: number;
  totalAssistantMessages: number;
  totalCostUsd: number;
}

export interface UsageCost {
  currency: string;
  totalUsd: number;
  todayUsd: number;
  byModel: Array<{ model: string; provider: string | null; costUsd: number; totalTokens: number; messages: number }>;
  byDay: Array<{ date: string; costUsd: number; totalTokens: number; messages: number }>;
}

export interface EventCounts {
  error: number;
  warning: number;
  restart: number;
}

export interface Session {
  key: string;
  displayName: string;
  kind: string;
  model: string | null;
  channel: string | null;
  status: SessionStatus;
  totalTokens: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  contextTokens: number | null;
  contextWindow: number | null;
  usagePercent: number | null;
  turnCount: number;
  assistantMessages: number;
  toolCalls: number;
  errors: number;
  updatedAt: string | null;
  startedAt: string | null;
  lastActivityAt: string | null;
  parentKey: string | null;
  thinkingLevel: string | null;
  windows: number;
}

export interface TranscriptMessage {
  id: string;
  cursor: string;
  role: string;
  text: string;
  timestamp: string | null;
  model: string | null;
  stopReason: string | null;
  errorMessage: string | null;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  totalTokens: number;
  costUsd: number | null;
  toolCalls: Array<{ id: string | null; name: string | null }>;
  toolName: string | null;
  isError: boolean;
}

export interface SessionTranscript {
  sessionKey: string;
  displayName: string;
  model: string;
  channel: string | null;
  kind: string;
  thinkingLevel: string | null;
  startedAt: string;
  fileSize: number;
  totalTokens: number;
  contextTokens: number;
  durationMs: number;
  isSubAgent: boolean;
  parentDisplayName: string | null;
  spawnPrompt: string | null;
  totalMessages: number;
  messages: TranscriptMessage[];
  pageInfo: { hasPreviousPage: boolean; hasNextPage: boolean; startCursor: string | null; endCursor: string | null };
}

export interface EventItem {
  ts: number;
  time: string;
  type: string;
  level: string;
  module: string;
  message: string;
  agentId: string | null;
  sessionKey: string | null;
}

export interface DensityBucket {
  hour: number;
  count: number;
  errorCount: number;
  warningCount: number;
  restartCount: number;
  epochStart: number;
}

export interface CronRun {
  id: string;
  status: string;
  startedAt: string | null;
  durationMs: number | null;
  error: string | null;
  summary: string | null;
  sessionKey: string | null;
  totalTokens: number | null;
}

export interface CronJob {
  id: string;
  name: string;
  agentId: string | null;
  enabled: boolean;
  schedule: string;
  scheduleKind: string;
  lastRunAt: string | null;
  lastStatus: string | null;
  lastDurationMs: number | null;
  lastError: string | null;
  nextRunAt: string | null;
  consecutiveErrors: number;
  recentRuns: CronRun[];
}

export interface LogEntry {
  time: string;
  level: string;
  module: string;
  message: string;
  agentId: string | null;
  sessionKey: string | null;
}

export interface OperationResult {
  ok: boolean;
  message: string;
  output: string;
  durationMs: number;
}
