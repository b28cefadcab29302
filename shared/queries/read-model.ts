// The read model every interface asks (GraphQL, REST snapshot, MCP, CLI, web): one object over
// the store, the collector's live state and the clock. Interfaces never read OpenClaw files or
// the store themselves; they call these methods and get plain objects back.
import type { Clock } from "../clock.js";
import { InsightsError } from "../errors.js";
import type { AgentSnapshot, AgentSource } from "../ingest/agent-source.js";
import type { Collector } from "../ingest/collector.js";
import { dirname } from "node:path";
import type { CronJobInfo } from "../sources/gateway/cron.js";
import { filesystemSpaceSync } from "../sources/gateway/disk-usage.js";
import type { Store } from "../store/store.js";
import { queryEventTotals, queryModelCounters, type ModelCounter } from "./counters.js";
import { queryCronJobs, type CronJobView } from "./cron.js";
import { queryEventCounts, queryEventDensity, queryEvents, queryLogs, type EventCounts, type EventDensityBucket, type EventsArgs, type EventView, type LogEntryView } from "./events.js";
import { queryLifetimeStats, type LifetimeStats } from "./lifetime.js";
import { queryMetrics, type Metrics, type MetricsRange } from "./metrics.js";
import { countSessions, findSession, querySessions, totalsByKey, type SessionCounts, type SessionFilter, type SessionView, type TotalsByKey } from "./sessions.js";
import { agentSourceView, DASHBOARD_SOURCE_ID, dashboardSourceView, filterSources, selectSource, type DataSourceView, type SourceFilter, type SourceSelector } from "./sources.js";
import { querySystem, type SystemView } from "./system.js";
import { safeTimeZone } from "./time.js";
import { querySessionTranscript, type SessionTranscript, type TranscriptArgs } from "./transcript.js";
import { queryUsageCost, type UsageCost } from "./usage-cost.js";

/** Figures only the daemon has (its HTTP server and render queue); absent when the CLI renders in-process. */
export interface DaemonFigures {
  authMode: "token" | "none";
  url: string | null;
  requestsTotal: number;
  renderQueue: { active: number; queued: number; concurrency: number; maxQueue: number; rendersTotal: number; failuresTotal: number } | null;
}

export interface DashboardView {
  id: string;
  version: string;
  /** The daemon's clock. */
  now: string;
  startedAt: string;
  uptimeSeconds: number;
  demo: boolean;
  openclawDir: string;
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
  openclawDir: string;
  /** Zone for day and bucket labels when the caller names none; default this process's zone. */
  timeZone?: string;
  /** retentionRawDays, read per call so a reload applies. */
  rawDays: () => number;
  daemon?: () => DaemonFigures;
}

export type Selected = { kind: "agent"; agentId: string; source: DataSourceView } | { kind: "dashboard"; source: DataSourceView };

export class ReadModel {
  readonly timeZone: string;

  /**
   * Per-agent session totals (a GROUP BY over every transcript of the agent), kept until the
   * collector reports a change of that agent: only the collector writes them.
   */
  private readonly totals = new Map<string, TotalsByKey>();

  constructor(private readonly o: ReadModelOptions) {
    this.timeZone = safeTimeZone(o.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
    o.collector.onChange((source) => {
      if (source.startsWith("agent:")) this.totals.delete(source.slice("agent:".length));
    });
  }

  private totalsOf(agentId: string): TotalsByKey {
    let t = this.totals.get(agentId);
    if (!t) this.totals.set(agentId, (t = totalsByKey(this.o.store, agentId)));
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

  system(): SystemView {
    const { collector } = this.o;
    return querySystem({
      snapshot: collector.gateway.snapshot(),
      agents: collector.registry.agentSnapshots(),
      openclawError: collector.registry.openclawError?.message ?? null,
      store: this.o.store.health(),
      // Measured now: a disk that filled since the monitor's last sample must not look fine.
      disk: filesystemSpaceSync(dirname(this.o.store.path)),
      appVersion: this.o.appVersion,
    });
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
    return { kind: "agent", agentId: source.id.slice("agent:".length), source };
  }

  agents(): AgentSnapshot[] {
    return this.o.collector.registry.agentSnapshots();
  }

  /** The agent the gateway runs unaddressed work on: `default: true` in agents.list, else `main`, else the first. */
  defaultAgentId(): string | null {
    const agents = this.agents();
    const list = (this.o.collector.registry.openclaw?.config.agents as { list?: unknown } | undefined)?.list;
    if (Array.isArray(list)) {
      const marked = list.find((a): a is { id: string } => typeof a === "object" && a !== null && (a as { default?: unknown }).default === true && typeof (a as { id?: unknown }).id === "string");
      if (marked) return marked.id;
    }
    return agents.find((a) => a.agentId === "main")?.agentId ?? agents[0]?.agentId ?? null;
  }

  agent(agentId: string): AgentSnapshot {
    return this.source(agentId).snapshot();
  }

  sessions(agentId: string, filter: SessionFilter = {}): SessionView[] {
    return querySessions(this.o.store, this.agent(agentId), filter, this.now(), this.totalsOf(agentId));
  }

  /** How many sessions the agent has, by status: no list limit applies. */
  sessionCounts(agentId: string): SessionCounts {
    return countSessions(this.o.store, this.agent(agentId), this.now(), this.totalsOf(agentId));
  }

  session(agentId: string, key: string): SessionView | null {
    return findSession(this.o.store, this.agent(agentId), key, this.now(), this.totalsOf(agentId));
  }

  metrics(agentId: string, args: { range?: MetricsRange | null; date?: string | null; timeZone?: string | null; locale?: string | null } = {}): Metrics {
    this.source(agentId);
    try {
      return queryMetrics(this.o.store, agentId, {
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

  events(agentId: string, args: EventsArgs = {}): EventView[] {
    this.source(agentId);
    try {
      return queryEvents(this.o.store, agentId, args);
    } catch (err) {
      if (err instanceof RangeError) throw new InsightsError("BAD_USER_INPUT", err.message);
      throw err;
    }
  }

  eventDensity(agentId: string, timeZone?: string | null): EventDensityBucket[] {
    this.source(agentId);
    return queryEventDensity(this.o.store, agentId, this.now(), this.zone(timeZone));
  }

  eventCounts(agentId: string, args: { from?: number | null; to?: number | null } = {}): EventCounts {
    this.source(agentId);
    return queryEventCounts(this.o.store, agentId, args);
  }

  lifetimeStats(agentId: string): LifetimeStats {
    return queryLifetimeStats(this.o.store, this.agent(agentId), this.now());
  }

  sessionTranscript(agentId: string, args: TranscriptArgs): SessionTranscript {
    return querySessionTranscript(this.source(agentId), args);
  }

  cronJobs(agentId: string): CronJobView[] {
    this.source(agentId);
    return queryCronJobs(this.o.collector.cron, agentId, this.defaultAgentId() ?? agentId, this.now());
  }

  usageCost(agentId: string, timeZone?: string | null): UsageCost {
    this.source(agentId);
    return queryUsageCost(this.o.store, agentId, { now: this.now(), timeZone: this.zone(timeZone), rawDays: this.o.rawDays() });
  }

  recentLogs(agentId: string, count?: number | null, filter: { level?: string | null; module?: string | null } = {}): LogEntryView[] {
    this.source(agentId);
    return queryLogs(this.o.store, { agentId, count, minLevel: filter.level ?? null, module: filter.module ?? null });
  }

  /** The gateway's stored log across all agents, newest last, at or above `minLevel` (TRACE..FATAL). */
  gatewayLog(count?: number | null, minLevel?: string): LogEntryView[] {
    return queryLogs(this.o.store, { count, minLevel: minLevel ?? "INFO" });
  }

  /** Why the OpenClaw state dir cannot be read, or null when it can. */
  openclawError(): string | null {
    return this.o.collector.registry.openclawError?.message ?? null;
  }

  /** Every cron job of the gateway as last read; null when the cron store could not be read. */
  cronJobInfos(): CronJobInfo[] | null {
    const cron = this.o.collector.cron;
    return cron.data ? [...cron.data.jobs] : cron.error ? null : [];
  }

  /** Lifetime tokens and cost per agent and model (Prometheus counters). */
  modelCounters(): ModelCounter[] {
    return queryModelCounters(this.o.store);
  }

  /** Classified gateway log events ever seen, per type (Prometheus counters). */
  eventTotals(): Record<"error" | "warning" | "restart", number> {
    return queryEventTotals(this.o.store);
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

  private source(agentId: string): AgentSource {
    const s = this.o.collector.registry.agent(agentId);
    if (!s) throw new InsightsError("NOT_FOUND", `no agent ${agentId}; see sources for the agents there are`);
    return s;
  }
}
