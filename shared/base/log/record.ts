// The shape of one log record, as written to daemon.log (one JSON object per line) and streamed
// by `insightsctl logs -f`.

export const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
export type Level = (typeof LEVELS)[number];

export interface LogRecord {
  time: string;
  level: Level;
  module: string;
  msg: string;
  [field: string]: unknown;
}

export function levelRank(level: Level): number {
  return LEVELS.indexOf(level);
}

export function isLevel(value: unknown): value is Level {
  return typeof value === "string" && (LEVELS as readonly string[]).includes(value);
}

/** Parses one daemon.log line; null for anything that is not a record (a torn last line, say). */
export function parseRecord(line: string): LogRecord | null {
  try {
    const v = JSON.parse(line) as unknown;
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const r = v as Partial<LogRecord>;
      if (typeof r.time === "string" && isLevel(r.level) && typeof r.msg === "string") {
        return { ...r, module: typeof r.module === "string" ? r.module : "" } as LogRecord;
      }
    }
  } catch {
    // fall through
  }
  return null;
}

/** One line for people: `2026-11-21 12:00:01 INFO  http  listening  port=41080`. */
export function formatRecord(r: LogRecord): string {
  const { time, level, module, msg, ...fields } = r;
  const extra = Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
  const when = time.replace("T", " ").replace(/\.\d+Z$/, "Z");
  return `${when} ${level.toUpperCase().padEnd(5)} ${module ? `[${module}] ` : ""}${msg}${extra ? `  ${extra}` : ""}`;
}
