// Live Claude Code processes from `sessions/<pid>.json` (format doc §1, §8): the file exists while a
// `claude` process runs and is deleted at a normal exit, so a crash leaves a stale one. A record is
// live when its pid is alive and is the same process: `procStart` is /proc/<pid>/stat's start time
// (field 22, clock ticks since boot, written as a decimal string; checked against the real CLI
// 2.1.330), and `pidDomain` (`linux:<machine-id>:pid:[<pid namespace inode>]`) names the machine and
// pid namespace the pid belongs to.
//
// Anyone who can write into `~/.claude` can plant a record (`1.json` would show pid 1, the whole
// machine's CPU and memory, as a session), so the pid must also be Claude Code run by our own user
// (own-process.ts).
//
// The same dir holds `<pid>.<64 hex>.key` files with a secret peer token. Only names that are
// digits + `.json` are ever opened, never through a symlink, and nothing of other files is read.
import * as fs from "node:fs";
import * as path from "node:path";
import type { LiveSession } from "../contract.js";
import { classifyIoError, fail, ok } from "../result.js";
import type { SourceResult, SourceWarning } from "../result.js";
import { asObject, text } from "./line-shape.js";
import { isOwnProgram } from "../own-process.js";
import { isClaudeCodeProgram } from "./program.js";
import type { ProcOwnerOptions } from "../own-process.js";

export interface LiveProbe {
  /** Is a process with this pid running? (`process.kill(pid, 0)`; EPERM counts as alive.) */
  isPidAlive(pid: number): boolean;
  /** The process's start time as /proc/<pid>/stat field 22, or null where that cannot be read (no /proc, gone). */
  procStartOf(pid: number): string | null;
  /** This process's `linux:<machine-id>:pid:[<ns inode>]`, or null when unknown (then not compared). */
  ownPidDomain(): string | null;
  /** Is `pid` Claude Code, run by the daemon's own user? */
  isProviderProcess(pid: number): boolean;
}

const PID_FILE = /^([0-9]{1,10})\.json$/;
/** A liveness record is a few hundred bytes; anything much larger is not one. */
const MAX_RECORD_BYTES = 64 * 1024;
const MAX_PID = 2 ** 31 - 1;

function defaultIsPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: unknown }).code === "EPERM";
  }
}

/** Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces and parentheses, so count after the last `)`. */
export function procStartFromStat(stat: string): string | null {
  const close = stat.lastIndexOf(")");
  if (close === -1) return null;
  const fields = stat.slice(close + 1).trim().split(/\s+/);
  // fields[0] is field 3 (state), so field 22 is fields[19].
  const v = fields[19];
  return v !== undefined && /^[0-9]+$/.test(v) ? v : null;
}

function defaultProcStartOf(pid: number): string | null {
  try {
    return procStartFromStat(fs.readFileSync(`/proc/${pid}/stat`, "latin1"));
  } catch {
    return null;
  }
}

let ownDomain: string | null | undefined;
function defaultOwnPidDomain(): string | null {
  if (ownDomain !== undefined) return ownDomain;
  try {
    const machine = fs.readFileSync("/etc/machine-id", "latin1").trim();
    const ns = fs.readlinkSync("/proc/self/ns/pid");
    ownDomain = /^[0-9a-f]+$/.test(machine) && /^pid:\[[0-9]+\]$/.test(ns) ? `linux:${machine}:${ns}` : null;
  } catch {
    ownDomain = null;
  }
  return ownDomain;
}

export const defaultLiveProbe: LiveProbe = {
  isPidAlive: defaultIsPidAlive,
  procStartOf: defaultProcStartOf,
  ownPidDomain: defaultOwnPidDomain,
  isProviderProcess: (pid) => isOwnProgram(pid, isClaudeCodeProgram),
};

/** The default probe over another procfs root and uid (tests: a fake /proc tree). */
export function liveProbeAt(opts: ProcOwnerOptions): LiveProbe {
  return { ...defaultLiveProbe, isProviderProcess: (pid) => isOwnProgram(pid, isClaudeCodeProgram, opts) };
}

/** Reads a small regular file without following a symlink; null when it is not one. */
function readRecordFile(p: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > MAX_RECORD_BYTES) return null;
    const buf = Buffer.alloc(st.size);
    const n = fs.readSync(fd, buf, 0, st.size, 0);
    return buf.toString("utf8", 0, n);
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function str(v: unknown, max: number): string | null {
  const s = text(v);
  return s !== null && s.length <= max ? s : null;
}

/** The live sessions of an install: one per `sessions/<pid>.json` whose process still runs. */
export function readLiveSessions(installDir: string, probe: LiveProbe = defaultLiveProbe): SourceResult<LiveSession[]> {
  const dir = path.join(installDir, "sessions");
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "ENOENT") return ok([]);
    return fail(classifyIoError(err, dir));
  }
  const warnings: SourceWarning[] = [];
  const out: LiveSession[] = [];
  for (const name of names.sort()) {
    const m = PID_FILE.exec(name);
    if (!m) continue;
    const filePid = Number(m[1]);
    const where = path.join(dir, name);
    const raw = readRecordFile(where);
    if (raw === null) continue; // vanished at exit, or not a plain small file
    let rec: Record<string, unknown> | null;
    try {
      rec = asObject(JSON.parse(raw));
    } catch {
      rec = null;
    }
    // A process writes its record in one go; an unreadable one is stale or being rewritten.
    if (!rec) {
      warnings.push({ code: "BAD_JSON", message: "session record is not a JSON object; skipped", where });
      continue;
    }
    const sessionId = str(rec.sessionId, 200);
    if (rec.pid !== filePid || filePid < 1 || filePid > MAX_PID || sessionId === null) {
      warnings.push({ code: "BAD_ROW", message: "session record without a matching pid or a sessionId; skipped", where });
      continue;
    }
    if (!isSameLiveProcess(filePid, rec, probe)) continue;
    const startedAt = rec.startedAt;
    out.push({
      pid: filePid,
      sessionKey: sessionId,
      startedAt: typeof startedAt === "number" && Number.isFinite(startedAt) && startedAt > 0 ? startedAt : null,
      status: str(rec.status, 64),
      cwd: str(rec.cwd, 4096),
      cliVersion: str(rec.version, 64),
    });
  }
  return ok(out, warnings);
}

/**
 * Is the record's process the one running under its pid now? The pid must be alive; when the record
 * names its pid domain and ours is known, they must match (another machine's or namespace's pid says
 * nothing here); when it gives `procStart` and /proc can be read, the start times must match (a
 * crash leaves the record behind, and the pid may since belong to another process); and the process
 * must be Claude Code of our own user (a planted record names any pid).
 */
function isSameLiveProcess(pid: number, rec: Record<string, unknown>, probe: LiveProbe): boolean {
  const domain = text(rec.pidDomain);
  if (domain !== null) {
    const own = probe.ownPidDomain();
    if (own !== null && own !== domain) return false;
  }
  if (!probe.isPidAlive(pid) || !probe.isProviderProcess(pid)) return false;
  const recorded = typeof rec.procStart === "string" ? rec.procStart.trim() : typeof rec.procStart === "number" ? String(rec.procStart) : null;
  if (recorded !== null && /^[0-9]+$/.test(recorded)) {
    const actual = probe.procStartOf(pid);
    if (actual !== null && actual !== recorded) return false;
  }
  return true;
}
