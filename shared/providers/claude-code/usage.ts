// Claude Code's `message.usage` in the shared token vocabulary (design §9), validated. One function
// on purpose: a provider-neutral guard (shared/base/usage-guard.ts) is planned, and this is the
// single place to swap for it.
import type { TokenUsage } from "../contract.js";
import type { SourceWarning } from "../result.js";

/** A count above this, for one field of one response, is not believable (a 1M-token context is 10x below it). */
export const MAX_TOKENS_PER_FIELD = 10_000_000;

export interface UsageCheck {
  /** null: no usage on the line, or usage that failed validation (then `warning` says why). */
  usage: TokenUsage | null;
  warning: SourceWarning | null;
}

type Raw = Record<string, unknown>;

function isObject(v: unknown): v is Raw {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What a bad value looks like in a warning: numbers as written, anything else by its type (never a long string). */
function describe(v: unknown): string {
  return typeof v === "number" ? String(v) : v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`;
}

class BadField extends Error {}

/** A token count: absent or null is 0; anything else must be a non-negative integer up to the cap. */
function count(obj: Raw | null, key: string, path: string): number | undefined {
  if (!obj) return undefined;
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > MAX_TOKENS_PER_FIELD) {
    throw new BadField(`${path}${key} = ${describe(v)} is not a token count (an integer from 0 to ${MAX_TOKENS_PER_FIELD})`);
  }
  return v;
}

/**
 * Maps `message.usage` onto TokenUsage: input = input_tokens, cacheRead = cache_read_input_tokens,
 * cacheWrite = cache_creation_input_tokens (else the 5 m + 1 h breakdown), cacheWrite1h =
 * cache_creation.ephemeral_1h_input_tokens, output = output_tokens (reasoning included), reasoning =
 * output_tokens_details.thinking_tokens. Missing fields are 0. One bad value (negative, fractional,
 * non-finite, over MAX_TOKENS_PER_FIELD, not a number) or parts larger than their whole drop the
 * whole usage with a BAD_FIELD warning: a half-trusted usage would skew totals silently.
 */
export function toTokenUsage(raw: unknown, where: string): UsageCheck {
  if (raw === undefined || raw === null) return { usage: null, warning: null };
  if (!isObject(raw)) return bad(`usage is ${describe(raw)}, not an object`, where);
  try {
    const creation = isObject(raw.cache_creation) ? raw.cache_creation : null;
    const details = isObject(raw.output_tokens_details) ? raw.output_tokens_details : null;
    const input = count(raw, "input_tokens", "usage.");
    const output = count(raw, "output_tokens", "usage.");
    const cacheRead = count(raw, "cache_read_input_tokens", "usage.");
    const cacheWriteTotal = count(raw, "cache_creation_input_tokens", "usage.");
    const write5m = count(creation, "ephemeral_5m_input_tokens", "usage.cache_creation.");
    const write1h = count(creation, "ephemeral_1h_input_tokens", "usage.cache_creation.");
    const thinking = count(details, "thinking_tokens", "usage.output_tokens_details.");
    if ([input, output, cacheRead, cacheWriteTotal, write5m, write1h].every((v) => v === undefined)) return { usage: null, warning: null };
    const cacheWrite = cacheWriteTotal ?? (write5m ?? 0) + (write1h ?? 0);
    const usage: TokenUsage = {
      input: input ?? 0,
      output: output ?? 0,
      cacheRead: cacheRead ?? 0,
      cacheWrite,
      cacheWrite1h: write1h ?? 0,
      reasoning: thinking ?? 0,
    };
    if (usage.cacheWrite1h > usage.cacheWrite) return bad(`usage.cache_creation.ephemeral_1h_input_tokens (${usage.cacheWrite1h}) exceeds the cache writes (${usage.cacheWrite})`, where);
    if (usage.reasoning > usage.output) return bad(`usage.output_tokens_details.thinking_tokens (${usage.reasoning}) exceeds output_tokens (${usage.output})`, where);
    return { usage, warning: null };
  } catch (err) {
    if (err instanceof BadField) return bad(err.message, where);
    throw err;
  }
}

function bad(message: string, where: string): UsageCheck {
  return { usage: null, warning: { code: "BAD_FIELD", message: `${message}; usage dropped`, where } };
}
