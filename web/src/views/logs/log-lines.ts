// The log view's line handling: level order, module filters, and merging new lines into the
// buffer without duplicates (the latest lines are fetched again after a reconnect).
import type { LogEntry, LogLevel } from "../../api/types";

export const LEVELS: LogLevel[] = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"];
const RANK: Record<string, number> = Object.fromEntries(LEVELS.map((l, i) => [l, i]));
/** The most lines kept on screen; older ones drop off the top. */
export const MAX_LINES = 2000;

export const keyOf = (e: LogEntry): string => `${e.time}|${e.level}|${e.module}|${e.message}`;

export function atLeast(level: string, min: LogLevel): boolean {
  return (RANK[level] ?? 0) >= (RANK[min] ?? 0);
}

/** The daemon's rule: an exact module, or a prefix ending in `/`. */
export function moduleMatches(filter: string, module: string): boolean {
  return !filter || (filter.endsWith("/") ? module.startsWith(filter) || module === filter.slice(0, -1) : module === filter);
}

/** Appends lines not already present, keeping the newest MAX_LINES. */
export function merge(lines: LogEntry[], more: LogEntry[]): LogEntry[] {
  if (!more.length) return lines;
  const seen = new Set(lines.map(keyOf));
  const fresh = more.filter((e) => {
    const k = keyOf(e);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const next = lines.concat(fresh);
  return next.length > MAX_LINES ? next.slice(next.length - MAX_LINES) : next;
}
