// Where gateway-insights keeps its files (design §2). Everything derives from the environment
// given, so tests point HOME/XDG_* at temp dirs.
import { homedir } from "node:os";
import { join } from "node:path";
import { PRODUCT } from "./version.js";

export interface Paths {
  configDir: string;
  configFile: string;
  stateDir: string;
  dbFile: string;
  logFile: string;
  tokenFile: string;
  /** The session-cookie key ring (so a restart keeps browsers signed in). */
  sessionKeysFile: string;
  /** Where the bundled demo state is copied so SQLite may create its -wal/-shm files beside it. */
  demoStateDir: string;
  /** The demo's own store, so demo data never mixes with a real gateway's. */
  demoDbFile: string;
  /** Status-line readings left by `insightsctl statusline` while no daemon ran (shared/statusline/spool.ts). */
  statuslineSpoolFile: string;
  runtimeDir: string;
  socketFile: string;
  pidFile: string;
}

type Env = Record<string, string | undefined>;

export function resolvePaths(env: Env = process.env): Paths {
  const home = env.HOME || homedir();
  const configDir = join(env.XDG_CONFIG_HOME || join(home, ".config"), PRODUCT);
  const stateDir = join(env.XDG_STATE_HOME || join(home, ".local", "state"), PRODUCT);
  // No XDG_RUNTIME_DIR (e.g. a plain `su` shell): keep the socket beside the state.
  const runtimeDir = env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, PRODUCT) : stateDir;
  return {
    configDir,
    configFile: join(configDir, "config.json"),
    stateDir,
    dbFile: join(stateDir, "insights.db"),
    logFile: join(stateDir, "daemon.log"),
    tokenFile: join(stateDir, "token"),
    sessionKeysFile: join(stateDir, "session-keys.json"),
    demoStateDir: join(stateDir, "demo", "openclaw-state"),
    demoDbFile: join(stateDir, "demo", "insights.db"),
    statuslineSpoolFile: join(stateDir, "statusline-spool.jsonl"),
    runtimeDir,
    socketFile: join(runtimeDir, "control.sock"),
    pidFile: join(runtimeDir, "daemon.pid"),
  };
}

/** Unix socket paths are limited to 107 bytes on Linux (sun_path). */
export const MAX_SOCKET_PATH = 107;
