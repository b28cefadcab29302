// Moves every timestamp of a provider's demo recording by one offset, so a recording made days ago
// reads as if it had just happened (the kit the providers' demos share: shared/providers/<p>/demo/). It does not need to know the schema: any epoch-millisecond number
// or ISO-8601 time that falls inside the recording's window is moved, wherever it sits (an
// INTEGER column, a JSON field inside a TEXT column, a log line, the lock file; a compressed row
// through the provider's own `blob` hook, as OpenClaw's zstd transcripts). Values outside the window (a build date, a schedule's anchor of 288244 ms)
// are left alone. Lengths are kept: a 13-digit number stays 13 digits and an ISO time keeps its
// precision and zone, so byte counts stored beside the text (event_utf8_bytes) stay true.
import Database from "better-sqlite3";

export interface TimeShift {
  /** Values in [fromMs, untilMs] are timestamps of the recording and move; others stay. */
  fromMs: number;
  untilMs: number;
  offsetMs: number;
}

/** The window a recording's timestamps fall in: a day before its first activity to a week after its last (cleanup dates, next runs). */
export function recordingShift(recordedFrom: number, recordedUntil: number, now: number): TimeShift {
  return { fromMs: recordedFrom - 86_400_000, untilMs: recordedUntil + 8 * 86_400_000, offsetMs: now - recordedUntil };
}

/**
 * The same window moved by whole seconds (rounded down): a provider that writes unix seconds beside
 * milliseconds (Codex) must move both alike, so its recording ends up to a second before `now`.
 */
export function wholeSecondShift(recordedFrom: number, recordedUntil: number, now: number): TimeShift {
  const s = recordingShift(recordedFrom, recordedUntil, now);
  return { ...s, offsetMs: Math.floor(s.offsetMs / 1000) * 1000 };
}

export const inWindow = (ms: number, s: TimeShift): boolean => ms >= s.fromMs && ms <= s.untilMs;

// 13 digits not glued to other word characters or a decimal point: epoch ms from 2001 to 2286.
const EPOCH_MS = /(?<![\w.])\d{13}(?![\w.])/g;
// ISO-8601 date-times with a zone, as JSON.stringify, tslog and the lock file write them.
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})/g;

function formatIso(ms: number, fractionDigits: number, zone: string): string {
  let zoneMinutes = 0;
  if (zone !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    zoneMinutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  }
  const wall = new Date(ms + zoneMinutes * 60_000).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const base = wall.slice(0, 19);
  const fraction = fractionDigits === 0 ? "" : "." + wall.slice(20, 23).padEnd(fractionDigits, "0").slice(0, fractionDigits);
  return base + fraction + zone;
}

/** Moves the timestamps inside a piece of text (JSON, a log line, anything). */
export function shiftText(text: string, s: TimeShift): string {
  if (s.offsetMs === 0) return text;
  return text
    .replace(ISO_TIME, (match: string, fraction: string | undefined, zone: string) => {
      const ms = Date.parse(match);
      if (Number.isNaN(ms) || !inWindow(ms, s)) return match;
      return formatIso(ms + s.offsetMs, fraction?.length ?? 0, zone);
    })
    .replace(EPOCH_MS, (match) => {
      const ms = Number(match);
      if (!inWindow(ms, s)) return match;
      const moved = String(ms + s.offsetMs);
      return moved.length === match.length ? moved : match;
    });
}

/** Moves what a BLOB holds (a provider's compressed rows); a BLOB is left as it is without one. */
export type BlobShift = (blob: Buffer, s: TimeShift) => Buffer;

/** One SQL value moved (integers arrive as bigint: the function runs with safeIntegers). */
function shiftValue(v: unknown, s: TimeShift, blob: BlobShift | undefined): unknown {
  if (typeof v === "bigint") {
    const n = Number(v);
    return inWindow(n, s) ? v + BigInt(s.offsetMs) : v;
  }
  if (typeof v === "number") return inWindow(v, s) ? v + s.offsetMs : v;
  if (typeof v === "string") return shiftText(v, s);
  if (Buffer.isBuffer(v)) return blob ? blob(v, s) : v;
  return v;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  return a === b;
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Moves every timestamp in every table of one SQLite file (virtual FTS tables through their own UPDATE). */
export function shiftSqliteFile(file: string, s: TimeShift, o: { blob?: BlobShift } = {}): { rowsChanged: number } {
  const db = new Database(file);
  try {
    db.function("gi_shift", { deterministic: true, safeIntegers: true }, (v: unknown) => shiftValue(v, s, o.blob) as never);
    db.function("gi_moves", { deterministic: true, safeIntegers: true }, (v: unknown) => (sameValue(shiftValue(v, s, o.blob), v) ? 0 : 1));
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string | null }[];
    const virtual = tables.filter((t) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(t.sql ?? "")).map((t) => t.name);
    // FTS keeps shadow tables (<name>_data, _idx, _content, _docsize, _config); they follow the virtual table.
    const shadow = (name: string): boolean => virtual.some((v) => name.startsWith(`${v}_`));
    let rowsChanged = 0;
    db.transaction(() => {
      for (const t of tables) {
        if (shadow(t.name)) continue;
        const columns = db.prepare(`PRAGMA table_xinfo(${quote(t.name)})`).all() as { name: string; hidden: number }[];
        for (const c of columns) {
          if (c.hidden !== 0) continue; // generated or hidden vtab columns cannot be set
          const col = quote(c.name);
          rowsChanged += db.prepare(`UPDATE ${quote(t.name)} SET ${col} = gi_shift(${col}) WHERE gi_moves(${col})`).run().changes;
        }
      }
    })();
    return { rowsChanged };
  } finally {
    db.close();
  }
}
