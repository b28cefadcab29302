// The long-lived process: owns the config, logger, store, collector, HTTP server and control
// socket, starts them in order and stops them in reverse with a bounded drain.
import type { IncomingMessage } from "node:http";
import { ConfigError, InsightsError, errorMessage } from "../shared/errors.js";
import { systemClock, type Clock } from "../shared/clock.js";
import { loadConfig, type Flags, type LoadedConfig } from "../shared/config/load.js";
import { OPTIONS, OPTION_KEYS, type Config, type OptionKey } from "../shared/config/options.js";
import { effectiveHostName } from "../shared/config/host-name.js";
import type { DaemonStatus } from "../shared/control/protocol.js";
import { startDemoRuntime, type DemoRuntime, type DemoRuntimeOptions } from "../shared/demo-replay/runtime.js";
import { withDeadline, type Collector } from "../shared/ingest/collector.js";
import { LogHub, type ConsoleMode, type Logger } from "../shared/log/logger.js";
import { isLevel, levelRank, type Level } from "../shared/log/record.js";
import { RotatingFile } from "../shared/log/rotating-file.js";
import { openData, providerLookedAt, restartReason } from "../shared/open-data.js";
import { MAX_SOCKET_PATH, type Paths } from "../shared/paths.js";
import { ensurePrivateDir } from "../shared/private-files.js";
import type { ReadModel } from "../shared/queries/read-model.js";
import type { GatewayState, HealthVerdict } from "../shared/queries/system.js";
import { parseUsageParams } from "../shared/queries/usage-report.js";
import { parseExportParams } from "../shared/queries/export.js";
import { isGatewaySystem, type AnySystemView } from "../shared/queries/read-model.js";
import type { GatewayProbe as HttpProbe } from "../shared/sources/gateway/http-probe.js";
import type { OpenclawLocation } from "../shared/sources/locate-openclaw.js";
import type { SourceResult } from "../shared/sources/result.js";
import { runRetention } from "../shared/store/retention.js";
import { INCIDENT_SHOWN_MS, type Store } from "../shared/store/store.js";
import { VERSION } from "../shared/version.js";
import { FailureLimiter } from "./auth/failure-limiter.js";
import { createAuthCheck, createAuthGuard } from "./auth/guard.js";
import { openSessionKeyRing } from "./auth/key-ring-file.js";
import { ensureToken } from "./auth/token.js";
import { tokensEqual } from "./auth/authenticate.js";
import { LiveEvents, logMatches } from "./live/live-events.js";
import type { LogLevel } from "../shared/sources/contract.js";
import { GatewayOperations } from "./operations/gateway-operations.js";
import type { StreamLimits } from "./graphql/stream-limits.js";
import { QUIET_MS, QuietGc, type QuietGcOptions } from "./quiet-gc.js";
import { RenderPool } from "./snapshot/render-pool.js";
import { SnapshotService, type SnapshotServiceOptions } from "./snapshot/service.js";
import { cliSnapshotParams } from "../shared/snapshot/cli-params.js";
import { toSnapshotReply } from "../shared/snapshot/reply.js";
import { ControlServer } from "./control/server.js";
import { hasCapability } from "../shared/sources/registry.js";
import { StatuslineIntake } from "./statusline/intake.js";
import { acquirePidFile, type PidLock } from "./lifecycle/pid-file.js";
import { metricsDeps, mountRoutes } from "./http/mount-routes.js";
import { buildExposition } from "./http/routes/metrics.js";
import type { OtlpPush } from "./metrics/otlp.js";
import type { HealthBody } from "./http/routes/health.js";
import { HttpServer } from "./http/server.js";
import { AlertService, type Caller } from "./alerts/alert-service.js";
import { readModelInputs } from "./alerts/read-model-inputs.js";
import { activeAlertFigures } from "./alerts/figures.js";
import type { DeliveryQueueOptions } from "./alerts/delivery-queue.js";

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
export interface DaemonEnd {
  restart: boolean;
  /** The port it listened on: a restart keeps the address. */
  port: number;
}

/** What the daemon is made of, in start order. */
interface Parts {
  loaded: LoadedConfig;
  hub: LogHub;
  logFile: RotatingFile;
  pid: PidLock;
  store: Store;
  /** OpenClaw's state dir; null when OpenClaw is not read. */
  location: OpenclawLocation | null;
  /** The bundled demo state is served (no provider's data found). */
  demoMode: boolean;
  clock: Clock;
  token: string;
  collector: Collector;
  /** Demo mode: the demo gateway and the replay. */
  demo: DemoRuntime | null;
  model: ReadModel;
  live: LiveEvents;
  alerts: AlertService;
  interfaces: { close(): Promise<void> };
  snapshots: SnapshotService;
  renderPool: RenderPool;
  http: HttpServer;
  control: ControlServer;
  address: { host: string; port: number };
  /** The OTLP push, when otlpEndpoint is set. */
  otlp: OtlpPush | null;
  /** The collection once the daemon is quiet: its periodic check ends with the daemon. */
  quiet: QuietGc;
}

const HOUR = 3_600_000;

const VERDICT_WORD: Record<HealthVerdict, HealthBody["status"]> = { STARTING: "starting", OK: "ok", DEGRADED: "degraded", UNHEALTHY: "unhealthy" };
const GATEWAY_WORD: Record<GatewayState, HealthBody["gateway"]> = { UP: "up", DOWN: "down", DEMO: "demo", UNKNOWN: "unknown" };

export class Daemon {
  private stopping: Promise<void> | null = null;
  private retentionTimer: NodeJS.Timeout | null = null;
  private discoveryTimer: NodeJS.Timeout | null = null;
  private restarting = false;
  private readonly startedAt: number;
  private resolveDone!: (end: DaemonEnd) => void;
  /** Resolves when the daemon has fully stopped; `restart` says it stopped to start again on new data. */
  readonly done = new Promise<DaemonEnd>((resolve) => (this.resolveDone = resolve));

  private constructor(
    private readonly p: Parts,
    private readonly options: DaemonOptions & { env: Env; flags: Flags },
    startedAt: number,
  ) {
    this.startedAt = startedAt;
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
    const options = { ...input, env: input.env ?? process.env, flags: input.flags ?? {} };
    const { paths } = options;
    const loaded = loadConfig({ configFile: paths.configFile, env: options.env, flags: options.flags });
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
    const hub = new LogHub({ level: config.logLevel, file: logFile, ...(options.console ? { console: options.console } : {}) });
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
    const cleanup: Array<() => void | Promise<void>> = [() => pid.release(), () => hub.close()];
    try {
      const { token, origin: tokenOrigin } = ensureToken(paths.tokenFile, config.token);
      if (tokenOrigin === "generated") log.info("generated a new API token", { file: paths.tokenFile });
      if (config.metricsToken !== null && tokensEqual(config.metricsToken, token)) {
        throw new ConfigError("metricsToken", "<hidden>", loaded.origins.metricsToken === "env" ? `env ${OPTIONS.metricsToken.env}` : paths.configFile, "a token other than the API token (the scrape token is read-only)");
      }
      if (config.metricsToken !== null && config.noAuth) log.warn("metricsToken is ignored in no-auth mode: /metrics answers loopback peers without a token");

      // Filled in as the parts come up; the callbacks below read them later, at request time.
      let daemon: Daemon | undefined;
      let snapshotsRef: SnapshotService | undefined;
      let httpRef: HttpServer | undefined;
      let alertsRef: AlertService | undefined;
      let intakeRef: StatuslineIntake | undefined;
      const data = openData({
        paths,
        config,
        current: () => daemon?.config ?? config,
        env: options.env,
        logger: hub.logger,
        ...(options.clock ? { clock: options.clock } : {}),
        collector: {
          ...(options.scanMs ? { scanMs: options.scanMs } : {}),
          ...(options.logMs ? { logMs: options.logMs } : {}),
          ...(options.cronMs ? { cronMs: options.cronMs } : {}),
          ...(options.probeHttp ? { probeHttp: options.probeHttp } : {}),
          ...(options.channels !== undefined ? { channels: options.channels } : {}),
          ...(options.updates !== undefined ? { updates: options.updates } : {}),
        },
        daemon: () => ({
          authMode: (daemon?.config.noAuth ?? config.noAuth) ? "none" : "token",
          url: daemon?.baseUrl() ?? null,
          requestsTotal: httpRef?.requestsTotal ?? 0,
          renderQueue: snapshotsRef?.queueStats() ?? null,
        }),
        // The status card shows the alerts firing now; the service starts below.
        alerts: () => (alertsRef ? activeAlertFigures(alertsRef, data.clock.now()) : []),
        // Claude Code's plan windows without a reading: why (no status line, an API-key login).
        rateLimitsMissing: (_provider, ids) => intakeRef?.missing(ids) ?? null,
      });
      cleanup.unshift(() => data.close());
      const { location, clock, store, collector, model, startedAt } = data;
      if (data.demo) log.info("no provider's data found (OpenClaw, Claude Code, Codex); serving the bundled demo state", { dir: location?.dir });
      const demo =
        location?.demo && location.installed
          ? await startDemoRuntime({ stateDir: location.dir, installed: location.installed, clock, logger: hub.logger, replay: true, ...options.demoReplay })
          : null;
      if (demo) cleanup.unshift(() => demo.stop());

      // Auth runs on real time even in demo mode (whose clock replays the recording), so the saved
      // session keys' ages mean the same after a restart.
      const authClock = options.clock ?? systemClock;
      const ring = openSessionKeyRing({
        file: paths.sessionKeysFile,
        token,
        now: authClock.now(),
        rotateMs: config.sessionRotateHours * HOUR,
        graceMs: config.sessionGraceHours * HOUR,
        logger: hub.logger.child("auth"),
      });
      const limiter = new FailureLimiter();
      const peerOf = options.peerOf ?? ((req: IncomingMessage) => req.socket.remoteAddress);
      const auth = { token, metricsToken: config.metricsToken, noAuth: config.noAuth, ring, limiter, clock: authClock, peerOf };
      const authCheck = createAuthCheck({ ...auth, logger: hub.logger.child("auth") });
      const guard = createAuthGuard(authCheck);
      const http = new HttpServer({ host: config.host, port: config.port, logger: hub.logger.child("http"), clock, guard });
      httpRef = http;
      const live = new LiveEvents({ clock, logger: hub.logger.child("live") });
      collector.onChange((source) => live.changed(source));
      const alerts = new AlertService({
        store,
        clock,
        logger: hub.logger.child("alerts"),
        config: () => (daemon?.config ?? config).alerts,
        defaultTimeZone: model.timeZone,
        inputs: (now, timeZone) => readModelInputs(model, store, { now, timeZone, rawDays: (daemon?.config ?? config).retentionRawDays }),
        ...(options.alertDelivery ? { delivery: options.alertDelivery } : {}),
        ...(options.alertDebounceMs !== undefined ? { debounceMs: options.alertDebounceMs } : {}),
      });
      alertsRef = alerts;
      cleanup.unshift(() => alerts.close());
      // Every change re-evaluates the rules (debounced); evaluation only reads, delivery is queued.
      collector.onChange(() => alerts.changed());
      collector.onLogEntry((entry) => live.log(entry));
      // Claude Code's plan windows, handed over by `insightsctl statusline` (daemon/statusline/intake.ts).
      const intake = new StatuslineIntake({
        store,
        model,
        clock,
        logger: hub.logger.child("statusline"),
        countWarning: (source, w) => collector.registry.source(source)?.countWarnings([w]),
        changed: (source) => {
          live.changed(source);
          alerts.changed();
        },
      });
      intakeRef = intake;
      const operations = new GatewayOperations({
        clock,
        logger: hub.logger.child("operations"),
        command: () => daemon?.config.openclawCommand ?? config.openclawCommand,
        env: () => ({ ...process.env, ...(location ? { OPENCLAW_STATE_DIR: location.dir } : {}) }),
        refuse: () => (!location ? "OpenClaw is not read here: there is no gateway to control" : location.demo ? "demo mode: there is no gateway to control" : null),
        onFinished: (name) => {
          if (name === "update") void collector.gateway?.recheckUpdates();
        },
      });
      const renderPool = new RenderPool({
        size: config.renderConcurrency,
        logger: hub.logger.child("render"),
        idleMs: config.renderIdleSeconds * 1000,
        renderTimeoutMs: config.totalTimeoutSeconds * 1000,
      });
      cleanup.unshift(() => renderPool.close());
      const snapshots = new SnapshotService({
        model,
        collector,
        clock,
        logger: hub.logger.child("snapshot"),
        concurrency: config.renderConcurrency,
        maxQueue: config.renderQueueMax,
        queueWaitMs: config.renderQueueWaitSeconds * 1000,
        collectTimeoutMs: config.collectTimeoutSeconds * 1000,
        totalTimeoutMs: config.totalTimeoutSeconds * 1000,
        ratePerMinute: config.snapshotRateLimitPerMinute,
        maxBytes: config.snapshotMaxBytes,
        render: (card, format) => renderPool.render(card, format),
        renderPages: (card, maxHeightPx) => renderPool.renderPages(card, maxHeightPx),
        // A test's own renderer needs no worker warming beside it.
        ...(options.snapshotSeams?.render ? {} : { prepareRender: () => renderPool.prepare() }),
        ...options.snapshotSeams,
      });
      snapshotsRef = snapshots;
      const interfaces = await mountRoutes({
        http,
        model,
        live,
        alerts,
        operations,
        snapshots,
        session: { ...auth, logger: hub.logger.child("auth") },
        authCheck,
        health: () => (daemon as Daemon).health(),
        hostName: () => effectiveHostName(daemon?.config ?? config),
        peerOf,
        logger: hub.logger,
        ...(options.graphqlLimits ? { graphqlLimits: options.graphqlLimits } : {}),
      });
      cleanup.unshift(() => interfaces.close());
      const address = await http.listen();
      cleanup.unshift(() => http.close(0).then(() => undefined));
      // Memory back once nobody asks anything for a while (quiet-gc.ts says why).
      // Sources idle as long as the daemon hand back what they keep for their next change first.
      const quiet = new QuietGc({ release: () => collector.registry.releaseAtRest(options.quietGc?.quietMs ?? QUIET_MS), ...options.quietGc });
      http.raw.on("request", () => quiet.touch());
      http.raw.on("upgrade", () => quiet.touch());
      quiet.start();
      cleanup.unshift(() => quiet.stop());

      // The SDK is loaded only when a push is configured (docs/fleet.md "OTLP push").
      let otlp: OtlpPush | null = null;
      if (config.otlpEndpoint !== null) {
        const { startOtlpPush } = await import("./metrics/otlp.js");
        const deps = metricsDeps({ http, model, live, snapshots, alerts, hostName: () => effectiveHostName(daemon?.config ?? config) });
        otlp = startOtlpPush({
          endpoint: config.otlpEndpoint,
          intervalMs: options.otlpIntervalMs ?? config.otlpIntervalSeconds * 1000,
          hostName: effectiveHostName(config),
          version: VERSION,
          families: () => buildExposition(deps).families(),
          logger: hub.logger.child("otlp"),
        });
        const push = otlp;
        cleanup.unshift(async () => void (await push.stop()));
      }

      const control = new ControlServer({
        socketPath: paths.socketFile,
        logger: hub.logger.child("control"),
        calls: {
          ping: () => ({ pong: true, pid: process.pid }),
          status: () => (daemon as Daemon).status(),
          "dashboard.url": () => ({ url: `${(daemon as Daemon).baseUrl()}/?token=${encodeURIComponent(token)}` }),
          shutdown: (params) => {
            const by = typeof params.by === "string" ? params.by : "control socket";
            setImmediate(() => void (daemon as Daemon).stop(`shutdown requested by ${by}`));
            return { stopping: true, pid: process.pid };
          },
          reload: () => (daemon as Daemon).reload(),
          "alerts.list": () => ({ active: alerts.activeAlerts(), rules: alerts.ruleViews(), channels: alerts.channelViews() }),
          "alerts.test": (params) => alerts.testChannel(requireString(params, "channel"), CONTROL_CALLER),
          "alerts.mute": (params) => {
            const rule = requireString(params, "rule");
            if (params.until === null) {
              // Whether there was a mute to end, so `alerts mute --off` can say what it did.
              const was = alerts.rule(rule);
              const wasMuted = was !== null && was.mutedUntil !== null && was.mutedUntil > clock.now();
              return { ...alerts.unmute(rule, CONTROL_CALLER), wasMuted };
            }
            return alerts.mute(rule, typeof params.until === "number" ? params.until : NaN, CONTROL_CALLER);
          },
          // `insightsctl usage`: as without a daemon, one pass over the sources within the collect
          // budget, then the report (shared/queries/usage-report.ts, docs/usage.md).
          usage: async (params) => {
            const p = parseUsageParams(params, model.timeZone, config.weekStart);
            await withDeadline(collector.run("agents"), config.collectTimeoutSeconds * 1000);
            return model.usageReport(p);
          },
          // `insightsctl export`: daily rows per source, model and project (shared/queries/export.ts, docs/fleet.md).
          export: async (params) => {
            const p = parseExportParams(params, "UTC");
            await withDeadline(collector.run("agents"), config.collectTimeoutSeconds * 1000);
            return model.exportReport(p, effectiveHostName(daemon?.config ?? config));
          },
          // `insightsctl statusline`: Claude Code's plan windows, after every message (docs/statusline.md).
          "statusline.report": (params) => intake.report(params),
          snapshot: async (params) => {
            const quick = params.quick === true;
            const p = cliSnapshotParams({ ...stringParams(params), quick });
            return toSnapshotReply(await snapshots.snapshot(p, { client: null, via: "cli" }, { quick }));
          },
        },
        streams: {
          // The gateway's log through the daemon (`insightsctl logs --gateway`): the stored tail, then live lines.
          "gateway.logs.follow": (params, emit, end) => {
            const level = typeof params.level === "string" ? params.level.toUpperCase() : "INFO";
            const backlog = typeof params.backlog === "number" ? Math.max(0, Math.min(1000, params.backlog)) : 50;
            if (backlog > 0) for (const e of model.gatewayLog(backlog, level)) emit(e);
            if (params.follow !== true) {
              end();
              return () => undefined;
            }
            return collector.onLogEntry((entry) => {
              const e = { time: new Date(entry.timeMs).toISOString(), level: entry.level, module: entry.module, message: entry.message, agentId: entry.agentId, sessionKey: entry.sessionKey };
              if (logMatches(e, { level: level as LogLevel })) emit(e);
            });
          },
          "logs.follow": (params, emit) => {
            const level: Level = isLevel(params.level) ? params.level : "trace";
            const backlog = typeof params.backlog === "number" ? Math.max(0, Math.min(1000, params.backlog)) : 0;
            for (const r of hub.recent(backlog, level)) emit(r);
            return hub.subscribe((r) => {
              if (levelRank(r.level) >= levelRank(level)) emit(r);
            });
          },
        },
      });
      await control.listen();
      if (control.replacedStaleSocket) log.warn("removed a stale control socket left by a crashed daemon", { socket: paths.socketFile });

      daemon = new Daemon({ loaded, hub, logFile, pid, store, location, demoMode: data.demo, clock, token, collector, demo, model, live, alerts, interfaces, snapshots, renderPool, http, control, address, otlp, quiet }, options, startedAt);
      collector.start();
      alerts.start();
      // What the status line left while no daemon ran: taken in (and the spool emptied) once the installs are known.
      void intake.takeSpool(paths.statuslineSpoolFile, () => model.ready);
      daemon.scheduleRetention();
      daemon.scheduleDiscovery();
      log.info("started", {
        version: VERSION,
        pid: process.pid,
        url: daemon.baseUrl(),
        demo: data.demo,
        providers: collector.registry.readProviders().map((p) => p.name),
        openclawDir: location?.dir ?? null,
        auth: config.noAuth ? "none" : "token",
      });
      if (options.detached) {
        // The parent `insightsctl start` stops reading our stderr once /health answers.
        process.stderr.on("error", () => undefined);
        hub.setConsole("off");
      }
      return daemon;
    } catch (err) {
      log.error("start failed", { error: errorMessage(err) });
      for (const fn of cleanup) {
        try {
          await fn();
        } catch {
          // keep cleaning
        }
      }
      throw err;
    }
  }

  baseUrl(): string {
    const { host, port } = this.p.address;
    const shown = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
    return `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}`;
  }

  /**
   * GET /health. Its status is the one health verdict (shared/queries/health.ts) over the same
   * checks GraphQL `system.health` reports, so the two can never disagree.
   */
  health(systems: readonly AnySystemView[] = this.p.model.systems()): HealthBody {
    const overall = this.p.model.overallHealth(systems);
    const store = overall.checks.find((c) => c.name === "store");
    const openclaw = systems.find(isGatewaySystem);
    return {
      status: VERDICT_WORD[overall.verdict],
      version: VERSION,
      uptimeSeconds: Math.floor((this.p.clock.now() - this.startedAt) / 1000),
      demo: this.p.demoMode,
      gateway: openclaw ? GATEWAY_WORD[openclaw.gateway.state] : "none",
      providers: systems.map((s) => s.provider),
      store: store?.status === "FAIL" ? "error" : "ok",
      ...this.storeIncident(),
      lookedAt: providerLookedAt(this.config, this.options.env),
    };
  }

  private storeIncident(): Pick<HealthBody, "storeIncident"> {
    const inc = this.p.store.incident;
    if (!inc || (inc.state === "recovered" && this.p.clock.now() - inc.at >= INCIDENT_SHOWN_MS)) return {};
    return { storeIncident: { kind: inc.kind, state: inc.state, noticedAt: new Date(inc.at).toISOString(), lost: inc.lost !== null } };
  }

  status(): DaemonStatus {
    const { store, location } = this.p;
    const storeHealth = store.health();
    const systems = this.p.model.systems();
    const overall = this.p.model.overallHealth(systems);
    const h = this.health(systems);
    const gw = systems.find(isGatewaySystem)?.gateway ?? null;
    const { paths } = this.options;
    const allAgents = this.p.model.agents();
    return {
      running: true,
      pid: process.pid,
      version: VERSION,
      startedAt: new Date(this.startedAt).toISOString(),
      uptimeSeconds: h.uptimeSeconds,
      url: this.baseUrl(),
      demo: this.p.demoMode,
      health: h.status,
      openclawDir: location?.dir ?? null,
      stateDir: paths.stateDir,
      configFile: paths.configFile,
      socket: paths.socketFile,
      logFile: paths.logFile,
      auth: this.config.noAuth ? "none" : "token",
      gateway: {
        state: h.gateway,
        up: gw?.running ?? false,
        url: gw?.url ?? null,
        checkedAt: gw?.checkedAt ?? null,
        latencyMs: gw?.latencyMs ?? null,
        error: gw?.error ?? null,
        pid: gw?.pid ?? null,
        version: gw?.version ?? null,
      },
      healthLevel: overall.status,
      healthReasons: overall.reasons.map((c) => ({ name: c.name, status: c.status, message: c.message })),
      sources: this.p.model.sources().map((s) => ({ id: s.id, status: s.status, lastError: s.lastError })),
      providers: systems.map((sys) => {
        const agents = allAgents.filter((a) => a.provider === sys.provider);
        return {
          provider: sys.provider,
          health: VERDICT_WORD[sys.health.verdict],
          versions: isGatewaySystem(sys) ? (sys.gateway.version ? [sys.gateway.version] : []) : sys.versions,
          sources: agents.length,
          sessions: agents.reduce((n, a) => n + a.sessions.length, 0),
          liveSessions: agents.reduce((n, a) => n + a.live.length, 0),
          // The plan's windows where the provider records them, and why there are none when there are none.
          ...(!isGatewaySystem(sys) && hasCapability(sys.provider, "rateLimits")
            ? { rateLimits: sys.rateLimits, rateLimitsNote: sys.rateLimits.length ? null : (sys.health.checks.find((c) => c.name === "rate-limit")?.message ?? null) }
            : {}),
        };
      }),
      store: { ok: storeHealth.ok, path: store.path, sizeBytes: store.sizeBytes(), schemaVersion: store.schemaVersion, error: storeHealth.error ?? null },
      lookedAt: h.lookedAt,
    };
  }

  /** SIGHUP: re-read config.json (env and flags as at start); apply what can change live. */
  reload(): { applied: string[]; needsRestart: string[] } {
    let next: LoadedConfig;
    try {
      next = loadConfig({ configFile: this.options.paths.configFile, env: this.options.env, flags: this.options.flags, atStart: false });
    } catch (err) {
      this.log.error("reload refused: the config is invalid; keeping the running config", { error: errorMessage(err) });
      throw err;
    }
    // Object values (prices, alerts) are compared by content: a reload of an unchanged file changes nothing.
    const changed = OPTION_KEYS.filter((k) => !sameValue(this.config[k], next.config[k]));
    const applied = changed.filter((k: OptionKey) => OPTIONS[k].reloadable);
    const needsRestart = changed.filter((k: OptionKey) => !OPTIONS[k].reloadable);
    this.p.loaded = next;
    const c = next.config;
    this.p.hub.setLevel(c.logLevel);
    this.p.logFile.setOptions({ maxBytes: c.logMaxBytes, maxFiles: c.logMaxFiles });
    this.p.collector.gateway?.setSampleInterval(c.sampleIntervalSeconds * 1000);
    if (applied.includes("retentionRawDays") || applied.includes("retentionRollupDays")) this.runRetentionNow();
    if (applied.includes("alerts")) this.p.alerts.reload();
    this.log.info("config reloaded", { applied, needsRestart });
    if (needsRestart.length) this.log.warn("some changes take effect only after a restart", { keys: needsRestart });
    return { applied, needsRestart };
  }

  /** Stops accepting, lets in-flight work finish within the grace period, closes everything. */
  stop(reason: string): Promise<void> {
    if (this.stopping) return this.stopping;
    this.stopping = (async () => {
      const log = this.log;
      log.info("stopping", { reason });
      if (this.retentionTimer) clearInterval(this.retentionTimer);
      if (this.discoveryTimer) clearInterval(this.discoveryTimer);
      this.p.quiet.stop();
      const graceMs = this.config.shutdownGraceSeconds * 1000;
      const graceEnds = Date.now() + graceMs;
      // Ending the live streams first lets their HTTP responses finish instead of holding the drain.
      this.p.live.close();
      this.p.alerts.close();
      const [{ drained }] = await Promise.all([this.p.http.close(graceMs), this.p.control.close(), this.p.collector.stop()]);
      // A last push of the final figures, while the store is still open, within what is left of
      // the grace period: the SDK retries a Collector that is down for up to 10 s, which made every
      // stop and restart wait that long and end in the service manager's SIGTERM.
      if (this.p.otlp && !(await this.p.otlp.stop(Math.max(0, graceEnds - Date.now())))) {
        log.warn("the last OTLP push did not finish within the grace period and was abandoned", { graceMs });
      }
      await this.p.demo?.stop().catch((err: unknown) => log.warn("stopping the demo failed", { error: errorMessage(err) }));
      await this.p.interfaces.close().catch((err: unknown) => log.warn("closing GraphQL failed", { error: errorMessage(err) }));
      await this.p.renderPool.close();
      if (!drained) log.warn("in-flight requests did not finish within the grace period and were cut", { graceMs });
      try {
        this.p.store.close();
      } catch (err) {
        log.error("closing the store failed", { error: errorMessage(err) });
      }
      this.p.pid.release();
      log.info("stopped");
      this.p.hub.close();
      this.resolveDone({ restart: this.restarting, port: this.p.address.port });
    })();
    return this.stopping;
  }

  /**
   * Every few seconds, a stat of each provider's candidate dirs: real data that appeared beside the
   * demo, or an OpenClaw state dir where OpenClaw was not read, stops this daemon to start anew on
   * it (run.ts), as a start would have chosen. New Claude Code and Codex installs need no restart.
   */
  private scheduleDiscovery(): void {
    const check = (): void => {
      if (this.stopping) return;
      let reason: string | null;
      try {
        reason = restartReason({ demo: this.p.demoMode, location: this.p.location }, this.config, this.options.env);
      } catch (err) {
        this.log.warn("looking for new provider data failed", { error: errorMessage(err) });
        return;
      }
      if (!reason) return;
      this.log.info("new provider data: starting again to read it", { reason });
      this.restarting = true;
      void this.stop(`restart: ${reason}`);
    };
    this.discoveryTimer = setInterval(check, this.options.discoveryMs ?? 3000);
    this.discoveryTimer.unref();
  }

  private scheduleRetention(): void {
    this.runRetentionNow();
    this.retentionTimer = setInterval(() => this.runRetentionNow(), HOUR);
    this.retentionTimer.unref();
  }

  private runRetentionNow(): void {
    try {
      const r = runRetention(this.p.store, { rawDays: this.config.retentionRawDays, rollupDays: this.config.retentionRollupDays }, this.p.clock.now());
      // Rows moved from raw to hourly and were pruned without any source reporting a change.
      this.p.model.storeRewritten();
      // Alert history lives as long as the hourly rollups.
      Object.assign(r.deleted, this.p.alerts.prune(this.config.retentionRollupDays));
      const deleted = Object.values(r.deleted).reduce((a, b) => a + b, 0);
      if (deleted > 0) this.log.info("retention removed old rows", r.deleted);
    } catch (err) {
      this.log.error("retention job failed", { error: errorMessage(err) });
    }
  }
}

/** Who asks through the control socket: the daemon's own user (the socket is 0600). */
const CONTROL_CALLER: Caller = { auth: "control-socket", peer: "" };

function requireString(params: Record<string, unknown>, name: string): string {
  const v = params[name];
  if (typeof v !== "string" || v === "") throw new InsightsError("INVALID_PARAM", `${name}: a non-empty string`);
  return v;
}

/** Config values compared by content (JSON objects from the file), not by identity. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The string-valued snapshot flags of a control request (anything else is left for the parser to refuse). */
function stringParams(params: Record<string, unknown>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const k of ["detail", "format", "range", "theme", "lang"]) {
    const v = params[k];
    if (v !== undefined && v !== null) out[k] = String(v);
  }
  return out;
}
