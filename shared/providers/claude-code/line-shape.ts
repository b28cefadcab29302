// What one parsed Claude Code transcript line says, read defensively (format doc §2-§7): every
// field may be missing or of the wrong type, and unknown fields are normal. Shared by the activity
// parser (line.ts) and the transcript view (messages.ts), so both apply the same rules.
import { asObject, text, type Json } from "../jsonl/shape.js";

export { asObject, lineTimestamp, parseLineObject, shortenPrompt, text, type Json } from "../jsonl/shape.js";

function asString(v: unknown): string | null {
  return typeof v === "string" ? v : null;
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
