// Each source's per-session totals, kept between questions. Read whole once (a GROUP BY over every
// transcript of the source: 20-100 ms at 10,000 sessions); after that, when the source has written,
// only the sessions it wrote are read again (issue 13: the first question after one appended
// event must not pay for every session). The read model asks it; the benchmark does too, so it
// measures the daemon's path.
import type { Store } from "../store/store.js";
import { totalsByKey, withTotalsOf, type TotalsByKey } from "./sessions.js";

/** What a source tells about its writes (AgentSource). */
interface WritingSource {
  readonly id: string;
  /** Writes so far. */
  readonly writes: number;
  /** The sessions written after `writes` (a count read earlier); null when not known. */
  keysWrittenSince(writes: number): ReadonlySet<string> | null;
}

interface Held {
  source: WritingSource;
  rewrites: number;
  writes: number;
  value: TotalsByKey;
}

export class KeptTotals {
  private readonly held = new Map<string, Held>();

  constructor(private readonly store: Store) {}

  /** The source's totals as the store holds them now. A new map whenever they moved: answers built from the old one see a new dependency. */
  of(source: WritingSource): TotalsByKey {
    const { store } = this;
    const held = this.held.get(source.id);
    // The same source object (one made again for the id counts its writes from 0) and no
    // retention rewrite since (it moves rows of any session).
    const same = held !== undefined && held.source === source && held.rewrites === store.rewrites;
    if (same && held.writes === source.writes) return held.value;
    const writes = source.writes;
    const keys = same ? source.keysWrittenSince(held.writes) : null;
    const value = same && keys ? withTotalsOf(store, source.id, held.value, keys) : totalsByKey(store, source.id);
    this.held.set(source.id, { source, rewrites: store.rewrites, writes, value });
    return value;
  }

  clear(): void {
    this.held.clear();
  }
}
