// Codex's per-response usage (`token_usage_record.usage`, codex-format.md §5) in the shared token
// vocabulary (design §9), validated. One function on purpose: a provider-neutral guard
// (shared/base/usage-guard.ts) is planned, and this is the single place to swap for it.
import type { TokenUsage } from "../contract.js";
import type { SourceWarning } from "../result.js";
import { asObject } from "./shape.js";

/** A count above this, for one field of one response, is not believable (a 1M-token context is 10x below it). */
export const MAX_TOKENS_PER_FIELD = 10_000_000;

export interface UsageCheck {
  /** null: no usage, or usage that failed validation (then `warning` says why). */
  usage: TokenUsage | null;
  warning: SourceWarning | null;
}

/** What a bad value looks like in a warning: numbers as written, anything else by its type (never a long string). */
function describe(v: unknown): string {
  return typeof v === "number" ? String(v) : v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`;
}

class BadField extends Error {}

/** A token count: absent or null is undefined; anything else must be an integer from 0 to the cap. */
function tokens(obj: Record<string, unknown>, key: string): number | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > MAX_TOKENS_PER_FIELD) {
    throw new BadField(`usage.${key} = ${describe(v)} is not a token count (an integer from 0 to ${MAX_TOKENS_PER_FIELD})`);
  }
  return v;
}

/**
 * Maps Codex usage onto TokenUsage (OpenAI semantics: `input_tokens` includes the cached part,
 * `output_tokens` includes reasoning): input = input_tokens - cached_input_tokens, cacheRead =
 * cached_input_tokens, cacheWrite = cache_write_input_tokens (0 in every observed line),
 * cacheWrite1h = 0, output = output_tokens, reasoning = reasoning_output_tokens. Missing fields are
 * 0. One bad value (negative, fractional, non-finite, over MAX_TOKENS_PER_FIELD, not a number) or a
 * part larger than its whole (cached > input, reasoning > output) drops the whole usage with a
 * BAD_FIELD warning: a half-trusted usage would skew totals silently.
 */
export function toTokenUsage(raw: unknown, where: string): UsageCheck {
  if (raw === undefined || raw === null) return { usage: null, warning: null };
  const obj = asObject(raw);
  if (!obj) return bad(`usage is ${describe(raw)}, not an object`, where);
  try {
    const input = tokens(obj, "input_tokens");
    const cached = tokens(obj, "cached_input_tokens");
    const cacheWrite = tokens(obj, "cache_write_input_tokens");
    const output = tokens(obj, "output_tokens");
    const reasoning = tokens(obj, "reasoning_output_tokens");
    if ([input, cached, cacheWrite, output].every((v) => v === undefined)) return { usage: null, warning: null };
    if ((cached ?? 0) > (input ?? 0)) return bad(`usage.cached_input_tokens (${cached}) exceeds input_tokens (${input ?? 0})`, where);
    if ((reasoning ?? 0) > (output ?? 0)) return bad(`usage.reasoning_output_tokens (${reasoning}) exceeds output_tokens (${output ?? 0})`, where);
    return {
      usage: {
        input: (input ?? 0) - (cached ?? 0),
        output: output ?? 0,
        cacheRead: cached ?? 0,
        cacheWrite: cacheWrite ?? 0,
        cacheWrite1h: 0,
        reasoning: reasoning ?? 0,
      },
      warning: null,
    };
  } catch (err) {
    if (err instanceof BadField) return bad(err.message, where);
    throw err;
  }
}

function bad(message: string, where: string): UsageCheck {
  return { usage: null, warning: { code: "BAD_FIELD", message: `${message}; usage dropped`, where } };
}
