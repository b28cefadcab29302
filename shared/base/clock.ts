// Time is injected everywhere so tests can be fast and deterministic.
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that reads `start` now and runs at the pace of `base` from there: tests run a daemon at a
 * fixture's recorded time with it. (The demo no longer needs it: its copy is moved to the real now.)
 */
export function shiftedClock(base: Clock, start: number): Clock {
  const offset = start - base.now();
  return { now: () => base.now() + offset };
}

/** A clock that only moves when told to; for tests. */
export function manualClock(start = Date.UTC(2026, 10, 21, 12, 0, 0)): Clock & { advance(ms: number): void; set(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}

/** Polls `check` until it returns a truthy value or the deadline passes. Never a fixed sleep. */
export async function pollUntil<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  { timeoutMs = 10_000, intervalMs = 25, what = "condition" }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
