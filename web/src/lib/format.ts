// Number, money, duration and time formatting for the current language. Token counts and money
// follow the one rule the card and the CLI use too (shared/i18n/numbers.ts): 1.57M, 12.3k, 1.23万
// in tiles and on axes, full digits where exact figures matter. Sizes
// and milliseconds come from the formatter the daemon's own messages and the status card use
// (shared/i18n/units.ts), so a figure never reads "51.1 GB" in one place and "52344 MB" in another.
import { formatCompact, formatUsd, formatUsdExact } from "../../../shared/i18n/numbers";
import { formatMB, formatMs } from "../../../shared/i18n/units";
import { lang, locale, t, tn } from "../i18n/i18n";

const nf = (o?: Intl.NumberFormatOptions): Intl.NumberFormat => new Intl.NumberFormat(locale.value, o);

export function fmtInt(n: number): string {
  return nf({ maximumFractionDigits: 0 }).format(Math.round(n));
}

/** Compact token counts by the card's and the CLI's rule: 950, 12.3k, 1.57M, 2.5M (1.23万 in Chinese). */
export function fmtCompact(n: number): string {
  return formatCompact(n, lang.value);
}

/** A compact token count with its word, by the plural rule: "1 token", "12.3K tokens", "1.2万 Token". */
export function fmtTokenCount(n: number): string {
  return tn("count.tokens", n, { n: fmtCompact(n) });
}

export function fmtDecimal(n: number, digits = 1): string {
  return nf({ minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
}

/** US dollars by the card's and the CLI's rule: $0.0031 below a cent, $0.93, $1.14, $1,234. */
export function fmtUsd(n: number): string {
  return formatUsd(n, lang.value);
}

/** A threshold someone typed and the figure set against it: $0.0107 against $0.0086, $4.80. */
export function fmtUsdExact(n: number): string {
  return formatUsdExact(n, lang.value);
}

export function fmtPercent(p: number, digits = 1): string {
  return nf({ maximumFractionDigits: digits }).format(p) + "%";
}

/** 8.5 MB, 412 MB, 51.1 GB: one unit per figure, picked by size. */
export function fmtMB(mb: number): string {
  return formatMB(mb, lang.value);
}

/** 3.4 ms, 240 ms (毫秒 in Chinese): probe latencies and other short times. */
export function fmtMs(ms: number): string {
  return formatMs(ms, lang.value);
}

export function fmtBytes(b: number): string {
  if (b < 1024) return fmtInt(b) + " B";
  if (b < 1024 * 1024) return fmtDecimal(b / 1024, 1) + " KB";
  return fmtMB(b / 1024 / 1024);
}

/** A duration in the two largest units: 842 ms, 5.4 s, 3 min 12 s, 2 h 5 min, 3 d 4 h. */
export function fmtDuration(ms: number): string {
  // Bounds on the rounded figure: 999.6 ms is "1.0 s", never "1,000 ms"; 59.7 s is "1 min".
  if (Math.round(ms) < 1000) return fmtMs(Math.round(Math.max(0, ms)));
  const s = ms / 1000;
  if (s < 9.95) return t("unit.s", { n: fmtDecimal(s, 1) });
  if (s < 59.5) return t("unit.s", { n: fmtDecimal(s, 0) });
  const total = Math.round(s);
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  if (d > 0) return [t("unit.d", { n: d }), h ? t("unit.h", { n: h }) : ""].filter(Boolean).join(" ");
  if (h > 0) return [t("unit.h", { n: h }), m ? t("unit.min", { n: m }) : ""].filter(Boolean).join(" ");
  return [t("unit.min", { n: m }), sec ? t("unit.s", { n: sec }) : ""].filter(Boolean).join(" ");
}

/** "5 minutes ago" / "in 12 minutes", relative to `now` (the daemon's clock, see state/clock.ts). */
export function fmtRelative(iso: string | null | undefined, now: number): string {
  if (!iso) return "—";
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "—";
  const diff = (ms - now) / 1000;
  const abs = Math.abs(diff);
  const rtf = new Intl.RelativeTimeFormat(locale.value, { numeric: "auto" });
  // Within seconds either way is "just now": the daemon's clock is only known to about a second.
  if (abs < 10 || (abs < 45 && diff < 0)) return t("time.justNow");
  if (abs < 60) return rtf.format(1, "minute");
  if (abs < 3600) return rtf.format(Math.round(diff / 60), "minute");
  if (abs < 86400) return rtf.format(Math.round(diff / 3600), "hour");
  if (abs < 86400 * 45) return rtf.format(Math.round(diff / 86400), "day");
  return fmtDateTime(iso);
}

/** 23:15:07 in the browser's time zone. */
export function fmtClock(ms: number, seconds = true): string {
  return new Intl.DateTimeFormat(locale.value, { hour: "2-digit", minute: "2-digit", ...(seconds ? { second: "2-digit" } : {}), hourCycle: "h23" }).format(ms);
}

/** Nov 21, 23:15 (with the year only when it is not the current one). */
export function fmtDateTime(iso: string | number, withSeconds = false): string {
  const ms = typeof iso === "number" ? iso : Date.parse(iso);
  if (Number.isNaN(ms)) return "—";
  const sameYear = new Date(ms).getFullYear() === new Date().getFullYear();
  return new Intl.DateTimeFormat(locale.value, {
    ...(sameYear ? {} : { year: "numeric" }),
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    ...(withSeconds ? { second: "2-digit" } : {}),
    hourCycle: "h23",
  }).format(ms);
}

/** The full timestamp for a tooltip. */
export function fmtFull(iso: string | number): string {
  const ms = typeof iso === "number" ? iso : Date.parse(iso);
  if (Number.isNaN(ms)) return "";
  return new Intl.DateTimeFormat(locale.value, { dateStyle: "medium", timeStyle: "medium" }).format(ms);
}

/**
 * Time left until a reset, in whole minutes rounded down, two units at most: "2h 14m", "3d 4h",
 * "47m", "<1m" (in Chinese "2小时14分钟"). Null once the time has come.
 */
export function fmtCountdown(ms: number): string | null {
  if (!(ms > 0)) return null;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return t("countdown.lt1");
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return t("countdown.dh", { d, h });
  if (h > 0) return t("countdown.hm", { h, m });
  return t("countdown.m", { m });
}

/** A chart bucket's span: clock times within a day, dates and times for the week's, dates for whole days. */
export function fmtBucketSpan(startSec: number, endSec: number): string {
  const step = (endSec - startSec) * 1000;
  if (step >= 86_400_000) return fmtDay(startSec * 1000);
  if (step >= 6 * 3_600_000) return `${fmtDateTime(startSec * 1000)} – ${fmtClock(endSec * 1000, false)}`;
  return `${fmtClock(startSec * 1000, false)} – ${fmtClock(endSec * 1000, false)}`;
}

/** Nov 21 (month and day in the browser's zone). */
export function fmtDay(ms: number): string {
  return new Intl.DateTimeFormat(locale.value, { month: "short", day: "numeric" }).format(ms);
}
