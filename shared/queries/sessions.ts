// Sessions of one source (design §5, §9): one entry per session key, its figures summed over every
// transcript under the key from the store's transcript totals, with a status derived from the
// provider's own status and recent activity, sorted, filtered and (by default) grouped so that
// sub-agents nest under their parent.
import type { AgentSnapshot } from "../ingest/agent-source.js";
import type { SessionKind, SessionRecord } from "../providers/contract.js";
import { finiteTotals } from "../base/usage-guard.js";
import type { Store } from "../store/store.js";
import { HOUR, iso, MINUTE } from "./time.js";
import { usd } from "./money.js";
import { figureSums, type FigureRow, type TokenFigures } from "./usage-figures.js";

export type SessionStatus = "ACTIVE" | "IDLE" | "DONE" | "FAILED";
export type SessionSort = "UPDATED_AT" | "TOKENS_DESC" | "COST_DESC" | "NAME";

export interface SessionFilter {
  activeOnly?: boolean | null;
  /** Nest sub-agents under their parent (default true). */
  grouped?: boolean | null;
  sortBy?: SessionSort | null;
  /** Default 100, at most 1000. */
  limit?: number | null;
}

export interface SessionView extends TokenFigures {
  key: string;
  agentId: string;
  displayName: string;
  kind: SessionKind;
  model: string | null;
  channel: string | null;
  status: SessionStatus;
  /** The working directory (Claude Code, Codex). */
  project: string | null;
  gitBranch: string | null;
  contextTokens: number | null;
  contextWindow: number | null;
  usagePercent: number | null;
  turnCount: number;
  assistantMessages: number;
  toolCalls: number;
  errors: number;
  updatedAt: string | null;
  startedAt: string | null;
  lastActivityAt: string | null;
  parentKey: string | null;
  thinkingLevel: string | null;
  windows: number;
  subAgents: SessionView[];
}

const ACTIVE_WINDOW_MS = 30 * MINUTE;
const IDLE_WINDOW_MS = 24 * HOUR;
const DEFAULT_SESSION_LIMIT = 100;
const MAX_SESSION_LIMIT = 1000;

interface KeyTotals extends FigureRow {
  session_key: string;
  user_messages: number;
  assistant_messages: number;
  tool_calls: number;
  errors: number;
  first_activity: number | null;
  last_activity: number | null;
  /** Earliest event of any type (the `session` header), else the first message. */
  first_event: number | null;
}

export type TotalsByKey = Map<string, KeyTotals>;

const USAGE_COLUMNS = ["input", "output", "cache_read", "cache_write", "reasoning", "cost_usd"] as const;

const TOTALS_SQL = `SELECT session_key, ${figureSums()}, sum(user_messages) AS user_messages,
    sum(assistant_messages) AS assistant_messages, sum(tool_calls) AS tool_calls, sum(errors) AS errors,
    min(first_activity) AS first_activity, max(last_activity) AS last_activity, min(coalesce(first_event, first_activity)) AS first_event
  FROM transcript_totals WHERE source_id = ? AND session_key IS NOT NULL`;

/** Per-key sums of the source's transcript totals. */
export function totalsByKey(store: Store, sourceId: string): Map<string, KeyTotals> {
  const rows = store.db.prepare(`${TOTALS_SQL} GROUP BY session_key`).all(sourceId) as KeyTotals[];
  // Finite and never negative even if an older version stored a poisoned row (GraphQL refuses Infinity).
  return new Map(rows.map((r) => [r.session_key, finiteTotals(r, USAGE_COLUMNS)]));
}

/**
 * `totals` with the sums of `keys` read again (a key with no transcript left is dropped): what
 * `totalsByKey` gives now when only those keys were written since `totals` was read. A new map;
 * `totals` is left as it is.
 */
export function withTotalsOf(store: Store, sourceId: string, totals: TotalsByKey, keys: ReadonlySet<string>): TotalsByKey {
  const next = new Map(totals);
  if (!keys.size) return next;
  for (const k of keys) next.delete(k);
  const rows = store.db.prepare(`${TOTALS_SQL} AND session_key IN (SELECT value FROM json_each(?)) GROUP BY session_key`).all(sourceId, JSON.stringify([...keys])) as KeyTotals[];
  for (const r of rows) next.set(r.session_key, finiteTotals(r, USAGE_COLUMNS));
  return next;
}

export function sessionStatus(raw: string | null, lastActivity: number | null, now: number): SessionStatus {
  if (raw === "failed" || raw === "killed" || raw === "timeout") return "FAILED";
  if (raw === "running") return "ACTIVE";
  if (lastActivity !== null && now - lastActivity < ACTIVE_WINDOW_MS) return "ACTIVE";
  if (lastActivity !== null && now - lastActivity < IDLE_WINDOW_MS) return "IDLE";
  return "DONE";
}

/**
 * When `sessionStatus` of a session next changes by the clock alone: 30 minutes after its last
 * activity (ACTIVE -> IDLE), then 24 hours after it (IDLE -> DONE). Infinity when only a change of
 * the session itself can change it (a provider status, no activity known, already DONE).
 */
function nextStatusChange(raw: string | null, lastActivity: number | null, now: number): number {
  if (raw === "failed" || raw === "killed" || raw === "timeout" || raw === "running" || lastActivity === null) return Infinity;
  if (now - lastActivity < ACTIVE_WINDOW_MS) return lastActivity + ACTIVE_WINDOW_MS;
  if (now - lastActivity < IDLE_WINDOW_MS) return lastActivity + IDLE_WINDOW_MS;
  return Infinity;
}

/** An answer and the first instant it no longer holds (a status it shows, or one it was filtered on, changes). */
export interface Timed<T> {
  value: T;
  validUntil: number;
}

function maxOf(...values: Array<number | null | undefined>): number | null {
  let out: number | null = null;
  for (const v of values) if (typeof v === "number" && Number.isFinite(v) && (out === null || v > out)) out = v;
  return out;
}

function toView(s: SessionRecord, t: KeyTotals | undefined, now: number): SessionView {
  const input = t?.input ?? 0;
  const output = t?.output ?? 0;
  const cacheRead = t?.cache_read ?? 0;
  const cacheWrite = t?.cache_write ?? 0;
  const lastActivity = maxOf(s.lastActivityAt, s.updatedAt, t?.last_activity);
  const usage = s.contextTokens !== null && s.contextWindow ? Math.round((s.contextTokens / s.contextWindow) * 1000) / 10 : null;
  return {
    key: s.key,
    agentId: s.agentId,
    displayName: s.displayName,
    kind: s.kind,
    model: s.model,
    channel: s.channel,
    status: sessionStatus(s.status, lastActivity, now),
    totalTokens: input + output + cacheRead + cacheWrite,
    inputTokens: input,
    outputTokens: output,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    reasoningTokens: t?.reasoning ?? 0,
    costUsd: usd(t?.cost_usd ?? 0),
    unpricedResponses: t?.unpriced ?? 0,
    project: s.project,
    gitBranch: s.gitBranch,
    contextTokens: s.contextTokens,
    contextWindow: s.contextWindow,
    usagePercent: usage,
    turnCount: t?.user_messages ?? 0,
    assistantMessages: t?.assistant_messages ?? 0,
    toolCalls: t?.tool_calls ?? 0,
    errors: t?.errors ?? 0,
    updatedAt: iso(s.updatedAt),
    startedAt: iso(s.startedAt ?? t?.first_event ?? null),
    lastActivityAt: iso(lastActivity),
    parentKey: s.parentKey,
    thinkingLevel: s.thinkingLevel,
    windows: s.sessionIds.length,
    subAgents: [],
  };
}

/** What sorting, filtering and nesting need, without building the full view (most rows are cut). */
interface Row {
  s: SessionRecord;
  t: KeyTotals | undefined;
  lastActivity: number;
  status: SessionStatus;
  tokens: number;
}

const byKeyAsc = (a: Row, b: Row): number => (a.s.key < b.s.key ? -1 : a.s.key > b.s.key ? 1 : 0);

const SORTS: Record<SessionSort, (a: Row, b: Row) => number> = {
  UPDATED_AT: (a, b) => b.lastActivity - a.lastActivity || byKeyAsc(a, b),
  TOKENS_DESC: (a, b) => b.tokens - a.tokens || byKeyAsc(a, b),
  COST_DESC: (a, b) => (b.t?.cost_usd ?? 0) - (a.t?.cost_usd ?? 0) || byKeyAsc(a, b),
  NAME: (a, b) => a.s.displayName.localeCompare(b.s.displayName) || byKeyAsc(a, b),
};

/**
 * Sorted, filtered and (by default) nested sessions. Views are built only for the sessions
 * returned: an agent with thousands of sessions still costs one pass over plain rows.
 */
export function querySessions(store: Store, agent: AgentSnapshot, filter: SessionFilter = {}, now: number, totals = totalsByKey(store, agent.id)): SessionView[] {
  return sessionsAt(agent, filter, now, totals).value;
}

/** The filter as `sessionsAt` reads it, as a string: two filters with the same key give the same list. */
export function sessionFilterKey(filter: SessionFilter): string {
  const limit = Math.min(MAX_SESSION_LIMIT, Math.max(1, filter.limit ?? DEFAULT_SESSION_LIMIT));
  return `${filter.activeOnly ? "active" : "all"}|${filter.grouped === false ? "flat" : "nested"}|${filter.sortBy ?? "UPDATED_AT"}|${limit}`;
}

/** Views in a list, sub-agents included (what a cached list weighs). */
export function countViews(views: readonly SessionView[]): number {
  let n = 0;
  for (const v of views) n += 1 + countViews(v.subAgents);
  return n;
}

/**
 * `querySessions` with the instant its answer stops holding: the first status change by the clock
 * among all the source's sessions (the filter, the nesting and the views all follow from those
 * statuses; sorting does not depend on them).
 */
export function sessionsAt(agent: AgentSnapshot, filter: SessionFilter, now: number, totals: TotalsByKey): Timed<SessionView[]> {
  const limit = Math.min(MAX_SESSION_LIMIT, Math.max(1, filter.limit ?? DEFAULT_SESSION_LIMIT));
  let rows: Row[] = [];
  let validUntil = Infinity;
  for (const s of agent.sessions) {
    if (s.archived) continue;
    const t = totals.get(s.key);
    const last = maxOf(s.lastActivityAt, s.updatedAt, t?.last_activity);
    validUntil = Math.min(validUntil, nextStatusChange(s.status, last, now));
    rows.push({ s, t, lastActivity: last ?? -Infinity, status: sessionStatus(s.status, last, now), tokens: t ? t.input + t.output + t.cache_read + t.cache_write : 0 });
  }
  if (filter.activeOnly) rows = rows.filter((r) => r.status === "ACTIVE");
  rows.sort(SORTS[filter.sortBy ?? "UPDATED_AT"]);
  if (filter.grouped === false) return { value: rows.slice(0, limit).map((r) => toView(r.s, r.t, now)), validUntil };
  const byKey = new Map(rows.map((r) => [r.s.key, r]));
  const children = new Map<string, Row[]>();
  const roots: Row[] = [];
  for (const r of rows) {
    const parent = r.s.parentKey ? byKey.get(r.s.parentKey) : undefined;
    // A cycle or a self-parent would hide sessions; only nest under a different, present key.
    if (parent && parent !== r && !isAncestor(r, parent, byKey)) {
      let list = children.get(parent.s.key);
      if (!list) children.set(parent.s.key, (list = []));
      list.push(r);
    } else roots.push(r);
  }
  const build = (r: Row): SessionView => {
    const v = toView(r.s, r.t, now);
    v.subAgents = (children.get(r.s.key) ?? []).map(build);
    return v;
  };
  return { value: roots.slice(0, limit).map(build), validUntil };
}

function isAncestor(candidate: Row, node: Row, byKey: Map<string, Row>): boolean {
  const seen = new Set<string>();
  for (let cur: Row | undefined = node; cur; cur = cur.s.parentKey ? byKey.get(cur.s.parentKey) : undefined) {
    if (cur === candidate) return true;
    if (seen.has(cur.s.key)) return false;
    seen.add(cur.s.key);
  }
  return false;
}

export function findSession(store: Store, agent: AgentSnapshot, key: string, now: number, totals = totalsByKey(store, agent.id)): SessionView | null {
  const s = agent.sessions.find((x) => x.key === key);
  if (!s) return null;
  const view = toView(s, totals.get(key), now);
  view.subAgents = agent.sessions.filter((c) => c.parentKey === key && c.key !== key).map((c) => toView(c, totals.get(c.key), now));
  return view;
}

export type SessionCounts = Record<SessionStatus, number> & { total: number };

/** Every (non-archived) session of the agent by status, without any list limit, with the instant the answer stops holding (see `sessionsAt`). */
export function countsAt(agent: AgentSnapshot, now: number, totals: TotalsByKey): Timed<SessionCounts> {
  const counts: SessionCounts = { total: 0, ACTIVE: 0, IDLE: 0, DONE: 0, FAILED: 0 };
  let validUntil = Infinity;
  for (const s of agent.sessions) {
    if (s.archived) continue;
    counts.total++;
    const last = maxOf(s.lastActivityAt, s.updatedAt, totals.get(s.key)?.last_activity);
    validUntil = Math.min(validUntil, nextStatusChange(s.status, last, now));
    counts[sessionStatus(s.status, last, now)]++;
  }
  return { value: counts, validUntil };
}
