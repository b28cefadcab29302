// A source's event log as the spec's AgentNamespace sees it: error / warning / restart events
// (filtered, counted, in hourly density buckets) and the latest log entries. A row belongs to the
// source it names; OpenClaw's gateway-wide lines (no source) belong to every OpenClaw source.
import { GATEWAY_PROVIDER, type ProviderName } from "../providers/registry.js";
import type { Store } from "../store/store.js";
import { HOUR, hourOfDay, iso } from "./time.js";

export type EventType = "error" | "warning" | "restart";
export const EVENT_TYPES: readonly EventType[] = ["error", "warning", "restart"];
export const DEFAULT_EVENT_LIMIT = 200;
export const MAX_EVENT_LIMIT = 1000;
const DEFAULT_LOG_COUNT = 50;
const MAX_LOG_COUNT = 1000;

export interface EventView {
  /** Epoch seconds. */
  ts: number;
  time: string;
  type: EventType;
  level: string;
  module: string;
  message: string;
  agentId: string | null;
  sessionKey: string | null;
}

export interface LogEntryView {
  time: string;
  level: string;
  module: string;
  message: string;
  agentId: string | null;
  sessionKey: string | null;
}

export interface EventDensityBucket {
  hour: number;
  count: number;
  hasError: boolean;
  hasWarning: boolean;
  hasRestart: boolean;
  errorCount: number;
  warningCount: number;
  restartCount: number;
  epochStart: number;
}

export interface EventCounts {
  error: number;
  warning: number;
  restart: number;
}

/** Which rows a source sees: its own, and its provider's rows that name no source. */
export interface EventScope {
  sourceId: string;
  provider: ProviderName;
}

const SCOPE = "(source_id = @source OR (source_id IS NULL AND provider = @provider))";

interface EventRow {
  ts: number;
  level: string;
  type: EventType;
  module: string;
  message: string;
  agent_id: string | null;
  session_key: string | null;
}

export interface EventsArgs {
  /** Epoch seconds, inclusive. */
  from?: number | null;
  /** Epoch seconds, exclusive. */
  to?: number | null;
  types?: readonly string[] | null;
  limit?: number | null;
}

/** Newest first. Unknown types are a RangeError naming them. */
export function queryEvents(store: Store, scope: EventScope, args: EventsArgs = {}): EventView[] {
  const types = args.types?.length ? args.types : EVENT_TYPES;
  const bad = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (bad.length) throw new RangeError(`unknown event type ${bad.join(", ")}; use ${EVENT_TYPES.join(", ")}`);
  const limit = Math.min(MAX_EVENT_LIMIT, Math.max(1, args.limit ?? DEFAULT_EVENT_LIMIT));
  const rows = store.db
    .prepare(
      `SELECT ts, level, type, module, message, agent_id, session_key FROM log_events
       WHERE type IN (SELECT value FROM json_each(@types)) AND ts >= @from AND ts < @to AND ${SCOPE}
       ORDER BY ts DESC, rowid DESC LIMIT @limit`,
    )
    .all({ types: JSON.stringify(types), from: (args.from ?? 0) * 1000, to: args.to == null ? Number.MAX_SAFE_INTEGER : args.to * 1000, source: scope.sourceId, provider: scope.provider, limit }) as EventRow[];
  return rows.map((r) => ({
    ts: Math.floor(r.ts / 1000),
    time: iso(r.ts) as string,
    type: r.type,
    level: r.level.toUpperCase(),
    module: r.module,
    message: r.message,
    agentId: r.agent_id,
    sessionKey: r.session_key,
  }));
}

export function queryEventCounts(store: Store, scope: EventScope, args: { from?: number | null; to?: number | null } = {}): EventCounts {
  const r = store.db
    .prepare(
      `SELECT coalesce(sum(type = 'error'), 0) AS error, coalesce(sum(type = 'warning'), 0) AS warning, coalesce(sum(type = 'restart'), 0) AS restart
       FROM log_events WHERE type IS NOT NULL AND ts >= @from AND ts < @to AND ${SCOPE}`,
    )
    .get({ from: (args.from ?? 0) * 1000, to: args.to == null ? Number.MAX_SAFE_INTEGER : args.to * 1000, source: scope.sourceId, provider: scope.provider }) as EventCounts;
  return r;
}

/** The last 24 hours in hourly buckets, oldest first, the current hour last. */
export function queryEventDensity(store: Store, scope: EventScope, now: number, timeZone: string): EventDensityBucket[] {
  const currentHour = Math.floor(now / HOUR) * HOUR;
  const start = currentHour - 23 * HOUR;
  const rows = store.db
    .prepare(
      `SELECT CAST((ts - @start) / ${HOUR} AS INTEGER) AS i, count(*) AS n, sum(type = 'error') AS e, sum(type = 'warning') AS w, sum(type = 'restart') AS r
       FROM log_events WHERE type IS NOT NULL AND ts >= @start AND ts < @end AND ${SCOPE} GROUP BY i`,
    )
    .all({ start, end: currentHour + HOUR, source: scope.sourceId, provider: scope.provider }) as Array<{ i: number; n: number; e: number; w: number; r: number }>;
  const byIndex = new Map(rows.map((r) => [r.i, r]));
  return Array.from({ length: 24 }, (_, i) => {
    const epoch = start + i * HOUR;
    const r = byIndex.get(i);
    return {
      hour: hourOfDay(epoch, timeZone),
      count: r?.n ?? 0,
      hasError: (r?.e ?? 0) > 0,
      hasWarning: (r?.w ?? 0) > 0,
      hasRestart: (r?.r ?? 0) > 0,
      errorCount: r?.e ?? 0,
      warningCount: r?.w ?? 0,
      restartCount: r?.r ?? 0,
      epochStart: epoch / 1000,
    };
  });
}

interface LogQuery {
  /** One source's view (its own lines and its provider's source-less ones); absent: OpenClaw's whole gateway log. */
  scope?: EventScope | null;
  count?: number | null;
  /** Minimum level, TRACE..FATAL (stored lines are INFO and above, plus every classified one). */
  minLevel?: string | null;
  /** Exact subsystem, or a prefix ending in `/` (`gateway/` matches `gateway` and `gateway/ws`). */
  module?: string | null;
}

const LEVEL_ORDER = ["trace", "debug", "info", "warn", "error", "fatal"];

/** Stored gateway log lines, newest last (the order a log is read in). */
export function queryLogs(store: Store, q: LogQuery = {}): LogEntryView[] {
  const n = Math.min(MAX_LOG_COUNT, Math.max(1, q.count ?? DEFAULT_LOG_COUNT));
  const from = Math.max(0, LEVEL_ORDER.indexOf((q.minLevel ?? "trace").toLowerCase()));
  const module = q.module ?? null;
  const prefix = module?.endsWith("/") ? module.slice(0, -1) : null;
  const rows = store.db
    .prepare(
      `SELECT ts, level, module, message, agent_id, session_key FROM log_events
       WHERE (@source IS NULL AND provider = @gateway OR ${SCOPE}) AND level IN (SELECT value FROM json_each(@levels))
         AND (@module IS NULL OR module = @module OR (@prefix IS NOT NULL AND (module = @prefix OR substr(module, 1, length(@module)) = @module)))
       ORDER BY ts DESC, rowid DESC LIMIT @n`,
    )
    .all({ source: q.scope?.sourceId ?? null, provider: q.scope?.provider ?? null, gateway: GATEWAY_PROVIDER, levels: JSON.stringify(LEVEL_ORDER.slice(from)), module, prefix, n }) as Array<Omit<EventRow, "type">>;
  return rows.reverse().map((r) => ({ time: iso(r.ts) as string, level: r.level.toUpperCase(), module: r.module, message: r.message, agentId: r.agent_id, sessionKey: r.session_key }));
}
