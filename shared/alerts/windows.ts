// The time windows a rule measures over: the rolling hour, and the calendar day, week (from
// Monday) and month in the alerts' time zone, whose boundaries move with the zone's offset
// (daylight saving included). Pure: the caller passes the instant.
import type { AlertWindow } from "./rules.js";

const HOUR = 3_600_000;

interface WindowRange {
  /** Epoch ms, inclusive. */
  start: number;
  /** Epoch ms, exclusive: the next boundary (now, for the rolling hour: it never ends). */
  end: number;
  /** A calendar window (day, week, month): the projection applies. */
  calendar: boolean;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
function parts(ms: number, timeZone: string): { y: number; m: number; d: number; h: number; min: number; s: number; weekday: number } {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", weekday: "short" });
    partsFormatters.set(timeZone, f);
  }
  const p = f.formatToParts(ms);
  const get = (t: string): string => p.find((x) => x.type === t)?.value ?? "";
  const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
  return { y: Number(get("year")), m: Number(get("month")), d: Number(get("day")), h: Number(get("hour")), min: Number(get("minute")), s: Number(get("second")), weekday: WEEKDAYS.indexOf(get("weekday")) };
}

/** The zone's offset from UTC at `ms` (positive east of Greenwich). */
function zoneOffsetMs(ms: number, timeZone: string): number {
  const p = parts(ms, timeZone);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - Math.floor(ms / 1000) * 1000;
}

/**
 * Epoch ms of local midnight of the date y-m-d in the zone (m 1-12; out-of-range days and months
 * roll over as Date.UTC does). Two passes: the offset at the first guess may differ from the offset
 * at the real midnight when daylight saving changes in between.
 */
export function zonedMidnight(y: number, m: number, d: number, timeZone: string): number {
  const utc = Date.UTC(y, m - 1, d);
  const first = utc - zoneOffsetMs(utc, timeZone);
  return utc - zoneOffsetMs(first, timeZone);
}

/** The window containing `now`. */
export function windowRange(window: AlertWindow, now: number, timeZone: string): WindowRange {
  if (window === "hour" || window === "primary" || window === "secondary") return { start: now - HOUR, end: now, calendar: false };
  const p = parts(now, timeZone);
  if (window === "day") return { start: zonedMidnight(p.y, p.m, p.d, timeZone), end: zonedMidnight(p.y, p.m, p.d + 1, timeZone), calendar: true };
  if (window === "week") {
    const monday = p.d - p.weekday;
    return { start: zonedMidnight(p.y, p.m, monday, timeZone), end: zonedMidnight(p.y, p.m, monday + 7, timeZone), calendar: true };
  }
  return { start: zonedMidnight(p.y, p.m, 1, timeZone), end: zonedMidnight(p.y, p.m + 1, 1, timeZone), calendar: true };
}

/** `HH:MM` in the zone, with the date (`YYYY-MM-DD HH:MM`) when it is not on `now`'s local day. */
export function localTime(ms: number, now: number, timeZone: string): string {
  const a = parts(ms, timeZone);
  const b = parts(now, timeZone);
  const pad = (n: number): string => String(n).padStart(2, "0");
  const hm = `${pad(a.h)}:${pad(a.min)}`;
  return a.y === b.y && a.m === b.m && a.d === b.d ? hm : `${a.y}-${pad(a.m)}-${pad(a.d)} ${hm}`;
}

export interface Projection {
  /** Spend (or tokens) per hour so far in the window. */
  ratePerHour: number;
  /** What the window will have reached at its end at this pace. */
  projectedTotal: number;
  /** The threshold the projection aims at (the budget, else the critical threshold). */
  target: number;
  /** When the target is reached at this pace; null when not before the window ends (or no pace yet). */
  reachesAt: number | null;
  /** reachesAt in the zone, `HH:MM` (dated when not today). */
  reachesAtLocal: string | null;
  windowEnd: number;
}

/**
 * Linear burn rate over the calendar window so far: value / elapsed, extended to the window's end.
 * Null for a rolling window, before any time has passed, or when the target is already reached.
 */
export function project(value: number, target: number | null, range: WindowRange, now: number, timeZone: string): Projection | null {
  if (!range.calendar || target === null || target <= 0) return null;
  const elapsed = now - range.start;
  if (elapsed <= 0 || value >= target) return null;
  const perMs = value / elapsed;
  const projectedTotal = value + perMs * (range.end - now);
  const at = perMs > 0 ? now + (target - value) / perMs : Infinity;
  const reachesAt = at < range.end ? Math.ceil(at / 60_000) * 60_000 : null;
  return {
    ratePerHour: perMs * HOUR,
    projectedTotal,
    target,
    reachesAt,
    reachesAtLocal: reachesAt === null ? null : localTime(reachesAt, now, timeZone),
    windowEnd: range.end,
  };
}
