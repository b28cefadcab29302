// Incremental reader for the gateway's file log: from a stored cursor, return the complete lines written
// since, a bounded number of bytes per call. Survives size rotation (`x.log` -> `x.1.log` …) and the
// midnight switch to the next dated file without losing or repeating a line.
//
// The cursor names the file *family* by its active path and the physical file by inode: after a rotation
// the inode we were reading lives on as `x.1.log` (or `x.k.log` after several rotations), so we finish it,
// then read the newer archives `x.(k-1).log` … `x.1.log` and the new active file from byte 0. At midnight the
// resolver returns the next date's path; once a newer day's family exists, the older one is final: we
// finish it (a last line without a newline counts, nothing will complete it) and move to the next day's
// family, starting at its oldest archive. A first read (no cursor) starts at the oldest file the gateway
// still keeps (an earlier day's family, archives first), so a first start backfills the last day.
import fs from "node:fs";
import type { Clock } from "../../../base/clock.js";
import { systemClock } from "../../../base/clock.js";
import { classifyIoError, fail, ok } from "../../result.js";
import type { SourceResult, SourceWarning } from "../../result.js";
import { openRegular } from "../../../base/safe-open.js";
import { listLogFamilies, MAX_ROTATED_LOGS, rotatedLogPath } from "./log-files.js";

/** Plain JSON so a store can persist it. */
export interface LogCursor {
  /** Active path of the file family being read (the un-numbered name). */
  path: string;
  /** Byte offset of the next unread byte in the physical file `inode`. */
  offset: number;
  /** Inode of the physical file being read (the active file, or an archive after a rotation). */
  inode: number;
  /** Size of that file when last read. */
  size: number;
  /** Set while skipping the rest of a line longer than `maxBytes`. */
  skipPartial?: boolean;
  /**
   * Base64 of the file's first bytes (up to 512): a replaced file can get the old inode back (and even the
   * old size), so the inode alone cannot tell "same file" from "new file".
   */
  head?: string;
}

export interface LogLine {
  text: string;
  /** The physical file the line was read from (may be an archive). */
  file: string;
  /** Byte offset of the line's start in that file. */
  offset: number;
}

export interface FollowOptions {
  /** Today's active log path at an instant (log-files.ts `logPathResolver`). */
  resolveActivePath: (nowMs: number) => string;
  clock?: Clock;
  /** Upper bound of bytes read per call; default 1 MiB. */
  maxBytes?: number;
  /**
   * Where a first read (no cursor) starts: "beginning" (default) is the oldest file still kept (the
   * earliest day's oldest archive), so everything the gateway keeps is read once; "end" is the end
   * of today's file.
   */
  start?: "beginning" | "end";
}

export interface FollowResult {
  lines: LogLine[];
  /** null only when no cursor was given and today's file does not exist yet. */
  cursor: LogCursor | null;
  /** False when the byte budget ran out with more to read: call again soon. */
  caughtUp: boolean;
}

const DEFAULT_MAX_BYTES = 1 << 20;
const NL = 0x0a;

function statOrNull(p: string): fs.Stats | null {
  try {
    const st = fs.statSync(p);
    return st.isFile() ? st : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw err;
  }
}

/** Physical files of a family, newest content first: active (rotation 0), .1, … .5. */
function familyNewestFirst(activePath: string): { path: string; rotation: number }[] {
  const out = [{ path: activePath, rotation: 0 }];
  for (let n = 1; n <= MAX_ROTATED_LOGS; n++) out.push({ path: rotatedLogPath(activePath, n), rotation: n });
  return out;
}

/** Where reading a family starts: its oldest archive still there, else its active file; null when neither exists. */
function enterFamily(activePath: string): LogCursor | null {
  for (let n = MAX_ROTATED_LOGS; n >= 0; n--) {
    const st = statOrNull(n === 0 ? activePath : rotatedLogPath(activePath, n));
    if (st) return { path: activePath, inode: st.ino, offset: 0, size: st.size };
  }
  return null;
}

/** The next day's family after `family` that has a file, up to today's; null when `family` is today's or none newer exists yet. */
function newerFamily(family: string, today: string): string | null {
  if (family === today) return null;
  for (const f of listLogFamilies(today)) {
    if (f > family && enterFamily(f)) return f;
  }
  return null;
}

function locate(cursor: LogCursor): { path: string; rotation: number; st: fs.Stats } | null {
  for (const f of familyNewestFirst(cursor.path)) {
    const st = statOrNull(f.path);
    if (st && st.ino === cursor.inode) return { ...f, st };
  }
  return null;
}

/**
 * Reads what was appended since `cursor`. Pure apart from reading files: no timers, no state kept here.
 * Errors other than a missing file (permission, I/O) come back as a SourceError.
 */
export function readLogLines(cursor: LogCursor | null, opts: FollowOptions): SourceResult<FollowResult> {
  const clock = opts.clock ?? systemClock;
  const maxBytes = Math.max(1, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  const warnings: SourceWarning[] = [];
  const lines: LogLine[] = [];
  let where = cursor?.path ?? "gateway log";
  try {
    const today = opts.resolveActivePath(clock.now());
    where = today;
    let cur: LogCursor;
    if (cursor) {
      cur = { ...cursor };
    } else if (opts.start === "end") {
      const st = statOrNull(today);
      if (!st) return ok({ lines, cursor: null, caughtUp: true });
      return ok({ lines, cursor: { path: today, inode: st.ino, offset: st.size, size: st.size }, caughtUp: true });
    } else {
      // The oldest day the gateway still keeps, from its oldest archive: nothing it kept is skipped.
      let first: LogCursor | null = null;
      for (const family of listLogFamilies(today)) if ((first = enterFamily(family))) break;
      if (!first) return ok({ lines, cursor: null, caughtUp: true });
      cur = first;
    }

    let budget = maxBytes;
    let starved = false;
    // Each pass reads one physical file; a call crosses at most the whole chain of one or two families.
    for (let pass = 0; pass < 2 * (MAX_ROTATED_LOGS + 2); pass++) {
      where = cur.path;
      // A newer day's family exists: this one (an earlier day's) gets no more lines.
      const newer = newerFamily(cur.path, today);
      const dayOver = newer !== null;
      const loc = locate(cur);
      if (!loc) {
        // Our file is gone (pruned, deleted, or rotated past .5): an earlier day's family is left for the
        // next day's (from its oldest archive); within the current family reading resumes at its active file.
        let next: LogCursor | null = null;
        if (newer) next = enterFamily(newer);
        else {
          const st = statOrNull(cur.path);
          if (st) next = { path: cur.path, inode: st.ino, offset: 0, size: st.size };
        }
        if (!next) return ok({ lines, cursor: cur, caughtUp: true }, warnings);
        // Nothing is lost when an earlier day's file we had fully read was pruned; otherwise it may be.
        if (!(dayOver && cur.offset >= cur.size)) {
          warnings.push({ code: "ROTATED", message: "log file disappeared before it was fully read; some lines may be missing", where: cur.path });
        }
        cur = next;
        continue;
      }

      // An archive never grows again; the active file of an earlier day is final once today's exists.
      const final = loc.rotation > 0 || dayOver;
      // Non-blocking and checked on the fd: a FIFO at a log's name is refused, never waited on.
      const { fd, stat: st } = openRegular(loc.path);
      let size: number;
      try {
        if (st.ino !== cur.inode) continue; // rotated between stat and open: locate again
        size = st.size;
        if (size < cur.offset) {
          warnings.push({ code: "TRUNCATED", message: `log file shrank from ${cur.offset} to ${size} bytes; reading it again from the start`, where: loc.path });
          cur.offset = 0;
          cur.skipPartial = false;
          cur.head = undefined;
        }
        const head = readHead(fd, size);
        if (cur.head !== undefined && !sameStart(Buffer.from(cur.head, "base64"), head)) {
          warnings.push({ code: "ROTATED", message: "log file was replaced (same inode, different content); reading it from the start", where: loc.path });
          cur.offset = 0;
          cur.skipPartial = false;
          cur.head = undefined;
        }
        if (head.length > 0 && (cur.head === undefined || head.length > Buffer.byteLength(cur.head, "base64"))) cur.head = head.toString("base64");
        while (cur.offset < size && budget > 0) {
          const want = Math.min(budget, size - cur.offset);
          const buf = Buffer.allocUnsafe(want);
          const got = fs.readSync(fd, buf, 0, want, cur.offset);
          if (got <= 0) break;
          const limitedByBudget = got < size - cur.offset;
          const consumed = takeLines(buf.subarray(0, got), cur, loc.path, final && !limitedByBudget, lines);
          budget -= got;
          if (consumed === 0 && got === maxBytes) {
            // One line longer than the whole budget: skip it instead of stalling forever.
            warnings.push({ code: "TRUNCATED", message: `log line longer than ${maxBytes} bytes skipped`, where: `${loc.path}@${cur.offset}` });
            cur.offset += got;
            cur.skipPartial = true;
            continue;
          }
          cur.offset += consumed;
          if (consumed < got) {
            // The rest is an unfinished line: still being written (caught up), or cut by the budget.
            starved = limitedByBudget;
            break;
          }
        }
      } finally {
        fs.closeSync(fd);
      }
      cur.size = size;

      if (cur.offset < size) {
        // Stopped early: out of budget, or the active file ends in a line still being written.
        return ok({ lines, cursor: cur, caughtUp: !starved && budget > 0 }, warnings);
      }
      if (!final) return ok({ lines, cursor: cur, caughtUp: true }, warnings);

      // This file is done for good: step to the next newer one. Locate it again first: if the gateway
      // rotated once more meanwhile, our file moved up one number and its successor with it.
      const rotation = loc.rotation > 0 ? (locate(cur)?.rotation ?? loc.rotation) : 0;
      if (rotation === 0) {
        // An earlier day's active file is done: the next day's family, from its oldest archive.
        const next = newer ? enterFamily(newer) : null;
        if (!next) return ok({ lines, cursor: cur, caughtUp: true }, warnings);
        cur = next;
      } else {
        const nextPath = rotation > 1 ? rotatedLogPath(cur.path, rotation - 1) : cur.path;
        const st = statOrNull(nextPath);
        if (st) cur = { path: cur.path, inode: st.ino, offset: 0, size: st.size };
        else {
          // An earlier day's family whose newer files were pruned: on to the next day's. Today's `.1`
          // finished but the new active file not created yet: wait on the archive's end.
          const next = newer ? enterFamily(newer) : null;
          if (!next) return ok({ lines, cursor: cur, caughtUp: true }, warnings);
          cur = next;
        }
      }
      if (budget <= 0) return ok({ lines, cursor: cur, caughtUp: false }, warnings);
    }
    return ok({ lines, cursor: cur, caughtUp: false }, warnings);
  } catch (err) {
    return fail(classifyIoError(err, where), warnings);
  }
}

const HEAD_BYTES = 512;

function readHead(fd: number, size: number): Buffer {
  const n = Math.min(size, HEAD_BYTES);
  const buf = Buffer.alloc(n);
  const got = n > 0 ? fs.readSync(fd, buf, 0, n, 0) : 0;
  return buf.subarray(0, got);
}

/** Whether two file starts agree over the bytes both have. */
function sameStart(a: Buffer, b: Buffer): boolean {
  const n = Math.min(a.length, b.length);
  return a.subarray(0, n).equals(b.subarray(0, n));
}

/**
 * Splits complete lines off `buf` (which starts at `cur.offset`) into `out`; returns the bytes consumed.
 * With `flushTail` the bytes after the last newline also form a line (the file is final).
 */
function takeLines(buf: Buffer, cur: LogCursor, file: string, flushTail: boolean, out: LogLine[]): number {
  let start = 0;
  if (cur.skipPartial) {
    const nl = buf.indexOf(NL);
    if (nl < 0) {
      if (flushTail) {
        cur.skipPartial = false;
        return buf.length;
      }
      // Still inside the over-long line; consuming all of it is progress.
      return buf.length;
    }
    start = nl + 1;
    cur.skipPartial = false;
  }
  for (;;) {
    const nl = buf.indexOf(NL, start);
    if (nl < 0) break;
    pushLine(buf.subarray(start, nl), cur.offset + start, file, out);
    start = nl + 1;
  }
  if (flushTail && start < buf.length) {
    pushLine(buf.subarray(start), cur.offset + start, file, out);
    start = buf.length;
  }
  return start;
}

function pushLine(bytes: Buffer, offset: number, file: string, out: LogLine[]): void {
  let text = bytes.toString("utf8");
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (text.trim() !== "") out.push({ text, file, offset });
}
