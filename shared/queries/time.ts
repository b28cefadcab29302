// Small time helpers for the read model: ISO strings and bucket labels in a caller's time zone.

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export function iso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined || !Number.isFinite(ms) ? null : new Date(ms).toISOString();
}

/** A valid IANA zone or UTC. */
export function safeTimeZone(tz: string | null | undefined): string {
  if (!tz) return "UTC";
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return tz;
  } catch {
    return "UTC";
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = make()));
  return f;
}

/** `HH:MM` in the zone. */
export function clockLabel(ms: number, timeZone: string, locale = "en"): string {
  return formatter(`clock|${timeZone}|${locale}`, () => new Intl.DateTimeFormat(locale, { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" })).format(ms);
}

/**
 * A bucket's label in the zone: its clock time (`HH:MM`) for buckets shorter than six hours, its
 * date and time (`11/28 06:00`) for the week's, its date (`11/28`) for whole days.
 */
export function bucketLabel(ms: number, stepMs: number, timeZone: string, locale = "en"): string {
  if (stepMs < 6 * HOUR) return clockLabel(ms, timeZone, locale);
  const date = formatter(`md|${timeZone}|${locale}`, () => new Intl.DateTimeFormat(locale, { timeZone, month: "2-digit", day: "2-digit" })).format(ms);
  return stepMs >= DAY ? date : `${date} ${clockLabel(ms, timeZone, locale)}`;
}

/** `YYYY-MM-DD` in the zone. */
export function dayKey(ms: number, timeZone: string): string {
  return formatter(`day|${timeZone}`, () => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })).format(ms);
}

/** The hour of day (0-23) in the zone. */
export function hourOfDay(ms: number, timeZone: string): number {
  return Number(formatter(`hour|${timeZone}`, () => new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" })).format(ms));
}

/** Epoch ms of the start of the zone's day containing `ms`. */
export function startOfDay(ms: number, timeZone: string): number {
  const [y, m, d] = dayKey(ms, timeZone).split("-").map(Number) as [number, number, number];
  // Midnight UTC of that date, corrected by the zone's offset at that instant.
  const utcMidnight = Date.UTC(y, m - 1, d);
  return utcMidnight - offsetMs(utcMidnight, timeZone);
}

/** Epoch ms of the start of the zone's month containing `ms` (midnight of its first day). */
export function startOfMonth(ms: number, timeZone: string): number {
  const day = Number(dayKey(ms, timeZone).slice(8));
  // Noon of the first, however the offset moved since (daylight saving), then its midnight.
  return startOfDay(startOfDay(ms, timeZone) - (day - 1) * DAY + 12 * HOUR, timeZone);
}

/** The zone's offset from UTC at `ms` (ms, to the second: local wall clock minus UTC). */
export function offsetMs(ms: number, timeZone: string): number {
  const parts = formatter(`parts|${timeZone}`, () =>
    new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }),
  ).formatToParts(ms);
  const get = (t: string): number => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return asUtc - Math.floor(ms / 1000) * 1000;
}
