// Moves a bundled Claude Code or Codex state in time, like time-shift.ts does for OpenClaw's, plus
// what those two write differently: bare dates (Claude Code's `date` context, Codex's
// `current_date`), Codex's unix-second fields (`started_at`, `completed_at`, `resets_at` of the
// rate limits, history's `ts`, `create_time`), and Codex's rollout names and date folders, which
// are in the LOCAL time of the process that created them (codex-format.md §3): the bundle names
// them in UTC, and the installed copy is renamed into this machine's local time, as Codex would
// have named them here.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { localRolloutPrefix } from "../providers/codex/demo/rollout-name.js";
import { shiftSqliteFile, shiftText, type TimeShift } from "./time-shift.js";

const inWindow = (ms: number, s: TimeShift): boolean => ms >= s.fromMs && ms <= s.untilMs;

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

const ROLLOUT = /^rollout-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})-(.+\.jsonl)$/;

/**
 * Renames every rollout under `codexHome/sessions` whose name holds a UTC time of the recording to
 * that time moved by the shift, in local time, in the matching local date folder. Emptied date
 * folders are removed.
 */
export function renameRolloutsToLocal(codexHome: string, s: TimeShift): void {
  const sessions = join(codexHome, "sessions");
  const moves: Array<{ from: string; dir: string[]; name: string }> = [];
  const walk = (rel: string[], depth: number): void => {
    for (const e of readdirSync(join(sessions, ...rel), { withFileTypes: true })) {
      if (depth < 3 && e.isDirectory()) walk([...rel, e.name], depth + 1);
      else if (depth === 3 && e.isFile()) {
        const m = ROLLOUT.exec(e.name);
        if (!m) continue;
        const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
        if (!inWindow(utc, s)) continue;
        const local = localRolloutPrefix(utc + s.offsetMs);
        moves.push({ from: join(sessions, ...rel, e.name), dir: local.dir, name: local.name + (m[7] as string) });
      }
    }
  };
  walk([], 0);
  for (const mv of moves) {
    mkdirSync(join(sessions, ...mv.dir), { recursive: true });
    renameSync(mv.from, join(sessions, ...mv.dir, mv.name));
  }
  removeEmptyDirs(sessions, 0);
}

function removeEmptyDirs(dir: string, depth: number): boolean {
  let empty = true;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && depth < 3 && removeEmptyDirs(join(dir, e.name), depth + 1)) continue;
    empty = false;
  }
  if (empty && depth > 0) rmdirSync(dir);
  return empty && depth > 0;
}
