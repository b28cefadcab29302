// Next run time of an OpenClaw automation (cron job) from its schedule, and a short text for it.
//
// Schedule shapes (openclaw-formats.md §5, OpenClaw docs/automation/cron-jobs/schedules.md):
//   {kind:"every", everyMs, anchorMs?}   fixed interval on the grid anchorMs + k*everyMs (anchor defaults to
//                                        the job's createdAtMs); after a run the gateway re-bases on the run:
//                                        next = lastRunAtMs + everyMs while that is still ahead.
//   {kind:"cron", expr, tz?, staggerMs?} 5- or 6-field expression (croner); no tz = the gateway host's zone.
//   {kind:"at", at}                      one shot; ISO 8601 (an offset-less time is UTC) or epoch ms.
//   {kind:"on-exit"|"stream", …}         event-driven: no next time.
// The gateway also staggers top-of-hour cron expressions by a per-job offset of up to 5 minutes and backs
// off after errors; we do not reproduce those, which is why a stored, still-future `nextRunAtMs` wins over
// anything computed here (see cron.ts).
import { Cron } from "croner";
import type { CronSchedule } from "../../gateway-contract.js";

export type { CronSchedule };


export interface NextRunContext {
  nowMs: number;
  lastRunAtMs?: number | null;
  createdAtMs?: number | null;
  lastStatus?: string | null;
  enabled?: boolean;
  /** Host time zone for cron expressions without tz; defaults to this process's zone. */
  hostTimeZone?: string;
}

function finite(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** Reads a schedule object from job JSON; null when it is not one. */
export function parseSchedule(v: unknown): CronSchedule | null {
  if (typeof v !== "object" || v === null) return null;
  const o = v as Record<string, unknown>;
  switch (o.kind) {
    case "every": {
      const everyMs = finite(o.everyMs);
      if (everyMs === null) return null;
      return { kind: "every", everyMs, anchorMs: finite(o.anchorMs) };
    }
    case "cron":
      if (typeof o.expr !== "string") return null;
      return { kind: "cron", expr: o.expr, tz: typeof o.tz === "string" ? o.tz : null, staggerMs: finite(o.staggerMs) };
    case "at":
      if (typeof o.at !== "string" && typeof o.at !== "number") return null;
      return { kind: "at", at: o.at };
    default:
      return typeof o.kind === "string" ? { kind: "other", type: o.kind } : null;
  }
}

/** An `at` value as epoch ms: numbers are ms, ISO strings without an offset are UTC. */
export function parseAtMs(at: string | number): number | null {
  if (typeof at === "number") return Number.isFinite(at) ? at : null;
  const s = at.trim();
  if (/^\d+$/.test(s)) return Number(s);
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(s);
  const isoLocal = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/.test(s);
  const ms = Date.parse(isoLocal && !hasZone ? `${s.replace(" ", "T")}${s.length === 10 ? "T00:00:00" : ""}Z` : s);
  return Number.isNaN(ms) ? null : ms;
}

/** Next occurrence strictly after `nowMs` on the grid anchor + k*every. */
export function nextOnGrid(anchorMs: number, everyMs: number, nowMs: number): number {
  if (nowMs < anchorMs) return anchorMs;
  return anchorMs + (Math.floor((nowMs - anchorMs) / everyMs) + 1) * everyMs;
}

/** Next run of a cron expression after `nowMs`; null for an invalid expression or none left. */
export function nextCronRun(expr: string, nowMs: number, tz?: string | null): number | null {
  try {
    const job = new Cron(expr.trim(), tz ? { timezone: tz } : {});
    const next = job.nextRun(new Date(nowMs));
    return next ? next.getTime() : null;
  } catch {
    return null;
  }
}

/** When the job runs next, or null (disabled, one-shot done, event-driven, invalid). */
export function computeNextRunAt(schedule: CronSchedule, ctx: NextRunContext): number | null {
  if (ctx.enabled === false) return null;
  const last = finite(ctx.lastRunAtMs);
  switch (schedule.kind) {
    case "every": {
      const every = Math.floor(schedule.everyMs);
      if (!(every >= 1)) return null;
      const anchor = Math.max(0, Math.floor(finite(schedule.anchorMs) ?? finite(ctx.createdAtMs) ?? ctx.nowMs));
      if (last !== null && last >= anchor && last + every > ctx.nowMs) return Math.floor(last) + every;
      return nextOnGrid(anchor, every, ctx.nowMs);
    }
    case "at": {
      const at = parseAtMs(schedule.at);
      if (at === null) return null;
      // A one-shot that already ran successfully at or after its time is done.
      if (last !== null && last >= at && (ctx.lastStatus ?? "ok") === "ok") return null;
      return at > ctx.nowMs ? at : null;
    }
    case "cron":
      return nextCronRun(schedule.expr, ctx.nowMs, schedule.tz || ctx.hostTimeZone || null);
    default:
      return null;
  }
}

/** 120000 -> "2m", 5400000 -> "1h 30m", 604800000 -> "7d", 1500 -> "1s 500ms". */
export function formatInterval(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return `${ms}ms`;
  const units: [string, number][] = [["d", 86_400_000], ["h", 3_600_000], ["m", 60_000], ["s", 1000], ["ms", 1]];
  const parts: string[] = [];
  let rest = Math.floor(ms);
  for (const [u, size] of units) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${u}`);
    rest -= n * size;
  }
  return parts.join(" ");
}

/** Short human text: "every 2m", "cron 0 3 * * * (Europe/Berlin)", "at 2026-11-22T03:00:00.000Z". */
export function describeSchedule(schedule: CronSchedule): string {
  switch (schedule.kind) {
    case "every":
      return `every ${formatInterval(schedule.everyMs)}`;
    case "cron":
      return `cron ${schedule.expr}${schedule.tz ? ` (${schedule.tz})` : ""}`;
    case "at": {
      const ms = parseAtMs(schedule.at);
      return `at ${ms === null ? String(schedule.at) : new Date(ms).toISOString()}`;
    }
    default:
      return schedule.type;
  }
}
