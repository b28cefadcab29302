// The dashboard's provider colours are made from the registry when the dashboard is built
// (web/provider-colors.ts, a Vite plugin): every registered provider gets its own colour in each
// theme and its two classes, so a provider added or recoloured in its identity cannot leave the
// dashboard behind. Expected colours are each identity's own, read per theme's rule, in what the
// plugin serves and in the built bundle (dist/web: `npm run build` first, like the daemon tests).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PROVIDER_IDENTITIES } from "../shared/providers/registry.js";
import { PROVIDER_COLORS_ID, providerColors } from "../web/provider-colors.js";
import { ROOT } from "./helpers/source-files.js";

/** A selector as written or minified alike: no spaces, no quotes. */
const key = (selector: string): string => selector.replace(/[\s"']/g, "");
/** `#abc` as `#aabbcc`, lower case: a minifier may shorten a colour. */
const colour = (v: string): string => v.toLowerCase().replace(/^#([0-9a-f])([0-9a-f])([0-9a-f])$/, "#$1$1$2$2$3$3");

/** Every rule's declarations by selector (rules with the same selector merged, the later winning). */
function rules(css: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const m of css.replace(/\/\*[\s\S]*?\*\//g, "").matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const decls = out.get(key(m[1] as string)) ?? new Map<string, string>();
    for (const d of (m[2] as string).split(";")) {
      const i = d.indexOf(":");
      if (i > 0) decls.set(d.slice(0, i).trim(), d.slice(i + 1).trim());
    }
    out.set(key(m[1] as string), decls);
  }
  return out;
}

function assertColors(css: string, where: string): void {
  const all = rules(css);
  const rule = (selector: string): Map<string, string> => all.get(key(selector)) ?? new Map();
  for (const p of PROVIDER_IDENTITIES) {
    assert.is(colour(rule(':root,[data-theme="light"]').get(`--c-${p.cssKey}`) ?? ""), colour(p.colors.web.light), `${where}: ${p.name} light`);
    assert.is(colour(rule('[data-theme="dark"]').get(`--c-${p.cssKey}`) ?? ""), colour(p.colors.web.dark), `${where}: ${p.name} dark`);
    assert.is(rule(`.${p.cssKey}`).get("--prov"), `var(--c-${p.cssKey})`, `${where}: ${p.name} dot`);
    assert.is(rule(`.series-${p.cssKey}`).get("--series"), `var(--c-${p.cssKey})`, `${where}: ${p.name} series`);
  }
}

test("the dashboard imports the registry's colours and its build config adds the plugin that serves them", () => {
  assert.ok(readFileSync(join(ROOT, "web/src/main.tsx"), "utf8").includes(`import "${PROVIDER_COLORS_ID}";`));
  assert.ok(/plugins: \[[^\]]*providerColors\(\)/.test(readFileSync(join(ROOT, "web/vite.config.ts"), "utf8")));
});

test("the plugin serves every registered provider's colour per theme and its two classes", () => {
  const plugin = providerColors();
  // Vite's hooks, called as Vite calls them; these two use no plugin context.
  const call = (hook: unknown, ...args: unknown[]): unknown => (hook as (...a: unknown[]) => unknown)(...args);
  const id = call(plugin.resolveId, PROVIDER_COLORS_ID, undefined, {});
  assert.ok(typeof id === "string" && id.endsWith(".css"), "resolved to an id Vite treats as a stylesheet");
  assert.is(call(plugin.resolveId, "./other.css", undefined, {}), null);
  const css = call(plugin.load, id);
  assert.type(css, "string");
  assertColors(css as string, "served");
});

test("the built dashboard's stylesheet has them", () => {
  const assets = join(ROOT, "dist/web/assets");
  const names = readdirSync(assets).filter((n) => n.endsWith(".css"));
  assert.ok(names.length > 0, "dist/web has a stylesheet (npm run build)");
  assertColors(names.map((n) => readFileSync(join(assets, n), "utf8")).join("\n"), "dist/web");
});

test.run();
