// SIGHUP: re-read config.json and apply what can change live. Apart from the composition root
// because it changes with the options table (shared/config/options.ts), not with the start order.
import { loadConfig, type Flags, type LoadedConfig } from "../shared/config/load.js";
import { OPTIONS, OPTION_KEYS, type Config, type OptionKey } from "../shared/config/options.js";
import { errorMessage } from "../shared/base/errors.js";
import type { Collector } from "../shared/ingest/collector.js";
import type { LogHub, Logger } from "../shared/base/log/logger.js";
import type { RotatingFile } from "../shared/base/log/rotating-file.js";
import type { AlertService } from "./alerts/alert-service.js";

export interface ReloadParts {
  /** Where the config was read at start, with the env and flags as they were then. */
  configFile: string;
  env: Record<string, string | undefined>;
  flags: Flags;
  current: Config;
  hub: LogHub;
  logFile: RotatingFile;
  collector: Collector;
  alerts: AlertService;
  runRetentionNow: () => void;
  log: Logger;
}

interface Reloaded {
  loaded: LoadedConfig;
  applied: string[];
  needsRestart: string[];
}

/** Loads the config again and applies the live-changeable keys; throws (and keeps the running config) when the file is invalid. */
export function reloadConfig(p: ReloadParts): Reloaded {
  let next: LoadedConfig;
  try {
    next = loadConfig({ configFile: p.configFile, env: p.env, flags: p.flags, atStart: false });
  } catch (err) {
    p.log.error("reload refused: the config is invalid; keeping the running config", { error: errorMessage(err) });
    throw err;
  }
  // Object values (prices, alerts) are compared by content: a reload of an unchanged file changes nothing.
  const changed = OPTION_KEYS.filter((k) => !sameValue(p.current[k], next.config[k]));
  const applied = changed.filter((k: OptionKey) => OPTIONS[k].reloadable);
  const needsRestart = changed.filter((k: OptionKey) => !OPTIONS[k].reloadable);
  return { loaded: next, applied, needsRestart };
}

/** Applies a reloaded config to the running parts (after the daemon holds it as its config). */
export function applyReload(p: ReloadParts, { loaded, applied, needsRestart }: Reloaded): void {
  const c = loaded.config;
  p.hub.setLevel(c.logLevel);
  p.logFile.setOptions({ maxBytes: c.logMaxBytes, maxFiles: c.logMaxFiles });
  p.collector.gateway?.setSampleInterval(c.sampleIntervalSeconds * 1000);
  if (applied.includes("retentionRawDays") || applied.includes("retentionRollupDays")) p.runRetentionNow();
  if (applied.includes("alerts")) p.alerts.reload();
  p.log.info("config reloaded", { applied, needsRestart });
  if (needsRestart.length) p.log.warn("some changes take effect only after a restart", { keys: needsRestart });
}

/** Config values compared by content (JSON objects from the file), not by identity. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
