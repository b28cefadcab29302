// The one rule for counts and money on every surface: the dashboard (web/src/lib/format.ts imports
// this file), the status card (shared/snapshot/format.ts) and the CLI's tables. Before, the
// dashboard rounded 1,574,828 to "2M" above a table that said 1,574,828 while the card said
// "1.57M". The rule (docs/dashboard.md, "How figures are written"):
//
// - Counts: exact below the first unit (842; 9,999 in Chinese, which groups by 10^4), then three
//   significant digits with the language's unit, trailing zeros dropped: 1.57M, 12.3k, 2.5M, 100k;
//   1.57亿, 157万. A figure that rounds up to the next unit takes it: 999,999 is "1M", not "1000k".
// - Money: $0.00 for nothing; cents ($0.93, $1.14, $999.99) from a cent up; four decimals below a
//   cent ($0.0031), where model calls live; "<$0.0001" below that; whole dollars from $1,000
//   ($12,346); three significant digits from a million ($1.57M).
//
// Digits and unit words only (no Intl words): the card prints nothing its fonts lack. Self-contained
// apart from units.ts, so the dashboard's bundler takes it as it is.
import { formatNumber, type Locale } from "./units.js";

/** The units of each language, smallest first: Chinese counts in 万 (10^4) and 亿 (10^8). */
const UNITS: Readonly<Record<Locale, ReadonlyArray<readonly [number, string]>>> = {
  en: [
    [1e3, "k"],
    [1e6, "M"],
    [1e9, "B"],
    [1e12, "T"],
  ],
  zh: [
    [1e4, "万"],
    [1e8, "亿"],
    [1e12, "万亿"],
  ],
};

/** At most three significant digits (two decimals at most), trailing zeros dropped: 1.57, 12.3, 123, 0.5. */
function significant(v: number): string {
  const a = Math.abs(v);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : 2;
  return String(Number(v.toFixed(digits)));
}

/**
 * A count in short form: 842, 12.3k, 1.57M (zh 8,421, 1.23万, 157万). A fraction below the first
 * unit (an axis tick between whole tokens) keeps up to three significant digits: 2.5, 0.5.
 */
export function formatCompact(n: number, locale: Locale): string {
  if (!Number.isFinite(n)) return "—";
  const units = UNITS[locale];
  const abs = Math.abs(n);
  let i = units.findLastIndex(([size]) => abs >= size);
  if (i === -1) {
    // 999.7 would round to 1,000: below the unit it is still a count, so say "1k".
    if (Math.round(abs) < (units[0] as readonly [number, string])[0]) return Number.isInteger(n) || abs >= 100 ? formatNumber(Math.round(n), locale) : significant(n);
    i = 0;
  }
  let [size, word] = units[i] as readonly [number, string];
  let text = significant(abs / size);
  const next = units[i + 1];
  // 999,960 would read "1000k": step up to "1M".
  if (next && Number(text) * size >= next[0]) {
    [size, word] = next;
    text = significant(abs / size);
  }
  return `${n < 0 ? "-" : ""}${text}${word}`;
}

/** US dollars by the rule above: $0.00, $0.0031, $0.93, $1.14, $1,234, $1.57M (<$0.0001 for a trace). */
export function formatUsd(n: number, locale: Locale): string {
  if (!Number.isFinite(n)) return "—";
  const abs = Math.abs(n);
  const sign = n < 0 ? "-" : "";
  if (abs === 0) return "$0.00";
  if (abs < 0.00005) return `${sign}<$0.0001`;
  // Bounds on the rounded figure: $0.009996 is "$0.01", $999.996 is "$1,000".
  if (abs < 0.00995) return `${sign}$${abs.toFixed(4)}`;
  if (abs < 999.995) return `${sign}$${formatNumber(abs, locale, 2)}`;
  if (abs < 999_999.5) return `${sign}$${formatNumber(Math.round(abs), locale)}`;
  return `${sign}$${formatCompact(abs, locale)}`;
}

/**
 * A figure someone typed (an alert's threshold) or one set against it: cents when cents say it
 * all ($4.80, $0.50), else four decimals ($0.0107 against $0.0086), so a small budget is never
 * rounded into a different one.
 */
export function formatUsdExact(n: number, locale: Locale): string {
  const abs = Math.abs(n);
  if (abs === 0 || abs >= 1 || !Number.isFinite(n)) return formatUsd(n, locale);
  return `${n < 0 ? "-" : ""}$${abs.toFixed(Number(abs.toFixed(2)) === Number(abs.toFixed(4)) ? 2 : 4)}`;
}
