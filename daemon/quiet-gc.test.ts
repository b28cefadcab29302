import { test } from "uvu";
import * as assert from "uvu/assert";
import { startDaemon } from "../test/helpers/daemon.js";
import { fullGc, QuietGc } from "./quiet-gc.js";

const MB = 1024 * 1024;

/**
 * A QuietGc on an injected clock, resident size and collection; its periodic check is captured so
 * the test fires it (`tick`) instead of waiting for a timer.
 */
function rig(release?: () => boolean): {
  gc: QuietGc;
  clock: { t: number };
  rss: { v: number };
  collected: () => number;
  tick: () => void;
  intervals: number[];
  cancelled: () => boolean;
} {
  const clock = { t: 0 };
  const rss = { v: 100 * MB };
  let collected = 0;
  let tickFn: (() => void) | null = null;
  let cancelled = false;
  const intervals: number[] = [];
  const gc = new QuietGc({
    ...(release ? { release } : {}),
    quietMs: 20_000,
    checkMs: 5_000,
    minGrowthBytes: 8 * MB,
    now: () => clock.t,
    residentBytes: () => rss.v,
    collect: () => {
      collected++;
      rss.v -= 30 * MB; // what the collection hands back
    },
    every: (fn, ms) => {
      tickFn = fn;
      intervals.push(ms);
      return { cancel: () => (cancelled = true) };
    },
  });
  return {
    gc,
    clock,
    rss,
    collected: () => collected,
    tick: () => {
      if (!tickFn) throw new Error("not started");
      tickFn();
    },
    intervals,
    cancelled: () => cancelled,
  };
}

test("the periodic check collects only once quiet for quietMs and grown by minGrowthBytes", () => {
  const r = rig();
  r.gc.start();
  r.gc.start(); // a second start does not arm a second timer
  assert.equal(r.intervals, [5_000]);
  r.rss.v = 160 * MB; // a burst of cards
  r.clock.t = 10_000;
  r.tick();
  assert.is(r.collected(), 0, "grown but quiet only 10 s");
  r.gc.touch();
  r.clock.t = 25_000;
  r.tick();
  assert.is(r.collected(), 0, "grown but a request came 15 s ago");
  r.clock.t = 31_000;
  r.tick();
  assert.is(r.collected(), 1, "quiet 21 s and grown 60 MB");
  assert.is(r.gc.collections, 1);
  r.gc.stop();
  assert.ok(r.cancelled(), "stop cancels the periodic check");
});

test("quiet but not grown: no collection", () => {
  const r = rig();
  r.gc.start();
  r.rss.v = 107 * MB; // 7 MB over the baseline, under the 8 MB threshold
  r.clock.t = 120_000;
  r.tick();
  assert.is(r.collected(), 0);
  r.rss.v = 108 * MB + 1;
  r.tick();
  assert.is(r.collected(), 1, "over the threshold now, still quiet");
});

test("at most one collection per quiet spell; a request starts a new spell", () => {
  const r = rig();
  r.gc.start();
  r.rss.v = 150 * MB;
  r.clock.t = 30_000;
  r.tick();
  assert.is(r.collected(), 1);
  // Still quiet; the daemon's own polls grow it again well past the threshold.
  r.rss.v = 160 * MB;
  for (let t = 35_000; t <= 300_000; t += 5_000) {
    r.clock.t = t;
    r.tick();
  }
  assert.is(r.collected(), 1, "no second collection in the same quiet spell");
  // A request, then quiet again: a new spell may collect once more.
  r.gc.touch();
  r.clock.t = 305_000;
  r.tick();
  assert.is(r.collected(), 1, "the request was 0 s ago");
  r.clock.t = 330_000;
  r.tick();
  assert.is(r.collected(), 2, "quiet again and grown since the last collection");
  r.clock.t = 400_000;
  r.tick();
  assert.is(r.collected(), 2);
});

test("what a collection cannot give back does not count as growth; growth counts from a shrink", () => {
  const r = rig();
  r.gc.start();
  r.rss.v = 150 * MB;
  r.clock.t = 30_000;
  r.tick();
  assert.is(r.collected(), 1); // 120 MB after it: the new baseline
  r.gc.touch();
  r.rss.v = 125 * MB; // 5 MB over it
  r.clock.t = 60_000;
  r.tick();
  assert.is(r.collected(), 1, "5 MB over what the last collection left");
  // V8 shrank on its own to 110 MB; 9 MB from there is growth again.
  r.rss.v = 110 * MB;
  r.tick();
  r.rss.v = 119 * MB;
  r.tick();
  assert.is(r.collected(), 2);
});

test("without a collection available it never arms a timer", () => {
  let armed = 0;
  const gc = new QuietGc({
    collect: null,
    now: () => 1e9,
    residentBytes: () => 1e12,
    every: () => {
      armed++;
      return { cancel: () => undefined };
    },
  });
  gc.start();
  assert.is(armed, 0);
  assert.is(gc.check(), false);
});

test("this Node's V8 gives the full collection, without exposing gc to the daemon's global", () => {
  const gc = fullGc();
  assert.type(gc, "function");
  let garbage: unknown[] | null = Array.from({ length: 50_000 }, (_, i) => ({ i }));
  assert.is(garbage.length, 50_000);
  garbage = null;
  (gc as () => void)();
  assert.is((globalThis as { gc?: unknown }).gc, undefined);
});

test("the daemon's quiet check is started with it and ends when it stops (it outlived stop, in every process that starts a daemon)", async () => {
  const checks = { started: 0, cancelled: 0 };
  const d = await startDaemon({
    daemon: {
      quietGc: {
        collect: () => undefined,
        every: () => {
          checks.started++;
          return { cancel: () => checks.cancelled++ };
        },
      },
    },
  });
  assert.equal(checks, { started: 1, cancelled: 0 });
  await d.stop();
  assert.equal(checks, { started: 1, cancelled: 1 });
});

test("once quiet, caches of idle work are handed back first; a release is collected even without growth", () => {
  let released = 0;
  let give = true;
  const r = rig(() => {
    released++;
    return give;
  });
  r.gc.start();
  r.clock.t = 10_000;
  r.tick();
  assert.is(released, 0, "not quiet yet: nothing released");
  r.clock.t = 20_000;
  r.tick();
  assert.is(released, 1, "quiet: released");
  assert.is(r.collected(), 1, "collected although the process did not grow");
  r.clock.t = 25_000;
  r.tick();
  assert.is(released, 2, "asked again at every look of the spell (a source may go idle later)");
  assert.is(r.collected(), 2, "and what it hands back is collected");
  give = false;
  r.clock.t = 30_000;
  r.tick();
  assert.is(r.collected(), 2, "nothing handed back: one collection per spell");
  r.gc.touch();
  r.clock.t = 50_000;
  r.tick();
  assert.is(released, 4, "the next spell asks again");
  assert.is(r.collected(), 2, "nothing released and no growth: no collection");
});

test("a release later in the spell is collected although the spell's collection was made", () => {
  let give = false;
  const r = rig(() => give);
  r.gc.start();
  r.rss.v += 20 * MB;
  r.clock.t = 20_000;
  r.tick();
  assert.is(r.collected(), 1, "grown: collected");
  give = true;
  r.clock.t = 25_000;
  r.tick();
  assert.is(r.collected(), 2, "a source handed its caches back afterwards: collected again");
});

test.run();
