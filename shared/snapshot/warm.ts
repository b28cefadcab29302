// Start-up warm-up for the daemon: the first card of a process pays for reading ~100 font files,
// satori parsing them and its layout engine starting, and resvg's native module loading (about a
// second together). warmRenderer pays that once, off any request, so the first snapshot is fast.
import { buildCardModel } from "./build-model.js";
import { EXAMPLE_NOW, exampleInputs } from "./example-inputs.js";
import { LANGS } from "./messages.js";
import { renderCard } from "./render.js";

/** Renders a throw-away full card per language (SVG) and a compact PNG; resolves with the time taken. */
export async function warmRenderer(): Promise<{ ms: number }> {
  const started = performance.now();
  const inputs = exampleInputs("1h");
  const base = { range: "1h", theme: "dark", generatedAt: EXAMPLE_NOW, demo: true, degradedSources: ["warm-up"] } as const;
  // Both languages, so glyph lookups in the CJK fonts are warm too.
  for (const lang of LANGS) await renderCard(buildCardModel(inputs, { ...base, detail: "full", lang }), "svg");
  await renderCard(buildCardModel(inputs, { ...base, detail: "compact", lang: "en" }), "png");
  return { ms: Math.round(performance.now() - started) };
}
