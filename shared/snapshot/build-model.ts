// CardInputs (per-agent read-model views) -> CardModel (what the card shows): sums over agents,
// picks the rows each detail level has room for and turns times into ISO strings. Pure.
import { localizeMessages } from "../i18n/message.js";
import type { EventView } from "../queries/events.js";
import { usd } from "../queries/money.js";
import type { SessionView } from "../queries/sessions.js";
import { VERSION } from "../version.js";
import { CARD_SCHEMA_VERSION, type CardCronRow, type CardGatewayState, type CardModel, type CardSessionRow, type CardSubAgentRow } from "./card-model.js";
import type { CardInputs, GatewayInput, HealthInput } from "./inputs.js";
import { bucketGrid } from "../queries/metrics.js";
import { METRICS_RANGE, RANGE_MS, type SnapshotDetail, type SnapshotLang, type SnapshotRange, type SnapshotTheme } from "./params.js";

export interface CardBuildParams {
  detail: SnapshotDetail;
  range: SnapshotRange;
  theme: SnapshotTheme;
  lang: SnapshotLang;
  generatedAt: Date | number;
  /** The data is the bundled demo state. */
  demo: boolean;
  /** Names of the sources that failed and were skipped. */
  degradedSources: readonly string[];
}

/** Rows per list, by detail: the card is a phone-sized image, not a report. */
export const CARD_LIMITS = {
  standard: { sessions: 5, errors: 3 },
  full: { sessions: 8, errors: 3, subAgentRows: 10, events: 8, cron: 6, channels: 8 },
} as const;

const nonNull = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;
const isoOf = (ms: number | null | undefined): string | null => (ms === null || ms === undefined || !Number.isFinite(ms) ? null : new Date(ms).toISOString());

/**
 * Every agent's event query repeats the gateway-wide lines (those with no agent id), so a plain
 * concatenation would count them once per agent. Keeping, for each distinct line, the largest
 * number of copies any one list has counts gateway-wide lines once and an agent's own lines
 * (which only its list has) exactly, repeated identical lines included. Newest first.
 */
export function mergeAgentEvents(lists: ReadonlyArray<readonly EventView[]>): EventView[] {
  const best = new Map<string, EventView[]>();
  for (const list of lists) {
    const here = new Map<string, EventView[]>();
    for (const e of list) {
      const key = JSON.stringify([e.time, e.type, e.level, e.module, e.message, e.agentId, e.sessionKey]);
      const same = here.get(key);
      if (same) same.push(e);
      else here.set(key, [e]);
    }
    for (const [key, copies] of here) if (copies.length > (best.get(key)?.length ?? 0)) best.set(key, copies);
  }
  return [...best.values()].flat().sort((a, b) => b.time.localeCompare(a.time));
}

function gatewayState(gw: GatewayInput | null, health: HealthInput | null): CardGatewayState {
  if (!gw) return "unknown";
  if (!gw.running) return "stopped";
  switch (health?.status) {
    case "HEALTHY":
      return "healthy";
    case "DEGRADED":
      return "degraded";
    case "UNHEALTHY":
      return "unhealthy";
    default:
      return "running";
  }
}

function flatten(sessions: readonly SessionView[]): SessionView[] {
  const out: SessionView[] = [];
  const walk = (list: readonly SessionView[]): void => {
    for (const s of list) {
      out.push(s);
      walk(s.subAgents);
    }
  };
  walk(sessions);
  return out;
}

const descendants = (s: SessionView): number => s.subAgents.reduce((n, c) => n + 1 + descendants(c), 0);
const recent = (a: SessionView, b: SessionView): number => (b.lastActivityAt ?? "").localeCompare(a.lastActivityAt ?? "") || a.key.localeCompare(b.key);

function sessionRow(s: SessionView): CardSessionRow {
  return {
    key: s.key,
    agentId: s.agentId,
    displayName: s.displayName || s.key,
    kind: s.kind,
    status: s.status,
    model: s.model,
    channel: s.channel,
    totalTokens: s.totalTokens,
    costUsd: usd(s.costUsd),
    turnCount: s.turnCount,
    lastActivityAt: s.lastActivityAt,
    subAgentCount: descendants(s),
  };
}

function subAgentTree(roots: readonly SessionView[], maxRows: number): NonNullable<CardModel["subAgents"]> {
  const rows: CardSubAgentRow[] = [];
  let total = 0;
  let parents = 0;
  let subs = 0;
  const walk = (s: SessionView, depth: number): void => {
    total++;
    if (depth > 0) subs++;
    if (s.subAgents.length) parents++;
    if (rows.length < maxRows) rows.push({ key: s.key, displayName: s.displayName || s.key, status: s.status, totalTokens: s.totalTokens, depth });
    for (const c of [...s.subAgents].sort(recent)) walk(c, depth + 1);
  };
  for (const r of roots.filter((s) => s.subAgents.length > 0).sort(recent)) walk(r, 0);
  return { parents, sessions: subs, rows, more: total - rows.length };
}

function cronOrder(a: CardCronRow, b: CardCronRow): number {
  const rank = (j: CardCronRow): number => (j.consecutiveErrors > 0 ? 0 : j.enabled ? 1 : 2);
  return (
    rank(a) - rank(b) ||
    b.consecutiveErrors - a.consecutiveErrors ||
    (a.nextRunAt ?? "\uffff").localeCompare(b.nextRunAt ?? "\uffff") ||
    a.name.localeCompare(b.name) ||
    a.id.localeCompare(b.id)
  );
}

/**
 * One kind of per-agent view across agents: null when every agent's failed (the card says
 * "unavailable"), else the ones that were read (none at all for a gateway with no agents yet).
 */
function across<T>(inputs: CardInputs, pick: (a: CardInputs["agents"][number]) => T | null | undefined): T[] | null {
  const values = inputs.agents.map(pick);
  const ok = values.filter(nonNull);
  return inputs.agents.length > 0 && ok.length === 0 ? null : ok;
}

/** Zero buckets for the range, aligned like queryMetrics aligns them, for a gateway with no agents. */
function emptyBuckets(range: SnapshotRange, endMs: number): Array<{ start: number; end: number; tokens: number }> {
  // The same grid the metrics query would have given.
  const { count, stepMs, start } = bucketGrid(METRICS_RANGE[range], endMs);
  return Array.from({ length: count }, (_, i) => ({ start: (start + i * stepMs) / 1000, end: (start + (i + 1) * stepMs) / 1000, tokens: 0 }));
}

export function buildCardModel(inputs: CardInputs, params: CardBuildParams): CardModel {
  const { detail } = params;
  const generatedMs = params.generatedAt instanceof Date ? params.generatedAt.getTime() : params.generatedAt;
  const metrics = across(inputs, (a) => a.metrics);
  // Every agent's metrics share one window and bucket grid (same range, same clock).
  const grid = metrics?.[0]?.buckets ?? emptyBuckets(params.range, generatedMs);
  const fromMs = (grid[0]?.start ?? generatedMs / 1000 - RANGE_MS[params.range] / 1000) * 1000;
  const toMs = (grid[grid.length - 1]?.end ?? generatedMs / 1000) * 1000;

  const eventLists = across(inputs, (a) => a.events);
  const events = eventLists
    ? mergeAgentEvents(eventLists).filter((e) => {
        const ms = Date.parse(e.time);
        return ms >= fromMs && ms < toMs;
      })
    : null;
  const errors = events?.filter((e) => e.type === "error") ?? null;

  const sessionLists = across(inputs, (a) => a.sessions);
  const roots = sessionLists ? sessionLists.flat() : null;
  const all = roots ? flatten(roots) : null;
  // The lists may stop at their limit; counts (when every agent gave them) do not.
  const counts = inputs.agents.every((a) => a.sessionCounts) && inputs.agents.length ? inputs.agents.map((a) => a.sessionCounts as { total: number; active: number }) : null;

  const gw = inputs.gateway;
  const model: CardModel = {
    schemaVersion: CARD_SCHEMA_VERSION,
    generatedAt: new Date(generatedMs).toISOString(),
    detail,
    range: params.range,
    theme: params.theme,
    lang: params.lang,
    timeZone: inputs.timeZone ?? "UTC",
    window: { from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() },
    demo: params.demo,
    degradedSources: [...params.degradedSources],
    gateway: {
      state: gatewayState(gw, inputs.health),
      running: gw ? gw.running : null,
      health: inputs.health?.status ?? null,
      openclawVersion: gw?.version ?? null,
      insightsVersion: gw?.appVersion ?? VERSION,
      uptimeSeconds: gw?.running ? gw.uptimeSeconds : null,
      updateAvailable: gw?.updateAvailable === true,
      latestVersion: gw?.latestVersion ?? null,
    },
    summary: {
      tokens: metrics ? metrics.reduce((n, m) => n + m.buckets.reduce((s, b) => s + b.tokens, 0), 0) : null,
      costUsd: metrics ? usd(metrics.reduce((n, m) => n + m.costUsd, 0)) : null,
      turns: metrics ? metrics.reduce((n, m) => n + m.totalTurns, 0) : null,
      errors: errors ? errors.length : null,
      warnings: events ? events.filter((e) => e.type === "warning").length : null,
      // Uptime comes from the gateway probes, the same for every agent.
      uptimePercent: metrics?.map((m) => m.uptimePercent).find(nonNull) ?? null,
      activeSessions: counts ? counts.reduce((n, c) => n + c.active, 0) : all ? all.filter((s) => s.status === "ACTIVE").length : null,
      totalSessions: counts ? counts.reduce((n, c) => n + c.total, 0) : all ? all.length : null,
    },
  };
  if (detail === "compact") return model;

  const limits = detail === "full" ? CARD_LIMITS.full : CARD_LIMITS.standard;
  if (metrics) {
    const stepMs = grid[0] ? (grid[0].end - grid[0].start) * 1000 : RANGE_MS[params.range];
    const buckets = grid.map((b) => ({ start: b.start, tokens: 0, errors: 0 }));
    const index = new Map(buckets.map((b) => [b.start, b]));
    for (const m of metrics) {
      for (const b of m.buckets) {
        const bucket = index.get(b.start);
        if (bucket) bucket.tokens += b.tokens;
      }
    }
    for (const e of errors ?? []) {
      const bucket = buckets[Math.floor((Date.parse(e.time) - fromMs) / stepMs)];
      if (bucket) bucket.errors++;
    }
    model.tokenChart = { stepSeconds: Math.round(stepMs / 1000), peakTokens: Math.max(0, ...buckets.map((b) => b.tokens)), buckets };
  } else {
    model.tokenChart = null;
  }
  model.topSessions = roots
    ? {
        total: roots.length,
        items: [...roots]
          .sort((a, b) => b.totalTokens - a.totalTokens || recent(a, b))
          .slice(0, limits.sessions)
          .map(sessionRow),
      }
    : null;
  model.recentErrors = errors
    ? { total: errors.length, items: errors.slice(0, limits.errors).map((e) => ({ time: e.time, module: e.module, message: e.message, agentId: e.agentId })) }
    : null;
  if (detail === "standard") return model;

  const full = CARD_LIMITS.full;
  model.subAgents = roots ? subAgentTree(roots, full.subAgentRows) : null;
  model.events = events
    ? {
        total: events.length,
        items: events.slice(0, full.events).map((e) => ({ time: e.time, type: e.type, level: e.level, module: e.module, message: e.message, agentId: e.agentId })),
      }
    : null;
  model.cron = inputs.cronJobs
    ? {
        total: inputs.cronJobs.length,
        items: inputs.cronJobs
          .map(
            (j): CardCronRow => ({
              id: j.id,
              name: j.displayName ?? j.name,
              agentId: j.agentId,
              enabled: j.enabled,
              schedule: j.schedule.text,
              lastRunAt: isoOf(j.lastRunAt),
              lastStatus: j.lastStatus,
              lastDurationMs: j.lastDurationMs,
              nextRunAt: j.enabled ? isoOf(j.nextRunAt) : null,
              consecutiveErrors: j.consecutiveErrors,
            }),
          )
          .sort(cronOrder)
          .slice(0, full.cron),
      }
    : null;
  model.channels = inputs.channels
    ? {
        total: inputs.channels.length,
        // Disconnected channels first: they are why anyone looks.
        items: [...inputs.channels]
          .sort((a, b) => Number(a.connected) - Number(b.connected))
          .slice(0, full.channels)
          .map((c) => ({ provider: c.provider, name: c.name, connected: c.connected, latencyMs: c.latencyMs })),
      }
    : null;
  // Messages in the card's language (the JSON too: it is the model of the image).
  model.health = inputs.health
    ? { status: inputs.health.status, checks: localizeMessages(inputs.health.checks, params.lang).map((c) => ({ name: c.name, status: c.status, message: c.message })) }
    : null;
  model.system = {
    pid: gw?.pid ?? null,
    resources: inputs.resources ? { cpuPercent: inputs.resources.cpuPercent, memoryMB: inputs.resources.memoryMB, diskMB: inputs.resources.diskMB } : null,
    sources: inputs.sources.map((s) => ({ id: s.id, name: s.name, status: s.status, lastError: s.lastError })),
  };
  // Totals are optional inputs: left out entirely when the collector passed none.
  if (inputs.agents.some((a) => a.lifetime !== undefined)) {
    const known = across(inputs, (a) => a.lifetime);
    const costs = across(inputs, (a) => a.usageCost);
    const since = known?.map((l) => l.createdAt).sort()[0] ?? null;
    model.totals = known
      ? {
          tokens: known.reduce((n, l) => n + l.totalTokens, 0),
          costUsd: usd(known.reduce((n, l) => n + l.totalCostUsd, 0)),
          todayCostUsd: costs ? usd(costs.reduce((n, c) => n + c.todayUsd, 0)) : null,
          transcripts: known.reduce((n, l) => n + l.totalSessions, 0),
          since,
        }
      : null;
  }
  return model;
}
