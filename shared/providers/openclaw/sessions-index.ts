// A selective parser for the file era's `sessions.json`: one object keyed by session key, each
// value the session's entry. Every entry carries ~12 KB of blobs the monitor never reads
// (UNREAD_ENTRY_FIELDS); on a real install the file is tens of MB of them. JSON.parse of the whole
// file built every blob (the heap grew by ~190 MB for 8 agents, 10,000 sessions, and V8 kept the
// space), so this walks the bytes instead: the blobs are stepped over without being built, and
// only the other fields of each entry are parsed, each with JSON.parse of its own bytes (so every
// value kept is exactly what JSON.parse would have made).
//
// The file is walked through a window of 1 MiB (grown only for an entry longer than that), one
// member at a time: the whole file is never held (each agent's was 40 MB of Buffer, which the GC
// left for a while because it lives outside the V8 heap).
//
// Stepping over a value checks its nesting and its strings, not every rule of JSON: a malformed
// blob that still nests correctly is skipped as if it were good. Everything kept is strict JSON.

import {
  IndexSyntaxError,
  LBRACE,
  NEED_MORE,
  RBRACE,
  afterMember,
  isSpace,
  parseSlice,
  readKey,
  scalar,
  setAtEnd,
  setOwn,
  skipSpace,
  skipValue,
} from "./selective-json.js";

export { IndexSyntaxError, setOwn };

export interface IndexEntryVisitor {
  /** An entry that is an object: its kept fields, in file order (a repeated field: the last value, at its first place). */
  entry(key: string, fields: Record<string, unknown>): void;
  /** An entry that is not an object (stepped over). */
  notObject(key: string): void;
}

/** The fields of one entry object starting at `i` (a brace); returns the offset past it. */
function readEntry(buf: Buffer, i: number, skip: ReadonlySet<string>, fields: Record<string, unknown>): number {
  let j = skipSpace(buf, i + 1);
  if (buf[j] === RBRACE) return j + 1;
  for (;;) {
    const { key, next } = readKey(buf, j);
    const end = skipValue(buf, next);
    if (!skip.has(key)) setOwn(fields, key, scalar(buf, next, end) ?? parseSlice(buf, next, end));
    const after = afterMember(buf, end);
    if (after.closed) return after.next;
    j = after.next;
  }
}

/** Reads up to `into.length` bytes at `pos`; returns how many (0 at the end of the file). */
export type ReadAt = (into: Buffer, pos: number) => number;

const WINDOW = 1024 * 1024;
/** One window for every synchronous walk: those run one at a time. A paced walk has its own. */
let shared: Buffer | null = null;

/**
 * One walk of a sessions.json read through `read` (`size` bytes), in steps: the visitor is called
 * for each top-level member in file order; fields named in `skip` are stepped over. A step throws
 * IndexSyntaxError when the file is not an object of members or a kept value is not valid JSON.
 */
class SessionsIndexWalk {
  private buf: Buffer;
  private len = 0; // bytes of the file in buf
  private base = 0; // file offset of buf[0]
  private end = false; // buf holds the end of the file
  private i = 0; // next offset in buf to walk
  private phase: "start" | "first" | "members" | "tail" | "done" = "start";

  constructor(
    private readonly read: ReadAt,
    private readonly size: number,
    private readonly skip: ReadonlySet<string>,
    private readonly visit: IndexEntryVisitor,
    buf: Buffer,
  ) {
    this.buf = buf;
  }

  private fill(): void {
    while (this.len < this.buf.length && this.base + this.len < this.size) {
      const n = this.read(this.buf.subarray(this.len), this.base + this.len);
      if (n === 0) break;
      this.len += n;
    }
    this.end = this.base + this.len >= this.size || this.len < this.buf.length;
    setAtEnd(this.end);
  }

  /** Drops what was walked (before `from`), growing the window when a member fills it whole. */
  private slide(from: number): void {
    if (from === 0) {
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.len);
      this.buf = bigger;
    } else {
      this.buf.copy(this.buf, 0, from, this.len);
      this.len -= from;
      this.base += from;
    }
    this.fill();
  }

  private at(err: unknown): never {
    if (err instanceof IndexSyntaxError) throw new IndexSyntaxError(err.message.replace(/ at byte \d+$/, ""), this.base + err.at);
    throw err;
  }

  /** Walks on for about `budget` bytes of the file; true once the walk is complete. */
  step(budget: number): boolean {
    const from = this.base + this.i;
    setAtEnd(this.end);
    if (this.phase === "start") {
      this.fill();
      for (;;) {
        try {
          this.i = skipSpace(this.buf.subarray(0, this.len), 0);
          break;
        } catch (err) {
          if (err !== NEED_MORE) this.at(err);
          this.base += this.len;
          this.len = 0;
          this.fill();
        }
      }
      // A UTF-8 byte order mark is not JSON; JSON.parse of the decoded text refused it too.
      if (this.i >= this.len || this.buf[this.i] !== LBRACE) this.at(new IndexSyntaxError("top level is not an object", this.i));
      this.i++;
      this.phase = "first";
    }
    while (this.phase === "first" || this.phase === "members") {
      if (this.base + this.i - from >= budget) return false;
      const win = this.buf.subarray(0, this.len);
      try {
        // One member (with the comma or brace after it) per turn: a window that ends inside it
        // slides and the member is walked again.
        let j = skipSpace(win, this.i);
        if (this.phase === "first" && win[j] === RBRACE) {
          this.i = j + 1;
          this.phase = "tail";
          break;
        }
        const { key, next } = readKey(win, j);
        let fields: Record<string, unknown> | null = null;
        if (win[next] === LBRACE) {
          fields = {};
          j = readEntry(win, next, this.skip, fields);
        } else {
          j = skipValue(win, next);
          // Still has to be a JSON value: parsed only when small (a blob-sized non-entry is stepped over).
          if (j - next <= 4096) parseSlice(win, next, j);
        }
        const after = afterMember(win, j);
        if (fields) this.visit.entry(key, fields);
        else this.visit.notObject(key);
        this.phase = after.closed ? "tail" : "members";
        this.i = after.next;
      } catch (err) {
        if (err !== NEED_MORE) this.at(err);
        this.slide(this.i);
        this.i = 0;
      }
    }
    // Only space may follow.
    while (this.phase === "tail") {
      while (this.i < this.len && isSpace(this.buf[this.i] as number)) this.i++;
      if (this.i < this.len) this.at(new IndexSyntaxError("unexpected data after the top-level object", this.i));
      if (this.base + this.len >= this.size) break;
      this.base += this.len;
      this.len = 0;
      this.i = 0;
      this.fill();
      if (this.len === 0) break;
    }
    this.phase = "done";
    return true;
  }
}

/**
 * Walks a sessions.json read through `read` (`size` bytes) at once. `windowBytes` (tests) is the
 * starting window. See SessionsIndexWalk.
 */
export function walkSessionsIndex(read: ReadAt, size: number, skip: ReadonlySet<string>, visit: IndexEntryVisitor, windowBytes = WINDOW): void {
  const buf = windowBytes === WINDOW ? (shared ??= Buffer.allocUnsafe(WINDOW)) : Buffer.allocUnsafe(Math.max(1, Math.floor(windowBytes)));
  const walk = new SessionsIndexWalk(read, size, skip, visit, buf);
  while (!walk.step(Number.POSITIVE_INFINITY));
}

/**
 * The same walk, awaiting `pause()` after each `stepBytes` of the file (default: a window), so a
 * large index does not hold the event loop for the whole of it (40 MB took ~110 ms of CPU).
 */
export async function walkSessionsIndexPaced(
  read: ReadAt,
  size: number,
  skip: ReadonlySet<string>,
  visit: IndexEntryVisitor,
  pause: () => Promise<void>,
  stepBytes = WINDOW,
): Promise<void> {
  const walk = new SessionsIndexWalk(read, size, skip, visit, Buffer.allocUnsafe(Math.max(WINDOW, stepBytes)));
  while (!walk.step(stepBytes)) await pause();
}
