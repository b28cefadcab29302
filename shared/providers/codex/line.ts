// One Codex rollout line -> the contract's activity events (0..n), with the little per-transcript
// state the lines need (codex-format.md §4, §5, §7). Counting follows THE rule of §5: a response is
// a `token_usage_record` keyed by `response_id` (the core counts a key once); `token_count` lines
// are never summed (they repeat, reset after compactions and carry `info: null` on a 429) and give
// only rate limits and context size. Prompts are `task_started` lines (one per user turn, failed
// ones included). Failed turns live in `task_complete.error` only; a usage-limit failure is a
// warning, any other an error (design §9).
//
// The state (`CodexLineContext`) is plain data and goes into the reader's cursor, so a daemon
// restart resumes mid-file with the current turn's model and the tool calls not yet attached.
import { planLimitId, type ActivityEvent, type RateLimitSnapshot, type RateLimitWindow, type SessionPatch } from "../contract.js";
import type { SourceWarning } from "../result.js";
import { asObject, clip, count, contentText, enumName, finite, isToolCallType, isToolOutputType, lineTimestamp, parseLineObject, shortText, shortenPrompt, text, USER_TEXT_TYPES } from "./shape.js";
import type { Json } from "./shape.js";
import { MAX_TOKENS_PER_FIELD, toTokenUsage } from "./usage.js";

/** Per-transcript state carried from line to line (and, serialized, from call to call). */
export interface CodexLineContext {
  /** `turn_context.model` per turn id, oldest first; only the last few turns are kept. */
  turnModels: Array<[string, string]>;
  /** The model of the latest `turn_context`: the fallback for a record whose turn is unknown. */
  latestModel: string | null;
  /** Tool calls seen since the last `token_usage_record`: they belong to the next response. */
  pendingToolCalls: number;
  /** call_id -> failed, from `item_completed/CommandExecution` (its exit code), until its output line comes. */
  commandFailed: Array<[string, boolean]>;
  /** `session_meta` was read (only the first one of a file describes the session). */
  metaSeen: boolean;
  /** firstPrompt was emitted (the core keeps the first value anyway; this spares repeats). */
  firstPromptSent: boolean;
  /** Session facts already emitted in this read; a meta event carries only what changed. Not serialized. */
  known: SessionPatch;
}

/** Bounds of the state, so a hostile file cannot grow the cursor. */
const MAX_TURN_MODELS = 16;
const MAX_COMMANDS = 64;
const ID_MAX = 200;
const MODEL_MAX = 200;

export function newLineContext(): CodexLineContext {
  return { turnModels: [], latestModel: null, pendingToolCalls: 0, commandFailed: [], metaSeen: false, firstPromptSent: false, known: {} };
}

/** The state as plain JSON for the cursor (without `known`, which is per read). */
export function serializeContext(ctx: CodexLineContext): unknown {
  return {
    models: ctx.turnModels,
    latest: ctx.latestModel,
    tools: ctx.pendingToolCalls,
    commands: ctx.commandFailed,
    meta: ctx.metaSeen,
    first: ctx.firstPromptSent,
  };
}

function pairList<T>(v: unknown, max: number, second: (x: unknown) => T | null): Array<[string, T]> | null {
  if (!Array.isArray(v) || v.length > max) return null;
  const out: Array<[string, T]> = [];
  for (const p of v) {
    if (!Array.isArray(p) || p.length !== 2) return null;
    const k = shortText(p[0], ID_MAX);
    const val = second(p[1]);
    if (k === null || val === null) return null;
    out.push([k, val]);
  }
  return out;
}

/** The state back from a stored cursor; null when it is not one (the reader then starts over). */
export function restoreContext(v: unknown): CodexLineContext | null {
  const o = asObject(v);
  if (!o) return null;
  const models = pairList(o.models, MAX_TURN_MODELS, (x) => shortText(x, MODEL_MAX));
  const commands = pairList(o.commands, MAX_COMMANDS, (x) => (typeof x === "boolean" ? x : null));
  const latest = o.latest === null ? null : shortText(o.latest, MODEL_MAX);
  const tools = count(o.tools);
  if (models === null || commands === null || (o.latest !== null && latest === null) || tools === null) return null;
  if (typeof o.meta !== "boolean" || typeof o.first !== "boolean") return null;
  return { turnModels: models, latestModel: latest, pendingToolCalls: tools, commandFailed: commands, metaSeen: o.meta, firstPromptSent: o.first, known: {} };
}

/** Appends to a bounded list, dropping the oldest; an existing key moves to the end with its new value. */
function remember<T>(list: Array<[string, T]>, key: string, value: T, max: number): void {
  const at = list.findIndex(([k]) => k === key);
  if (at !== -1) list.splice(at, 1);
  list.push([key, value]);
  while (list.length > max) list.shift();
}

/** `error.codex_error_info` values that mean the plan's limit was hit (HTTP 429): a warning, not a failure of Codex. */
const RATE_LIMIT_CODES: ReadonlySet<string> = new Set(["usage_limit_exceeded", "usage_limit_reached", "rate_limit_exceeded", "rate_limited", "too_many_requests"]);

/** The HTTP status inside an enum-with-data error info (`{"response_stream_disconnected":{"http_status_code":429}}`). */
function httpStatusOf(info: unknown): number | null {
  const o = asObject(info);
  if (!o) return null;
  for (const v of Object.values(o)) {
    const status = count(asObject(v)?.http_status_code);
    if (status !== null) return status;
  }
  return null;
}

interface TurnFailure {
  type: "error" | "warning";
  code: string;
  message: string;
}

/** What `task_complete.error` says, or null for a turn that succeeded. Shared with the transcript view. */
export function turnFailure(payload: Json): TurnFailure | null {
  const raw = payload.error;
  if (raw === undefined || raw === null) return null;
  const err = asObject(raw);
  const info = err?.codex_error_info;
  const code = enumName(info) ?? "turn_failed";
  const message = clip((text(err?.message) ?? text(raw) ?? code).trim() || code);
  const limited = RATE_LIMIT_CODES.has(code) || httpStatusOf(info) === 429;
  return { type: limited ? "warning" : "error", code, message };
}

const EXIT_RE = /(?:^|\n)Process exited with code (-?\d+)/;

/**
 * Did this tool output report a failure? The command's own `exit_code` (from its CommandExecution
 * item, seen just before) decides when known; else the output says it: unified exec writes
 * "Process exited with code N", older versions a JSON string with `metadata.exit_code`, and some
 * outputs an object with `success`.
 */
export function outputFailed(payload: Json, ctx: CodexLineContext | null): boolean {
  const callId = text(payload.call_id);
  if (ctx && callId !== null) {
    const at = ctx.commandFailed.findIndex(([k]) => k === callId);
    if (at !== -1) {
      const failed = (ctx.commandFailed[at] as [string, boolean])[1];
      ctx.commandFailed.splice(at, 1);
      return failed;
    }
  }
  const out = payload.output;
  const obj = asObject(out);
  if (obj) {
    if (obj.success === false) return true;
    return false;
  }
  if (typeof out !== "string") return false;
  const m = EXIT_RE.exec(out.length > 4096 ? out.slice(0, 4096) : out);
  if (m) return Number(m[1]) !== 0;
  // Before unified exec (<= 0.4x) the output was JSON text: {"output": "...", "metadata": {"exit_code": N}}.
  if (out.startsWith('{"output"') && out.length <= 256 * 1024) {
    try {
      const exit = asObject(asObject(JSON.parse(out))?.metadata)?.exit_code;
      return typeof exit === "number" && exit !== 0;
    } catch {
      return false;
    }
  }
  return false;
}

/** A CommandExecution item's outcome: a non-zero exit code or a failed/declined status. */
function commandFailedOf(item: Json): boolean | null {
  const exit = item.exit_code;
  if (typeof exit === "number" && Number.isFinite(exit)) return exit !== 0;
  const status = text(item.status);
  if (status === "failed" || status === "declined") return true;
  if (status === "completed") return false;
  return null;
}

/** Remembers a CommandExecution item's outcome until its tool output line comes. */
export function applyCommandItem(item: Json, ctx: CodexLineContext): void {
  const id = shortText(item.id, ID_MAX);
  const failed = commandFailedOf(item);
  if (id !== null && failed !== null) remember(ctx.commandFailed, id, failed, MAX_COMMANDS);
}

/** The model of a turn (its `turn_context`), else the latest model seen. */
export function modelOfTurn(ctx: CodexLineContext, turnId: unknown): string | null {
  const id = text(turnId);
  return (id !== null ? ctx.turnModels.find(([k]) => k === id)?.[1] : undefined) ?? ctx.latestModel;
}


function rateWindow(v: unknown, name: string, where: string, warnings: SourceWarning[]): RateLimitWindow | null {
  const o = asObject(v);
  if (!o) return null;
  const used = finite(o.used_percent);
  if (used === null) {
    warnings.push({ code: "BAD_FIELD", message: `rate_limits.${name}.used_percent is not a number; window ignored`, where });
    return null;
  }
  // Numbers out of range (999 %, a reset in year 5138) are passed on as written: the store's one
  // check of every reading (ingest/rate-limit-check.ts) refuses the whole reading, not one window.
  const resets = finite(o.resets_at);
  return { usedPercent: used, windowMinutes: count(o.window_minutes), resetsAt: resets !== null && resets > 0 ? Math.round(resets * 1000) : null };
}

function boolOrNull(v: unknown): boolean | null {
  return typeof v === "boolean" ? v : null;
}

/** `token_count.rate_limits` as a snapshot; null when it says nothing about a limit. */
function rateLimitSnapshot(v: unknown, where: string, warnings: SourceWarning[]): RateLimitSnapshot | null {
  const rl = asObject(v);
  if (!rl) return null;
  const primary = rateWindow(rl.primary, "primary", where, warnings);
  const secondary = rateWindow(rl.secondary, "secondary", where, warnings);
  const c = asObject(rl.credits);
  const balance = typeof c?.balance === "string" ? shortText(c.balance, 64) : typeof c?.balance === "number" && Number.isFinite(c.balance) ? String(c.balance) : null;
  const credits = c ? { hasCredits: boolOrNull(c.has_credits), unlimited: boolOrNull(c.unlimited), balance } : null;
  const planType = enumName(rl.plan_type);
  if (primary === null && secondary === null && credits === null && planType === null) return null;
  return { limitId: planLimitId(shortText(rl.limit_id, 64) ?? shortText(rl.limit_name, 64)), primary, secondary, planType, credits };
}

/** `session_meta.source`: `exec`, `vscode`, `cli`, or the variant of an object (`{"subagent": ...}` -> `subagent`). */
function originOf(v: unknown): string | null {
  return enumName(v);
}

function sessionMeta(p: Json, patch: SessionPatch): void {
  const cwd = shortText(p.cwd, 4096);
  if (cwd !== null) patch.project = cwd;
  // `git` is absent or `{}` when the cwd is not a git repository; a detached HEAD has no branch either.
  patch.gitBranch = shortText(asObject(p.git)?.branch, 1000);
  const version = shortText(p.cli_version, 64);
  if (version !== null) patch.cliVersion = version;
  const origin = originOf(p.source);
  if (origin !== null) patch.origin = origin;
}

/** A `turn_context` line: the turn's model (remembered for its records), reasoning effort and cwd. */
export function applyTurnContext(p: Json, ctx: CodexLineContext, patch: SessionPatch): void {
  const model = shortText(p.model, MODEL_MAX);
  const turnId = shortText(p.turn_id, ID_MAX);
  if (model !== null) {
    ctx.latestModel = model;
    patch.model = model;
    if (turnId !== null) remember(ctx.turnModels, turnId, model, MAX_TURN_MODELS);
  }
  const effort = shortText(asObject(asObject(p.collaboration_mode)?.settings)?.reasoning_effort, 64) ?? shortText(p.effort, 64) ?? shortText(p.reasoning_effort, 64);
  if (effort !== null) patch.thinkingLevel = effort;
  const cwd = shortText(p.cwd, 4096);
  if (cwd !== null) patch.project = cwd;
}

/** The context size a token_count shows: the latest response's prompt (`input_tokens`, cached part included). */
function contextTokensOf(info: Json): number | null {
  const last = asObject(info.last_token_usage);
  if (!last) return null;
  const input = count(last.input_tokens);
  if (input !== null && input > 0) return input <= MAX_TOKENS_PER_FIELD ? input : null;
  // After a compaction `last_token_usage` is zero but `total_tokens`, the estimated new context (format doc §5).
  const total = count(last.total_tokens);
  return total !== null && total > 0 && total <= MAX_TOKENS_PER_FIELD ? total : null;
}

function contextWindowOf(v: unknown): number | null {
  const n = count(v);
  return n !== null && n > 0 && n <= 100 * MAX_TOKENS_PER_FIELD ? n : null;
}

/**
 * The events of one parsed line, in order: a `meta` patch first when the line tells something new
 * about the session, then what happened. `where` names the line in warnings (`<file>:<offset>`).
 */
export function lineEvents(obj: Json, pos: number, where: string, ctx: CodexLineContext, warnings: SourceWarning[]): ActivityEvent[] {
  const patch: SessionPatch = {};
  const events: ActivityEvent[] = [];
  let ts: number | null | undefined;
  // Only lines that yield something read their time, so a malformed time on an unused line is no warning.
  const time = (): number | null => (ts === undefined ? (ts = lineTimestamp(obj, where, warnings)) : ts);
  const p = asObject(obj.payload);
  if (!p) return [];
  switch (obj.type) {
    case "session_meta":
      if (!ctx.metaSeen) {
        ctx.metaSeen = true;
        sessionMeta(p, patch);
      }
      break;
    case "turn_context":
      applyTurnContext(p, ctx, patch);
      break;
    case "token_usage_record": {
      const { usage, warning } = toTokenUsage(p.usage, where);
      if (warning) warnings.push(warning);
      const model = modelOfTurn(ctx, p.turn_id);
      events.push({ kind: "response", ts: time(), pos, key: shortText(p.response_id, ID_MAX), model, modelProvider: "openai", usage, costUsd: null, toolCalls: ctx.pendingToolCalls, error: null });
      ctx.pendingToolCalls = 0;
      break;
    }
    case "event_msg":
      eventMsg(p, pos, where, ctx, patch, events, time, warnings);
      break;
    case "response_item":
      if (isToolCallType(p.type)) countToolCall(ctx);
      else if (isToolOutputType(p.type)) events.push({ kind: "toolResult", ts: time(), pos, isError: outputFailed(p, ctx) });
      break;
    default:
      break;
  }
  const changed = diffPatch(patch, ctx.known);
  if (changed) events.unshift({ kind: "meta", ts: time(), pos, patch: changed });
  return events;
}

function eventMsg(p: Json, pos: number, where: string, ctx: CodexLineContext, patch: SessionPatch, events: ActivityEvent[], time: () => number | null, warnings: SourceWarning[]): void {
  switch (p.type) {
    case "task_started": {
      events.push({ kind: "prompt", ts: time(), pos });
      // A new turn: calls of a response that never got its record (a failed stream) are not carried over.
      ctx.pendingToolCalls = 0;
      const window = contextWindowOf(p.model_context_window);
      if (window !== null) patch.contextWindow = window;
      break;
    }
    case "task_complete": {
      ctx.pendingToolCalls = 0;
      const failure = turnFailure(p);
      if (failure) events.push({ kind: "incident", ts: time(), pos, ...failure });
      break;
    }
    case "token_count": {
      const snapshot = rateLimitSnapshot(p.rate_limits, where, warnings);
      if (snapshot) events.push({ kind: "rateLimits", ts: time(), pos, snapshot });
      const info = asObject(p.info);
      if (info) {
        const tokens = contextTokensOf(info);
        if (tokens !== null) patch.contextTokens = tokens;
        const window = contextWindowOf(info.model_context_window);
        if (window !== null) patch.contextWindow = window;
      }
      break;
    }
    case "item_completed": {
      const item = asObject(p.item);
      if (item?.type === "UserMessage" && !ctx.firstPromptSent) {
        const first = shortenPrompt(contentText(item.content, USER_TEXT_TYPES));
        if (first !== "") {
          patch.firstPrompt = first;
          ctx.firstPromptSent = true;
        }
      } else if (item?.type === "CommandExecution") {
        applyCommandItem(item, ctx);
      }
      break;
    }
    default:
      break;
  }
}

/** The fields of `patch` that differ from `known` (firstPrompt always), recorded into `known`; null when none. */
function diffPatch(patch: SessionPatch, known: SessionPatch): SessionPatch | null {
  let out: SessionPatch | null = null;
  const mutable = known as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch) as Array<[keyof SessionPatch, unknown]>) {
    if (k !== "firstPrompt" && Object.prototype.hasOwnProperty.call(known, k) && mutable[k] === v) continue;
    mutable[k] = v;
    out ??= {};
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/**
 * A tool call: it belongs to the next response. All a call line gives, so the reader counts one
 * from the line's head without parsing it (reader.ts).
 */
export function countToolCall(ctx: CodexLineContext): void {
  ctx.pendingToolCalls = Math.min(ctx.pendingToolCalls + 1, 1_000_000);
}

/** Parses one line and returns its events; a line that is not a JSON object is a BAD_JSON warning and no events. */
export function parseLine(line: string, pos: number, where: string, ctx: CodexLineContext, warnings: SourceWarning[], parse?: (text: string) => unknown): ActivityEvent[] {
  const obj = parseLineObject(line, where, warnings, parse);
  return obj ? lineEvents(obj, pos, where, ctx, warnings) : [];
}

/** The `cli_version` of a parsed `session_meta` line, for the reader's appVersion. */
export function cliVersionOf(obj: Json): string | null {
  return obj.type === "session_meta" ? shortText(asObject(obj.payload)?.cli_version, 64) : null;
}
