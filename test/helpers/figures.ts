// One session's figures, or an install's, as a test's oracle counts them from the files on disk,
// in the read model's vocabulary: the conformance kit compares the core's answers with them, and
// each provider's oracle sums them. One type, so an oracle's sums are the kit's figures as they are.
// The usage figures are the report's (a type only: the oracles compute nothing with the core's code).
import type { Sums } from "../../shared/queries/usage-figures.js";

export interface Figures extends Sums {
  toolCalls: number;
  prompts: number;
  errors: number;
  /** Incidents that are warnings (a retried attempt, a plan's usage limit). */
  warnings: number;
}

export const zeroFigures = (): Figures => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, cost: 0, unpriced: 0, responses: 0, toolCalls: 0, prompts: 0, errors: 0, warnings: 0 });

/** Adds `b` into `a`; returns `a`. */
export function addFigures(a: Figures, b: Figures): Figures {
  for (const k of Object.keys(a) as Array<keyof Figures>) a[k] += b[k];
  return a;
}
