// The one formatter for sizes and short times that every surface shares: the daemon's own
// messages (health checks), the status card and the dashboard (which imports this file). Before,
// each had its own rule and one screen said "51.2 GB" beside "52344 MB free". Self-contained on
// purpose (no imports, no Node APIs): the dashboard's bundler takes it as it is.
//
// Digits only, never words from Intl: the card must print nothing its fonts lack, so the unit
// words come from the small table below, in both languages.

export type Locale = "en" | "zh";

export const LOCALES: readonly Locale[] = ["en", "zh"];

/** The Intl locale of each language (digit grouping and plural rules). */
export const INTL_LOCALE: Readonly<Record<Locale, string>> = { en: "en-US", zh: "zh-CN" };

/**
 * The language of a BCP 47 tag (QueryContext.locale, navigator.language): any `zh` tag is Chinese,
 * everything else English (the only other language there is).
 */
export function localeOf(tag: string | null | undefined): Locale {
  return typeof tag === "string" && /^zh(?:-|_|$)/i.test(tag.trim()) ? "zh" : "en";
}

// Size units are the same in both languages (MB and GB are what Chinese UIs print too); "ms" is
// spelled out in Chinese, as the dashboard and the card always did for durations.
const UNIT: Readonly<Record<Locale, Readonly<Record<"mb" | "gb" | "tb" | "ms", string>>>> = {
  en: { mb: "{n} MB", gb: "{n} GB", tb: "{n} TB", ms: "{n} ms" },
  zh: { mb: "{n} MB", gb: "{n} GB", tb: "{n} TB", ms: "{n} 毫秒" },
};

const formatters = new Map<string, Intl.NumberFormat>();

function intlFormat(n: number, locale: Locale, digits: number): string {
  const key = `${locale}|${digits}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(INTL_LOCALE[locale], { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formatters.set(key, f);
  }
  return f.format(n);
}

/** The digits of a finite `abs` >= 0 written out in full, without an exponent: 5e-7 is "0.0000005". */
function plainDigits(abs: number): string {
  const text = String(abs);
  const e = text.indexOf("e");
  if (e === -1) return text;
  const [int, frac = ""] = text.slice(0, e).split(".") as [string, string?];
  const exp = Number(text.slice(e + 1));
  const digits = int + frac;
  const point = int.length + exp;
  return point <= 0 ? `0.${"0".repeat(-point)}${digits}` : digits.padEnd(point, "0") + (point < digits.length ? `.${digits.slice(point)}` : "");
}

/** A string of decimal digits plus one: "0999" is "1000". */
function increment(digits: string): string {
  const out = digits.split("");
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== "9") {
      out[i] = String(Number(out[i]) + 1);
      return out.join("");
    }
    out[i] = "0";
  }
  return `1${out.join("")}`;
}

/**
 * `n` with the locale's grouping and exactly `digits` decimals: 1,234 / 3.4. Both languages group
 * by thousands with "," and write "." for decimals, as Intl does for en-US and zh-CN, and round as
 * Intl does: half away from zero on the shortest decimal that reads back as `n` (1.45 is 1.5, where
 * toFixed says 1.4). Not Intl itself: the first Intl.NumberFormat of a process loads ICU's locale
 * data (50-100 ms on a busy 2-core machine, as much as Node's whole start), which `insightsctl
 * statusline`, run after every message, cannot afford (docs/benchmarks.md).
 */
export function formatNumber(n: number, locale: Locale, digits = 0): string {
  if (!Number.isFinite(n) || Math.abs(n) >= 1e21 || !Number.isInteger(digits) || digits < 0 || digits > 20) return intlFormat(n, locale, digits);
  const [int, frac = ""] = plainDigits(Math.abs(n)).split(".") as [string, string?];
  let kept = int + frac.slice(0, digits).padEnd(digits, "0");
  if ((frac[digits] ?? "0") >= "5") kept = increment(kept);
  const whole = kept.slice(0, kept.length - digits);
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  // Intl keeps the sign of what rounds to zero (-0.001 is "-0.00"), and of -0 itself.
  const sign = n < 0 || Object.is(n, -0) ? "-" : "";
  return sign + grouped + (digits > 0 ? `.${kept.slice(kept.length - digits)}` : "");
}

const unit = (locale: Locale, u: "mb" | "gb" | "tb" | "ms", n: string): string => UNIT[locale][u].replace("{n}", n);

/**
 * Megabytes (MiB, as /proc and statfs give them) in one unit chosen by size: 8.5 MB, 412 MB,
 * 51.1 GB, 1.2 TB. One decimal where the figure is small enough for it to matter.
 */
export function formatMB(mb: number, locale: Locale): string {
  const abs = Math.abs(mb);
  // Thresholds on the rounded value, so 1023.96 MB reads "1.0 GB", never "1,024 MB".
  if (abs >= 1024 * 1024 - 0.05 * 1024) return unit(locale, "tb", formatNumber(mb / 1024 / 1024, locale, 1));
  if (abs >= 1023.5) return unit(locale, "gb", formatNumber(mb / 1024, locale, 1));
  return unit(locale, "mb", formatNumber(mb, locale, abs < 9.95 ? 1 : 0));
}

/** Milliseconds: 3.4 ms, 240 ms, 1,250 ms (one decimal below 10, where probes live). */
export function formatMs(ms: number, locale: Locale): string {
  return unit(locale, "ms", formatNumber(ms, locale, Math.abs(ms) < 9.95 && !Number.isInteger(ms) ? 1 : 0));
}
