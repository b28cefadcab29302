// Token usage and cost reports (`insightsctl usage`, docs/usage.md): by day, month, session or
// project, over every provider in the one token vocabulary (design §9), in a caller's time zone.
// The report is a plain object with a documented, versioned JSON shape (`schemaVersion`); the
// daemon returns it over the control socket and the CLI builds the very same object in-process
// when no daemon runs.
//
// Where the figures come from:
// - daily, monthly, project: per-response rows (token_usage) where retention keeps them, hourly
//   rollups (token_usage_hourly, which keep source, model and project) before that, as
//   usage-cost.ts combines them, per source and hour so nothing is counted twice: before the raw
//   window an hour's rollup wins, and raw rows count only for an hour of a source that has none
//   yet (history a first scan just read, which retention has not rolled up). Daily and monthly
//   read the same figures from usage_steps and usage_hours (store v9: per 15-minute step or
//   rollup hour, source and model, kept equal to those tables by triggers), summed per local day
//   by SQLite, so a report costs the same whatever the size of the history (usageDayCells).
// - session: each session's lifetime figures per model (transcript_models, never pruned), so a
//   session older than the raw window keeps its row. Rollups know no sessions.
// `usageCells` (usage-cells.ts) is the first half (per 15-minute step or hour, source, model and project) and is
// what a daily export per provider, model and project can be built from.
// The report's parameters are parsed in usage-params.ts, the store read in usage-cells.ts, the
// figures summed in usage-sums.ts; this file is the report's shape and its rows.
import { providersWith, type ProviderName } from "../providers/registry.js";
import type { Store } from "../store/store.js";
import { usd } from "./money.js";
import { blockSpans, burnRate, projectBlock } from "./usage-blocks.js";
import { prefixOf, projectKey, usageCells, usageDayCells } from "./usage-cells.js";
import { figureColumns, figureSums, sumsOf, type FigureColumns, type Sums, type TokenFigures } from "./usage-figures.js";
import { weekOf, type UsageReportKind, type UsageReportParams, type Weekday } from "./usage-params.js";
import { figures, Group } from "./usage-sums.js";
import { DAY, dayKey, HOUR, iso } from "./time.js";

const USAGE_SCHEMA_VERSION = 1;

const BLOCKS_PROVIDER: ProviderName | null = providersWith("usageBlocks")[0] ?? null;

/** Token and cost figures; costUsd is a lower bound when costComplete is false. */
export interface UsageFigures extends TokenFigures {
  responses: number;
  costComplete: boolean;
}

export interface UsageModelFigures extends UsageFigures {
  model: string;
}

export interface UsageProviderFigures extends UsageFigures {
  provider: ProviderName;
}

/** A blocks row: the 5-hour block (shared/queries/usage-blocks.ts), or the gap between two. */
interface UsageBlock {
  /** Start (the first response floored to the hour) and end (start + 5 h); a gap's: 5 h after the last response, to the next. ISO, UTC. */
  start: string;
  end: string;
  gap: boolean;
  /** The block's last response (null for a gap). */
  lastActivityAt: string | null;
  active: boolean;
  /** Active block only, when it spans more than an instant: tokens a minute and USD an hour from its first to its last response. */
  burnRate: { tokensPerMinute: number; costPerHour: number } | null;
  /** Active block only: its figures at its end if the burn rate holds. An estimate. */
  projection: { estimate: true; endsAt: string; remainingMinutes: number; totalTokens: number; costUsd: number } | null;
}

export interface UsageTotals extends UsageFigures {
  providers: ProviderName[];
  /** Source ids (`claude-code:default`, `agent:main`). */
  sources: string[];
  models: string[];
  /** Models with unpriced responses. */
  unpricedModels: string[];
}

export interface UsageRow extends UsageTotals {
  /** `YYYY-MM-DD` (daily), `YYYY-MM` (monthly), the session key, or the project. */
  key: string;
  /** Per model, most tokens first; only with `breakdown`. */
  breakdown?: UsageModelFigures[];
  /** daily, weekly, monthly: per provider, in the interface's order (OpenClaw, Claude Code, Codex). */
  byProvider?: UsageProviderFigures[];
  /** blocks only. */
  block?: UsageBlock;
  /** Session rows only: the working directory (null when none is known). */
  project?: string | null;
  /** Session rows only: first and last activity, sub-agents included (ISO, UTC). */
  startedAt?: string | null;
  lastActivityAt?: string | null;
  /** Session rows only: sub-agent sessions folded into this one. */
  subagents?: number;
}

export interface UsageReport {
  schemaVersion: typeof USAGE_SCHEMA_VERSION;
  report: UsageReportKind;
  timeZone: string;
  since: string | null;
  until: string | null;
  /** The provider asked for (blocks: claude-code unless another is named); null: all. */
  provider: ProviderName | null;
  /** weekly only: the day its weeks start on. */
  weekStart?: Weekday;
  currency: "USD";
  /** The bundled demo state was read: the figures are not anyone's usage. */
  demo: boolean;
  /** Every source had finished its first read of the transcripts: nothing is missing. */
  scanComplete: boolean;
  rows: UsageRow[];
  totals: UsageTotals;
}


/** Epoch-ms bounds wide enough for every instant of the days [since, until] in any zone (UTC-12 to UTC+14). */
function looseBounds(since: string | null, until: string | null): { from: number | null; to: number | null } {
  const at = (day: string): number => Date.parse(`${day}T00:00:00Z`);
  return { from: since === null ? null : at(since) - DAY, to: until === null ? null : at(until) + 2 * DAY };
}

const inRange = (day: string, p: UsageReportParams): boolean => (p.since === null || day >= p.since) && (p.until === null || day <= p.until);

interface UsageReportOptions {
  now: number;
  rawDays: number;
  demo: boolean;
  scanComplete: boolean;
  /**
   * The parent of a session as its provider's own index says (OpenClaw's sessions.json), for
   * sessions whose transcripts did not say it (session_meta.parent_key has it otherwise).
   */
  parentOf?: (sourceId: string, key: string) => string | null;
}

export function queryUsageReport(store: Store, params: UsageReportParams, o: UsageReportOptions): UsageReport {
  const p = params.report === "blocks" ? { ...params, provider: params.provider ?? BLOCKS_PROVIDER } : params;
  const rows = p.report === "session" ? sessionRows(store, p, o) : p.report === "blocks" ? blockRows(store, p, o) : cellRows(store, p, o);
  const totals = new Group();
  for (const r of rows) totals.merge(r.group);
  // Calendar reports split each row per provider (the table shows it when more than one is read).
  const byProvider = p.report === "daily" || p.report === "weekly" || p.report === "monthly";
  return {
    schemaVersion: USAGE_SCHEMA_VERSION,
    report: p.report,
    timeZone: p.timeZone,
    since: p.since,
    until: p.until,
    provider: p.provider,
    ...(p.report === "weekly" ? { weekStart: p.weekStart } : {}),
    currency: "USD",
    demo: o.demo,
    scanComplete: o.scanComplete,
    rows: rows.map((r) => r.group.row(r.key, r.extra, p.breakdown, byProvider)),
    totals: totals.totals(),
  };
}


interface Built {
  key: string;
  group: Group;
  extra: Partial<UsageRow>;
}

/** daily, monthly, project: from the cells, filtered by the day each falls on in the zone. */
function cellRows(store: Store, p: UsageReportParams, o: UsageReportOptions): Built[] {
  const groups = new Map<string, Group>();
  const add = (key: string, sourceId: string, model: string, s: Sums): void => {
    let g = groups.get(key);
    if (!g) groups.set(key, (g = new Group()));
    g.add(sourceId, model, s);
  };
  const cellOptions = { now: o.now, rawDays: o.rawDays, provider: p.provider, ...looseBounds(p.since, p.until) };
  if (p.report === "project") {
    // Projects group the raw rows and rollups themselves (the aggregates keep no project).
    for (const c of usageCells(store, cellOptions)) {
      if (inRange(dayKey(c.at, p.timeZone), p)) add(projectKey(c.sourceId, c.project), c.sourceId, c.model, c);
    }
  } else {
    // Days and months: the trigger-kept aggregates, summed per day by SQLite.
    for (const c of usageDayCells(store, cellOptions, p.timeZone)) {
      if (inRange(c.day, p)) add(p.report === "daily" ? c.day : p.report === "weekly" ? weekOf(c.day, p.weekStart) : c.day.slice(0, 7), c.sourceId, c.model, c);
    }
  }
  // Days and months sort as text; projects by name.
  return [...groups.keys()].sort().map((key) => ({ key, group: groups.get(key) as Group, extra: {} }));
}

interface SessionModelRow extends FigureColumns {
  source_id: string;
  key: string;
  model: string;
}

interface SessionFactRow {
  source_id: string;
  key: string;
  parent_key: string | null;
  project: string | null;
  first_activity: number | null;
  last_activity: number | null;
}

/** Sessions that had usage, each with its sub-agents folded in, active (last activity) within the range. */
function sessionRows(store: Store, p: UsageReportParams, o: UsageReportOptions): Built[] {
  const prefix = p.provider ? prefixOf(p.provider) : null;
  const usage = store.db
    .prepare(
      // A transcript without a session key (an OpenClaw window no session names) is its own session.
      `SELECT t.source_id, coalesce(t.session_key, t.session_id) AS key, tm.model,
              ${figureSums("tm")}, sum(tm.messages) AS responses
       FROM transcript_models tm JOIN transcript_totals t ON t.source_id = tm.source_id AND t.session_id = tm.session_id
       WHERE tm.messages > 0 AND (@prefix IS NULL OR substr(t.source_id, 1, length(@prefix)) = @prefix)
       GROUP BY 1, 2, 3`,
    )
    .all({ prefix }) as SessionModelRow[];
  const facts = store.db
    .prepare(
      // What the transcripts said (session_meta) and when each session's transcripts were active.
      `SELECT source_id, key, max(parent_key) AS parent_key, max(project) AS project, min(first_activity) AS first_activity, max(last_activity) AS last_activity
       FROM (SELECT source_id, coalesce(session_key, session_id) AS key, NULL AS parent_key, NULL AS project, first_activity, last_activity
             FROM transcript_totals WHERE @prefix IS NULL OR substr(source_id, 1, length(@prefix)) = @prefix
             UNION ALL
             SELECT source_id, session_key, parent_key, project, started_at, last_activity
             FROM session_meta WHERE @prefix IS NULL OR substr(source_id, 1, length(@prefix)) = @prefix)
       GROUP BY source_id, key`,
    )
    .all({ prefix }) as SessionFactRow[];
  const id = (source: string, key: string): string => `${source}\u0000${key}`;
  const fact = new Map(facts.map((f) => [id(f.source_id, f.key), f]));
  const parentOf = (source: string, key: string): string | null => fact.get(id(source, key))?.parent_key ?? o.parentOf?.(source, key) ?? null;
  /** The session a sub-agent's usage is folded into: its topmost known ancestor (a cycle stops the walk). */
  const rootOf = (source: string, key: string): string => {
    const seen = new Set([key]);
    let k = key;
    for (let parent = parentOf(source, k); parent !== null && !seen.has(parent) && seen.size < 64; parent = parentOf(source, k)) {
      seen.add(parent);
      k = parent;
    }
    return k;
  };

  interface Session {
    source: string;
    key: string;
    group: Group;
    members: Set<string>;
    first: number | null;
    last: number | null;
    project: string | null;
  }
  const sessions = new Map<string, Session>();
  for (const r of usage) {
    const root = rootOf(r.source_id, r.key);
    const sid = id(r.source_id, root);
    let s = sessions.get(sid);
    if (!s) sessions.set(sid, (s = { source: r.source_id, key: root, group: new Group(), members: new Set([root]), first: null, last: null, project: null }));
    s.members.add(r.key);
    s.group.add(r.source_id, r.model, sumsOf(r));
  }
  const out: Array<Built & { last: number | null }> = [];
  for (const s of sessions.values()) {
    // The root's own facts first (its project), then its sub-agents' (their activity counts too).
    for (const key of s.members) {
      const f = fact.get(id(s.source, key));
      if (!f) continue;
      if (f.first_activity !== null) s.first = s.first === null ? f.first_activity : Math.min(s.first, f.first_activity);
      if (f.last_activity !== null) s.last = s.last === null ? f.last_activity : Math.max(s.last, f.last_activity);
    }
    s.project = fact.get(id(s.source, s.key))?.project ?? [...s.members].map((k) => fact.get(id(s.source, k))?.project ?? null).find((x) => x !== null) ?? null;
    // A session counts on the day of its last activity (as ccusage's session report filters).
    if ((p.since !== null || p.until !== null) && (s.last === null || !inRange(dayKey(s.last, p.timeZone), p))) continue;
    out.push({
      key: s.key,
      group: s.group,
      last: s.last,
      extra: { project: s.project, startedAt: iso(s.first), lastActivityAt: iso(s.last), subagents: s.members.size - 1 },
    });
  }
  // By last activity, oldest first (the latest ends up next to the totals), then by key.
  out.sort((a, b) => (a.last ?? -Infinity) - (b.last ?? -Infinity) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return out;
}

interface ResponseRow extends FigureColumns {
  at: number;
  source_id: string;
  model: string;
}

/**
 * blocks: every response in time order (raw rows where retention keeps them; before that a rollup
 * hour counts as one entry at its start, so old blocks start and end to the hour), cut into
 * 5-hour blocks and the gaps between them (usage-blocks.ts). A response counts when its day in
 * the zone is within --since/--until, as ccusage filters before it cuts blocks.
 */
function blockRows(store: Store, p: UsageReportParams, o: UsageReportOptions): Built[] {
  const { from, to } = looseBounds(p.since, p.until);
  const rawFrom = Math.ceil((o.now - o.rawDays * DAY) / HOUR) * HOUR;
  const prefix = p.provider ? prefixOf(p.provider) : null;
  const rows = store.db
    .prepare(
      `SELECT u.ts AS at, u.source_id, u.model, ${figureColumns("u")}, 1 AS responses
       FROM token_usage u
       WHERE u.role = 'assistant' AND u.ts >= @from AND u.ts < @to
         AND (@prefix IS NULL OR substr(u.source_id, 1, length(@prefix)) = @prefix)
         AND (u.ts >= @rawFrom OR NOT EXISTS (SELECT 1 FROM token_usage_hourly h WHERE h.hour = (u.ts / ${HOUR}) * ${HOUR} AND h.source_id = u.source_id))
       UNION ALL
       SELECT hour, source_id, model, ${figureColumns()}, messages
       FROM token_usage_hourly
       WHERE messages > 0 AND hour >= @from AND hour < min(@to, @rawFrom)
         AND (@prefix IS NULL OR substr(source_id, 1, length(@prefix)) = @prefix)
       ORDER BY 1`,
    )
    .all({ from: from ?? Number.MIN_SAFE_INTEGER, to: to ?? Number.MAX_SAFE_INTEGER, rawFrom, prefix }) as ResponseRow[];
  const kept = p.since === null && p.until === null ? rows : rows.filter((r) => inRange(dayKey(r.at, p.timeZone), p));
  const out: Built[] = [];
  for (const span of blockSpans(kept.map((r) => r.at), o.now)) {
    const group = new Group();
    if (span.kind === "gap") {
      out.push({ key: `gap-${iso(span.start)}`, group, extra: { block: { start: iso(span.start) as string, end: iso(span.end) as string, gap: true, lastActivityAt: null, active: false, burnRate: null, projection: null } } });
      continue;
    }
    for (let i = span.from; i < span.to; i++) {
      const r = kept[i] as ResponseRow;
      group.add(r.source_id, r.model, sumsOf(r));
    }
    const f = figures(group.sums);
    const rate = span.active ? burnRate(span, f.totalTokens, group.sums.cost) : null;
    const projected = rate ? projectBlock(span, f.totalTokens, group.sums.cost, rate, o.now) : null;
    out.push({
      key: iso(span.start) as string,
      group,
      extra: {
        block: {
          start: iso(span.start) as string,
          end: iso(span.end) as string,
          gap: false,
          lastActivityAt: iso(span.last),
          active: span.active,
          burnRate: rate,
          projection: projected ? { ...projected, endsAt: iso(projected.endsAt) as string, costUsd: usd(projected.costUsd) } : null,
        },
      },
    });
  }
  return out;
}
