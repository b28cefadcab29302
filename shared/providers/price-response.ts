// Prices one normalized response with the shipped data set (and the operator's overrides), for
// providers whose files record no cost (Claude Code, Codex).
import type { Pricer } from "../pricing/pricer.js";
import type { ResponseEvent } from "./contract.js";

/** USD, or null when the model has no known price (the response is "unpriced", never $0). */
export function priceResponse(pricer: Pricer, r: ResponseEvent): number | null {
  const u = r.usage;
  if (!u) return 0;
  if (!r.model) return null;
  const result = pricer.priceUsage(
    r.model,
    { inputTokens: u.input, cacheReadTokens: u.cacheRead, cacheWrite5mTokens: u.cacheWrite - u.cacheWrite1h, cacheWrite1hTokens: u.cacheWrite1h, outputTokens: u.output },
    r.ts !== null ? { at: r.ts } : {},
  );
  return "unpriced" in result ? null : result.costUsd;
}
