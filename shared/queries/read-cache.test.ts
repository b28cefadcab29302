// The per-source answer cache on its own: what it keeps, for how long, and how much.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { deepFreeze, SourceCache } from "./read-cache.js";

/** A compute function that counts its calls and returns a new object each time. */
function counter(validUntil?: number, weight?: number): { calls: () => number; compute: () => { value: { n: number }; validUntil?: number; weight?: number } } {
  let n = 0;
  return {
    calls: () => n,
    compute: () => ({ value: { n: ++n }, ...(validUntil !== undefined ? { validUntil } : {}), ...(weight !== undefined ? { weight } : {}) }),
  };
}

test("an answer is kept per source and key until that source is invalidated", () => {
  const cache = new SourceCache();
  const a = counter();
  const b = counter();
  const a1 = cache.get("A", "k", 0, [], a.compute);
  const b1 = cache.get("B", "k", 0, [], b.compute);
  assert.is(cache.get("A", "k", 5, [], a.compute), a1);
  assert.is(a.calls(), 1);
  cache.invalidate("A");
  const a2 = cache.get("A", "k", 5, [], a.compute);
  assert.is.not(a2, a1);
  assert.is(a.calls(), 2);
  assert.is(cache.get("B", "k", 5, [], b.compute), b1, "B keeps its answer when A changes");
  assert.is(b.calls(), 1);
  assert.is(cache.get("A", "other", 5, [], a.compute).n, 3, "another key is another answer");
  cache.clear();
  assert.is(cache.get("B", "k", 5, [], b.compute).n, 2);
});

test("an answer holds from when it was made until validUntil, never before", () => {
  const cache = new SourceCache();
  const c = counter(100);
  const first = cache.get("A", "k", 50, [], c.compute);
  assert.is(cache.get("A", "k", 99, [], c.compute), first);
  const atEnd = cache.get("A", "k", 100, [], c.compute);
  assert.is.not(atEnd, first, "validUntil is exclusive");
  // The clock going back before the answer was made: it is made again.
  const cache2 = new SourceCache();
  const d = counter();
  const late = cache2.get("A", "k", 1000, [], d.compute);
  assert.is.not(cache2.get("A", "k", 999, [], d.compute), late);
  // An answer already stale when made is returned but not kept.
  const e = counter(10);
  cache2.get("A", "stale", 10, [], e.compute);
  cache2.get("A", "stale", 10, [], e.compute);
  assert.is(e.calls(), 2);
});

test("an answer is only reused for the same dependencies (by identity)", () => {
  const cache = new SourceCache();
  const c = counter();
  const list = [1, 2];
  const first = cache.get("A", "k", 0, [list], c.compute);
  assert.is(cache.get("A", "k", 0, [list], c.compute), first);
  assert.is.not(cache.get("A", "k", 0, [[1, 2]], c.compute), first, "an equal but new list is another list");
  assert.is(c.calls(), 2);
});

test("each source keeps a bounded number of entries and of weight, least recently used out first", () => {
  const cache = new SourceCache({ entries: 3, weight: 10 });
  const c = counter();
  for (const k of ["a", "b", "c"]) cache.get("A", k, 0, [], c.compute);
  cache.get("A", "a", 0, [], c.compute); // a is now the most recently used
  cache.get("A", "d", 0, [], c.compute); // b goes
  assert.is(cache.size("A"), 3);
  const calls = c.calls();
  cache.get("A", "a", 0, [], c.compute);
  assert.is(c.calls(), calls, "a was kept");
  cache.get("A", "b", 0, [], c.compute);
  assert.is(c.calls(), calls + 1, "b was dropped");
  // Weight: one entry of 8 pushes out the others until the sum fits.
  const heavy = counter(undefined, 8);
  cache.get("A", "heavy", 0, [], heavy.compute);
  assert.ok(cache.size("A") <= 3);
  cache.get("A", "heavy", 0, [], heavy.compute);
  assert.is(heavy.calls(), 1);
  // Heavier than the whole budget: answered, never kept.
  const huge = counter(undefined, 11);
  cache.get("A", "huge", 0, [], huge.compute);
  cache.get("A", "huge", 0, [], huge.compute);
  assert.is(huge.calls(), 2);
  assert.ok(cache.size("A") >= 1, "what was kept stays");
});

test("deepFreeze makes a shared answer read-only all the way down", () => {
  const v = deepFreeze({ list: [{ n: 1, sub: [{ n: 2 }] }] });
  assert.throws(() => {
    (v.list[0] as { n: number }).n = 5;
  });
  assert.throws(() => {
    (v.list[0]?.sub as Array<{ n: number }>).push({ n: 3 });
  });
});

test.run();
