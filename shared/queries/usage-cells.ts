// Usage cells: token figures per 15-minute step (raw rows) or hour (rollups), source, model and
// project, raw rows and rollups combined so nothing is counted twice, and per local day in a
// zone. Apart from the report because this is how the store is read (SQL, retention windows, UTC
// offsets), which changes with the store's schema; a daily export is built from the same cells.
import { hasCapability, providerIdentity, providerOfSourceId, type ProviderName } from "../providers/registry.js";
import { USAGE_STEP_MS } from "../store/migrations.js";
import type { Store } from "../store/store.js";
import { figureColumns, figureSums, sumsOf, type FigureColumns, type Sums } from "./usage-figures.js";
import { DAY, HOUR, offsetMs } from "./time.js";

/** The project key of OpenClaw-less sessions whose transcripts named no working directory. */
const NO_PROJECT = "(no project)";

export const prefixOf = (p: ProviderName): string => providerIdentity(p).sourcePrefix;

/** Raw rows are summed in 15-minute steps: every real UTC offset is a multiple of 15 minutes, so no step straddles a local midnight. The step of usage_steps (migration v9). */
const QUARTER = USAGE_STEP_MS;

export interface UsageCell extends Sums {
  /** Start of the 15-minute step (raw rows) or hour (rollups), epoch ms. */
  at: number;
  sourceId: string;
  model: string;
  /** The session's working directory as stored; '' when none is known. */
  project: string;
}

interface UsageCellOptions {
  now: number;
  /** retentionRawDays: before now minus this, hours come from rollups where retention made them. */
  rawDays: number;
  /** Epoch ms bounds (from inclusive, to exclusive); null: unbounded. */
  from: number | null;
  to: number | null;
  provider: ProviderName | null;
  /**
   * false: cells without a project (project ''), read from usage_steps and usage_hours (migration
   * v9), which triggers keep per 15-minute step or rollup hour, source and model as token_usage and
   * token_usage_hourly change: a daily report reads a few thousand rows instead of every response
   * and every rollup. Default true: raw rows grouped by session_meta's project as it is now.
   */
  byProject?: boolean;
}

interface CellRow extends FigureColumns {
  at: number;
  source_id: string;
  model: string;
  project: string;
}

/** The SQL of the cells (`at`, source_id, model, project, the sums, responses) and its parameters. */
function cellQuery(o: UsageCellOptions): { sql: string; params: Record<string, number | string | null> } {
  // The raw rows cover whole hours from here on; before it, an hour's rollup where there is one.
  const rawFrom = Math.ceil((o.now - o.rawDays * DAY) / HOUR) * HOUR;
  // A step lies in one hour, and rawFrom is a whole hour, so a step is in or out as each of its
  // raw rows would be; bounds (`from`, `to`) must be multiples of the step for the same to hold.
  const raw =
    o.byProject === false
      ? `SELECT q.at, q.source_id, q.model, '' AS project, ${figureColumns("q")}, q.responses
         FROM usage_steps q
         WHERE q.responses > 0 AND q.at >= @from AND q.at < @to
           AND (@prefix IS NULL OR substr(q.source_id, 1, length(@prefix)) = @prefix)
           AND (q.at >= @rawFrom OR NOT EXISTS (SELECT 1 FROM token_usage_hourly h WHERE h.hour = (q.at / ${HOUR}) * ${HOUR} AND h.source_id = q.source_id))`
      : `SELECT (u.ts / ${QUARTER}) * ${QUARTER} AS at, u.source_id, u.model, coalesce(m.project, '') AS project,
              ${figureSums("u")}, count(*) AS responses
       FROM token_usage u LEFT JOIN session_meta m ON m.source_id = u.source_id AND m.session_key = u.session_key
       WHERE u.role = 'assistant' AND u.ts >= @from AND u.ts < @to
         AND (@prefix IS NULL OR substr(u.source_id, 1, length(@prefix)) = @prefix)
         AND (u.ts >= @rawFrom OR NOT EXISTS (SELECT 1 FROM token_usage_hourly h WHERE h.hour = (u.ts / ${HOUR}) * ${HOUR} AND h.source_id = u.source_id))
       GROUP BY 1, 2, 3, 4`;
  // Rollups: per project from their own table, or without one from usage_hours (v9, the same sums).
  const rolled =
    o.byProject === false
      ? `SELECT hour AS at, source_id, model, '' AS project, ${figureColumns()}, responses
         FROM usage_hours
         WHERE responses > 0 AND hour >= @from AND hour < min(@to, @rawFrom)
           AND (@prefix IS NULL OR substr(source_id, 1, length(@prefix)) = @prefix)`
      : `SELECT hour AS at, source_id, model, project, ${figureColumns()}, messages AS responses
       FROM token_usage_hourly
       WHERE messages > 0 AND hour >= @from AND hour < min(@to, @rawFrom)
         AND (@prefix IS NULL OR substr(source_id, 1, length(@prefix)) = @prefix)`;
  return {
    sql: `${raw}
       UNION ALL
       ${rolled}`,
    params: { from: o.from ?? Number.MIN_SAFE_INTEGER, to: o.to ?? Number.MAX_SAFE_INTEGER, rawFrom, prefix: o.provider ? prefixOf(o.provider) : null },
  };
}

export function usageCells(store: Store, o: UsageCellOptions): UsageCell[] {
  const q = cellQuery(o);
  const rows = store.db.prepare(q.sql).all(q.params) as CellRow[];
  return rows.map((r) => ({
    at: r.at,
    sourceId: r.source_id,
    model: r.model,
    project: r.project,
    ...sumsOf(r),
  }));
}

/** Pieces of constant UTC offset: `offset` applies to instants before `until` (and after the previous piece's). */
interface OffsetPiece {
  until: number;
  offset: number;
}

/** The instants offsetPieces checks are grouped in spans of this length: no zone changes its offset twice (and back) within one. */
export const OFFSET_SPAN = 12 * HOUR;

/**
 * The zone's offsets for the spans of OFFSET_SPAN (span numbers `floor(at / OFFSET_SPAN)`,
 * ascending) where there is usage: each span's offset at its start and end, and where the two
 * differ the instant of the change, found to the second (offsets change on whole seconds).
 * Between spans with no usage any boundary does. Two Intl calls per span with usage (about 240
 * for 60 days); a hostile timestamp 200,000 years out adds one span, not a walk to it.
 */
export function offsetPieces(spans: readonly number[], zone: string): OffsetPiece[] {
  // Intl refuses instants outside Date's range: NaN, and the span is skipped.
  const offsetAt = (ms: number): number => {
    try {
      return offsetMs(ms, zone);
    } catch {
      return Number.NaN;
    }
  };
  const pieces: OffsetPiece[] = [];
  let offset: number | null = null;
  for (const span of spans) {
    const start = span * OFFSET_SPAN;
    const end = start + OFFSET_SPAN - 1;
    const first = offsetAt(start);
    if (Number.isNaN(first)) continue;
    if (offset === null) offset = first;
    else if (first !== offset) {
      pieces.push({ until: start, offset });
      offset = first;
    }
    const last = offsetAt(end);
    if (last !== offset && !Number.isNaN(last)) {
      // The first second whose offset is `last`: in (start, end].
      let lo = Math.floor(start / 1000);
      let hi = Math.floor(end / 1000);
      while (hi - lo > 1) {
        const mid = lo + Math.floor((hi - lo) / 2);
        if (offsetAt(mid * 1000) === offset) lo = mid;
        else hi = mid;
      }
      pieces.push({ until: hi * 1000, offset });
      offset = last;
    }
  }
  pieces.push({ until: Number.POSITIVE_INFINITY, offset: offset ?? 0 });
  return pieces;
}

interface UsageDayCell extends Omit<UsageCell, "at" | "project"> {
  /** `YYYY-MM-DD` in the zone. */
  day: string;
}

/**
 * Usage per day in `zone`, source and model, summed by SQLite from usage_steps and usage_hours
 * (no project): a few hundred rows reach JS instead of a cell per step. A step or rollup hour
 * counts on the day of its start, as usageCells' cells are placed; the day is the date of its
 * start plus the zone's offset then (constant pieces, offsetPieces), so no Intl call per step.
 */
export function usageDayCells(store: Store, o: Omit<UsageCellOptions, "byProject">, zone: string): UsageDayCell[] {
  const q = cellQuery({ ...o, byProject: false });
  // The instants the cells cover (indexes on at and hour), to know which offsets apply.
  // The spans of time with usage (indexes on at and hour), to know which offsets apply.
  const spans = (
    store.db
      .prepare(
        `SELECT DISTINCT span FROM (
           SELECT (at - ((at % ${OFFSET_SPAN}) + ${OFFSET_SPAN}) % ${OFFSET_SPAN}) / ${OFFSET_SPAN} AS span FROM usage_steps WHERE at >= @from AND at < @to
           UNION ALL SELECT (hour - ((hour % ${OFFSET_SPAN}) + ${OFFSET_SPAN}) % ${OFFSET_SPAN}) / ${OFFSET_SPAN} FROM usage_hours WHERE hour >= @from AND hour < @to)
         ORDER BY span`,
      )
      .pluck()
      .all({ from: q.params.from, to: q.params.to }) as number[]
  ).filter((x) => Number.isSafeInteger(x));
  if (!spans.length) return [];
  const pieces = offsetPieces(spans, zone);
  // Every figure here is ours (integers from Intl and the clock), never the caller's text.
  const offset = pieces.length === 1 ? `${pieces[0]?.offset ?? 0}` : `CASE ${pieces.slice(0, -1).map((x) => `WHEN at < ${x.until} THEN ${x.offset}`).join(" ")} ELSE ${pieces.at(-1)?.offset ?? 0} END`;
  // Floor division (a day before 1970 is negative; SQLite's / truncates toward zero).
  const local = `(at + ${offset})`;
  const rows = store.db
    .prepare(
      `SELECT (${local} - ((${local} % ${DAY}) + ${DAY}) % ${DAY}) / ${DAY} AS day, source_id, model,
              ${figureSums()}, sum(responses) AS responses
       FROM (${q.sql}) GROUP BY 1, 2, 3`,
    )
    .all(q.params) as Array<Omit<CellRow, "at" | "project"> & { day: number }>;
  const out: UsageDayCell[] = [];
  for (const r of rows) {
    const date = new Date(r.day * DAY);
    // Out of Date's range or past year 9999 (a hostile timestamp): no day to put it on.
    const iso = Number.isNaN(date.getTime()) ? "" : date.toISOString();
    if (iso.length !== 24) continue;
    out.push({
      day: iso.slice(0, 10),
      sourceId: r.source_id,
      model: r.model,
      ...sumsOf(r),
    });
  }
  return out;
}

/** The project a cell counts under: its directory; an agent of a provider without projects (OpenClaw's) by source id; else NO_PROJECT. */
export function projectKey(sourceId: string, project: string): string {
  if (project) return project;
  const provider = providerOfSourceId(sourceId);
  return provider && !hasCapability(provider, "projects") ? sourceId : NO_PROJECT;
}
