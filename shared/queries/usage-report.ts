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
// `usageCells` is the first half (per 15-minute step or hour, source, model and project) and is
// what a daily export per provider, model and project can be built from.
import { InsightsError } from "../errors.js";
import { displayName, hasCapability, parseProviderWord, PROVIDER_NAMES as PROVIDERS, providerIdentity, providersWith, providerOfSourceId, type ProviderName } from "../sources/registry.js";
import { finiteTotal } from "../sources/usage-guard.js";
import { USAGE_STEP_MS } from "../store/migrations.js";
import type { Store } from "../store/store.js";
import { usd } from "./money.js";
import { blockSpans, burnRate, projectBlock } from "./usage-blocks.js";
import { DAY, dayKey, HOUR, iso, offsetMs } from "./time.js";

export const USAGE_SCHEMA_VERSION = 1;
export const USAGE_REPORTS = ["daily", "weekly", "monthly", "session", "project", "blocks"] as const;
export type UsageReportKind = (typeof USAGE_REPORTS)[number];
/** The day a week of the weekly report starts on (`weekStart`, `--week-start`); Monday by default. */
export const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** The provider the blocks report reads when none is named: the one whose plans bill in 5-hour blocks. */
const BLOCKS_PROVIDER: ProviderName | null = providersWith("usageBlocks")[0] ?? null;

/** The project key of OpenClaw-less sessions whose transcripts named no working directory. */
export const NO_PROJECT = "(no project)";
/** Model name of responses that recorded none. */
const UNKNOWN_MODEL = "unknown";

const prefixOf = (p: ProviderName): string => providerIdentity(p).sourcePrefix;

export interface UsageReportParams {
  report: UsageReportKind;
  provider: ProviderName | null;
  /** First and last day (inclusive, `YYYY-MM-DD` in timeZone); null: unbounded. */
  since: string | null;
  until: string | null;
  /** A canonical IANA zone. */
  timeZone: string;
  breakdown: boolean;
  /** weekly: the day weeks start on. */
  weekStart: Weekday;
}

/** Token and cost figures; every count is an exact integer. */
export interface UsageFigures {
  /** Input not read from cache. */
  inputTokens: number;
  /** Output, reasoning included. */
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  /** The reasoning part of outputTokens (not added to totalTokens again). */
  reasoningTokens: number;
  /** input + output + cache write + cache read. */
  totalTokens: number;
  /** USD of the priced responses; a lower bound when costComplete is false. */
  costUsd: number;
  responses: number;
  /** Responses of models with no known price: their tokens count, their cost is not in costUsd. */
  unpricedResponses: number;
  costComplete: boolean;
}

export interface UsageModelFigures extends UsageFigures {
  model: string;
}

export interface UsageProviderFigures extends UsageFigures {
  provider: ProviderName;
}

/** A blocks row: the 5-hour block (shared/queries/usage-blocks.ts), or the gap between two. */
export interface UsageBlock {
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

// ---------------------------------------------------------------------------------------------
// Parameters: the same checks for the CLI's flags and the control socket's params.

const invalid = (message: string, param: string): InsightsError => new InsightsError("INVALID_PARAM", message, { param });

/** `YYYY-MM-DD` or `YYYYMMDD` (ccusage's form) as a real calendar day, normalized to `YYYY-MM-DD`. */
export function parseDay(value: string, flag: string): string {
  const m = /^(\d{4})(-?)(\d{2})\2(\d{2})$/.exec(value);
  const bad = (): never => {
    throw invalid(`invalid ${flag} ${JSON.stringify(value.slice(0, 40))}: expected a day as YYYY-MM-DD or YYYYMMDD`, flag);
  };
  if (!m) bad();
  const [y, mo, d] = [Number(m?.[1]), Number(m?.[3]), Number(m?.[4])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) bad();
  return `${m?.[1]}-${m?.[3]}-${m?.[4]}`;
}

/**
 * The zone as the user wrote it, once Intl knows it; only its case is Intl's (`europe/berlin` is
 * `Europe/Berlin`). Intl's own name may be an older alias (`Asia/Kolkata` resolves to
 * `Asia/Calcutta`): a report says the name its reader typed. INVALID_PARAM when it is no zone.
 */
export function parseTimeZone(value: string): string {
  if (value.length > 0 && value.length <= 100) {
    try {
      const resolved = new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
      return resolved.toLowerCase() === value.toLowerCase() ? resolved : value;
    } catch {
      // not a zone: said below
    }
  }
  throw invalid(`invalid --timezone ${JSON.stringify(value.slice(0, 100))}: not an IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`, "--timezone");
}

export function parseProvider(value: string): ProviderName {
  // `--provider` values: the names, and the interface's enum (PROVIDER_A/B/C), any case.
  const p = parseProviderWord(value);
  if (p) return p;
  const allowed = PROVIDERS.map((n) => `${n} (${displayName(n)})`).join(", ");
  throw invalid(`invalid --provider ${JSON.stringify(value.slice(0, 40))}; allowed: ${allowed}`, "--provider");
}

export function parseReportKind(value: string): UsageReportKind {
  if ((USAGE_REPORTS as readonly string[]).includes(value)) return value as UsageReportKind;
  throw invalid(`invalid report ${JSON.stringify(value.slice(0, 40))}; allowed: ${USAGE_REPORTS.join(", ")}`, "report");
}

export function parseWeekday(value: string): Weekday {
  const v = value.toLowerCase();
  const day = WEEKDAYS.find((d) => d === v || d.slice(0, 3) === v);
  if (day) return day;
  throw invalid(`invalid --week-start ${JSON.stringify(value.slice(0, 40))}; allowed: ${WEEKDAYS.join(", ")} (or their first three letters)`, "--week-start");
}

const PARAM_KEYS = new Set(["report", "provider", "since", "until", "timeZone", "breakdown", "weekStart"]);

/**
 * Checks the params of a report (the control socket's `usage`, or the CLI's flags turned into
 * these names): unknown keys, wrong types and bad values are INVALID_PARAM naming the flag.
 * `defaultZone` applies when no timeZone is given, `defaultWeekStart` (the config's `weekStart`) when no weekStart is.
 */
export function parseUsageParams(raw: Record<string, unknown>, defaultZone: string, defaultWeekStart: Weekday = "monday"): UsageReportParams {
  for (const k of Object.keys(raw)) if (!PARAM_KEYS.has(k)) throw invalid(`unknown usage parameter ${JSON.stringify(k.slice(0, 40))}; known: ${[...PARAM_KEYS].join(", ")}`, k);
  const str = (k: string, flag: string): string | null => {
    const v = raw[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== "string") throw invalid(`${flag} must be a string`, flag);
    return v;
  };
  const report = str("report", "report");
  const provider = str("provider", "--provider");
  const since = str("since", "--since");
  const until = str("until", "--until");
  const zone = str("timeZone", "--timezone");
  const weekStart = str("weekStart", "--week-start");
  const breakdown = raw.breakdown;
  if (breakdown !== undefined && breakdown !== null && typeof breakdown !== "boolean") throw invalid("--breakdown must be true or false", "--breakdown");
  const out: UsageReportParams = {
    report: report === null ? "daily" : parseReportKind(report),
    provider: provider === null ? null : parseProvider(provider),
    since: since === null ? null : parseDay(since, "--since"),
    until: until === null ? null : parseDay(until, "--until"),
    timeZone: parseTimeZone(zone ?? defaultZone),
    breakdown: breakdown === true,
    weekStart: weekStart === null ? defaultWeekStart : parseWeekday(weekStart),
  };
  if (out.since !== null && out.until !== null && out.since > out.until) throw invalid(`--since ${out.since} is after --until ${out.until}`, "--since");
  return out;
}

// ---------------------------------------------------------------------------------------------
// Cells: usage per time step, source, model and project, raw rows and rollups combined.

/** Raw rows are summed in 15-minute steps: every real UTC offset is a multiple of 15 minutes, so no step straddles a local midnight. The step of usage_steps (migration v9). */
const QUARTER = USAGE_STEP_MS;

export interface UsageCell {
  /** Start of the 15-minute step (raw rows) or hour (rollups), epoch ms. */
  at: number;
  sourceId: string;
  model: string;
  /** The session's working directory as stored; '' when none is known. */
  project: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  costUsd: number;
  responses: number;
  unpriced: number;
}

export interface UsageCellOptions {
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

interface CellRow {
  at: number;
  source_id: string;
  model: string;
  project: string;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  reasoning: number;
  cost_usd: number;
  unpriced: number;
  responses: number;
}

type SumColumns = Pick<CellRow, "input" | "output" | "cache_read" | "cache_write" | "reasoning" | "cost_usd" | "unpriced" | "responses">;

/** A row's sums, finite and never negative even if an older version stored a poisoned row. */
function cellSums(r: SumColumns): Pick<UsageCell, "input" | "output" | "cacheRead" | "cacheWrite" | "reasoning" | "costUsd" | "responses" | "unpriced"> {
  return {
    input: finiteTotal(r.input),
    output: finiteTotal(r.output),
    cacheRead: finiteTotal(r.cache_read),
    cacheWrite: finiteTotal(r.cache_write),
    reasoning: finiteTotal(r.reasoning),
    costUsd: finiteTotal(r.cost_usd),
    responses: finiteTotal(r.responses),
    unpriced: finiteTotal(r.unpriced),
  };
}

/** The SQL of the cells (`at`, source_id, model, project, the sums, responses) and its parameters. */
function cellQuery(o: UsageCellOptions): { sql: string; params: Record<string, number | string | null> } {
  // The raw rows cover whole hours from here on; before it, an hour's rollup where there is one.
  const rawFrom = Math.ceil((o.now - o.rawDays * DAY) / HOUR) * HOUR;
  // A step lies in one hour, and rawFrom is a whole hour, so a step is in or out as each of its
  // raw rows would be; bounds (`from`, `to`) must be multiples of the step for the same to hold.
  const raw =
    o.byProject === false
      ? `SELECT q.at, q.source_id, q.model, '' AS project, q.input, q.output, q.cache_read, q.cache_write, q.reasoning, q.cost_usd, q.unpriced, q.responses
         FROM usage_steps q
         WHERE q.responses > 0 AND q.at >= @from AND q.at < @to
           AND (@prefix IS NULL OR substr(q.source_id, 1, length(@prefix)) = @prefix)
           AND (q.at >= @rawFrom OR NOT EXISTS (SELECT 1 FROM token_usage_hourly h WHERE h.hour = (q.at / ${HOUR}) * ${HOUR} AND h.source_id = q.source_id))`
      : `SELECT (u.ts / ${QUARTER}) * ${QUARTER} AS at, u.source_id, u.model, coalesce(m.project, '') AS project,
              sum(u.input) AS input, sum(u.output) AS output, sum(u.cache_read) AS cache_read, sum(u.cache_write) AS cache_write,
              sum(u.reasoning) AS reasoning, sum(u.cost_usd) AS cost_usd, sum(u.unpriced) AS unpriced, count(*) AS responses
       FROM token_usage u LEFT JOIN session_meta m ON m.source_id = u.source_id AND m.session_key = u.session_key
       WHERE u.role = 'assistant' AND u.ts >= @from AND u.ts < @to
         AND (@prefix IS NULL OR substr(u.source_id, 1, length(@prefix)) = @prefix)
         AND (u.ts >= @rawFrom OR NOT EXISTS (SELECT 1 FROM token_usage_hourly h WHERE h.hour = (u.ts / ${HOUR}) * ${HOUR} AND h.source_id = u.source_id))
       GROUP BY 1, 2, 3, 4`;
  // Rollups: per project from their own table, or without one from usage_hours (v9, the same sums).
  const rolled =
    o.byProject === false
      ? `SELECT hour AS at, source_id, model, '' AS project, input, output, cache_read, cache_write, reasoning, cost_usd, unpriced, responses
         FROM usage_hours
         WHERE responses > 0 AND hour >= @from AND hour < min(@to, @rawFrom)
           AND (@prefix IS NULL OR substr(source_id, 1, length(@prefix)) = @prefix)`
      : `SELECT hour AS at, source_id, model, project, input, output, cache_read, cache_write, reasoning, cost_usd, unpriced, messages AS responses
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
    ...cellSums(r),
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

export interface UsageDayCell extends Omit<UsageCell, "at" | "project"> {
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
              sum(input) AS input, sum(output) AS output, sum(cache_read) AS cache_read, sum(cache_write) AS cache_write,
              sum(reasoning) AS reasoning, sum(cost_usd) AS cost_usd, sum(unpriced) AS unpriced, sum(responses) AS responses
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
      ...cellSums(r),
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

// ---------------------------------------------------------------------------------------------
// Grouping.

/** Sums of usage cells as they are added up (the report's rows, the export's rows). */
export interface Sums {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  cost: number;
  responses: number;
  unpriced: number;
}

export const zero = (): Sums => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, cost: 0, responses: 0, unpriced: 0 });

export function add(to: Sums, from: Sums): void {
  to.input += from.input;
  to.output += from.output;
  to.cacheRead += from.cacheRead;
  to.cacheWrite += from.cacheWrite;
  to.reasoning += from.reasoning;
  to.cost += from.cost;
  to.responses += from.responses;
  to.unpriced += from.unpriced;
}

export function figures(s: Sums): UsageFigures {
  return {
    inputTokens: s.input,
    outputTokens: s.output,
    cacheWriteTokens: s.cacheWrite,
    cacheReadTokens: s.cacheRead,
    reasoningTokens: s.reasoning,
    totalTokens: s.input + s.output + s.cacheWrite + s.cacheRead,
    costUsd: usd(s.cost),
    responses: s.responses,
    unpricedResponses: s.unpriced,
    costComplete: s.unpriced === 0,
  };
}

/** One row (or the totals) being summed: figures, per model, and who contributed. */
class Group {
  readonly sums = zero();
  readonly byModel = new Map<string, Sums>();
  readonly byProvider = new Map<ProviderName, Sums>();
  readonly sources = new Set<string>();

  add(sourceId: string, model: string, s: Sums): void {
    add(this.sums, s);
    this.addModel(model || UNKNOWN_MODEL, s);
    const provider = providerOfSourceId(sourceId);
    if (provider) this.addProvider(provider, s);
    this.sources.add(sourceId);
  }

  merge(other: Group): void {
    add(this.sums, other.sums);
    for (const [model, s] of other.byModel) this.addModel(model, s);
    for (const [provider, s] of other.byProvider) this.addProvider(provider, s);
    for (const s of other.sources) this.sources.add(s);
  }

  private addProvider(provider: ProviderName, s: Sums): void {
    let p = this.byProvider.get(provider);
    if (!p) this.byProvider.set(provider, (p = zero()));
    add(p, s);
  }

  providerRows(): UsageProviderFigures[] {
    return PROVIDERS.filter((p) => this.byProvider.has(p)).map((provider) => ({ provider, ...figures(this.byProvider.get(provider) as Sums) }));
  }

  private addModel(name: string, s: Sums): void {
    let m = this.byModel.get(name);
    if (!m) this.byModel.set(name, (m = zero()));
    add(m, s);
  }

  totals(): UsageTotals {
    const sources = [...this.sources].sort();
    const providers = PROVIDERS.filter((p) => sources.some((s) => providerOfSourceId(s) === p));
    return {
      ...figures(this.sums),
      providers,
      sources,
      models: [...this.byModel.keys()].sort(),
      unpricedModels: [...this.byModel].filter(([, s]) => s.unpriced > 0).map(([m]) => m).sort(),
    };
  }

  breakdown(): UsageModelFigures[] {
    return [...this.byModel]
      .map(([model, s]) => ({ model, ...figures(s) }))
      .sort((a, b) => b.totalTokens - a.totalTokens || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  }

  /** A row: its key, what only its kind has (a session's project and times), the figures, then the per-provider split and the breakdown. */
  row(key: string, extra: Partial<UsageRow>, breakdown: boolean, byProvider: boolean): UsageRow {
    return { key, ...extra, ...this.totals(), ...(byProvider ? { byProvider: this.providerRows() } : {}), ...(breakdown ? { breakdown: this.breakdown() } : {}) };
  }
}

export const sumsOfCell = (c: Omit<UsageCell, "at" | "project">): Sums => ({
  input: c.input,
  output: c.output,
  cacheRead: c.cacheRead,
  cacheWrite: c.cacheWrite,
  reasoning: c.reasoning,
  cost: c.costUsd,
  responses: c.responses,
  unpriced: c.unpriced,
});

/** Epoch-ms bounds wide enough for every instant of the days [since, until] in any zone (UTC-12 to UTC+14). */
function looseBounds(since: string | null, until: string | null): { from: number | null; to: number | null } {
  const at = (day: string): number => Date.parse(`${day}T00:00:00Z`);
  return { from: since === null ? null : at(since) - DAY, to: until === null ? null : at(until) + 2 * DAY };
}

const inRange = (day: string, p: UsageReportParams): boolean => (p.since === null || day >= p.since) && (p.until === null || day <= p.until);

export interface UsageReportOptions {
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

/** The first day (`YYYY-MM-DD`) of the week `day` is in, weeks starting on `start`. */
export function weekOf(day: string, start: Weekday): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  const back = (new Date(t).getUTCDay() - WEEKDAYS.indexOf(start) + 7) % 7;
  return new Date(t - back * DAY).toISOString().slice(0, 10);
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
      if (inRange(dayKey(c.at, p.timeZone), p)) add(projectKey(c.sourceId, c.project), c.sourceId, c.model, sumsOfCell(c));
    }
  } else {
    // Days and months: the trigger-kept aggregates, summed per day by SQLite.
    for (const c of usageDayCells(store, cellOptions, p.timeZone)) {
      if (inRange(c.day, p)) add(p.report === "daily" ? c.day : p.report === "weekly" ? weekOf(c.day, p.weekStart) : c.day.slice(0, 7), c.sourceId, c.model, sumsOfCell(c));
    }
  }
  // Days and months sort as text; projects by name.
  return [...groups.keys()].sort().map((key) => ({ key, group: groups.get(key) as Group, extra: {} }));
}

interface SessionModelRow {
  source_id: string;
  key: string;
  model: string;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  reasoning: number;
  cost_usd: number;
  unpriced: number;
  responses: number;
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
              sum(tm.input) AS input, sum(tm.output) AS output, sum(tm.cache_read) AS cache_read, sum(tm.cache_write) AS cache_write,
              sum(tm.reasoning) AS reasoning, sum(tm.cost_usd) AS cost_usd, sum(tm.unpriced) AS unpriced, sum(tm.messages) AS responses
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
    s.group.add(r.source_id, r.model, {
      input: finiteTotal(r.input),
      output: finiteTotal(r.output),
      cacheRead: finiteTotal(r.cache_read),
      cacheWrite: finiteTotal(r.cache_write),
      reasoning: finiteTotal(r.reasoning),
      cost: finiteTotal(r.cost_usd),
      responses: finiteTotal(r.responses),
      unpriced: finiteTotal(r.unpriced),
    });
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

interface ResponseRow extends SumColumns {
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
      `SELECT u.ts AS at, u.source_id, u.model, u.input, u.output, u.cache_read, u.cache_write, u.reasoning, u.cost_usd, u.unpriced, 1 AS responses
       FROM token_usage u
       WHERE u.role = 'assistant' AND u.ts >= @from AND u.ts < @to
         AND (@prefix IS NULL OR substr(u.source_id, 1, length(@prefix)) = @prefix)
         AND (u.ts >= @rawFrom OR NOT EXISTS (SELECT 1 FROM token_usage_hourly h WHERE h.hour = (u.ts / ${HOUR}) * ${HOUR} AND h.source_id = u.source_id))
       UNION ALL
       SELECT hour, source_id, model, input, output, cache_read, cache_write, reasoning, cost_usd, unpriced, messages
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
      group.add(r.source_id, r.model, sumsOfCell({ sourceId: r.source_id, model: r.model, ...cellSums(r) }));
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
