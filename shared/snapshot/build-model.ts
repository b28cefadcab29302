// CardInputs (per-provider, per-source read-model views) -> CardModel (what the card shows): one
// block per provider, its figures summed over the provider's sources, the "all providers" sums when
// there are several, the rows each detail level has room for, and times as ISO strings. Pure.
import { localizeMessages } from "../i18n/message.js";
import { overdueSeconds } from "../queries/cron.js";
import type { EventView } from "../queries/events.js";
import { bucketGrid } from "../queries/metrics.js";
import { usd } from "../queries/money.js";
import type { RateLimitWindowView } from "../queries/rate-limits.js";
import type { SessionView } from "../queries/sessions.js";
import {
  ALERT_UNITS,
  CARD_SCHEMA_VERSION,
  type CardAlertRow,
  type CardAlerts,
  type CardBlock,
  type CardCronRow,
  type CardModel,
  type CardOpenClawBlock,
  type CardRateLimits,
  type CardSessionRow,
  type CardSubAgentRow,
  type CardSummary,
  type CardTokenChart,
} from "./card-model.js";
import { isGatewayInputs, type AgentCardInputs, type AlertInput, type CardInputs, type CliCardInputs, type OpenClawCardInputs, type ProviderCardInputs } from "./inputs.js";
import { hasCapability } from "../providers/registry.js";
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

/**
 * Rows per list and provider, by detail: the card is a phone-sized image, not a report. With more
 * than one provider each block lists fewer rows, so the whole card stays a size one can scroll.
 */
export const CARD_LIMITS = {
  one: {
    standard: { sessions: 5, errors: 3 },
    full: { sessions: 8, errors: 3, subAgentRows: 10, events: 8, cron: 6, channels: 8 },
  },
  several: {
    standard: { sessions: 3, errors: 2 },
    full: { sessions: 5, errors: 2, subAgentRows: 6, events: 5, cron: 6, channels: 8 },
  },
} as const;

const nonNull = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;
const isoOf = (ms: number | null | undefined): string | null => (ms === null || ms === undefined || !Number.isFinite(ms) ? null : new Date(ms).toISOString());
const wholeOrNull = (n: number | null | undefined): number | null => (n === null || n === undefined || !Number.isFinite(n) ? null : Math.max(0, Math.round(n)));

/**
 * Every source's event query repeats the provider-wide lines (those with no source of their own),
 * so a plain concatenation would count them once per source. Keeping, for each distinct line, the
 * largest number of copies any one list has counts provider-wide lines once and a source's own
 * lines (which only its list has) exactly, repeated identical lines included. Newest first.
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

/** The latest of ISO times (they sort as text); null when there is none. */
const newest = (times: ReadonlyArray<string | null | undefined>): string | null => times.filter(nonNull).sort().at(-1) ?? null;

const descendants = (s: SessionView): number => s.subAgents.reduce((n, c) => n + 1 + descendants(c), 0);
const recent = (a: SessionView, b: SessionView): number => (b.lastActivityAt ?? "").localeCompare(a.lastActivityAt ?? "") || a.key.localeCompare(b.key);

function sessionRow(s: SessionView, source: string): CardSessionRow {
  return {
    key: s.key,
    source,
    displayName: s.displayName || s.key,
    kind: s.kind,
    status: s.status,
    model: s.model,
    channel: s.channel,
    project: s.project,
    totalTokens: s.totalTokens,
    costUsd: usd(s.costUsd),
    unpricedResponses: s.unpricedResponses,
    turnCount: s.turnCount,
    lastActivityAt: s.lastActivityAt,
    subAgentCount: descendants(s),
  };
}

function subAgentTree(roots: readonly SessionView[], maxRows: number): NonNullable<CardBlock["subAgents"]> {
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
  const rank = (j: CardCronRow): number => (j.consecutiveErrors > 0 ? 0 : j.overdueSeconds !== null ? 1 : j.enabled ? 2 : 3);
  return (
    rank(a) - rank(b) ||
    b.consecutiveErrors - a.consecutiveErrors ||
    (b.overdueSeconds ?? 0) - (a.overdueSeconds ?? 0) ||
    (a.nextRunAt ?? "\uffff").localeCompare(b.nextRunAt ?? "\uffff") ||
    a.name.localeCompare(b.name) ||
    a.id.localeCompare(b.id)
  );
}

/**
 * One kind of per-source view across a provider's sources: null when every source's failed (the
 * card says "unavailable"), else the ones that were read (none at all for a provider with no
 * sources yet).
 */
function across<T>(agents: readonly AgentCardInputs[], pick: (a: AgentCardInputs) => T | null | undefined): T[] | null {
  const values = agents.map(pick);
  const ok = values.filter(nonNull);
  return agents.length > 0 && ok.length === 0 ? null : ok;
}

interface Grid {
  buckets: Array<{ start: number; end: number }>;
  fromMs: number;
  toMs: number;
  stepMs: number;
}

/** The range's bucket grid: every source's metrics share it (same range, same clock). */
function gridOf(inputs: CardInputs, range: SnapshotRange, generatedMs: number): Grid {
  const first = inputs.providers.flatMap((p) => p.agents).map((a) => a.metrics?.buckets).find((b) => b && b.length > 0);
  let buckets: Grid["buckets"];
  if (first) buckets = first.map((b) => ({ start: b.start, end: b.end }));
  else {
    // The same grid the metrics query would have given.
    const { count, stepMs, start } = bucketGrid(METRICS_RANGE[range], generatedMs);
    buckets = Array.from({ length: count }, (_, i) => ({ start: (start + i * stepMs) / 1000, end: (start + (i + 1) * stepMs) / 1000 }));
  }
  const head = buckets[0];
  const tail = buckets[buckets.length - 1];
  return {
    buckets,
    fromMs: (head?.start ?? generatedMs / 1000 - RANGE_MS[range] / 1000) * 1000,
    toMs: (tail?.end ?? generatedMs / 1000) * 1000,
    stepMs: head ? (head.end - head.start) * 1000 : RANGE_MS[range],
  };
}

type Limits = (typeof CARD_LIMITS)["one" | "several"];

interface Context {
  params: CardBuildParams;
  grid: Grid;
  limits: Limits;
  generatedMs: number;
}

/** What every provider's block has: key numbers, then per detail the chart, sessions, errors, events, totals. */
function blockBase(p: ProviderCardInputs, c: Context): Omit<CardBlock, "provider" | "gateway" | "cli" | "rateLimits"> {
  const { detail } = c.params;
  const { agents } = p;
  const metrics = across(agents, (a) => a.metrics);
  const eventLists = across(agents, (a) => a.events);
  const events = eventLists
    ? mergeAgentEvents(eventLists).filter((e) => {
        const ms = Date.parse(e.time);
        return ms >= c.grid.fromMs && ms < c.grid.toMs;
      })
    : null;
  const errors = events?.filter((e) => e.type === "error") ?? null;
  // Each root with the id of the source it came from.
  const rootLists = across(agents, (a) => (a.sessions ? a.sessions.map((s) => ({ s, source: a.sourceId })) : null));
  const roots = rootLists ? rootLists.flat() : null;
  const all = roots ? flatten(roots.map((r) => r.s)) : null;
  // The lists may stop at their limit; counts (when every source gave them) do not.
  const counts = agents.length && agents.every((a) => a.sessionCounts) ? agents.map((a) => a.sessionCounts as { total: number; active: number }) : null;

  const summary: CardSummary = {
    tokens: metrics ? metrics.reduce((n, m) => n + m.buckets.reduce((s, b) => s + b.tokens, 0), 0) : null,
    costUsd: metrics ? usd(metrics.reduce((n, m) => n + m.costUsd, 0)) : null,
    unpricedResponses: metrics ? metrics.reduce((n, m) => n + (wholeOrNull(m.unpricedResponses) ?? 0), 0) : null,
    turns: metrics ? metrics.reduce((n, m) => n + m.totalTurns, 0) : null,
    errors: errors ? errors.length : null,
    warnings: events ? events.filter((e) => e.type === "warning").length : null,
    activeSessions: counts ? counts.reduce((n, x) => n + x.active, 0) : all ? all.filter((s) => s.status === "ACTIVE").length : null,
    totalSessions: counts ? counts.reduce((n, x) => n + x.total, 0) : all ? all.length : null,
    lastActivityAt: newest(metrics?.map((m) => m.lastActivityAt) ?? []),
  };
  const block: Omit<CardBlock, "provider" | "gateway" | "cli" | "rateLimits"> = { summary };
  if (detail === "compact") return block;

  const limits = detail === "full" ? c.limits.full : c.limits.standard;
  block.tokenChart = metrics ? tokenChart(metrics, errors ?? [], c.grid) : null;
  block.topSessions = roots
    ? {
        total: roots.length,
        items: [...roots]
          .sort((a, b) => b.s.totalTokens - a.s.totalTokens || recent(a.s, b.s))
          .slice(0, limits.sessions)
          .map((r) => sessionRow(r.s, r.source)),
      }
    : null;
  block.recentErrors = errors
    ? { total: errors.length, items: errors.slice(0, limits.errors).map((e) => ({ time: e.time, module: e.module, message: e.message, agentId: e.agentId })) }
    : null;
  if (detail === "standard") return block;

  const full = c.limits.full;
  block.subAgents = roots ? subAgentTree(roots.map((r) => r.s), full.subAgentRows) : null;
  block.events = events
    ? {
        total: events.length,
        items: events.slice(0, full.events).map((e) => ({ time: e.time, type: e.type, level: e.level, module: e.module, message: e.message, agentId: e.agentId })),
      }
    : null;
  block.sources = p.sources.map((s) => ({ id: s.id, name: s.name, status: s.status, lastError: s.lastError }));
  // Totals are optional inputs: left out entirely when the collector passed none.
  if (agents.some((a) => a.lifetime !== undefined)) {
    const known = across(agents, (a) => a.lifetime);
    const costs = across(agents, (a) => a.usageCost);
    block.totals = known
      ? {
          tokens: known.reduce((n, l) => n + l.totalTokens, 0),
          costUsd: usd(known.reduce((n, l) => n + l.totalCostUsd, 0)),
          unpricedResponses: known.reduce((n, l) => n + (wholeOrNull(l.unpricedResponses) ?? 0), 0),
          todayCostUsd: costs ? usd(costs.reduce((n, x) => n + x.todayUsd, 0)) : null,
          transcripts: known.reduce((n, l) => n + l.totalSessions, 0),
          since: known.map((l) => l.createdAt).filter(nonNull).sort()[0] ?? null,
        }
      : null;
  }
  return block;
}

function tokenChart(metrics: NonNullable<AgentCardInputs["metrics"]>[], errors: readonly EventView[], grid: Grid): CardTokenChart {
  const buckets = grid.buckets.map((b) => ({ start: b.start, tokens: 0, errors: 0 }));
  const index = new Map(buckets.map((b) => [b.start, b]));
  for (const m of metrics) {
    for (const b of m.buckets) {
      const bucket = index.get(b.start);
      if (bucket) bucket.tokens += b.tokens;
    }
  }
  for (const e of errors) {
    const bucket = buckets[Math.floor((Date.parse(e.time) - grid.fromMs) / grid.stepMs)];
    if (bucket) bucket.errors++;
  }
  return { stepSeconds: Math.round(grid.stepMs / 1000), peakTokens: Math.max(0, ...buckets.map((b) => b.tokens)), buckets };
}

function openclawBlock(p: OpenClawCardInputs, c: Context): CardOpenClawBlock {
  const gw = p.gateway;
  const metrics = across(p.agents, (a) => a.metrics);
  const block: CardOpenClawBlock = {
    provider: p.provider,
    gateway: {
      // The daemon's own word for what the gateway is: DEMO in demo mode, never "down" there.
      state: gw?.state ?? "UNKNOWN",
      running: gw ? gw.running : null,
      version: gw?.version ?? null,
      uptimeSeconds: gw?.running ? gw.uptimeSeconds : null,
      // Uptime comes from the gateway probes, the same for every agent.
      uptimePercent: metrics?.map((m) => m.uptimePercent).find(nonNull) ?? null,
      updateAvailable: gw?.updateAvailable === true,
      latestVersion: gw?.latestVersion ?? null,
    },
    ...blockBase(p, c),
  };
  if (c.params.detail !== "full") return block;
  const limits = c.limits.full;
  const jobs = p.cronJobs;
  if (jobs) {
    const rows = jobs.map(
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
        // The queries' one rule for "overdue", against the card's own clock.
        overdueSeconds: overdueSeconds(j, p.cronRuns?.[j.id] ?? [], c.generatedMs),
      }),
    );
    block.cron = { total: rows.length, overdue: rows.filter((r) => r.overdueSeconds !== null).length, items: rows.sort(cronOrder).slice(0, limits.cron) };
  } else block.cron = null;
  block.channels = p.channels
    ? {
        total: p.channels.length,
        // Disconnected channels first: they are why anyone looks.
        items: [...p.channels]
          .sort((a, b) => Number(a.connected) - Number(b.connected))
          .slice(0, limits.channels)
          .map((x) => ({ provider: x.provider, name: x.name, connected: x.connected, latencyMs: x.latencyMs })),
      }
    : null;
  block.resources = p.resources ? { pid: gw?.pid ?? null, cpuPercent: p.resources.cpuPercent, memoryMB: p.resources.memoryMB, diskMB: p.resources.diskMB } : null;
  return block;
}

function windowOf(w: RateLimitWindowView | null): CardRateLimits[number]["primary"] {
  if (!w || !Number.isFinite(w.usedPercent)) return null;
  // Only a warning makes the card: a window that fills after its reset is no news.
  const full = w.projection?.beforeReset === true ? w.projection.fullAt : null;
  return { usedPercent: Math.max(0, w.usedPercent), windowMinutes: wholeOrNull(w.windowMinutes), resetsAt: isoOf(w.resetsAt === null ? null : Date.parse(w.resetsAt)), projectedFullAt: isoOf(full) };
}

function cliBlock(p: CliCardInputs, c: Context): CardBlock {
  const cli = p.cli ? { version: p.cli.versions[0] ?? null, liveSessions: Math.max(0, p.cli.liveSessions) } : null;
  // A provider without rate limits (none registered now: the card model's type has no such block).
  if (!hasCapability(p.provider, "rateLimits")) return { provider: p.provider, cli, ...blockBase(p, c) } as unknown as CardBlock;
  const rateLimits: CardRateLimits | null = p.rateLimits
    ? p.rateLimits.map((r) => ({
        source: r.source,
        planType: r.planType,
        primary: windowOf(r.primary),
        secondary: windowOf(r.secondary),
        updatedAt: isoOf(Date.parse(r.updatedAt)) ?? new Date(c.generatedMs).toISOString(),
        stale: r.stale,
      }))
    : null;
  return { provider: p.provider, cli, rateLimits, ...blockBase(p, c) };
}

/** Alert rows per detail level: the block sits at the top of the card, so it stays short. */
const ALERT_ROWS: Readonly<Record<SnapshotDetail, number>> = { compact: 3, standard: 3, full: 5 };

const finite = (n: number): number => (Number.isFinite(n) ? n : 0);

function alertRow(a: AlertInput): CardAlertRow {
  const p = a.projection;
  const unit = (ALERT_UNITS as readonly string[]).includes(a.unit) ? (a.unit as CardAlertRow["unit"]) : "count";
  return {
    ruleId: a.ruleId,
    ruleName: a.ruleName,
    subject: a.subject,
    label: a.label,
    metric: a.metric,
    severity: a.severity,
    value: finite(a.value),
    threshold: finite(a.threshold),
    unit,
    window: a.window,
    since: isoOf(a.since) ?? new Date(0).toISOString(),
    mutedUntil: isoOf(a.mutedUntil),
    projection:
      p && Number.isFinite(p.target) && Number.isFinite(p.projectedTotal) && isoOf(p.windowEnd)
        ? { target: Math.max(0, p.target), projectedTotal: Math.max(0, p.projectedTotal), reachesAt: isoOf(p.reachesAt), windowEnd: isoOf(p.windowEnd) as string }
        : null,
  };
}

/** The alerts firing now: critical first, then the most recent; as many rows as the detail has room for. */
function alertsOf(list: readonly AlertInput[], detail: SnapshotDetail): CardAlerts {
  const sorted = [...list].sort((a, b) => Number(b.severity === "critical") - Number(a.severity === "critical") || b.since - a.since || a.ruleId.localeCompare(b.ruleId));
  return { total: list.length, critical: list.filter((a) => a.severity === "critical").length, items: sorted.slice(0, ALERT_ROWS[detail]).map(alertRow) };
}

/** Every provider together: a figure is known only when every provider's is. */
function sumOf(blocks: readonly CardBlock[]): CardSummary {
  const add = (k: keyof CardSummary): number | null => blocks.reduce<number | null>((n, b) => (n === null || b.summary[k] === null ? null : n + (b.summary[k] as number)), 0);
  const cost = add("costUsd");
  return {
    tokens: add("tokens"),
    costUsd: cost === null ? null : usd(cost),
    unpricedResponses: add("unpricedResponses"),
    turns: add("turns"),
    errors: add("errors"),
    warnings: add("warnings"),
    activeSessions: add("activeSessions"),
    totalSessions: add("totalSessions"),
    lastActivityAt: newest(blocks.map((b) => b.summary.lastActivityAt)),
  };
}

export function buildCardModel(inputs: CardInputs, params: CardBuildParams): CardModel {
  const generatedMs = params.generatedAt instanceof Date ? params.generatedAt.getTime() : params.generatedAt;
  const grid = gridOf(inputs, params.range, generatedMs);
  const c: Context = { params, grid, limits: inputs.providers.length > 1 ? CARD_LIMITS.several : CARD_LIMITS.one, generatedMs };
  const providers = inputs.providers.map((p) => (isGatewayInputs(p) ? openclawBlock(p, c) : cliBlock(p, c)));
  const model: CardModel = {
    schemaVersion: CARD_SCHEMA_VERSION,
    generatedAt: new Date(generatedMs).toISOString(),
    detail: params.detail,
    range: params.range,
    theme: params.theme,
    lang: params.lang,
    timeZone: inputs.timeZone ?? "UTC",
    // The last bucket ends up to a step after now; the figures end now.
    window: { from: new Date(grid.fromMs).toISOString(), to: new Date(Math.min(grid.toMs, generatedMs)).toISOString() },
    demo: params.demo,
    degradedSources: [...params.degradedSources],
    insightsVersion: inputs.appVersion,
    verdict: inputs.health?.verdict ?? null,
    // Alerts are daemon-wide, on every detail level; left out where no rules are evaluated.
    ...(inputs.alerts !== undefined ? { alerts: inputs.alerts === null ? null : alertsOf(inputs.alerts, params.detail) } : {}),
    ...(providers.length > 1 ? { allProviders: sumOf(providers) } : {}),
    providers,
  };
  if (params.detail === "full") {
    // Messages in the card's language (the JSON too: it is the model of the image).
    model.health = inputs.health
      ? {
          status: inputs.health.status,
          verdict: inputs.health.verdict,
          checks: localizeMessages(inputs.health.checks, params.lang).map((x) => ({ name: x.name, status: x.status, message: x.message })),
        }
      : null;
  }
  return model;
}
