// CPU and memory of a process tree from Linux procfs (a base utility: the gateway's process, the CLI
// providers' live sessions). The gateway runs as `openclaw-gateway` with a child "spawn broker" and
// short-lived tool processes, so figures cover the process and all its descendants. The procfs root
// is a parameter so tests can use a fake tree.
//
// CPU % needs two samples: (Δ utime+stime ticks) / clockTicks / Δ wall seconds × 100, per process (keyed
// by pid + start time so a recycled pid is not mistaken for the old process). 100 % = one core busy.
// A child that starts and exits between two samples is not seen; one that started after the previous
// sample counts all of its ticks.
import fs from "node:fs";
import path from "node:path";
import type { Clock } from "./clock.js";
import { systemClock } from "./clock.js";
import { SourceError, fail, ok } from "../providers/result.js";
import type { SourceResult } from "../providers/result.js";

/** Linux USER_HZ; 100 on every mainstream architecture. */
const DEFAULT_CLOCK_TICKS = 100;
const DEFAULT_PAGE_SIZE = 4096;

interface ProcStat {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  utime: number;
  stime: number;
  /** Start time in clock ticks since boot (field 22). */
  starttime: number;
  /** Resident pages (field 24). */
  rssPages: number;
}

interface ProcOptions {
  procRoot?: string;
}

/** Parses `/proc/<pid>/stat`. The command name is in parentheses and may itself contain spaces and ")". */
export function parseProcStat(content: string): ProcStat | null {
  const open = content.indexOf("(");
  const close = content.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const pid = Number(content.slice(0, open).trim());
  const rest = content.slice(close + 2).trim().split(/\s+/);
  // rest[0] is field 3 (state), so field n is rest[n - 3].
  const field = (n: number) => Number(rest[n - 3]);
  const stat: ProcStat = {
    pid,
    comm: content.slice(open + 1, close),
    state: rest[0] ?? "?",
    ppid: field(4),
    utime: field(14),
    stime: field(15),
    starttime: field(22),
    rssPages: field(24),
  };
  return Number.isInteger(pid) && [stat.ppid, stat.utime, stat.stime, stat.starttime].every(Number.isFinite) ? stat : null;
}

export function readProcStat(pid: number, opts: ProcOptions = {}): ProcStat | null {
  try {
    return parseProcStat(fs.readFileSync(path.join(opts.procRoot ?? "/proc", String(pid), "stat"), "utf8"));
  } catch {
    return null;
  }
}

/** True when the pid exists and is not a zombie; with `startTime`, also that it is the same process. */
export function isProcessAlive(pid: number, opts: ProcOptions & { startTime?: number | null } = {}): boolean {
  const st = readProcStat(pid, opts);
  if (!st || st.state === "Z" || st.state === "X" || st.state === "x") return false;
  return opts.startTime === undefined || opts.startTime === null || st.starttime === opts.startTime;
}

/** Process start time in clock ticks since boot (compare with the lock file's `startTime`). */
export function processStartTicks(pid: number, opts: ProcOptions = {}): number | null {
  return readProcStat(pid, opts)?.starttime ?? null;
}

/** Boot time in epoch ms from `/proc/stat` `btime`. */
function bootTimeMs(opts: ProcOptions = {}): number | null {
  try {
    const m = /^btime\s+(\d+)/m.exec(fs.readFileSync(path.join(opts.procRoot ?? "/proc", "stat"), "utf8"));
    return m ? Number(m[1]) * 1000 : null;
  } catch {
    return null;
  }
}

/** When the process started, as epoch ms (boot time + start ticks). */
export function processStartedAtMs(pid: number, opts: ProcOptions & { clockTicks?: number } = {}): number | null {
  const ticks = processStartTicks(pid, opts);
  const boot = bootTimeMs(opts);
  if (ticks === null || boot === null) return null;
  return boot + Math.round((ticks / (opts.clockTicks ?? DEFAULT_CLOCK_TICKS)) * 1000);
}

/** RSS in bytes: `VmRSS` from /proc/<pid>/status (kB, no page-size guess), else stat's pages. */
function rssBytes(pid: number, stat: ProcStat, opts: ProcOptions & { pageSize?: number }): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s*kB/m.exec(fs.readFileSync(path.join(opts.procRoot ?? "/proc", String(pid), "status"), "utf8"));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // Fall through to the stat figure.
  }
  return Number.isFinite(stat.rssPages) ? stat.rssPages * (opts.pageSize ?? DEFAULT_PAGE_SIZE) : 0;
}

/** Every process's stat, by pid (one pass over the procfs root). */
function allStats(opts: ProcOptions): Map<number, ProcStat> {
  const out = new Map<number, ProcStat>();
  for (const name of fs.readdirSync(opts.procRoot ?? "/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const st = readProcStat(Number(name), opts);
    if (st) out.set(st.pid, st);
  }
  return out;
}

/** The pid and all its descendants (breadth first), with their stats; empty when the pid is gone. */
export function processTree(rootPid: number, opts: ProcOptions = {}): ProcStat[] {
  const stats = allStats(opts);
  const root = stats.get(rootPid);
  if (!root) return [];
  const children = new Map<number, ProcStat[]>();
  for (const st of stats.values()) {
    if (st.pid === rootPid) continue;
    const list = children.get(st.ppid);
    if (list) list.push(st);
    else children.set(st.ppid, [st]);
  }
  const out = [root];
  const seen = new Set([rootPid]);
  for (let i = 0; i < out.length; i++) {
    for (const c of children.get(out[i]!.pid) ?? []) {
      if (seen.has(c.pid)) continue;
      seen.add(c.pid);
      out.push(c);
    }
  }
  return out;
}

interface ProcessTreeStats {
  /** null on the first sample (no interval yet) or after the root pid changed. */
  cpuPercent: number | null;
  rssBytes: number;
  rssMb: number;
  pids: number[];
  sampledAt: number;
}

interface SamplerOptions extends ProcOptions {
  clock?: Clock;
  clockTicks?: number;
  pageSize?: number;
  /** Shortest interval a CPU % is computed over; default 500 ms. */
  minIntervalMs?: number;
}

/**
 * The kernel counts CPU time in whole ticks (10 ms at 100 Hz) per process, so over a 1 ms
 * interval one tick reads as 1000 %. Below this interval the previous baseline is kept.
 */
const DEFAULT_MIN_CPU_INTERVAL_MS = 500;

/** Keeps the previous sample so each call can report CPU % over the interval since the last one. */
export class ProcessTreeSampler {
  private prev: { rootPid: number; at: number; ticks: Map<string, number>; cpuPercent: number | null } | null = null;
  private readonly clock: Clock;
  private readonly clockTicks: number;
  private readonly minIntervalMs: number;

  constructor(private readonly opts: SamplerOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.clockTicks = opts.clockTicks ?? DEFAULT_CLOCK_TICKS;
    // At least 1 ms: two samples at the same instant have no interval to divide by.
    this.minIntervalMs = Math.max(1, opts.minIntervalMs ?? DEFAULT_MIN_CPU_INTERVAL_MS);
  }

  /** Samples the tree under `rootPid`; `missing` when that process does not exist. */
  sample(rootPid: number): SourceResult<ProcessTreeStats> {
    let tree: ProcStat[];
    try {
      tree = processTree(rootPid, this.opts);
    } catch (err) {
      return fail(new SourceError("unsupported", `cannot read ${this.opts.procRoot ?? "/proc"}: ${(err as Error).message}`, {}, { cause: err }));
    }
    const at = this.clock.now();
    if (tree.length === 0) {
      this.prev = null;
      return fail(new SourceError("missing", `process ${rootPid} is not running`, { pid: rootPid }));
    }
    const ticks = new Map<string, number>();
    let rss = 0;
    for (const st of tree) {
      ticks.set(`${st.pid}:${st.starttime}`, st.utime + st.stime);
      rss += rssBytes(st.pid, st, this.opts);
    }
    const stats = { rssBytes: rss, rssMb: rss / (1024 * 1024), pids: tree.map((s) => s.pid), sampledAt: at };
    const prev = this.prev;
    if (prev && prev.rootPid === rootPid && at - prev.at < this.minIntervalMs) {
      // Too soon for a meaningful figure: report the last one and keep measuring from the old baseline.
      return ok({ cpuPercent: prev.cpuPercent, ...stats });
    }
    let cpuPercent: number | null = null;
    if (prev && prev.rootPid === rootPid) {
      let delta = 0;
      for (const [key, t] of ticks) {
        const before = prev.ticks.get(key);
        // A process not in the previous sample started since (or was not yet our descendant): all its ticks.
        delta += before === undefined ? t : Math.max(0, t - before);
      }
      cpuPercent = (delta / this.clockTicks / ((at - prev.at) / 1000)) * 100;
    }
    this.prev = { rootPid, at, ticks, cpuPercent };
    return ok({ cpuPercent, ...stats });
  }

  reset(): void {
    this.prev = null;
  }
}
