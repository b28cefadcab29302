import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { LogHub } from "../base/log/logger.js";
import { findGatewayLock } from "../providers/openclaw/gateway/lock-file.js";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { recordedManifest } from "../../test/helpers/demo-bundle.js";
import { demoRoot, installDemoState, readMarker } from "./install.js";
import { seededRandom } from "../base/random.js";
import type { ReplayTimers } from "./replay.js";
import { startDemoRuntime } from "./runtime.js";

test.after(removeTempDirs);

const NOW = Date.parse("2027-03-01T12:00:00.000Z");

function held(): ReplayTimers & { fire(): void } {
  let fn: (() => void) | null = null;
  return {
    set: (f) => {
      fn = f;
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
  };
}

test("starts the gateway, points the lock at it, steps the replay and marks the copy fresh; stop undoes the lock", async () => {
  const clock = manualClock(NOW);
  const stateDir = join(makeTempDir(), "openclaw-state");
  const installed = installDemoState(stateDir, { now: clock.now() });
  const timers = held();
  const hub = new LogHub({ console: "off" });
  const rt = await startDemoRuntime({ stateDir, installed, clock, logger: hub.logger, replay: true, timers, random: seededRandom(2) });
  try {
    assert.ok(rt.gateway);
    const lock = findGatewayLock(stateDir, { configPath: join(stateDir, "openclaw.json") });
    assert.ok(lock.ok && lock.value);
    assert.is(lock.value.port, rt.gateway.port);
    assert.is(lock.value.createdAtMs, recordedManifest().openclaw.gatewayStartedAt + installed.marker.offsetMs, "started when the recorded gateway did, moved to now");
    clock.advance(10_000);
    timers.fire();
    assert.is(readMarker(stateDir)?.touchedAt, NOW + 10_000, "a step keeps the copy fresh for the next start");
    const steps = rt.replay?.tick() ?? [];
    assert.equal(steps.map((s) => s.provider), ["openclaw", "claude-code", "codex", "gemini-cli"], "one writer per provider of the demo");
    assert.ok(steps.every((s) => s.wrote.length > 0), JSON.stringify(steps));
    assert.not.ok(hub.recent(100, "warn").some((r) => r.msg === "demo replay step failed"), "no writer failed");
    await rt.stop();
    assert.not.ok(existsSync(lock.value.file), "the lock goes with the gateway");
  } finally {
    await rt.stop();
    hub.close();
  }
});

test("a demo gateway that cannot start is logged, not fatal: the data is still served", async () => {
  const clock = manualClock(NOW);
  const stateDir = join(makeTempDir(), "openclaw-state");
  const installed = installDemoState(stateDir, { now: clock.now() });
  const root = makeTempDir();
  mkdirSync(join(root, "gateway")); // no recorded answers in it
  const hub = new LogHub({ console: "off" });
  const rt = await startDemoRuntime({ stateDir, installed, clock, logger: hub.logger, replay: false, root });
  try {
    assert.is(rt.gateway, null);
    assert.ok(hub.recent(100, "error").some((r) => r.msg.includes("the demo gateway could not start")));
  } finally {
    await rt.stop();
    hub.close();
  }
  assert.ok(existsSync(join(demoRoot(), "gateway", "hello.json")), "the shipped answers are where the runtime looks by default");
});

test.run();
