// The shipped price data set: @pydantic/genai-prices (MIT), read from the package at first use.
// No network: the package bundles its data and fetches nothing unless `updatePrices` is called,
// which we never do. docs/pricing.md says why this data set was chosen.
//
// Only the model makers' own price lists are indexed, first-party first, so an id is priced at
// its maker's list price and never at a reseller's (Bedrock, Vertex, OpenRouter…) unless the
// operator overrides it. Each model is indexed under its id and the literal ids its match rules
// name (`equals`, and `starts_with` taken as a whole id), never by prefix.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type * as GenaiPrices from "@pydantic/genai-prices";
import type { Constraint, FieldPrice, PricedModel, PricePeriod, RateField, Schedule } from "./types.js";

export const DATASET_PACKAGE = "@pydantic/genai-prices";

/** Vendors whose own price lists are indexed, in priority order (an id two vendors list goes to the first). */
const DATASET_VENDORS = [
  "anthropic",
  "openai",
  "google",
  "mistral",
  "deepseek",
  "x-ai",
  "cohere",
  "moonshotai",
  "minimax",
  "zai",
  "zhipuai",
] as const;

/** The data set's price keys (USD per million tokens) that map onto our token classes. */
const PRICE_KEYS: Readonly<Record<string, RateField>> = {
  input_mtok: "input",
  output_mtok: "output",
  cache_read_mtok: "cacheRead",
  cache_write_mtok: "cacheWrite5m",
  cache_write_1h_mtok: "cacheWrite1h",
};

export interface DatasetIndex {
  version: string;
  /** Lower-cased id → model. */
  byId: ReadonlyMap<string, PricedModel>;
  /** Distinct models indexed. */
  models: number;
  /** Entries left out because their shape was not understood (a data set change to look at). */
  skipped: string[];
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isPrice(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0;
}

function fieldPrice(v: unknown): FieldPrice | null {
  if (isPrice(v)) return { base: v, tiers: [] };
  if (!isObject(v) || !isPrice(v.base) || !Array.isArray(v.tiers)) return null;
  const tiers: { above: number; price: number }[] = [];
  for (const t of v.tiers as unknown[]) {
    if (!isObject(t) || !isPrice(t.price) || typeof t.start !== "number" || !Number.isSafeInteger(t.start) || t.start < 0) return null;
    tiers.push({ above: t.start, price: t.price });
  }
  tiers.sort((a, b) => a.above - b.above);
  return { base: v.base, tiers };
}

/**
 * A schedule needs an input price (an embedding model has no output price: output tokens would
 * then be unpriced). Other data-set keys (audio, images, searches) are ignored.
 */
function schedule(v: unknown): Schedule | null {
  if (!isObject(v)) return null;
  const out: Schedule = {};
  for (const [key, field] of Object.entries(PRICE_KEYS)) {
    if (v[key] === undefined) continue;
    const p = fieldPrice(v[key]);
    if (p === null) return null;
    out[field] = p;
  }
  return out.input ? out : null;
}

/** `HH:MM:SS[.fff](Z|±HH:MM)` → seconds after midnight UTC. */
function timeOfDaySeconds(s: string): number | null {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|([+-])(\d{2}):(\d{2}))$/.exec(s);
  if (!m) return null;
  const [h, min, sec] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (h > 23 || min > 59 || sec > 59) return null;
  const offset = m[4] === undefined ? 0 : (m[4] === "+" ? 1 : -1) * (Number(m[5]) * 3600 + Number(m[6]) * 60);
  return (((h * 3600 + min * 60 + sec - offset) % 86400) + 86400) % 86400;
}

function constraint(v: unknown): Constraint | null {
  if (v === undefined) return { kind: "always" };
  if (!isObject(v)) return null;
  if (v.type === "start_date" && typeof v.start_date === "string") {
    const ms = Date.parse(v.start_date);
    return Number.isFinite(ms) ? { kind: "from", ms } : null;
  }
  if (v.type === "time_of_date" && typeof v.start_time === "string" && typeof v.end_time === "string") {
    const startSec = timeOfDaySeconds(v.start_time);
    const endSec = timeOfDaySeconds(v.end_time);
    return startSec === null || endSec === null ? null : { kind: "timeOfDay", startSec, endSec };
  }
  return null;
}

function periods(prices: unknown): PricePeriod[] | null {
  if (!Array.isArray(prices)) {
    const s = schedule(prices);
    return s ? [{ constraint: { kind: "always" }, schedule: s }] : null;
  }
  const out: PricePeriod[] = [];
  for (const p of prices as unknown[]) {
    if (!isObject(p)) return null;
    const c = constraint(p.constraint);
    const s = schedule(p.prices);
    if (c === null || s === null) return null;
    out.push({ constraint: c, schedule: s });
  }
  return out.length > 0 ? out : null;
}

/** The literal ids a match rule names: `equals` values and `starts_with` prefixes taken as whole ids. */
function literalIds(match: unknown, out: string[]): void {
  if (!isObject(match)) return;
  if (Array.isArray(match.or)) for (const m of match.or as unknown[]) literalIds(m, out);
  if (typeof match.equals === "string") out.push(match.equals);
  // A prefix such as `claude-sonnet-4@` or `gpt-5-nano-` names the id without its separator.
  if (typeof match.starts_with === "string") out.push(match.starts_with.replace(/[-@._:]+$/, ""));
}

/** Builds the index from provider records shaped like the data set's (exported for tests). */
export function buildIndex(providers: readonly unknown[], version: string): DatasetIndex {
  const byId = new Map<string, PricedModel>();
  const skipped: string[] = [];
  let models = 0;
  for (const provider of providers) {
    if (!isObject(provider) || !Array.isArray(provider.models)) continue;
    for (const m of provider.models as unknown[]) {
      if (!isObject(m) || typeof m.id !== "string") continue;
      const ps = periods(m.prices);
      if (ps === null) {
        // Models priced by something else (audio hours, images, pages) have no token schedule.
        if (!isTokenless(m.prices)) skipped.push(`${String(provider.id)}/${m.id}`);
        continue;
      }
      const model: PricedModel = { id: m.id, source: "dataset", periods: ps };
      if (typeof m.context_window === "number" && Number.isSafeInteger(m.context_window) && m.context_window > 0) model.contextWindow = m.context_window;
      const ids = [m.id];
      literalIds(m.match, ids);
      let added = false;
      for (const id of ids) {
        const key = id.trim().toLowerCase();
        if (key === "" || byId.has(key)) continue;
        byId.set(key, model);
        added = true;
      }
      if (added) models++;
    }
  }
  return { version, byId, models, skipped };
}

/** True when a price entry has no input token price (priced by audio hours, images, pages…). */
function isTokenless(prices: unknown): boolean {
  const list = Array.isArray(prices) ? prices.map((p: unknown) => (isObject(p) ? p.prices : undefined)) : [prices];
  return list.every((p) => isObject(p) && p.input_mtok === undefined);
}

const require = createRequire(import.meta.url);

function packageVersion(): string {
  try {
    // The package's exports do not include package.json; it sits beside dist/.
    const entry = require.resolve(DATASET_PACKAGE);
    const pkg = JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8")) as { version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : "unknown";
  } catch {
    return "unknown";
  }
}

let shipped: DatasetIndex | null = null;

/** The shipped data set, indexed once per process. */
export function shippedDataset(): DatasetIndex {
  if (shipped === null) {
    // Loaded on first use, not at import: parsing the package's bundled data takes ~60 ms, which
    // a process that never prices anything (the CLI) should not pay.
    const { findProvider } = require(DATASET_PACKAGE) as typeof GenaiPrices;
    // findProvider also matches by alias (e.g. "bedrock" finds "aws"): keep only the vendor asked for.
    const providers = DATASET_VENDORS.flatMap((id) => {
      const p = findProvider({ providerId: id });
      return p !== undefined && p.id === id ? [p] : [];
    });
    shipped = buildIndex(providers, packageVersion());
  }
  return shipped;
}
