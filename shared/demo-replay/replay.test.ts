import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { LogHub } from "../base/log/logger.js";
import { seededRandom } from "../base/random.js";
import type { DemoStep, DemoWriter } from "../providers/contract.js";
import { DemoReplay, type ReplayTimers } from "./replay.js";

const hub = new LogHub({ console: "off" });
const logger = hub.logger;

function heldTimers(): ReplayTimers & { waits: number[]; fire(): void; pending(): boolean } {
  let fn: (() => void) | null = null;
  const waits: number[] = [];
  return {
    waits,
    set: (f, ms) => {
      fn = f;
      waits.push(ms);
      return 1;
    },
    clear: () => {
      fn = null;
    },
    fire: () => {
      const f = fn;
      fn = null;
      f?.();
    },
    pending: () => fn !== null,
  };
}

class FakeWriter implements DemoWriter {
  steps: number[] = [];
  closed = false;
  constructor(
    readonly provider: string,
    private readonly fail = false,
  ) {}
  step(now: number): DemoStep {
    if (this.fail) throw new Error("disk full");
    this.steps.push(now);
    return { provider: this.provider, wrote: ["turn"] };
  }
  close(): void {
    this.closed = true;
  }
}

test("steps every writer at a jittered pace within [min, max]; a failing writer does not stop the others", () => {
  const timers = heldTimers();
  const clock = manualClock(1_000_000);
  const good = new FakeWriter("openclaw");
  const bad = new FakeWriter("codex", true);
  const seen: DemoStep[][] = [];
  const replay = new DemoReplay({ writers: [bad, good], clock, random: seededRandom(9), logger, timers, minMs: 5000, maxMs: 15000, onStep: (s) => seen.push(s) });
  replay.start();
  for (let i = 0; i < 20; i++) {
    assert.ok(timers.pending(), "the next step is always scheduled");
    clock.advance(timers.waits[timers.waits.length - 1] ?? 0);
    timers.fire();
  }
  assert.is(good.steps.length, 20);
  assert.is(good.steps[19], clock.now(), "a step writes at the clock's now");
  assert.ok(timers.waits.every((w) => w >= 5000 && w <= 15000), timers.waits.join(", "));
  assert.ok(new Set(timers.waits).size > 5, "jittered, not a fixed beat");
  assert.equal(seen[0]?.map((s) => s.provider), ["openclaw"]);
  const warned = hub.recent(1000, "warn").filter((r) => r.msg === "demo replay step failed");
  assert.is(warned.length, 1, "a writer that keeps failing the same way is reported once");
  replay.stop();
  assert.not.ok(timers.pending(), "stop cancels the next step");
  assert.ok(good.closed && bad.closed);
});

test.run();
