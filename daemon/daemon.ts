// The long-lived process: owns the config, logger, store, collector, HTTP server and control
// socket. This is the composition root: it starts the parts in order (each group is wired in a
// module beside it: wire-base, wire-data, wire-services, wire-http, control/handlers) and stops
// them in reverse with a bounded drain (shutdown.ts).
import type { IncomingMessage } from "node:http";
import { errorMessage } from "../shared/base/errors.js";
import type { Clock } from "../shared/base/clock.js";
import type { Flags, LoadedConfig } from "../shared/config/load.js";
import type { Config } from "../shared/config/options.js";
import type { DaemonStatus } from "../shared/control/protocol.js";
import type { DemoRuntimeOptions } from "../shared/demo-replay/runtime.js";
import type { ConsoleMode, LogHub, Logger } from "../shared/base/log/logger.js";
import type { RotatingFile } from "../shared/base/log/rotating-file.js";
import { restartReason, type DataLocation } from "../shared/open-data.js";
import type { Paths } from "../shared/base/paths.js";
import type { AnySystemView, ReadModel } from "../shared/queries/read-model.js";
import type { GatewayProbe as HttpProbe } from "../shared/providers/contract.js";
import type { SourceResult } from "../shared/providers/result.js";
import type { Store } from "../shared/store/store.js";
import { VERSION } from "../shared/base/version.js";
import type { AlertService } from "./alerts/alert-service.js";
import type { DeliveryQueueOptions } from "./alerts/delivery-queue.js";
import { controlHandlers } from "./control/handlers.js";
import { ControlServer } from "./control/server.js";
import type { StreamLimits } from "./graphql/stream-limits.js";
import type { HealthBody } from "./http/routes/health.js";
import type { PidLock } from "./lifecycle/pid-file.js";
import type { LiveEvents } from "./live/live-events.js";
import type { QuietGc, QuietGcOptions } from "./quiet-gc.js";
import { applyReload, reloadConfig, type ReloadParts } from "./reload.js";
import { shutdown, type ShutdownParts } from "./shutdown.js";
import type { SnapshotServiceOptions } from "./snapshot/service.js";
import { baseUrl, daemonStatus, healthBody, type StatusParts } from "./status.js";
import { Upkeep } from "./upkeep.js";
import { openBase } from "./wire-base.js";
import { openDaemonData, type LateParts } from "./wire-data.js";
import { apiToken, createHttp, serveHttp } from "./wire-http.js";
import { startServices } from "./wire-services.js";

type Env = Record<string, string | undefined>;

export interface DaemonOptions {
  paths: Paths;
  env?: Env;
  flags?: Flags;
  clock?: Clock;
  /** Console output; default pretty on a TTY, JSON lines otherwise. */
  console?: ConsoleMode;
  /** Started by `insightsctl start`: go quiet on the console once ready (nobody reads it then). */
  detached?: boolean;
  /** Replaces the gateway's HTTP probe (tests). */
  probeHttp?: (url: string) => Promise<SourceResult<HttpProbe>>;
  /** Off in tests that have no gateway to ask (channel RPC, `openclaw update status`). */
  channels?: boolean;
  updates?: boolean;
  /** The peer address of a request; default its socket's (tests inject a remote one). */
  peerOf?: (req: IncomingMessage) => string | undefined;
  /** Caps on live GraphQL operations and WebSockets (tests use small ones; defaults in stream-limits.ts). */
  graphqlLimits?: Partial<StreamLimits>;
  /** Snapshot seams (tests): a source refresh that hangs, a renderer that fails or waits. */
  snapshotSeams?: Pick<SnapshotServiceOptions, "refresh" | "render">;
  /** Demo replay seams (tests): its timers and random source. */
  demoReplay?: Pick<DemoRuntimeOptions, "timers" | "random">;
  /** Alert delivery seams (tests): transport, tries, backoff, queue bounds. */
  alertDelivery?: DeliveryQueueOptions;
  /** Wait after a change before alert rules are evaluated (default 1000 ms). */
  alertDebounceMs?: number;
  /** The OTLP push's interval in ms, replacing otlpIntervalSeconds (tests). */
  otlpIntervalMs?: number;
  /** The quiet collection's seams (tests: its periodic check and the collection). */
  quietGc?: QuietGcOptions;
  /** Collector pace overrides (tests). */
  scanMs?: number;
  logMs?: number;
  cronMs?: number;
  /** How often the providers' candidate dirs are looked at for data that appeared (default 3000 ms; restartReason). */
  discoveryMs?: number;
}

/** How the daemon ended: `restart` when real data appeared and it must be opened again (run.ts starts it anew). */
interface DaemonEnd {
  restart: boolean;
  /** The port it listened on: a restart keeps the address. */
  port: number;
}

/** What the daemon is made of; the shutdown closes the parts it names in its own order. */
interface Parts extends ShutdownParts {
  loaded: LoadedConfig;
  hub: LogHub;
  logFile: RotatingFile;
  pid: PidLock;
  /** OpenClaw's state dir; null when OpenClaw is not read. */
  location: DataLocation | null;
  /** The bundled demo state is served (no provider's data found). */
  demoMode: boolean;
  clock: Clock;
  model: ReadModel;
  address: { host: string; port: number };
  /** The collection once the daemon is quiet: its periodic check ends with the daemon. */
  quiet: QuietGc;
  startedAt: number;
}

type Options = DaemonOptions & { env: Env; flags: Flags };

export class Daemon {
  private stopping: Promise<void> | null = null;
  private restarting = false;
  private readonly upkeep: Upkeep;
  private resolveDone!: (end: DaemonEnd) => void;
  /** Resolves when the daemon has fully stopped; `restart` says it stopped to start again on new data. */
  readonly done = new Promise<DaemonEnd>((resolve) => (this.resolveDone = resolve));

  private constructor(
    private readonly p: Parts,
    private readonly options: Options,
  ) {
    this.upkeep = new Upkeep({
      store: p.store,
      model: p.model,
      alerts: p.alerts,
      clock: p.clock,
      config: () => this.config,
      log: this.log,
      restartReason: () => restartReason({ demo: p.demoMode, location: p.location }, this.config, options.env),
      onRestart: (reason) => {
        this.restarting = true;
        void this.stop(`restart: ${reason}`);
      },
      discoveryMs: options.discoveryMs ?? 3000,
    });
  }

  get config(): Config {
    return this.p.loaded.config;
  }

  get log(): Logger {
    return this.p.hub.logger.child("daemon");
  }

  /** The read model every interface asks. */
  get model(): ReadModel {
    return this.p.model;
  }

  /** The store (tests simulate a full disk on it). */
  get store(): Store {
    return this.p.store;
  }

  /** Alerting: rules, evaluation, notifications. */
  get alerts(): AlertService {
    return this.p.alerts;
  }

  /** The live event fan-out the subscriptions read (tests push entries into it). */
  get live(): LiveEvents {
    return this.p.live;
  }

  get address(): { host: string; port: number } {
    return this.p.address;
  }

  static async start(input: DaemonOptions): Promise<Daemon> {
    const options: Options = { ...input, env: input.env ?? process.env, flags: input.flags ?? {} };
    const { paths } = options;
    const base = openBase(options);
    const { loaded, hub, log, cleanup } = base;
    const { config } = loaded;
    try {
      const token = apiToken(paths, loaded, log);
      // Filled in as the parts come up; the callbacks read them later, at request time.
      const late: LateParts & { daemon?: Daemon } = {};
      const daemon = (): Daemon => late.daemon as Daemon;
      const current = (): Config => late.daemon?.config ?? config;
      const { data, demo } = await openDaemonData({ paths, config, env: options.env, hub, clock: options.clock, seams: options, demoReplay: options.demoReplay, late, cleanup });
      const { clock, collector, model } = data;
      const web = createHttp({ config, paths, token, clock, injectedClock: options.clock, peerOf: options.peerOf, hub });
      late.http = web.http;
      const services = startServices({ data, config, current, hub, cleanup, alertDelivery: options.alertDelivery, alertDebounceMs: options.alertDebounceMs, snapshotSeams: options.snapshotSeams });
      Object.assign(late, { alerts: services.alerts, snapshots: services.snapshots, intake: services.intake });
      const serving = await serveHttp({ ...web, ...services, config, current, hub, collector, model, health: () => daemon().health(), cleanup, graphqlLimits: options.graphqlLimits, quietGc: options.quietGc, otlpIntervalMs: options.otlpIntervalMs });
      const handlers = controlHandlers({ daemon, config, current, token, clock, hub, collector, model, alerts: services.alerts, snapshots: services.snapshots, intake: services.intake });
      const control = new ControlServer({ socketPath: paths.socketFile, logger: hub.logger.child("control"), ...handlers });
      await control.listen();
      if (control.replacedStaleSocket) log.warn("removed a stale control socket left by a crashed daemon", { socket: paths.socketFile });
      // What the status line left while no daemon ran: taken in (and the spool emptied) once the installs are known.
      void services.intake.takeSpool(paths.statuslineSpoolFile, () => model.ready);
      const { location, store, startedAt } = data;
      late.daemon = new Daemon({ ...base, ...services, ...serving, location, demoMode: data.demo, clock, store, collector, model, demo, http: web.http, control, startedAt }, options);
      late.daemon.begin();
      return late.daemon;
    } catch (err) {
      log.error("start failed", { error: errorMessage(err) });
      await cleanup.run();
      throw err;
    }
  }

  /** Every part is up: collect, evaluate, keep up; then say so. */
  private begin(): void {
    const { collector, location, loaded } = this.p;
    collector.start();
    this.p.alerts.start();
    this.upkeep.start();
    this.log.info("started", {
      version: VERSION,
      pid: process.pid,
      url: this.baseUrl(),
      demo: this.p.demoMode,
      providers: collector.registry.readProviders().map((p) => p.name),
      openclawDir: location?.dir ?? null,
      auth: loaded.config.noAuth ? "none" : "token",
    });
    if (this.options.detached) {
      // The parent `insightsctl start` stops reading our stderr once /health answers.
      process.stderr.on("error", () => undefined);
      this.p.hub.setConsole("off");
    }
  }

  baseUrl(): string {
    return baseUrl(this.p.address);
  }

  /** GET /health (status.ts). */
  health(systems?: readonly AnySystemView[]): HealthBody {
    return healthBody(this.statusParts(), systems);
  }

  status(): DaemonStatus {
    return daemonStatus(this.statusParts());
  }

  private statusParts(): StatusParts {
    const { model, store, clock, demoMode, location, startedAt, address } = this.p;
    return { model, store, clock, config: this.config, env: this.options.env, paths: this.options.paths, demoMode, openclawDir: location?.dir ?? null, startedAt, address };
  }

  /** SIGHUP: re-read config.json (env and flags as at start); apply what can change live. */
  reload(): { applied: string[]; needsRestart: string[] } {
    const { hub, logFile, collector, alerts } = this.p;
    const parts: ReloadParts = { configFile: this.options.paths.configFile, env: this.options.env, flags: this.options.flags, current: this.config, hub, logFile, collector, alerts, runRetentionNow: () => this.upkeep.runRetentionNow(), log: this.log };
    const reloaded = reloadConfig(parts);
    this.p.loaded = reloaded.loaded;
    applyReload(parts, reloaded);
    return { applied: reloaded.applied, needsRestart: reloaded.needsRestart };
  }

  /** Stops accepting, lets in-flight work finish within the grace period, closes everything. */
  stop(reason: string): Promise<void> {
    if (this.stopping) return this.stopping;
    this.stopping = (async () => {
      const log = this.log;
      log.info("stopping", { reason });
      this.upkeep.stop();
      this.p.quiet.stop();
      await shutdown(this.p, this.config.shutdownGraceSeconds * 1000, log);
      this.p.pid.release();
      log.info("stopped");
      this.p.hub.close();
      this.resolveDone({ restart: this.restarting, port: this.p.address.port });
    })();
    return this.stopping;
  }
}
