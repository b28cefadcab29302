// One Claude Code transcript line -> the contract's activity events (0..n). Counting follows the
// format doc: prompts by §3, responses keyed for de-duplication by §4 (the core counts a key once;
// every line of a response repeats the whole usage), the synthetic API-error line is an error and
// not a response (§6), retried attempts and compactions are warnings (§6, §7).
import type { ActivityEvent, SessionPatch } from "../contract.js";
import type { SourceWarning } from "../result.js";
import { asObject, assistantLine, lineTimestamp, parseLineObject, shortenPrompt, text, userLine } from "./line-shape.js";
import type { Json } from "./line-shape.js";
import { toTokenUsage } from "./usage.js";

/** Per-transcript state of one read: what was already said, so repeated facts are not re-sent. */
export interface LineContext {
  /** A sub-agent transcript (`subagents/agent-<id>.jsonl`): its task prompt counts though it is a sidechain line. */
  readonly subagent: boolean;
  /** Session facts already emitted in this read; a meta event carries only what changed. */
  readonly known: SessionPatch;
  /** firstPrompt was emitted in this read (the core keeps the first value anyway). */
  firstPromptSent: boolean;
}

export function newLineContext(subagent: boolean): LineContext {
  return { subagent, known: {}, firstPromptSent: false };
}

/** Longest incident message kept: the event log shows a line, not a dump. */
const MESSAGE_MAX = 1000;

function clip(s: string): string {
  return s.length <= MESSAGE_MAX ? s : `${s.slice(0, MESSAGE_MAX - 1)}…`;
}

function int(v: unknown): number | null {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

/** The facts about the session that most lines repeat (format doc §2: common fields). */
function sessionFacts(obj: Json, patch: SessionPatch): void {
  const cwd = text(obj.cwd);
  if (cwd !== null) patch.project = cwd;
  const branch = obj.gitBranch;
  // "HEAD" is what Claude Code writes when the cwd is not a git repository (format doc §2).
  if (typeof branch === "string" && branch !== "") patch.gitBranch = branch === "HEAD" ? null : branch;
  const version = text(obj.version);
  if (version !== null) patch.cliVersion = version;
  const entrypoint = text(obj.entrypoint);
  if (entrypoint !== null) patch.origin = entrypoint;
}

function retryMessage(obj: Json): { code: string; message: string } {
  const err = asObject(obj.error);
  const status = int(err?.status);
  const what = text(err?.formatted) ?? (status !== null ? `HTTP ${status}` : "API error");
  const attempt = int(obj.retryAttempt);
  const max = int(obj.maxRetries);
  const wait = int(obj.retryInMs);
  let message = what;
  if (attempt !== null) message += `; retry ${attempt}${max !== null ? ` of ${max}` : ""}`;
  if (wait !== null) message += ` in ${wait} ms`;
  return { code: status === 429 ? "rate_limited" : "retry", message: clip(message) };
}

function compactionMessage(obj: Json): string {
  const meta = asObject(obj.compactMetadata);
  const trigger = text(meta?.trigger);
  const pre = int(meta?.preTokens);
  const post = int(meta?.postTokens);
  let message = `context compacted${trigger !== null ? ` (${trigger})` : ""}`;
  if (pre !== null && post !== null) message += `: ${pre} -> ${post} tokens`;
  return clip(message);
}

/**
 * The events of one parsed line, in order: a `meta` patch first when the line tells something new
 * about the session, then what happened. `where` names the line in warnings (`<file>:<offset>`).
 */
export function lineEvents(obj: Json, pos: number, where: string, ctx: LineContext, warnings: SourceWarning[]): ActivityEvent[] {
  const patch: SessionPatch = {};
  const events: ActivityEvent[] = [];
  let ts: number | null | undefined;
  // Only lines that yield something read their time, so a malformed time on an unused line is no warning.
  const time = (): number | null => (ts === undefined ? (ts = lineTimestamp(obj, where, warnings)) : ts);
  sessionFacts(obj, patch);
  switch (obj.type) {
    case "user": {
      const u = userLine(obj, ctx.subagent);
      if (u.kind === "prompt") {
        events.push({ kind: "prompt", ts: time(), pos });
        const first = shortenPrompt(u.text);
        if (!ctx.firstPromptSent && first !== "") {
          patch.firstPrompt = first;
          ctx.firstPromptSent = true;
        }
      } else if (u.kind === "toolResults") {
        for (const r of u.results) events.push({ kind: "toolResult", ts: time(), pos, isError: r.isError });
      }
      break;
    }
    case "assistant": {
      const a = assistantLine(obj);
      if (!a) break;
      if (a.synthetic) {
        if (a.apiError) events.push({ kind: "incident", ts: time(), pos, type: "error", code: a.errorCode, message: clip(a.text.trim() || "API error") });
        break;
      }
      const { usage, warning } = toTokenUsage(a.rawUsage, where);
      if (warning) warnings.push(warning);
      events.push({ kind: "response", ts: time(), pos, key: a.key, model: a.model, modelProvider: "anthropic", usage, costUsd: null, toolCalls: a.toolUses.length, error: null });
      if (a.model !== null) patch.model = a.model;
      if (usage) patch.contextTokens = usage.input + usage.cacheRead + usage.cacheWrite;
      break;
    }
    case "system": {
      if (obj.subtype === "api_error") {
        const { code, message } = retryMessage(obj);
        events.push({ kind: "incident", ts: time(), pos, type: "warning", code, message });
      } else if (obj.subtype === "compact_boundary") {
        // Not an error: a log entry, not a classified event.
        events.push({ kind: "incident", ts: time(), pos, type: "info", code: "compaction", message: compactionMessage(obj) });
      }
      break;
    }
    case "queue-operation": {
      // The start of a turn, before its first message: no activity, but the earliest known
      // moment of the session (lifetimeStats.createdAt), as OpenClaw's session header is.
      if (time() !== null) events.push({ kind: "meta", ts: time(), pos, patch: {} });
      break;
    }
    case "summary": {
      const title = text(obj.summary);
      if (title !== null) patch.title = shortenPrompt(title);
      break;
    }
    default:
      break;
  }
  const changed = diffPatch(patch, ctx.known);
  if (changed) events.unshift({ kind: "meta", ts: time(), pos, patch: changed });
  return events;
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

/** Parses one line and returns its events; a line that is not a JSON object is a BAD_JSON warning and no events. */
export function parseLine(line: string, pos: number, where: string, ctx: LineContext, warnings: SourceWarning[], parse?: (text: string) => unknown): ActivityEvent[] {
  const obj = parseLineObject(line, where, warnings, parse);
  return obj ? lineEvents(obj, pos, where, ctx, warnings) : [];
}
