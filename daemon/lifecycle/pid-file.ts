// The pid file is the first half of the single-instance lock (the control socket is the second).
// It is created with O_EXCL, so two daemons starting together cannot both win; a file left by a
// crashed daemon is recognised (dead pid, or a pid now used by another program) and replaced.
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { InsightsError } from "../../shared/errors.js";
import { isInsightsDaemon, readPidFile } from "../../shared/lifecycle/process-check.js";

export interface PidLock {
  path: string;
  /** The stale pid that was cleaned up, if any. */
  replacedStalePid: number | null;
  release(): void;
}

export function acquirePidFile(path: string, pid = process.pid, isRunning: (pid: number) => boolean = isInsightsDaemon): PidLock {
  let replacedStalePid: number | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, `${pid}\n`);
      closeSync(fd);
      return {
        path,
        replacedStalePid,
        release: () => {
          // Only remove the file if it is still ours.
          if (readPidFile(path) === pid) rmSync(path, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const other = readPidFile(path);
      if (other !== null && other !== pid && isRunning(other)) {
        throw new InsightsError("ALREADY_RUNNING", `gateway-insights is already running (pid ${other})`, { pid: other });
      }
      replacedStalePid = other;
      rmSync(path, { force: true });
    }
  }
  throw new InsightsError("ALREADY_RUNNING", `could not take the pid file ${path}: another daemon is starting`);
}
