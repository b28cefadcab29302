// The first steps of a start, before any data is opened: the config, private directories, the
// log and the pid lock, and the list of what to undo should a later step fail. Apart from the
// composition root because these run before a logger exists and must give back the pid file
// whatever happens after.
import { InsightsError } from "../shared/base/errors.js";
import { loadConfig, type Flags, type LoadedConfig } from "../shared/config/load.js";
import { LogHub, type ConsoleMode, type Logger } from "../shared/base/log/logger.js";
import { RotatingFile } from "../shared/base/log/rotating-file.js";
import { MAX_SOCKET_PATH, type Paths } from "../shared/base/paths.js";
import { ensurePrivateDir } from "../shared/base/private-files.js";
import { acquirePidFile, type PidLock } from "./lifecycle/pid-file.js";

/** What a failed start undoes, newest first; each step runs even when an earlier one throws. */
export class Cleanup {
  private readonly steps: Array<() => void | Promise<void>> = [];

  add(step: () => void | Promise<void>): void {
    this.steps.unshift(step);
  }

  async run(): Promise<void> {
    for (const fn of this.steps) {
      try {
        await fn();
      } catch {
        // keep cleaning
      }
    }
  }
}

export interface Base {
  loaded: LoadedConfig;
  hub: LogHub;
  logFile: RotatingFile;
  pid: PidLock;
  log: Logger;
  cleanup: Cleanup;
}

export function openBase(o: { paths: Paths; env: Record<string, string | undefined>; flags: Flags; console?: ConsoleMode }): Base {
  const { paths } = o;
  const loaded = loadConfig({ configFile: paths.configFile, env: o.env, flags: o.flags });
  const { config } = loaded;
  if (Buffer.byteLength(paths.socketFile) > MAX_SOCKET_PATH) {
    throw new InsightsError("SOCKET_PATH_TOO_LONG", `the control socket path ${paths.socketFile} is longer than ${MAX_SOCKET_PATH} bytes; set a shorter XDG_RUNTIME_DIR`);
  }
  // Everything the daemon creates is its user's alone, however it was started (the systemd unit
  // sets UMask=0077; a shell's 022 would leave the store's -wal/-shm and the demo copy readable).
  process.umask(0o077);
  // A state or runtime dir another user owns or can write is refused: its files cannot be trusted.
  const tightened: string[] = [];
  if (ensurePrivateDir(paths.stateDir, "the state dir").tightened) tightened.push(paths.stateDir);
  if (paths.runtimeDir !== paths.stateDir && ensurePrivateDir(paths.runtimeDir, "the runtime dir").tightened) tightened.push(paths.runtimeDir);

  const logFile = new RotatingFile(paths.logFile, { maxBytes: config.logMaxBytes, maxFiles: config.logMaxFiles });
  const hub = new LogHub({ level: config.logLevel, file: logFile, ...(o.console ? { console: o.console } : {}) });
  const log = hub.logger.child("daemon");
  for (const dir of tightened) log.warn("the directory was readable by other users; made it private (0700)", { dir });

  let pid: PidLock;
  try {
    pid = acquirePidFile(paths.pidFile);
  } catch (err) {
    hub.close();
    throw err;
  }
  if (pid.replacedStalePid !== null) log.warn("removed a stale pid file left by a crashed daemon", { stalePid: pid.replacedStalePid });
  // From here on every failure must give the pid file back.
  const cleanup = new Cleanup();
  cleanup.add(() => hub.close());
  cleanup.add(() => pid.release());
  return { loaded, hub, logFile, pid, log, cleanup };
}
