// Opens the data side of gateway-insights: which OpenClaw state dir to read (or the bundled demo,
// moved in time to end now), our store, the collector over the sources, and the read model over
// both. The daemon keeps this open for its lifetime; `insightsctl snapshot`
// without a daemon opens it for one render.
import { rmSync } from "node:fs";
import { systemClock, type Clock } from "./clock.js";
import type { Config } from "./config/options.js";
import { Collector, type CollectorOptions } from "./ingest/collector.js";
import type { Logger } from "./log/logger.js";
import type { Paths } from "./paths.js";
import { ReadModel, type DaemonFigures } from "./queries/read-model.js";
import { locateOpenclaw, type OpenclawLocation } from "./sources/locate-openclaw.js";
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
}

export interface OpenData {
  location: OpenclawLocation;
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
  const location = locateOpenclaw({ configured: config.openclawDir, env: o.env, demoTarget: paths.demoStateDir, now: clock.now() });
  // A new demo copy starts a new demo store: what the old one holds was read at the old copy's times.
  if (location.installed?.fresh) for (const suffix of ["", "-wal", "-shm"]) rmSync(paths.demoDbFile + suffix, { force: true });
  // Demo data goes to a store of its own: it must never mix with a real gateway's history.
  const dbFile = location.demo ? paths.demoDbFile : paths.dbFile;
  const store = Store.open(dbFile, {
    clock,
    onRecovered: (movedTo, reason) => logger.error("SQLite says the store is not a database or is corrupt; moved it aside and started a new one", { movedTo, reason }),
    onWriteHealth: (failure) => {
      if (failure) logger.error("writes to the store fail: ingestion stalled until they work again (nothing already stored is lost)", { store: dbFile, code: failure.code, error: failure.message });
      else logger.info("writes to the store work again: ingestion resumed");
    },
  });
  const collector = new Collector({
    openclawDir: location.dir,
    demo: location.demo,
    stateDir: paths.stateDir,
    store,
    clock,
    logger,
    env: o.env,
    gatewayUrl: () => current().gatewayUrl,
    openclawCommand: () => current().openclawCommand,
    sampleMs: config.sampleIntervalSeconds * 1000,
    ...o.collector,
  });
  const startedAt = clock.now();
  const model = new ReadModel({
    store,
    collector,
    clock,
    appVersion: VERSION,
    startedAt,
    demo: location.demo,
    openclawDir: location.dir,
    rawDays: () => current().retentionRawDays,
    ...(o.daemon ? { daemon: o.daemon } : {}),
  });
  return {
    location,
    clock,
    store,
    collector,
    model,
    startedAt,
    close: async () => {
      await collector.stop();
      store.close();
    },
  };
}
