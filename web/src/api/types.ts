// The shapes of the API answers this page asks for: each picks the fields its query selects from
// the schema's own types (schema.generated.ts, made from daemon/graphql/schema.graphql by
// `npm run codegen`), so a field renamed or removed in the schema fails this file's type check.
import type * as S from "./schema.generated.js";
import type { EnumWith, EnumWithout } from "../../../shared/providers/registry";

export type SourceStatus = S.SourceStatus;
export type HealthLevel = S.HealthLevel;
export type CheckStatus = S.CheckStatus;
export type SessionStatus = S.SessionStatus;
export type MetricsRange = S.MetricsRange;
export type LogLevel = S.LogLevel;

export type DataSource = Pick<S.DataSource, "id" | "name" | "status" | "lastError" | "since"> & {
  attributes: Pick<S.SourceAttributes, "category" | "provider" | "tags">;
};

export type Provider = S.Provider;
export type HealthVerdict = S.HealthVerdict;
export type GatewayState = S.GatewayState;

export type Gateway = Pick<
  S.Gateway,
  "state" | "running" | "version" | "appVersion" | "uptime" | "pid" | "port" | "url" | "startedAt" | "updateAvailable" | "latestVersion" | "latencyMs" | "checkedAt" | "error"
>;
export type Resources = Pick<S.Resources, "cpu" | "memoryMB" | "diskMB" | "diskFreeMB" | "sampledAt">;
export type Channel = Pick<S.Channel, "provider" | "name" | "connected" | "latencyMs" | "lastError">;
export type HealthCheck = Pick<S.HealthCheck, "name" | "status" | "message">;

export type Health = Pick<S.Health, "status" | "verdict"> & { checks: HealthCheck[] };

/** The system of the provider with an agent gateway (OpenClaw's ProviderASystem): its gateway. */
export type SystemInfo = Pick<S.ProviderASystem, "demo"> & {
  provider: EnumWith<"gateway">;
  gateway: Gateway;
  resources: Resources;
  channels: Channel[];
  health: Health;
};

export type LiveSession = Pick<S.LiveSession, "source" | "sessionKey" | "pid" | "startedAt" | "status" | "project" | "cliVersion" | "cpu" | "memoryMB">;

/** A CLI provider's system (Claude Code's ProviderBSystem, Codex's ProviderCSystem): the CLI's installs. */
export type CliSystem = Pick<S.ProviderBSystem, "demo" | "versions"> & {
  provider: EnumWithout<"gateway">;
  liveSessions: LiveSession[];
  health: Health;
};

export type AnySystem = SystemInfo | CliSystem;

export type RateLimitProjection = Pick<S.RateLimitProjection, "status" | "burnPercentPerHour" | "fullAt" | "resetsAt" | "beforeReset">;
export type RateLimitWindow = Pick<S.RateLimitWindow, "usedPercent" | "windowMinutes" | "resetsAt"> & { projection: RateLimitProjection };
export type RateLimitSample = Pick<S.RateLimitSample, "time" | "primaryUsedPercent" | "secondaryUsedPercent">;
export type RateLimits = Pick<S.RateLimits, "source" | "limitId" | "planType" | "updatedAt" | "stale"> & {
  primary: RateLimitWindow | null;
  secondary: RateLimitWindow | null;
  credits: Pick<S.RateLimitCredits, "hasCredits" | "unlimited" | "balance"> | null;
  history: RateLimitSample[];
};

/** `now` is the daemon's clock (shifted in demo mode). */
export type DashboardInfo = Pick<S.DashboardNamespace, "version" | "now" | "startedAt" | "uptimeSeconds" | "demo" | "authMode" | "providers">;

export type MetricsBucket = Pick<
  S.MetricsBucket,
  "start" | "end" | "label" | "tokens" | "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens" | "costUsd" | "turns" | "errors" | "warnings" | "uptimePercent"
>;

export type Metrics = Pick<S.Metrics, "range" | "from" | "to" | "lastActivityAt" | "rangeTokensK" | "totalErrors" | "totalWarnings" | "totalTurns" | "costUsd" | "uptimePercent"> & {
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

export type UsageCost = Pick<S.UsageCost, "currency" | "totalUsd" | "todayUsd" | "monthUsd" | "monthTokens"> & {
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
  | "project"
  | "gitBranch"
  | "unpricedResponses"
>;

/** A session with the source it belongs to (the "All providers" lists mix sources). */
export type SourcedSession = Session & { source: string };

export type ProjectUsage = Pick<
  S.ProjectUsage,
  "project" | "sessions" | "totalTokens" | "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens" | "costUsd" | "unpricedResponses" | "turns" | "lastActivityAt"
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
  "id" | "name" | "agentId" | "enabled" | "schedule" | "scheduleKind" | "lastRunAt" | "lastStatus" | "lastDurationMs" | "lastError" | "nextRunAt" | "overdue" | "overdueSeconds" | "consecutiveErrors"
> & { recentRuns: CronRun[] };

export type LogEntry = Pick<S.LogEntry, "time" | "level" | "module" | "message" | "agentId" | "sessionKey">;

export type OperationResult = Pick<S.OperationResult, "ok" | "message" | "output" | "durationMs">;

// Alerts (docs/alerting.md): daemon-wide, for every provider.
export type AlertSeverity = S.AlertSeverity;
export type AlertMetric = S.AlertMetric;
export type AlertWindow = S.AlertWindow;
export type AlertChannelType = S.AlertChannelType;
export type AlertRuleOrigin = S.AlertRuleOrigin;

export type AlertProjection = Pick<S.AlertProjection, "target" | "projectedTotal" | "reachesAt" | "windowEnd">;

/** An alert episode firing now (or in the history of one). */
export type ActiveAlert = Pick<S.Alert, "id" | "ruleId" | "ruleName" | "metric" | "subject" | "label" | "severity" | "value" | "threshold" | "unit" | "since" | "notified"> & {
  projection: AlertProjection | null;
  rule: Pick<S.AlertRule, "name" | "window" | "muted" | "mutedUntil"> | null;
};

export type AlertScope = Pick<S.AlertScope, "provider" | "source" | "project" | "model">;

export type AlertRule = Pick<
  S.AlertRule,
  "id" | "name" | "enabled" | "metric" | "window" | "unit" | "budget" | "warning" | "critical" | "check" | "cooldownMinutes" | "channels" | "origin" | "overridden" | "editable" | "muted" | "mutedUntil" | "mutedBy"
> & { scope: AlertScope };

/** A channel as the API shows it: never a secret, only whether one is set. */
export type AlertChannel = Pick<S.AlertChannel, "id" | "type" | "name" | "enabled" | "target" | "secretSet" | "minSeverity" | "sendResolved" | "timeoutSeconds" | "origin" | "editable">;

export type AlertDelivery = Pick<S.AlertDelivery, "channelId" | "outcome" | "attempts" | "error" | "at">;

export type AlertEvent = Pick<S.AlertEvent, "id" | "at" | "alertId" | "ruleId" | "subject" | "kind" | "severity" | "value" | "threshold" | "notified" | "withheld" | "detail"> & {
  deliveries: AlertDelivery[];
};

export type AlertRuleInput = S.AlertRuleInput;
export type AlertRulePatch = S.AlertRulePatch;
export type AlertChannelInput = S.AlertChannelInput;
export type AlertChannelPatch = S.AlertChannelPatch;
