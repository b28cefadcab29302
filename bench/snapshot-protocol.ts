// What bench/snapshot.ts sends to bench/snapshot-child.ts and gets back. Types only.
import type { MemorySnapshot } from "./memory.js";

export type Detail = "compact" | "standard" | "full";
export type ImageFormat = "svg" | "png";

export interface RenderTimingInput {
  /** A JSON file: Record<Detail, CardModel> (the card models to draw). */
  modelsFile: string;
  /** Untimed renders of each kind first. */
  warmup: number;
  /** Timed renders of each kind, per path. */
  reps: number;
}

export interface RenderTiming {
  detail: Detail;
  format: ImageFormat;
  /** renderCard(model, format): what the render worker runs. */
  oursMs: number[];
  /** satori(tree) [-> resvg renderAsync] of a tree built once, same fonts and options. */
  bareMs: number[];
  /** cardElement(model) alone (part of ours, not of bare). */
  treeMs: number[];
  bytes: number;
  /** Whether both paths produced the same bytes (they should: same tree, fonts, options). */
  identical: boolean;
}

export interface RenderTimingResult {
  timings: RenderTiming[];
  /** The first render of the process (fonts, satori and resvg loading), ms. */
  coldMs: number;
  memory: MemorySnapshot;
}
