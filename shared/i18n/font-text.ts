// Every character the daemon's catalog, units and number rule can print in their own words, for the status
// card's font checks (shared/snapshot/fonts.test.ts, test/tools/snapshot/pick-fonts.ts): the card prints the
// health checks' messages, so their Chinese must be in the bundled fonts too.
import { CATALOG } from "./catalog.js";
import { formatCompact, formatUsd } from "./numbers.js";
import { formatMB, formatMs, LOCALES } from "./units.js";

/** The catalog's text in every language, placeholders removed, with the unit words. */
export function daemonCatalogText(): string {
  const parts: string[] = [];
  for (const locale of LOCALES) {
    for (const template of Object.values(CATALOG[locale])) {
      for (const text of typeof template === "string" ? [template] : [template.one, template.other]) parts.push(text.replace(/\{\w+\}/g, ""));
    }
    parts.push(formatMB(5, locale), formatMB(512, locale), formatMB(5000, locale), formatMB(5e6, locale), formatMs(3.4, locale));
    // Every count and money unit word (k, M, 万, 亿, 万亿...) and sign the shared rule prints.
    for (const n of [0.5, 1e3, 1e4, 1e6, 1e8, 1e9, 1e12, -1]) parts.push(formatCompact(n, locale), formatUsd(n, locale), formatUsd(n / 1e6, locale));
  }
  return parts.join("");
}

/**
 * Symbols the runtimes' own log lines use, which the card quotes in its event log: OpenClaw's
 * `gateway/ws` writes "⇄ res ✓ health 12ms". Neither Inter nor the common-hanzi slices have them,
 * so the card drew empty boxes; pick-fonts.ts ships the Noto Sans SC slices that do.
 */
export const LOG_SYMBOLS = "⇄✓↔→←";
