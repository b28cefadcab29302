// Plausibility bounds for the usage numbers an agent runtime records per model response (tokens
// and cost), shared by every provider's reader (OpenClaw now; Claude Code and Codex later). These
// numbers are summed into lifetime totals and Prometheus counters that never shrink, so a single
// absurd value (1e308 overflows the sum to Infinity, -5 makes a counter go backwards, 1.5 tokens
// is not a count) would poison every figure built on it for good. A reader checks each field
// here; a field that fails is reported as a BAD_FIELD warning and counts as nothing.
import type { SourceWarning } from "../providers/result.js";

/**
 * Most tokens one response can plausibly account for, in any one field (input, output, cache
 * read, cache write, total). The largest context windows offered today are 1–2 million tokens;
 * ten million leaves a 5x margin for the next generation while staying far (9 orders of
 * magnitude) below where sums of such values lose precision as doubles.
 */
export const MAX_TOKENS_PER_RESPONSE = 10_000_000;

/**
 * Most USD one response can plausibly cost. Ten million tokens at the dearest list prices
 * (hundreds of dollars per million tokens) stay under $10,000; anything beyond is not a price.
 */
export const MAX_COST_USD_PER_RESPONSE = 10_000;

/** A checked field: the value to count, and why the recorded one was refused (null when fine). */
export interface Checked<T> {
  value: T;
  problem: string | null;
}

const show = (v: unknown): string => {
  if (typeof v === "number") return String(v);
  try {
    const s = JSON.stringify(v);
    return s === undefined ? typeof v : s.length > 40 ? `${s.slice(0, 40)}…` : s;
  } catch {
    return typeof v;
  }
};

/**
 * A token count as recorded: missing (undefined / null) is 0 without complaint; anything but a
 * whole number in [0, MAX_TOKENS_PER_RESPONSE] is refused and counts as 0.
 */
export function checkTokenCount(v: unknown): Checked<number> {
  if (v === undefined || v === null) return { value: 0, problem: null };
  if (typeof v !== "number" || !Number.isFinite(v)) return { value: 0, problem: `${show(v)} is not a number` };
  if (v < 0) return { value: 0, problem: `${show(v)} is negative` };
  if (!Number.isInteger(v)) return { value: 0, problem: `${show(v)} is not a whole number of tokens` };
  if (v > MAX_TOKENS_PER_RESPONSE) return { value: 0, problem: `${show(v)} is beyond ${MAX_TOKENS_PER_RESPONSE} tokens per response` };
  return { value: v, problem: null };
}

/**
 * A cost in USD as recorded: missing is null (nothing recorded: a reader may price the tokens
 * instead); anything but a number in [0, MAX_COST_USD_PER_RESPONSE] is refused and counts as 0
 * (recorded, but worthless: it must not be replaced by a guess either).
 */
export function checkCostUsd(v: unknown): Checked<number | null> {
  if (v === undefined || v === null) return { value: null, problem: null };
  if (typeof v !== "number" || !Number.isFinite(v)) return { value: 0, problem: `${show(v)} is not a number` };
  if (v < 0) return { value: 0, problem: `${show(v)} is negative` };
  if (v > MAX_COST_USD_PER_RESPONSE) return { value: 0, problem: `${show(v)} is beyond $${MAX_COST_USD_PER_RESPONSE} per response` };
  return { value: v, problem: null };
}

/** The warning a reader reports for a refused field (`field` e.g. `usage.input`; `where` a file offset or row). */
export function badUsageField(field: string, problem: string, where: string): SourceWarning {
  return { code: "BAD_FIELD", message: `${field}: ${problem}; not counted`, where };
}

/**
 * A sum read back from a store for display: finite and not negative, else 0. Usage written since
 * the guard existed cannot produce anything else; this keeps an older store's poisoned row (or
 * an overflow no one foresaw) from reaching GraphQL (which refuses Infinity) or /metrics.
 */
export function finiteTotal(n: number | null | undefined): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0;
}

/** `finiteTotal` over the named fields of a row read from a store, in place; returns the row. */
export function finiteTotals<T extends object>(row: T, keys: readonly (keyof T)[]): T {
  for (const k of keys) (row as Record<keyof T, unknown>)[k] = finiteTotal(row[k] as number | null | undefined);
  return row;
}
