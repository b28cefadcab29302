// The plan's rate limits as Codex records them (codex-format.md §8): the latest figures per
// install, whether they are stale, their history for a chart, and the `rate-limit` health check
// (warn at 80 %, fail at 100 %). The quota belongs to the account, not to this machine: these are
// gauges, never summed.
import { msg, type Message } from "../i18n/message.js";
import { subLimitField } from "../providers/contract.js";
import type { Store } from "../store/store.js";
import type { HealthCheck } from "./health.js";
import { PROJECTION_LOOKBACK_MS, projectWindow, type WindowProjection } from "./rate-limit-projection.js";
import { check } from "./system.js";
import { HOUR, iso, MINUTE } from "./time.js";

export interface RateLimitWindowView {
  usedPercent: number;
  windowMinutes: number | null;
  resetsAt: string | null;
  /** At the burn rate of the last 30 minutes: when it is used up, or why that cannot be told. */
  projection: WindowProjection;
}

export interface RateLimitsView {
  source: string;
  limitId: string | null;
  primary: RateLimitWindowView | null;
  secondary: RateLimitWindowView | null;
  planType: string | null;
  credits: { hasCredits: boolean | null; unlimited: boolean | null; balance: string | null } | null;
  /** When the figures were recorded (the rollout line's time). */
  updatedAt: string;
  /**
   * No newer figure since the primary window would have reset (its reset time passed, or more than
   * its length went by): what is shown may no longer hold.
   */
  stale: boolean;
}

export interface RateLimitSampleView {
  time: string;
  primaryUsedPercent: number | null;
  secondaryUsedPercent: number | null;
}

export const RATE_LIMIT_WARN_PERCENT = 80;
export const RATE_LIMIT_FAIL_PERCENT = 100;
/** Without a window length, figures older than this are stale (Codex's primary window is 5 h). */
const DEFAULT_STALE_MS = 5 * HOUR;

interface Row {
  ts: number;
  source_id: string;
  limit_id: string | null;
  primary_used: number | null;
  primary_window_minutes: number | null;
  primary_resets_at: number | null;
  secondary_used: number | null;
  secondary_window_minutes: number | null;
  secondary_resets_at: number | null;
  plan_type: string | null;
  credits_json: string | null;
}

type Recent = Array<{ ts: number; primary_used: number | null; primary_resets_at: number | null; secondary_used: number | null; secondary_resets_at: number | null }>;

function windowOf(used: number | null, minutes: number | null, resets: number | null, recent: Recent, which: "primary" | "secondary", now: number): RateLimitWindowView | null {
  if (used === null) return null;
  const samples = recent.flatMap((r) => {
    const u = r[`${which}_used`];
    return u === null ? [] : [{ ts: r.ts, usedPercent: u, resetsAt: r[`${which}_resets_at`] }];
  });
  return { usedPercent: used, windowMinutes: minutes, resetsAt: iso(resets), projection: projectWindow(samples, now) };
}

function credits(json: string | null): RateLimitsView["credits"] {
  if (!json) return null;
  try {
    const c = JSON.parse(json) as Record<string, unknown>;
    const bool = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null);
    return { hasCredits: bool(c.hasCredits), unlimited: bool(c.unlimited), balance: typeof c.balance === "string" ? c.balance : null };
  } catch {
    return null;
  }
}

/**
 * Rows of a plan's own limits (Codex's, Claude Code's 5-hour and weekly windows), not the limits
 * inside one (a per-model weekly window, `claude:seven_day_opus`: contract.ts subLimitId).
 */
const PLAN_ROWS = "(limit_id IS NULL OR instr(limit_id, ':') = 0)";

/**
 * The latest figures of each source, by the time the provider recorded them: its plan's limit
 * first, then each limit inside the plan (a per-model weekly window), by id.
 */
export function queryRateLimits(store: Store, sourceIds: readonly string[], now: number): RateLimitsView[] {
  if (!sourceIds.length) return [];
  // The newest sample of each source's plan, one index probe each. (A single query that kept the
  // rows equal to their source's newest ran that lookup once per stored sample: 11 ms at 30,000
  // samples, on every status, card and /metrics scrape.) A plan's rows interleave with its
  // per-model rows, at most a handful per reading, so the walk back to a plan row is short.
  const newestPlan = store.db.prepare(`SELECT * FROM rate_limit_samples WHERE source_id = ? AND ${PLAN_ROWS} ORDER BY ts DESC, rowid DESC LIMIT 1`);
  const newestOf = store.db.prepare("SELECT * FROM rate_limit_samples WHERE source_id = ? AND limit_id = ? ORDER BY ts DESC, rowid DESC LIMIT 1");
  // The limits inside a plan an install has: a skip over the (source, limit, ts) index, one probe per limit.
  const subLimits = store.db.prepare(
    `WITH RECURSIVE ids(id) AS (
       SELECT (SELECT limit_id FROM rate_limit_samples WHERE source_id = @sid AND limit_id IS NOT NULL ORDER BY limit_id LIMIT 1)
       UNION ALL
       SELECT (SELECT limit_id FROM rate_limit_samples WHERE source_id = @sid AND limit_id > ids.id ORDER BY limit_id LIMIT 1) FROM ids WHERE ids.id IS NOT NULL)
     SELECT id FROM ids WHERE id IS NOT NULL AND instr(id, ':') > 0`,
  );
  // The readings the projection's burn rate is drawn from (an index range scan per limit).
  const recentCols = "ts, primary_used, primary_resets_at, secondary_used, secondary_resets_at";
  const lookbackPlan = store.db.prepare(`SELECT ${recentCols} FROM rate_limit_samples WHERE source_id = ? AND ${PLAN_ROWS} AND ts > ? AND ts <= ? ORDER BY ts, rowid`);
  const lookbackOf = store.db.prepare(`SELECT ${recentCols} FROM rate_limit_samples WHERE source_id = ? AND limit_id = ? AND ts > ? AND ts <= ? ORDER BY ts, rowid`);
  const out: RateLimitsView[] = [];
  for (const id of [...new Set(sourceIds)].sort()) {
    const plan = newestPlan.get(id) as Row | undefined;
    if (plan) out.push(viewOf(plan, lookbackPlan.all(id, now - PROJECTION_LOOKBACK_MS, now) as Recent, now));
    for (const { id: limit } of subLimits.all({ sid: id }) as Array<{ id: string }>) {
      const row = newestOf.get(id, limit) as Row | undefined;
      if (row) out.push(viewOf(row, lookbackOf.all(id, limit, now - PROJECTION_LOOKBACK_MS, now) as Recent, now));
    }
  }
  return out;
}

function viewOf(r: Row, recent: Recent, now: number): RateLimitsView {
  // Staleness follows the row's shortest window: the 5-hour one when there is one; a per-model
  // weekly window (no 5-hour figure) holds until its own reset, not for 5 hours.
  const lead = r.primary_used !== null || r.secondary_used === null ? { minutes: r.primary_window_minutes, resets: r.primary_resets_at } : { minutes: r.secondary_window_minutes, resets: r.secondary_resets_at };
  const windowMs = lead.minutes !== null ? lead.minutes * MINUTE : DEFAULT_STALE_MS;
  const stale = (lead.resets !== null && lead.resets <= now) || now - r.ts > windowMs;
  return {
    source: r.source_id,
    limitId: r.limit_id,
    primary: windowOf(r.primary_used, r.primary_window_minutes, r.primary_resets_at, recent, "primary", now),
    secondary: windowOf(r.secondary_used, r.secondary_window_minutes, r.secondary_resets_at, recent, "secondary", now),
    planType: r.plan_type,
    credits: credits(r.credits_json),
    updatedAt: iso(r.ts) as string,
    stale,
  };
}

/**
 * Used % of each window of a limit over the last `days` days, oldest first (the dashboard's
 * chart): the plan's own limit, or with `limitId` one inside it (`claude:seven_day_opus`).
 */
export function queryRateLimitHistory(store: Store, sourceId: string, now: number, days = 7, limitId: string | null = null): RateLimitSampleView[] {
  const cols = "SELECT ts, primary_used, secondary_used FROM rate_limit_samples WHERE source_id = ?";
  const since = now - days * 24 * HOUR;
  const rows = (
    subLimitField(limitId) !== null
      ? store.db.prepare(`${cols} AND limit_id = ? AND ts >= ? ORDER BY ts, rowid`).all(sourceId, limitId, since)
      : store.db.prepare(`${cols} AND ${PLAN_ROWS} AND ts >= ? ORDER BY ts, rowid`).all(sourceId, since)
  ) as Array<{ ts: number; primary_used: number | null; secondary_used: number | null }>;
  return rows.map((r) => ({ time: iso(r.ts) as string, primaryUsedPercent: r.primary_used, secondaryUsedPercent: r.secondary_used }));
}

/** Warn at 80 %, fail at 100 % of either window; stale figures only inform. `missing`: why there are none, when known. */
export function rateLimitCheck(limits: readonly RateLimitsView[], missing: Message | null = null): HealthCheck {
  if (!limits.length) return check("rate-limit", "PASS", missing ?? msg("health.rateLimit.none"));
  let worst: { used: number; source: string; window: "primary" | "secondary"; stale: boolean } | null = null;
  for (const l of limits) {
    for (const w of ["primary", "secondary"] as const) {
      const used = l[w]?.usedPercent;
      if (used === undefined) continue;
      const rank = (x: { used: number; stale: boolean }): number => (x.stale ? -1 : x.used);
      // A per-model weekly window is named by its field, so 100 % of Opus's is not read as the plan's.
      const field = subLimitField(l.limitId);
      const cand = { used, source: field === null ? l.source : `${l.source}, ${field}`, window: w, stale: l.stale };
      if (!worst || rank(cand) > rank(worst)) worst = cand;
    }
  }
  if (!worst) return check("rate-limit", "PASS", msg("health.rateLimit.none"));
  const params = { used: worst.used, window: worst.window === "primary" ? msg("health.rateLimit.primary") : msg("health.rateLimit.secondary"), source: worst.source };
  if (worst.stale) return check("rate-limit", "PASS", msg("health.rateLimit.stale", params));
  if (worst.used >= RATE_LIMIT_FAIL_PERCENT) return check("rate-limit", "FAIL", msg("health.rateLimit.used", params));
  if (worst.used >= RATE_LIMIT_WARN_PERCENT) return check("rate-limit", "WARN", msg("health.rateLimit.used", params));
  return check("rate-limit", "PASS", msg("health.rateLimit.used", params));
}
