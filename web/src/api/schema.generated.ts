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
   * `... on ProviderBSystem` (Claude Code), `... on ProviderCSystem` (Codex) or `... on ProviderDSystem`
   * (Gemini CLI). Without `provider`, the first provider read in A, B, C, D order; a provider not read here is NOT_FOUND.
   */
  system: SystemNamespace;
  /** Every provider read here, in A, B, C, D order. */
  systems: Array<SystemNamespace>;
  /**
   * Every data source: one AGENT source per OpenClaw agent (`agent:<id>`), Claude Code install
   * (`claude-code:<name>`), Codex install (`codex:<name>`) and Gemini CLI install (`gemini-cli:<name>`),
   * plus `dashboard:self`.
   */
  sources: Array<DataSource>;
  /**
   * One source's data. The selector must match exactly one source: none is NOT_FOUND, several is
   * AMBIGUOUS_SELECTOR with the matching ids in `extensions.matches`.
   */
  source: SourceNamespace;
  /**
   * Alert episodes (docs/alerting.md): ACTIVE (default) those firing now, most recent first; RECENT
   * every episode, firing or resolved, newest first. `limit` 1-500, default 50.
   */
  alerts: Array<Alert>;
  /** Every alert rule: built-in, from config.json and made through the API, in that order. */
  alertRules: Array<AlertRule>;
  /** Every notification channel. Secrets (HMAC keys, Slack and Discord URLs, ntfy tokens) are never returned: see `secretSet`. */
  alertChannels: Array<AlertChannel>;
  /**
   * What happened to alerts, newest first: firings, escalations, resolves, tests, mutes, with each
   * channel's delivery outcome. Narrow it to one alert or one rule. `limit` 1-500, default 100.
   */
  alertHistory: Array<AlertEvent>;
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


export type QueryAlertsArgs = {
  state: InputMaybe<AlertState>;
  ruleId: InputMaybe<Scalars['String']['input']>;
  limit: InputMaybe<Scalars['Int']['input']>;
};


export type QueryAlertHistoryArgs = {
  alertId: InputMaybe<Scalars['String']['input']>;
  ruleId: InputMaybe<Scalars['String']['input']>;
  limit: InputMaybe<Scalars['Int']['input']>;
};

export type Mutation = {
  /**
   * Runs `openclaw gateway restart` (timeout 120 s). Refused with OPERATION_IN_PROGRESS while
   * another gateway operation runs. Audited in the daemon log with who asked.
   */
  restartGateway: OperationResult;
  /** Runs `openclaw update` (timeout 600 s). Same rules as restartGateway. */
  updateGateway: OperationResult;
  /**
   * Adds an alert rule (kept in the store; survives restarts). BAD_USER_INPUT when the id exists or a
   * field is wrong. Every alert mutation is audited in the daemon log with who asked.
   */
  addAlertRule: AlertRule;
  /**
   * Changes a rule made through the API or a built-in one (given fields only; a null field goes back
   * to its default: a null warning or critical to 80 % and 100 % of the budget, a null budget to none,
   * which turns a budget rule off). Rules from config.json are BAD_USER_INPUT: edit the file.
   */
  updateAlertRule: AlertRule;
  /** Silences a rule (any, config's included) until `until` (ISO-8601, at most a year ahead). Its alerts are still recorded. */
  muteAlertRule: AlertRule;
  /** Ends a mute; an alert still firing that the mute held back is sent now. */
  unmuteAlertRule: AlertRule;
  /** Removes a rule made through the API; for a built-in rule, removes the changes made to it (to turn one off, set `enabled: false`). */
  deleteAlertRule: DeletedAlertRule;
  /**
   * Adds a notification channel (kept in the store with its secret; the secret is never shown again).
   * COMMAND is FORBIDDEN_CHANNEL_TYPE (config.json only); a URL to a loopback, private, link-local or
   * cloud-metadata address not allowed by config.json is TARGET_REFUSED; past 100 channels made
   * through the API, LIMIT_REACHED.
   */
  addAlertChannel: AlertChannel;
  /**
   * Changes a channel made through the API (given fields only; `secret: null` removes the secret; a
   * new `url` drops the secret unless this call sets one). Its type cannot change.
   */
  updateAlertChannel: AlertChannel;
  deleteAlertChannel: DeletedAlertChannel;
  /**
   * Sends a test notification through the channel now, in one try within the channel's timeout, and
   * answers how it went. OPERATION_IN_PROGRESS while a test of the channel (or 4 in all) is being sent.
   */
  testAlertChannel: AlertDelivery;
};


export type MutationAddAlertRuleArgs = {
  input: AlertRuleInput;
};


export type MutationUpdateAlertRuleArgs = {
  id: Scalars['String']['input'];
  input: AlertRulePatch;
};


export type MutationMuteAlertRuleArgs = {
  id: Scalars['String']['input'];
  until: Scalars['String']['input'];
};


export type MutationUnmuteAlertRuleArgs = {
  id: Scalars['String']['input'];
};


export type MutationDeleteAlertRuleArgs = {
  id: Scalars['String']['input'];
};


export type MutationAddAlertChannelArgs = {
  input: AlertChannelInput;
};


export type MutationUpdateAlertChannelArgs = {
  id: Scalars['String']['input'];
  input: AlertChannelPatch;
};


export type MutationDeleteAlertChannelArgs = {
  id: Scalars['String']['input'];
};


export type MutationTestAlertChannelArgs = {
  id: Scalars['String']['input'];
};

export type Subscription = {
  /**
   * A lightweight signal whenever a data source updates (coalesced to at most 4 per second per
   * source). Refetch what you show.
   */
  dataChanged: DataChange;
  /** Parsed gateway log lines as they are written, filtered by minimum level, module and agent. */
  logs: LogEntry;
  /** An alert fired, escalated, fell back, resolved, or rules, channels or mutes changed. Refetch what you show. */
  alertChanged: AlertChange;
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

/**
 * PROVIDER_A is OpenClaw, PROVIDER_B Claude Code, PROVIDER_C Codex, PROVIDER_D Gemini CLI. More may
 * be added: a client that switches over this enum treats a value it does not know as "other".
 */
export type Provider =
  | 'PROVIDER_A'
  | 'PROVIDER_B'
  | 'PROVIDER_C'
  | 'PROVIDER_D';

export type DataSource = {
  /** `agent:<agentId>` (OpenClaw), `claude-code:<name>`, `codex:<name>`, `gemini-cli:<name>` (`default` for the default dir), or `dashboard:self`. */
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
  /**
   * sources, pricing (models with no known price), rate-limit (warns at 80 %, fails at 100 % of a
   * window; with none, why: no status line set up, or an API-key login), disk, store.
   */
  health: Health;
  /**
   * The plan's quota as Claude Code's status line last handed it over (`insightsctl statusline`):
   * the newest across installs; null before any. A quota belongs to the account: never add these up.
   * The plan's 5-hour and weekly windows only (limit `claude`).
   */
  rateLimits: Maybe<RateLimits>;
  /**
   * The same per install (Claude Code config dir), each install's plan windows first, then each
   * per-model weekly window some versions add (`seven_day_opus` as limit `claude:seven_day_opus`,
   * its figure as `secondary`, `primary` null).
   */
  rateLimitsBySource: Array<RateLimits>;
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

/** Gemini CLI: the CLI's installs (`.gemini` dirs) as its session files show them. */
export type ProviderDSystem = SystemNamespace & {
  provider: Provider;
  demo: Scalars['Boolean']['output'];
  /** The versions of the running `gemini` processes' packages (the session files name none), newest first. */
  versions: Array<Scalars['String']['output']>;
  /** `gemini` processes running now (Node running its bundle, cwd in a project), with their CPU and memory. */
  liveSessions: Array<LiveSession>;
  sources: Array<DataSource>;
  /** sources, pricing (models with no known price), disk, store. */
  health: Health;
};

export type RateLimits = {
  /** The install (source id) whose rollouts (Codex) or status line (Claude Code) recorded it. */
  source: Scalars['String']['output'];
  /**
   * The limit's id: `codex` (Codex's own), `claude` (Claude Code's plan windows), `claude:<field>`
   * (a per-model weekly window of Claude Code's plan, named by its status-line field: `claude:seven_day_opus`).
   */
  limitId: Maybe<Scalars['String']['output']>;
  /** The 5-hour window. */
  primary: Maybe<RateLimitWindow>;
  /** The weekly window. */
  secondary: Maybe<RateLimitWindow>;
  planType: Maybe<Scalars['String']['output']>;
  credits: Maybe<RateLimitCredits>;
  /** When the figures were recorded (the rollout line's or the status line's time). */
  updatedAt: Scalars['String']['output'];
  /** The primary window (a per-model limit: its weekly one) has reset since (or no figure for longer than its length): the figures may no longer hold. */
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
  /**
   * At the burn rate of the last 30 minutes of readings: when the window is used up and whether that
   * is before it resets; or, in `status`, why that cannot be told.
   */
  projection: RateLimitProjection;
};

/** Why a window has a projection or not. */
export type RateLimitProjectionStatus =
  /** The use rises: `fullAt` is when it reaches 100 %. */
  | 'PROJECTED'
  /** Under two readings in the last 30 minutes, or spanning under 5 minutes. */
  | 'TOO_FEW_SAMPLES'
  /** The window reset within the last 30 minutes (or since the newest reading) and too few readings came after. */
  | 'WINDOW_RESET'
  /** The use is flat or falls: at this rate the window does not fill. */
  | 'NOT_RISING'
  /** Already at 100 % or more. */
  | 'FULL';

/** A window's projection: the rate is the rise from the first to the last reading since its last reset within the last 30 minutes. */
export type RateLimitProjection = {
  status: RateLimitProjectionStatus;
  /** Percentage points of the window used per hour; null under two readings (negative or 0 when NOT_RISING). */
  burnPercentPerHour: Maybe<Scalars['Float']['output']>;
  /** When the window reaches 100 % at that rate; null unless PROJECTED. */
  fullAt: Maybe<Scalars['String']['output']>;
  /** The reset it is measured against (the newest reading's). */
  resetsAt: Maybe<Scalars['String']['output']>;
  /** Whether `fullAt` comes before `resetsAt`; null unless PROJECTED with a known reset. */
  beforeReset: Maybe<Scalars['Boolean']['output']>;
  /** The used % the window reaches by its reset at that rate (may pass 100); null unless PROJECTED with a known reset. */
  usedPercentAtReset: Maybe<Scalars['Float']['output']>;
  /** How many readings the rate is drawn from. */
  samples: Scalars['Int']['output'];
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

/**
 * Bucket layout: THIRTY_MIN 6x5m, ONE_HOUR 12x5m, SIX_HOUR 24x15m, TWELVE_HOUR 24x30m, TWENTY_FOUR_HOUR 24x60m,
 * SEVEN_DAY 28x6h, THIRTY_DAY 30x1d. The week's and the month's buckets start at local 00:00 (and 06:00, 12:00,
 * 18:00) in the context's time zone; before retentionRawDays their usage comes from the hourly rollups.
 */
export type MetricsRange =
  | 'THIRTY_MIN'
  | 'ONE_HOUR'
  | 'SIX_HOUR'
  | 'TWELVE_HOUR'
  | 'TWENTY_FOUR_HOUR'
  | 'SEVEN_DAY'
  | 'THIRTY_DAY';

export type Metrics = {
  range: MetricsRange;
  from: Scalars['String']['output'];
  to: Scalars['String']['output'];
  /** All tokens of the agent ever, thousands. */
  totalTokensK: Scalars['Float']['output'];
  /**
   * The source's newest recorded activity (ISO 8601), at any time; null when it has none. An empty
   * range with an older lastActivityAt is history, not a source that never ran.
   */
  lastActivityAt: Maybe<Scalars['String']['output']>;
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
  /** Start of the bucket in the context's time zone: HH:MM; MM/DD HH:MM for SEVEN_DAY, MM/DD for THIRTY_DAY (in the context's locale). */
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
  /** Since the first of this month, midnight in the context's time zone. */
  monthUsd: Scalars['Float']['output'];
  /** Tokens of the responses since the first of this month. */
  monthTokens: Scalars['Float']['output'];
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
  /** The providers read here, in A, B, C, D order. */
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
  /** A source id (`agent:<agentId>`, `claude-code:<name>`, `codex:<name>`, `gemini-cli:<name>`), `dashboard:self`, or `system` (OpenClaw's gateway, resources, channels, health). */
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

export type AlertState =
  | 'ACTIVE'
  | 'RECENT';

export type AlertSeverity =
  | 'WARNING'
  | 'CRITICAL';

/**
 * What a rule measures: COST (USD) and TOKENS over a window (budgets), ERRORS and WARNINGS (classified
 * events), CONTEXT (a session's context window used, %), GATEWAY_DOWN and HEALTH_CHECK (seconds the
 * gateway has been down or a check failing), RATE_LIMIT (a provider rate-limit window used, %),
 * RATE_LIMIT_PROJECTION (the used % a window reaches by its reset at the last 30 minutes' burn rate: 100
 * and above, it fills before it resets), UNPRICED (responses of a model with no known price).
 */
export type AlertMetric =
  | 'COST'
  | 'TOKENS'
  | 'ERRORS'
  | 'WARNINGS'
  | 'CONTEXT'
  | 'GATEWAY_DOWN'
  | 'HEALTH_CHECK'
  | 'RATE_LIMIT'
  | 'RATE_LIMIT_PROJECTION'
  | 'UNPRICED';

/** HOUR is the last 60 minutes; DAY, WEEK (from Monday) and MONTH are calendar windows in the alerts' time zone; PRIMARY and SECONDARY are the provider's own rate-limit windows. */
export type AlertWindow =
  | 'HOUR'
  | 'DAY'
  | 'WEEK'
  | 'MONTH'
  | 'PRIMARY'
  | 'SECONDARY';

export type AlertRuleOrigin =
  | 'BUILTIN'
  | 'CONFIG'
  | 'API';

export type AlertChannelType =
  | 'WEBHOOK'
  | 'SLACK'
  | 'DISCORD'
  | 'NTFY'
  | 'COMMAND';

export type AlertScope = {
  /** A provider's name: openclaw, claude-code, codex or gemini-cli. */
  provider: Maybe<Scalars['String']['output']>;
  source: Maybe<Scalars['String']['output']>;
  project: Maybe<Scalars['String']['output']>;
  model: Maybe<Scalars['String']['output']>;
};

export type AlertScopeInput = {
  /** A provider's name: openclaw, claude-code, codex or gemini-cli. */
  provider: InputMaybe<Scalars['String']['input']>;
  source: InputMaybe<Scalars['String']['input']>;
  project: InputMaybe<Scalars['String']['input']>;
  model: InputMaybe<Scalars['String']['input']>;
};

export type AlertRule = {
  id: Scalars['String']['output'];
  name: Scalars['String']['output'];
  /** False when turned off, or a budget rule without an amount. */
  enabled: Scalars['Boolean']['output'];
  metric: AlertMetric;
  scope: AlertScope;
  window: Maybe<AlertWindow>;
  /** usd, tokens, count, percent or seconds: the unit of value and thresholds. */
  unit: Scalars['String']['output'];
  /** Budget amount (COST, TOKENS); the thresholds default to 80 % and 100 % of it. */
  budget: Maybe<Scalars['Float']['output']>;
  warning: Maybe<Scalars['Float']['output']>;
  critical: Maybe<Scalars['Float']['output']>;
  /** HEALTH_CHECK: the check watched (null: any failing check). */
  check: Maybe<Scalars['String']['output']>;
  cooldownMinutes: Scalars['Int']['output'];
  /** Channel ids; null: every enabled channel. */
  channels: Maybe<Array<Scalars['String']['output']>>;
  origin: AlertRuleOrigin;
  /** A built-in rule changed by config.json or the API. */
  overridden: Scalars['Boolean']['output'];
  /** False for rules from config.json (only mute works on them). */
  editable: Scalars['Boolean']['output'];
  muted: Scalars['Boolean']['output'];
  mutedUntil: Maybe<Scalars['String']['output']>;
  /** Who muted it (the credential kind and peer). */
  mutedBy: Maybe<Scalars['String']['output']>;
  /** Alerts of this rule firing now. */
  active: Array<Alert>;
};

export type AlertRuleInput = {
  /** 1-64 of a-z 0-9 . _ - (stable: names the rule in /metrics and notifications). */
  id: Scalars['String']['input'];
  name: InputMaybe<Scalars['String']['input']>;
  enabled: InputMaybe<Scalars['Boolean']['input']>;
  metric: AlertMetric;
  scope: InputMaybe<AlertScopeInput>;
  window: InputMaybe<AlertWindow>;
  budget: InputMaybe<Scalars['Float']['input']>;
  warning: InputMaybe<Scalars['Float']['input']>;
  critical: InputMaybe<Scalars['Float']['input']>;
  check: InputMaybe<Scalars['String']['input']>;
  cooldownMinutes: InputMaybe<Scalars['Int']['input']>;
  channels: InputMaybe<Array<Scalars['String']['input']>>;
};

export type AlertRulePatch = {
  name: InputMaybe<Scalars['String']['input']>;
  enabled: InputMaybe<Scalars['Boolean']['input']>;
  scope: InputMaybe<AlertScopeInput>;
  window: InputMaybe<AlertWindow>;
  budget: InputMaybe<Scalars['Float']['input']>;
  warning: InputMaybe<Scalars['Float']['input']>;
  critical: InputMaybe<Scalars['Float']['input']>;
  check: InputMaybe<Scalars['String']['input']>;
  cooldownMinutes: InputMaybe<Scalars['Int']['input']>;
  channels: InputMaybe<Array<Scalars['String']['input']>>;
};

export type DeletedAlertRule = {
  id: Scalars['String']['output'];
  /** True for a built-in rule: it is back to its shipped settings. */
  reset: Scalars['Boolean']['output'];
};

export type AlertProjection = {
  /** Spend (or tokens) per hour so far in the window. */
  ratePerHour: Scalars['Float']['output'];
  /** The window's total at its end at this pace. */
  projectedTotal: Scalars['Float']['output'];
  /** The budget (or critical threshold) the projection aims at. */
  target: Scalars['Float']['output'];
  /** When the target is reached at this pace; null when not before the window ends. */
  reachesAt: Maybe<Scalars['String']['output']>;
  /** reachesAt as HH:MM in the alerts' time zone (dated when not today). */
  reachesAtLocal: Maybe<Scalars['String']['output']>;
  windowEnd: Scalars['String']['output'];
};

export type Alert = {
  /** The episode's id (from crossing to resolve). */
  id: Scalars['String']['output'];
  /** The rule as it is now; null when it was deleted since. */
  rule: Maybe<AlertRule>;
  ruleId: Scalars['String']['output'];
  ruleName: Scalars['String']['output'];
  metric: AlertMetric;
  /** "" for the rule's whole scope; else the session, check, window or model it is about. */
  subject: Scalars['String']['output'];
  label: Scalars['String']['output'];
  severity: AlertSeverity;
  /** The highest severity of the episode. */
  peakSeverity: AlertSeverity;
  /** True while firing. */
  active: Scalars['Boolean']['output'];
  /** The latest value measured (at the resolve, for a resolved one). */
  value: Scalars['Float']['output'];
  threshold: Scalars['Float']['output'];
  unit: Scalars['String']['output'];
  since: Scalars['String']['output'];
  resolvedAt: Maybe<Scalars['String']['output']>;
  updatedAt: Scalars['String']['output'];
  projection: Maybe<AlertProjection>;
  /** Whether a notification went out through a channel for the episode (not when muted, within the cooldown, or when no channel takes it). */
  notified: Scalars['Boolean']['output'];
  /** What became of the episode's notifications: SENT (through a channel), NO_CHANNEL (one was due but no channel is set up for it) or NOT_SENT (muted, or within the cooldown). */
  delivery: Scalars['String']['output'];
};

export type AlertChannel = {
  id: Scalars['String']['output'];
  type: AlertChannelType;
  name: Scalars['String']['output'];
  enabled: Scalars['Boolean']['output'];
  /** The URL's scheme and host (its path and query may be secret), or the command's program. */
  target: Maybe<Scalars['String']['output']>;
  /** Whether a secret is set (webhook HMAC key, ntfy token, or the Slack/Discord URL itself). Secrets are write-only. */
  secretSet: Scalars['Boolean']['output'];
  /** Least severity sent (WARNING: all). */
  minSeverity: AlertSeverity;
  sendResolved: Scalars['Boolean']['output'];
  timeoutSeconds: Scalars['Int']['output'];
  /** CONFIG or API. */
  origin: AlertRuleOrigin;
  editable: Scalars['Boolean']['output'];
};

export type AlertChannelInput = {
  id: Scalars['String']['input'];
  type: AlertChannelType;
  name: InputMaybe<Scalars['String']['input']>;
  enabled: InputMaybe<Scalars['Boolean']['input']>;
  /** WEBHOOK, NTFY: where to POST; SLACK, DISCORD: the incoming-webhook URL (a secret itself). */
  url: InputMaybe<Scalars['String']['input']>;
  /** WEBHOOK: the HMAC key; NTFY: the access token. */
  secret: InputMaybe<Scalars['String']['input']>;
  /** Refused (FORBIDDEN_CHANNEL_TYPE): command channels come from config.json only. */
  command: InputMaybe<Array<Scalars['String']['input']>>;
  minSeverity: InputMaybe<AlertSeverity>;
  sendResolved: InputMaybe<Scalars['Boolean']['input']>;
  timeoutSeconds: InputMaybe<Scalars['Int']['input']>;
};

export type AlertChannelPatch = {
  name: InputMaybe<Scalars['String']['input']>;
  enabled: InputMaybe<Scalars['Boolean']['input']>;
  /** A new URL drops the channel's secret unless this call sets one. */
  url: InputMaybe<Scalars['String']['input']>;
  secret: InputMaybe<Scalars['String']['input']>;
  /** Refused (FORBIDDEN_CHANNEL_TYPE): command channels come from config.json only. */
  command: InputMaybe<Array<Scalars['String']['input']>>;
  minSeverity: InputMaybe<AlertSeverity>;
  sendResolved: InputMaybe<Scalars['Boolean']['input']>;
  timeoutSeconds: InputMaybe<Scalars['Int']['input']>;
};

export type DeletedAlertChannel = {
  id: Scalars['String']['output'];
};

export type AlertDelivery = {
  channelId: Scalars['String']['output'];
  /** SENT, FAILED or DROPPED. */
  outcome: Scalars['String']['output'];
  attempts: Scalars['Int']['output'];
  /** Why it failed, without secrets. */
  error: Maybe<Scalars['String']['output']>;
  at: Maybe<Scalars['String']['output']>;
};

export type AlertEvent = {
  id: Scalars['Float']['output'];
  at: Scalars['String']['output'];
  alertId: Maybe<Scalars['String']['output']>;
  ruleId: Scalars['String']['output'];
  subject: Scalars['String']['output'];
  /** FIRING, ESCALATED, DEESCALATED, RESOLVED, TEST, MUTED or UNMUTED. */
  kind: Scalars['String']['output'];
  severity: Maybe<AlertSeverity>;
  value: Maybe<Scalars['Float']['output']>;
  threshold: Maybe<Scalars['Float']['output']>;
  /** Whether it was sent through a channel. */
  notified: Scalars['Boolean']['output'];
  /** Why not: MUTED, COOLDOWN, or NO_CHANNEL (it was due, but no channel takes it). */
  withheld: Maybe<Scalars['String']['output']>;
  detail: Maybe<Scalars['String']['output']>;
  deliveries: Array<AlertDelivery>;
};

export type AlertChange = {
  /** FIRING, ESCALATED, DEESCALATED, RESOLVED, RULES_CHANGED, CHANNELS_CHANGED, MUTED or UNMUTED. */
  kind: Scalars['String']['output'];
  ruleId: Maybe<Scalars['String']['output']>;
  alertId: Maybe<Scalars['String']['output']>;
  /** Epoch milliseconds. */
  ts: Scalars['Float']['output'];
};
