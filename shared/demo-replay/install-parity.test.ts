// The demo stays byte for byte what it was when the demo engine stopped naming providers (issue
// 21): the installed copies (every file's path, mode and bytes) and what a few replay steps append
// to them, at a fixed time in a fixed zone and with a seeded random. The expected digests in
// test/fixtures/demo-parity.json were recorded from the engine as it was before (commit 2db6787,
// which wired each provider's recording and writer by hand), so they are the test's own
// expectation, not the code's. Only the marker's version is left out (it changes every release).
// Recording them again (DEMO_PARITY_WRITE=1) is for a deliberate change of the bundle or a writer:
// once since, for Codex's demo windows rising at a capped pace (one replayed rollout's bytes).
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { LogHub } from "../base/log/logger.js";
import { seededRandom } from "../base/random.js";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { installDemoState, MARKER_FILE } from "./install.js";
import type { ReplayTimers } from "./replay.js";
import { startDemoRuntime } from "./runtime.js";

// Codex's rollout names are in local time: one zone, so the digests do not depend on the machine's.
process.env.TZ = "UTC";

test.after(removeTempDirs);

const NOW = Date.parse("2027-03-01T12:00:00.000Z");
const STEPS = 4;
const EXPECTED_FILE = new URL("../../test/fixtures/demo-parity.json", import.meta.url);

interface Expected {
  installed: string[];
  afterSteps: string[];
}

/** `mode sha256 path` for every file under `dir`, sorted; the marker without its version. */
function digest(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out.push(`${(statSync(p).mode & 0o777).toString(8)} dir ${relative(dir, p)}`);
        walk(p);
        continue;
      }
      let bytes = readFileSync(p);
      if (e.name === MARKER_FILE) {
        const { version: _version, ...rest } = JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
        bytes = Buffer.from(JSON.stringify(rest));
      }
      out.push(`${(statSync(p).mode & 0o777).toString(8)} ${createHash("sha256").update(bytes).digest("hex")} ${relative(dir, p)}`);
    }
  };
  walk(dir);
  return out.sort();
}

/** Holds the replay's scheduled step; the test ticks by hand. */
const heldTimers: ReplayTimers = { set: () => 1, clear: () => undefined };

async function run(): Promise<Expected> {
  const stateDir = join(makeTempDir(), "demo", "openclaw-state");
  const clock = manualClock(NOW);
  const installed = installDemoState(stateDir, { now: clock.now() });
  const demoDir = dirname(stateDir);
  const atInstall = digest(demoDir);
  // A bundle root with no recorded gateway answers: the demo gateway does not start, so no lock
  // file with a port the OS picked (and this process's pid) lands in the copy.
  const root = makeTempDir();
  mkdirSync(join(root, "gateway"));
  const hub = new LogHub({ console: "off" });
  const rt = await startDemoRuntime({ stateDir, installed, clock, logger: hub.logger, replay: true, timers: heldTimers, random: seededRandom(21), root });
  try {
    for (let i = 0; i < STEPS; i++) {
      clock.advance(7_000);
      const steps = rt.replay?.tick() ?? [];
      assert.ok(steps.length > 0 && steps.every((s) => s.wrote.length > 0), `step ${i} wrote: ${JSON.stringify(steps)}`);
    }
  } finally {
    await rt.stop();
    hub.close();
  }
  return { installed: atInstall, afterSteps: digest(demoDir) };
}

test("the demo install and its replay write the same bytes as before the demo became part of each provider's module", async () => {
  const actual = await run();
  if (process.env.DEMO_PARITY_WRITE === "1") writeFileSync(EXPECTED_FILE, JSON.stringify(actual, null, 1) + "\n");
  const expected = JSON.parse(readFileSync(EXPECTED_FILE, "utf8")) as Expected;
  assert.ok(expected.installed.length > 50, `${expected.installed.length} files recorded`);
  assert.equal(actual.installed, expected.installed, "the installed copies");
  assert.equal(actual.afterSteps, expected.afterSteps, "the copies after the replay's steps");
});

test.run();
