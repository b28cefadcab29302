// Defensive reads of parsed Codex rollout JSON (codex-format.md §4): every field may be missing or
// of the wrong type, and unknown fields are normal. Shared by the activity parser (line.ts) and the
// transcript view (messages.ts), so both apply the same rules.
import { asObject, clip as clipTo, shortText } from "../jsonl/shape.js";

export { asObject, lineTimestamp, parseLineObject, shortenPrompt, shortText, text, type Json } from "../jsonl/shape.js";

/** A non-negative safe integer, else null. */
export function count(v: unknown): number | null {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

/** A finite number, else null. */
export function finite(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

const MESSAGE_MAX = 1000;

/** An incident message of at most 1000 characters: the event log shows a line, not a dump. */
export function clip(s: string, max = MESSAGE_MAX): string {
  return clipTo(s, max);
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
