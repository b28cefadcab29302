// Operator price overrides: the `prices` object of config.json, validated with zod. Keys are model
// ids or globs (`*` = any run of characters); values are USD per million tokens. An override
// replaces the data set's price for every model it matches (whole, not field by field: mixing two
// sources for one model would price it with numbers neither of them lists).
import { z } from "zod";
import { ConfigError } from "../base/errors.js";
import { MAX_MODEL_ID_LENGTH } from "./model-id.js";
import { RATE_FIELDS } from "./types.js";
import type { FieldPrice, PricedModel, Schedule } from "./types.js";

/** No real list price comes near this; a larger number is a typo (or would overflow sums). */
const MAX_PRICE_PER_MTOK = 100_000;
const MAX_ENTRIES = 1_000;

const price = z.number().min(0).max(MAX_PRICE_PER_MTOK);
const tokens = z.number().int().min(1).max(1_000_000_000);

const LongContextSchema = z
  .object({
    thresholdTokens: tokens,
    input: price.optional(),
    output: price.optional(),
    cacheRead: price.optional(),
    cacheWrite5m: price.optional(),
    cacheWrite1h: price.optional(),
  })
  .strict();

export const PriceOverrideSchema = z
  .object({
    input: price,
    output: price,
    cacheRead: price.optional(),
    cacheWrite5m: price.optional(),
    cacheWrite1h: price.optional(),
    longContext: LongContextSchema.optional(),
  })
  .strict();

/**
 * The `prices` config value: `{ "<model id or glob>": { input, output, … } }`. Entries are checked
 * one by one (not with z.record), so that a key such as `__proto__` is an ordinary key, neither
 * dropped nor let through unchecked when the parsed object is rebuilt.
 */
export type PriceOverridesConfig = Record<string, z.infer<typeof PriceOverrideSchema>>;

interface GlobOverride {
  pattern: string;
  re: RegExp;
  /** Characters other than `*`: the more, the more specific the glob. */
  literal: number;
  model: PricedModel;
}

/** Overrides ready for lookup: exact ids in a Map, globs most specific first. */
export interface PriceOverrides {
  exact: ReadonlyMap<string, PricedModel>;
  globs: readonly GlobOverride[];
}

export const NO_OVERRIDES: PriceOverrides = { exact: new Map(), globs: [] };

const PRICE_TEXT = `a price in USD per million tokens (a number from 0 to ${MAX_PRICE_PER_MTOK})`;
const ALLOWED: Record<string, string> = {
  thresholdTokens: "a whole number of input tokens from 1 to 1000000000",
  longContext: `an object with thresholdTokens and at least one of ${RATE_FIELDS.join(", ")}`,
};
for (const f of RATE_FIELDS) ALLOWED[f] = PRICE_TEXT;

function keyName(path: readonly PropertyKey[]): string {
  let out = "prices";
  for (const [i, p] of path.entries()) out += i === 0 ? `[${JSON.stringify(String(p))}]` : `.${String(p)}`;
  return out;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v = raw;
  for (const p of path) v = typeof v === "object" && v !== null ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

/** Turns zod's first complaint into a ConfigError naming the model and the field. */
function configErrorFor(issue: z.core.$ZodIssue, raw: unknown, origin: string, modelKey: string): ConfigError {
  const path = [modelKey, ...issue.path];
  if (issue.code === "unrecognized_keys") {
    const field = issue.keys[0] ?? "?";
    const allowed = path.length === 1 ? [...RATE_FIELDS, "longContext"] : ["thresholdTokens", ...RATE_FIELDS];
    return new ConfigError(keyName([...path, field]), valueAt(raw, [...path, field]), origin, `no such field (one of ${allowed.join(", ")})`);
  }
  const last = path[path.length - 1];
  if (path.length === 1) {
    return new ConfigError(keyName(path), valueAt(raw, path), origin, `an object of prices in USD per million tokens (input and output required; optional ${RATE_FIELDS.slice(2).join(", ")}, longContext)`);
  }
  const field = String(last);
  return new ConfigError(keyName(path), valueAt(raw, path), origin, Object.hasOwn(ALLOWED, field) ? ALLOWED[field]! : issue.message);
}

function checkKey(key: string, origin: string): void {
  const bad = (allowed: string): never => {
    throw new ConfigError(`prices[${JSON.stringify(key)}]`, key, origin, allowed);
  };
  if (key.trim() === "" || key.length > MAX_MODEL_ID_LENGTH) bad(`a model id or glob of 1 to ${MAX_MODEL_ID_LENGTH} characters`);
  // Control characters cannot be in a model id and would garble logs.
  if (/[\u0000-\u001f\u007f]/.test(key)) bad("a model id or glob without control characters");
}

function toModel(id: string, entry: z.infer<typeof PriceOverrideSchema>): PricedModel {
  const schedule: Schedule = {};
  const lc = entry.longContext;
  for (const field of RATE_FIELDS) {
    const base = entry[field];
    if (base === undefined) continue;
    const long = lc?.[field];
    const p: FieldPrice = { base, tiers: lc && long !== undefined ? [{ above: lc.thresholdTokens, price: long }] : [] };
    schedule[field] = p;
  }
  return { id, source: "override", periods: [{ constraint: { kind: "always" }, schedule }] };
}

function globRegExp(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`);
}

/**
 * Validates the `prices` config value (undefined or null = no overrides). Throws a ConfigError
 * (code CONFIG_INVALID) naming the model key, the field, the bad value and what is allowed.
 */
export function parsePriceOverrides(raw: unknown, origin: string): PriceOverrides {
  if (raw === undefined || raw === null) return NO_OVERRIDES;
  if (typeof raw !== "object" || Array.isArray(raw)) throw new ConfigError("prices", raw, origin, "an object mapping model ids or globs to prices");
  const keys = Object.keys(raw);
  if (keys.length > MAX_ENTRIES) throw new ConfigError("prices", `<${keys.length} entries>`, origin, `at most ${MAX_ENTRIES} entries`);
  const entries: [string, z.infer<typeof PriceOverrideSchema>][] = [];
  for (const key of keys) {
    checkKey(key, origin);
    const parsed = PriceOverrideSchema.safeParse((raw as Record<string, unknown>)[key]);
    if (!parsed.success) throw configErrorFor(parsed.error.issues[0]!, raw, origin, key); // a failed parse has an issue
    entries.push([key, parsed.data]);
  }

  const exact = new Map<string, PricedModel>();
  const globs: (GlobOverride & { order: number })[] = [];
  const seen = new Map<string, string>();
  for (const [key, entry] of entries) {
    const id = key.trim().toLowerCase();
    const earlier = seen.get(id);
    if (earlier !== undefined) throw new ConfigError(`prices[${JSON.stringify(key)}]`, key, origin, `a key not already given (same model as ${JSON.stringify(earlier)}; keys ignore case)`);
    seen.set(id, key);
    if (entry.longContext && !RATE_FIELDS.some((f) => entry.longContext?.[f] !== undefined)) {
      throw new ConfigError(`prices[${JSON.stringify(key)}].longContext`, entry.longContext, origin, ALLOWED.longContext!);
    }
    for (const field of RATE_FIELDS) {
      if (entry.longContext?.[field] !== undefined && entry[field] === undefined) {
        throw new ConfigError(`prices[${JSON.stringify(key)}].${field}`, undefined, origin, `${PRICE_TEXT}, since longContext.${field} is set`);
      }
    }
    const model = toModel(key, entry);
    if (id.includes("*")) globs.push({ pattern: id, re: globRegExp(id), literal: id.replace(/\*/g, "").length, model, order: globs.length });
    else exact.set(id, model);
  }
  globs.sort((a, b) => b.literal - a.literal || a.order - b.order);
  return { exact, globs };
}
