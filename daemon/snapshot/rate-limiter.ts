// Snapshot requests per budget and minute (design §6: 30): a sliding window per key, with the
// number of keys remembered bounded so a scan of many addresses cannot grow memory. The caller
// decides what shares a budget (service.ts: each REST peer, and all of MCP together).
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Counts a request against budget `key` at `now`; 0 when allowed, else whole seconds until it would be. */
  take(key: string, now: number): number {
    const since = now - 60_000;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    this.hits.delete(key);
    if (list.length >= this.perMinute) {
      this.hits.set(key, list);
      return Math.max(1, Math.ceil(((list[0] as number) + 60_000 - now) / 1000));
    }
    list.push(now);
    this.hits.set(key, list);
    while (this.hits.size > this.maxKeys) {
      const oldest = this.hits.keys().next();
      if (oldest.done) break;
      this.hits.delete(oldest.value);
    }
    return 0;
  }
}
