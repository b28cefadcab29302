// Opens the data side of gateway-insights: which providers to read (OpenClaw, Claude Code, Codex;
// the bundled demo, moved in time to end now, when none has data), our store, the collector over
// the sources, and the read model over both. The daemon keeps this open for its lifetime;
// `insightsctl snapshot` without a daemon opens it for one render.
import { rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { systemClock, type Clock } from "./clock.js";
import type { Config } from "./config/options.js";
import { Collector, type CollectorOptions } from "./ingest/collector.js";
import type { Logger } from "./log/logger.js";
import type { Paths } from "./paths.js";
import { ReadModel, type ActiveAlertFigure, type DaemonFigures } from "./queries/read-model.js";
import { parsePriceOverrides } from "./pricing/overrides.js";
import { Pricer } from "./pricing/pricer.js";
import { ClaudeCodeProvider } from "./sources/claude-code/provider.js";
import { CodexProvider } from "./sources/codex/provider.js";
import type { Provider } from "./sources/contract.js";
import { demoOpenclaw, locateOpenclaw, type OpenclawLocation } from "./sources/locate-openclaw.js";
import { OpenClawProvider } from "./sources/openclaw/provider.js";
import { Store } from "./store/store.js";
import { VERSION } from "./version.js";

export interface OpenDataOptions {
  paths: Paths;
  /** The config as loaded; `current` is read again on every use, so a reload applies. */
  config: Config;
  current?: () => Config;
  env: Record<string, string | undefined>;
  logger: Logger;
  clock?: Clock;
  /** Collector seams and pace overrides (tests). */
  collector?: Partial<Pick<CollectorOptions, "scanMs" | "logMs" | "cronMs" | "probeHttp" | "channels" | "updates">>;
  daemon?: () => DaemonFigures;
  /** The alerts firing now (the daemon's alert service), for the status card. */
  alerts?: () => ActiveAlertFigure[];
  /** How often the store checks its file is still the one open; default 5 s (one stat). */
  storeCheckMs?: number;
}

export interface OpenData {
  /** The bundled demo state is served: no provider's data was found at start. */
  demo: boolean;
  /** OpenClaw's state dir; null when OpenClaw is not read. */
  location: OpenclawLocation | null;
  providers: readonly Provider[];
  clock: Clock;
  store: Store;
  collector: Collector;
  model: ReadModel;
  startedAt: number;
  close(): Promise<void>;
}

export function openData(o: OpenDataOptions): OpenData {
  const { paths, config, logger } = o;
  const current = o.current ?? (() => config);
  // The demo runs on the real clock too: its copy's timestamps are moved to now when it is installed.
  const clock = o.clock ?? systemClock;
  const { location, providers, demo } = chooseProviders(o, clock.now());
  // A new demo copy starts a new demo store: what the old one holds was read at the old copy's times.
  if (location?.installed?.fresh) for (const suffix of ["", "-wal", "-shm"]) rmSync(paths.demoDbFile + suffix, { force: true });
  // Demo data goes to a store of its own: it must never mix with a real gateway's history.
  const dbFile = demo ? paths.demoDbFile : paths.dbFile;
  const store = Store.open(dbFile, {
    clock,
    onRecovered: (movedTo, reason) => logger.error("SQLite says the store is not a database or is corrupt; moved it aside and started a new one", { movedTo, reason }),
    onWriteHealth: (failure) => {
      if (failure) logger.error("writes to the store fail: ingestion stalled until they work again (nothing already stored is lost)", { store: dbFile, code: failure.code, error: failure.message });
      else logger.info("writes to the store work again: ingestion resumed");
    },
    onFileIncident: (incident) => {
      const fields = { store: dbFile, kind: incident.kind, movedAside: incident.movedAside, lost: incident.lost };
      if (incident.state === "recovered") logger.warn(incident.message, fields);
      else logger.error(incident.message, fields);
    },
  });
  // Deleted or replaced under us: noticed within this interval (and on every health read).
  const fileCheck = setInterval(() => store.checkFile(), o.storeCheckMs ?? 5000);
  fileCheck.unref();
  const openclawProvider = providers.find((p): p is OpenClawProvider => p instanceof OpenClawProvider) ?? null;
  const collector = new Collector({
    providers,
    openclaw: openclawProvider && location ? { provider: openclawProvider, dir: location.dir, demo: location.demo } : null,
    stateDir: paths.stateDir,
    store,
    clock,
    logger,
    env: o.env,
    gatewayUrl: () => current().gatewayUrl,
    openclawCommand: () => current().openclawCommand,
    sampleMs: config.sampleIntervalSeconds * 1000,
    maxWatchedDirs: config.watchMaxDirs,
    ...o.collector,
  });
  const startedAt = clock.now();
  const model = new ReadModel({
    store,
    collector,
    clock,
    appVersion: VERSION,
    startedAt,
    demo,
    openclawDir: location?.dir ?? null,
    rawDays: () => current().retentionRawDays,
    ...(o.daemon ? { daemon: o.daemon } : {}),
    ...(o.alerts ? { alerts: o.alerts } : {}),
  });
  return {
    demo,
    location,
    providers,
    clock,
    store,
    collector,
    model,
    startedAt,
    close: async () => {
      clearInterval(fileCheck);
      await collector.stop();
      await store.settled();
      store.close();
    },
  };
}

/**
 * Each provider by its mode (auto: when its data is found; on: always; off: never). With none found
 * and none forced on, the bundled demo state is served, so a first run shows something real.
 */
function chooseProviders(o: OpenDataOptions, now: number): { location: OpenclawLocation | null; providers: Provider[]; demo: boolean } {
  const { config, env, paths } = o;
  const home = env.HOME || homedir();
  const pricer = new Pricer({ overrides: parsePriceOverrides(config.prices, "config prices") });
  const providers: Provider[] = [];
  let location: OpenclawLocation | null = null;
  if (config.openclaw !== "off") {
    location = locateOpenclaw({ configured: config.openclawDir, env });
    if (!location && config.openclaw === "on") location = { dir: `${home}/.openclaw`, demo: false, origin: "home" };
    if (location) providers.push(new OpenClawProvider({ stateDir: location.dir, env }));
  }
  if (config.claudeCode !== "off") {
    const cc = new ClaudeCodeProvider({ env, home, dirs: config.claudeCodeDirs, pricer });
    if (config.claudeCode === "on" || config.claudeCodeDirs || cc.discover().installs.length > 0) providers.push(cc);
  }
  if (config.codex !== "off") {
    const codex = new CodexProvider({ env, home, dirs: config.codexDirs, pricer });
    if (config.codex === "on" || config.codexDirs || codex.discover().installs.length > 0) providers.push(codex);
  }
  if (providers.length > 0) return { location, providers, demo: false };
  return { ...demoProviders(paths.demoStateDir, now, env, pricer), demo: true };
}

/**
 * Demo mode: the bundled OpenClaw, Claude Code and Codex states, installed beside each other and
 * moved to now. The Claude Code and Codex providers read exactly the demo copies: their dirs are
 * given explicitly and they see an empty environment, so neither CLAUDE_CONFIG_DIR nor CODEX_HOME
 * (nor anything found in the user's home) can mix real data into the demo. Each names its copy
 * `default`, as a first real install would be.
 */
function demoProviders(target: string, now: number, env: Record<string, string | undefined>, pricer: Pricer): { location: OpenclawLocation; providers: Provider[] } {
  const location = demoOpenclaw(target, now);
  const providers: Provider[] = [new OpenClawProvider({ stateDir: location.dir, env })];
  const installed = location.installed;
  const noEnv = {};
  if (installed?.claudeCodeHome && installed.manifest.claudeCode) {
    const home = installed.claudeCodeHome;
    providers.push(new ClaudeCodeProvider({ env: noEnv, home, dirs: [join(home, installed.manifest.claudeCode.configDir)], pricer }));
  }
  if (installed?.codexHome && installed.manifest.codex) {
    const home = installed.codexHome;
    providers.push(new CodexProvider({ env: noEnv, home, dirs: [join(home, installed.manifest.codex.configDir)], pricer }));
  }
  return { location, providers };
}
