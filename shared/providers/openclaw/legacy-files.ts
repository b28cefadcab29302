// Reader for the file era of OpenClaw (<= 2026.7.1): `agents/<id>/sessions/sessions.json` plus one
// `<sessionId>.jsonl` transcript per session window. Transcripts are read incrementally from a
// byte cursor, only whole lines, a bounded number of bytes per call.
import * as fs from "node:fs";
import * as path from "node:path";
import { readLines, warningOffset } from "../jsonl/line-reader.js";
import { SourceError, classifyIoError, fail, ok } from "../result.js";
import { UNREAD_ENTRY_FIELDS } from "./agent-db.js";
import { IndexSyntaxError, setOwn, walkSessionsIndex, walkSessionsIndexPaced } from "./sessions-index.js";
import type { IndexEntryVisitor, ReadAt } from "./sessions-index.js";
import type { SourceResult, SourceWarning } from "../result.js";
import { openRegular } from "../../base/safe-open.js";
import { parseTranscriptEvent, reportUsageProblems } from "./transcript-event.js";
import type { TranscriptEvent } from "./transcript-event.js";

/** Where the last read of a JSONL file stopped; plain JSON so the store can persist it. */
export interface FileCursor {
  /** Byte offset just past the last complete line consumed. */
  offset: number;
  /** Inode at the last read: a different inode means the file was replaced. */
  inode: number;
  /** File size at the last read. */
  size: number;
}

export interface LegacySessionEntry {
  key: string;
  entry: Record<string, unknown>;
}

export interface TranscriptFile {
  sessionId: string;
  path: string;
  size: number;
  inode: number;
  mtimeMs: number;
}

interface JsonlBatch {
  /** Parsed events in file order; `pos` is each line's byte offset. */
  events: TranscriptEvent[];
  cursor: FileCursor;
  /** True when every complete line has been consumed (a trailing partial line may remain). */
  done: boolean;
  /** True when the file was truncated or replaced and reading restarted at 0. */
  restarted: boolean;
}

export interface JsonlReadOptions {
  /** Bytes read per call (default 1 MiB); a single longer line is still read whole, up to maxLineBytes. */
  maxBytes?: number;
  /** Events returned per call at most. */
  limit?: number;
  /** A line longer than this is skipped with a warning (OpenClaw events are at most 4 MiB). */
  maxLineBytes?: number;
}

export const DEFAULT_MAX_BYTES = 1024 * 1024;
const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

const UNREAD = new Set<string>(UNREAD_ENTRY_FIELDS);
/** Marks a member that is not an object, so it keeps its place among the entries. */
const NOT_AN_OBJECT: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * Reads `sessions.json`: one object keyed by session key; a value that is not an object is warned
 * and skipped. The blobs the monitor never reads (UNREAD_ENTRY_FIELDS) are stepped over without
 * being built, and the file is read through a window, never whole (sessions-index.ts): parsing it
 * whole was most of the file era's memory. Keys and fields come out as JSON.parse would give them
 * (order, a repeated key's last value).
 */
export function readSessionsJson(sessionsDir: string): SourceResult<LegacySessionEntry[]> {
  return withIndex(sessionsDir, (read, size, visit) => {
    walkSessionsIndex(read, size, UNREAD, visit);
    return undefined;
  }) as SourceResult<LegacySessionEntry[]>;
}

/** The same, awaiting `pause()` after each MiB of the file (a 40 MB index was ~110 ms of CPU at once). */
export async function readSessionsJsonPaced(sessionsDir: string, pause: () => Promise<void>): Promise<SourceResult<LegacySessionEntry[]>> {
  const r = withIndex(sessionsDir, (read, size, visit) => walkSessionsIndexPaced(read, size, UNREAD, visit, pause));
  return r instanceof Promise ? r : Promise.resolve(r);
}

/** Opens sessions.json, runs `walk` over it (at once or paced) and makes the result of what it visited. */
function withIndex(
  sessionsDir: string,
  walk: (read: ReadAt, size: number, visit: IndexEntryVisitor) => Promise<void> | undefined,
): SourceResult<LegacySessionEntry[]> | Promise<SourceResult<LegacySessionEntry[]>> {
  const file = path.join(sessionsDir, "sessions.json");
  let fd: number;
  try {
    ({ fd } = openRegular(file));
  } catch (err) {
    return fail(classifyIoError(err, file));
  }
  // A plain object gives JSON.parse's key order (integer-like keys first) and repeated-key rule.
  const index: Record<string, Record<string, unknown>> = {};
  const visit: IndexEntryVisitor = {
    entry: (key, fields) => setOwn(index, key, fields),
    notObject: (key) => setOwn(index, key, NOT_AN_OBJECT),
  };
  const failed = (err: unknown): SourceResult<LegacySessionEntry[]> => {
    if (!(err instanceof IndexSyntaxError)) return fail(classifyIoError(err, file));
    const top = err.message.startsWith("top level is not an object");
    return fail(new SourceError("corrupt", top ? `${file}: top level is not an object` : `${file}: not valid JSON (${err.message})`, { where: file }, { cause: err }));
  };
  const done = (): SourceResult<LegacySessionEntry[]> => {
    const warnings: SourceWarning[] = [];
    const out: LegacySessionEntry[] = [];
    for (const [key, entry] of Object.entries(index)) {
      if (entry !== NOT_AN_OBJECT) out.push({ key, entry });
      else warnings.push({ code: "BAD_ROW", message: "session entry is not an object; skipped", where: `${file}:${key}` });
    }
    return ok(out, warnings);
  };
  let pending: Promise<void> | undefined;
  try {
    // Read through the descriptor: a file replaced meanwhile (the gateway renames a new one in)
    // is walked as it was when opened.
    pending = walk((into, pos) => fs.readSync(fd, into, 0, into.length, pos), fs.fstatSync(fd).size, visit);
  } catch (err) {
    fs.closeSync(fd);
    return failed(err);
  }
  if (!pending) {
    fs.closeSync(fd);
    return done();
  }
  return pending.then(done, failed).finally(() => fs.closeSync(fd));
}

/**
 * Is `name` a live transcript? Trace files (`*.trajectory*.jsonl`) and archives
 * (`*.jsonl.reset.<ts>`, `*.deleted.<ts>`, cold `*.jsonl.zst`) are not.
 */
export function transcriptSessionId(name: string): string | null {
  if (!name.endsWith(".jsonl")) return null;
  if (name.includes(".trajectory") || name.includes(".reset.") || name.includes(".deleted.")) return null;
  const id = name.slice(0, -".jsonl".length);
  return id === "" || id.startsWith(".") ? null : id;
}

/** Every live `<sessionId>.jsonl` in the sessions dir, sorted by session id. */
export function listTranscriptFiles(sessionsDir: string): SourceResult<TranscriptFile[]> {
  const it = listing(sessionsDir);
  for (;;) {
    const step = it.next();
    if (step.done) return step.value;
  }
}

/** The same, awaiting `pause()` every few hundred files (a stat each). */
export async function listTranscriptFilesPaced(sessionsDir: string, pause: () => Promise<void>): Promise<SourceResult<TranscriptFile[]>> {
  const it = listing(sessionsDir);
  for (;;) {
    const step = it.next();
    if (step.done) return step.value;
    await pause();
  }
}

const STATS_PER_STRETCH = 500;

/** The listing, yielding after every STATS_PER_STRETCH stats. */
function* listing(sessionsDir: string): Generator<void, SourceResult<TranscriptFile[]>> {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(sessionsDir, { withFileTypes: true });
  } catch (err) {
    return fail(classifyIoError(err, sessionsDir));
  }
  const warnings: SourceWarning[] = [];
  const out: TranscriptFile[] = [];
  const dir = sessionsDir.endsWith(path.sep) ? sessionsDir : sessionsDir + path.sep;
  let stats = 0;
  for (const d of names) {
    const sessionId = transcriptSessionId(d.name);
    if (sessionId === null || d.isDirectory()) continue;
    const p = `${dir}${d.name}`;
    if (++stats % STATS_PER_STRETCH === 0) yield;
    try {
      // No exception for a file gone since readdir (a rotation in progress is normal).
      const st = fs.statSync(p, { throwIfNoEntry: false });
      if (st?.isFile()) out.push({ sessionId, path: p, size: st.size, inode: st.ino, mtimeMs: st.mtimeMs });
    } catch (err) {
      // Deleted between readdir and stat (a rotation in progress) is normal; anything else is worth a word.
      if ((err as { code?: unknown }).code !== "ENOENT") warnings.push({ code: "BAD_ROW", message: (err as Error).message, where: p });
    }
  }
  out.sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
  return ok(out, warnings);
}

/** The offset in one of our line warnings' `where` (`<file>@<offset>`). */
function offsetOf(w: SourceWarning): number {
  const m = /@(\d+)$/.exec(w.where);
  return m ? Number(m[1]) : 0;
}

/**
 * Reads the complete lines of a JSONL transcript after `cursor` and parses them, through the
 * shared streaming line reader (jsonl/line-reader.ts: fixed chunks, a reused buffer, only the
 * lines handed over are built). A trailing line without its newline is left for the next call (the
 * writer may be mid-line). A file that shrank below the cursor (TRUNCATED) or has a new inode
 * (ROTATED) is re-read from 0, with a warning. One call consumes at most `maxBytes` (a single
 * longer line is still read whole, up to maxLineBytes) and at most `limit` events.
 */
export function readJsonlTranscript(file: string, cursor: FileCursor | null, opts: JsonlReadOptions = {}): SourceResult<JsonlBatch> {
  const maxBytes = Math.max(1, Math.floor(opts.maxBytes ?? DEFAULT_MAX_BYTES));
  const limit = Math.max(1, opts.limit ?? Number.MAX_SAFE_INTEGER);
  const maxLineBytes = Math.max(maxBytes, opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  const warnings: SourceWarning[] = [];
  const events: TranscriptEvent[] = [];
  // The first line past the limit or the byte budget: where the next call starts. Lines after it
  // are only located by the line reader (it stops at most one line later), never parsed.
  let stopAt: number | null = null;
  let base = -1;
  const r = readLines(file, cursor, { maxBytes, maxLineBytes }, (line, pos) => {
    if (stopAt !== null) return;
    if (base < 0) base = pos;
    else if (events.length >= limit || pos + line.length + 1 - base > maxBytes) {
      stopAt = pos;
      return;
    }
    const where = `${file}@${pos}`;
    const event = parseTranscriptEvent(line.toString("utf8"), pos);
    if (event) {
      reportUsageProblems(event, where, warnings);
      events.push(event);
    } else warnings.push({ code: "BAD_JSON", message: "line is not a JSON object; skipped", where });
  });
  if (!r.ok) return fail(r.error, r.warnings);
  const read = r.value;
  const stop = stopAt as number | null;
  const own: SourceWarning[] = [];
  if (read.restarted && cursor) {
    own.push(
      read.cursor.inode !== cursor.inode
        ? { code: "ROTATED", message: "transcript replaced (new inode); reading from the start", where: file }
        : { code: "TRUNCATED", message: `transcript shrank below offset ${cursor.offset}; reading from the start`, where: file },
    );
  }
  // The line reader's own warnings are over-long lines; those after the stop belong to the next
  // call. Merged with ours in file order, as one pass over the lines finds them.
  for (const w of r.warnings) {
    const at = warningOffset(w) ?? 0;
    if (stop === null || at < stop) warnings.push({ code: "BAD_ROW", message: `line longer than ${maxLineBytes} bytes; skipped`, where: `${file}@${at}` });
  }
  warnings.sort((x, y) => offsetOf(x) - offsetOf(y));
  own.push(...warnings);
  const next: FileCursor = stop === null ? read.cursor : { ...read.cursor, offset: stop };
  return ok({ events, cursor: next, done: stop === null && read.done, restarted: read.restarted }, own);
}
