// Moves a bundled JSON-lines provider state (Claude Code's, Codex's, Gemini CLI's) in time, like
// time-shift.ts moves any text, plus what those write besides: bare dates (Claude Code's `date`
// context, Codex's `current_date`) and, for a provider that asks, unix-second fields (Codex's
// `started_at`, `completed_at`, `resets_at` of the rate limits, history's `ts`, `create_time`).
// What a provider names by a time (Codex's rollouts, Gemini CLI's sessions) it renames itself,
// in its demo/ folder.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inWindow, shiftSqliteFile, shiftText, type TimeShift } from "./time-shift.js";

// A date alone (not the start of a date-time, not part of a longer token such as a beta name).
const DATE = /(?<![\w.:/-])(\d{4})-(\d{2})-(\d{2})(?![\w:/-]|\.\d)/g;

/** Moves bare `YYYY-MM-DD` dates of the recording's window to the day their noon lands on. */
export function shiftDates(text: string, s: TimeShift): string {
  if (s.offsetMs === 0) return text;
  return text.replace(DATE, (match, y: string, m: string, d: string) => {
    const noon = Date.UTC(Number(y), Number(m) - 1, Number(d), 12);
    if (Number.isNaN(noon) || !inWindow(noon, s)) return match;
    return new Date(noon + s.offsetMs).toISOString().slice(0, 10);
  });
}

// Codex's unix-second fields, by name (a bare 10-digit number could be anything).
const SECONDS = /"(started_at|completed_at|resets_at|create_time|ts)":(\d{10})(\.\d+)?(?![\d.])/g;

/** Moves the unix-second fields Codex writes (whole seconds; a fraction is kept as written). */
export function shiftSeconds(text: string, s: TimeShift): string {
  const offsetS = Math.round(s.offsetMs / 1000);
  if (offsetS === 0) return text;
  return text.replace(SECONDS, (match, key: string, secs: string, fraction: string | undefined) => {
    const n = Number(secs);
    if (!inWindow(n * 1000, s)) return match;
    return `"${key}":${n + offsetS}${fraction ?? ""}`;
  });
}

const TEXT_FILE = /\.(jsonl|json)$/;

/** Every timestamp of a provider's state under `dir`: ISO times, epoch ms, dates, and (Codex) unix seconds. */
export function shiftProviderTree(dir: string, s: TimeShift, o: { seconds: boolean }): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) shiftProviderTree(path, s, o);
    else if (!entry.isFile()) continue;
    else if (entry.name.endsWith(".sqlite")) shiftSqliteFile(path, s);
    else if (TEXT_FILE.test(entry.name) && statSync(path).size < 64 * 1024 * 1024) {
      const text = readFileSync(path, "utf8");
      let moved = shiftDates(shiftText(text, s), s);
      if (o.seconds) moved = shiftSeconds(moved, s);
      if (moved !== text) writeFileSync(path, moved);
    }
  }
}
