// The read model every interface asks (GraphQL, REST snapshot, MCP, CLI, web): one object over
// the store, the collector's live state and the clock. Interfaces never read provider files or
// the store themselves; they call these methods, naming a source by its id (`agent:main`,
// `claude-code:default`), and get plain objects back.
import type { Message } from "../i18n/message.js";
import type { Clock } from "../base/clock.js";
import { InsightsError } from "../base/errors.js";
import type { AgentSnapshot, AgentSource } from "../ingest/agent-source.js";
import type { Collector } from "../ingest/collector.js";
import { dirname } from "node:path";
import { filesystemSpaceSync } from "../base/disk-usage.js";
import { GATEWAY_PROVIDER, hasCapability, PROVIDER_NAMES, type ProviderWith } from "../providers/registry.js";
import type { Store } from "../store/store.js";
import { queryEventTotals, queryModelCounters, type ModelCounter } from "./counters.js";
import { queryCronJobs, type CronJobView } from "./cron.js";
import { queryEventCounts, queryEventDensity, queryEvents, queryLogs, type EventCounts, type EventScope, type EventDensityBucket, type EventsArgs, type EventView, type LogEntryView } from "./events.js";
import { lifetimeStatsOf, queryLifetimeRow, type LifetimeStats } from "./lifetime.js";
import {
  assembleMetrics,
  lastRowId,
  metricsWindow,
  rawFromOf,
  queryLastActivity,
  queryLifetimeTokens,
  queryWindowEvents,
  queryWindowProbes,
  queryWindowUsage,
  windowKey,
  type Metrics,
  type MetricsRange,
  type MetricsWindow,
} from "./metrics.js";
import { deepFreeze, SourceCache, type Computed } from "./read-cache.js";
import { countsAt, countViews, findSession, sessionFilterKey, sessionsAt, type SessionCounts, type SessionFilter, type SessionView, type TotalsByKey } from "./sessions.js";
import { KeptTotals } from "./kept-totals.js";
import { agentSourceView, DASHBOARD_SOURCE_ID, dashboardSourceView, filterSources, selectSource, type DataSourceView, type SourceFilter, type SourceSelector } from "./sources.js";
import { querySystem, type SystemView } from "./system.js";
import { healthOf, type Health, type HealthCheck } from "./health.js";
import { queryProviderSystem, type ProviderSystemView } from "./provider-system.js";
import { queryUnpricedModels } from "./counters.js";
import { queryRateLimitHistory, queryRateLimits, type RateLimitSampleView } from "./rate-limits.js";
import type { CronJobInfo, CronRunInfo, ProviderName } from "../providers/contract.js";
import { safeTimeZone } from "./time.js";
import { querySessionTranscript, type SessionTranscript, type TranscriptArgs } from "./transcript.js";
import { queryProjects, type ProjectUsageView } from "./projects.js";
import { usageCostIn, usageCostWindow, type UsageCost } from "./usage-cost.js";
import type { UsageReportParams } from "./usage-params.js";
import { queryUsageReport, type UsageReport } from "./usage-report.js";
import { queryExport, type ExportParams, type ExportReport } from "./export.js";

/** Figures only the daemon has (its HTTP server and render queue); absent when the CLI renders in-process. */
export interface DaemonFigures {
  authMode: "token" | "none";
  url: string | null;
  requestsTotal: number;
  renderQueue: { active: number; queued: number; concurrency: number; maxQueue: number; rendersTotal: number; failuresTotal: number } | null;
}

/**
 * An alert firing now, as the daemon's alert service holds it (docs/alerting.md). Only the daemon
 * evaluates rules: it hands these in through `ReadModelOptions.alerts`, so the status card can
 * show them without shared/ depending on daemon/.
 */
export interface ActiveAlertFigure {
  ruleId: string;
  ruleName: string;
  /** "" for the rule's whole scope; else the session, check, window or model it is about. */
  subject: string;
  /** The subject in words (a session's name, a check's name). */
  label: string;
  metric: string;
  /** usd, tokens, count, percent or seconds. */
  unit: string;
  severity: "warning" | "critical";
  value: number;
  threshold: number;
  /** The rule's window (hour, day, week, month, primary, secondary); null for a metric without one. */
  window: string | null;
  /** Epoch ms. */
  since: number;
  /** Epoch ms the rule's mute ends; null when it is not muted. */
  mutedUntil: number | null;
  /** Calendar budgets: where the burn rate leads; null otherwise or once over. */
  projection: { target: number; projectedTotal: number; reachesAt: number | null; windowEnd: number } | null;
}

export interface DashboardView {
  id: string;
  version: string;
  /** The daemon's clock. */
  now: string;
  startedAt: string;
  uptimeSeconds: number;
  demo: boolean;
  openclawDir: string | null;
  /** The providers read, in A, B, C order. */
  providers: ProviderName[];
  authMode: "token" | "none" | null;
  url: string | null;
  requestsTotal: number | null;
  renderQueue: DaemonFigures["renderQueue"];
  store: { ok: boolean; path: string; sizeBytes: number; schemaVersion: number; error: string | null };
}

export interface ReadModelOptions {
  store: Store;
  collector: Collector;
  clock: Clock;
  appVersion: string;
  startedAt: number;
  demo: boolean;
  /** OpenClaw's state dir; null when OpenClaw is not read. */
  openclawDir: string | null;
  /** Zone for day and bucket labels when the caller names none; default this process's zone. */
  timeZone?: string;
  /** retentionRawDays, read per call so a reload applies. */
  rawDays: () => number;
  daemon?: () => DaemonFigures;
  /** The alerts firing now (the daemon's alert service); absent where no rules are evaluated. */
  alerts?: () => ActiveAlertFigure[];
  /** Why a provider's installs have no rate limits, when it can tell (the daemon's status-line intake). */
  rateLimitsMissing?: (provider: ProviderName, sourceIds: readonly string[]) => Message | null;
}

/** The cache's name for the gateway's own rows (probes): no source owns them. */
const GATEWAY_ROWS = "\u0000gateway";

/** Checks about gateway-insights itself, the same in every provider's system. */
const SHARED_CHECKS = new Set(["disk", "store"]);

/** The system of a provider with an agent gateway (OpenClaw's): the gateway's view. */
type GatewaySystemView = SystemView & { provider: ProviderWith<"gateway"> };
/** A gateway's view or another provider's, told apart by `provider`'s capabilities (isGatewaySystem). */
export type AnySystemView = GatewaySystemView | ProviderSystemView;

export function isGatewaySystem(sys: AnySystemView): sys is GatewaySystemView {
  return hasCapability(sys.provider, "gateway");
}

type Selected = { kind: "agent"; sourceId: string; agentId: string; source: DataSourceView } | { kind: "dashboard"; source: DataSourceView };

export class ReadModel {
  readonly timeZone: string;

  /**
   * Answers kept per source until that source writes (`kept`) or the collector reports a refresh
   * that changed it (only the collector writes a source's rows), until retention rewrites the
   * store, or until the clock makes them wrong (read-cache.ts).
   * New gateway log lines and cron reads change nothing kept here (the log events in metrics are
   * checked by row id), so those changes keep them. The listener is registered here, when the
   * read model is made: before any interface's listener, so a source's answers are dropped before
   * `dataChanged` announces its change.
   */
  private readonly cache = new SourceCache();
  private readonly totals: KeptTotals;

  constructor(private readonly o: ReadModelOptions) {
    this.totals = new KeptTotals(o.store);
    this.timeZone = safeTimeZone(o.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
    o.collector.onChange((source, cause) => {
      if (cause === "sources") this.cache.invalidate(source);
    });
  }

  /**
   * Forget every kept answer at once: retention pruned or rolled up rows. (Store.rewrites already
   * keeps them from being served; this frees their memory.)
   */
  storeRewritten(): void {
    this.cache.clear();
    this.totals.clear();
  }

  /** Hits and misses of the answer cache since start (for tests and the benchmark). */
  get cacheStats(): { hits: number; misses: number } {
    return { ...this.cache.stats };
  }

  /**
   * A kept answer about one source: besides `deps`, it holds only while the source has written
   * nothing since it was made (AgentSource.writes) and retention has not rewritten the store
   * (Store.rewrites). The change listener drops it too, but only once the refresh is over: a long
   * scan writes for minutes before that, and a refresh can write without announcing a change.
   */
  private kept<T>(sourceId: string, key: string, now: number, deps: readonly unknown[], compute: () => Computed<T>): T {
    return this.cache.get(sourceId, key, now, [this.o.store.rewrites, this.source(sourceId).writes, ...deps], compute);
  }

  /** Per-key sums of the source's transcript totals, read again only for the sessions written since (kept-totals.ts). */
  private totalsOf(sourceId: string): TotalsByKey {
    return this.totals.of(this.source(sourceId));
  }

  now(): number {
    return this.o.clock.now();
  }

  get demo(): boolean {
    return this.o.demo;
  }

  /** True once every agent finished its first transcript scan. */
  get ready(): boolean {
    return this.o.collector.registry.ready;
  }

  /** OpenClaw's gateway (ProviderASystem); null when OpenClaw is not read. */
  system(): SystemView | null {
    const { collector } = this.o;
    if (!collector.gateway) return null;
    return querySystem({
      snapshot: collector.gateway.snapshot(),
      agents: this.agents().filter((a) => hasCapability(a.provider, "gateway")),
      openclawError: this.openclawError(),
      store: this.o.store.health(),
      // Measured now: a disk that filled since the monitor's last sample must not look fine.
      disk: filesystemSpaceSync(dirname(this.o.store.path)),
      appVersion: this.o.appVersion,
    });
  }

  /** The providers read, in the interface's order (A, B, C). */
  providers(): ProviderName[] {
    const names = new Set(this.o.collector.registry.readProviders().map((p) => p.name));
    return PROVIDER_NAMES.filter((n) => names.has(n));
  }

  /** One provider's system namespace; without a provider, the first one read (A, B, C order). */
  systemOf(provider?: ProviderName | null): AnySystemView {
    const name = provider ?? this.providers()[0];
    if (!name || !this.providers().includes(name)) throw new InsightsError("NOT_FOUND", `${provider ?? "no provider"} is not read here; see systems for the ones that are`);
    if (hasCapability(name, "gateway")) {
      const sys = this.system();
      if (!sys) throw new InsightsError("NOT_FOUND", "OpenClaw's gateway is not watched here");
      return { ...sys, provider: name };
    }
    const agents = this.agents().filter((a) => a.provider === name);
    return queryProviderSystem({
      provider: name,
      demo: this.o.demo,
      agents,
      providerError: this.o.collector.registry.providerError(name)?.message ?? null,
      unpriced: queryUnpricedModels(this.o.store, agents.map((a) => a.id)),
      ...(hasCapability(name, "rateLimits")
        ? { rateLimits: queryRateLimits(this.o.store, agents.map((a) => a.id), this.now()), rateLimitsMissing: this.o.rateLimitsMissing?.(name, agents.map((a) => a.id)) ?? null }
        : {}),
      store: this.o.store.health(),
      disk: filesystemSpaceSync(dirname(this.o.store.path)),
    });
  }

  /** Used % of a source's rate-limit windows over the last `days` days (at most 30), oldest first; `limitId` picks a per-model window. */
  rateLimitHistory(sourceId: string, days = 7, limitId: string | null = null): RateLimitSampleView[] {
    this.source(sourceId);
    return queryRateLimitHistory(this.o.store, sourceId, this.now(), Math.min(30, Math.max(1, Math.floor(days))), limitId);
  }

  /** Every provider read. */
  systems(): AnySystemView[] {
    return this.providers().map((p) => this.systemOf(p));
  }

  /**
   * The daemon's one verdict (/health, `insightsctl status`) over every provider's checks: OpenClaw's
   * by their own names, the others' as `<provider>/<check>`, the shared disk and store checks once.
   */
  overallHealth(systems: readonly AnySystemView[] = this.systems()): Health {
    const checks: HealthCheck[] = [];
    const shared = new Set<string>();
    for (const sys of systems) {
      for (const c of sys.health.checks) {
        if (SHARED_CHECKS.has(c.name)) {
          if (shared.has(c.name)) continue;
          shared.add(c.name);
          checks.push(c);
        } else checks.push(isGatewaySystem(sys) ? c : { ...c, name: `${sys.provider}/${c.name}` });
      }
    }
    return healthOf(checks);
  }

  allSources(): DataSourceView[] {
    return [...this.agents().map(agentSourceView), dashboardSourceView(this.o.startedAt)];
  }

  sources(filter: SourceFilter = {}): DataSourceView[] {
    return filterSources(this.allSources(), filter);
  }

  select(selector: SourceSelector = {}): Selected {
    const source = selectSource(this.allSources(), selector);
    if (source.id === DASHBOARD_SOURCE_ID) return { kind: "dashboard", source };
    return { kind: "agent", sourceId: source.id, agentId: this.agent(source.id).agentId, source };
  }

  agents(): AgentSnapshot[] {
    return this.o.collector.registry.agentSnapshots();
  }

  /** The agent the gateway runs unaddressed work on: `default: true` in agents.list, else `main`, else the first. */
  defaultAgentId(): string | null {
    const agents = this.agents().filter((a) => hasCapability(a.provider, "gateway"));
    const marked = this.o.collector.gatewaySide?.configuredDefaultAgent();
    if (marked) return marked;
    return agents.find((a) => a.agentId === "main")?.agentId ?? agents[0]?.agentId ?? null;
  }

  agent(sourceId: string): AgentSnapshot {
    return this.source(sourceId).snapshot();
  }

  /**
   * Kept per filter until the source changes, its session list is replaced, or the clock moves a
   * session's status (the list is frozen: every caller shares it).
   */
  sessions(sourceId: string, filter: SessionFilter = {}): SessionView[] {
    const agent = this.agent(sourceId);
    const now = this.now();
    const totals = this.totalsOf(sourceId);
    return this.kept(sourceId, `sessions|${sessionFilterKey(filter)}`, now, [agent.sessions, totals], () => {
      const r = sessionsAt(agent, filter, now, totals);
      return { value: deepFreeze(r.value), validUntil: r.validUntil, weight: countViews(r.value) };
    });
  }

  /** How many sessions the agent has, by status: no list limit applies. */
  sessionCounts(sourceId: string): SessionCounts {
    const agent = this.agent(sourceId);
    const now = this.now();
    const totals = this.totalsOf(sourceId);
    return this.kept(sourceId, "session-counts", now, [agent.sessions, totals], () => {
      const r = countsAt(agent, now, totals);
      return { value: deepFreeze(r.value), validUntil: r.validUntil };
    });
  }

  session(sourceId: string, key: string): SessionView | null {
    const now = this.now();
    return findSession(this.o.store, this.agent(sourceId), key, now, this.totalsOf(sourceId));
  }

  /**
   * The store's parts of an answer are kept per window (the bucket grid, which moves with the
   * clock): usage until the source changes; its errors and warnings also until a log row is added;
   * the gateway's probes until one is added. Labels and totals are made per call.
   */
  metrics(sourceId: string, args: { range?: MetricsRange | null; date?: string | null; timeZone?: string | null; locale?: string | null } = {}): Metrics {
    const scope = this.scope(sourceId);
    const now = this.now();
    const timeZone = this.zone(args.timeZone);
    let w: MetricsWindow;
    try {
      w = metricsWindow(args.range ?? null, args.date ?? null, now, timeZone);
    } catch (err) {
      if (err instanceof RangeError) throw new InsightsError("BAD_USER_INPUT", err.message);
      throw err;
    }
    const { store } = this.o;
    // Retention deletes raw rows older than retentionRawDays, having rolled them up first: a window
    // reaching back before that reads the rollups there. Where that boundary lies is in the key
    // (it moves by the hour); a retention run drops every kept part (Store.rewrites).
    const rawFrom = rawFromOf(now, this.o.rawDays());
    const before = w.start < rawFrom ? `|${rawFrom}` : "";
    const part = <T>(owner: string, name: string, deps: readonly unknown[], read: () => T): T => {
      const key = `${name}|${windowKey(w)}${before}`;
      const compute = (): Computed<T> => ({ value: read() });
      // The gateway's probes are no source's: only their last row id tells a new one.
      return owner === GATEWAY_ROWS ? this.cache.get(owner, key, now, [store.rewrites, ...deps], compute) : this.kept(owner, key, now, deps, compute);
    };
    return assembleMetrics(
      w,
      {
        usage: part(sourceId, "usage", [], () => queryWindowUsage(store, sourceId, w, rawFrom)),
        events: part(sourceId, "events", [lastRowId(store, "log_events")], () => queryWindowEvents(store, scope, w)),
        // Uptime is the OpenClaw gateway's: other providers have no long-running process to probe.
        probes: hasCapability(scope.provider, "gateway") ? part(GATEWAY_ROWS, "probes", [lastRowId(store, "gateway_samples")], () => queryWindowProbes(store, w, rawFrom)) : null,
        lifetimeTokens: this.kept(sourceId, "lifetime-tokens", now, [], () => ({ value: queryLifetimeTokens(store, sourceId) })),
        lastActivity: this.kept(sourceId, "last-activity", now, [], () => ({ value: queryLastActivity(store, sourceId) })),
      },
      timeZone,
      args.locale ?? undefined,
    );
  }

  events(sourceId: string, args: EventsArgs = {}): EventView[] {
    try {
      return queryEvents(this.o.store, this.scope(sourceId), args);
    } catch (err) {
      if (err instanceof RangeError) throw new InsightsError("BAD_USER_INPUT", err.message);
      throw err;
    }
  }

  eventDensity(sourceId: string, timeZone?: string | null): EventDensityBucket[] {
    return queryEventDensity(this.o.store, this.scope(sourceId), this.now(), this.zone(timeZone));
  }

  eventCounts(sourceId: string, args: { from?: number | null; to?: number | null } = {}): EventCounts {
    return queryEventCounts(this.o.store, this.scope(sourceId), args);
  }

  lifetimeStats(sourceId: string): LifetimeStats {
    const agent = this.agent(sourceId);
    const now = this.now();
    return lifetimeStatsOf(
      this.kept(sourceId, "lifetime", now, [], () => ({ value: deepFreeze(queryLifetimeRow(this.o.store, sourceId)) })),
      agent,
      now,
    );
  }

  sessionTranscript(sourceId: string, args: TranscriptArgs): SessionTranscript {
    return querySessionTranscript(this.source(sourceId), args);
  }

  /**
   * Token use per working directory: over `range` (the metrics grid ending now), or every recorded
   * transcript. Kept per grid and limit until the source changes.
   */
  projects(sourceId: string, args: { range?: MetricsRange | null; limit?: number | null; timeZone?: string | null } = {}): ProjectUsageView[] {
    this.source(sourceId);
    const now = this.now();
    const range = args.range ?? null;
    const limit = args.limit ?? null;
    const timeZone = this.zone(args.timeZone);
    const rawDays = this.o.rawDays();
    const grid = range ? `${windowKey(metricsWindow(range, null, now, timeZone))}|${rawFromOf(now, rawDays)}` : "all";
    return this.kept(sourceId, `projects|${grid}|${limit}`, now, [], () => {
      const list = queryProjects(this.o.store, sourceId, { range, now, limit, timeZone, rawDays });
      return { value: deepFreeze(list), weight: list.length };
    });
  }

  cronJobs(sourceId: string): CronJobView[] {
    const s = this.agent(sourceId);
    // Cron is the agent gateway's: other providers have none (design §9).
    if (!hasCapability(s.provider, "gateway")) return [];
    return queryCronJobs(this.o.collector.cron, s.agentId, this.defaultAgentId() ?? s.agentId, this.now());
  }

  /** Kept per day window (zone, first day, where raw rows start, today) until the source changes or retention runs. */
  usageCost(sourceId: string, timeZone?: string | null): UsageCost {
    this.source(sourceId);
    const now = this.now();
    const w = usageCostWindow({ now, timeZone: this.zone(timeZone), rawDays: this.o.rawDays() });
    const key = `usage-cost|${w.timeZone}|${w.days}|${w.from}|${w.rawFrom}|${w.today}|${w.monthFrom}`;
    return this.kept(sourceId, key, now, [], () => ({ value: deepFreeze(usageCostIn(this.o.store, sourceId, w)) }));
  }

  /** Tokens and cost by day, month, session or project over every source in the store (`insightsctl usage`). */
  usageReport(params: UsageReportParams): UsageReport {
    // Sub-agents the transcripts do not name a parent for (OpenClaw's) are known from the session
    // index; only the session report asks, so the index is walked then and not for days or months.
    let parents: Map<string, string> | null = null;
    const parentOf = (source: string, key: string): string | null => {
      if (!parents) {
        parents = new Map();
        for (const a of this.agents()) for (const s of a.sessions) if (s.parentKey) parents.set(`${a.id}\u0000${s.key}`, s.parentKey);
      }
      return parents.get(`${source}\u0000${key}`) ?? null;
    };
    return queryUsageReport(this.o.store, params, { now: this.now(), rawDays: this.o.rawDays(), demo: this.o.demo, scanComplete: this.ready, parentOf });
  }

  /** Daily rows per source, model and project for a fleet's merge (`insightsctl export`, shared/queries/export.ts). */
  exportReport(params: ExportParams, host: string): ExportReport {
    return queryExport(this.o.store, params, { host, now: this.now(), rawDays: this.o.rawDays(), demo: this.o.demo, scanComplete: this.ready });
  }

  recentLogs(sourceId: string, count?: number | null, filter: { level?: string | null; module?: string | null } = {}): LogEntryView[] {
    return queryLogs(this.o.store, { scope: this.scope(sourceId), count, minLevel: filter.level ?? null, module: filter.module ?? null });
  }

  /** The gateway's stored log across all agents, newest last, at or above `minLevel` (TRACE..FATAL). */
  gatewayLog(count?: number | null, minLevel?: string): LogEntryView[] {
    return queryLogs(this.o.store, { count, minLevel: minLevel ?? "INFO" });
  }

  /** Why the OpenClaw state dir cannot be read, or null when it can. */
  openclawError(): string | null {
    return GATEWAY_PROVIDER ? this.providerError(GATEWAY_PROVIDER) : null;
  }

  /** Why a provider's data cannot be read at all (its dir is unreadable), or null when it can. */
  providerError(provider: ProviderName): string | null {
    return this.o.collector.registry.providerError(provider)?.message ?? null;
  }

  /** Every cron job of the gateway as last read; null when the cron store could not be read. */
  cronJobInfos(): CronJobInfo[] | null {
    const cron = this.o.collector.cron;
    return cron.data ? [...cron.data.jobs] : cron.error ? null : [];
  }

  /** The recent runs of every cron job as last read, per job id, newest first (for overdueSeconds). */
  cronRunInfos(): Record<string, CronRunInfo[]> {
    return { ...(this.o.collector.cron.data?.runs ?? {}) };
  }

  /** Lifetime tokens and cost per agent and model (Prometheus counters). */
  modelCounters(): ModelCounter[] {
    return queryModelCounters(this.o.store);
  }

  /** Classified gateway log events ever seen, per type (Prometheus counters). */
  eventTotals(): Record<"error" | "warning" | "restart", number> {
    return GATEWAY_PROVIDER ? queryEventTotals(this.o.store, GATEWAY_PROVIDER) : { error: 0, warning: 0, restart: 0 };
  }

  /** The alerts firing now; null where no rules are evaluated (a snapshot made without the daemon). */
  activeAlerts(): ActiveAlertFigure[] | null {
    return this.o.alerts ? this.o.alerts() : null;
  }

  dashboard(): DashboardView {
    const { store } = this.o;
    const health = store.health();
    const d = this.o.daemon?.();
    return {
      id: DASHBOARD_SOURCE_ID,
      version: this.o.appVersion,
      now: new Date(this.now()).toISOString(),
      startedAt: new Date(this.o.startedAt).toISOString(),
      uptimeSeconds: Math.max(0, Math.floor((this.now() - this.o.startedAt) / 1000)),
      demo: this.o.demo,
      openclawDir: this.o.openclawDir,
      providers: this.providers(),
      authMode: d?.authMode ?? null,
      url: d?.url ?? null,
      requestsTotal: d?.requestsTotal ?? null,
      renderQueue: d?.renderQueue ?? null,
      store: { ok: health.ok, path: store.path, sizeBytes: store.sizeBytes(), schemaVersion: store.schemaVersion, error: health.error ?? null },
    };
  }

  private zone(tz: string | null | undefined): string {
    if (!tz) return this.timeZone;
    if (safeTimeZone(tz) !== tz) throw new InsightsError("BAD_USER_INPUT", `timezone ${JSON.stringify(tz)} is not an IANA time zone (e.g. Europe/Berlin, UTC)`);
    return tz;
  }

  private scope(sourceId: string): EventScope {
    return { sourceId, provider: this.source(sourceId).provider };
  }

  private source(sourceId: string): AgentSource {
    const s = this.o.collector.registry.source(sourceId);
    if (!s) throw new InsightsError("NOT_FOUND", `no source ${sourceId}; see sources for the ones there are`);
    return s;
  }
}
