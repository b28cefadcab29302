// Gives memory back once the daemon goes quiet. Serving cards, a first scan or a burst of queries
// grows V8's heap (and the native memory its collections free) to what that work needed, and V8
// keeps it: measured, a daemon at 109 MB held 150 MB for 80 s after 400 cards, and 385 MB a minute
// after 1,000 cards on 10,000 sessions, with its live heap unchanged. V8's own memory reducer runs
// late (or not at all) because the collector's polls keep allocating. So when no request came for
// `quietMs` and the process grew by `minGrowthBytes` since the last time, one full, compacting
// collection hands the heap back; at most one per quiet spell, never during a request burst.
import v8 from "node:v8";
import vm from "node:vm";

export interface QuietGcOptions {
  /** No request for this long: the daemon is at rest. */
  quietMs?: number;
  /** How often to look. */
  checkMs?: number;
  /** Collect only when the process grew at least this much since the last collection (or start). */
  minGrowthBytes?: number;
  /** Resident bytes now; default process.memoryUsage.rss(). */
  residentBytes?: () => number;
  /**
   * Once quiet, before collecting: hand back caches kept for work that stopped (the sources'
   * at-rest release); true when anything was, so the collection is made even without growth.
   */
  release?: () => boolean;
  /** The collection; default a full compacting GC (fullGc()); null: none available, do nothing. */
  collect?: (() => void) | null;
  now?: () => number;
  /** Starts the periodic check; default setInterval, unref'd. */
  every?: (fn: () => void, ms: number) => { cancel(): void };
}

export const QUIET_MS = 20_000;
export const QUIET_CHECK_MS = 5_000;
const QUIET_MIN_GROWTH_BYTES = 8 * 1024 * 1024;

/**
 * V8's full collection with memory reduction (gc() with the "last-resort" flavour), obtained the way
 * test runners do for leak detection: the flag exposes `gc` to new contexts only, and is turned
 * off again. Null when this V8 refuses (the daemon then just keeps what it has).
 */
export function fullGc(): (() => void) | null {
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as unknown;
    v8.setFlagsFromString("--no-expose-gc");
    if (typeof gc !== "function") return null;
    return () => (gc as (o: { type: string; execution: string; flavor: string }) => void)({ type: "major", execution: "sync", flavor: "last-resort" });
  } catch {
    return null;
  }
}

const defaultEvery = (fn: () => void, ms: number): { cancel(): void } => {
  const t = setInterval(fn, ms);
  t.unref();
  return { cancel: () => clearInterval(t) };
};

export class QuietGc {
  private lastActivity: number;
  private baseline: number;
  private timer: { cancel(): void } | null = null;
  /** A collection was made since the last request: the rest of this quiet spell needs none. */
  private collectedThisSpell = false;
  private readonly collectFn: (() => void) | null;
  /** Collections made (tests, the log). */
  collections = 0;

  constructor(private readonly o: QuietGcOptions = {}) {
    this.collectFn = o.collect === undefined ? fullGc() : o.collect;
    this.lastActivity = this.now();
    this.baseline = this.resident();
  }

  /** A request arrived: the daemon is not at rest. */
  touch(): void {
    this.lastActivity = this.now();
    this.collectedThisSpell = false;
  }

  start(): void {
    if (this.timer || !this.collectFn) return;
    this.timer = (this.o.every ?? defaultEvery)(() => this.check(), this.o.checkMs ?? QUIET_CHECK_MS);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = null;
  }

  /**
   * One look: collects when quiet and grown, once per quiet spell, and again whenever `release`
   * handed something back (a source goes idle later in the spell). Returns whether it collected.
   */
  check(): boolean {
    if (!this.collectFn) return false;
    const resident = this.resident();
    // Shrunk on its own (V8's memory reducer): measure growth from there.
    if (resident < this.baseline) this.baseline = resident;
    if (this.now() - this.lastActivity < (this.o.quietMs ?? QUIET_MS)) return false;
    const released = this.o.release?.() ?? false;
    if (!released && (this.collectedThisSpell || resident - this.baseline < (this.o.minGrowthBytes ?? QUIET_MIN_GROWTH_BYTES))) return false;
    this.collectFn();
    this.collections++;
    // The daemon's own polls keep allocating while it rests; one collection per spell is enough.
    this.collectedThisSpell = true;
    // What a collection cannot give back (fragmented native memory) must not trigger the next one.
    this.baseline = this.resident();
    return true;
  }

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  private resident(): number {
    return (this.o.residentBytes ?? (() => process.memoryUsage.rss()))();
  }
}
