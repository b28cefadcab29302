// Token use per project (working directory) of one source: what the dashboard's per-project
// breakdown shows for Claude Code and Codex. One GROUP BY in the store, never a walk over the
// session list (which stops at 1000): the store's totals joined with `session_meta.project`.
// Without a range it covers every recorded transcript (transcript_totals, never pruned); with one
// it covers the same bucket grid as `metrics(range)` (token_usage rows), so the two agree.
import { finiteTotals } from "../base/usage-guard.js";
import type { Store } from "../store/store.js";
import { metricsWindow, rawFromOf, type MetricsRange } from "./metrics.js";
import { usd } from "./money.js";
import { figureSums, type FigureRow, type TokenFigures } from "./usage-figures.js";
import { HOUR, iso } from "./time.js";

export interface ProjectUsageView extends TokenFigures {
  /** The working directory; null for sessions with none recorded (OpenClaw's, or older files). */
  project: string | null;
  /** Session keys with usage in the window (sub-agents count as their own sessions). */
  sessions: number;
  /** User messages. */
  turns: number;
  lastActivityAt: string | null;
}

interface ProjectsOptions {
  /** Null: every recorded transcript. */
  range: MetricsRange | null;
  now: number;
  /** Default 100, at most 1000. */
  limit?: number | null;
  /** The zone the week's and the month's buckets sit in (as metrics'); default UTC. */
  timeZone?: string;
  /** retentionRawDays: before it, hourly rollups (default: raw rows only). */
  rawDays?: number;
}

const DEFAULT_PROJECT_LIMIT = 100;
const MAX_PROJECT_LIMIT = 1000;

interface Row extends FigureRow {
  project: string | null;
  sessions: number;
  turns: number;
  last: number | null;
}

const COLUMNS = ["input", "output", "cache_read", "cache_write", "reasoning", "cost_usd"] as const;

export function queryProjects(store: Store, sourceId: string, o: ProjectsOptions): ProjectUsageView[] {
  const limit = Math.min(MAX_PROJECT_LIMIT, Math.max(1, Math.floor(o.limit ?? DEFAULT_PROJECT_LIMIT)));
  let rows: Row[];
  if (o.range) {
    const { start, lastEnd } = metricsWindow(o.range, null, o.now, o.timeZone ?? "UTC");
    const rawFrom = rawFromOf(o.now, o.rawDays ?? Infinity);
    const raw = `SELECT m.project AS project, count(DISTINCT u.session_key) AS sessions, ${figureSums("u")},
                sum(u.role = 'user') AS turns, max(u.ts) AS last
         FROM token_usage u LEFT JOIN session_meta m ON m.source_id = u.source_id AND m.session_key = u.session_key
         WHERE u.source_id = @source AND u.ts >= @start AND u.ts < @end`;
    rows =
      start < rawFrom
        ? // Before the raw rows' start, the hourly rollups (as metrics counts): they keep no session
          // keys, so `sessions` counts the raw rows' only there, and `last` is the hour's start.
          (store.db
            .prepare(
              `SELECT project, sum(sessions) AS sessions, ${figureSums()},
                      sum(turns) AS turns, max(last) AS last FROM (
                 ${raw} AND (u.ts >= @rawFrom OR NOT EXISTS (SELECT 1 FROM token_usage_hourly h WHERE h.hour = (u.ts / ${HOUR}) * ${HOUR} AND h.source_id = u.source_id))
                 GROUP BY m.project
                 UNION ALL
                 SELECT nullif(project, ''), 0, ${figureSums()},
                        sum(turns), max(hour)
                 FROM token_usage_hourly WHERE source_id = @source AND hour >= @start AND hour < min(@rawFrom, @end) GROUP BY project
               ) GROUP BY project`,
            )
            .all({ source: sourceId, start, end: lastEnd, rawFrom }) as Row[])
        : (store.db.prepare(`${raw} GROUP BY m.project`).all({ source: sourceId, start, end: lastEnd }) as Row[]);
  } else {
    rows = store.db
      .prepare(
        `SELECT m.project AS project, count(DISTINCT t.session_key) AS sessions, ${figureSums("t")},
                sum(t.user_messages) AS turns, max(t.last_activity) AS last
         FROM transcript_totals t LEFT JOIN session_meta m ON m.source_id = t.source_id AND m.session_key = t.session_key
         WHERE t.source_id = ?
         GROUP BY m.project`,
      )
      .all(sourceId) as Row[];
  }
  const out = rows.map((r): ProjectUsageView => {
    // Finite and never negative even if an older version stored a poisoned row (GraphQL refuses Infinity).
    finiteTotals(r, COLUMNS);
    return {
      project: r.project,
      sessions: r.sessions,
      totalTokens: r.input + r.output + r.cache_read + r.cache_write,
      inputTokens: r.input,
      outputTokens: r.output,
      cacheReadTokens: r.cache_read,
      cacheWriteTokens: r.cache_write,
      reasoningTokens: r.reasoning,
      costUsd: usd(r.cost_usd),
      unpricedResponses: r.unpriced ?? 0,
      turns: r.turns ?? 0,
      lastActivityAt: iso(r.last),
    };
  });
  // Most tokens first; sessions with no project last; then by name, so the order is stable.
  out.sort((a, b) => Number(a.project === null) - Number(b.project === null) || b.totalTokens - a.totalTokens || (a.project ?? "").localeCompare(b.project ?? ""));
  return out.slice(0, limit);
}
