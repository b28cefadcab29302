// The read model every interface asks (GraphQL, REST snapshot, MCP, CLI, web): one object over
// the store, the collector's live state and the clock. Interfaces never read provider files or
// the store themselves; they call these methods, naming a source by its id (`agent:main`,
// `claude-code:default`), and get plain objects back.
import type { Clock } from "../clock.js";
import { InsightsError } from "../errors.js";
import type { AgentSnapshot, AgentSource } from "../ingest/agent-source.js";
import type { Collector } from "../ingest/collector.js";
import { dirname } from "node:path";
import type { CronJobInfo, CronRunInfo } from "../sources/gateway/cron.js";
import { filesystemSpaceSync } from "../sources/gateway/disk-usage.js";
import { OpenClawProvider } from "../sources/openclaw/provider.js";
import type { Store } from "../store/store.js";
import { queryEventTotals, queryModelCounters, type ModelCounter } from "./counters.js";
import { queryCronJobs, type CronJobView } from "./cron.js";
import { queryEventCounts, queryEventDensity, queryEvents, queryLogs, type EventCounts, type EventScope, type EventDensityBucket, type EventsArgs, type EventView, type LogEntryView } from "./events.js";
import { queryLifetimeStats, type LifetimeStats } from "./lifetime.js";
import { queryMetrics, type Metrics, type MetricsRange } from "./metrics.js";
import { countSessions, findSession, querySessions, totalsByKey, type SessionCounts, type SessionFilter, type SessionView, type TotalsByKey } from "./sessions.js";
import { agentSourceView, DASHBOARD_SOURCE_ID, dashboardSourceView, filterSources, selectSource, type DataSourceView, type SourceFilter, type SourceSelector } from "./sources.js";
import { querySystem, type SystemView } from "./system.js";
import { healthOf, type Health, type HealthCheck } from "./health.js";
import { queryProviderSystem, type ProviderSystemView } from "./provider-system.js";
import { queryUnpricedModels } from "./counters.js";
import { queryRateLimitHistory, queryRateLimits, type RateLimitSampleView } from "./rate-limits.js";
import type { ProviderName } from "../sources/contract.js";
import { safeTimeZone } from "./time.js";
import { querySessionTranscript, type SessionTranscript, type TranscriptArgs } from "./transcript.js";
import { queryProjects, type ProjectUsageView } from "./projects.js";
import { queryUsageCost, type UsageCost } from "./usage-cost.js";
import { queryUsageReport, type UsageReport, type UsageReportParams } from "./usage-report.js";
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
}

/** Checks about gateway-insights itself, the same in every provider's system. */
const SHARED_CHECKS = new Set(["disk", "store"]);

/** OpenClaw's gateway view or another provider's, told apart by `provider`. */
export type AnySystemView = (SystemView & { provider: "openclaw" }) | ProviderSystemView;

export type Selected = { kind: "agent"; sourceId: string; agentId: string; source: DataSourceView } | { kind: "dashboard"; source: DataSourceView };

export class ReadModel {
  readonly timeZone: string;

  /**
   * Per-source session totals (a GROUP BY over every transcript of the source), kept until the
   * collector reports a change of that source: only the collector writes them.
   */
  private readonly totals = new Map<string, TotalsByKey>();

  constructor(private readonly o: ReadModelOptions) {
    this.timeZone = safeTimeZone(o.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
    o.collector.onChange((source) => this.totals.delete(source));
  }

  private totalsOf(sourceId: string): TotalsByKey {
    let t = this.totals.get(sourceId);
    if (!t) this.totals.set(sourceId, (t = totalsByKey(this.o.store, sourceId)));
    return t;
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
      agents: this.agents().filter((a) => a.provider === "openclaw"),
      openclawError: collector.registry.providerError("openclaw")?.message ?? null,
      store: this.o.store.health(),
      // Measured now: a disk that filled since the monitor's last sample must not look fine.
      disk: filesystemSpaceSync(dirname(this.o.store.path)),
      appVersion: this.o.appVersion,
    });
  }

  /** The providers read, in the interface's order (A, B, C). */
  providers(): ProviderName[] {
    const names = new Set(this.o.collector.registry.providers.map((p) => p.name));
    return (["openclaw", "claude-code", "codex"] as const).filter((n) => names.has(n));
  }

  /** One provider's system namespace; without a provider, the first one read (A, B, C order). */
  systemOf(provider?: ProviderName | null): AnySystemView {
    const name = provider ?? this.providers()[0];
    if (!name || !this.providers().includes(name)) throw new InsightsError("NOT_FOUND", `${provider ?? "no provider"} is not read here; see systems for the ones that are`);
    if (name === "openclaw") {
      const sys = this.system();
      if (!sys) throw new InsightsError("NOT_FOUND", "OpenClaw's gateway is not watched here");
      return { ...sys, provider: "openclaw" };
    }
    const agents = this.agents().filter((a) => a.provider === name);
    return queryProviderSystem({
      provider: name,
      demo: this.o.demo,
      agents,
      providerError: this.o.collector.registry.providerError(name)?.message ?? null,
      unpriced: queryUnpricedModels(this.o.store, agents.map((a) => a.id)),
      ...(name === "codex" ? { rateLimits: queryRateLimits(this.o.store, agents.map((a) => a.id), this.now()) } : {}),
      store: this.o.store.health(),
      disk: filesystemSpaceSync(dirname(this.o.store.path)),
    });
  }

  /** Used % of a source's rate-limit windows over the last `days` days (at most 30), oldest first. */
  rateLimitHistory(sourceId: string, days = 7): RateLimitSampleView[] {
    this.source(sourceId);
    return queryRateLimitHistory(this.o.store, sourceId, this.now(), Math.min(30, Math.max(1, Math.floor(days))));
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
        } else checks.push(sys.provider === "openclaw" ? c : { ...c, name: `${sys.provider}/${c.name}` });
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
    const agents = this.agents().filter((a) => a.provider === "openclaw");
    const list = (this.openclawProvider()?.state?.config.agents as { list?: unknown } | undefined)?.list;
    if (Array.isArray(list)) {
      const marked = list.find((a): a is { id: string } => typeof a === "object" && a !== null && (a as { default?: unknown }).default === true && typeof (a as { id?: unknown }).id === "string");
      if (marked) return marked.id;
    }
    return agents.find((a) => a.agentId === "main")?.agentId ?? agents[0]?.agentId ?? null;
  }

  agent(sourceId: string): AgentSnapshot {
    return this.source(sourceId).snapshot();
  }

  sessions(sourceId: string, filter: SessionFilter = {}): SessionView[] {
    return querySessions(this.o.store, this.agent(sourceId), filter, this.now(), this.totalsOf(sourceId));
  }

  /** How many sessions the agent has, by status: no list limit applies. */
  sessionCounts(sourceId: string): SessionCounts {
    return countSessions(this.o.store, this.agent(sourceId), this.now(), this.totalsOf(sourceId));
  }

  session(sourceId: string, key: string): SessionView | null {
    return findSession(this.o.store, this.agent(sourceId), key, this.now(), this.totalsOf(sourceId));
  }

  metrics(sourceId: string, args: { range?: MetricsRange | null; date?: string | null; timeZone?: string | null; locale?: string | null } = {}): Metrics {
    const scope = this.scope(sourceId);
    try {
      return queryMetrics(this.o.store, scope, {
        range: args.range ?? null,
        date: args.date ?? null,
        now: this.now(),
        timeZone: this.zone(args.timeZone),
        ...(args.locale ? { locale: args.locale } : {}),
      });
    } catch (err) {
      if (err instanceof RangeError) throw new InsightsError("BAD_USER_INPUT", err.message);
      throw err;
    }
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
    return queryLifetimeStats(this.o.store, this.agent(sourceId), this.now());
  }

  sessionTranscript(sourceId: string, args: TranscriptArgs): SessionTranscript {
    return querySessionTranscript(this.source(sourceId), args);
  }

  /** Token use per working directory: over `range` (the metrics grid ending now), or every recorded transcript. */
  projects(sourceId: string, args: { range?: MetricsRange | null; limit?: number | null } = {}): ProjectUsageView[] {
    this.source(sourceId);
    return queryProjects(this.o.store, sourceId, { range: args.range ?? null, now: this.now(), limit: args.limit ?? null });
  }

  cronJobs(sourceId: string): CronJobView[] {
    const s = this.agent(sourceId);
    // Cron is OpenClaw's: other providers have none (design §9).
    if (s.provider !== "openclaw") return [];
    return queryCronJobs(this.o.collector.cron, s.agentId, this.defaultAgentId() ?? s.agentId, this.now());
  }

  usageCost(sourceId: string, timeZone?: string | null): UsageCost {
    this.source(sourceId);
    return queryUsageCost(this.o.store, sourceId, { now: this.now(), timeZone: this.zone(timeZone), rawDays: this.o.rawDays() });
  }

  /** Tokens and cost by day, month, session or project over every source in the store (`insightsctl usage`). */
  usageReport(params: UsageReportParams): UsageReport {
    // Sub-agents the transcripts do not name a parent for (OpenClaw's) are known from the session index.
    const parents = new Map<string, string>();
    for (const a of this.agents()) for (const s of a.sessions) if (s.parentKey) parents.set(`${a.id}\u0000${s.key}`, s.parentKey);
    return queryUsageReport(this.o.store, params, {
      now: this.now(),
      rawDays: this.o.rawDays(),
      demo: this.o.demo,
      scanComplete: this.ready,
      parentOf: (source, key) => parents.get(`${source}\u0000${key}`) ?? null,
    });
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
    return this.providerError("openclaw");
  }

  /** Why a provider's data cannot be read at all (its dir is unreadable), or null when it can. */
  providerError(provider: ProviderName): string | null {
    return this.o.collector.registry.providerError(provider)?.message ?? null;
  }

  private openclawProvider(): OpenClawProvider | null {
    return this.o.collector.registry.providers.find((p): p is OpenClawProvider => p instanceof OpenClawProvider) ?? null;
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
    return queryEventTotals(this.o.store);
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
