// Answers the read model keeps between two changes of a source (docs/benchmarks-history.md, "GraphQL
// suite"): a dashboard asks the same questions every few seconds, and at 10,000 sessions each one
// is a GROUP BY over thousands of rows. Only the collector writes a source's rows, and it reports
// every change through `onChange(sourceId)` before `dataChanged` goes out: the read model drops
// that source's entries there, so the next question after the signal is answered from the store.
//
// What an answer depends on besides the store is part of its entry:
// - `key`: the arguments and the clock-derived parts of the question (a metrics window, a day);
// - `deps`: objects the answer was built from (the source's session list, its totals), compared by
//   identity: the source may replace its session list without a change being reported; and the
//   counts of the source's writes and of the store's retention rewrites, which move inside the
//   writing transaction (a long scan writes for minutes before its change is reported);
// - `validFrom` / `validUntil`: the clock span over which the answer is exact (a session turns
//   IDLE 30 minutes after its last activity even though nothing was written).
// Each source keeps a few entries (least recently used first out), bounded in number and in
// weight (views held), so arguments chosen by a client cannot grow the cache without limit.

interface CacheLimits {
  /** Entries per source. */
  entries: number;
  /** Sum of the entries' weights per source (a session list weighs its views). */
  weight: number;
}

const DEFAULT_CACHE_LIMITS: CacheLimits = { entries: 32, weight: 5000 };

export interface Computed<T> {
  value: T;
  /** First instant the answer no longer holds (exclusive); default never. */
  validUntil?: number;
  /** Default 1. */
  weight?: number;
}

interface Entry {
  value: unknown;
  deps: readonly unknown[];
  validFrom: number;
  validUntil: number;
  weight: number;
}

export class SourceCache {
  private readonly sources = new Map<string, { entries: Map<string, Entry>; weight: number }>();
  /** Counters for tests and the benchmark's notes. */
  readonly stats = { hits: 0, misses: 0 };

  constructor(private readonly limits: CacheLimits = DEFAULT_CACHE_LIMITS) {}

  /**
   * The entry `key` of `source` if it holds at `now` for these `deps`, else `compute()`'s answer,
   * kept for the next call.
   */
  get<T>(source: string, key: string, now: number, deps: readonly unknown[], compute: () => Computed<T>): T {
    let s = this.sources.get(source);
    const hit = s?.entries.get(key);
    if (s && hit) {
      if (now >= hit.validFrom && now < hit.validUntil && sameDeps(hit.deps, deps)) {
        // Most recently used last.
        s.entries.delete(key);
        s.entries.set(key, hit);
        this.stats.hits++;
        return hit.value as T;
      }
      s.entries.delete(key);
      s.weight -= hit.weight;
    }
    this.stats.misses++;
    const c = compute();
    const entry: Entry = { value: c.value, deps: [...deps], validFrom: now, validUntil: c.validUntil ?? Infinity, weight: Math.max(1, c.weight ?? 1) };
    // An answer that is stale at once (or too big to keep) is returned, not kept.
    if (entry.validUntil <= now || entry.weight > this.limits.weight) return c.value;
    if (!s) this.sources.set(source, (s = { entries: new Map(), weight: 0 }));
    s.entries.set(key, entry);
    s.weight += entry.weight;
    for (const [k, e] of s.entries) {
      if (s.entries.size <= this.limits.entries && s.weight <= this.limits.weight) break;
      s.entries.delete(k);
      s.weight -= e.weight;
    }
    return c.value;
  }

  /** Drops every answer about `source`. */
  invalidate(source: string): void {
    this.sources.delete(source);
  }

  /** Drops everything (the store was rewritten underneath: retention). */
  clear(): void {
    this.sources.clear();
  }

  /** Entries kept for `source` (tests). */
  size(source: string): number {
    return this.sources.get(source)?.entries.size ?? 0;
  }
}

function sameDeps(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Freezes an answer shared between callers, so a caller that edits it fails loudly instead of corrupting the next answer. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
