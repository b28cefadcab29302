// Running `gemini` sessions (gemini-cli-format.md §9): Gemini CLI writes no lock or pid file, so a
// session runs when a process of our own user runs the Gemini CLI bundle with its cwd in the
// session's project. Every run is two Node processes (`gemini.js` relaunches itself as a child and
// waits), both with the bundle in their command line: they are one run, shown by the child's pid
// (the one doing the work). A run is matched to the newest main session file of its project
// written since the run started (a run that has not written yet is not shown); several runs in one
// project take its newest files in turn. The procfs root is injected so tests use a fake tree.
import * as fs from "node:fs";
import * as path from "node:path";
import { processStartedAtMs, readProcStat } from "../../base/proc-stats.js";
import { readRegularFile } from "../../base/safe-open.js";
import type { LiveSession } from "../contract.js";
import { readProcIdentity } from "../own-process.js";
import { ok, type SourceResult } from "../result.js";
import type { SessionFile } from "./files.js";
import { isGeminiProgram, scriptOf } from "./program.js";

export interface GeminiLiveOptions {
  /** Default /proc. */
  procRoot?: string;
  /** The daemon's uid; null where the platform has none. Default process.getuid(). */
  uid?: number | null;
}

/** Only processes whose name says Node (or gemini) have their command line read: a pass stays a few reads per process. */
const CANDIDATE_COMM = /^(node|nodejs|gemini)/;

interface Proc {
  pid: number;
  ppid: number;
  cwd: string;
  startedAt: number | null;
  script: string | null;
}

function geminiProcesses(procRoot: string, uid: number | null): Map<number, Proc> {
  const out = new Map<number, Proc>();
  let names: string[];
  try {
    names = fs.readdirSync(procRoot);
  } catch {
    return out;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const st = readProcStat(pid, { procRoot });
    if (!st || !CANDIDATE_COMM.test(st.comm)) continue;
    const id = readProcIdentity(pid, procRoot);
    if (!id || (uid !== null && id.uid !== uid) || !isGeminiProgram(id)) continue;
    let cwd: string;
    try {
      cwd = fs.readlinkSync(path.join(procRoot, name, "cwd"));
    } catch {
      continue;
    }
    out.set(pid, { pid, ppid: st.ppid, cwd, startedAt: processStartedAtMs(pid, { procRoot }), script: scriptOf(id) });
  }
  return out;
}

/** The version in the package.json beside the bundle a process runs (`<pkg>/bundle/gemini.js`); null when it is not Gemini CLI's. */
const versions = new Map<string, string | null>();
function versionOf(script: string | null): string | null {
  if (script === null) return null;
  if (!versions.has(script)) {
    let v: string | null = null;
    try {
      const pkg = JSON.parse(readRegularFile(path.join(path.dirname(fs.realpathSync(script)), "..", "package.json"), { maxBytes: 1024 * 1024 }).toString("utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "@google/gemini-cli" && typeof pkg.version === "string" && /^[0-9][0-9A-Za-z.+-]{0,40}$/.test(pkg.version)) v = pkg.version;
    } catch {
      // not readable: no version
    }
    versions.set(script, v);
  }
  return versions.get(script) ?? null;
}

/** Live sessions among `mains` (the main session files listed now); `projectOf` gives a slug dir's cwd. */
export function readLiveSessions(mains: readonly SessionFile[], projectOf: (slugDir: string) => string | null, opts: GeminiLiveOptions = {}): SourceResult<LiveSession[]> {
  const procRoot = opts.procRoot ?? "/proc";
  const uid = opts.uid === undefined ? (typeof process.getuid === "function" ? process.getuid() : null) : opts.uid;
  const procs = geminiProcesses(procRoot, uid);
  // One run per relaunch pair: the child stands for its parent.
  const runs = new Map<string, Proc[]>();
  for (const p of procs.values()) {
    if ([...procs.values()].some((c) => c.ppid === p.pid)) continue;
    const list = runs.get(p.cwd) ?? [];
    list.push(p);
    runs.set(p.cwd, list);
  }
  const out: LiveSession[] = [];
  for (const [cwd, list] of runs) {
    const files = mains.filter((f) => projectOf(f.slugDir) === cwd).sort((a, b) => b.stat.mtimeMs - a.stat.mtimeMs);
    list.sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0));
    const taken = new Set<string>();
    for (const p of list) {
      const started = procs.get(p.ppid)?.startedAt ?? p.startedAt;
      const f = files.find((x) => !taken.has(x.sessionId) && (started === null || x.stat.mtimeMs >= started - 1000));
      if (!f) continue;
      taken.add(f.sessionId);
      out.push({ pid: p.pid, sessionKey: f.sessionId, startedAt: started, status: null, cwd, cliVersion: versionOf(p.script) });
    }
  }
  return ok(out);
}
