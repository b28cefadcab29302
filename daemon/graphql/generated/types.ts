// Generated from schema.graphql by daemon/graphql/codegen.ts (`npm run codegen`). Do not edit.
/* eslint-disable */
import type { GraphQLResolveInfo } from 'graphql';
import type { SystemParent, ProviderSystemParent, AgentParent, DashboardParent } from '../parents.js';
import type { RateLimitsView } from '../../../shared/queries/rate-limits.js';
import type { WindowProjection } from '../../../shared/queries/rate-limit-projection.js';
import type { DataSourceView } from '../../../shared/queries/sources.js';
import type { SessionView } from '../../../shared/queries/sessions.js';
import type { ProjectUsageView } from '../../../shared/queries/projects.js';
import type { Metrics as MetricsModel } from '../../../shared/queries/metrics.js';
import type { LifetimeStats as LifetimeStatsModel } from '../../../shared/queries/lifetime.js';
import type { SessionTranscript as SessionTranscriptModel } from '../../../shared/queries/transcript.js';
import type { CronJobView } from '../../../shared/queries/cron.js';
import type { UsageCost as UsageCostModel } from '../../../shared/queries/usage-cost.js';
import type { EventView, LogEntryView } from '../../../shared/queries/events.js';
import type { AlertRow, RuleView, ChannelView, HistoryEvent, DeliveryView, AlertChange as AlertChangeModel } from '../../../shared/alerts/views.js';
import type { Projection } from '../../../shared/alerts/windows.js';
import type { GraphQLContext } from '../context.js';
export type Maybe<T> = T | null;
export type InputMaybe<T> = T | null | undefined;
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
};

export type Query = {
  __typename?: 'Query';
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
  provider?: InputMaybe<Provider>;
  context?: InputMaybe<QueryContext>;
};


export type QuerySystemsArgs = {
  context?: InputMaybe<QueryContext>;
};


export type QuerySourcesArgs = {
  filter?: InputMaybe<SourceFilter>;
  context?: InputMaybe<QueryContext>;
};


export type QuerySourceArgs = {
  selector?: InputMaybe<SourceSelector>;
  context?: InputMaybe<QueryContext>;
};


export type QueryAlertsArgs = {
  state?: InputMaybe<AlertState>;
  ruleId?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryAlertHistoryArgs = {
  alertId?: InputMaybe<Scalars['String']['input']>;
  ruleId?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
};

export type Mutation = {
  __typename?: 'Mutation';
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
  __typename?: 'Subscription';
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
  filter?: InputMaybe<LogFilter>;
};

/** Optional on every root query: tracing, display preferences and default filters. */
export type QueryContext = {
  /** Echoed into the daemon's access log line for this request (letters, digits, `-_.:`, at most 64). */
  traceId?: InputMaybe<Scalars['String']['input']>;
  /** BCP 47 language for labels, e.g. `en`, `zh-CN`. Default `en`. */
  locale?: InputMaybe<Scalars['String']['input']>;
  /** IANA time zone for bucket labels and day boundaries, e.g. `Asia/Shanghai`. Default: the daemon host's zone. */
  timezone?: InputMaybe<Scalars['String']['input']>;
  /** Used by `metrics` when its `range` argument is absent. */
  defaultRange?: InputMaybe<MetricsRange>;
  /** Used by `sources` and `source` when their filter or selector names no tags. */
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
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
  __typename?: 'DataSource';
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
  __typename?: 'SourceAttributes';
  category: Category;
  /** Null for `dashboard:self`. */
  provider: Maybe<Provider>;
  /** The provider (`openclaw`, `claude-code`, `codex`) and the agent id or install name. */
  tags: Array<Scalars['String']['output']>;
};

/** Every given field must match; tags must all be present. */
export type SourceFilter = {
  category?: InputMaybe<Category>;
  provider?: InputMaybe<Provider>;
  status?: InputMaybe<SourceStatus>;
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
};

export type SourceSelector = {
  id?: InputMaybe<Scalars['String']['input']>;
  category?: InputMaybe<Category>;
  provider?: InputMaybe<Provider>;
  tags?: InputMaybe<Array<Scalars['String']['input']>>;
};

export type SourceNamespace = AgentNamespace | DashboardNamespace;

export type SystemNamespace = {
  provider: Provider;
  health: Health;
};

/** OpenClaw's gateway. */
export type ProviderASystem = SystemNamespace & {
  __typename?: 'ProviderASystem';
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
  __typename?: 'Gateway';
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
  __typename?: 'Resources';
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
  __typename?: 'ProviderBSystem';
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
  __typename?: 'ProviderCSystem';
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
  __typename?: 'ProviderDSystem';
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
  __typename?: 'RateLimits';
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
  days?: InputMaybe<Scalars['Int']['input']>;
};

export type RateLimitWindow = {
  __typename?: 'RateLimitWindow';
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
  __typename?: 'RateLimitProjection';
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
  __typename?: 'RateLimitCredits';
  hasCredits: Maybe<Scalars['Boolean']['output']>;
  unlimited: Maybe<Scalars['Boolean']['output']>;
  balance: Maybe<Scalars['String']['output']>;
};

export type RateLimitSample = {
  __typename?: 'RateLimitSample';
  time: Scalars['String']['output'];
  primaryUsedPercent: Maybe<Scalars['Float']['output']>;
  secondaryUsedPercent: Maybe<Scalars['Float']['output']>;
};

/** A provider's process running now. */
export type LiveSession = {
  __typename?: 'LiveSession';
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
  __typename?: 'Channel';
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
  __typename?: 'Health';
  status: HealthLevel;
  /** The same verdict in words: UNHEALTHY on any FAIL, else STARTING while a check has no first reading, else OK or DEGRADED. */
  verdict: HealthVerdict;
  /** gateway, ready, event-loop, channels, sources, disk, store. */
  checks: Array<HealthCheck>;
};

export type HealthCheck = {
  __typename?: 'HealthCheck';
  name: Scalars['String']['output'];
  status: CheckStatus;
  message: Maybe<Scalars['String']['output']>;
};

export type AgentNamespace = {
  __typename?: 'AgentNamespace';
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
  filter?: InputMaybe<SessionFilter>;
};


export type AgentNamespaceSessionArgs = {
  key: Scalars['String']['input'];
};


export type AgentNamespaceMetricsArgs = {
  date?: InputMaybe<Scalars['String']['input']>;
  range?: InputMaybe<MetricsRange>;
};


export type AgentNamespaceEventsArgs = {
  from?: InputMaybe<Scalars['Int']['input']>;
  to?: InputMaybe<Scalars['Int']['input']>;
  types?: InputMaybe<Array<Scalars['String']['input']>>;
  limit?: InputMaybe<Scalars['Int']['input']>;
};


export type AgentNamespaceEventCountsArgs = {
  from?: InputMaybe<Scalars['Int']['input']>;
  to?: InputMaybe<Scalars['Int']['input']>;
};


export type AgentNamespaceSessionTranscriptArgs = {
  sessionKey: Scalars['String']['input'];
  limit?: InputMaybe<Scalars['Int']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
};


export type AgentNamespaceProjectsArgs = {
  range?: InputMaybe<MetricsRange>;
  limit?: InputMaybe<Scalars['Int']['input']>;
};


export type AgentNamespaceRecentLogsArgs = {
  count?: InputMaybe<Scalars['Int']['input']>;
  filter?: InputMaybe<LogFilter>;
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
  activeOnly?: InputMaybe<Scalars['Boolean']['input']>;
  /** Nest sub-agents under their parent (default true). */
  grouped?: InputMaybe<Scalars['Boolean']['input']>;
  sortBy?: InputMaybe<SessionSort>;
  /** Default 100, max 1000. */
  limit?: InputMaybe<Scalars['Int']['input']>;
};

/** One session key; its figures sum every window (transcript) under the key. */
export type Session = {
  __typename?: 'Session';
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
  __typename?: 'Metrics';
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
  __typename?: 'ModelTokens';
  model: Scalars['String']['output'];
  tokens: Scalars['Float']['output'];
  costUsd: Scalars['Float']['output'];
};

export type MetricsBucket = {
  __typename?: 'MetricsBucket';
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
  __typename?: 'Event';
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
  __typename?: 'EventDensityBucket';
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
  __typename?: 'EventCounts';
  error: Scalars['Int']['output'];
  warning: Scalars['Int']['output'];
  restart: Scalars['Int']['output'];
};

export type LifetimeStats = {
  __typename?: 'LifetimeStats';
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
  __typename?: 'SessionTranscript';
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
  __typename?: 'TranscriptMessage';
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
  __typename?: 'ToolCall';
  id: Maybe<Scalars['String']['output']>;
  name: Maybe<Scalars['String']['output']>;
};

export type PageInfo = {
  __typename?: 'PageInfo';
  hasPreviousPage: Scalars['Boolean']['output'];
  hasNextPage: Scalars['Boolean']['output'];
  startCursor: Maybe<Scalars['String']['output']>;
  endCursor: Maybe<Scalars['String']['output']>;
};

/** One project's share of a source's usage. */
export type ProjectUsage = {
  __typename?: 'ProjectUsage';
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
  __typename?: 'CronJob';
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
  __typename?: 'CronRun';
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
  __typename?: 'UsageCost';
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
  __typename?: 'ModelCost';
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
  __typename?: 'DayCost';
  /** YYYY-MM-DD in the context's time zone. */
  date: Scalars['String']['output'];
  costUsd: Scalars['Float']['output'];
  totalTokens: Scalars['Float']['output'];
  messages: Scalars['Int']['output'];
};

export type LogEntry = {
  __typename?: 'LogEntry';
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
  level?: InputMaybe<LogLevel>;
  /** Exact subsystem, or a prefix ending in `/` (e.g. `gateway/`). */
  module?: InputMaybe<Scalars['String']['input']>;
  agentId?: InputMaybe<Scalars['String']['input']>;
};

export type DashboardNamespace = {
  __typename?: 'DashboardNamespace';
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
  __typename?: 'RenderQueue';
  active: Scalars['Int']['output'];
  queued: Scalars['Int']['output'];
  concurrency: Scalars['Int']['output'];
  maxQueue: Scalars['Int']['output'];
  rendersTotal: Scalars['Float']['output'];
  failuresTotal: Scalars['Float']['output'];
};

export type StoreInfo = {
  __typename?: 'StoreInfo';
  ok: Scalars['Boolean']['output'];
  path: Scalars['String']['output'];
  sizeBytes: Scalars['Float']['output'];
  schemaVersion: Scalars['Int']['output'];
  error: Maybe<Scalars['String']['output']>;
};

export type DataChange = {
  __typename?: 'DataChange';
  /** A source id (`agent:<agentId>`, `claude-code:<name>`, `codex:<name>`, `gemini-cli:<name>`), `dashboard:self`, or `system` (OpenClaw's gateway, resources, channels, health). */
  source: Scalars['String']['output'];
  /** Epoch milliseconds. */
  ts: Scalars['Float']['output'];
};

export type OperationResult = {
  __typename?: 'OperationResult';
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
  __typename?: 'AlertScope';
  /** A provider's name: openclaw, claude-code, codex or gemini-cli. */
  provider: Maybe<Scalars['String']['output']>;
  source: Maybe<Scalars['String']['output']>;
  project: Maybe<Scalars['String']['output']>;
  model: Maybe<Scalars['String']['output']>;
};

export type AlertScopeInput = {
  /** A provider's name: openclaw, claude-code, codex or gemini-cli. */
  provider?: InputMaybe<Scalars['String']['input']>;
  source?: InputMaybe<Scalars['String']['input']>;
  project?: InputMaybe<Scalars['String']['input']>;
  model?: InputMaybe<Scalars['String']['input']>;
};

export type AlertRule = {
  __typename?: 'AlertRule';
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
  name?: InputMaybe<Scalars['String']['input']>;
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  metric: AlertMetric;
  scope?: InputMaybe<AlertScopeInput>;
  window?: InputMaybe<AlertWindow>;
  budget?: InputMaybe<Scalars['Float']['input']>;
  warning?: InputMaybe<Scalars['Float']['input']>;
  critical?: InputMaybe<Scalars['Float']['input']>;
  check?: InputMaybe<Scalars['String']['input']>;
  cooldownMinutes?: InputMaybe<Scalars['Int']['input']>;
  channels?: InputMaybe<Array<Scalars['String']['input']>>;
};

export type AlertRulePatch = {
  name?: InputMaybe<Scalars['String']['input']>;
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  scope?: InputMaybe<AlertScopeInput>;
  window?: InputMaybe<AlertWindow>;
  budget?: InputMaybe<Scalars['Float']['input']>;
  warning?: InputMaybe<Scalars['Float']['input']>;
  critical?: InputMaybe<Scalars['Float']['input']>;
  check?: InputMaybe<Scalars['String']['input']>;
  cooldownMinutes?: InputMaybe<Scalars['Int']['input']>;
  channels?: InputMaybe<Array<Scalars['String']['input']>>;
};

export type DeletedAlertRule = {
  __typename?: 'DeletedAlertRule';
  id: Scalars['String']['output'];
  /** True for a built-in rule: it is back to its shipped settings. */
  reset: Scalars['Boolean']['output'];
};

export type AlertProjection = {
  __typename?: 'AlertProjection';
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
  __typename?: 'Alert';
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
  __typename?: 'AlertChannel';
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
  name?: InputMaybe<Scalars['String']['input']>;
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  /** WEBHOOK, NTFY: where to POST; SLACK, DISCORD: the incoming-webhook URL (a secret itself). */
  url?: InputMaybe<Scalars['String']['input']>;
  /** WEBHOOK: the HMAC key; NTFY: the access token. */
  secret?: InputMaybe<Scalars['String']['input']>;
  /** Refused (FORBIDDEN_CHANNEL_TYPE): command channels come from config.json only. */
  command?: InputMaybe<Array<Scalars['String']['input']>>;
  minSeverity?: InputMaybe<AlertSeverity>;
  sendResolved?: InputMaybe<Scalars['Boolean']['input']>;
  timeoutSeconds?: InputMaybe<Scalars['Int']['input']>;
};

export type AlertChannelPatch = {
  name?: InputMaybe<Scalars['String']['input']>;
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  /** A new URL drops the channel's secret unless this call sets one. */
  url?: InputMaybe<Scalars['String']['input']>;
  secret?: InputMaybe<Scalars['String']['input']>;
  /** Refused (FORBIDDEN_CHANNEL_TYPE): command channels come from config.json only. */
  command?: InputMaybe<Array<Scalars['String']['input']>>;
  minSeverity?: InputMaybe<AlertSeverity>;
  sendResolved?: InputMaybe<Scalars['Boolean']['input']>;
  timeoutSeconds?: InputMaybe<Scalars['Int']['input']>;
};

export type DeletedAlertChannel = {
  __typename?: 'DeletedAlertChannel';
  id: Scalars['String']['output'];
};

export type AlertDelivery = {
  __typename?: 'AlertDelivery';
  channelId: Scalars['String']['output'];
  /** SENT, FAILED or DROPPED. */
  outcome: Scalars['String']['output'];
  attempts: Scalars['Int']['output'];
  /** Why it failed, without secrets. */
  error: Maybe<Scalars['String']['output']>;
  at: Maybe<Scalars['String']['output']>;
};

export type AlertEvent = {
  __typename?: 'AlertEvent';
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
  __typename?: 'AlertChange';
  /** FIRING, ESCALATED, DEESCALATED, RESOLVED, RULES_CHANGED, CHANNELS_CHANGED, MUTED or UNMUTED. */
  kind: Scalars['String']['output'];
  ruleId: Maybe<Scalars['String']['output']>;
  alertId: Maybe<Scalars['String']['output']>;
  /** Epoch milliseconds. */
  ts: Scalars['Float']['output'];
};



export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;



/** Mapping of union types */
export type ResolversUnionTypes<_RefType extends Record<string, unknown>> = {
  SourceNamespace:
    | ( AgentParent )
    | ( DashboardParent )
  ;
};

/** Mapping of interface types */
export type ResolversInterfaceTypes<_RefType extends Record<string, unknown>> = {
  SystemNamespace:
    | ( SystemParent )
    | ( ProviderSystemParent )
    | ( ProviderSystemParent )
    | ( ProviderSystemParent )
  ;
};

/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
  QueryContext: QueryContext;
  SourceStatus: SourceStatus;
  Category: Category;
  Provider: Provider;
  DataSource: ResolverTypeWrapper<DataSourceView>;
  SourceAttributes: ResolverTypeWrapper<SourceAttributes>;
  SourceFilter: SourceFilter;
  SourceSelector: SourceSelector;
  SourceNamespace: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['SourceNamespace']>;
  SystemNamespace: ResolverTypeWrapper<ResolversInterfaceTypes<ResolversTypes>['SystemNamespace']>;
  ProviderASystem: ResolverTypeWrapper<SystemParent>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  GatewayState: GatewayState;
  Gateway: ResolverTypeWrapper<Gateway>;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  Resources: ResolverTypeWrapper<Resources>;
  ProviderBSystem: ResolverTypeWrapper<ProviderSystemParent>;
  ProviderCSystem: ResolverTypeWrapper<ProviderSystemParent>;
  ProviderDSystem: ResolverTypeWrapper<ProviderSystemParent>;
  RateLimits: ResolverTypeWrapper<RateLimitsView>;
  RateLimitWindow: ResolverTypeWrapper<Omit<RateLimitWindow, 'projection'> & { projection: ResolversTypes['RateLimitProjection'] }>;
  RateLimitProjectionStatus: RateLimitProjectionStatus;
  RateLimitProjection: ResolverTypeWrapper<WindowProjection>;
  RateLimitCredits: ResolverTypeWrapper<RateLimitCredits>;
  RateLimitSample: ResolverTypeWrapper<RateLimitSample>;
  LiveSession: ResolverTypeWrapper<LiveSession>;
  Channel: ResolverTypeWrapper<Channel>;
  HealthLevel: HealthLevel;
  CheckStatus: CheckStatus;
  HealthVerdict: HealthVerdict;
  Health: ResolverTypeWrapper<Health>;
  HealthCheck: ResolverTypeWrapper<HealthCheck>;
  AgentNamespace: ResolverTypeWrapper<AgentParent>;
  SessionStatus: SessionStatus;
  SessionSort: SessionSort;
  SessionFilter: SessionFilter;
  Session: ResolverTypeWrapper<SessionView>;
  MetricsRange: MetricsRange;
  Metrics: ResolverTypeWrapper<MetricsModel>;
  ModelTokens: ResolverTypeWrapper<ModelTokens>;
  MetricsBucket: ResolverTypeWrapper<MetricsBucket>;
  Event: ResolverTypeWrapper<EventView>;
  EventDensityBucket: ResolverTypeWrapper<EventDensityBucket>;
  EventCounts: ResolverTypeWrapper<EventCounts>;
  LifetimeStats: ResolverTypeWrapper<LifetimeStatsModel>;
  SessionTranscript: ResolverTypeWrapper<SessionTranscriptModel>;
  TranscriptMessage: ResolverTypeWrapper<TranscriptMessage>;
  ToolCall: ResolverTypeWrapper<ToolCall>;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  ProjectUsage: ResolverTypeWrapper<ProjectUsageView>;
  CronJob: ResolverTypeWrapper<CronJobView>;
  CronRun: ResolverTypeWrapper<CronRun>;
  UsageCost: ResolverTypeWrapper<UsageCostModel>;
  ModelCost: ResolverTypeWrapper<ModelCost>;
  DayCost: ResolverTypeWrapper<DayCost>;
  LogEntry: ResolverTypeWrapper<LogEntryView>;
  LogLevel: LogLevel;
  LogFilter: LogFilter;
  DashboardNamespace: ResolverTypeWrapper<DashboardParent>;
  RenderQueue: ResolverTypeWrapper<RenderQueue>;
  StoreInfo: ResolverTypeWrapper<StoreInfo>;
  DataChange: ResolverTypeWrapper<DataChange>;
  OperationResult: ResolverTypeWrapper<OperationResult>;
  AlertState: AlertState;
  AlertSeverity: AlertSeverity;
  AlertMetric: AlertMetric;
  AlertWindow: AlertWindow;
  AlertRuleOrigin: AlertRuleOrigin;
  AlertChannelType: AlertChannelType;
  AlertScope: ResolverTypeWrapper<AlertScope>;
  AlertScopeInput: AlertScopeInput;
  AlertRule: ResolverTypeWrapper<RuleView>;
  AlertRuleInput: AlertRuleInput;
  AlertRulePatch: AlertRulePatch;
  DeletedAlertRule: ResolverTypeWrapper<DeletedAlertRule>;
  AlertProjection: ResolverTypeWrapper<Projection>;
  Alert: ResolverTypeWrapper<AlertRow>;
  AlertChannel: ResolverTypeWrapper<ChannelView>;
  AlertChannelInput: AlertChannelInput;
  AlertChannelPatch: AlertChannelPatch;
  DeletedAlertChannel: ResolverTypeWrapper<DeletedAlertChannel>;
  AlertDelivery: ResolverTypeWrapper<DeliveryView>;
  AlertEvent: ResolverTypeWrapper<HistoryEvent>;
  AlertChange: ResolverTypeWrapper<AlertChangeModel>;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  Query: Record<PropertyKey, never>;
  String: Scalars['String']['output'];
  Int: Scalars['Int']['output'];
  Mutation: Record<PropertyKey, never>;
  Subscription: Record<PropertyKey, never>;
  QueryContext: QueryContext;
  DataSource: DataSourceView;
  SourceAttributes: SourceAttributes;
  SourceFilter: SourceFilter;
  SourceSelector: SourceSelector;
  SourceNamespace: ResolversUnionTypes<ResolversParentTypes>['SourceNamespace'];
  SystemNamespace: ResolversInterfaceTypes<ResolversParentTypes>['SystemNamespace'];
  ProviderASystem: SystemParent;
  Boolean: Scalars['Boolean']['output'];
  Gateway: Gateway;
  Float: Scalars['Float']['output'];
  Resources: Resources;
  ProviderBSystem: ProviderSystemParent;
  ProviderCSystem: ProviderSystemParent;
  ProviderDSystem: ProviderSystemParent;
  RateLimits: RateLimitsView;
  RateLimitWindow: Omit<RateLimitWindow, 'projection'> & { projection: ResolversParentTypes['RateLimitProjection'] };
  RateLimitProjection: WindowProjection;
  RateLimitCredits: RateLimitCredits;
  RateLimitSample: RateLimitSample;
  LiveSession: LiveSession;
  Channel: Channel;
  Health: Health;
  HealthCheck: HealthCheck;
  AgentNamespace: AgentParent;
  SessionFilter: SessionFilter;
  Session: SessionView;
  Metrics: MetricsModel;
  ModelTokens: ModelTokens;
  MetricsBucket: MetricsBucket;
  Event: EventView;
  EventDensityBucket: EventDensityBucket;
  EventCounts: EventCounts;
  LifetimeStats: LifetimeStatsModel;
  SessionTranscript: SessionTranscriptModel;
  TranscriptMessage: TranscriptMessage;
  ToolCall: ToolCall;
  PageInfo: PageInfo;
  ProjectUsage: ProjectUsageView;
  CronJob: CronJobView;
  CronRun: CronRun;
  UsageCost: UsageCostModel;
  ModelCost: ModelCost;
  DayCost: DayCost;
  LogEntry: LogEntryView;
  LogFilter: LogFilter;
  DashboardNamespace: DashboardParent;
  RenderQueue: RenderQueue;
  StoreInfo: StoreInfo;
  DataChange: DataChange;
  OperationResult: OperationResult;
  AlertScope: AlertScope;
  AlertScopeInput: AlertScopeInput;
  AlertRule: RuleView;
  AlertRuleInput: AlertRuleInput;
  AlertRulePatch: AlertRulePatch;
  DeletedAlertRule: DeletedAlertRule;
  AlertProjection: Projection;
  Alert: AlertRow;
  AlertChannel: ChannelView;
  AlertChannelInput: AlertChannelInput;
  AlertChannelPatch: AlertChannelPatch;
  DeletedAlertChannel: DeletedAlertChannel;
  AlertDelivery: DeliveryView;
  AlertEvent: HistoryEvent;
  AlertChange: AlertChangeModel;
};

export type QueryResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  system?: Resolver<ResolversTypes['SystemNamespace'], ParentType, ContextType, Partial<QuerySystemArgs>>;
  systems?: Resolver<Array<ResolversTypes['SystemNamespace']>, ParentType, ContextType, Partial<QuerySystemsArgs>>;
  sources?: Resolver<Array<ResolversTypes['DataSource']>, ParentType, ContextType, Partial<QuerySourcesArgs>>;
  source?: Resolver<ResolversTypes['SourceNamespace'], ParentType, ContextType, Partial<QuerySourceArgs>>;
  alerts?: Resolver<Array<ResolversTypes['Alert']>, ParentType, ContextType, Partial<QueryAlertsArgs>>;
  alertRules?: Resolver<Array<ResolversTypes['AlertRule']>, ParentType, ContextType>;
  alertChannels?: Resolver<Array<ResolversTypes['AlertChannel']>, ParentType, ContextType>;
  alertHistory?: Resolver<Array<ResolversTypes['AlertEvent']>, ParentType, ContextType, Partial<QueryAlertHistoryArgs>>;
};

export type MutationResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  restartGateway?: Resolver<ResolversTypes['OperationResult'], ParentType, ContextType>;
  updateGateway?: Resolver<ResolversTypes['OperationResult'], ParentType, ContextType>;
  addAlertRule?: Resolver<ResolversTypes['AlertRule'], ParentType, ContextType, RequireFields<MutationAddAlertRuleArgs, 'input'>>;
  updateAlertRule?: Resolver<ResolversTypes['AlertRule'], ParentType, ContextType, RequireFields<MutationUpdateAlertRuleArgs, 'id' | 'input'>>;
  muteAlertRule?: Resolver<ResolversTypes['AlertRule'], ParentType, ContextType, RequireFields<MutationMuteAlertRuleArgs, 'id' | 'until'>>;
  unmuteAlertRule?: Resolver<ResolversTypes['AlertRule'], ParentType, ContextType, RequireFields<MutationUnmuteAlertRuleArgs, 'id'>>;
  deleteAlertRule?: Resolver<ResolversTypes['DeletedAlertRule'], ParentType, ContextType, RequireFields<MutationDeleteAlertRuleArgs, 'id'>>;
  addAlertChannel?: Resolver<ResolversTypes['AlertChannel'], ParentType, ContextType, RequireFields<MutationAddAlertChannelArgs, 'input'>>;
  updateAlertChannel?: Resolver<ResolversTypes['AlertChannel'], ParentType, ContextType, RequireFields<MutationUpdateAlertChannelArgs, 'id' | 'input'>>;
  deleteAlertChannel?: Resolver<ResolversTypes['DeletedAlertChannel'], ParentType, ContextType, RequireFields<MutationDeleteAlertChannelArgs, 'id'>>;
  testAlertChannel?: Resolver<ResolversTypes['AlertDelivery'], ParentType, ContextType, RequireFields<MutationTestAlertChannelArgs, 'id'>>;
};

export type SubscriptionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = {
  dataChanged?: SubscriptionResolver<ResolversTypes['DataChange'], "dataChanged", ParentType, ContextType>;
  logs?: SubscriptionResolver<ResolversTypes['LogEntry'], "logs", ParentType, ContextType, Partial<SubscriptionLogsArgs>>;
  alertChanged?: SubscriptionResolver<ResolversTypes['AlertChange'], "alertChanged", ParentType, ContextType>;
};

export type DataSourceResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DataSource'] = ResolversParentTypes['DataSource']> = {
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['SourceStatus'], ParentType, ContextType>;
  attributes?: Resolver<ResolversTypes['SourceAttributes'], ParentType, ContextType>;
  lastError?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  since?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type SourceAttributesResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['SourceAttributes'] = ResolversParentTypes['SourceAttributes']> = {
  category?: Resolver<ResolversTypes['Category'], ParentType, ContextType>;
  provider?: Resolver<Maybe<ResolversTypes['Provider']>, ParentType, ContextType>;
  tags?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
};

export type SourceNamespaceResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['SourceNamespace'] = ResolversParentTypes['SourceNamespace']> = {
  __resolveType: TypeResolveFn<'AgentNamespace' | 'DashboardNamespace', ParentType, ContextType>;
};

export type SystemNamespaceResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['SystemNamespace'] = ResolversParentTypes['SystemNamespace']> = {
  __resolveType: TypeResolveFn<'ProviderASystem' | 'ProviderBSystem' | 'ProviderCSystem' | 'ProviderDSystem', ParentType, ContextType>;
};

export type ProviderASystemResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ProviderASystem'] = ResolversParentTypes['ProviderASystem']> = {
  provider?: Resolver<ResolversTypes['Provider'], ParentType, ContextType>;
  demo?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  gateway?: Resolver<ResolversTypes['Gateway'], ParentType, ContextType>;
  resources?: Resolver<ResolversTypes['Resources'], ParentType, ContextType>;
  channels?: Resolver<Array<ResolversTypes['Channel']>, ParentType, ContextType>;
  health?: Resolver<ResolversTypes['Health'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type GatewayResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Gateway'] = ResolversParentTypes['Gateway']> = {
  state?: Resolver<ResolversTypes['GatewayState'], ParentType, ContextType>;
  running?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  version?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  appVersion?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  uptime?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  pid?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  port?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  url?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  startedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  updateAvailable?: Resolver<Maybe<ResolversTypes['Boolean']>, ParentType, ContextType>;
  latestVersion?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  latencyMs?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  checkedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type ResourcesResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Resources'] = ResolversParentTypes['Resources']> = {
  cpu?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  memoryMB?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  diskMB?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  diskFreeMB?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  sampledAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type ProviderBSystemResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ProviderBSystem'] = ResolversParentTypes['ProviderBSystem']> = {
  provider?: Resolver<ResolversTypes['Provider'], ParentType, ContextType>;
  demo?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  versions?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  liveSessions?: Resolver<Array<ResolversTypes['LiveSession']>, ParentType, ContextType>;
  sources?: Resolver<Array<ResolversTypes['DataSource']>, ParentType, ContextType>;
  health?: Resolver<ResolversTypes['Health'], ParentType, ContextType>;
  rateLimits?: Resolver<Maybe<ResolversTypes['RateLimits']>, ParentType, ContextType>;
  rateLimitsBySource?: Resolver<Array<ResolversTypes['RateLimits']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ProviderCSystemResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ProviderCSystem'] = ResolversParentTypes['ProviderCSystem']> = {
  provider?: Resolver<ResolversTypes['Provider'], ParentType, ContextType>;
  demo?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  versions?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  liveSessions?: Resolver<Array<ResolversTypes['LiveSession']>, ParentType, ContextType>;
  sources?: Resolver<Array<ResolversTypes['DataSource']>, ParentType, ContextType>;
  health?: Resolver<ResolversTypes['Health'], ParentType, ContextType>;
  rateLimits?: Resolver<Maybe<ResolversTypes['RateLimits']>, ParentType, ContextType>;
  rateLimitsBySource?: Resolver<Array<ResolversTypes['RateLimits']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ProviderDSystemResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ProviderDSystem'] = ResolversParentTypes['ProviderDSystem']> = {
  provider?: Resolver<ResolversTypes['Provider'], ParentType, ContextType>;
  demo?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  versions?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  liveSessions?: Resolver<Array<ResolversTypes['LiveSession']>, ParentType, ContextType>;
  sources?: Resolver<Array<ResolversTypes['DataSource']>, ParentType, ContextType>;
  health?: Resolver<ResolversTypes['Health'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type RateLimitsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['RateLimits'] = ResolversParentTypes['RateLimits']> = {
  source?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  limitId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  primary?: Resolver<Maybe<ResolversTypes['RateLimitWindow']>, ParentType, ContextType>;
  secondary?: Resolver<Maybe<ResolversTypes['RateLimitWindow']>, ParentType, ContextType>;
  planType?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  credits?: Resolver<Maybe<ResolversTypes['RateLimitCredits']>, ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  stale?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  history?: Resolver<Array<ResolversTypes['RateLimitSample']>, ParentType, ContextType, Partial<RateLimitsHistoryArgs>>;
};

export type RateLimitWindowResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['RateLimitWindow'] = ResolversParentTypes['RateLimitWindow']> = {
  usedPercent?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  windowMinutes?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  resetsAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  projection?: Resolver<ResolversTypes['RateLimitProjection'], ParentType, ContextType>;
};

export type RateLimitProjectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['RateLimitProjection'] = ResolversParentTypes['RateLimitProjection']> = {
  status?: Resolver<ResolversTypes['RateLimitProjectionStatus'], ParentType, ContextType>;
  burnPercentPerHour?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  fullAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  resetsAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  beforeReset?: Resolver<Maybe<ResolversTypes['Boolean']>, ParentType, ContextType>;
  usedPercentAtReset?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  samples?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type RateLimitCreditsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['RateLimitCredits'] = ResolversParentTypes['RateLimitCredits']> = {
  hasCredits?: Resolver<Maybe<ResolversTypes['Boolean']>, ParentType, ContextType>;
  unlimited?: Resolver<Maybe<ResolversTypes['Boolean']>, ParentType, ContextType>;
  balance?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type RateLimitSampleResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['RateLimitSample'] = ResolversParentTypes['RateLimitSample']> = {
  time?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  primaryUsedPercent?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  secondaryUsedPercent?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
};

export type LiveSessionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['LiveSession'] = ResolversParentTypes['LiveSession']> = {
  source?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  sessionKey?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  pid?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  startedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  project?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  cliVersion?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  cpu?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  memoryMB?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
};

export type ChannelResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Channel'] = ResolversParentTypes['Channel']> = {
  provider?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  connected?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  latencyMs?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  lastError?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type HealthResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Health'] = ResolversParentTypes['Health']> = {
  status?: Resolver<ResolversTypes['HealthLevel'], ParentType, ContextType>;
  verdict?: Resolver<ResolversTypes['HealthVerdict'], ParentType, ContextType>;
  checks?: Resolver<Array<ResolversTypes['HealthCheck']>, ParentType, ContextType>;
};

export type HealthCheckResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['HealthCheck'] = ResolversParentTypes['HealthCheck']> = {
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['CheckStatus'], ParentType, ContextType>;
  message?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type AgentNamespaceResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AgentNamespace'] = ResolversParentTypes['AgentNamespace']> = {
  source?: Resolver<ResolversTypes['DataSource'], ParentType, ContextType>;
  agentId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  sessions?: Resolver<Array<ResolversTypes['Session']>, ParentType, ContextType, Partial<AgentNamespaceSessionsArgs>>;
  session?: Resolver<Maybe<ResolversTypes['Session']>, ParentType, ContextType, RequireFields<AgentNamespaceSessionArgs, 'key'>>;
  metrics?: Resolver<ResolversTypes['Metrics'], ParentType, ContextType, Partial<AgentNamespaceMetricsArgs>>;
  events?: Resolver<Array<ResolversTypes['Event']>, ParentType, ContextType, Partial<AgentNamespaceEventsArgs>>;
  eventDensity?: Resolver<Array<ResolversTypes['EventDensityBucket']>, ParentType, ContextType>;
  eventCounts?: Resolver<ResolversTypes['EventCounts'], ParentType, ContextType, Partial<AgentNamespaceEventCountsArgs>>;
  lifetimeStats?: Resolver<ResolversTypes['LifetimeStats'], ParentType, ContextType>;
  sessionTranscript?: Resolver<ResolversTypes['SessionTranscript'], ParentType, ContextType, RequireFields<AgentNamespaceSessionTranscriptArgs, 'sessionKey'>>;
  projects?: Resolver<Array<ResolversTypes['ProjectUsage']>, ParentType, ContextType, Partial<AgentNamespaceProjectsArgs>>;
  cronJobs?: Resolver<Array<ResolversTypes['CronJob']>, ParentType, ContextType>;
  usageCost?: Resolver<ResolversTypes['UsageCost'], ParentType, ContextType>;
  recentLogs?: Resolver<Array<ResolversTypes['LogEntry']>, ParentType, ContextType, Partial<AgentNamespaceRecentLogsArgs>>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type SessionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Session'] = ResolversParentTypes['Session']> = {
  key?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  agentId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  displayName?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  model?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  channel?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['SessionStatus'], ParentType, ContextType>;
  totalTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  inputTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  outputTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  cacheReadTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  cacheWriteTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  reasoningTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  costUsd?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  unpricedResponses?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  project?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  gitBranch?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  contextTokens?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  contextWindow?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  usagePercent?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  turnCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  assistantMessages?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  toolCalls?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  errors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  updatedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  startedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  lastActivityAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  parentKey?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  thinkingLevel?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  windows?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  subAgents?: Resolver<Array<ResolversTypes['Session']>, ParentType, ContextType>;
};

export type MetricsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Metrics'] = ResolversParentTypes['Metrics']> = {
  range?: Resolver<ResolversTypes['MetricsRange'], ParentType, ContextType>;
  from?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  to?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  totalTokensK?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  lastActivityAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  rangeTokensK?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  totalErrors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalWarnings?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalTurns?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  costUsd?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  uptimePercent?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  tokensByModel?: Resolver<Array<ResolversTypes['ModelTokens']>, ParentType, ContextType>;
  buckets?: Resolver<Array<ResolversTypes['MetricsBucket']>, ParentType, ContextType>;
};

export type ModelTokensResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ModelTokens'] = ResolversParentTypes['ModelTokens']> = {
  model?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  tokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  costUsd?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
};

export type MetricsBucketResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['MetricsBucket'] = ResolversParentTypes['MetricsBucket']> = {
  start?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  end?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  label?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  tokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  inputTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  outputTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  cacheReadTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  cacheWriteTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  costUsd?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  turns?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  errors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  warnings?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  uptimePercent?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
};

export type EventResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Event'] = ResolversParentTypes['Event']> = {
  ts?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  time?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  level?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  module?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  agentId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  sessionKey?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type EventDensityBucketResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['EventDensityBucket'] = ResolversParentTypes['EventDensityBucket']> = {
  hour?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  count?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  hasError?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasWarning?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasRestart?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  errorCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  warningCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  restartCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  epochStart?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type EventCountsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['EventCounts'] = ResolversParentTypes['EventCounts']> = {
  error?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  warning?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  restart?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type LifetimeStatsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['LifetimeStats'] = ResolversParentTypes['LifetimeStats']> = {
  isReady?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  daysSinceCreation?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalSessions?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalInputTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  totalOutputTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  totalCacheReadTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  totalCacheWriteTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  totalReasoningTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  totalTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  totalUserMessages?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalAssistantMessages?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalCostUsd?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  unpricedResponses?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type SessionTranscriptResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['SessionTranscript'] = ResolversParentTypes['SessionTranscript']> = {
  sessionKey?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  displayName?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  model?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  channel?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  thinkingLevel?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  startedAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  fileSize?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalTokens?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  contextTokens?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  durationMs?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  isSubAgent?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  parentDisplayName?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  spawnPrompt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  messages?: Resolver<Array<ResolversTypes['TranscriptMessage']>, ParentType, ContextType>;
  totalMessages?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type TranscriptMessageResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['TranscriptMessage'] = ResolversParentTypes['TranscriptMessage']> = {
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  sessionId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  role?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  text?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  timestamp?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  model?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  stopReason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  errorMessage?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  inputTokens?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  outputTokens?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  cacheReadTokens?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  cacheWriteTokens?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalTokens?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  costUsd?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  toolCalls?: Resolver<Array<ResolversTypes['ToolCall']>, ParentType, ContextType>;
  toolName?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  isError?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type ToolCallResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ToolCall'] = ResolversParentTypes['ToolCall']> = {
  id?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  name?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PageInfoResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  hasPreviousPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  startCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type ProjectUsageResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ProjectUsage'] = ResolversParentTypes['ProjectUsage']> = {
  project?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  sessions?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  inputTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  outputTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  cacheReadTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  cacheWriteTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  reasoningTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  costUsd?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  unpricedResponses?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  turns?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  lastActivityAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type CronJobResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CronJob'] = ResolversParentTypes['CronJob']> = {
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  agentId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  enabled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  schedule?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  scheduleKind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  lastRunAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  lastStatus?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  lastDurationMs?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  lastError?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  nextRunAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  overdue?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  overdueSeconds?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  consecutiveErrors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  recentRuns?: Resolver<Array<ResolversTypes['CronRun']>, ParentType, ContextType>;
};

export type CronRunResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CronRun'] = ResolversParentTypes['CronRun']> = {
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  startedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  durationMs?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  summary?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  sessionKey?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  totalTokens?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
};

export type UsageCostResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['UsageCost'] = ResolversParentTypes['UsageCost']> = {
  currency?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  totalUsd?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  todayUsd?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  monthUsd?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  monthTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  byModel?: Resolver<Array<ResolversTypes['ModelCost']>, ParentType, ContextType>;
  byDay?: Resolver<Array<ResolversTypes['DayCost']>, ParentType, ContextType>;
};

export type ModelCostResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ModelCost'] = ResolversParentTypes['ModelCost']> = {
  model?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  provider?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  costUsd?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  inputTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  outputTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  cacheReadTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  cacheWriteTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  totalTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  messages?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  unpricedResponses?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type DayCostResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DayCost'] = ResolversParentTypes['DayCost']> = {
  date?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  costUsd?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  totalTokens?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  messages?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type LogEntryResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['LogEntry'] = ResolversParentTypes['LogEntry']> = {
  time?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  level?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  module?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  agentId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  sessionKey?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type DashboardNamespaceResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DashboardNamespace'] = ResolversParentTypes['DashboardNamespace']> = {
  source?: Resolver<ResolversTypes['DataSource'], ParentType, ContextType>;
  version?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  now?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  startedAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  uptimeSeconds?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  demo?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  openclawDir?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  providers?: Resolver<Array<ResolversTypes['Provider']>, ParentType, ContextType>;
  authMode?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  url?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  requestsTotal?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  renderQueue?: Resolver<Maybe<ResolversTypes['RenderQueue']>, ParentType, ContextType>;
  store?: Resolver<ResolversTypes['StoreInfo'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type RenderQueueResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['RenderQueue'] = ResolversParentTypes['RenderQueue']> = {
  active?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  queued?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  concurrency?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  maxQueue?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  rendersTotal?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  failuresTotal?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
};

export type StoreInfoResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StoreInfo'] = ResolversParentTypes['StoreInfo']> = {
  ok?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  path?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  sizeBytes?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  schemaVersion?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type DataChangeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DataChange'] = ResolversParentTypes['DataChange']> = {
  source?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  ts?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
};

export type OperationResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['OperationResult'] = ResolversParentTypes['OperationResult']> = {
  ok?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  output?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  durationMs?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type AlertScopeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AlertScope'] = ResolversParentTypes['AlertScope']> = {
  provider?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  source?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  project?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  model?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type AlertRuleResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AlertRule'] = ResolversParentTypes['AlertRule']> = {
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  enabled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  metric?: Resolver<ResolversTypes['AlertMetric'], ParentType, ContextType>;
  scope?: Resolver<ResolversTypes['AlertScope'], ParentType, ContextType>;
  window?: Resolver<Maybe<ResolversTypes['AlertWindow']>, ParentType, ContextType>;
  unit?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  budget?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  warning?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  critical?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  check?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  cooldownMinutes?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  channels?: Resolver<Maybe<Array<ResolversTypes['String']>>, ParentType, ContextType>;
  origin?: Resolver<ResolversTypes['AlertRuleOrigin'], ParentType, ContextType>;
  overridden?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  editable?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  muted?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  mutedUntil?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  mutedBy?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  active?: Resolver<Array<ResolversTypes['Alert']>, ParentType, ContextType>;
};

export type DeletedAlertRuleResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeletedAlertRule'] = ResolversParentTypes['DeletedAlertRule']> = {
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  reset?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type AlertProjectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AlertProjection'] = ResolversParentTypes['AlertProjection']> = {
  ratePerHour?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  projectedTotal?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  target?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  reachesAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  reachesAtLocal?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  windowEnd?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type AlertResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Alert'] = ResolversParentTypes['Alert']> = {
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  rule?: Resolver<Maybe<ResolversTypes['AlertRule']>, ParentType, ContextType>;
  ruleId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  ruleName?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  metric?: Resolver<ResolversTypes['AlertMetric'], ParentType, ContextType>;
  subject?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  label?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  severity?: Resolver<ResolversTypes['AlertSeverity'], ParentType, ContextType>;
  peakSeverity?: Resolver<ResolversTypes['AlertSeverity'], ParentType, ContextType>;
  active?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  value?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  threshold?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  unit?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  since?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  resolvedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  projection?: Resolver<Maybe<ResolversTypes['AlertProjection']>, ParentType, ContextType>;
  notified?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  delivery?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type AlertChannelResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AlertChannel'] = ResolversParentTypes['AlertChannel']> = {
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['AlertChannelType'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  enabled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  target?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  secretSet?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  minSeverity?: Resolver<ResolversTypes['AlertSeverity'], ParentType, ContextType>;
  sendResolved?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  timeoutSeconds?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  origin?: Resolver<ResolversTypes['AlertRuleOrigin'], ParentType, ContextType>;
  editable?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type DeletedAlertChannelResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeletedAlertChannel'] = ResolversParentTypes['DeletedAlertChannel']> = {
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type AlertDeliveryResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AlertDelivery'] = ResolversParentTypes['AlertDelivery']> = {
  channelId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  outcome?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  attempts?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  at?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type AlertEventResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AlertEvent'] = ResolversParentTypes['AlertEvent']> = {
  id?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  at?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  alertId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  ruleId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  subject?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  severity?: Resolver<Maybe<ResolversTypes['AlertSeverity']>, ParentType, ContextType>;
  value?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  threshold?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  notified?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  withheld?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  detail?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  deliveries?: Resolver<Array<ResolversTypes['AlertDelivery']>, ParentType, ContextType>;
};

export type AlertChangeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AlertChange'] = ResolversParentTypes['AlertChange']> = {
  kind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  ruleId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  alertId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  ts?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
};

export type Resolvers<ContextType = GraphQLContext> = {
  Query?: QueryResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  Subscription?: SubscriptionResolvers<ContextType>;
  DataSource?: DataSourceResolvers<ContextType>;
  SourceAttributes?: SourceAttributesResolvers<ContextType>;
  SourceNamespace?: SourceNamespaceResolvers<ContextType>;
  SystemNamespace?: SystemNamespaceResolvers<ContextType>;
  ProviderASystem?: ProviderASystemResolvers<ContextType>;
  Gateway?: GatewayResolvers<ContextType>;
  Resources?: ResourcesResolvers<ContextType>;
  ProviderBSystem?: ProviderBSystemResolvers<ContextType>;
  ProviderCSystem?: ProviderCSystemResolvers<ContextType>;
  ProviderDSystem?: ProviderDSystemResolvers<ContextType>;
  RateLimits?: RateLimitsResolvers<ContextType>;
  RateLimitWindow?: RateLimitWindowResolvers<ContextType>;
  RateLimitProjection?: RateLimitProjectionResolvers<ContextType>;
  RateLimitCredits?: RateLimitCreditsResolvers<ContextType>;
  RateLimitSample?: RateLimitSampleResolvers<ContextType>;
  LiveSession?: LiveSessionResolvers<ContextType>;
  Channel?: ChannelResolvers<ContextType>;
  Health?: HealthResolvers<ContextType>;
  HealthCheck?: HealthCheckResolvers<ContextType>;
  AgentNamespace?: AgentNamespaceResolvers<ContextType>;
  Session?: SessionResolvers<ContextType>;
  Metrics?: MetricsResolvers<ContextType>;
  ModelTokens?: ModelTokensResolvers<ContextType>;
  MetricsBucket?: MetricsBucketResolvers<ContextType>;
  Event?: EventResolvers<ContextType>;
  EventDensityBucket?: EventDensityBucketResolvers<ContextType>;
  EventCounts?: EventCountsResolvers<ContextType>;
  LifetimeStats?: LifetimeStatsResolvers<ContextType>;
  SessionTranscript?: SessionTranscriptResolvers<ContextType>;
  TranscriptMessage?: TranscriptMessageResolvers<ContextType>;
  ToolCall?: ToolCallResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  ProjectUsage?: ProjectUsageResolvers<ContextType>;
  CronJob?: CronJobResolvers<ContextType>;
  CronRun?: CronRunResolvers<ContextType>;
  UsageCost?: UsageCostResolvers<ContextType>;
  ModelCost?: ModelCostResolvers<ContextType>;
  DayCost?: DayCostResolvers<ContextType>;
  LogEntry?: LogEntryResolvers<ContextType>;
  DashboardNamespace?: DashboardNamespaceResolvers<ContextType>;
  RenderQueue?: RenderQueueResolvers<ContextType>;
  StoreInfo?: StoreInfoResolvers<ContextType>;
  DataChange?: DataChangeResolvers<ContextType>;
  OperationResult?: OperationResultResolvers<ContextType>;
  AlertScope?: AlertScopeResolvers<ContextType>;
  AlertRule?: AlertRuleResolvers<ContextType>;
  DeletedAlertRule?: DeletedAlertRuleResolvers<ContextType>;
  AlertProjection?: AlertProjectionResolvers<ContextType>;
  Alert?: AlertResolvers<ContextType>;
  AlertChannel?: AlertChannelResolvers<ContextType>;
  DeletedAlertChannel?: DeletedAlertChannelResolvers<ContextType>;
  AlertDelivery?: AlertDeliveryResolvers<ContextType>;
  AlertEvent?: AlertEventResolvers<ContextType>;
  AlertChange?: AlertChangeResolvers<ContextType>;
};

