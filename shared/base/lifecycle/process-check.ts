// Is a pid alive, and is it one of ours? Used by the daemon (to refuse a second instance and to
// clean up after a crash) and by the CLI (to stop one).
import { readFileSync } from "node:fs";
import { readRegularFile } from "../safe-open.js";

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * True when `pid` is alive and looks like an insightsd process. After a crash the pid in the
 * file may have been reused by something unrelated; on Linux /proc tells us. Where /proc is
 * missing we can only trust liveness.
 */
export function isInsightsDaemon(pid: number, procRoot = "/proc"): boolean {
  if (!isAlive(pid)) return false;
  let cmdline: string;
  try {
    cmdline = readFileSync(`${procRoot}/${pid}/cmdline`, "utf8");
  } catch {
    return true;
  }
  return /insightsd|daemon[/\\]main\.(js|ts)/.test(cmdline.replace(/\0/g, " "));
}

export function readPidFile(path: string): number | null {
  try {
    // A FIFO planted at the pid file must not hang `insightsctl stop`.
    const pid = Number.parseInt(readRegularFile(path, { maxBytes: 4096 }).toString("utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
