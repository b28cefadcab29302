// Warm-up for a render worker that has just started: satori's and resvg's modules, their
// WebAssembly (layout, text shaping) and the Latin fonts, loaded while the daemon collects the
// card's data, so the first card does not wait for them. No card is drawn here: a throw-away card
// cost as much again as the loading, and the first real card would still pay the JIT's warm-up.
// Chinese fonts are not loaded either: only a card that shows hanzi loads its slices.
import { loadRenderer } from "./render.js";

/** Loads the renderer; resolves with the time taken. */
export async function warmRenderer(): Promise<{ ms: number }> {
  const started = performance.now();
  await loadRenderer();
  return { ms: Math.round(performance.now() - started) };
}
