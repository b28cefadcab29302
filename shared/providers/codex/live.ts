// Live Codex sessions (codex-format.md §9): while a thread is open, its writer process holds an
// exclusive `flock` on `thread-writer-locks/<uuid>.lock`; the empty file stays after the process
// exits. Node has no flock API and trying a lock ourselves would need a native module, so the held
// locks are read from /proc/locks (proc(5): `<id>: [-> ]<FLOCK|POSIX|OFDLCK> <ADVISORY|MANDATORY>
// <READ|WRITE> <pid> <major hex>:<minor hex>:<inode> <start> <end>`), matched to the lock file by
// device and inode. Where the device numbers differ (an overlay filesystem shows the upper
// layer's device in /proc/locks but its own in stat), an inode match counts only when the holding
// process has the lock file open. Without /proc (macOS) there is no signal and the list is empty.
// Anyone who can write into `~/.codex` can take a lock there, so the holder must also be Codex run
// by our own user (own-process.ts); a lock /proc/locks cannot name a holder of says nothing.
import * as fs from "node:fs";
import * as path from "node:path";
import type { LiveSession } from "../contract.js";
import { readLines } from "../jsonl/line-reader.js";
import { classifyIoError, fail, ok } from "../result.js";
import type { SourceResult } from "../result.js";
import { openRegular } from "../../base/safe-open.js";
import { CLASSIFY_PEEK_BYTES, readHead } from "./classify.js";
import { isSessionId } from "./files.js";
import { asObject, shortText } from "./shape.js";
import { isOwnProgram } from "../own-process.js";
import { isCodexProgram } from "./program.js";
import type { ProcOwnerOptions } from "../own-process.js";

export const LOCKS_DIR = "thread-writer-locks";

/** One exclusive lock held now, as /proc/locks shows it. */
export interface HeldLock {
  major: number;
  minor: number;
  /** Decimal, as a string: inode numbers may exceed 2^53. */
  inode: string;
  /** The process that took it; null when /proc/locks cannot name it (another pid namespace, an OFD lock). */
  pid: number | null;
}

export interface LiveProbe {
  /** The exclusive locks held now; null when this system cannot tell (no /proc/locks). */
  heldLocks(): HeldLock[] | null;
  /** Does process `pid` have `file` open? Confirms an inode-only match. */
  hasOpen(pid: number, file: string): boolean;
  /** Is `pid` Codex, run by the daemon's own user? */
  isProviderProcess(pid: number): boolean;
}

const LOCK_LINE = /^\d+:\s+(?:->\s+)?(FLOCK|POSIX|OFDLCK)\s+\S+\s+(READ|WRITE)\s+(-?\d+)\s+([0-9a-fA-F]+):([0-9a-fA-F]+):(\d+)\s/;

/** The exclusive (WRITE) locks of /proc/locks text; waiters (`->`) are not holders and are left out. */
export function parseProcLocks(textIn: string): HeldLock[] {
  const out: HeldLock[] = [];
  for (const line of textIn.split("\n")) {
    if (line.includes("->")) continue;
    const m = LOCK_LINE.exec(line);
    if (!m || m[2] !== "WRITE") continue;
    const pid = Number(m[3]);
    out.push({ major: parseInt(m[4] as string, 16), minor: parseInt(m[5] as string, 16), inode: m[6] as string, pid: pid > 0 ? pid : null });
  }
  return out;
}

/** glibc's `st_dev` encoding split into major and minor (gnu_dev_major / gnu_dev_minor). */
export function splitDev(dev: bigint): { major: number; minor: number } {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & 0xfffff000n);
  const minor = (dev & 0xffn) | ((dev >> 12n) & 0xffffff00n);
  return { major: Number(major), minor: Number(minor) };
}

function defaultHeldLocks(): HeldLock[] | null {
  try {
    return parseProcLocks(fs.readFileSync("/proc/locks", "latin1"));
  } catch {
    return null;
  }
}

function defaultHasOpen(pid: number, file: string): boolean {
  const dir = `/proc/${pid}/fd`;
  try {
    for (const fd of fs.readdirSync(dir)) {
      try {
        if (fs.readlinkSync(path.join(dir, fd)) === file) return true;
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    // gone, or another user's process
  }
  return false;
}

export const defaultLiveProbe: LiveProbe = { heldLocks: defaultHeldLocks, hasOpen: defaultHasOpen, isProviderProcess: (pid) => isOwnProgram(pid, isCodexProgram) };

/** The default probe over another procfs root and uid (tests: a fake /proc tree). */
export function liveProbeAt(opts: ProcOwnerOptions): LiveProbe {
  return { ...defaultLiveProbe, isProviderProcess: (pid) => isOwnProgram(pid, isCodexProgram, opts) };
}

/** What the session's rollout says for a live record: cwd and version (first line), in flight or not (its tail). */
interface RolloutFacts {
  cwd: string | null;
  cliVersion: string | null;
  /** `busy` when the last turn started has not completed, `idle` when it has, null when unknown. */
  status: "busy" | "idle" | null;
}

/** How much of a rollout's end is searched for the last turn start and end. */
const TAIL_BYTES = 256 * 1024;
const STARTED = Buffer.from('"payload":{"type":"task_started"');
const COMPLETED = Buffer.from('"payload":{"type":"task_complete"');

/** busy/idle from the last `task_started` / `task_complete` in the file's tail (format doc §9: in flight). */
function turnStatusOf(file: string): "busy" | "idle" | null {
  let fd: number;
  try {
    ({ fd } = openRegular(file));
  } catch {
    return null;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const from = Math.max(0, size - TAIL_BYTES);
    const buf = Buffer.alloc(size - from);
    const n = fs.readSync(fd, buf, 0, buf.length, from);
    const tail = buf.subarray(0, n);
    const started = tail.lastIndexOf(STARTED);
    const completed = tail.lastIndexOf(COMPLETED);
    if (started === -1 && completed === -1) return null;
    return started > completed ? "busy" : "idle";
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** The first line's `session_meta` (cwd, cli_version) of a rollout; nulls when it cannot be read. */
export function sessionMetaOf(file: string): { cwd: string | null; cliVersion: string | null } {
  let cwd: string | null = null;
  let cliVersion: string | null = null;
  // maxBytes 1: stop after the first complete line, which is the session_meta (format doc §4).
  readLines(file, null, { maxBytes: 1, peekBytes: CLASSIFY_PEEK_BYTES, keep: (head) => readHead(head)?.type === "session_meta" }, (line) => {
    try {
      const p = asObject(asObject(JSON.parse(line.toString("utf8")))?.payload);
      cwd = shortText(p?.cwd, 4096);
      cliVersion = shortText(p?.cli_version, 64);
    } catch {
      // an unreadable first line leaves the facts unknown
    }
  });
  return { cwd, cliVersion };
}

/** What a live record shows of its rollout. */
function rolloutFacts(file: string): RolloutFacts {
  return { ...sessionMetaOf(file), status: turnStatusOf(file) };
}

/**
 * The live sessions of an install: one per lock file an exclusive lock is held on now.
 * `rolloutOf` finds the session's rollout (null when none is listed) for its cwd, version and
 * busy/idle state.
 */
export function readLiveSessions(installDir: string, rolloutOf: (sessionId: string) => string | null, probe: LiveProbe = defaultLiveProbe): SourceResult<LiveSession[]> {
  const dir = path.join(installDir, LOCKS_DIR);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return ok([]);
    return fail(classifyIoError(err, dir));
  }
  const candidates = names.filter((n) => n.endsWith(".lock") && isSessionId(n.slice(0, -5).toLowerCase()));
  if (candidates.length === 0) return ok([]);
  const held = probe.heldLocks();
  if (held === null) return ok([]);
  const byInode = new Map<string, HeldLock[]>();
  for (const l of held) {
    const list = byInode.get(l.inode);
    if (list) list.push(l);
    else byInode.set(l.inode, [l]);
  }
  const out: LiveSession[] = [];
  for (const name of candidates.sort()) {
    const file = path.join(dir, name);
    let st: fs.BigIntStats;
    try {
      st = fs.lstatSync(file, { bigint: true });
    } catch {
      continue; // removed meanwhile
    }
    if (!st.isFile()) continue;
    const locks = byInode.get(st.ino.toString());
    if (!locks) continue;
    const { major, minor } = splitDev(st.dev);
    const ours = locks.filter((l) => l.pid !== null && probe.isProviderProcess(l.pid));
    let holder = ours.find((l) => l.major === major && l.minor === minor);
    if (!holder) {
      let real: string;
      try {
        real = fs.realpathSync(file);
      } catch {
        continue;
      }
      holder = ours.find((l) => l.pid !== null && probe.hasOpen(l.pid, real));
    }
    if (!holder) continue;
    const sessionKey = name.slice(0, -5).toLowerCase();
    const rollout = rolloutOf(sessionKey);
    const facts: RolloutFacts = rollout ? rolloutFacts(rollout) : { cwd: null, cliVersion: null, status: null };
    out.push({ pid: holder.pid, sessionKey, startedAt: null, status: facts.status, cwd: facts.cwd, cliVersion: facts.cliVersion });
  }
  return ok(out);
}
