// Every character the daemon's catalog and units can print in their own words, for the status
// card's font checks (shared/snapshot/fonts.test.ts, scripts/pick-fonts.ts): the card prints the
// health checks' messages, so their Chinese must be in the bundled fonts too.
import { CATALOG } from "./catalog.js";
import { formatMB, formatMs, LOCALES } from "./units.js";

/** The catalog's text in every language, placeholders removed, with the unit words. */
export function daemonCatalogText(): string {
  const parts: string[] = [];
  for (const locale of LOCALES) {
    for (const template of Object.values(CATALOG[locale])) {
      for (const text of typeof template === "string" ? [template] : [template.one, template.other]) parts.push(text.replace(/\{\w+\}/g, ""));
    }
    parts.push(formatMB(5, locale), formatMB(512, locale), formatMB(5000, locale), formatMB(5e6, locale), formatMs(3.4, locale));
  }
  return parts.join("");
}
