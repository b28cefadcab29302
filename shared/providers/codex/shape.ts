// Defensive reads of parsed Codex rollout JSON (codex-format.md §4): every field may be missing or
// of the wrong type, and unknown fields are normal. Shared by the activity parser (line.ts) and the
// transcript view (messages.ts), so both apply the same rules.
import type { SourceWarning } from "../result.js";

export type Json = Record<string, unknown>;

export function asObject(v: unknown): Json | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : null;
}

/** A non-empty string, else null. */
export function text(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

/** A non-empty string of at most `max` characters, else null (ids, versions and names are short). */
export function shortText(v: unknown, max: number): string | null {
  const s = text(v);
  return s !== null && s.length <= max ? s : null;
}

/** A non-negative safe integer, else null. */
export function count(v: unknown): number | null {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

/** A finite number, else null. */
export function finite(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
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
 * The line's own time (`timestamp`, ISO UTC) in epoch ms, or null when it has none. A present but
 * unreadable value is a BAD_FIELD warning and also null: a time is never invented.
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

const MESSAGE_MAX = 1000;

/** An incident message of at most 1000 characters: the event log shows a line, not a dump. */
export function clip(s: string, max = MESSAGE_MAX): string {
  if (s.length <= max) return s;
  let out = "";
  for (const ch of s) {
    if (out.length + ch.length > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/**
 * The text of a content array: the `text` of every block whose type is one of `types`, joined by
 * newlines (`input_text` / `output_text` in response items, `text` / `Text` in UI items).
 */
export function contentText(content: unknown, types: ReadonlySet<string>): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    const b = asObject(block);
    if (b && typeof b.type === "string" && types.has(b.type) && typeof b.text === "string") parts.push(b.text);
  }
  return parts.join("\n");
}

export const USER_TEXT_TYPES: ReadonlySet<string> = new Set(["text", "Text", "input_text"]);
export const ASSISTANT_TEXT_TYPES: ReadonlySet<string> = new Set(["text", "Text", "output_text"]);

/**
 * A short stable name for a value Codex writes either as a plain string or as a one-key object
 * (Rust enums with data: `"internal_server_error"` vs `{"http_connection_failed": {...}}`).
 */
export function enumName(v: unknown): string | null {
  const s = shortText(v, 64);
  if (s !== null) return /^[A-Za-z0-9_.-]+$/.test(s) ? s : null;
  const o = asObject(v);
  if (!o) return null;
  const keys = Object.keys(o);
  const k = keys.length === 1 ? keys[0] : undefined;
  return k !== undefined && k.length <= 64 && /^[A-Za-z0-9_.-]+$/.test(k) ? k : null;
}

/** A tool call item of the model (`function_call`, `custom_tool_call`, `local_shell_call`, `web_search_call`, ...). */
export function isToolCallType(t: unknown): boolean {
  return typeof t === "string" && t.endsWith("_call");
}

/** A tool's answer item (`function_call_output`, `custom_tool_call_output`, ...). */
export function isToolOutputType(t: unknown): boolean {
  return typeof t === "string" && t.endsWith("_call_output");
}
