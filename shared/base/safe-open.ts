// Every open of a provider's file goes through here. Agents write into ~/.claude, ~/.codex and
// OpenClaw's state dir, and anything running as the user (a prompt-injected agent, an MCP server,
// a repository's script) can plant a FIFO, a device or a socket at a name we read. A plain
// open(2) of a FIFO blocks until a writer comes, and it blocks the event loop: /health, GraphQL
// and the control socket stop answering and SIGTERM is never handled. So:
// - files are opened O_RDONLY|O_NONBLOCK: opening a FIFO returns at once instead of waiting;
// - the opened descriptor is fstat'ed and anything but a regular file is refused with a
//   SourceError naming the path and what it is. Checking the fd, not the path, closes the
//   check-then-open race (a listing saw a regular file, a FIFO was renamed over it since).
// Links are followed unless the caller says otherwise: users link dotfiles (openclaw.json from a
// dotfiles repo), and a link to a regular file is as good as the file.
// SQLite opens its files itself (no fd can be handed to it), so `checkSqliteFiles` can only look
// at the db and its -wal, -shm and -journal right before SQLite opens them; see its comment.
import * as fs from "node:fs";
import { SourceError } from "../providers/result.js";

const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW, O_WRONLY, O_CREAT, O_TRUNC } = fs.constants;

interface SafeOpenOptions {
  /** Refuse a symbolic link at the path itself (its dirs may still be links). Default false. */
  noFollow?: boolean;
}

interface OpenedFile {
  fd: number;
  stat: fs.Stats;
}

/** What a non-regular file is, in words for a message. */
function fileKind(st: fs.Stats): string {
  if (st.isFIFO()) return "a FIFO";
  if (st.isDirectory()) return "a directory";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/** The refusal of a path that is not a regular file: kind `unsupported`, the path in the message. */
function notRegular(path: string, st: fs.Stats): SourceError {
  return new SourceError("unsupported", `${path} is ${fileKind(st)}, not a regular file; skipped`, { where: path });
}

/**
 * Opens `path` read-only without ever blocking and returns the fd with its fstat. Throws the
 * open's own errno error (ENOENT, EACCES, ELOOP for a refused link), or a SourceError when the
 * path holds anything but a regular file (the fd is closed then). The caller closes the fd.
 */
export function openRegular(path: string, opts: SafeOpenOptions = {}): OpenedFile {
  const fd = fs.openSync(path, O_RDONLY | O_NONBLOCK | (opts.noFollow ? O_NOFOLLOW : 0));
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  if (!stat.isFile()) {
    fs.closeSync(fd);
    throw notRegular(path, stat);
  }
  return { fd, stat };
}

/** A provider's JSON or config file is small; one past this is refused rather than held. */
const MAX_SMALL_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The whole of a regular file, read through `openRegular` (readFileSync's open blocks on a FIFO).
 * Reads to end of file even when the file grew since fstat; throws past `maxBytes`.
 */
export function readRegularFile(path: string, opts: SafeOpenOptions & { maxBytes?: number } = {}): Buffer {
  const max = opts.maxBytes ?? MAX_SMALL_FILE_BYTES;
  const { fd, stat } = openRegular(path, opts);
  try {
    if (stat.size > max) throw new SourceError("unsupported", `${path} is larger than ${max} bytes; skipped`, { where: path });
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.max(Math.min(stat.size - total, max - total) + 1, 64 * 1024));
      const n = fs.readSync(fd, buf, 0, buf.length, total);
      if (n === 0) break;
      parts.push(buf.subarray(0, n));
      total += n;
      if (total > max) throw new SourceError("unsupported", `${path} is larger than ${max} bytes; skipped`, { where: path });
    }
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, total);
  } finally {
    fs.closeSync(fd);
  }
}

const COPY_CHUNK = 1024 * 1024;

/**
 * Copies a regular file to `dest` (created or truncated, mode 0600) through a safe fd:
 * copyFileSync opens the source with a plain open(2) and blocks on a FIFO. Returns the source's
 * fstat at open.
 */
export function copyRegularFile(src: string, dest: string, opts: SafeOpenOptions = {}): fs.Stats {
  const { fd, stat } = openRegular(src, opts);
  try {
    const out = fs.openSync(dest, O_WRONLY | O_CREAT | O_TRUNC, 0o600);
    try {
      const buf = Buffer.allocUnsafe(COPY_CHUNK);
      let pos = 0;
      for (;;) {
        const n = fs.readSync(fd, buf, 0, COPY_CHUNK, pos);
        if (n === 0) break;
        let written = 0;
        while (written < n) written += fs.writeSync(out, buf, written, n - written);
        pos += n;
      }
    } finally {
      fs.closeSync(out);
    }
    return stat;
  } finally {
    fs.closeSync(fd);
  }
}

/** The files SQLite may open for a database: the db itself, then its WAL, shared memory and rollback journal. */
const SQLITE_SIDE_FILES = ["", "-wal", "-shm", "-journal"] as const;

/**
 * Throws a SourceError when the database or any of its side files exists and is not a regular
 * file (a missing side file is normal). Call it right before SQLite opens the database, and again
 * right before each query of a connection kept open: SQLite opens -wal and -shm lazily, on the
 * first read, and a -wal or -journal that appears later on the read after it.
 *
 * What remains: SQLite opens these files itself, with a blocking open(2) and no way to be handed
 * an fd we checked (a /proc/self/fd/N path would make it look for /proc/self/fd/N-wal and miss the
 * WAL). A FIFO renamed over one of them in the microseconds between this check and SQLite's own
 * open can still block that open until a writer comes. Closing it fully means reading a private
 * copy (as the Codex logs reader does, copyRegularFile); for OpenClaw's agent databases, read on
 * every pass and up to hundreds of MB, that costs more than the window is worth. A planted file
 * that stays in place, the case that hung the daemon for good, is always refused.
 */
export function checkSqliteFiles(dbPath: string): void {
  for (const suffix of SQLITE_SIDE_FILES) {
    const p = dbPath + suffix;
    // Without an exception for a missing side file: this runs before every query of a long-lived reader.
    const st = suffix === "" ? fs.statSync(p) : fs.statSync(p, { throwIfNoEntry: false });
    if (st && !st.isFile()) throw notRegular(p, st);
  }
}
