// Work written once as a generator that `yield`s at points where it may pause, run either in one
// go (sync callers) or with a pause at each of those points (the scanner, so a listing that stats
// 20,000 files does not hold the event loop for 200 ms at once).

/** Runs `work` to its end without pausing. */
export function runNow<T>(work: Generator<void, T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Runs `work`, awaiting `pause()` at each of its yields. */
export async function runPaced<T>(work: Generator<void, T>, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await pause();
  }
}
