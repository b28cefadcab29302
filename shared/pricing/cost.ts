// The cost arithmetic for one API response: no lookups, no state. Costs are plain numbers and are
// not rounded here (sums are rounded once, where they are shown: shared/queries/money.ts).
import { RATE_FIELDS, USAGE_OF } from "./types.js";
import type { PricedModel, PriceResult, Schedule, TokenUsage } from "./types.js";

/** Why a usage object cannot be priced, or null when every counter is a finite number ≥ 0. */
export function usageProblem(usage: TokenUsage): string | null {
  if (typeof usage !== "object" || usage === null) return "invalid usage: not an object";
  for (const field of RATE_FIELDS) {
    const key = USAGE_OF[field];
    const v: unknown = usage[key];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) return `invalid usage: ${key} = ${String(v)}`;
  }
  return null;
}

/** The request's whole input, which decides the long-context tier (Anthropic counts cache reads and writes). */
export function requestInputTokens(u: TokenUsage): number {
  return u.inputTokens + u.cacheReadTokens + u.cacheWrite5mTokens + u.cacheWrite1hTokens;
}

/**
 * Cost of one response under `schedule`. Once the request's input passes a tier's threshold, that
 * tier's rate applies to every token of the request, output included (Anthropic's and OpenAI's
 * long-context billing). A token class with tokens but no known rate makes the response unpriced:
 * a guessed rate would be a wrong number shown as a right one.
 */
export function costUnder(schedule: Schedule, usage: TokenUsage, modelId: string): PriceResult {
  const requestInput = requestInputTokens(usage);
  let costUsd = 0;
  for (const field of RATE_FIELDS) {
    const tokens = usage[USAGE_OF[field]];
    if (tokens === 0) continue;
    const price = schedule[field];
    if (price === undefined) return { unpriced: true, reason: `no ${field} price for ${modelId}` };
    let rate = price.base;
    for (const tier of price.tiers) if (requestInput > tier.above) rate = tier.price;
    costUsd += (tokens * rate) / 1_000_000;
  }
  return { costUsd };
}

/**
 * The schedule in force at `atMs`: the data set lists periods oldest first and the last one that
 * applies wins; when none applies (a time before the first dated price) the first one is used.
 */
export function scheduleAt(model: PricedModel, atMs: number): Schedule {
  const { periods } = model;
  for (let i = periods.length - 1; i >= 0; i--) {
    const p = periods[i]!; // i is in range
    const c = p.constraint;
    if (c.kind === "always") return p.schedule;
    if (c.kind === "from" && atMs >= c.ms) return p.schedule;
    if (c.kind === "timeOfDay") {
      const sec = (((atMs / 1000) % 86400) + 86400) % 86400;
      const inside = c.endSec < c.startSec ? sec >= c.startSec || sec < c.endSec : sec >= c.startSec && sec < c.endSec;
      if (inside) return p.schedule;
    }
  }
  return periods[0]!.schedule; // a PricedModel always has at least one period
}
