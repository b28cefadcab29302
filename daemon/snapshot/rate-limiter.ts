// Snapshot requests per budget and minute (design §6: 30): a sliding window per key, with the
// number of keys remembered bounded so a scan of many addresses cannot grow memory. The caller
// decides what shares a budget (service.ts: each REST peer; MCP as a whole, and each MCP session
// within it).
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** 0 when budget `key` has room at `now`, else whole seconds until it would. Counts nothing. */
  wait(key: string, now: number, perMinute = this.perMinute): number {
    const list = this.recent(key, now);
    if (list.length < perMinute) return 0;
    return Math.max(1, Math.ceil(((list[list.length - perMinute] as number) + 60_000 - now) / 1000));
  }

  /** Counts a request against budget `key` at `now`. */
  record(key: string, now: number): void {
    const list = this.recent(key, now);
    list.push(now);
    this.hits.delete(key);
    this.hits.set(key, list);
    while (this.hits.size > this.maxKeys) {
      const oldest = this.hits.keys().next();
      if (oldest.done) break;
      this.hits.delete(oldest.value);
    }
  }

  /** Gives back a request counted at `at` that was refused after all (it must not spend the budget). */
  release(key: string, at: number): void {
    const list = this.hits.get(key);
    const i = list?.lastIndexOf(at) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  }

  /** Counts a request when the budget has room; 0 when counted, else whole seconds until it would be. */
  take(key: string, now: number): number {
    const wait = this.wait(key, now);
    if (wait === 0) this.record(key, now);
    return wait;
  }

  private recent(key: string, now: number): number[] {
    const since = now - 60_000;
    return (this.hits.get(key) ?? []).filter((t) => t > since);
  }
}
