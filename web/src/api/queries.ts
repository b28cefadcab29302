// Every GraphQL document the page sends, each with a typed function that runs it. Only the public
// API (daemon/graphql/schema.graphql) is used. Every root field gets the browser's locale and time
// zone, so bucket labels and "today" match what the user's clock says.
import { locale } from "../i18n/i18n";
import { gql } from "./graphql";
import type {
  CronJob,
  DashboardInfo,
  DataSource,
  DensityBucket,
  EventCounts,
  EventItem,
  LifetimeStats,
  LogEntry,
  Metrics,
  MetricsRange,
  OperationResult,
  PeriodTotals,
  Session,
  SessionTranscript,
  SystemInfo,
  UsageCost,
} from "./types";

function context(): { locale: string; timezone?: string } {
  let timezone: string | undefined;
  try {
    timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    timezone = undefined;
  }
  return timezone ? { locale: locale.value, timezone } : { locale: locale.value };
}

const agent = (agentId: string): { id: string } => ({ id: `agent:${agentId}` });

// ---------------------------------------------------------------------------------------------
// The shell: gateway, health, channels, sources, and the daemon's own clock.

export interface ShellData {
  system: SystemInfo;
  sources: DataSource[];
  self: DashboardInfo;
}

const SHELL = `query Shell($ctx: QueryContext) {
  system(context: $ctx) {
    ... on ProviderASystem {
      provider demo
      gateway { running version appVersion uptime pid port url startedAt updateAvailable latestVersion latencyMs checkedAt error }
      resources { cpu memoryMB diskMB diskFreeMB sampledAt }
      channels { provider name connected latencyMs lastError }
      health { status checks { name status message } }
    }
  }
  sources(context: $ctx) { id name status lastError since attributes { category provider tags } }
  self: source(selector: { id: "dashboard:self" }, context: $ctx) {
    ... on DashboardNamespace { version now startedAt uptimeSeconds demo authMode }
  }
}`;

export function fetchShell(signal: AbortSignal): Promise<ShellData> {
  return gql<ShellData>(SHELL, { ctx: context() }, signal);
}

// ---------------------------------------------------------------------------------------------
// Overview: metrics over the selected range, the period before it (for trends), lifetime, cost.

export interface OverviewData {
  metrics: Metrics;
  previous: PeriodTotals | null;
  lifetimeStats: LifetimeStats;
  usageCost: UsageCost;
  activeSessions: Session[];
}

const SESSION_FIELDS = `key displayName kind model channel status totalTokens inputTokens outputTokens cacheReadTokens cacheWriteTokens
  costUsd contextTokens contextWindow usagePercent turnCount assistantMessages toolCalls errors updatedAt startedAt lastActivityAt
  parentKey thinkingLevel windows`;

const OVERVIEW = `query Overview($sel: SourceSelector!, $range: MetricsRange!, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) {
    ... on AgentNamespace {
      metrics(range: $range) {
        range from to rangeTokensK totalErrors totalWarnings totalTurns costUsd uptimePercent
        tokensByModel { model tokens costUsd }
        buckets { start end label tokens inputTokens outputTokens cacheReadTokens cacheWriteTokens costUsd turns errors warnings uptimePercent }
      }
      lifetimeStats {
        isReady createdAt daysSinceCreation totalSessions totalInputTokens totalOutputTokens totalCacheReadTokens
        totalCacheWriteTokens totalTokens totalUserMessages totalAssistantMessages totalCostUsd
      }
      usageCost { currency totalUsd todayUsd byModel { model provider costUsd totalTokens messages } byDay { date costUsd totalTokens messages } }
      activeSessions: sessions(filter: { activeOnly: true, grouped: false, sortBy: UPDATED_AT, limit: 6 }) { ${SESSION_FIELDS} }
    }
  }
}`;

const PREVIOUS = `query PreviousPeriod($sel: SourceSelector!, $range: MetricsRange!, $date: String!, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) {
    ... on AgentNamespace { metrics(range: $range, date: $date) { rangeTokensK totalErrors totalWarnings totalTurns costUsd uptimePercent } }
  }
}`;

export async function fetchOverview(agentId: string, range: MetricsRange, signal: AbortSignal): Promise<OverviewData> {
  const cur = await gql<{ source: Omit<OverviewData, "previous"> }>(OVERVIEW, { sel: agent(agentId), range, ctx: context() }, signal);
  let previous: PeriodTotals | null = null;
  try {
    // The window right before this one ends where this one starts (`date` is exclusive).
    const prev = await gql<{ source: { metrics: PeriodTotals } }>(PREVIOUS, { sel: agent(agentId), range, date: cur.source.metrics.from, ctx: context() }, signal);
    previous = prev.source.metrics;
  } catch {
    previous = null; // trends are a nicety; the figures stand without them
  }
  return { ...cur.source, previous };
}

// ---------------------------------------------------------------------------------------------
// Sessions, flat (the page builds the sub-agent tree from parentKey, at any depth).

const SESSIONS = `query Sessions($sel: SourceSelector!, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) {
    ... on AgentNamespace { sessions(filter: { grouped: false, sortBy: UPDATED_AT, limit: 1000 }) { ${SESSION_FIELDS} } }
  }
}`;

export async function fetchSessions(agentId: string, signal: AbortSignal): Promise<Session[]> {
  return (await gql<{ source: { sessions: Session[] } }>(SESSIONS, { sel: agent(agentId), ctx: context() }, signal)).source.sessions;
}

// ---------------------------------------------------------------------------------------------
// One session's transcript, a page at a time.

const MESSAGE_FIELDS = `id cursor role text timestamp model stopReason errorMessage inputTokens outputTokens cacheReadTokens
  cacheWriteTokens totalTokens costUsd toolCalls { id name } toolName isError`;

const TRANSCRIPT = `query Transcript($sel: SourceSelector!, $key: String!, $limit: Int, $before: String, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) {
    ... on AgentNamespace {
      session(key: $key) { ${SESSION_FIELDS} }
      sessionTranscript(sessionKey: $key, limit: $limit, before: $before) {
        sessionKey displayName model channel kind thinkingLevel startedAt fileSize totalTokens contextTokens durationMs
        isSubAgent parentDisplayName spawnPrompt totalMessages
        pageInfo { hasPreviousPage hasNextPage startCursor endCursor }
        messages { ${MESSAGE_FIELDS} }
      }
    }
  }
}`;

export interface TranscriptData {
  session: Session | null;
  sessionTranscript: SessionTranscript;
}

export async function fetchTranscript(agentId: string, key: string, opts: { limit: number; before?: string | null }, signal?: AbortSignal): Promise<TranscriptData> {
  const vars = { sel: agent(agentId), key, limit: opts.limit, before: opts.before ?? null, ctx: context() };
  return (await gql<{ source: TranscriptData }>(TRANSCRIPT, vars, signal)).source;
}

// ---------------------------------------------------------------------------------------------
// Events: the last 24 hours' density strip, counts and the list.

export interface EventsData {
  eventDensity: DensityBucket[];
  eventCounts: EventCounts;
  events: EventItem[];
}

const EVENTS = `query Events($sel: SourceSelector!, $from: Int, $to: Int, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) {
    ... on AgentNamespace {
      eventDensity { hour count errorCount warningCount restartCount epochStart }
      eventCounts { error warning restart }
      events(from: $from, to: $to, limit: 1000) { ts time type level module message agentId sessionKey }
    }
  }
}`;

/** `from`/`to` narrow the list (epoch seconds); `eventCounts` covers everything recorded. */
export async function fetchEvents(agentId: string, window: { from: number | null; to: number | null }, signal: AbortSignal): Promise<EventsData> {
  const vars = { sel: agent(agentId), from: window.from, to: window.to, ctx: context() };
  return (await gql<{ source: EventsData }>(EVENTS, vars, signal)).source;
}

// ---------------------------------------------------------------------------------------------
// Cron jobs.

const CRON = `query Cron($sel: SourceSelector!, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) {
    ... on AgentNamespace {
      cronJobs {
        id name agentId enabled schedule scheduleKind lastRunAt lastStatus lastDurationMs lastError nextRunAt consecutiveErrors
        recentRuns { id status startedAt durationMs error summary sessionKey totalTokens }
      }
    }
  }
}`;

export async function fetchCron(agentId: string, signal: AbortSignal): Promise<CronJob[]> {
  return (await gql<{ source: { cronJobs: CronJob[] } }>(CRON, { sel: agent(agentId), ctx: context() }, signal)).source.cronJobs;
}

// ---------------------------------------------------------------------------------------------
// The gateway log: the latest lines, then the live stream (see views/Logs).

const RECENT_LOGS = `query RecentLogs($sel: SourceSelector!, $count: Int, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) { ... on AgentNamespace { recentLogs(count: $count) { time level module message agentId sessionKey } } }
}`;

export async function fetchRecentLogs(agentId: string, count: number, signal: AbortSignal): Promise<LogEntry[]> {
  return (await gql<{ source: { recentLogs: LogEntry[] } }>(RECENT_LOGS, { sel: agent(agentId), count, ctx: context() }, signal)).source.recentLogs;
}

export const LOGS_SUBSCRIPTION = `subscription Logs($filter: LogFilter) { logs(filter: $filter) { time level module message agentId sessionKey } }`;

// ---------------------------------------------------------------------------------------------
// Gateway control.

export type GatewayOperation = "restart" | "update";

export async function runOperation(op: GatewayOperation): Promise<OperationResult> {
  const field = op === "restart" ? "restartGateway" : "updateGateway";
  const data = await gql<Record<string, OperationResult>>(`mutation { ${field} { ok message output durationMs } }`);
  return data[field] as OperationResult;
}
