// The daemon's own files (token, key ring, log, store, pid file, device identity) live in dirs
// only its user may write, and are opened without following symlinks. The daemon may run as
// root: a world-writable state dir or a planted `token -> /etc/shadow` link must not make it
// trust another user's secret, or write, chmod or append through a link. So:
// - a state or runtime dir must be a directory owned by this user that nobody else can write;
//   anything else is refused with UNSAFE_PATH, naming the path and the fix;
// - files are opened with O_NOFOLLOW (a symlink is refused) and O_NONBLOCK (a planted FIFO
//   cannot hang the open), checked with fstat on that same descriptor (owner, regular file),
//   and tightened with fchmod on it, so a mode fix can never land on another file;
// - new secrets are written to a fresh O_EXCL temp file and renamed into place, so a crash never
//   leaves half a file and a link at the final name is replaced, not written through.
import fs from "node:fs";
import { InsightsError } from "./errors.js";

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = fs.constants;

/** Secrets and our own records are small; a huge file at one of our names is not ours. */
const MAX_PRIVATE_FILE_BYTES = 1024 * 1024;

/** This process's effective uid; null where the platform has none (then ownership is not checked). */
function myUid(): number | null {
  return typeof process.geteuid === "function" ? process.geteuid() : null;
}

const octal = (mode: number): string => (mode & 0o7777).toString(8).padStart(4, "0");

function unsafe(message: string, path: string): InsightsError {
  return new InsightsError("UNSAFE_PATH", message, { path });
}

function linkRefused(what: string, path: string): InsightsError {
  return unsafe(`${what} ${path} is a symbolic link; gateway-insights does not follow links for its own files. Remove it (rm ${path}) and start again.`, path);
}

/** Refuses a file or dir owned by someone else. */
function checkOwner(st: fs.Stats, what: string, path: string): void {
  const uid = myUid();
  if (uid !== null && st.uid !== uid) {
    throw unsafe(`${what} ${path} belongs to uid ${st.uid}, not to this user (uid ${uid}); another user may have planted it. Remove it (or point XDG_STATE_HOME / XDG_RUNTIME_DIR elsewhere) and start again.`, path);
  }
}

interface PrivateDirOptions {
  /** Follow a symlink at `dir` itself (the state dir may be a link to another disk); default true. */
  followLink?: boolean;
}

/**
 * Creates `dir` (0700) if missing; then refuses it unless it is a directory owned by this user
 * that neither group nor others can write. One readable by others is tightened to 0700. Returns
 * whether the mode was tightened.
 */
export function ensurePrivateDir(dir: string, what: string, { followLink = true }: PrivateDirOptions = {}): { tightened: boolean } {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // O_DIRECTORY|O_NOFOLLOW on a link says ENOTDIR, not ELOOP: ask lstat, then open with O_NOFOLLOW anyway.
  if (!followLink && fs.lstatSync(dir).isSymbolicLink()) throw linkRefused(what, dir);
  let fd: number;
  try {
    fd = fs.openSync(dir, O_RDONLY | O_DIRECTORY | O_NONBLOCK | (followLink ? 0 : O_NOFOLLOW));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw linkRefused(what, dir);
    if (code === "ENOTDIR") throw unsafe(`${what} ${dir} is not a directory. Move it away and start again.`, dir);
    throw err;
  }
  try {
    const st = fs.fstatSync(fd);
    checkOwner(st, what, dir);
    if ((st.mode & 0o022) !== 0) {
      throw unsafe(
        `${what} ${dir} is writable by other users (mode ${octal(st.mode)}), so files in it cannot be trusted. Check what is in it (a token or key file you did not write must go), then run: chmod 700 ${dir}`,
        dir,
      );
    }
    if ((st.mode & 0o055) !== 0) {
      fs.fchmodSync(fd, 0o700);
      return { tightened: true };
    }
    return { tightened: false };
  } finally {
    fs.closeSync(fd);
  }
}

/** Checks an open descriptor: a regular file, ours; tightens its mode to 0600. */
function vetOpenFile(fd: number, what: string, path: string): fs.Stats {
  const st = fs.fstatSync(fd);
  if (!st.isFile()) throw unsafe(`${what} ${path} is not a regular file. Remove it (rm ${path}) and start again.`, path);
  checkOwner(st, what, path);
  if ((st.mode & 0o077) !== 0) fs.fchmodSync(fd, 0o600);
  return st;
}

function openNoFollow(path: string, flags: number, what: string, mode?: number): number | null {
  try {
    return fs.openSync(path, flags | O_NOFOLLOW | O_NONBLOCK, mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP") throw linkRefused(what, path);
    // O_NONBLOCK on a FIFO nobody reads: it is not our file either.
    if (code === "ENXIO") throw unsafe(`${what} ${path} is not a regular file. Remove it (rm ${path}) and start again.`, path);
    throw err;
  }
}

/**
 * Reads one of our private files: never through a symlink, refused if another user owns it,
 * mode tightened to 0600. Null when it does not exist.
 */
export function readPrivateFile(path: string, what: string): string | null {
  const fd = openNoFollow(path, O_RDONLY, what);
  if (fd === null) return null;
  try {
    const st = vetOpenFile(fd, what, path);
    if (st.size > MAX_PRIVATE_FILE_BYTES) throw unsafe(`${what} ${path} is ${st.size} bytes, far larger than anything gateway-insights writes. Move it away and start again.`, path);
    return fs.readFileSync(fd, "utf8");
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Checks an existing file we own without opening it for data (the store's files, rotated logs):
 * not a link, a regular file, ours; mode tightened to 0600. False when it does not exist.
 */
export function securePrivateFile(path: string, what: string): boolean {
  const fd = openNoFollow(path, O_RDONLY, what);
  if (fd === null) return false;
  try {
    vetOpenFile(fd, what, path);
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

/** Opens (creating 0600) one of our files for appending, never through a link; the caller closes it. */
export function openPrivateAppend(path: string, what: string): number {
  const fd = openNoFollow(path, O_WRONLY | O_APPEND | O_CREAT, what, 0o600) as number;
  try {
    vetOpenFile(fd, what, path);
    return fd;
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

/**
 * Creates `path` 0600 with O_EXCL: fails with EEXIST when anything (a link included) is there.
 * Returns the open descriptor.
 */
export function createPrivateFile(path: string): number {
  return fs.openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
}

/**
 * Replaces `path` atomically with a 0600 file holding `data`: written and synced to a fresh temp
 * file beside it, then renamed over it (a link at `path` is replaced, never written through).
 */
export function writePrivateFile(path: string, data: string): void {
  // node:crypto loaded here, not at the top: the status line's spool imports this file and
  // loading crypto would cost it more than its write (docs/benchmarks.md).
  const tmp = `${path}.${process.pid}.${process.getBuiltinModule("node:crypto").randomBytes(4).toString("hex")}.tmp`;
  const fd = createPrivateFile(tmp);
  try {
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, path);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
