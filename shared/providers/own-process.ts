// Is a pid a provider's program, run by the daemon's own user? A liveness record (`sessions/<pid>.json`,
// a lock's holder) is written by whoever can write into `~/.claude` or `~/.codex`, so a pid in it
// proves nothing: a planted `1.json` would show pid 1 (the whole machine's CPU and memory) as a running
// session. A pid counts only when procfs says the process runs as our uid and is the provider's program.
//
// What the real programs look like in /proc (checked on the CLIs the format docs describe):
// - Claude Code 2.1.330: a native binary named `claude` (npm's platform package; `bin/claude.exe` in
//   the wrapper): comm `claude`, exe `.../claude-code-linux-x64/claude`. The native installer keeps
//   versions as `~/.local/share/claude/versions/<version>`, started through a `claude` symlink (comm
//   and argv[0] say `claude`). Older npm releases ran `node .../@anthropic-ai/claude-code/cli.js`.
// - Codex 0.169: the native `codex` binary (vendor/<triple>/bin/codex; the Node launcher `bin/codex.js`
//   only spawns it), which is what holds a thread's lock; the TUI's threads live in the app-server
//   daemon, a copy of the binary under `CODEX_HOME/packages/app-server-daemon/releases/` (format doc §1).
// A process started through a link or copy named like the program (`claude -> node`) counts: comm and
// argv[0] carry the name it was started under. That any process of our own user could do the same is
// no loss: such a process can already write the liveness records themselves.
import * as fs from "node:fs";
import * as path from "node:path";

export interface ProcOwnerOptions {
  /** The procfs root; tests point it at a fake tree. Default /proc. */
  procRoot?: string;
  /** The daemon's uid; null where the platform has none. Default process.getuid(). */
  uid?: number | null;
}

/** What procfs says about a process. */
interface ProcIdentity {
  /** Owner of /proc/<pid> (the process's effective uid). */
  uid: number;
  /** /proc/<pid>/comm: the name it was started under (15 bytes at most). */
  comm: string;
  /** /proc/<pid>/exe's target; null when it cannot be read. */
  exe: string | null;
  /** /proc/<pid>/cmdline split at NULs. */
  argv: string[];
}

export type ProgramMatch = (id: ProcIdentity) => boolean;

/** Enough of cmdline for argv[0] and a script path; a longer one is cut, not refused. */
const MAX_CMDLINE_BYTES = 16 * 1024;

/** A program path's file name (`/usr/bin/codex (deleted)` → `codex`): each provider's matcher compares it. */
export const base = (p: string | undefined): string => (p ? path.basename(p.replace(/ \(deleted\)$/, "")) : "");

function readSmall(file: string, max: number): string | null {
  let fd: number;
  try {
    // procfs entries never block, but the root may be a test's tree: never wait on a FIFO there.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(max);
    let n = 0;
    for (;;) {
      const got = fs.readSync(fd, buf, n, max - n, null);
      if (got <= 0 || (n += got) >= max) break;
    }
    return buf.toString("utf8", 0, n);
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads a process's identity; null when it is gone or procfs does not describe it. */
export function readProcIdentity(pid: number, procRoot = "/proc"): ProcIdentity | null {
  if (!Number.isInteger(pid) || pid < 1) return null;
  const dir = path.join(procRoot, String(pid));
  let uid: number;
  try {
    const st = fs.lstatSync(dir);
    if (!st.isDirectory()) return null;
    uid = st.uid;
  } catch {
    return null;
  }
  const comm = readSmall(path.join(dir, "comm"), 256);
  if (comm === null) return null;
  let exe: string | null = null;
  try {
    exe = fs.readlinkSync(path.join(dir, "exe"));
  } catch {
    // another user's process, or a kernel thread
  }
  const argv = (readSmall(path.join(dir, "cmdline"), MAX_CMDLINE_BYTES) ?? "").split("\0").filter((a) => a !== "");
  return { uid, comm: comm.trim(), exe, argv };
}

function ownUid(): number | null {
  return typeof process.getuid === "function" ? process.getuid() : null;
}

/**
 * Is `pid` a process of our own user running the program `matches` describes? Where there is no
 * procfs at all (macOS) nothing can be checked but the owner: a pid we may not signal (EPERM) is
 * another user's and does not count.
 */
export function isOwnProgram(pid: number, matches: ProgramMatch, opts: ProcOwnerOptions = {}): boolean {
  const procRoot = opts.procRoot ?? "/proc";
  const uid = opts.uid === undefined ? ownUid() : opts.uid;
  if (!fs.existsSync(procRoot)) {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  const id = readProcIdentity(pid, procRoot);
  if (id === null) return false;
  if (uid !== null && id.uid !== uid) return false;
  return matches(id);
}
