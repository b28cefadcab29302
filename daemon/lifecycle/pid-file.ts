// The pid file is the first half of the single-instance lock (the control socket is the second).
// It is created with O_EXCL (which never follows a link), so two daemons starting together cannot
// both win; a file left by a crashed daemon is recognised (dead pid, or a pid now used by another
// program) and replaced. It is read without following a link, and one another user owns is
// refused rather than trusted.
import { closeSync, rmSync, writeSync } from "node:fs";
import { InsightsError } from "../../shared/base/errors.js";
import { isInsightsDaemon } from "../../shared/base/lifecycle/process-check.js";
import { createPrivateFile, readPrivateFile } from "../../shared/base/private-files.js";

export interface PidLock {
  path: string;
  /** The stale pid that was cleaned up, if any. */
  replacedStalePid: number | null;
  release(): void;
}

function readOwnPidFile(path: string): number | null {
  const text = readPrivateFile(path, "the pid file");
  if (text === null) return null;
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

export function acquirePidFile(path: string, pid = process.pid, isRunning: (pid: number) => boolean = isInsightsDaemon): PidLock {
  let replacedStalePid: number | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = createPrivateFile(path);
      try {
        writeSync(fd, `${pid}\n`);
      } finally {
        closeSync(fd);
      }
      return {
        path,
        replacedStalePid,
        release: () => {
          // Only remove the file if it is still ours.
          let current: number | null = null;
          try {
            current = readOwnPidFile(path);
          } catch {
            // a link or someone else's file now: not ours to remove
          }
          if (current === pid) rmSync(path, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const other = readOwnPidFile(path);
      if (other !== null && other !== pid && isRunning(other)) {
        throw new InsightsError("ALREADY_RUNNING", `gateway-insights is already running (pid ${other})`, { pid: other });
      }
      replacedStalePid = other;
      rmSync(path, { force: true });
    }
  }
  throw new InsightsError("ALREADY_RUNNING", `could not take the pid file ${path}: another daemon is starting`);
}
