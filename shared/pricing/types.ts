// The pricing vocabulary, shared by the data set loader, the config overrides and the pricer.
// Token classes follow design §9: one vocabulary for every provider, so costs add up across them.

/** The tokens of ONE API response (one request), in the provider-neutral vocabulary. */
export interface TokenUsage {
  /** Input not read from cache (OpenAI: input_tokens - cached_input_tokens). */
  inputTokens: number;
  cacheReadTokens: number;
  /** Cache writes at the default TTL (Anthropic: 5 minutes). */
  cacheWrite5mTokens: number;
  /** Cache writes at Anthropic's 1-hour TTL. */
  cacheWrite1hTokens: number;
  /** Output, reasoning included. */
  outputTokens: number;
}

/** The priced token classes, named as in the `prices` config key. */
export const RATE_FIELDS = ["input", "output", "cacheRead", "cacheWrite5m", "cacheWrite1h"] as const;
export type RateField = (typeof RATE_FIELDS)[number];

/** Which usage counter each rate applies to. */
export const USAGE_OF: Readonly<Record<RateField, keyof TokenUsage>> = {
  input: "inputTokens",
  output: "outputTokens",
  cacheRead: "cacheReadTokens",
  cacheWrite5m: "cacheWrite5mTokens",
  cacheWrite1h: "cacheWrite1hTokens",
};

/**
 * The price of one token class in USD per million tokens. `tiers` (ascending by `above`) replace
 * `base` for the WHOLE request once the request's total input (input + cache read + cache writes)
 * is greater than `above`: that is how Anthropic bills its long-context tier, and how the data set
 * encodes OpenAI's 272k tier.
 */
export interface FieldPrice {
  base: number;
  tiers: readonly { above: number; price: number }[];
}

/** A model's prices; a missing field means no price is known for that token class. */
export type Schedule = Partial<Record<RateField, FieldPrice>>;

/** When a schedule applies. Prices change over time; a response is priced at its own time. */
export type Constraint =
  | { kind: "always" }
  /** From this instant on (epoch ms). */
  | { kind: "from"; ms: number }
  /** A daily UTC window in seconds since midnight; `end < start` wraps past midnight (off-peak rates). */
  | { kind: "timeOfDay"; startSec: number; endSec: number };

export interface PricePeriod {
  constraint: Constraint;
  schedule: Schedule;
}

export type PriceSource = "override" | "dataset";

/** Everything known about one model's price. */
export interface PricedModel {
  /** The id the price is listed under (data set model id or the override key). */
  id: string;
  source: PriceSource;
  /** Periods in data order; the last one that applies wins, as in the data set. */
  periods: readonly PricePeriod[];
  /** The model's context window in tokens, as the data set lists it (overrides have none). */
  contextWindow?: number;
}

export type PriceResult = { costUsd: number } | { unpriced: true; reason: string };
