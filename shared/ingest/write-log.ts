// Which sessions a source's recent writes touched. The read model keeps each source's per-session
// totals (a GROUP BY over every transcript of the source: 20-100 ms at 10,000 sessions) and, after
// a write, reads again only the sessions written since instead of all of them (issue 13: the query
// after one appended event). Only the last LIMIT writes are remembered: a reader further behind
// (a first scan writes thousands of times) reads everything again, as before.

/** Writes remembered; a refresh after one appended event makes one or two. */
const LIMIT = 256;

export class WriteLog {
  private count = 0;
  /** The keys of writes count-entries.length+1 .. count, oldest first; null: a write that could touch any session. */
  private readonly entries: Array<readonly string[] | null> = [];

  /** Writes so far (AgentSource.writes). */
  get writes(): number {
    return this.count;
  }

  /** One write; `keys`: the sessions whose totals it may have changed ([] for none, null when not known). */
  record(keys: readonly string[] | null): void {
    this.count++;
    this.entries.push(keys);
    if (this.entries.length > LIMIT) this.entries.shift();
  }

  /**
   * The sessions written after the write numbered `since` (a `writes` value read earlier), or null
   * when that is not known: too far back, a write that did not say, or a `since` from the future.
   */
  keysSince(since: number): Set<string> | null {
    const back = this.count - since;
    if (back < 0 || back > this.entries.length) return null;
    const keys = new Set<string>();
    for (let i = this.entries.length - back; i < this.entries.length; i++) {
      const k = this.entries[i];
      if (k === null || k === undefined) return null;
      for (const key of k) keys.add(key);
    }
    return keys;
  }
}
