// The dashboard's provider colours are generated from the registry (web/scripts/provider-colors.ts):
// the committed stylesheet must be what the registry says now, so a provider added or recoloured
// in shared/providers/registry.ts cannot leave the dashboard behind.
import { readFileSync } from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PROVIDER_IDENTITIES } from "../shared/providers/registry.js";
import { PROVIDER_COLORS_FILE, providerColorsCss } from "../web/scripts/provider-colors.js";

test("providers.generated.css is up to date with the registry (node --import tsx web/scripts/provider-colors.ts)", () => {
  assert.is(readFileSync(PROVIDER_COLORS_FILE, "utf8"), providerColorsCss());
});

test("every registered provider has its colour in both themes and its two classes", () => {
  const css = readFileSync(PROVIDER_COLORS_FILE, "utf8");
  for (const p of PROVIDER_IDENTITIES) {
    for (const theme of ["light", "dark"] as const) assert.ok(css.includes(`--c-${p.cssKey}: ${p.colors.web[theme]};`), `${p.name} ${theme}`);
    assert.ok(css.includes(`.${p.cssKey} { --prov: var(--c-${p.cssKey}); }`), `${p.name} dot`);
    assert.ok(css.includes(`.series-${p.cssKey} { --series: var(--c-${p.cssKey}); }`), `${p.name} series`);
  }
});

test.run();
