// The provider adapter contract (design §9, docs/providers.md): what every provider's reader
// gives the provider-neutral core. A provider discovers its installs (one AGENT source each),
// opens a reader per install, and the reader turns the provider's files into normalized
// transcripts of activity events in one token vocabulary. Everything above the sources (ingest,
// store, queries, interfaces) sees only these types, never a provider's file format.
import type { ProviderName } from "./registry.js";
import type { SourceError, SourceResult, SourceWarning } from "./result.js";

// The provider set is the registry's (shared/providers/registry.ts); re-exported for the readers.
export type { ProviderEnum, ProviderName } from "./registry.js";
export { PROVIDER_ENUM, providerOfSourceId } from "./registry.js";
// The gateway capability's half of the contract (a provider with an agent gateway of its own).
export type * from "./gateway-contract.js";

/**
 * Token usage of one billable model response in the shared vocabulary (design §9), so totals add
 * up across providers. Every field is a validated non-negative integer (shared/base/usage-guard).
 */
export interface TokenUsage {
  /** Input not read from cache. */
  input: number;
  /** Output, reasoning included. */
  output: number;
  cacheRead: number;
  /** Cache writes of every TTL (Claude Code: 5 m + 1 h). */
  cacheWrite: number;
  /** The part of `cacheWrite` written with the 1 h TTL (priced higher); 0 when unknown. */
  cacheWrite1h: number;
  /** The part of `output` that was reasoning; 0 when unknown. */
  reasoning: number;
}

/** Fields every activity event has. */
interface EventBase {
  /** Epoch ms, or null when the line has no time of its own. */
  ts: number | null;
  /** Position in its transcript: a byte offset (JSONL) or a row sequence (SQLite). */
  pos: number;
}

/**
 * Facts about the transcript's session, as they become known while reading: each patch sets the
 * fields it names (later patches win, except `startedAt`, `firstPrompt` and `cliVersionFirst`,
 * which keep the first value). The core keeps them in its own store, so a session outlives its
 * file (Claude Code deletes transcripts after 30 days).
 */
export interface SessionPatch {
  /** A title the provider gave the session (summary, thread title). */
  title?: string;
  /** The first user prompt, shortened by the reader to at most 200 characters. */
  firstPrompt?: string;
  /** The working directory (Session.project). */
  project?: string;
  /** null when the directory is not a git repository (Claude Code writes "HEAD" then). */
  gitBranch?: string | null;
  model?: string;
  /** The CLI version that wrote the lines. */
  cliVersion?: string;
  /** How the session was started, as the provider says (`exec`, `vscode`, `sdk-cli`, ...). */
  origin?: string;
  /** Prompt size of the latest response (input + cache read + cache write): how full the context is. */
  contextTokens?: number;
  contextWindow?: number;
  thinkingLevel?: string;
}

export interface SessionMetaEvent extends EventBase {
  kind: "meta";
  patch: SessionPatch;
}

/** A user prompt: one turn (design §9: turnCount = user prompts; a sub-agent's task prompt counts). */
interface PromptEvent extends EventBase {
  kind: "prompt";
}

/** One model response (or one line of it: see `key`). */
export interface ResponseEvent extends EventBase {
  kind: "response";
  /**
   * Identifies the billable response across every file of the install: the core counts usage and
   * the response itself once per key (Claude Code writes one line per content block, each with the
   * whole usage). null when the provider has one event per response and no id.
   */
  key: string | null;
  model: string | null;
  /** The model's vendor as the provider names it (`anthropic`, `openai`, an OpenClaw provider id). */
  modelProvider: string | null;
  /** null for a line that carries no usage (it still counts tool calls). */
  usage: TokenUsage | null;
  /** Cost the provider recorded for this response (OpenClaw); null: the core prices it. */
  costUsd: number | null;
  /** Tool calls started by this line (counted per line: each tool call appears in one line). */
  toolCalls: number;
  /**
   * The response ended in an error (OpenClaw `stopReason: "error"`): a session error, but not an
   * event-log entry (the provider's own log has it). Failed requests with no response are incidents.
   */
  error: string | null;
}

/** A tool's answer coming back. */
export interface ToolResultEvent extends EventBase {
  kind: "toolResult";
  isError: boolean;
}

/**
 * Something for the event log (AgentNamespace.events): an API error or a failed turn is an
 * `error`, a retried attempt or a rate-limit hit a `warning` (design §9: no restarts here). An
 * `info` (a compaction) is a log entry only (recentLogs), not a classified event.
 */
export interface IncidentEvent extends EventBase {
  kind: "incident";
  type: "error" | "warning" | "info";
  /** A short stable code: `api_error`, `retry`, `rate_limited`, `usage_limit_exceeded`, ... */
  code: string;
  message: string;
}

export interface RateLimitWindow {
  usedPercent: number;
  windowMinutes: number | null;
  /** Epoch ms. */
  resetsAt: number | null;
}

/** The plan's quota as the provider last saw it (Codex `token_count.rate_limits`). */
export interface RateLimitSnapshot {
  /** The limit's id (`codex`) and name when given. */
  limitId: string | null;
  primary: RateLimitWindow | null;
  secondary: RateLimitWindow | null;
  planType: string | null;
  credits: { hasCredits: boolean | null; unlimited: boolean | null; balance: string | null } | null;
}

/**
 * A limit inside a plan's, kept as a limit of its own (Claude Code's per-model weekly windows): its
 * id is the plan's limit id, a colon, and the field the provider names it by (`claude:seven_day_opus`).
 * The colon is what tells it from the plan's own limit wherever limits are listed, so a plan's
 * `rateLimits` stays its main windows while `rateLimitsBySource` and /metrics list both.
 */
export function subLimitId(planLimitId: string, field: string): string {
  return `${planLimitId}:${field}`;
}

/**
 * A plan's limit id as a provider's file gives it, made safe to store: a colon would make it read as a
 * limit inside a plan (`subLimitField`), so it becomes `_`. Null for no usable id.
 */
export function planLimitId(raw: string | null): string | null {
  return raw === null ? null : raw.replaceAll(":", "_");
}

/** The field naming a limit inside a plan (`seven_day_opus`); null for a plan's own limit. */
export function subLimitField(limitId: string | null): string | null {
  const at = limitId === null ? -1 : limitId.indexOf(":");
  return at < 0 ? null : (limitId as string).slice(at + 1);
}

export interface RateLimitEvent extends EventBase {
  kind: "rateLimits";
  snapshot: RateLimitSnapshot;
}

export type ActivityEvent = SessionMetaEvent | PromptEvent | ResponseEvent | ToolResultEvent | IncidentEvent | RateLimitEvent;

/** One transcript: a file (or an OpenClaw session window) holding one session's activity. */
export interface TranscriptRef {
  /** Unique within the source and stable across restarts (a relative path or a window id). */
  id: string;
  /**
   * The session it belongs to (design §9: Claude Code `sessionId`, sub-agents
   * `<sessionId>:subagent:<agentId>`; Codex the rollout's session id). null for a transcript no
   * session points at (an OpenClaw file-era orphan): it counts in lifetime totals only.
   */
  sessionKey: string | null;
  /** The parent session's key (sub-agents); null otherwise. */
  parentKey: string | null;
  /** Equal token: nothing new to read (e.g. `<size>:<inode>:<mtimeMs>`). */
  changeToken: string;
  sizeBytes: number | null;
}

export interface ActivityBatch {
  events: ActivityEvent[];
  /** Plain JSON, stored by the core and passed back on the next call. */
  cursor: unknown;
  /** Caught up with what is written now (a trailing partial line stays unread). */
  done: boolean;
  /** Reading restarted at the beginning (file truncated or replaced): the core drops what it summed for this transcript. */
  restarted: boolean;
}

/** One message of a transcript, for the transcript view (sessionTranscript). */
export interface TranscriptMessageRecord {
  /** Stable within the transcript. */
  id: string;
  pos: number;
  role: "user" | "assistant" | "toolResult";
  text: string;
  ts: number | null;
  model: string | null;
  stopReason: string | null;
  errorMessage: string | null;
  /** The whole response's usage on its first line only (so a page never counts a response twice). */
  usage: TokenUsage | null;
  costUsd: number | null;
  toolCalls: Array<{ id: string | null; name: string | null }>;
  toolName: string | null;
  isError: boolean;
}

/** A process of the provider running now (Claude Code `sessions/<pid>.json`, Codex writer locks). */
export interface LiveSession {
  pid: number | null;
  sessionKey: string;
  startedAt: number | null;
  /** As the provider says (`busy`, `idle`, ...), else null. */
  status: string | null;
  cwd: string | null;
  cliVersion: string | null;
}

export type SessionKind = "direct" | "group" | "cron" | "subagent";

/**
 * One session as a provider with its own session index knows it (OpenClaw's gateway). Providers
 * whose sessions exist only as transcripts leave `listSessions` out: the core builds the records
 * from what the transcripts said (SessionPatch) and keeps them after the files are gone.
 */
export interface SessionRecord {
  key: string;
  /** The source's local id (OpenClaw: the agent id). */
  agentId: string;
  displayName: string;
  kind: SessionKind;
  model: string | null;
  modelProvider: string | null;
  channel: string | null;
  /** The provider's own status of the latest run (`running`, `failed`, `killed`, `timeout`, ...). */
  status: string | null;
  /** Prompt size of the latest call: how full the context is. */
  contextTokens: number | null;
  contextWindow: number | null;
  startedAt: number | null;
  updatedAt: number | null;
  lastActivityAt: number | null;
  parentKey: string | null;
  /** The transcript now written under this key. */
  currentSessionId: string | null;
  /** Every transcript (TranscriptRef.id) under this key, oldest first. */
  sessionIds: string[];
  label: string | null;
  thinkingLevel: string | null;
  createdVia: string | null;
  archived: boolean;
  /** The working directory (Claude Code, Codex); null when unknown. */
  project: string | null;
  gitBranch: string | null;
}

/** The log levels of every log the core keeps (a provider's own, the gateway's), lowest first. */
export const LOG_LEVELS = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** One line of the provider's own log (Codex `logs_2.sqlite`), for recentLogs. */
interface ProviderLogEntry {
  /** Epoch ms. */
  ts: number;
  /** TRACE, DEBUG, INFO, WARN, ERROR or FATAL. */
  level: string;
  module: string;
  message: string;
  sessionKey: string | null;
}

interface ProviderLogBatch {
  entries: ProviderLogEntry[];
  /** Plain JSON, stored by the core and passed back on the next call. */
  cursor: unknown;
  done: boolean;
}

export interface SourceReader {
  /** The provider's own session index; absent: sessions come from the transcripts. */
  listSessions?(): SourceResult<SessionRecord[]>;
  /** The provider's own log after `cursor` (null = from the start); absent when it keeps none. */
  readLogs?(cursor: unknown, limit: number): SourceResult<ProviderLogBatch>;
  /** Every transcript there is now. */
  listTranscripts(): SourceResult<TranscriptRef[]>;
  /**
   * The same, awaiting `pause()` every few hundred files, so a large install's listing (a stat per
   * file) does not block the event loop at once; the core prefers it when present.
   */
  listTranscriptsPaced?(pause: () => Promise<void>): Promise<SourceResult<TranscriptRef[]>>;
  /**
   * Optional: the transcripts at these absolute paths (files a watch event named), each exactly as
   * listTranscripts would give it now (same id, sessionKey, parentKey, changeToken), so the core can
   * read just those after an event instead of listing the whole install. A path whose file is gone
   * gives no ref (removals are the next full listing's job); a path that is not a transcript but
   * changes nothing the core reads from transcripts (a live-process record) gives none either. null:
   * these paths cannot be told apart from a change the listing must see (the provider's own index
   * file, a database, a file whose listing could pick another copy): the core does a full pass.
   */
  transcriptsAt?(paths: readonly string[]): SourceResult<TranscriptRef[]> | null;
  /** Events after `cursor` (null = from the start), at most about `limit` per call. */
  readTranscript(ref: TranscriptRef, cursor: unknown, limit: number): SourceResult<ActivityBatch>;
  /** Every message of one transcript, in order (the transcript view). */
  readMessages(ref: TranscriptRef): SourceResult<{ messages: TranscriptMessageRecord[]; bytes: number }>;
  /** Processes running now; [] when the provider has no such signal. */
  liveSessions(): SourceResult<LiveSession[]>;
  /** The provider's version as its files say, if known. */
  appVersion(): SourceResult<string | null>;
  /** Changes whenever transcripts may have changed (cheap): an equal stamp lets the core skip a pass. */
  changeStamp(): SourceResult<string>;
  /**
   * Optional: the same stamp, awaiting `pause()` every few hundred files, for a reader whose stamp
   * stats every file (Gemini CLI: ~1 s in one block at 35,000 files); the core prefers it when present.
   */
  changeStampPaced?(pause: () => Promise<void>): Promise<SourceResult<string>>;
  /**
   * Optional, for a reader whose changeStamp finds out what changed (Claude Code polls its
   * directories, then its recently written files): the transcripts new or changed since the last
   * listing, as listTranscripts would give them, found by the changeStamp calls since the last one
   * of these, and how many transcripts the install has now. A caught-up source reads just those.
   * null: not known (no listing yet): the core makes a full pass.
   */
  changedTranscripts?(): { refs: TranscriptRef[]; total: number } | null;
  /**
   * Optional: nothing changed since the last pass, so hand back caches (the next read refills
   * them). `atRest`: the install has not changed for a while and the daemon is quiet: also what
   * only makes the next change cheap to read (it then reads as a fresh reader does).
   */
  releaseMemory?(atRest?: boolean): void;
  close(): void;
}

/** One install of a provider: one AGENT source (design §9 for ids, names and tags). */
export interface Install {
  provider: ProviderName;
  /** `agent:<agentId>`, `claude-code:<name>`, `codex:<name>`. */
  id: string;
  /** The part after the prefix (`main`, `default`). */
  localId: string;
  name: string;
  tags: string[];
  /** The directory read. */
  dir: string;
}

/** What a provider's discovery found this pass. */
export interface Discovery {
  installs: Install[];
  /** Why the provider's data could not be read at all (its installs then count as gone); null when it could. */
  error: SourceError | null;
  warnings: SourceWarning[];
}

/**
 * A directory whose changes mean the install may have something new (change detection, design §1):
 * the core watches it (fs.watch) and refreshes the install when an entry matching `match` changes,
 * so a new event is seen without waiting for the poll.
 */
export interface WatchTarget {
  /** An absolute directory. When it does not exist yet, the core watches its parent for it. */
  dir: string;
  /** Sub-directories this many levels down are watched too (0: this dir only); new ones are picked up. */
  depth: number;
  /** Which sub-directories to enter, by their path relative to `dir` (`/`-separated); absent: all within `depth`. */
  enter?(rel: string): boolean;
  /** Which entry names are the provider's data (a transcript, the database and its WAL); absent: any. */
  match?(name: string): boolean;
}

/**
 * One provider: finds its installs on every pass (so new ones appear without a restart), opens a
 * reader per install, and prices a response whose cost its files do not record.
 */
export interface Provider {
  readonly name: ProviderName;
  discover(): Discovery;
  /**
   * Changes when the install's backing store is replaced underneath an open reader (the core
   * reopens it); null when it is gone.
   */
  identity(install: Install): string | null;
  open(install: Install): SourceResult<SourceReader>;
  /** USD, or null when no price is known (the response is "unpriced", never $0). */
  price(install: Install, response: ResponseEvent): number | null;
  /**
   * The model's context window in tokens, for a provider whose files name the model but never its
   * window (Claude Code); absent or null: unknown.
   */
  contextWindow?(model: string): number | null;
  /**
   * Where the install's data changes on disk, for change detection; absent (or []): the install
   * is found to have changed by the poll only. Called again after every poll pass, so it may
   * follow the install (a storage era that changed, a directory that appeared).
   */
  watchTargets?(install: Install): WatchTarget[];
}

// The living demo (shared/demo-replay/replay.ts) steps each provider's demo writer, which lives in
// the provider's folder (demo/writer.ts, handed over by its module's demo: demo-contract.ts) and
// appends activity in that provider's own format.
/** What one step wrote, for the log and for tests (e.g. `turn agent:main:main`, `log WARN`). */
export interface DemoStep {
  provider: string;
  wrote: string[];
}

/** Appends new demo activity for one provider to its demo copy. */
export interface DemoWriter {
  /** The provider's name (for the log). */
  readonly provider: string;
  /** Writes one step of activity at `now`. Must bound what it keeps (recycle or cap). */
  step(now: number): DemoStep;
  close(): void;
}
