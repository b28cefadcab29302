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

/** `n` with the locale's grouping and exactly `digits` decimals: 1,234 / 3.4. */
export function formatNumber(n: number, locale: Locale, digits = 0): string {
  const key = `${locale}|${digits}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(INTL_LOCALE[locale], { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formatters.set(key, f);
  }
  return f.format(n);
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
