// Writes web/src/styles/providers.generated.css from the provider registry
// (shared/providers/registry.ts): each provider's colour per theme and its `prov-x` and
// `series-prov-x` classes. A stylesheet file, not an inline style: the page's CSP allows only
// 'self'. test/web-provider-colors.test.ts fails when the file is out of date.
// Run: node --import tsx web/scripts/provider-colors.ts
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PROVIDER_IDENTITIES } from "../../shared/providers/registry.js";

export const PROVIDER_COLORS_FILE = fileURLToPath(new URL("../src/styles/providers.generated.css", import.meta.url));

export function providerColorsCss(): string {
  const vars = (theme: "light" | "dark"): string => PROVIDER_IDENTITIES.map((p) => `  --c-${p.cssKey}: ${p.colors.web[theme]};`).join("\n");
  return [
    "/* Generated from shared/providers/registry.ts by web/scripts/provider-colors.ts: do not edit. */",
    "/* Providers: apart from the status colours (a provider is never \"ok\" or \"failing\"). */",
    `:root,\n[data-theme="light"] {\n${vars("light")}\n}`,
    `[data-theme="dark"] {\n${vars("dark")}\n}`,
    ...PROVIDER_IDENTITIES.map((p) => `.${p.cssKey} { --prov: var(--c-${p.cssKey}); }`),
    ...PROVIDER_IDENTITIES.map((p) => `.series-${p.cssKey} { --series: var(--c-${p.cssKey}); }`),
    "",
  ].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) writeFileSync(PROVIDER_COLORS_FILE, providerColorsCss());
