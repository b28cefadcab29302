// What one parsed Claude Code transcript line says, read defensively (format doc §2-§7): every
// field may be missing or of the wrong type, and unknown fields are normal. Shared by the activity
// parser (line.ts) and the transcript view (messages.ts), so both apply the same rules.
import type { SourceWarning } from "../result.js";

export type Json = Record<string, unknown>;

export function asObject(v: unknown): Json | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : null;
}

function asString(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** A non-empty string, else null. */
export function text(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

/** Parses a line; null with a BAD_JSON warning when it is not JSON or not a JSON object. */
export function parseLineObject(line: string, where: string, warnings: SourceWarning[], parse: (text: string) => unknown = JSON.parse): Json | null {
  let value: unknown;
  try {
    value = parse(line);
  } catch {
    warnings.push({ code: "BAD_JSON", message: "line is not valid JSON; skipped", where });
    return null;
  }
  const obj = asObject(value);
  if (!obj) warnings.push({ code: "BAD_JSON", message: "line is not a JSON object; skipped", where });
  return obj;
}

/**
 * The line's own time in epoch ms, or null when it has none (several line types never do). A
 * present but unreadable `timestamp` is a BAD_FIELD warning and also null: a time is never invented.
 */
export function lineTimestamp(obj: Json, where: string, warnings: SourceWarning[]): number | null {
  const raw = obj.timestamp;
  if (raw === undefined || raw === null) return null;
  const ms = typeof raw === "string" ? Date.parse(raw) : Number.NaN;
  if (Number.isFinite(ms)) return ms;
  warnings.push({ code: "BAD_FIELD", message: "timestamp is not an ISO-8601 time; ignored", where });
  return null;
}

const PROMPT_MAX = 200;

/** A prompt for display: whitespace collapsed, at most 200 characters (an ellipsis marks a cut). */
export function shortenPrompt(s: string): string {
  const flat = s.replace(/\s+/g, " ").trim();
  if (flat.length <= PROMPT_MAX) return flat;
  // Cut on a code point boundary: a lone surrogate would not survive JSON or SQLite as text.
  let out = "";
  for (const ch of flat) {
    if (out.length + ch.length > PROMPT_MAX - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/** The text blocks of a content array joined by newlines (a string content is itself). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    const b = asObject(block);
    if (b && b.type === "text" && typeof b.text === "string") parts.push(b.text);
  }
  return parts.join("\n");
}

interface ToolResultBlock {
  toolUseId: string | null;
  isError: boolean;
  text: string;
}

type UserLine =
  | { kind: "prompt"; text: string }
  | { kind: "toolResults"; results: ToolResultBlock[] }
  | { kind: "other" };

// `<task-notification>`: what Claude Code appends to the parent transcript when a background
// sub-agent finishes (format doc §5); nobody typed it, so it is no user turn.
const NOT_PROMPT_PREFIXES = ["<local-command-stdout>", "<local-command-caveat>", "<local-command-stderr>", "<task-notification>"];

/**
 * Classifies a `user` line (format doc §3). A prompt has text (or image) content, no tool_result,
 * and is not `isMeta`, a compaction summary, transcript-only, a local command's output, or a
 * background sub-agent's notification. In a
 * main transcript a sidechain line is not a prompt; in a sub-agent transcript every line is a
 * sidechain line, and its task prompt (its first user line) counts as that session's prompt.
 */
export function userLine(obj: Json, subagent: boolean): UserLine {
  const message = asObject(obj.message);
  const content = message?.content;
  if (Array.isArray(content)) {
    const results: ToolResultBlock[] = [];
    for (const block of content) {
      const b = asObject(block);
      if (b?.type === "tool_result") results.push({ toolUseId: asString(b.tool_use_id), isError: b.is_error === true, text: contentText(b.content) });
    }
    if (results.length > 0) return { kind: "toolResults", results };
  }
  if (obj.isMeta === true || obj.isCompactSummary === true || obj.isVisibleInTranscriptOnly === true) return { kind: "other" };
  if (!subagent && obj.isSidechain === true) return { kind: "other" };
  let body: string;
  if (typeof content === "string") body = content;
  else if (Array.isArray(content) && content.some((b) => { const t = asObject(b)?.type; return t === "text" || t === "image"; })) body = contentText(content);
  else return { kind: "other" };
  const lead = body.trimStart();
  if (NOT_PROMPT_PREFIXES.some((p) => lead.startsWith(p))) return { kind: "other" };
  if (lead === "" && typeof content === "string") return { kind: "other" };
  return { kind: "prompt", text: body };
}

interface AssistantLine {
  /** `model:"<synthetic>"`: written by Claude Code itself, not billed (format doc §4, §6). */
  synthetic: boolean;
  /** A synthetic line that reports a failed API call (`isApiErrorMessage`, or an `error` code). */
  apiError: boolean;
  /** De-duplication key of the billable response (message.id + requestId), see responseKey. */
  key: string | null;
  model: string | null;
  /** Text blocks of this line (thinking blocks excluded). */
  text: string;
  toolUses: Array<{ id: string | null; name: string | null }>;
  stopReason: string | null;
  /** The raw `message.usage` (validated by toTokenUsage). */
  rawUsage: unknown;
  /** Short stable code for an API error line: `error` (e.g. `server_error`), else `http_<status>`, else `api_error`. */
  errorCode: string;
}

/**
 * The key that identifies one billable response across every file of the install: one response is
 * written as one line per content block, each repeating the whole usage (format doc §4). Keyed by
 * (message.id, requestId); a line with neither falls back to its own uuid (it then counts alone).
 */
function responseKey(obj: Json, message: Json | null): string | null {
  const id = text(message?.id);
  const requestId = text(obj.requestId);
  if (id !== null || requestId !== null) return `${id ?? ""}:${requestId ?? ""}`;
  const uuid = text(obj.uuid);
  return uuid === null ? null : `uuid:${uuid}`;
}

const CODE_RE = /^[A-Za-z0-9_.-]{1,64}$/;

/** Reads an `assistant` line; null when it has no `message` object. */
export function assistantLine(obj: Json): AssistantLine | null {
  const message = asObject(obj.message);
  if (!message) return null;
  const model = text(message.model);
  const synthetic = model === "<synthetic>";
  const toolUses: AssistantLine["toolUses"] = [];
  if (Array.isArray(message.content)) {
    for (const block of message.content) {
      const b = asObject(block);
      if (b?.type === "tool_use") toolUses.push({ id: text(b.id), name: text(b.name) });
    }
  }
  const errorField = asString(obj.error);
  const status = obj.apiErrorStatus;
  const errorCode =
    errorField !== null && CODE_RE.test(errorField)
      ? errorField
      : typeof status === "number" && Number.isInteger(status) && status >= 100 && status <= 999
        ? `http_${status}`
        : "api_error";
  return {
    synthetic,
    apiError: synthetic && (obj.isApiErrorMessage === true || errorField !== null || typeof status === "number"),
    key: responseKey(obj, message),
    model,
    text: contentText(message.content),
    toolUses,
    stopReason: text(message.stop_reason),
    rawUsage: message.usage,
    errorCode,
  };
}
