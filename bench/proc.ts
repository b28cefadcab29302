// Memory and children of another process, from /proc (Linux). The graphql and snapshot suites
// measure a real daemon from the outside, so they cannot ask process.memoryUsage().
import * as fs from "node:fs";

export interface ProcMemory {
  pid: number;
  /** Resident set now, MB (10^6 bytes). */
  rssMb: number;
  /** Peak resident set of the process's life so far (VmHWM), MB. */
  hwmMb: number;
  /** RSS split: anonymous memory (heaps, malloc) and mapped files (code, fonts, libraries). */
  anonMb: number;
  fileMb: number;
}

const mb = (kb: number): number => Math.round((kb * 1024) / 1e5) / 10;

/** Null when the process is gone (or there is no procfs). */
export function procMemory(pid: number): ProcMemory | null {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { pid, rssMb: mb(kb("VmRSS")), hwmMb: mb(kb("VmHWM")), anonMb: mb(kb("RssAnon")), fileMb: mb(kb("RssFile")) };
}

/** Direct children of `pid` (the kernel's list, per thread of the parent). */
export function childPids(pid: number): number[] {
  const out = new Set<number>();
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  for (const t of tasks) {
    try {
      for (const c of fs.readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim().split(/\s+/)) if (c) out.add(Number(c));
    } catch {
      // the thread ended meanwhile
    }
  }
  return [...out].sort((a, b) => a - b);
}

/** The command line of a process, arguments joined by spaces; "" when it is gone. */
export function procCommand(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** CPU time (user + system) a process has used so far, ms; NaN when it is gone. */
export function procCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command (which may contain spaces) start after the last ")".
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(f[11]) + Number(f[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return Number.NaN;
  }
}

/** Whether a process with this id exists. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes `<dir>/<prefix><pid>` entries left by runners that died without teardown (a kill -9):
 * each name ends in the pid of the runner that made it, and that process is gone.
 */
export function removeStaleDirs(dir: string, prefix: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !pidAlive(pid)) fs.rmSync(`${dir}/${name}`, { recursive: true, force: true });
  }
}
