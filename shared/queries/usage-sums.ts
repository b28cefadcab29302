// Summing usage: figures added up per row, model and provider, and turned into the report's
// figures with money rounded to the cent's fraction the report shows (money.ts). Apart from the
// report because pricing and rounding change for their own reasons; the export sums the same way.
import { PROVIDER_NAMES as PROVIDERS, providerOfSourceId, type ProviderName } from "../providers/registry.js";
import { usd } from "./money.js";
import { add, zero, type Sums } from "./usage-figures.js";
import type { UsageFigures, UsageModelFigures, UsageProviderFigures, UsageRow, UsageTotals } from "./usage-report.js";

/** Model name of responses that recorded none. */
const UNKNOWN_MODEL = "unknown";

// ---------------------------------------------------------------------------------------------
// Grouping.

export function figures(s: Sums): UsageFigures {
  return {
    inputTokens: s.input,
    outputTokens: s.output,
    cacheWriteTokens: s.cacheWrite,
    cacheReadTokens: s.cacheRead,
    reasoningTokens: s.reasoning,
    totalTokens: s.input + s.output + s.cacheWrite + s.cacheRead,
    costUsd: usd(s.cost),
    responses: s.responses,
    unpricedResponses: s.unpriced,
    costComplete: s.unpriced === 0,
  };
}

/** One row (or the totals) being summed: figures, per model, and who contributed. */
export class Group {
  readonly sums = zero();
  readonly byModel = new Map<string, Sums>();
  readonly byProvider = new Map<ProviderName, Sums>();
  readonly sources = new Set<string>();

  add(sourceId: string, model: string, s: Sums): void {
    add(this.sums, s);
    this.addModel(model || UNKNOWN_MODEL, s);
    const provider = providerOfSourceId(sourceId);
    if (provider) this.addProvider(provider, s);
    this.sources.add(sourceId);
  }

  merge(other: Group): void {
    add(this.sums, other.sums);
    for (const [model, s] of other.byModel) this.addModel(model, s);
    for (const [provider, s] of other.byProvider) this.addProvider(provider, s);
    for (const s of other.sources) this.sources.add(s);
  }

  private addProvider(provider: ProviderName, s: Sums): void {
    let p = this.byProvider.get(provider);
    if (!p) this.byProvider.set(provider, (p = zero()));
    add(p, s);
  }

  providerRows(): UsageProviderFigures[] {
    return PROVIDERS.filter((p) => this.byProvider.has(p)).map((provider) => ({ provider, ...figures(this.byProvider.get(provider) as Sums) }));
  }

  private addModel(name: string, s: Sums): void {
    let m = this.byModel.get(name);
    if (!m) this.byModel.set(name, (m = zero()));
    add(m, s);
  }

  totals(): UsageTotals {
    const sources = [...this.sources].sort();
    const providers = PROVIDERS.filter((p) => sources.some((s) => providerOfSourceId(s) === p));
    return {
      ...figures(this.sums),
      providers,
      sources,
      models: [...this.byModel.keys()].sort(),
      unpricedModels: [...this.byModel].filter(([, s]) => s.unpriced > 0).map(([m]) => m).sort(),
    };
  }

  breakdown(): UsageModelFigures[] {
    return [...this.byModel]
      .map(([model, s]) => ({ model, ...figures(s) }))
      .sort((a, b) => b.totalTokens - a.totalTokens || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  }

  /** A row: its key, what only its kind has (a session's project and times), the figures, then the per-provider split and the breakdown. */
  row(key: string, extra: Partial<UsageRow>, breakdown: boolean, byProvider: boolean): UsageRow {
    return { key, ...extra, ...this.totals(), ...(byProvider ? { byProvider: this.providerRows() } : {}), ...(breakdown ? { breakdown: this.breakdown() } : {}) };
  }
}
