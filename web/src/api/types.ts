// The shapes of the API answers this page asks for: each picks the fields its query selects from
// the schema's own types (schema.generated.ts, made from daemon/graphql/schema.graphql by
// `npm run codegen`), so a field renamed or removed in the schema fails this file's type check.
import type * as S from "./schema.generated.js";

export type SourceStatus = S.SourceStatus;
export type HealthLevel = S.HealthLevel;
export type CheckStatus = S.CheckStatus;
export type SessionStatus = S.SessionStatus;
export type MetricsRange = S.MetricsRange;
export type LogLevel = S.LogLevel;

export type DataSource = Pick<S.DataSource, "id" | "name" | "status" | "lastError" | "since"> & {
  attributes: Pick<S.SourceAttributes, "category" | "provider" | "tags">;
};

export type Gateway = Pick<
  S.Gateway,
  "running" | "version" | "appVersion" | "uptime" | "pid" | "port" | "url" | "startedAt" | "updateAvailable" | "latestVersion" | "latencyMs" | "checkedAt" | "error"
>;
export type Resources = Pick<S.Resources, "cpu" | "memoryMB" | "diskMB" | "diskFreeMB" | "sampledAt">;
export type Channel = Pick<S.Channel, "provider" | "name" | "connected" | "latencyMs" | "lastError">;
export type HealthCheck = Pick<S.HealthCheck, "name" | "status" | "message">;

export type SystemInfo = Pick<S.ProviderASystem, "provider" | "demo"> & {
  gateway: Gateway;
  resources: Resources;
  channels: Channel[];
  health: { status: HealthLevel; checks: HealthCheck[] };
};

/** `now` is the daemon's clock (shifted in demo mode). */
export type DashboardInfo = Pick<S.DashboardNamespace, "version" | "now" | "startedAt" | "uptimeSeconds" | "demo" | "authMode">;

export type MetricsBucket = Pick<
  S.MetricsBucket,
  "start" | "end" | "label" | "tokens" | "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens" | "costUsd" | "turns" | "errors" | "warnings" | "uptimePercent"
>;

export type Metrics = Pick<S.Metrics, "range" | "from" | "to" | "rangeTokensK" | "totalErrors" | "totalWarnings" | "totalTurns" | "costUsd" | "uptimePercent"> & {
  tokensByModel: Array<Pick<S.ModelTokens, "model" | "tokens" | "costUsd">>;
  buckets: MetricsBucket[];
};

export type PeriodTotals = Pick<Metrics, "rangeTokensK" | "totalErrors" | "totalWarnings" | "totalTurns" | "costUsd" | "uptimePercent">;

export type LifetimeStats = Pick<
  S.LifetimeStats,
  | "isReady"
  | "createdAt"
  | "daysSinceCreation"
  | "totalSessions"
  | "totalInputTokens"
  | "totalOutputTokens"
  | "totalCacheReadTokens"
  | "totalCacheWriteTokens"
  | "totalTokens"
  | "totalUserMessages"
  | "totalAssistantMessages"
  | "totalCostUsd"
>;

export type UsageCost = Pick<S.UsageCost, "currency" | "totalUsd" | "todayUsd"> & {
  byModel: Array<Pick<S.ModelCost, "model" | "provider" | "costUsd" | "totalTokens" | "messages">>;
  byDay: Array<Pick<S.DayCost, "date" | "costUsd" | "totalTokens" | "messages">>;
};

export type EventCounts = Pick<S.EventCounts, "error" | "warning" | "restart">;

export type Session = Pick<
  S.Session,
  | "key"
  | "displayName"
  | "kind"
  | "model"
  | "channel"
  | "status"
  | "totalTokens"
  | "inputTokens"
  | "outputTokens"
  | "cacheReadTokens"
  | "cacheWriteTokens"
  | "costUsd"
  | "contextTokens"
  | "contextWindow"
  | "usagePercent"
  | "turnCount"
  | "assistantMessages"
  | "toolCalls"
  | "errors"
  | "updatedAt"
  | "startedAt"
  | "lastActivityAt"
  | "parentKey"
  | "thinkingLevel"
  | "windows"
>;

export type TranscriptMessage = Pick<
  S.TranscriptMessage,
  | "id"
  | "cursor"
  | "role"
  | "text"
  | "timestamp"
  | "model"
  | "stopReason"
  | "errorMessage"
  | "inputTokens"
  | "outputTokens"
  | "cacheReadTokens"
  | "cacheWriteTokens"
  | "totalTokens"
  | "costUsd"
  | "toolName"
  | "isError"
> & { toolCalls: Array<Pick<S.ToolCall, "id" | "name">> };

export type SessionTranscript = Pick<
  S.SessionTranscript,
  | "sessionKey"
  | "displayName"
  | "model"
  | "channel"
  | "kind"
  | "thinkingLevel"
  | "startedAt"
  | "fileSize"
  | "totalTokens"
  | "contextTokens"
  | "durationMs"
  | "isSubAgent"
  | "parentDisplayName"
  | "spawnPrompt"
  | "totalMessages"
> & {
  messages: TranscriptMessage[];
  pageInfo: Pick<S.PageInfo, "hasPreviousPage" | "hasNextPage" | "startCursor" | "endCursor">;
};

export type EventItem = Pick<S.Event, "ts" | "time" | "type" | "level" | "module" | "message" | "agentId" | "sessionKey">;

export type DensityBucket = Pick<S.EventDensityBucket, "hour" | "count" | "errorCount" | "warningCount" | "restartCount" | "epochStart">;

export type CronRun = Pick<S.CronRun, "id" | "status" | "startedAt" | "durationMs" | "error" | "summary" | "sessionKey" | "totalTokens">;

export type CronJob = Pick<
  S.CronJob,
  "id" | "name" | "agentId" | "enabled" | "schedule" | "scheduleKind" | "lastRunAt" | "lastStatus" | "lastDurationMs" | "lastError" | "nextRunAt" | "consecutiveErrors"
> & { recentRuns: CronRun[] };

export type LogEntry = Pick<S.LogEntry, "time" | "level" | "module" | "message" | "agentId" | "sessionKey">;

export type OperationResult = Pick<S.OperationResult, "ok" | "message" | "output" | "durationMs">;
