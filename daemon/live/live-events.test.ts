import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock, pollUntil } from "../../shared/base/clock.js";
import { LogHub } from "../../shared/base/log/logger.js";
import { LiveEvents, logMatches, type LiveLogEntry } from "./live-events.js";

const logger = new LogHub({ console: "off" }).logger;

test("dataChanged: a burst from one source folds into one signal now and one trailing signal", async () => {
  const clock = manualClock();
  const live = new LiveEvents({ clock, logger, coalesceMs: 50 });
  const sub = live.subscribeChanges();
  for (let i = 0; i < 20; i++) live.changed("agent:main");
  live.changed("system");
  const first = await sub.next();
  assert.equal(first.value, { source: "agent:main", ts: clock.now() });
  assert.equal((await sub.next()).value?.source, "system", "another source is not held back");
  clock.advance(50);
  const trailing = await sub.next();
  assert.equal(trailing.value?.source, "agent:main");
  live.close();
  assert.is((await sub.next()).done, true);
});

test("a subscriber that falls behind its buffer is dropped; the others go on", async () => {
  const live = new LiveEvents({ clock: manualClock(), logger, coalesceMs: 0, capacity: 5 });
  const slow = live.subscribeLogs({ level: "DEBUG" });
  const fast = live.subscribeLogs({ level: "DEBUG" });
  const got: string[] = [];
  const reader = (async () => {
    for await (const e of fast) {
      got.push(e.message);
      if (got.length === 20) break;
    }
  })();
  for (let i = 0; i < 20; i++) {
    live.log({ timeMs: 0, level: "INFO", module: "gateway", message: `m${i}`, agentId: null, sessionKey: null } as Parameters<LiveEvents["log"]>[0]);
    await new Promise((r) => setImmediate(r));
  }
  await reader;
  assert.is(got.length, 20);
  assert.is(live.dropped, 1);
  const drained: string[] = [];
  for await (const e of slow) drained.push(e.message);
  assert.is(drained.length, 0, "the dropped channel ends at once, its buffer freed");
  assert.equal(live.subscribers.logs, 0);
  await pollUntil(() => live.subscribers.logs === 0);
});

test("log filters: minimum level, exact module or a prefix ending in /, agent", () => {
  const e = (level: string, module: string, agentId: string | null = null): LiveLogEntry => ({ time: "", level, module, message: "", agentId, sessionKey: null });
  assert.ok(logMatches(e("INFO", "gateway"), {}));
  assert.not.ok(logMatches(e("DEBUG", "gateway"), {}), "default minimum is INFO");
  assert.ok(logMatches(e("DEBUG", "gateway"), { level: "DEBUG" }));
  assert.not.ok(logMatches(e("WARN", "gateway"), { level: "ERROR" }));
  assert.ok(logMatches(e("WARN", "gateway/ws"), { module: "gateway/" }));
  assert.ok(logMatches(e("WARN", "gateway"), { module: "gateway/" }));
  assert.not.ok(logMatches(e("WARN", "gateway/ws"), { module: "gateway" }));
  assert.not.ok(logMatches(e("WARN", "x", "ops"), { agentId: "main" }));
});

test.run();
