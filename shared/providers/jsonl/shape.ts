// Defensive reads of a parsed JSONL line, for the JSONL providers' parsers: every field may be
// missing or of the wrong type, and unknown fields are normal. Claude Code's, Codex's and Gemini
// CLI's parsers all read through these, so the same line is judged the same way by each.
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
  return typeof v === "string" && v !== "" && v.length <= max ? v : null;
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

/** The line's `timestamp` (ISO UTC) in epoch ms; null when absent, or unreadable (then a BAD_FIELD warning): a time is never invented. */
export function lineTimestamp(obj: Json, where: string, warnings: SourceWarning[]): number | null {
  const raw = obj.timestamp;
  if (raw === undefined || raw === null) return null;
  const ms = typeof raw === "string" ? Date.parse(raw) : Number.NaN;
  if (Number.isFinite(ms)) return ms;
  warnings.push({ code: "BAD_FIELD", message: "timestamp is not an ISO-8601 time; ignored", where });
  return null;
}

/** `s` cut to `max` characters on a code point boundary (a lone surrogate survives neither JSON nor SQLite), an ellipsis marking the cut. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  let out = "";
  for (const ch of s) {
    if (out.length + ch.length > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/** A prompt for display: whitespace collapsed, at most 200 characters. */
export function shortenPrompt(s: string): string {
  return clip(s.replace(/\s+/g, " ").trim(), 200);
}
