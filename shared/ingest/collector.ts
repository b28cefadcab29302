// Everything that reads the providers, on one schedule (design §1 "sources -> store"): every
// provider's sources (sessions and transcripts, through the source registry) and, when a provider
// with a gateway (OpenClaw) is read, its gateway side through the contract's gateway capability:
// the gateway's file log, cron jobs and the gateway monitor. While it runs,
// each source's files are also watched (change-watch.ts): a change refreshes that source alone at
// once, and the poll is the fallback for what a watch misses or cannot do. The daemon
// starts it once and keeps it running; `insightsctl snapshot` without a daemon calls
// `collectOnce` to bring the same store up to date in-process. Each job runs on its own timer,
// never overlaps itself, never throws past itself, and reports what changed through `onChange`
// (a source id such as `agent:<id>` or `claude-code:<name>`, or `system` for the gateway, its
// resources and channels).
import type { Clock } from "../base/clock.js";
import { errorMessage } from "../base/errors.js";
import type { Logger } from "../base/log/logger.js";
import type { SourceResult } from "../providers/result.js";
import type { CronData, GatewayMonitor, GatewayProbe, GatewaySide, Provider, ProviderName } from "../providers/contract.js";
import { GATEWAY_PROVIDER, hasCapability, providerIdentity } from "../providers/registry.js";
import type { Store } from "../store/store.js";
import { ChangeWatcher, fsWatchFactory, type WatchFactory } from "./change-watch.js";
import { LogIngester, type IngestedEntry } from "./log-ingester.js";
import { SourceRegistry, type SourceRegistryOptions } from "./source-registry.js";

/** The id `dataChanged` carries for gateway-wide state (system namespace). */
const SYSTEM_SOURCE = "system";

/**
 * What a change came from: a source's refresh (its sessions, transcripts and usage), new gateway
 * log lines, the cron jobs, the gateway monitor, or how a source's changes are detected (watching
 * or polling, for its health check). `dataChanged` does not tell them apart; the
 * read model does, to keep what a log line cannot change.
 */
type ChangeCause = "sources" | "logs" | "cron" | "gateway" | "detection";

export interface CronState {
  data: CronData | null;
  error: string | null;
  checkedAt: number | null;
}

export interface CollectorOptions {
  /** Every provider read (the gateway side's provider included when it is). */
  providers: readonly Provider[];
  /** The providers shown from the start (default all); the others once one of their sources appears. */
  shown?: readonly ProviderName[];
  /** The gateway capability's side, opened on the located install; null when no gateway is read. */
  gatewaySide: GatewaySide | null;
  /** Our own state dir (the gateway RPC device identity lives there). */
  stateDir: string;
  store: Store;
  clock: Clock;
  logger: Logger;
  /** The environment the gateway's CLI would see (its state dir and token variables, HOME, ...). */
  env?: Record<string, string | undefined>;
  /** config.gatewayUrl, read on every probe so a reload applies. */
  gatewayUrl: () => string | null;
  /** config.openclawCommand: the gateway's CLI for the channel fallback and the update check. */
  openclawCommand?: () => string;
  /** Gateway liveness and resource sample interval (sampleIntervalSeconds). */
  sampleMs: number;
  /** How often agents are rediscovered and transcripts scanned (the poll; default 2 s). */
  scanMs?: number;
  /** How sources' directories are watched for changes (default fs.watch); null: the poll only. */
  watch?: WatchFactory | null;
  /** Gathering time of a burst of watch events before the one refresh (default 20 ms). */
  watchDebounceMs?: number;
  /** Directories watched at most (default 4096); a source beyond it is polled. */
  maxWatchedDirs?: number;
  /**
   * A source whose files are watched is read by every this-many-th poll only (default 15: every
   * 30 s at the 2 s poll), a safety net for a change the watch missed; one that is polled only, or
   * not caught up yet, is read by every poll.
   */
  watchedPollEvery?: number;
  /** How often the gateway log is read. */
  logMs?: number;
  cronMs?: number;
  /** Test seams, passed to the gateway monitor. */
  probeHttp?: (url: string) => Promise<SourceResult<GatewayProbe>>;
  channels?: boolean;
  updates?: boolean;
  /** Zone of cron expressions without tz (the gateway host's); default this process's. */
  hostTimeZone?: string;
  /** How far each source's full passes got (the CLI's first read shows it). */
  scanProgress?: SourceRegistryOptions["scanProgress"];
}

interface CollectResult {
  /** Jobs that failed or did not finish within the budget. */
  degraded: string[];
  ms: number;
}

type Job = "agents" | "logs" | "cron" | "gateway";

export class Collector {
  readonly registry: SourceRegistry;
  /** The gateway side's monitor; null when no gateway is read. */
  readonly gateway: GatewayMonitor | null;
  private readonly logs: LogIngester | null;
  private cronState: CronState = { data: null, error: null, checkedAt: null };
  private cronSignature = "";
  private readonly running = new Map<Job, Promise<void>>();
  private readonly changeListeners = new Set<(source: string, cause: ChangeCause) => void>();
  private readonly entryListeners = new Set<(entry: IngestedEntry) => void>();
  private timers: NodeJS.Timeout[] = [];
  private started = false;
  private watcher: ChangeWatcher | null = null;

  constructor(private readonly options: CollectorOptions) {
    const { store, clock, logger } = options;
    this.registry = new SourceRegistry({
      providers: options.providers,
      ...(options.shown ? { shown: options.shown } : {}),
      ...(options.scanProgress ? { scanProgress: options.scanProgress } : {}),
      store,
      clock,
      logger: logger.child("sources"),
    });
    this.registry.onChange((id) => this.emit(id, "sources"));
    const side = options.gatewaySide;
    this.gateway = side
      ? side.monitor({
          store,
          clock,
          logger: logger.child("gateway"),
          stateDir: options.stateDir,
          gatewayUrl: options.gatewayUrl,
          ...(options.openclawCommand ? { command: options.openclawCommand } : {}),
          ...(options.env ? { env: options.env } : {}),
          sampleMs: options.sampleMs,
          ...(options.probeHttp ? { probeHttp: options.probeHttp } : {}),
          ...(options.channels !== undefined ? { channels: options.channels } : {}),
          ...(options.updates !== undefined ? { updates: options.updates } : {}),
          onChange: () => this.emit(SYSTEM_SOURCE, "gateway"),
        })
      : null;
    this.logs = side
      ? new LogIngester({
          store,
          clock,
          logger: logger.child("gateway-log"),
          format: side.log,
          // Re-resolved on every read: the config may move the file, and a dated name moves at midnight.
          resolveActivePath: (now) => side.activeLogPath(now),
          onEntry: (e) => {
            for (const fn of this.entryListeners) fn(e);
          },
        })
      : null;
  }

  get cron(): CronState {
    return this.cronState;
  }

  /** The gateway side read (the read model asks it for the gateway's default agent); null when none. */
  get gatewaySide(): GatewaySide | null {
    return this.options.gatewaySide;
  }

  /** A source changed (`agent:<id>` or `system`). */
  onChange(fn: (source: string, cause: ChangeCause) => void): () => void {
    this.changeListeners.add(fn);
    return () => this.changeListeners.delete(fn);
  }

  /** Every parsed gateway log line, any level, as it is read (the live `logs` stream). */
  onLogEntry(fn: (entry: IngestedEntry) => void): () => void {
    this.entryListeners.add(fn);
    return () => this.entryListeners.delete(fn);
  }

  /** Starts the timers; the first pass of each job starts at once, agents first (the log path comes from their config read). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.startWatching();
    const every = (ms: number, job: Job): void => {
      const t = setInterval(() => void this.run(job), ms);
      t.unref();
      this.timers.push(t);
    };
    void this.run("agents").then(() => {
      if (!this.options.gatewaySide) return;
      void this.run("logs");
      void this.run("cron");
    });
    every(this.options.scanMs ?? 2000, "agents");
    if (this.gateway) {
      this.gateway.start();
      every(this.options.logMs ?? 1000, "logs");
      every(this.options.cronMs ?? 10_000, "cron");
    }
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.started = false;
    this.watcher?.close();
    this.watcher = null;
    await Promise.all([this.gateway?.stop(), ...this.running.values()]);
    // The refreshes watch events started (and any queued behind them) end before the readers close.
    await this.registry.settle();
    this.registry.close();
  }

  /**
   * One pass of every job, each bounded by `budgetMs` (the CLI without a daemon, and tests). A
   * job that fails or overruns is named in `degraded`; it keeps running in the background and
   * its result lands in the store when it ends.
   */
  async collectOnce(budgetMs: number): Promise<CollectResult> {
    const started = this.options.clock.now();
    const degraded: string[] = [];
    const bounded = async (job: Job): Promise<void> => {
      const outcome = await withDeadline(this.run(job), budgetMs);
      if (outcome === "timeout") degraded.push(job);
    };
    await bounded("agents");
    if (this.options.gatewaySide) await Promise.all([bounded("logs"), bounded("cron"), bounded("gateway")]);
    for (const p of this.options.providers) if (this.registry.providerError(p.name)) degraded.push(p.name);
    return { degraded: [...new Set(degraded)], ms: this.options.clock.now() - started };
  }

  /** Runs one job unless it is already running, in which case the caller joins the running pass. */
  run(job: Job): Promise<void> {
    let p = this.running.get(job);
    if (!p) {
      p = this.runJob(job)
        .catch((err: unknown) => this.options.logger.error("collector job failed", { job, error: errorMessage(err) }))
        .finally(() => this.running.delete(job));
      this.running.set(job, p);
    }
    return p;
  }

  private async runJob(job: Job): Promise<void> {
    switch (job) {
      case "agents": {
        const watcher = this.watcher;
        await this.registry.refresh(watcher ? { watched: (id) => watcher.state(id)?.mode === "watching", watchedEvery: this.options.watchedPollEvery ?? 15 } : {});
        this.syncWatches();
        return;
      }
      case "logs":
        return this.ingestLogs();
      case "cron":
        return this.readCronJobs();
      case "gateway":
        // A refresh asked for by a snapshot or the CLI; the timer's own samples make uptime %.
        return this.gateway?.tick({ record: false });
    }
  }

  private startWatching(): void {
    const watch = this.options.watch === undefined ? fsWatchFactory : this.options.watch;
    if (!watch) return;
    const { clock, logger } = this.options;
    this.watcher = new ChangeWatcher({
      watch,
      clock,
      logger: logger.child("watch"),
      ...(this.options.watchDebounceMs !== undefined ? { debounceMs: this.options.watchDebounceMs } : {}),
      ...(this.options.maxWatchedDirs !== undefined ? { maxDirs: this.options.maxWatchedDirs } : {}),
      // Only the source whose files changed is read again (only the files named, when its reader can
      // tell which transcripts they are); the rest wait for their own change or the poll.
      onChange: (id, hint) => void this.registry.refreshSource(id, hint).catch((err: unknown) => logger.error("refresh after a change failed", { source: id, error: errorMessage(err) })),
      onState: (id, state) => {
        const source = this.registry.source(id);
        if (!source) return;
        source.detection = state;
        // The `detection` health check of its provider reads it.
        this.emit(id, "detection");
      },
    });
  }

  /** After each poll pass: every source's watches follow its targets (new sources, a root that appeared, a retry). */
  private syncWatches(): void {
    const watcher = this.watcher;
    if (!watcher) return;
    for (const id of this.registry.sourceIds()) {
      const source = this.registry.source(id);
      if (!source) continue;
      try {
        watcher.sync(id, source.watchTargets());
      } catch (err) {
        this.options.logger.error("change detection sync failed", { source: id, error: errorMessage(err) });
      }
    }
  }

  private async ingestLogs(): Promise<void> {
    const logs = this.logs;
    if (!logs) return;
    const touched = new Set<string>();
    let gatewayWide = false;
    // A line naming an agent belongs to that agent's source of the gateway provider.
    const gatewayPrefix = GATEWAY_PROVIDER ? providerIdentity(GATEWAY_PROVIDER).sourcePrefix : "";
    const off = this.onLogEntry((e) => {
      if (e.agentId) touched.add(`${gatewayPrefix}${e.agentId}`);
      else gatewayWide = true;
    });
    try {
      const r = await logs.ingest();
      if (r.error && r.error.kind !== "missing") this.options.logger.debug("gateway log unreadable", { error: r.error.message });
    } finally {
      off();
    }
    // Gateway-wide lines belong to every gateway agent's event log.
    const ids = gatewayWide ? this.gatewaySourceIds() : [...touched];
    for (const id of ids) this.emit(id, "logs");
  }

  private gatewaySourceIds(): string[] {
    return this.registry.agentSnapshots().filter((a) => hasCapability(a.provider, "gateway")).map((a) => a.id);
  }

  private async readCronJobs(): Promise<void> {
    const side = this.options.gatewaySide;
    if (!side) return;
    const now = this.options.clock.now();
    const read = side.readCron({ nowMs: now, ...(this.options.hostTimeZone ? { hostTimeZone: this.options.hostTimeZone } : {}) });
    const next: CronState = read.ok ? { data: read.value, error: null, checkedAt: now } : { data: this.cronState.data, error: read.error.message, checkedAt: now };
    // nextRunAt moves with the clock for computed schedules; compare what a reader would notice.
    const signature = JSON.stringify([next.error, next.data?.jobs.map((j) => [j.id, j.enabled, j.lastRunAt, j.lastStatus, j.consecutiveErrors, j.name])]);
    this.cronState = next;
    if (signature !== this.cronSignature) {
      this.cronSignature = signature;
      for (const id of this.gatewaySourceIds()) this.emit(id, "cron");
    }
  }

  private emit(source: string, cause: ChangeCause): void {
    for (const fn of this.changeListeners) {
      try {
        fn(source, cause);
      } catch (err) {
        this.options.logger.error("change listener failed", { source, error: errorMessage(err) });
      }
    }
  }
}

/** Waits for `p` at most `ms`; what it does after that goes on in the background. */
export async function withDeadline(p: Promise<void>, ms: number): Promise<"done" | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
    timer.unref();
  });
  try {
    return await Promise.race([p.then(() => "done" as const), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
