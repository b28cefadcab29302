// Reader for the file era of OpenClaw (<= 2026.7.1): `agents/<id>/sessions/sessions.json` plus one
// `<sessionId>.jsonl` transcript per session window. Transcripts are read incrementally from a
// byte cursor, only whole lines, a bounded number of bytes per call.
import * as fs from "node:fs";
import * as path from "node:path";
import { SourceError, classifyIoError, fail, ok } from "../result.js";
import { UNREAD_ENTRY_FIELDS } from "./agent-db.js";
import type { SourceResult, SourceWarning } from "../result.js";
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

export interface JsonlBatch {
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
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;

/** Reads `sessions.json`: one object keyed by session key; a value that is not an object is warned and skipped. */
export function readSessionsJson(sessionsDir: string): SourceResult<LegacySessionEntry[]> {
  const file = path.join(sessionsDir, "sessions.json");
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    return fail(classifyIoError(err, file));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return fail(new SourceError("corrupt", `${file}: not valid JSON (${(err as Error).message})`, { where: file }, { cause: err }));
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return fail(new SourceError("corrupt", `${file}: top level is not an object`, { where: file }));
  }
  const warnings: SourceWarning[] = [];
  const out: LegacySessionEntry[] = [];
  for (const [key, entry] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof entry === "object" && entry !== null && !Array.isArray(entry)) {
      // The reader keeps the parsed file until it changes: without its blobs it is ~15x smaller.
      for (const f of UNREAD_ENTRY_FIELDS) delete (entry as Record<string, unknown>)[f];
      out.push({ key, entry: entry as Record<string, unknown> });
    }
    else warnings.push({ code: "BAD_ROW", message: "session entry is not an object; skipped", where: `${file}:${key}` });
  }
  return ok(out, warnings);
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
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(sessionsDir, { withFileTypes: true });
  } catch (err) {
    return fail(classifyIoError(err, sessionsDir));
  }
  const warnings: SourceWarning[] = [];
  const out: TranscriptFile[] = [];
  for (const d of names) {
    const sessionId = transcriptSessionId(d.name);
    if (sessionId === null || d.isDirectory()) continue;
    const p = path.join(sessionsDir, d.name);
    try {
      const st = fs.statSync(p);
      if (st.isFile()) out.push({ sessionId, path: p, size: st.size, inode: st.ino, mtimeMs: st.mtimeMs });
    } catch (err) {
      // Deleted between readdir and stat (a rotation in progress) is normal; anything else is worth a word.
      if ((err as { code?: unknown }).code !== "ENOENT") warnings.push({ code: "BAD_ROW", message: (err as Error).message, where: p });
    }
  }
  out.sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
  return ok(out, warnings);
}

function readAt(fd: number, buf: Buffer, fileOffset: number): number {
  let got = 0;
  while (got < buf.length) {
    const n = fs.readSync(fd, buf, got, buf.length - got, fileOffset + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/**
 * Reads the complete lines of a JSONL transcript after `cursor` and parses them. A trailing line
 * without its newline is left for the next call (the writer may be mid-line). A file that shrank
 * below the cursor (TRUNCATED) or has a new inode (ROTATED) is re-read from 0, with a warning.
 */
export function readJsonlTranscript(file: string, cursor: FileCursor | null, opts: JsonlReadOptions = {}): SourceResult<JsonlBatch> {
  const maxBytes = Math.max(1, Math.floor(opts.maxBytes ?? DEFAULT_MAX_BYTES));
  const limit = Math.max(1, opts.limit ?? Number.MAX_SAFE_INTEGER);
  const maxLineBytes = Math.max(maxBytes, opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  const warnings: SourceWarning[] = [];
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (err) {
    return fail(classifyIoError(err, file));
  }
  try {
    const st = fs.fstatSync(fd);
    let offset = cursor?.offset ?? 0;
    let restarted = false;
    if (cursor && cursor.inode !== st.ino) {
      warnings.push({ code: "ROTATED", message: "transcript replaced (new inode); reading from the start", where: file });
      offset = 0;
      restarted = true;
    } else if (cursor && st.size < cursor.offset) {
      warnings.push({ code: "TRUNCATED", message: `transcript shrank to ${st.size} bytes below offset ${cursor.offset}; reading from the start`, where: file });
      offset = 0;
      restarted = true;
    }
    const size = st.size;
    const events: TranscriptEvent[] = [];
    let done = offset >= size;
    // One read per call; the window only grows when a single line is longer than maxBytes.
    let windowBytes = Math.min(maxBytes, size - offset);
    while (!done) {
      const buf = Buffer.allocUnsafe(windowBytes);
      const got = readAt(fd, buf, offset);
      const reachedEof = offset + got >= size;
      const lastNl = got > 0 ? buf.lastIndexOf(NEWLINE, got - 1) : -1;
      if (lastNl < 0) {
        // No complete line in the window: the tail is still being written, or the line is long.
        if (reachedEof) {
          done = true;
          break;
        }
        if (windowBytes >= maxLineBytes) {
          const skipTo = nextLineStart(fd, offset + got, size);
          if (skipTo < 0) {
            done = true; // its end is not written yet; decide once it is
            break;
          }
          warnings.push({ code: "BAD_ROW", message: `line longer than ${maxLineBytes} bytes; skipped`, where: `${file}@${offset}` });
          offset = skipTo;
          done = offset >= size;
          break;
        }
        windowBytes = Math.min(maxLineBytes, windowBytes * 2, size - offset);
        continue;
      }
      let start = 0;
      while (start <= lastNl && events.length < limit) {
        const nl = buf.indexOf(NEWLINE, start);
        const end = nl > start && buf[nl - 1] === CR ? nl - 1 : nl;
        if (end > start) {
          const event = parseTranscriptEvent(buf.toString("utf8", start, end), offset + start);
          if (event) {
            reportUsageProblems(event, `${file}@${offset + start}`, warnings);
            events.push(event);
          } else warnings.push({ code: "BAD_JSON", message: "line is not a JSON object; skipped", where: `${file}@${offset + start}` });
        }
        start = nl + 1;
      }
      offset += start;
      // Caught up when every complete line up to EOF was consumed (a partial tail may remain).
      done = offset >= size || (reachedEof && start > lastNl);
      break;
    }
    return ok({ events, cursor: { offset, inode: st.ino, size }, done, restarted }, warnings);
  } catch (err) {
    return fail(classifyIoError(err, file), warnings);
  } finally {
    fs.closeSync(fd);
  }
}

/** Offset just past the next newline at or after `from`, or -1 when there is none yet. */
function nextLineStart(fd: number, from: number, size: number): number {
  const buf = Buffer.allocUnsafe(64 * 1024);
  let pos = from;
  while (pos < size) {
    const got = readAt(fd, buf.subarray(0, Math.min(buf.length, size - pos)), pos);
    if (got === 0) return -1;
    const nl = buf.indexOf(NEWLINE);
    if (nl >= 0 && nl < got) return pos + nl + 1;
    pos += got;
  }
  return -1;
}
