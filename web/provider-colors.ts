// The dashboard's provider colours, made from the registry (shared/providers/registry.ts) when the
// dashboard is built: each provider's colour per theme and its `prov-x` and `series-prov-x`
// classes, as the stylesheet `virtual:provider-colors.css` (web/src/main.tsx imports it). Made at
// build time so adding or recolouring a provider changes no committed file; a stylesheet in the
// bundle, not inline styles, because the page's CSP allows only 'self'.
import type { Plugin } from "vite";
import { PROVIDER_IDENTITIES } from "../shared/providers/registry.js";

export const PROVIDER_COLORS_ID = "virtual:provider-colors.css";
// Vite's CSS pipeline takes an id ending in .css; the \0 keeps other plugins off a module that is no file.
const RESOLVED = `\0${PROVIDER_COLORS_ID}`;

export function providerColorsCss(): string {
  const vars = (theme: "light" | "dark"): string => PROVIDER_IDENTITIES.map((p) => `  --c-${p.cssKey}: ${p.colors.web[theme]};`).join("\n");
  return [
    "/* Providers: apart from the status colours (a provider is never \"ok\" or \"failing\"). */",
    `:root,\n[data-theme="light"] {\n${vars("light")}\n}`,
    `[data-theme="dark"] {\n${vars("dark")}\n}`,
    ...PROVIDER_IDENTITIES.map((p) => `.${p.cssKey} { --prov: var(--c-${p.cssKey}); }`),
    ...PROVIDER_IDENTITIES.map((p) => `.series-${p.cssKey} { --series: var(--c-${p.cssKey}); }`),
    "",
  ].join("\n");
}

/** Serves `virtual:provider-colors.css` to the dashboard's build (web/vite.config.ts). */
export function providerColors(): Plugin {
  return {
    name: "gateway-insights:provider-colors",
    resolveId: (id) => (id === PROVIDER_COLORS_ID ? RESOLVED : null),
    load: (id) => (id === RESOLVED ? providerColorsCss() : null),
  };
}
