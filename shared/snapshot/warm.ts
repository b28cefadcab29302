// Warm-up for a render worker that has just started: the first card of a process pays for
// satori's and resvg's modules, their WebAssembly (layout, text shaping) and the Latin fonts.
// A worker runs this while the daemon collects the card's data, so the first card does not wait
// for it twice. Chinese fonts are not loaded here: only a card that shows hanzi loads its slices.
import { buildCardModel } from "./build-model.js";
import { EXAMPLE_NOW, exampleInputs } from "./example-inputs.js";
import { renderCard } from "./render.js";

/** Renders a throw-away compact card (English) as SVG and PNG; resolves with the time taken. */
export async function warmRenderer(): Promise<{ ms: number }> {
  const started = performance.now();
  const model = buildCardModel(exampleInputs("1h"), { detail: "compact", range: "1h", theme: "dark", lang: "en", generatedAt: EXAMPLE_NOW, demo: true, degradedSources: ["warm-up"] });
  await renderCard(model, "png");
  return { ms: Math.round(performance.now() - started) };
}
