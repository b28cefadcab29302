// Number, duration and date formatting for the card, per language. Units and patterns come from
// the message catalog; Intl is used only for digit grouping and for reading wall-clock fields in
// a time zone, never for words, so the output holds no character the catalog does not.
import { formatMB as sharedMB, formatMs as sharedMs } from "../i18n/units.js";
import { t, type Lang, type MessageKey } from "./messages.js";

// Counts and money by the one rule the dashboard and the CLI use too (en 12.3k, 1.24M; zh 12.3万,
// 1.24亿; $0.0031, $3.47, $1,234): the card imports them from here with the rest of its formats.
export { formatCompact, formatUsd, formatUsdExact } from "../i18n/numbers.js";

const MONTHS: readonly MessageKey[] = ["month.1", "month.2", "month.3", "month.4", "month.5", "month.6", "month.7", "month.8", "month.9", "month.10", "month.11", "month.12"];
const month = (lang: Lang, n: number): string => t(lang, MONTHS[n - 1] ?? "month.1");

const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** A whole number with thousands separators: 12,345. */
export function formatInt(n: number): string {
  return grouped.format(Math.round(n));
}

/** 99.8%, 100%. */
export function formatPercent(n: number, lang: Lang): string {
  return t(lang, "unit.percent", { n: String(Number(n.toFixed(1))) });
}

/** 3.4 ms, 240 ms: the formatter the dashboard and the daemon's messages use too. */
export function formatMs(ms: number, lang: Lang): string {
  return sharedMs(ms, lang);
}

/** 412 MB, 51.1 GB: one unit per figure, the formatter the dashboard and the daemon's messages use too. */
export function formatMB(mb: number, lang: Lang): string {
  return sharedMB(mb, lang);
}

/** The two largest units of a duration: 3d 4h, 4h 12m, 12m, 45s (zh: 3天4小时). */
export function formatDuration(seconds: number, lang: Lang): string {
  const s = Math.max(0, Math.floor(seconds));
  const parts: Array<[number, "duration.days" | "duration.hours" | "duration.minutes" | "duration.seconds"]> = [
    [Math.floor(s / 86400), "duration.days"],
    [Math.floor((s % 86400) / 3600), "duration.hours"],
    [Math.floor((s % 3600) / 60), "duration.minutes"],
    [s % 60, "duration.seconds"],
  ];
  const firstIdx = parts.findIndex(([v]) => v > 0);
  if (firstIdx === -1) return t(lang, "duration.seconds", { n: 0 });
  const picked = parts.slice(firstIdx, firstIdx + 2).filter(([v]) => v > 0);
  return picked.map(([v, key]) => t(lang, key, { n: v })).join(t(lang, "duration.join"));
}

/**
 * A run time in milliseconds: under a second as milliseconds (291 ms, never "0s"), under ten
 * seconds with a tenth (4.2s), longer as formatDuration.
 */
export function formatDurationMs(ms: number, lang: Lang): string {
  const v = Math.max(0, ms);
  if (Math.round(v) < 1000) return sharedMs(Math.round(v), lang);
  if (v < 9950) return t(lang, "duration.seconds", { n: (v / 1000).toFixed(1) });
  return formatDuration(v / 1000, lang);
}

/** The snapshot range as words: 30m / 24h (zh: 30 分钟 / 24 小时). */
export function formatRangeLabel(range: string, lang: Lang): string {
  const m = /^(\d+)([mh])$/.exec(range);
  if (!m) return range;
  return t(lang, m[2] === "m" ? "range.minutes" : "range.hours", { n: m[1] as string });
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

interface WallClock {
  month: number;
  day: number;
  hour: string;
  minute: string;
}

function wallClock(ms: number, timeZone: string): WallClock {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, month: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    partsFormatters.set(timeZone, f);
  }
  const parts = f.formatToParts(ms);
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? "";
  return { month: Number(get("month")), day: Number(get("day")), hour: get("hour"), minute: get("minute") };
}

/** HH:MM in the zone. */
export function formatClock(ms: number, timeZone: string): string {
  const w = wallClock(ms, timeZone);
  return `${w.hour}:${w.minute}`;
}

/** Mar 14, 14:32 (zh: 3月14日 14:32) in the zone. */
export function formatDateTime(ms: number, lang: Lang, timeZone: string): string {
  const w = wallClock(ms, timeZone);
  return t(lang, "date.pattern", { month: month(lang, w.month), day: w.day, time: `${w.hour}:${w.minute}` });
}

/** Mar 14 (zh: 3月14日) in the zone. */
export function formatDate(ms: number, lang: Lang, timeZone: string): string {
  const w = wallClock(ms, timeZone);
  return t(lang, "date.short", { month: month(lang, w.month), day: w.day });
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** UTC, or the zone's offset at `ms`: GMT+8, GMT-5:30. */
export function formatZone(ms: number, timeZone: string): string {
  if (timeZone === "UTC" || timeZone === "Etc/UTC") return "UTC";
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "shortOffset" });
    offsetFormatters.set(timeZone, f);
  }
  const name = f.formatToParts(ms).find((p) => p.type === "timeZoneName")?.value ?? "UTC";
  return /^GMT([+-]0)?$/.test(name) ? "UTC" : name;
}

/** 5m ago / in 10m / just now (zh: 5分钟前 / 10分钟后 / 刚刚), one unit. */
export function formatRelative(ms: number, now: number, lang: Lang): string {
  const diff = Math.round((now - ms) / 1000);
  if (Math.abs(diff) < 45) return t(lang, "time.justNow");
  const s = Math.abs(diff);
  const unit = s >= 86400 ? 86400 : s >= 3600 ? 3600 : 60;
  const key = unit === 86400 ? "duration.days" : unit === 3600 ? "duration.hours" : "duration.minutes";
  const duration = t(lang, key, { n: Math.round(s / unit) });
  return t(lang, diff > 0 ? "time.ago" : "time.in", { duration });
}
