// Incremental, streaming reads of an append-only JSONL file, shared by every JSONL provider
// (Claude Code transcripts, Codex rollouts). A call reads from a byte cursor in fixed-size chunks
// and hands over complete lines only; a trailing partial line is left for the next call. A line
// the caller does not want (decided from its first bytes) is skipped without ever being held
// whole: Claude Code writes 30-110 KB lines the monitor never uses, and building them as strings
// was most of the cost of a scan.
import * as fs from "node:fs";
import { classifyIoError, fail, ok, type SourceResult, type SourceWarning } from "../result.js";
import { openRegular } from "../../base/safe-open.js";

/** Where the last read stopped; plain JSON so the store can persist it. */
export interface LineCursor {
  /** Byte offset just past the last complete line consumed. */
  offset: number;
  /** Inode at the last read: another inode means the file was replaced. */
  inode: number;
  /** File size at the last read. */
  size: number;
}

/** A stored cursor back from the store, checked: null, a non-object or a bad offset is not one. */
export function isLineCursor(v: unknown): v is LineCursor {
  const c = v as Partial<LineCursor> | null;
  const n = (x: unknown): boolean => typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
  return typeof c === "object" && c !== null && n(c.offset) && n(c.inode) && n(c.size) && (c.offset as number) <= (c.size as number);
}

/**
 * The cursor a line reader with parser state hands out (Codex's, Gemini CLI's): where the last read
 * stopped and the parser's state after it (the reader's serializeContext), plain JSON.
 */
export interface ContextCursor {
  v: 1;
  line: LineCursor;
  ctx: unknown;
}

/** A stored ContextCursor back with its state restored, or null when it is not one (then reading starts over). */
export function parseContextCursor<C>(v: unknown, restore: (ctx: unknown) => C | null): { line: LineCursor; ctx: C } | null {
  const c = v as Partial<ContextCursor> | null;
  if (typeof c !== "object" || c === null || c.v !== 1 || !isLineCursor(c.line)) return null;
  const ctx = restore(c.ctx);
  return ctx ? { line: c.line, ctx } : null;
}

/** The offset in a warning's `where` (`<path>:<offset>`, as readLines writes it), or null. */
export function warningOffset(w: SourceWarning): number | null {
  const m = /:(\d+)$/.exec(w.where);
  return m ? Number(m[1]) : null;
}

export interface ReadLinesOptions {
  /** Stop at the first line boundary after this many bytes (default 4 MiB); a longer line is still finished. */
  maxBytes?: number;
  /**
   * Decides from the start of a line whether to keep it. `head` holds the first `peekBytes` bytes
   * (fewer when the line is shorter). Return false to skip the line without building it.
   */
  keep?: (head: Buffer) => boolean;
  /** Bytes of a line `keep` sees (default 512). */
  peekBytes?: number;
  /** A kept line longer than this is skipped with a TRUNCATED warning (default 16 MiB). */
  maxLineBytes?: number;
  /** Chunk size of each read (default 256 KiB). */
  chunkBytes?: number;
}

export interface ReadLinesResult {
  cursor: LineCursor;
  /** Every complete line was consumed (a trailing partial line may remain). */
  done: boolean;
  /** The file was truncated or replaced: reading restarted at offset 0. */
  restarted: boolean;
  /** Lines skipped by `keep`. */
  skipped: number;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
export const DEFAULT_LINE_READ_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_LINE = 16 * 1024 * 1024;
const DEFAULT_CHUNK = 256 * 1024;

/** One reusable read buffer per chunk size: reads are synchronous, so one at a time. */
const buffers = new Map<number, Buffer>();
function chunkBuffer(size: number): Buffer {
  let b = buffers.get(size);
  if (!b) buffers.set(size, (b = Buffer.allocUnsafe(size)));
  return b;
}

/**
 * Reads complete lines after `cursor` (null = from the start) and calls `onLine(line, pos)` for each
 * kept one (`line` excludes the newline and a trailing CR; `pos` is its byte offset). `line` is only
 * valid during the call. Never throws for file trouble: a vanished or unreadable file is an error
 * result, an over-long line a warning.
 */
export function readLines(path: string, cursor: LineCursor | null, options: ReadLinesOptions, onLine: (line: Buffer, pos: number) => void): SourceResult<ReadLinesResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_LINE_READ_BYTES;
  const peek = options.peekBytes ?? 512;
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE;
  const chunkSize = options.chunkBytes ?? DEFAULT_CHUNK;
  const keep = options.keep;
  const warnings: SourceWarning[] = [];
  let fd: number;
  let st: fs.Stats;
  try {
    // Non-blocking, and a regular file by its fd: a FIFO swapped in after the listing is refused.
    ({ fd, stat: st } = openRegular(path));
  } catch (err) {
    return fail(classifyIoError(err, path));
  }
  try {
    const restarted = cursor !== null && (cursor.inode !== st.ino || st.size < cursor.offset);
    const start = cursor && !restarted ? cursor.offset : 0;
    const buf = chunkBuffer(chunkSize);
    let skipped = 0;
    // The line being read: the copies of its earlier pieces (kept or undecided lines only), and
    // whether `keep` has decided or it is being dropped.
    let parts: Buffer[] = [];
    let held = 0;
    let decided = false;
    let skipping = false;
    let tooLong = false;
    let lineStart = start;
    let pos = start; // file offset of the next byte to read
    let eof = false;
    const reset = (next: number): void => {
      parts = [];
      held = 0;
      decided = skipping = tooLong = false;
      lineStart = next;
    };
    // A piece of the current line that continues past this chunk: decide as soon as the head is
    // complete, so a skipped line is never held whole.
    const absorb = (piece: Buffer): void => {
      if (skipping || tooLong) return;
      if (keep && !decided && held + piece.length >= peek) {
        decided = true;
        if (!keep(Buffer.concat([...parts, piece.subarray(0, peek - held)], peek))) {
          skipping = true;
          parts = [];
          held = 0;
          return;
        }
      }
      if (held + piece.length > maxLine) {
        tooLong = true;
        parts = [];
        held = 0;
        return;
      }
      parts.push(Buffer.from(piece)); // the chunk buffer is reused by the next read
      held += piece.length;
    };
    // The line ending at chunk[to] (a newline), whose bytes in this chunk start at chunk[from].
    // A line wholly in the chunk is looked at in place: its head is the one view made of it until
    // it is kept (a view per line, twice, was most of the cost of skipping one).
    const finish = (chunk: Buffer, from: number, to: number, newlineAt: number): void => {
      if (skipping) skipped++;
      else if (tooLong || held + (to - from) > maxLine) {
        warnings.push({ code: "TRUNCATED", message: `a line of more than ${maxLine} bytes was skipped`, where: `${path}:${lineStart}` });
      } else if (parts.length === 0) {
        const end = to > from && chunk[to - 1] === CR ? to - 1 : to;
        if (keep && !decided && !keep(chunk.subarray(from, Math.min(end, from + peek)))) skipped++;
        else if (end > from) onLine(chunk.subarray(from, end), lineStart);
      } else {
        let line = Buffer.concat([...parts, chunk.subarray(from, to)], held + (to - from));
        if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
        if (keep && !decided && !keep(line.subarray(0, Math.min(peek, line.length)))) skipped++;
        else if (line.length > 0) onLine(line, lineStart);
      }
      reset(newlineAt + 1);
    };
    const budgetSpent = (): boolean => lineStart - start >= maxBytes;
    while (!(budgetSpent() && held === 0 && !skipping && !tooLong && pos === lineStart)) {
      const n = fs.readSync(fd, buf, 0, chunkSize, pos);
      if (n === 0) {
        eof = true;
        break;
      }
      const chunk = n === chunkSize ? buf : buf.subarray(0, n);
      let i = 0;
      while (i < n) {
        const nl = chunk.indexOf(NEWLINE, i);
        if (nl === -1) {
          absorb(chunk.subarray(i, n));
          i = n;
          break;
        }
        finish(chunk, i, nl, pos + nl);
        i = nl + 1;
        if (budgetSpent()) break;
      }
      pos += i;
    }
    const size = Math.max(st.size, lineStart);
    return ok({ cursor: { offset: lineStart, inode: st.ino, size }, done: eof || lineStart >= size, restarted, skipped }, warnings);
  } catch (err) {
    return fail(classifyIoError(err, path), warnings);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The string value of a top-level key found in a line's first bytes, or null: enough to classify
 * a line by `"type":"…"` without parsing it. Only looks at `"key":"value"` with no escapes in the
 * value; a nested object holding the same key can fool it, so callers use it to skip lines they
 * can afford to misjudge as kept, never to drop data.
 */
export function peekString(head: Buffer, key: string): string | null {
  const needle = `"${key}":"`;
  const at = head.indexOf(needle);
  if (at === -1) return null;
  const from = at + needle.length;
  const end = head.indexOf(0x22, from);
  if (end === -1) return null;
  return head.toString("utf8", from, end);
}
