// Opens the data side of gateway-insights: which providers to read (OpenClaw, Claude Code, Codex;
// the bundled demo, moved in time to end now, when none has data), our store, the collector over
// the sources, and the read model over both. The daemon keeps this open for its lifetime;
// `insightsctl snapshot` without a daemon opens it for one render.
import { rmSync } from "node:fs";
import { homedir } from "node:os";
import { systemClock, type Clock } from "./base/clock.js";
import type { Config, ProviderMode } from "./config/options.js";
import { ConfigError } from "./base/errors.js";
import { Collector, type CollectorOptions } from "./ingest/collector.js";
import type { Logger } from "./base/log/logger.js";
import type { Paths } from "./base/paths.js";
import { ReadModel, type ActiveAlertFigure, type DaemonFigures, type ReadModelOptions } from "./queries/read-model.js";
import { parsePriceOverrides } from "./pricing/overrides.js";
import { Pricer } from "./pricing/pricer.js";
import { installDemoState, type InstalledDemo } from "./demo-replay/install.js";
import type { GatewayLocation, GatewaySide, Provider } from "./providers/contract.js";
import type { DiscoveryContext } from "./providers/discovery.js";
import { isUnusable, type LookedAt } from "./providers/looked-at.js";
import { CLI_DISCOVERY, GATEWAY } from "./providers/modules.js";
import { displayName, GATEWAY_PROVIDER, PROVIDER_NAMES, providerIdentity, providersWith, providersWithout, type ProviderName, type ProviderWithout } from "./providers/registry.js";
import { Store } from "./store/store.js";
import { VERSION } from "./base/version.js";

/** Where the gateway side's state is read, and in demo mode the copy just installed. */
export interface DataLocation extends GatewayLocation {
  /** Demo mode only: the copy just installed (or kept), its time offset and the bundle's manifest. */
  installed?: InstalledDemo;
}

export interface OpenDataOptions {
  paths: Paths;
  /** The config as loaded; `current` is read again on every use, so a reload applies. */
  config: Config;
  current?: () => Config;
  env: Record<string, string | undefined>;
  logger: Logger;
  clock?: Clock;
  /** Collector seams and pace overrides (tests). */
  collector?: Partial<Pick<CollectorOptions, "scanMs" | "logMs" | "cronMs" | "probeHttp" | "channels" | "updates" | "scanProgress">>;
  daemon?: () => DaemonFigures;
  /** The alerts firing now (the daemon's alert service), for the status card. */
  alerts?: () => ActiveAlertFigure[];
  /** Why a provider's installs have no rate limits (the daemon's status-line intake). */
  rateLimitsMissing?: ReadModelOptions["rateLimitsMissing"];
  /** How often the store checks its file is still the one open; default 5 s (one stat). */
  storeCheckMs?: number;
}

export interface OpenData {
  /** The bundled demo state is served: no provider's data was found at start. */
  demo: boolean;
  /** The gateway side's state dir (OpenClaw's); null when it is not read. */
  location: DataLocation | null;
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
  const { location, side, providers, shown, demo } = chooseProviders(o, clock.now());
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
  const collector = new Collector({
    providers,
    shown,
    gatewaySide: side,
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
    ...(o.rateLimitsMissing ? { rateLimitsMissing: o.rateLimitsMissing } : {}),
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
 * Config keys whose value is a provider's mode, and those naming its dirs: each identity's `config`
 * names its own (shared/providers/registry.test.ts checks they exist and are of this kind).
 */
type ModeKey = { [K in keyof Config]: Config[K] extends ProviderMode ? K : never }[keyof Config];
type DirsKey = { [K in keyof Config]: Config[K] extends string[] | null ? K : never }[keyof Config];
const modeOf = (config: Config, name: ProviderName): ProviderMode => config[providerIdentity(name).config.mode as ModeKey];
/** A gateway provider's dir option is one dir (its state dir), not a list. */
type DirKey = { [K in keyof Config]: Config[K] extends string | null ? K : never }[keyof Config];
const dirsOf = (config: Config, name: ProviderName): string[] | null => config[providerIdentity(name).config.dirs as DirsKey];

const CLI_PROVIDERS = providersWithout("gateway");

function contextOf(config: Config, env: Record<string, string | undefined>, name: ProviderWithout<"gateway">): DiscoveryContext {
  return { env, home: env.HOME || homedir(), dirs: dirsOf(config, name) };
}

/** Which providers have data now, by their modes (auto: when their data is found; on: always; off: never). Stat calls only. */
interface Detected {
  location: DataLocation | null;
  /** The CLI providers read and shown now, in the interface's order. */
  cli: ProviderWithout<"gateway">[];
}

function detect(config: Config, env: Record<string, string | undefined>): Detected {
  let location: DataLocation | null = null;
  const mode = GATEWAY_PROVIDER ? modeOf(config, GATEWAY_PROVIDER) : "off";
  if (GATEWAY && mode !== "off") {
    location = GATEWAY.locate({ configured: gatewayDir(config), env });
    if (!location && mode === "on") location = GATEWAY.defaultLocation(env);
  }
  const cli = CLI_PROVIDERS.filter((name) => {
    const mode = modeOf(config, name);
    const ctx = contextOf(config, env, name);
    return mode !== "off" && (mode === "on" || ctx.dirs !== null || CLI_DISCOVERY[name].hasData(ctx));
  });
  return { location, cli };
}

/** Every dir each provider that is not off looks at, and what is there now (status, /health). Stat calls only. */
export function providerLookedAt(config: Config, env: Record<string, string | undefined>): LookedAt[] {
  const out: LookedAt[] = [];
  if (GATEWAY && GATEWAY_PROVIDER && modeOf(config, GATEWAY_PROVIDER) !== "off") out.push(GATEWAY.lookedAt({ configured: gatewayDir(config), env }));
  for (const name of CLI_PROVIDERS) if (modeOf(config, name) !== "off") out.push(...CLI_DISCOVERY[name].lookedAt(contextOf(config, env, name)));
  return out;
}

const WHY: Record<LookedAt["found"], string> = { data: "", empty: "", missing: "it does not exist", "not-a-directory": "it is not a directory", "not-absolute": "a relative path is not guessed: make it absolute" };

/**
 * A dir the user named (config, OPENCLAW_STATE_DIR, CLAUDE_CONFIG_DIR, CODEX_HOME) that does not
 * exist is a typo or a missing mount: the start stops (exit 2) naming it, as for a configured
 * openclawDir (config/load.ts), instead of quietly serving the demo.
 */
function refuseUnusable(looked: readonly LookedAt[]): void {
  const bad = looked.find(isUnusable);
  if (!bad) return;
  const key = bad.from.replace(/^(config|env) /, "");
  throw new ConfigError(key, bad.dir, bad.from, `an existing ${providerIdentity(bad.provider).dirLabel} directory (${WHY[bad.found]})`);
}

/**
 * Each provider by its mode. Claude Code and Codex are read whenever they are not off, so an
 * install that appears later is found by the next discovery pass; the ones with data now are
 * shown from the start (the others once a source appears). With none found and none forced on,
 * the bundled demo state is served, so a first run shows something real; the daemon then watches
 * for real data (restartReason).
 */
function chooseProviders(o: OpenDataOptions, now: number): { location: DataLocation | null; side: GatewaySide | null; providers: Provider[]; shown: ProviderName[]; demo: boolean } {
  const { config, env, paths } = o;
  const pricer = new Pricer({ overrides: parsePriceOverrides(config.prices, "config prices") });
  refuseUnusable(providerLookedAt(config, env));
  const found = detect(config, env);
  const { location } = found;
  const shown: ProviderName[] = [];
  const providers: Provider[] = [];
  const side = location && GATEWAY ? GATEWAY.open(location, env) : null;
  if (side) {
    providers.push(side.provider);
    shown.push(...providersWith("gateway"));
  }
  shown.push(...found.cli);
  if (shown.length === 0) return { ...demoProviders(paths.demoStateDir, now, env, pricer), shown: [...PROVIDER_NAMES], demo: true };
  for (const name of CLI_PROVIDERS) if (modeOf(config, name) !== "off") providers.push(CLI_DISCOVERY[name].create(contextOf(config, env, name), pricer));
  return { location, side, providers, shown, demo: false };
}

/**
 * Why the running data side must be opened again, or null: real data appeared beside the demo
 * (the demo steps aside as it does at start), or OpenClaw's state dir appeared where OpenClaw was
 * not read (its gateway side is wired at start). Claude Code and Codex installs need no restart:
 * discovery adds them. Stat calls only: the daemon asks every few seconds.
 */
export function restartReason(data: Pick<OpenData, "demo" | "location">, config: Config, env: Record<string, string | undefined>): string | null {
  const now = detect(config, env);
  if (data.demo) {
    const names = [...(now.location ? providersWith("gateway") : []), ...now.cli].map(displayName);
    return names.length ? `${names.join(", ")} data appeared: leaving the demo for it` : null;
  }
  if (!data.location && now.location) return `${GATEWAY_PROVIDER ? displayName(GATEWAY_PROVIDER) : "The gateway"}'s state dir ${now.location.dir} appeared`;
  return null;
}

/**
 * Demo mode: every registered provider's bundled recording (its module's demo), installed beside
 * each other and moved to now. The CLI providers read exactly their demo copies: their dirs are
 * given explicitly and they see an empty environment, so neither CLAUDE_CONFIG_DIR nor CODEX_HOME
 * (nor anything found in the user's home) can mix real data into the demo. Each names its copy
 * `default`, as a first real install would be.
 */
function demoProviders(target: string, now: number, env: Record<string, string | undefined>, pricer: Pricer): { location: DataLocation; side: GatewaySide | null; providers: Provider[] } {
  const location = demoLocation(target, now);
  const side = GATEWAY ? GATEWAY.open(location, env) : null;
  const providers: Provider[] = side ? [side.provider] : [];
  const installed = location.installed;
  for (const name of CLI_PROVIDERS) {
    const copy = installed?.copies.find((c) => c.provider === name);
    if (copy) providers.push(CLI_DISCOVERY[name].demo(copy, pricer));
  }
  return { location, side, providers };
}

/** The bundled demo state, copied to `target` and moved in time so its recording ends `now`. */
export function demoLocation(target: string, now: number): DataLocation {
  const installed = installDemoState(target, { now });
  return { dir: target, demo: true, origin: "demo", installed };
}

/** The gateway provider's dir option (openclawDir), named by its identity like the CLI providers' dirs. */
function gatewayDir(config: Config): string | null {
  return GATEWAY_PROVIDER ? config[providerIdentity(GATEWAY_PROVIDER).config.dirs as DirKey] : null;
}
