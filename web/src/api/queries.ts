// Every GraphQL document the page sends, each with a typed function that runs it. Only the public
// API (daemon/graphql/schema.graphql) is used. Every root field gets the browser's locale and time
// zone, so bucket labels and "today" match what the user's clock says.
import { PROVIDER_IDENTITIES } from "../../../shared/providers/registry";
import { locale } from "../i18n/i18n";
import { gql } from "./graphql";
import type {
  AnySystem,
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
  ProjectUsage,
  Provider,
  RateLimits,
  Session,
  SessionTranscript,
  SourcedSession,
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

/** Every view names its data source by id: `agent:main`, `claude-code:default`, `codex:default`. */
const source = (id: string): { id: string } => ({ id });

// ---------------------------------------------------------------------------------------------
// The shell: every provider's system (OpenClaw's gateway, the CLIs' processes) and health, the
// sources, and the daemon's own clock and the providers it reads.
export interface ShellData {
  systems: AnySystem[];
  sources: DataSource[];
  self: DashboardInfo;
}

const LIVE_SESSION_FIELDS = "source sessionKey pid startedAt status project cliVersion cpu memoryMB";

const SHELL = `query Shell($ctx: QueryContext) {
  systems(context: $ctx) {
    provider
    health { status verdict checks { name status message } }
    ... on ProviderASystem {
      demo
      gateway { state running version appVersion uptime pid port url startedAt updateAvailable latestVersion latencyMs checkedAt error }
      resources { cpu memoryMB diskMB diskFreeMB sampledAt }
      channels { provider name connected latencyMs lastError }
    }
    ... on ProviderBSystem { demo versions liveSessions { ${LIVE_SESSION_FIELDS} } }
    ... on ProviderCSystem { demo versions liveSessions { ${LIVE_SESSION_FIELDS} } }
    ... on ProviderDSystem { demo versions liveSessions { ${LIVE_SESSION_FIELDS} } }
  }
  sources(context: $ctx) { id name status lastError since attributes { category provider tags } }
  self: source(selector: { id: "dashboard:self" }, context: $ctx) {
    ... on DashboardNamespace { version now startedAt uptimeSeconds demo authMode providers }
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
  /** Over the overview's range; [] for OpenClaw (its sessions have no working directory). */
  projects: ProjectUsage[];
}

const SESSION_FIELDS = `key displayName kind model channel status totalTokens inputTokens outputTokens cacheReadTokens cacheWriteTokens
  costUsd unpricedResponses contextTokens contextWindow usagePercent turnCount assistantMessages toolCalls errors updatedAt startedAt lastActivityAt
  parentKey thinkingLevel windows project gitBranch`;

const PROJECT_FIELDS = "project sessions totalTokens inputTokens outputTokens cacheReadTokens cacheWriteTokens costUsd unpricedResponses turns lastActivityAt";

const OVERVIEW = `query Overview($sel: SourceSelector!, $range: MetricsRange!, $projects: Boolean!, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) {
    ... on AgentNamespace {
      metrics(range: $range) {
        range from to lastActivityAt rangeTokensK totalErrors totalWarnings totalTurns costUsd uptimePercent
        tokensByModel { model tokens costUsd }
        buckets { start end label tokens inputTokens outputTokens cacheReadTokens cacheWriteTokens costUsd turns errors warnings uptimePercent }
      }
      lifetimeStats {
        isReady createdAt daysSinceCreation totalSessions totalInputTokens totalOutputTokens totalCacheReadTokens
        totalCacheWriteTokens totalTokens totalUserMessages totalAssistantMessages totalCostUsd
      }
      usageCost { currency totalUsd todayUsd monthUsd monthTokens byModel { model provider costUsd totalTokens messages } byDay { date costUsd totalTokens messages } }
      activeSessions: sessions(filter: { activeOnly: true, grouped: false, sortBy: UPDATED_AT, limit: 6 }) { ${SESSION_FIELDS} }
      projects(range: $range) @include(if: $projects) { ${PROJECT_FIELDS} }
    }
  }
}`;

const PREVIOUS = `query PreviousPeriod($sel: SourceSelector!, $range: MetricsRange!, $date: String!, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) {
    ... on AgentNamespace { metrics(range: $range, date: $date) { rangeTokensK totalErrors totalWarnings totalTurns costUsd uptimePercent } }
  }
}`;

/** `projects`: ask for the per-project breakdown (Claude Code, Codex). */
export async function fetchOverview(sourceId: string, range: MetricsRange, projects: boolean, signal: AbortSignal): Promise<OverviewData> {
  const cur = await gql<{ source: Omit<OverviewData, "previous" | "projects"> & { projects?: ProjectUsage[] } }>(OVERVIEW, { sel: source(sourceId), range, projects, ctx: context() }, signal);
  let previous: PeriodTotals | null = null;
  try {
    // The window right before this one ends where this one starts (`date` is exclusive).
    const prev = await gql<{ source: { metrics: PeriodTotals } }>(PREVIOUS, { sel: source(sourceId), range, date: cur.source.metrics.from, ctx: context() }, signal);
    previous = prev.source.metrics;
  } catch {
    previous = null; // trends are a nicety; the figures stand without them
  }
  return { ...cur.source, projects: cur.source.projects ?? [], previous };
}

// ---------------------------------------------------------------------------------------------
// The combined overview ("All providers"): each source's figures over the range, asked in one
// request per source (no alias limit to run into, however many agents there are), added up here.
export interface SourceFigures {
  source: string;
  metrics: Metrics;
  usageCost: Pick<UsageCost, "todayUsd" | "totalUsd" | "monthUsd" | "monthTokens">;
  lifetimeStats: Pick<LifetimeStats, "totalTokens">;
  /** Every active session (at most 1000), newest first. */
  active: Session[];
  projects: ProjectUsage[];
}

const COMBINED = `query SourceFigures($sel: SourceSelector!, $range: MetricsRange!, $projects: Boolean!, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) {
    ... on AgentNamespace {
      metrics(range: $range) {
        range from to lastActivityAt rangeTokensK totalErrors totalWarnings totalTurns costUsd uptimePercent
        tokensByModel { model tokens costUsd }
        buckets { start end label tokens inputTokens outputTokens cacheReadTokens cacheWriteTokens costUsd turns errors warnings uptimePercent }
      }
      usageCost { todayUsd totalUsd monthUsd monthTokens }
      lifetimeStats { totalTokens }
      active: sessions(filter: { activeOnly: true, grouped: false, sortBy: UPDATED_AT, limit: 1000 }) { ${SESSION_FIELDS} }
      projects(range: $range) @include(if: $projects) { ${PROJECT_FIELDS} }
    }
  }
}`;

/** `withProjects`: the source ids whose projects to ask for (Claude Code's and Codex's). */
export async function fetchCombined(sourceIds: readonly string[], withProjects: ReadonlySet<string>, range: MetricsRange, signal: AbortSignal): Promise<SourceFigures[]> {
  const ctx = context();
  return Promise.all(
    sourceIds.map(async (id) => {
      const r = await gql<{ source: Omit<SourceFigures, "source" | "projects"> & { projects?: ProjectUsage[] } }>(COMBINED, { sel: source(id), range, projects: withProjects.has(id), ctx }, signal);
      return { ...r.source, projects: r.source.projects ?? [], source: id };
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The plan's rate limits of a provider that records them (the `rateLimits` capability): the newest
// figures per install and the history of used % for the chart. One fragment per such system type,
// from the registry, so a provider gaining the capability needs nothing here.
const LIMITS_ON = PROVIDER_IDENTITIES.filter((p) => p.capabilities.rateLimits)
  .map((p) => `... on ${p.systemType} { rateLimits { ...Limits } rateLimitsBySource { ...Limits } }`)
  .join("\n    ");
const WINDOW = "usedPercent windowMinutes resetsAt projection { status burnPercentPerHour fullAt resetsAt beforeReset }";
const RATE_LIMITS = `query RateLimits($provider: Provider!, $days: Int, $ctx: QueryContext) {
  system(provider: $provider, context: $ctx) {
    ${LIMITS_ON}
  }
}
fragment Limits on RateLimits {
  source limitId planType updatedAt stale
  primary { ${WINDOW} }
  secondary { ${WINDOW} }
  credits { hasCredits unlimited balance }
  history(days: $days) { time primaryUsedPercent secondaryUsedPercent }
}`;

export interface RateLimitsData {
  rateLimits: RateLimits | null;
  rateLimitsBySource: RateLimits[];
}

export async function fetchRateLimits(provider: Provider, days: number, signal: AbortSignal): Promise<RateLimitsData> {
  return (await gql<{ system: RateLimitsData }>(RATE_LIMITS, { provider, days, ctx: context() }, signal)).system;
}

// ---------------------------------------------------------------------------------------------
// Sessions, flat (the page builds the sub-agent tree from parentKey, at any depth).

const SESSIONS = `query Sessions($sel: SourceSelector!, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) {
    ... on AgentNamespace { sessions(filter: { grouped: false, sortBy: UPDATED_AT, limit: 1000 }) { ${SESSION_FIELDS} } }
  }
}`;

export async function fetchSessions(sourceId: string, signal: AbortSignal): Promise<SourcedSession[]> {
  const list = (await gql<{ source: { sessions: Session[] } }>(SESSIONS, { sel: source(sourceId), ctx: context() }, signal)).source.sessions;
  return list.map((s) => ({ ...s, source: sourceId }));
}

/** Every source's sessions in one list ("All providers"), each tagged with its source. */
export async function fetchAllSessions(sourceIds: readonly string[], signal: AbortSignal): Promise<SourcedSession[]> {
  return (await Promise.all(sourceIds.map((id) => fetchSessions(id, signal)))).flat();
}

// ---------------------------------------------------------------------------------------------
// One session's transcript, a page at a time.

const MESSAGE_FIELDS = `id cursor role text timestamp model stopReason errorMessage inputTokens outputTokens cacheReadTokens
  cacheWriteTokens totalTokens costUsd toolCalls { id name } toolName isError`;

const TRANSCRIPT = `query Transcript($sel: SourceSelector!, $key: String!, $limit: Int, $before: String, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) {
    ... on AgentNamespace {
      session(key: $key) { ${SESSION_FIELDS} subAgents { key displayName status totalTokens costUsd kind } }
      sessionTranscript(sessionKey: $key, limit: $limit, before: $before) {
        sessionKey displayName model channel kind thinkingLevel startedAt fileSize totalTokens contextTokens durationMs
        isSubAgent parentDisplayName spawnPrompt totalMessages
        pageInfo { hasPreviousPage hasNextPage startCursor endCursor }
        messages { ${MESSAGE_FIELDS} }
      }
    }
  }
}`;

export type SubAgent = Pick<Session, "key" | "displayName" | "status" | "totalTokens" | "costUsd" | "kind">;

export interface TranscriptData {
  session: (Session & { subAgents: SubAgent[] }) | null;
  sessionTranscript: SessionTranscript;
}

export async function fetchTranscript(sourceId: string, key: string, opts: { limit: number; before?: string | null }, signal?: AbortSignal): Promise<TranscriptData> {
  const vars = { sel: source(sourceId), key, limit: opts.limit, before: opts.before ?? null, ctx: context() };
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
export async function fetchEvents(sourceId: string, window: { from: number | null; to: number | null }, signal: AbortSignal): Promise<EventsData> {
  const vars = { sel: source(sourceId), from: window.from, to: window.to, ctx: context() };
  return (await gql<{ source: EventsData }>(EVENTS, vars, signal)).source;
}

// ---------------------------------------------------------------------------------------------
// Cron jobs.

const CRON = `query Cron($sel: SourceSelector!, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) {
    ... on AgentNamespace {
      cronJobs {
        id name agentId enabled schedule scheduleKind lastRunAt lastStatus lastDurationMs lastError nextRunAt overdue overdueSeconds consecutiveErrors
        recentRuns { id status startedAt durationMs error summary sessionKey totalTokens }
      }
    }
  }
}`;

export async function fetchCron(sourceId: string, signal: AbortSignal): Promise<CronJob[]> {
  return (await gql<{ source: { cronJobs: CronJob[] } }>(CRON, { sel: source(sourceId), ctx: context() }, signal)).source.cronJobs;
}

// ---------------------------------------------------------------------------------------------
// The gateway log: the latest lines, then the live stream (see views/Logs).

const RECENT_LOGS = `query RecentLogs($sel: SourceSelector!, $count: Int, $ctx: QueryContext) {
  source(selector: $sel, context: $ctx) { ... on AgentNamespace { recentLogs(count: $count) { time level module message agentId sessionKey } } }
}`;

export async function fetchRecentLogs(sourceId: string, count: number, signal: AbortSignal): Promise<LogEntry[]> {
  return (await gql<{ source: { recentLogs: LogEntry[] } }>(RECENT_LOGS, { sel: source(sourceId), count, ctx: context() }, signal)).source.recentLogs;
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
