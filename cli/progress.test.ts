// The first read's progress bar: nothing on a pipe, nothing in the first half second, at most one
// redraw per interval, cleared at the end, never wider than the terminal.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../shared/base/clock.js";
import { ProgressBar, progressLine } from "./progress.js";

function stream(isTTY: boolean, columns = 80): { isTTY: boolean; columns: number; writes: string[]; write(t: string): boolean } {
  const writes: string[] = [];
  return { isTTY, columns, writes, write: (t) => (writes.push(t), true) };
}

test("a pipe never sees the bar", () => {
  const clock = manualClock();
  const s = stream(false);
  const bar = new ProgressBar({ stream: s, clock, ticking: false });
  clock.advance(5000);
  bar.update({ caughtUp: 5, listed: 10 });
  bar.done();
  assert.equal(s.writes, []);
});

test("a terminal: quiet for the first half second, then one redraw per 100 ms, cleared at the end", () => {
  const clock = manualClock();
  const s = stream(true);
  const bar = new ProgressBar({ stream: s, clock, ticking: false });
  clock.advance(499);
  bar.update({ caughtUp: 1, listed: 4 });
  assert.equal(s.writes, []);
  clock.advance(1);
  bar.update({ caughtUp: 1, listed: 4 });
  clock.advance(50);
  bar.update({ caughtUp: 2, listed: 4 });
  assert.is(s.writes.length, 1, "a second update within 100 ms is not drawn");
  clock.advance(50);
  bar.update({ caughtUp: 2, listed: 4 });
  assert.equal(s.writes, [`\r\x1b[2K${progressLine({ caughtUp: 1, listed: 4 }, 500, 80)}`, `\r\x1b[2K${progressLine({ caughtUp: 2, listed: 4 }, 600, 80)}`]);
  bar.done();
  assert.is(s.writes.at(-1), "\r\x1b[2K");
});

test("a quick read that ends before the bar shows writes nothing, not even the clearing", () => {
  const clock = manualClock();
  const s = stream(true);
  const bar = new ProgressBar({ stream: s, clock, ticking: false });
  bar.update({ caughtUp: 3, listed: 3 });
  bar.done();
  assert.equal(s.writes, []);
});

test("the line: share of transcripts caught up, counts and seconds, cut to the terminal", () => {
  assert.is(progressLine({ caughtUp: 1204, listed: 3150 }, 12_400, 120), "reading transcripts [#########...............]  38%  1,204 of 3,150  12 s");
  assert.is(progressLine({ caughtUp: 0, listed: 0 }, 900, 120), "reading transcripts [........................]   0%  listing files  0 s");
  assert.is(progressLine({ caughtUp: 10, listed: 10 }, 0, 120), "reading transcripts [########################] 100%  10 of 10  0 s");
  assert.is(progressLine({ caughtUp: 1, listed: 2 }, 0, 30).length, 29);
});

test.run();
