// One OpenClaw transcript event (a JSONL line in the file era, an `event_json` row in the SQLite
// era; the JSON is the same) reduced to the few typed fields the monitor uses. The parsed JSON
// object is kept as `raw` (JSON.parse allocated it anyway) for callers that render message text.
import type { SourceWarning } from "../result.js";
import { badUsageField, checkCostUsd, checkTokenCount } from "../../base/usage-guard.js";

/**
 * Token usage of one assistant message; numbers are 0 when the field is missing or refused by the
 * usage guard (negative, fractional, absurd: see `usageProblems`).
 */
interface EventUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** As recorded: for a message it includes output (unlike the session entry's totalTokens). */
  totalTokens: number;
  /** `usage.cost.total` in USD, or null when the gateway recorded no cost. */
  costUsd: number | null;
}

interface ToolCallRef {
  id: string | null;
  name: string | null;
}

interface EventBase {
  /** The event's `id` (UUID in the SQLite era, 8-hex in the file era); the session id for the header. */
  id: string | null;
  parentId: string | null;
  /** Epoch ms from `timestamp` (ISO), else `message.timestamp`, else the row's created_at; null if none. */
  ts: number | null;
  /** Position in its transcript: `seq` in SQLite, the line's byte offset in a JSONL file; -1 if unknown. */
  pos: number;
  raw: Record<string, unknown>;
}

interface SessionHeaderEvent extends EventBase {
  kind: "session";
  version: number | null;
  cwd: string | null;
  parentSession: string | null;
}

interface UserMessageEvent extends EventBase {
  kind: "user";
}

export interface AssistantMessageEvent extends EventBase {
  kind: "assistant";
  model: string | null;
  provider: string | null;
  api: string | null;
  /** stop | length | toolUse | error | aborted, as written. */
  stopReason: string | null;
  errorMessage: string | null;
  usage: EventUsage | null;
  /** Usage fields the guard refused (they count as 0); the reader reports each as a BAD_FIELD warning. */
  usageProblems: readonly UsageProblem[];
  toolCalls: readonly ToolCallRef[];
}

interface UsageProblem {
  /** e.g. `usage.input`, `usage.cost.total`. */
  field: string;
  problem: string;
}

export interface ToolResultEvent extends EventBase {
  kind: "toolResult";
  toolCallId: string | null;
  toolName: string | null;
  isError: boolean;
}

interface ModelChangeEvent extends EventBase {
  kind: "model_change";
  provider: string | null;
  modelId: string | null;
}

interface ThinkingLevelChangeEvent extends EventBase {
  kind: "thinking_level_change";
  thinkingLevel: string | null;
}

interface CompactionEvent extends EventBase {
  kind: "compaction";
  summary: string | null;
  firstKeptEntryId: string | null;
  tokensBefore: number | null;
}

/** Anything else: custom, custom_message, reset, branch_summary, other message roles, future types. */
interface OtherEvent extends EventBase {
  kind: "other";
  /** The raw `type` ("custom", "reset", ...), or "message" for a message with another role. */
  rawType: string | null;
  /** `message.role` for messages with an unhandled role (bashExecution, custom, ...). */
  role: string | null;
}

export type TranscriptEvent =
  | SessionHeaderEvent
  | UserMessageEvent
  | AssistantMessageEvent
  | ToolResultEvent
  | ModelChangeEvent
  | ThinkingLevelChangeEvent
  | CompactionEvent
  | OtherEvent;

// Shared so assistant messages without tool calls (the common case) allocate no array.
const NO_TOOL_CALLS: readonly ToolCallRef[] = Object.freeze([]);
const NO_PROBLEMS: readonly UsageProblem[] = Object.freeze([]);

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

function epochMs(iso: unknown, fallback: unknown): number | null {
  if (typeof iso === "string") {
    const t = Date.parse(iso);
    if (!Number.isNaN(t)) return t;
  }
  if (typeof iso === "number" && Number.isFinite(iso)) return iso;
  return num(fallback);
}

const TOKEN_FIELDS = ["input", "output", "cacheRead", "cacheWrite", "totalTokens"] as const;

/** The usage object through the guard: refused fields count as 0 and are listed in `problems`. */
function parseUsage(u: unknown): { usage: EventUsage | null; problems: readonly UsageProblem[] } {
  if (!isObject(u)) return { usage: null, problems: NO_PROBLEMS };
  let problems: UsageProblem[] | null = null;
  const usage: EventUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, costUsd: null };
  for (const f of TOKEN_FIELDS) {
    const c = checkTokenCount(u[f]);
    usage[f] = c.value;
    if (c.problem) (problems ??= []).push({ field: `usage.${f}`, problem: c.problem });
  }
  const cost = u.cost;
  const c = checkCostUsd(isObject(cost) ? cost.total : cost);
  usage.costUsd = c.value;
  if (c.problem) (problems ??= []).push({ field: isObject(cost) ? "usage.cost.total" : "usage.cost", problem: c.problem });
  return { usage, problems: problems ?? NO_PROBLEMS };
}

function toolCallsOf(content: unknown): readonly ToolCallRef[] {
  if (!Array.isArray(content)) return NO_TOOL_CALLS;
  let calls: ToolCallRef[] | null = null;
  for (const block of content) {
    if (isObject(block) && block.type === "toolCall") {
      (calls ??= []).push({ id: str(block.id), name: str(block.name) });
    }
  }
  return calls ?? NO_TOOL_CALLS;
}

/**
 * Types one already-parsed event object. Returns undefined only when `obj` is not a JSON object;
 * missing or mistyped fields become null / 0 instead.
 */
export function toTranscriptEvent(obj: unknown, pos = -1, fallbackTs: number | null = null): TranscriptEvent | undefined {
  if (!isObject(obj)) return undefined;
  const type = str(obj.type);
  const id = str(obj.id);
  const parentId = str(obj.parentId);
  const message = isObject(obj.message) ? obj.message : null;
  const ts = epochMs(obj.timestamp, message?.timestamp) ?? fallbackTs;
  switch (type) {
    case "session":
      return {
        kind: "session",
        id,
        parentId,
        ts,
        pos,
        raw: obj,
        version: num(obj.version),
        cwd: str(obj.cwd),
        parentSession: str(obj.parentSession),
      };
    case "message": {
      const role = message ? str(message.role) : null;
      if (message && role === "user") return { kind: "user", id, parentId, ts, pos, raw: obj };
      if (message && role === "assistant") {
        const { usage, problems } = parseUsage(message.usage);
        return {
          kind: "assistant",
          id,
          parentId,
          ts,
          pos,
          raw: obj,
          model: str(message.model),
          provider: str(message.provider),
          api: str(message.api),
          stopReason: str(message.stopReason),
          errorMessage: str(message.errorMessage),
          usage,
          usageProblems: problems,
          toolCalls: toolCallsOf(message.content),
        };
      }
      if (message && role === "toolResult") {
        return {
          kind: "toolResult",
          id,
          parentId,
          ts,
          pos,
          raw: obj,
          toolCallId: str(message.toolCallId),
          toolName: str(message.toolName),
          isError: message.isError === true,
        };
      }
      return { kind: "other", id, parentId, ts, pos, raw: obj, rawType: type, role };
    }
    case "model_change":
      return { kind: "model_change", id, parentId, ts, pos, raw: obj, provider: str(obj.provider), modelId: str(obj.modelId) };
    case "thinking_level_change":
      return { kind: "thinking_level_change", id, parentId, ts, pos, raw: obj, thinkingLevel: str(obj.thinkingLevel) };
    case "compaction":
      return {
        kind: "compaction",
        id,
        parentId,
        ts,
        pos,
        raw: obj,
        summary: str(obj.summary),
        firstKeptEntryId: str(obj.firstKeptEntryId),
        tokensBefore: num(obj.tokensBefore),
      };
    default:
      return { kind: "other", id, parentId, ts, pos, raw: obj, rawType: type, role: null };
  }
}

/**
 * Parses one event's JSON text. Returns undefined when the text is not valid JSON or not an
 * object; the caller turns that into a SourceWarning (it knows the file/row).
 */
export function parseTranscriptEvent(text: string, pos = -1, fallbackTs: number | null = null): TranscriptEvent | undefined {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch {
    return undefined;
  }
  return toTranscriptEvent(obj, pos, fallbackTs);
}

/** Adds a BAD_FIELD warning per usage field the guard refused in `event` (`where`: its file offset or row). */
export function reportUsageProblems(event: TranscriptEvent, where: string, warnings: SourceWarning[]): void {
  if (event.kind !== "assistant") return;
  for (const p of event.usageProblems) warnings.push(badUsageField(p.field, p.problem, where));
}

/**
 * The plain text of a message event: a string `content`, or its `text` blocks joined with a
 * newline. Empty for events without a message. Computed on demand so scans do not pay for it.
 */
export function eventText(event: TranscriptEvent): string {
  const message = event.raw.message;
  if (!isObject(message)) return "";
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let out = "";
  for (const block of content) {
    if (isObject(block) && block.type === "text" && typeof block.text === "string") {
      out = out ? `${out}\n${block.text}` : block.text;
    }
  }
  return out;
}
