// Watches the gateway process from outside (design §4): its lock file (pid, port, start), its
// /healthz and /readyz, the CPU % and RSS of its process tree, the state dir's disk use, its
// version, channel connectivity over the WebSocket RPC (CLI as fallback) and update
// availability. Every probe has a timeout and runs on a timer, never on a request path; a dead
// or slow gateway only changes what the snapshot says. Each sample is stored for uptime %.
import { join } from "node:path";
import { errorMessage } from "../../../base/errors.js";
import { directoryUsage, filesystemSpace } from "../../../base/disk-usage.js";
import { probeGateway as httpProbe } from "./http-probe.js";
import { findGatewayLock, type GatewayLock } from "./lock-file.js";
import { isProcessAlive, ProcessTreeSampler } from "../../../base/proc-stats.js";
import { UpdateStatusChecker } from "./update-status.js";
import { probeChannelsWithFallback } from "../gateway-rpc/cli-fallback.js";
import { resolveGatewayAuth } from "../gateway-rpc/gateway-auth.js";
import { GatewayRpcClient } from "../gateway-rpc/rpc-client.js";
import { readSchemaMeta } from "../agent-db.js";
import type { OpenClawState } from "../state-dir.js";
import type { GatewayMonitor as GatewayMonitorContract, GatewayMonitorOptions, GatewayView, SystemSnapshot } from "../../gateway-contract.js";
import { GATEWAY_ERROR_TEXT } from "../../../i18n/gateway-text.js";
import { VERSION } from "../../../base/version.js";

/** The contract's options, and what OpenClaw's monitor reads of the install it watches. */
export interface OpenClawMonitorOptions extends Omit<GatewayMonitorOptions, "command"> {
  openclawDir: string;
  demo: boolean;
  /** The latest OpenClaw config read (port, auth token); null while unreadable. */
  openclaw: () => OpenClawState | null;
  channelsMs?: number;
  diskMs?: number;
  /** The openclaw CLI (config openclawCommand) for the channel fallback and the update check. */
  openclawCommand?: () => string;
}

/** How long an `openclaw update status` answer is reused. */
const UPDATE_TTL_MS = 6 * 3_600_000;

const EMPTY_GATEWAY: GatewayView = {
  running: false,
  url: null,
  port: null,
  pid: null,
  startedAt: null,
  uptimeSeconds: null,
  version: null,
  latencyMs: null,
  error: null,
  ready: null,
  failing: [],
  eventLoopDelayMs: null,
  eventLoopDegraded: null,
  updateAvailable: null,
  latestVersion: null,
};

export class GatewayMonitor implements GatewayMonitorContract {
  private timers: NodeJS.Timeout[] = [];
  private sampleTimer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private firstDone = false;
  private readonly sampler: ProcessTreeSampler;
  /** Made on first use and again when the command or the config path changes (a reload). */
  private updates: { key: string; checker: UpdateStatusChecker } | null = null;
  private channelsProbe: Promise<void> | null = null;
  private updateCheck: Promise<void> | null = null;
  private rpc: GatewayRpcClient | null = null;
  private rpcUrl: string | null = null;
  private state: SystemSnapshot;

  constructor(private options: OpenClawMonitorOptions) {
    this.sampler = new ProcessTreeSampler({ clock: options.clock });

    this.state = {
      demo: options.demo,
      checkedAt: null,
      gateway: { ...EMPTY_GATEWAY },
      resources: { cpuPercent: null, memoryMB: null, diskMB: null, diskFreeMB: null, diskUsedPercent: null, sampledAt: null },
      channels: { list: [], checkedAt: null, error: null, rpcLatencyMs: null, source: null, ...(options.channels === false ? { off: true } : {}) },
    };
  }

  snapshot(): SystemSnapshot {
    return this.state;
  }

  /** True once the first probe has finished. */
  get ready(): boolean {
    return this.firstDone;
  }

  start(): void {
    const every = (ms: number, fn: () => Promise<void>): NodeJS.Timeout => {
      void fn();
      const t = setInterval(() => void fn(), ms);
      t.unref();
      this.timers.push(t);
      return t;
    };
    this.sampleTimer = every(this.options.sampleMs, () => this.tick());
    every(this.options.diskMs ?? 5 * 60_000, () => this.sampleDisk());
    // The demo has a gateway too (shared/providers/openclaw/demo/gateway.ts), probed like any other.
    if (this.options.channels !== false) every(this.options.channelsMs ?? 30_000, () => this.probeChannels());
    if (!this.options.demo && this.options.updates !== false) every(60 * 60_000, () => this.checkUpdates());
  }

  /** A new sampleIntervalSeconds (SIGHUP): the liveness timer restarts at the new pace. */
  setSampleInterval(ms: number): void {
    this.options = { ...this.options, sampleMs: ms };
    if (!this.sampleTimer) return;
    clearInterval(this.sampleTimer);
    this.timers = this.timers.filter((t) => t !== this.sampleTimer);
    this.sampleTimer = setInterval(() => void this.tick(), ms);
    this.sampleTimer.unref();
    this.timers.push(this.sampleTimer);
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.sampleTimer = null;
    // The probes may have a CLI running; it has its own deadline, and stop waits for it.
    await Promise.all([this.running, this.channelsProbe, this.updateCheck]);
    await this.rpc?.close();
    this.rpc = null;
  }

  /**
   * One liveness + resource sample; overlapping ticks join the running one. `record: false` (a
   * snapshot asking for fresh figures) leaves it out of the stored samples, so uptime % stays an
   * even sample over time.
   */
  tick({ record = true }: { record?: boolean } = {}): Promise<void> {
    this.running ??= this.sample(record).finally(() => (this.running = null));
    return this.running;
  }

  private baseUrl(lock: GatewayLock | null): { url: string; port: number } | null {
    const configured = this.options.gatewayUrl();
    if (configured) {
      const u = new URL(configured);
      return { url: configured, port: Number(u.port) || (u.protocol === "https:" ? 443 : 80) };
    }
    // The demo's gateway is only ever where its live lock says: a port from the config could be a
    // real gateway's (18789), and the demo must never show a real gateway as its own.
    const port = lock?.port ?? (this.options.demo ? null : this.options.openclaw()?.gatewayPort) ?? null;
    return port ? { url: `http://127.0.0.1:${port}`, port } : null;
  }

  private async sample(record: boolean): Promise<void> {
    const { clock, logger, store } = this.options;
    const now = clock.now();
    const before = this.state.gateway;
    let gateway: GatewayView;
    let cpu: number | null = null;
    let rss: number | null = null;
    let probed = false;
    try {
      const version = this.version();
      const configPath = this.options.openclaw()?.configPath;
      const lockRead = findGatewayLock(this.options.openclawDir, configPath ? { configPath } : {});
      // A lock left by a crashed gateway names a dead pid (or one reused by another process).
      const lock = lockRead.ok && lockRead.value && isProcessAlive(lockRead.value.pid, { startTime: lockRead.value.startTime }) ? lockRead.value : null;
      const target = this.baseUrl(lock);
      const probe = target ? await (this.options.probeHttp ?? ((u: string) => httpProbe(u)))(target.url) : null;
      const live = probe?.ok === true && probe.value.live.live;
      if (lock?.pid && live) {
        const stats = this.sampler.sample(lock.pid);
        if (stats.ok) {
          cpu = stats.value.cpuPercent === null ? null : Math.round(stats.value.cpuPercent * 10) / 10;
          rss = Math.round(stats.value.rssMb * 10) / 10;
        }
      }
      const ready = probe?.ok ? probe.value.ready : null;
      const startedAt = ready?.uptimeMs != null ? now - ready.uptimeMs : (lock?.createdAtMs ?? null);
      gateway = {
        ...EMPTY_GATEWAY,
        running: live,
        url: target?.url ?? null,
        port: target?.port ?? null,
        pid: live ? (lock?.pid ?? null) : null,
        startedAt: live ? startedAt : null,
        uptimeSeconds: live && startedAt !== null ? Math.max(0, Math.floor((now - startedAt) / 1000)) : null,
        version: this.rpc?.hello?.serverVersion ?? version,
        latencyMs: probe?.ok ? Math.round(probe.value.live.roundTripMs * 10) / 10 : null,
        error: !target ? GATEWAY_ERROR_TEXT.noPort : probe && !probe.ok ? probe.error.message : live ? null : GATEWAY_ERROR_TEXT.notOk,
        ready: ready ? ready.ready : null,
        failing: ready?.failing ?? [],
        eventLoopDelayMs: ready?.eventLoop.delayP99Ms ?? null,
        eventLoopDegraded: ready?.eventLoop.degraded ?? null,
        updateAvailable: this.updates?.checker.peek()?.status.updateAvailable ?? null,
        latestVersion: this.updates?.checker.peek()?.status.latestVersion ?? null,
      };
      probed = true;
    } catch (err) {
      logger.error("gateway probe failed", { error: errorMessage(err) });
      gateway = { ...before, running: false, error: errorMessage(err) };
    }
    // Storing the sample is the store's business: a full disk fails it (and the store reports
    // ingestion stalled), it does not make the gateway look down.
    if (record && probed) {
      const g = gateway;
      try {
        store.transaction(() =>
          store.db
            .prepare("INSERT INTO gateway_samples (ts, up, pid, cpu_percent, rss_mb, latency_ms) VALUES (?, ?, ?, ?, ?, ?)")
            .run(now, g.running ? 1 : 0, g.pid, cpu, rss, g.latencyMs),
        );
      } catch (err) {
        logger.debug("could not store the gateway sample", { error: errorMessage(err) });
      }
    }
    this.state = {
      ...this.state,
      checkedAt: now,
      gateway,
      resources: { ...this.state.resources, cpuPercent: cpu, memoryMB: rss, sampledAt: now },
    };
    if (before.running !== gateway.running || !this.firstDone) {
      if (gateway.running) logger.info("gateway is up", { url: gateway.url, pid: gateway.pid, version: gateway.version });
      else logger.warn("gateway is down", { url: gateway.url, error: gateway.error });
      // Channels are probed on their own slower timer; a gateway that just came up is asked now.
      if (gateway.running && this.timers.length && this.options.channels !== false) void this.probeChannels();
    }
    this.firstDone = true;
    this.options.onChange?.();
  }

  /** The gateway's version as its state DB records it (cheap; no CLI). */
  private version(): string | null {
    const meta = readSchemaMeta(join(this.options.openclawDir, "state", "openclaw.sqlite"));
    return meta.ok ? meta.value.appVersion : null;
  }

  private async sampleDisk(): Promise<void> {
    const dir = this.options.openclawDir;
    const [usage, space] = await Promise.all([directoryUsage(dir), filesystemSpace(this.options.stateDir)]);
    const mb = (b: number): number => Math.round((b / (1024 * 1024)) * 10) / 10;
    this.state = {
      ...this.state,
      resources: {
        ...this.state.resources,
        diskMB: usage.ok ? mb(usage.value.bytes) : null,
        diskFreeMB: space.ok ? mb(space.value.availableBytes) : null,
        diskUsedPercent: space.ok ? Math.round(space.value.usedPercent * 10) / 10 : null,
      },
    };
  }

  /** One channel probe at a time: against a hung gateway one takes longer than the probe interval. */
  private probeChannels(): Promise<void> {
    this.channelsProbe ??= this.doProbeChannels().finally(() => (this.channelsProbe = null));
    return this.channelsProbe;
  }

  private async doProbeChannels(): Promise<void> {
    const { url, port } = this.state.gateway;
    const target = this.options.demo ? (url && port ? { url, port } : null) : this.baseUrl(null);
    if (!target || !this.state.gateway.running) return;
    const wsUrl = target.url.replace(/^http/, "ws");
    if (!this.rpc || this.rpcUrl !== wsUrl) {
      void this.rpc?.close();
      const config = this.options.openclaw()?.config ?? {};
      this.rpc = new GatewayRpcClient({
        url: wsUrl,
        stateDir: this.options.stateDir,
        auth: resolveGatewayAuth(config, this.options.env ?? process.env),
        clientVersion: VERSION,
        connectTimeoutMs: 10_000,
        requestTimeoutMs: 10_000,
        clock: this.options.clock,
      });
      this.rpcUrl = wsUrl;
    }
    const result = await probeChannelsWithFallback(this.rpc, {
      rpc: { timeoutMs: 10_000, clock: this.options.clock },
      cli: { timeoutMs: 30_000, port: target.port, openclawBin: this.options.openclawCommand?.() ?? "openclaw", env: this.cliEnv() },
    });
    const now = this.options.clock.now();
    this.state = {
      ...this.state,
      channels: result.ok
        ? { list: result.value.channels, checkedAt: now, error: null, rpcLatencyMs: result.value.rpcLatencyMs, source: result.value.source }
        : { ...this.state.channels, checkedAt: now, error: result.error.message },
    };
    if (!result.ok) this.options.logger.debug("channel probe failed", { error: result.error.message });
    this.options.onChange?.();
  }

  /** After an update ran: forget the cached answer and ask again. */
  recheckUpdates(): Promise<void> {
    this.updates = null;
    return this.options.demo || this.options.updates === false ? Promise.resolve() : this.checkUpdates();
  }

  /** The env the openclaw CLI runs with: pointed at the watched state dir and config. */
  private cliEnv(): NodeJS.ProcessEnv {
    const configPath = this.options.openclaw()?.configPath;
    return { ...process.env, ...this.options.env, OPENCLAW_STATE_DIR: this.options.openclawDir, ...(configPath ? { OPENCLAW_CONFIG_PATH: configPath } : {}) };
  }

  private checkUpdates(): Promise<void> {
    this.updateCheck ??= (async () => {
      const command = this.options.openclawCommand?.() ?? "openclaw";
      const env = this.cliEnv();
      const key = `${command}|${env.OPENCLAW_CONFIG_PATH ?? ""}`;
      // The timer asks hourly; the answer (the CLI asks the npm registry) is kept for 6 hours,
      // or until recheckUpdates() after an update.
      if (this.updates?.key !== key) this.updates = { key, checker: new UpdateStatusChecker({ clock: this.options.clock, command, env, ttlMs: UPDATE_TTL_MS }) };
      const r = await this.updates.checker.get();
      if (!r.ok) this.options.logger.debug("update check failed", { error: r.error.message });
    })().finally(() => (this.updateCheck = null));
    return this.updateCheck;
  }
}
