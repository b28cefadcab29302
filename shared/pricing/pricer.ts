// Prices API responses by model id: overrides first, then the shipped data set; an id neither
// knows is "unpriced" (never $0) and is remembered for the health check. The scanner calls this
// for every response of multi-GB histories, so each distinct id is resolved once and cached.
import { costUnder, scheduleAt, usageProblem } from "./cost.js";
import { shippedDataset } from "./dataset.js";
import type { DatasetIndex } from "./dataset.js";
import { MAX_MODEL_ID_LENGTH, modelIdCandidates } from "./model-id.js";
import { NO_OVERRIDES } from "./overrides.js";
import type { PriceOverrides } from "./overrides.js";
import type { PricedModel, PriceResult, PriceSource, TokenUsage } from "./types.js";

/** How an id was resolved. */
export type Resolution =
  | { priced: true; model: PricedModel; source: PriceSource; /** the key that matched: an id or a glob */ matched: string }
  | { priced: false };

export interface UnpricedModel {
  model: string;
  /** Why its responses are unpriced (the latest reason seen). */
  reason: string;
  responses: number;
  /** All tokens of those responses (the five classes added up). */
  tokens: number;
}

export interface PriceOptions {
  /** When the response was made (epoch ms or Date): prices change over time. Default: the pricer's clock. */
  at?: number | Date;
}

export interface PricerOptions {
  overrides?: PriceOverrides;
  /** Default: the shipped @pydantic/genai-prices data. */
  dataset?: DatasetIndex;
  /** Clock for responses priced without `at`. */
  now?: () => number;
}

/** Distinct ids cached; past this (hostile data), ids are still resolved, just not remembered. */
const MAX_CACHED_IDS = 10_000;
/** Distinct unpriced ids kept for the health check; more are counted in `droppedUnpriced`. */
const MAX_UNPRICED_IDS = 200;
const SHOWN_ID_LENGTH = 120;

const UNKNOWN: Resolution = { priced: false };

export class Pricer {
  readonly #overrides: PriceOverrides;
  readonly #dataset: DatasetIndex;
  readonly #now: () => number;
  readonly #resolved = new Map<string, Resolution>();
  readonly #windows = new Map<string, number | null>();
  readonly #unpriced = new Map<string, UnpricedModel>();
  #droppedUnpriced = 0;

  constructor(opts: PricerOptions = {}) {
    this.#overrides = opts.overrides ?? NO_OVERRIDES;
    this.#dataset = opts.dataset ?? shippedDataset();
    this.#now = opts.now ?? Date.now;
  }

  /** The data set's name and version, for docs, logs and the health check. */
  get datasetVersion(): string {
    return this.#dataset.version;
  }

  /**
   * Which price applies to `model`: an override (exact id on any normalized form, then the most
   * specific glob), else the data set (first normalized form it lists).
   */
  resolve(model: string): Resolution {
    const cached = this.#resolved.get(model);
    if (cached !== undefined) return cached;
    const r = typeof model === "string" ? this.#lookup(model) : UNKNOWN;
    if (this.#resolved.size < MAX_CACHED_IDS) this.#resolved.set(model, r);
    return r;
  }

  #lookup(model: string): Resolution {
    const candidates = modelIdCandidates(model);
    const { exact, globs } = this.#overrides;
    for (const id of candidates) {
      const m = exact.get(id);
      if (m !== undefined) return { priced: true, model: m, source: "override", matched: id };
    }
    for (const g of globs) {
      if (candidates.some((id) => g.re.test(id))) return { priced: true, model: g.model, source: "override", matched: g.pattern };
    }
    for (const id of candidates) {
      const m = this.#dataset.byId.get(id);
      if (m !== undefined) return { priced: true, model: m, source: "dataset", matched: id };
    }
    return UNKNOWN;
  }

  /**
   * The model's context window from the data set (first normalized form it lists with one), or
   * null. Overrides are skipped: they price a model, they do not say how large its window is.
   */
  contextWindow(model: string): number | null {
    const cached = this.#windows.get(model);
    if (cached !== undefined) return cached;
    let window: number | null = null;
    if (typeof model === "string") {
      for (const id of modelIdCandidates(model)) {
        window = this.#dataset.byId.get(id)?.contextWindow ?? null;
        if (window !== null) break;
      }
    }
    if (this.#windows.size < MAX_CACHED_IDS) this.#windows.set(model, window);
    return window;
  }

  /** Cost of one API response, or why it has none. Never throws, never returns $0 for an unknown model. */
  priceUsage(model: string, usage: TokenUsage, opts: PriceOptions = {}): PriceResult {
    const problem = usageProblem(usage);
    if (problem !== null) return { unpriced: true, reason: problem };
    if (typeof model !== "string" || model.trim() === "") return this.#unpricedResult("(no model id)", "no model id", usage);
    if (model.length > MAX_MODEL_ID_LENGTH) return this.#unpricedResult(model, `model id longer than ${MAX_MODEL_ID_LENGTH} characters`, usage);
    const r = this.resolve(model);
    if (!r.priced) return this.#unpricedResult(model, `unknown model ${shown(model)}`, usage);
    const at = opts.at === undefined ? this.#now() : typeof opts.at === "number" ? opts.at : opts.at.getTime();
    const result = costUnder(scheduleAt(r.model, Number.isFinite(at) ? at : this.#now()), usage, r.model.id);
    if ("unpriced" in result) this.#remember(model, result.reason, usage);
    return result;
  }

  #unpricedResult(model: string, reason: string, usage: TokenUsage): PriceResult {
    this.#remember(model, reason, usage);
    return { unpriced: true, reason };
  }

  #remember(model: string, reason: string, usage: TokenUsage): void {
    const key = shown(model);
    let entry = this.#unpriced.get(key);
    if (entry === undefined) {
      if (this.#unpriced.size >= MAX_UNPRICED_IDS) {
        this.#droppedUnpriced++;
        return;
      }
      entry = { model: key, reason, responses: 0, tokens: 0 };
      this.#unpriced.set(key, entry);
    }
    entry.reason = reason;
    entry.responses++;
    entry.tokens += usage.inputTokens + usage.cacheReadTokens + usage.cacheWrite5mTokens + usage.cacheWrite1hTokens + usage.outputTokens;
  }

  /** Models whose responses could not be priced, most responses first (for a health check). */
  unpricedModels(): UnpricedModel[] {
    return [...this.#unpriced.values()].map((e) => ({ ...e })).sort((a, b) => b.responses - a.responses || a.model.localeCompare(b.model));
  }

  /** Unpriced responses of ids beyond the first 200 distinct ones (not itemized). */
  get droppedUnpriced(): number {
    return this.#droppedUnpriced;
  }
}

function shown(model: string): string {
  return model.length > SHOWN_ID_LENGTH ? `${model.slice(0, SHOWN_ID_LENGTH)}…` : model;
}

let defaultPricer: Pricer | null = null;

/**
 * Prices one response with the shipped data set and no overrides (`opts.pricer` to use a Pricer
 * built with the config's overrides). See Pricer.priceUsage.
 */
export function priceUsage(model: string, usage: TokenUsage, opts: PriceOptions & { pricer?: Pricer } = {}): PriceResult {
  const pricer = opts.pricer ?? (defaultPricer ??= new Pricer());
  return pricer.priceUsage(model, usage, opts);
}
