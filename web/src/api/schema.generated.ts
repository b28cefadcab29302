// Generated from schema.graphql by daemon/graphql/codegen.ts (`npm run codegen`). Do not edit.
/* eslint-disable */
export type Maybe<T> = T | null;
export type InputMaybe<T> = T | null | undefined;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
};

export type Query = {
  /**
   * One provider's system: select its namespace with `... on ProviderASystem` (OpenClaw's gateway),
   * `... on ProviderBSystem` (Claude Code) or `... on ProviderCSystem` (Codex). Without `provider`,
   * the first provider read in A, B, C order; a provider not read here is NOT_FOUND.
   */
  system: SystemNamespace;
  /** Every provider read here, in A, B, C order. */
  systems: Array<SystemNamespace>;
  /**
   * Every data source: one AGENT source per OpenClaw agent (`agent:<id>`), Claude Code install
   * (`claude-code:<name>`) and Codex install (`codex:<name>`), plus `dashboard:self`.
   */
  sources: Array<DataSource>;
  /**
   * One source's data. The selector must match exactly one source: none is NOT_FOUND, several is
   * AMBIGUOUS_SELECTOR with the matching ids in `extensions.matches`.
   */
  source: SourceNamespace;
};


export type QuerySystemArgs = {
  provider: InputMaybe<Provider>;
  context: InputMaybe<QueryContext>;
};


export type QuerySystemsArgs = {
  context: InputMaybe<QueryContext>;
};


export type QuerySourcesArgs = {
  filter: InputMaybe<SourceFilter>;
  context: InputMaybe<QueryContext>;
};


export type QuerySourceArgs = {
  selector: InputMaybe<SourceSelector>;
  context: InputMaybe<QueryContext>;
};

export type Mutation = {
  /**
   * Runs `openclaw gateway restart` (timeout 120 s). Refused with OPERATION_IN_PROGRESS while
   * another gateway operation runs. Audited in the daemon log with who asked.
   */
  restartGateway: OperationResult;
  /** Runs `openclaw update` (timeout 600 s). Same rules as restartGateway. */
  updateGateway: OperationResult;
};

export type Subscription = {
  /**
   * A lightweight signal whenever a data source updates (coalesced to at most 4 per second per
   * source). Refetch what you show.
   */
  dataChanged: DataChange;
  /** Parsed gateway log lines as they are written, filtered by minimum level, module and agent. */
  logs: LogEntry;
};


export type SubscriptionLogsArgs = {
  filter: InputMaybe<LogFilter>;
};

/** Optional on every root query: tracing, display preferences and default filters. */
export type QueryContext = {
  /** Echoed into the daemon's access log line for this request (letters, digits, `-_.:`, at most 64). */
  traceId: InputMaybe<Scalars['String']['input']>;
  /** BCP 47 language for labels, e.g. `en`, `zh-CN`. Default `en`. */
  locale: InputMaybe<Scalars['String']['input']>;
  /** IANA time zone for bucket labels and day boundaries, e.g. `Asia/Shanghai`. Default: the daemon host's zone. */
  timezone: InputMaybe<Scalars['String']['input']>;
  /** Used by `metrics` when its `range` argument is absent. */
  defaultRange: InputMaybe<MetricsRange>;
  /** Used by `sources` and `source` when their filter or selector names no tags. */
  tags: InputMaybe<Array<Scalars['String']['input']>>;
};

export type SourceStatus =
  /** Until the first full read ends. */
  | 'INITIALIZING'
  /** Reads succeed. */
  | 'CONNECTED'
  /** The backing store (state dir, agent database) is gone. */
  | 'DISCONNECTED'
  /** Reads fail (corrupt database, permission); see `lastError`. */
  | 'ERROR';

export type Category =
  | 'AGENT'
  | 'DASHBOARD';

/** PROVIDER_A is OpenClaw, PROVIDER_B Claude Code, PROVIDER_C Codex. */
export type Provider =
  | 'PROVIDER_A'
  | 'PROVIDER_B'
  | 'PROVIDER_C';

export type DataSource = {
  /** `agent:<agentId>` (OpenClaw), `claude-code:<name>`, `codex:<name>` (`default` for the default dir), or `dashboard:self`. */
  id: Scalars['String']['output'];
  name: Scalars['String']['output'];
  status: SourceStatus;
  attributes: SourceAttributes;
  lastError: Maybe<Scalars['String']['output']>;
  /** When the status last changed. */
  since: Maybe<Scalars['String']['output']>;
};

export type SourceAttributes = {
  category: Category;
  /** Null for `dashboard:self`. */
  provider: Maybe<Provider>;
  /** The provider (`openclaw`, `claude-code`, `codex`) and the agent id or install name. */
  tags: Array<Scalars['String']['output']>;
};

/** Every given field must match; tags must all be present. */
export type SourceFilter = {
  category: InputMaybe<Category>;
  provider: InputMaybe<Provider>;
  status: InputMaybe<SourceStatus>;
  tags: InputMaybe<Array<Scalars['String']['input']>>;
};

export type SourceSelector = {
  id: InputMaybe<Scalars['String']['input']>;
  category: InputMaybe<Category>;
  provider: InputMaybe<Provider>;
  tags: InputMaybe<Array<Scalars['String']['input']>>;
};

export type SourceNamespace = AgentNamespace | DashboardNamespace;

export type SystemNamespace = {
  provider: Provider;
  health: Health;
};

/** OpenClaw's gateway. */
export type ProviderASystem = SystemNamespace & {
  provider: Provider;
  /** True when gateway-insights serves its bundled demo state (no gateway is watched). */
  demo: Scalars['Boolean']['output'];
  gateway: Gateway;
  resources: Resources;
  channels: Array<Channel>;
  health: Health;
};

/** What the gateway is, for its label. */
export type GatewayState =
  /** /healthz answered ok at the last probe. */
  | 'UP'
  /** /healthz did not answer ok. */
  | 'DOWN'
  /** gateway-insights serves its bundled demo state (whether or not a demo gateway answers). */
  | 'DEMO'
  /** The first probe has not finished yet. */
  | 'UNKNOWN';

export type Gateway = {
  /** The one field a gateway label reads (up, down, demo, not known yet); `running` is only the /healthz result. */
  state: GatewayState;
  /** Whether /healthz answered ok at the last probe. */
  running: Scalars['Boolean']['output'];
  /** OpenClaw's version, e.g. `2026.9.6`. */
  version: Maybe<Scalars['String']['output']>;
  /** gateway-insights' own version. */
  appVersion: Scalars['String']['output'];
  /** Seconds since the gateway started; null while it is down. */
  uptime: Maybe<Scalars['Int']['output']>;
  pid: Maybe<Scalars['Int']['output']>;
  port: Maybe<Scalars['Int']['output']>;
  url: Maybe<Scalars['String']['output']>;
  startedAt: Maybe<Scalars['String']['output']>;
  /** From `openclaw update status` (kept 6 h, asked again after an update); null when unknown. */
  updateAvailable: Maybe<Scalars['Boolean']['output']>;
  latestVersion: Maybe<Scalars['String']['output']>;
  /** Round trip of the last /healthz probe, milliseconds. */
  latencyMs: Maybe<Scalars['Float']['output']>;
  checkedAt: Maybe<Scalars['String']['output']>;
  /** Why the gateway counts as down. */
  error: Maybe<Scalars['String']['output']>;
};

export type Resources = {
  /** CPU of the gateway's process tree, percent of one core. */
  cpu: Maybe<Scalars['Float']['output']>;
  /** Resident memory of the gateway's process tree, MB. */
  memoryMB: Maybe<Scalars['Float']['output']>;
  /** Disk used by the OpenClaw state dir, MB. */
  diskMB: Maybe<Scalars['Float']['output']>;
  /** Free space on the filesystem holding gateway-insights' state, MB. */
  diskFreeMB: Maybe<Scalars['Float']['output']>;
  sampledAt: Maybe<Scalars['String']['output']>;
};

/** Claude Code: the CLI's installs as its files show them. */
export type ProviderBSystem = SystemNamespace & {
  provider: Provider;
  /** True when gateway-insights serves its bundled demo state. */
  demo: Scalars['Boolean']['output'];
  /** CLI versions seen in the transcripts and running processes, newest first. */
  versions: Array<Scalars['String']['output']>;
  /** Claude Code processes running now (`sessions/<pid>.json`), with their CPU and memory. */
  liveSessions: Array<LiveSession>;
  sources: Array<DataSource>;
  /** sources, pricing (models with no known price), disk, store. */
  health: Health;
};

/** Codex: the CLI's installs as its rollouts show them. */
export type ProviderCSystem = SystemNamespace & {
  provider: Provider;
  demo: Scalars['Boolean']['output'];
  versions: Array<Scalars['String']['output']>;
  /** Codex threads with a live writer (the writer holds its lock), with their CPU and memory. */
  liveSessions: Array<LiveSession>;
  sources: Array<DataSource>;
  /** sources, pricing, rate-limit (warns at 80 %, fails at 100 % of a window), disk, store. */
  health: Health;
  /**
   * The plan's quota as the latest rollout line recorded it (the newest across installs); null before
   * any. A quota belongs to the account: never add these up.
   */
  rateLimits: Maybe<RateLimits>;
  /** The same per install (Codex home). */
  rateLimitsBySource: Array<RateLimits>;
};

export type RateLimits = {
  /** The install (source id) whose rollouts recorded it. */
  source: Scalars['String']['output'];
  /** Codex's limit id, e.g. `codex`. */
  limitId: Maybe<Scalars['String']['output']>;
  /** The 5-hour window. */
  primary: Maybe<RateLimitWindow>;
  /** The weekly window. */
  secondary: Maybe<RateLimitWindow>;
  planType: Maybe<Scalars['String']['output']>;
  credits: Maybe<RateLimitCredits>;
  /** When the figures were recorded (the rollout line's time). */
  updatedAt: Scalars['String']['output'];
  /** The primary window has reset since (or no figure for longer than its length): the figures may no longer hold. */
  stale: Scalars['Boolean']['output'];
  /** Used % of both windows over the last `days` days (default 7, at most 30), oldest first. */
  history: Array<RateLimitSample>;
};


export type RateLimitsHistoryArgs = {
  days: InputMaybe<Scalars['Int']['input']>;
};

export type RateLimitWindow = {
  usedPercent: Scalars['Float']['output'];
  windowMinutes: Maybe<Scalars['Int']['output']>;
  resetsAt: Maybe<Scalars['String']['output']>;
};

export type RateLimitCredits = {
  hasCredits: Maybe<Scalars['Boolean']['output']>;
  unlimited: Maybe<Scalars['Boolean']['output']>;
  balance: Maybe<Scalars['String']['output']>;
};

export type RateLimitSample = {
  time: Scalars['String']['output'];
  primaryUsedPercent: Maybe<Scalars['Float']['output']>;
  secondaryUsedPercent: Maybe<Scalars['Float']['output']>;
};

/** A provider's process running now. */
export type LiveSession = {
  /** The source (install) it belongs to. */
  source: Scalars['String']['output'];
  sessionKey: Scalars['String']['output'];
  pid: Maybe<Scalars['Int']['output']>;
  startedAt: Maybe<Scalars['String']['output']>;
  /** As the provider says (`busy`, `idle`, ...). */
  status: Maybe<Scalars['String']['output']>;
  /** Its working directory. */
  project: Maybe<Scalars['String']['output']>;
  cliVersion: Maybe<Scalars['String']['output']>;
  /** CPU of its process tree, percent of one core. */
  cpu: Maybe<Scalars['Float']['output']>;
  /** Resident memory of its process tree, MB. */
  memoryMB: Maybe<Scalars['Float']['output']>;
};

export type Channel = {
  /** Channel id, e.g. `telegram`. */
  provider: Scalars['String']['output'];
  /** Account display name. */
  name: Scalars['String']['output'];
  connected: Scalars['Boolean']['output'];
  /** The channel's own probe round trip, milliseconds. */
  latencyMs: Maybe<Scalars['Float']['output']>;
  lastError: Maybe<Scalars['String']['output']>;
};

export type HealthLevel =
  | 'HEALTHY'
  | 'DEGRADED'
  | 'UNHEALTHY';

export type CheckStatus =
  | 'PASS'
  | 'WARN'
  | 'FAIL';

/** The health verdict in words, as /health `status` and `insightsctl status` print it (lower-cased). */
export type HealthVerdict =
  /** A check has no first reading yet (first probe or scan running) and none fails. */
  | 'STARTING'
  /** HEALTHY. */
  | 'OK'
  /** DEGRADED. */
  | 'DEGRADED'
  /** UNHEALTHY. */
  | 'UNHEALTHY';

/** Any FAIL check makes the level UNHEALTHY, else any WARN makes it DEGRADED. One rule for every interface (README: GET /health). */
export type Health = {
  status: HealthLevel;
  /** The same verdict in words: UNHEALTHY on any FAIL, else STARTING while a check has no first reading, else OK or DEGRADED. */
  verdict: HealthVerdict;
  /** gateway, ready, event-loop, channels, sources, disk, store. */
  checks: Array<HealthCheck>;
};

export type HealthCheck = {
  name: Scalars['String']['output'];
  status: CheckStatus;
  message: Maybe<Scalars['String']['output']>;
};

export type AgentNamespace = {
  source: DataSource;
  agentId: Scalars['String']['output'];
  /** Sessions with token usage, model and status. Default: grouped, newest activity first, 100 at most. */
  sessions: Array<Session>;
  session: Maybe<Session>;
  /** Aggregated metrics over a time range ending `date` (an ISO date or date-time; default now). */
  metrics: Metrics;
  /** Error, warning and restart events, newest first. `from`/`to` are epoch seconds; `limit` default 200, max 1000. */
  events: Array<Event>;
  /** The last 24 hours in hourly buckets, oldest first. */
  eventDensity: Array<EventDensityBucket>;
  eventCounts: EventCounts;
  lifetimeStats: LifetimeStats;
  /** A session's messages, newest page by default. `limit` default 50, max 500; give `before` or `after`, not both. */
  sessionTranscript: SessionTranscript;
  /**
   * Token use per project (the working directory a session ran in: Claude Code, Codex), most tokens
   * first, sessions with no project last (one row, `project` null; OpenClaw's sessions have none).
   * With `range`: the same window as `metrics(range)`, ending now. Without: every recorded transcript.
   * `limit` default 100, max 1000.
   */
  projects: Array<ProjectUsage>;
  cronJobs: Array<CronJob>;
  usageCost: UsageCost;
  /**
   * The latest gateway log entries kept in the store (INFO and above, plus every classified event),
   * oldest first, narrowed by `filter` (minimum level, module; its agentId is ignored here). `count`
   * default 50, max 1000.
   */
  recentLogs: Array<LogEntry>;
};


export type AgentNamespaceSessionsArgs = {
  filter: InputMaybe<SessionFilter>;
};


export type AgentNamespaceSessionArgs = {
  key: Scalars['String']['input'];
};


export type AgentNamespaceMetricsArgs = {
  date: InputMaybe<Scalars['String']['input']>;
  range: InputMaybe<MetricsRange>;
};


export type AgentNamespaceEventsArgs = {
  from: InputMaybe<Scalars['Int']['input']>;
  to: InputMaybe<Scalars['Int']['input']>;
  types: InputMaybe<Array<Scalars['String']['input']>>;
  limit: InputMaybe<Scalars['Int']['input']>;
};


export type AgentNamespaceEventCountsArgs = {
  from: InputMaybe<Scalars['Int']['input']>;
  to: InputMaybe<Scalars['Int']['input']>;
};


export type AgentNamespaceSessionTranscriptArgs = {
  sessionKey: Scalars['String']['input'];
  limit: InputMaybe<Scalars['Int']['input']>;
  before: InputMaybe<Scalars['String']['input']>;
  after: InputMaybe<Scalars['String']['input']>;
};


export type AgentNamespaceProjectsArgs = {
  range: InputMaybe<MetricsRange>;
  limit: InputMaybe<Scalars['Int']['input']>;
};


export type AgentNamespaceRecentLogsArgs = {
  count: InputMaybe<Scalars['Int']['input']>;
  filter: InputMaybe<LogFilter>;
};

export type SessionStatus =
  /** Running, or activity in the last 30 minutes. */
  | 'ACTIVE'
  /** Activity in the last 24 hours. */
  | 'IDLE'
  | 'DONE'
  /** The last run failed, was killed or timed out. */
  | 'FAILED';

export type SessionSort =
  | 'UPDATED_AT'
  | 'TOKENS_DESC'
  | 'COST_DESC'
  | 'NAME';

export type SessionFilter = {
  activeOnly: InputMaybe<Scalars['Boolean']['input']>;
  /** Nest sub-agents under their parent (default true). */
  grouped: InputMaybe<Scalars['Boolean']['input']>;
  sortBy: InputMaybe<SessionSort>;
  /** Default 100, max 1000. */
  limit: InputMaybe<Scalars['Int']['input']>;
};

/** One session key; its figures sum every window (transcript) under the key. */
export type Session = {
  key: Scalars['String']['output'];
  /** The id within its provider (OpenClaw's agent id, an install name). */
  agentId: Scalars['String']['output'];
  displayName: Scalars['String']['output'];
  /** direct, group, cron or subagent. */
  kind: Scalars['String']['output'];
  model: Maybe<Scalars['String']['output']>;
  channel: Maybe<Scalars['String']['output']>;
  status: SessionStatus;
  /** input + output + cacheRead + cacheWrite. */
  totalTokens: Scalars['Float']['output'];
  inputTokens: Scalars['Float']['output'];
  outputTokens: Scalars['Float']['output'];
  cacheReadTokens: Scalars['Float']['output'];
  cacheWriteTokens: Scalars['Float']['output'];
  /** The part of outputTokens that was reasoning (Codex, Claude Code thinking). */
  reasoningTokens: Scalars['Float']['output'];
  /** Cost of the priced responses; see unpricedResponses. */
  costUsd: Scalars['Float']['output'];
  /** Responses whose model has no known price: their tokens count, their cost is not in costUsd. */
  unpricedResponses: Scalars['Int']['output'];
  /** The working directory the session ran in (Claude Code, Codex). */
  project: Maybe<Scalars['String']['output']>;
  /** Its git branch; null outside a repository. */
  gitBranch: Maybe<Scalars['String']['output']>;
  /** Prompt size of the latest call: how full the context window is. */
  contextTokens: Maybe<Scalars['Float']['output']>;
  contextWindow: Maybe<Scalars['Float']['output']>;
  /** contextTokens / contextWindow, percent. */
  usagePercent: Maybe<Scalars['Float']['output']>;
  /** User messages. */
  turnCount: Scalars['Int']['output'];
  assistantMessages: Scalars['Int']['output'];
  toolCalls: Scalars['Int']['output'];
  errors: Scalars['Int']['output'];
  updatedAt: Maybe<Scalars['String']['output']>;
  startedAt: Maybe<Scalars['String']['output']>;
  lastActivityAt: Maybe<Scalars['String']['output']>;
  parentKey: Maybe<Scalars['String']['output']>;
  thinkingLevel: Maybe<Scalars['String']['output']>;
  /** Transcripts (session windows) under this key. */
  windows: Scalars['Int']['output'];
  subAgents: Array<Session>;
};

/** Bucket layout: THIRTY_MIN 6x5m, ONE_HOUR 12x5m, SIX_HOUR 24x15m, TWELVE_HOUR 24x30m, TWENTY_FOUR_HOUR 24x60m. */
export type MetricsRange =
  | 'THIRTY_MIN'
  | 'ONE_HOUR'
  | 'SIX_HOUR'
  | 'TWELVE_HOUR'
  | 'TWENTY_FOUR_HOUR';

export type Metrics = {
  range: MetricsRange;
  from: Scalars['String']['output'];
  to: Scalars['String']['output'];
  /** All tokens of the agent ever, thousands. */
  totalTokensK: Scalars['Float']['output'];
  /** Tokens inside the range, thousands. */
  rangeTokensK: Scalars['Float']['output'];
  totalErrors: Scalars['Int']['output'];
  totalWarnings: Scalars['Int']['output'];
  /** User messages inside the range. */
  totalTurns: Scalars['Int']['output'];
  costUsd: Scalars['Float']['output'];
  /** Share of gateway probes inside the range that found it up; null without probes. */
  uptimePercent: Maybe<Scalars['Float']['output']>;
  tokensByModel: Array<ModelTokens>;
  buckets: Array<MetricsBucket>;
};

export type ModelTokens = {
  model: Scalars['String']['output'];
  tokens: Scalars['Float']['output'];
  costUsd: Scalars['Float']['output'];
};

export type MetricsBucket = {
  start: Scalars['Int']['output'];
  end: Scalars['Int']['output'];
  /** Start of the bucket as HH:MM in the context's time zone. */
  label: Scalars['String']['output'];
  tokens: Scalars['Float']['output'];
  inputTokens: Scalars['Float']['output'];
  outputTokens: Scalars['Float']['output'];
  cacheReadTokens: Scalars['Float']['output'];
  cacheWriteTokens: Scalars['Float']['output'];
  costUsd: Scalars['Float']['output'];
  turns: Scalars['Int']['output'];
  errors: Scalars['Int']['output'];
  warnings: Scalars['Int']['output'];
  uptimePercent: Maybe<Scalars['Float']['output']>;
};

export type Event = {
  ts: Scalars['Int']['output'];
  time: Scalars['String']['output'];
  /** error, warning or restart. */
  type: Scalars['String']['output'];
  level: Scalars['String']['output'];
  /** The gateway subsystem, e.g. `gateway/ws`. */
  module: Scalars['String']['output'];
  message: Scalars['String']['output'];
  agentId: Maybe<Scalars['String']['output']>;
  sessionKey: Maybe<Scalars['String']['output']>;
};

export type EventDensityBucket = {
  /** Hour of day in the context's time zone. */
  hour: Scalars['Int']['output'];
  count: Scalars['Int']['output'];
  hasError: Scalars['Boolean']['output'];
  hasWarning: Scalars['Boolean']['output'];
  hasRestart: Scalars['Boolean']['output'];
  errorCount: Scalars['Int']['output'];
  warningCount: Scalars['Int']['output'];
  restartCount: Scalars['Int']['output'];
  epochStart: Scalars['Int']['output'];
};

export type EventCounts = {
  error: Scalars['Int']['output'];
  warning: Scalars['Int']['output'];
  restart: Scalars['Int']['output'];
};

export type LifetimeStats = {
  /** The first transcript scan has completed. */
  isReady: Scalars['Boolean']['output'];
  /** Earliest known activity. */
  createdAt: Scalars['String']['output'];
  daysSinceCreation: Scalars['Int']['output'];
  /** Transcripts on disk (session windows, or JSONL files before 2026.7.2). */
  totalSessions: Scalars['Int']['output'];
  totalInputTokens: Scalars['Float']['output'];
  totalOutputTokens: Scalars['Float']['output'];
  totalCacheReadTokens: Scalars['Float']['output'];
  totalCacheWriteTokens: Scalars['Float']['output'];
  /** The part of totalOutputTokens that was reasoning. */
  totalReasoningTokens: Scalars['Float']['output'];
  totalTokens: Scalars['Float']['output'];
  totalUserMessages: Scalars['Int']['output'];
  totalAssistantMessages: Scalars['Int']['output'];
  totalCostUsd: Scalars['Float']['output'];
  /** Responses whose model has no known price: their cost is not in totalCostUsd. */
  unpricedResponses: Scalars['Int']['output'];
};

export type SessionTranscript = {
  sessionKey: Scalars['String']['output'];
  displayName: Scalars['String']['output'];
  /** Model at session start. */
  model: Scalars['String']['output'];
  channel: Maybe<Scalars['String']['output']>;
  /** direct, group or cron. */
  kind: Scalars['String']['output'];
  thinkingLevel: Maybe<Scalars['String']['output']>;
  startedAt: Scalars['String']['output'];
  /** Bytes of the transcript(s) as stored. */
  fileSize: Scalars['Int']['output'];
  totalTokens: Scalars['Int']['output'];
  /** Approximate context window usage. */
  contextTokens: Scalars['Int']['output'];
  durationMs: Scalars['Int']['output'];
  isSubAgent: Scalars['Boolean']['output'];
  parentDisplayName: Maybe<Scalars['String']['output']>;
  /** First user message (sub-agents only). */
  spawnPrompt: Maybe<Scalars['String']['output']>;
  messages: Array<TranscriptMessage>;
  /** Messages in the whole transcript. */
  totalMessages: Scalars['Int']['output'];
  pageInfo: PageInfo;
};

export type TranscriptMessage = {
  id: Scalars['String']['output'];
  /** Opaque; pass to `before` or `after`. */
  cursor: Scalars['String']['output'];
  sessionId: Scalars['String']['output'];
  /** user, assistant or toolResult. */
  role: Scalars['String']['output'];
  text: Scalars['String']['output'];
  timestamp: Maybe<Scalars['String']['output']>;
  model: Maybe<Scalars['String']['output']>;
  stopReason: Maybe<Scalars['String']['output']>;
  errorMessage: Maybe<Scalars['String']['output']>;
  inputTokens: Scalars['Int']['output'];
  outputTokens: Scalars['Int']['output'];
  cacheReadTokens: Scalars['Int']['output'];
  cacheWriteTokens: Scalars['Int']['output'];
  totalTokens: Scalars['Int']['output'];
  costUsd: Maybe<Scalars['Float']['output']>;
  toolCalls: Array<ToolCall>;
  /** The tool a toolResult answers. */
  toolName: Maybe<Scalars['String']['output']>;
  isError: Scalars['Boolean']['output'];
};

export type ToolCall = {
  id: Maybe<Scalars['String']['output']>;
  name: Maybe<Scalars['String']['output']>;
};

export type PageInfo = {
  hasPreviousPage: Scalars['Boolean']['output'];
  hasNextPage: Scalars['Boolean']['output'];
  startCursor: Maybe<Scalars['String']['output']>;
  endCursor: Maybe<Scalars['String']['output']>;
};

/** One project's share of a source's usage. */
export type ProjectUsage = {
  /** The working directory; null for the sessions with none recorded. */
  project: Maybe<Scalars['String']['output']>;
  /** Session keys with usage in the window (a sub-agent counts as its own session). */
  sessions: Scalars['Int']['output'];
  /** input + output + cacheRead + cacheWrite. */
  totalTokens: Scalars['Float']['output'];
  inputTokens: Scalars['Float']['output'];
  outputTokens: Scalars['Float']['output'];
  cacheReadTokens: Scalars['Float']['output'];
  cacheWriteTokens: Scalars['Float']['output'];
  /** The part of outputTokens that was reasoning. */
  reasoningTokens: Scalars['Float']['output'];
  /** Cost of the priced responses; see unpricedResponses. */
  costUsd: Scalars['Float']['output'];
  unpricedResponses: Scalars['Int']['output'];
  /** User messages. */
  turns: Scalars['Int']['output'];
  lastActivityAt: Maybe<Scalars['String']['output']>;
};

export type CronJob = {
  id: Scalars['String']['output'];
  name: Scalars['String']['output'];
  agentId: Maybe<Scalars['String']['output']>;
  enabled: Scalars['Boolean']['output'];
  /** e.g. `every 2m`, `cron 0 3 * * *`. */
  schedule: Scalars['String']['output'];
  /** every, cron or at. */
  scheduleKind: Scalars['String']['output'];
  lastRunAt: Maybe<Scalars['String']['output']>;
  /** ok, error, skipped, ... */
  lastStatus: Maybe<Scalars['String']['output']>;
  lastDurationMs: Maybe<Scalars['Int']['output']>;
  lastError: Maybe<Scalars['String']['output']>;
  nextRunAt: Maybe<Scalars['String']['output']>;
  /** True when the job is enabled, not running, and more than a minute past the run the gateway had scheduled (the gateway is down, or its scheduler is stuck). */
  overdue: Scalars['Boolean']['output'];
  /** How far past that run, in seconds, while overdue; else null. */
  overdueSeconds: Maybe<Scalars['Int']['output']>;
  consecutiveErrors: Scalars['Int']['output'];
  /** Newest first, at most 20. */
  recentRuns: Array<CronRun>;
};

export type CronRun = {
  id: Scalars['String']['output'];
  status: Scalars['String']['output'];
  startedAt: Maybe<Scalars['String']['output']>;
  durationMs: Maybe<Scalars['Int']['output']>;
  error: Maybe<Scalars['String']['output']>;
  summary: Maybe<Scalars['String']['output']>;
  sessionKey: Maybe<Scalars['String']['output']>;
  totalTokens: Maybe<Scalars['Float']['output']>;
};

export type UsageCost = {
  currency: Scalars['String']['output'];
  /** All recorded cost. */
  totalUsd: Scalars['Float']['output'];
  /** Since midnight in the context's time zone. */
  todayUsd: Scalars['Float']['output'];
  byModel: Array<ModelCost>;
  /** The last 30 days, oldest first. */
  byDay: Array<DayCost>;
};

export type ModelCost = {
  model: Scalars['String']['output'];
  provider: Maybe<Scalars['String']['output']>;
  costUsd: Scalars['Float']['output'];
  inputTokens: Scalars['Float']['output'];
  outputTokens: Scalars['Float']['output'];
  cacheReadTokens: Scalars['Float']['output'];
  cacheWriteTokens: Scalars['Float']['output'];
  totalTokens: Scalars['Float']['output'];
  messages: Scalars['Int']['output'];
  /** Responses with no known price: shown with their tokens, their cost is not in costUsd (never $0). */
  unpricedResponses: Scalars['Int']['output'];
};

export type DayCost = {
  /** YYYY-MM-DD in the context's time zone. */
  date: Scalars['String']['output'];
  costUsd: Scalars['Float']['output'];
  totalTokens: Scalars['Float']['output'];
  messages: Scalars['Int']['output'];
};

export type LogEntry = {
  time: Scalars['String']['output'];
  /** TRACE, DEBUG, INFO, WARN, ERROR or FATAL. */
  level: Scalars['String']['output'];
  module: Scalars['String']['output'];
  message: Scalars['String']['output'];
  agentId: Maybe<Scalars['String']['output']>;
  sessionKey: Maybe<Scalars['String']['output']>;
};

export type LogLevel =
  | 'TRACE'
  | 'DEBUG'
  | 'INFO'
  | 'WARN'
  | 'ERROR'
  | 'FATAL';

export type LogFilter = {
  /** Minimum level (default INFO). */
  level: InputMaybe<LogLevel>;
  /** Exact subsystem, or a prefix ending in `/` (e.g. `gateway/`). */
  module: InputMaybe<Scalars['String']['input']>;
  agentId: InputMaybe<Scalars['String']['input']>;
};

export type DashboardNamespace = {
  source: DataSource;
  version: Scalars['String']['output'];
  /** The daemon's clock. In demo mode it runs on from the end of the bundled recording. */
  now: Scalars['String']['output'];
  startedAt: Scalars['String']['output'];
  uptimeSeconds: Scalars['Int']['output'];
  demo: Scalars['Boolean']['output'];
  /** OpenClaw's state dir; null when OpenClaw is not read. */
  openclawDir: Maybe<Scalars['String']['output']>;
  /** The providers read here, in A, B, C order. */
  providers: Array<Provider>;
  /** token or none. */
  authMode: Maybe<Scalars['String']['output']>;
  url: Maybe<Scalars['String']['output']>;
  requestsTotal: Maybe<Scalars['Float']['output']>;
  renderQueue: Maybe<RenderQueue>;
  store: StoreInfo;
};

export type RenderQueue = {
  active: Scalars['Int']['output'];
  queued: Scalars['Int']['output'];
  concurrency: Scalars['Int']['output'];
  maxQueue: Scalars['Int']['output'];
  rendersTotal: Scalars['Float']['output'];
  failuresTotal: Scalars['Float']['output'];
};

export type StoreInfo = {
  ok: Scalars['Boolean']['output'];
  path: Scalars['String']['output'];
  sizeBytes: Scalars['Float']['output'];
  schemaVersion: Scalars['Int']['output'];
  error: Maybe<Scalars['String']['output']>;
};

export type DataChange = {
  /** A source id (`agent:<agentId>`, `claude-code:<name>`, `codex:<name>`), `dashboard:self`, or `system` (OpenClaw's gateway, resources, channels, health). */
  source: Scalars['String']['output'];
  /** Epoch milliseconds. */
  ts: Scalars['Float']['output'];
};

export type OperationResult = {
  ok: Scalars['Boolean']['output'];
  message: Scalars['String']['output'];
  /** The command's combined stdout and stderr (last 64 KB). */
  output: Scalars['String']['output'];
  durationMs: Scalars['Int']['output'];
};
