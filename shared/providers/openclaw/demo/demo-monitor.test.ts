// The gateway monitor in demo mode: it watches the demo gateway through the lock file, and never
// takes a gateway found on the config's port (a real one may run there) for the demo's.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../../../base/clock.js";
import { GatewayMonitor } from "../gateway/monitor.js";
import { LogHub } from "../../../base/log/logger.js";
import { startStubGateway } from "../../../../test/helpers/stub-gateway.js";
import { readOpenClawState } from "../state-dir.js";
import { makeTempDir, removeTempDirs } from "../../../../test/helpers/openclaw-fixtures.js";
import { Store } from "../../../store/store.js";
import { removeDemoLock, startDemoGateway, writeDemoLock } from "./gateway.js";
import { demoRoot, installDemoState } from "../../../demo-replay/install.js";

test.after(removeTempDirs);
const logger = new LogHub({ console: "off" }).logger;
const NOW = Date.parse("2027-03-01T12:00:00.000Z");

function monitorFor(dir: string, clock = manualClock(NOW)): { m: GatewayMonitor; store: Store } {
  const store = Store.open(join(makeTempDir(), "i.db"), { clock });
  const m = new GatewayMonitor({
    store,
    clock,
    logger,
    openclawDir: dir,
    stateDir: makeTempDir(),
    demo: true,
    openclaw: () => {
      const s = readOpenClawState({ stateDir: dir, env: {} });
      return s.ok ? s.value : null;
    },
    gatewayUrl: () => null,
    env: {},
    sampleMs: 60_000,
    channels: false,
    updates: false,
  });
  return { m, store };
}

test("demo mode: up through the demo gateway's lock, with its version and uptime", async () => {
  const clock = manualClock(NOW);
  const dir = join(makeTempDir(), "openclaw-state");
  installDemoState(dir, { now: NOW });
  const gw = await startDemoGateway({ stateDir: dir, answersDir: join(demoRoot(), "gateway"), clock, startedAt: NOW - 1_800_000 });
  const lock = writeDemoLock({ stateDir: dir, port: gw.port, startedAt: NOW - 1_800_000 });
  const { m, store } = monitorFor(dir, clock);
  try {
    await m.tick();
    const g = m.snapshot().gateway;
    assert.is(g.running, true, g.error ?? "");
    assert.is(g.port, gw.port);
    assert.is(g.pid, process.pid);
    assert.is(g.version, "2026.9.6");
    assert.is(g.uptimeSeconds, 1800);
    assert.is(g.error, null);
  } finally {
    await m.stop();
    store.close();
    removeDemoLock(lock);
    await gw.close();
  }
});

test("demo mode without a live lock: down, even with a gateway answering on the config's port", async () => {
  const dir = join(makeTempDir(), "openclaw-state");
  installDemoState(dir, { now: NOW });
  // Some other gateway (a real one, say) answers on the port the demo config names.
  const other = await startStubGateway();
  const configPath = join(dir, "openclaw.json");
  const config = JSON.parse(readFileSync(configPath, "utf8")) as { gateway: { port: number } };
  writeFileSync(configPath, JSON.stringify({ ...config, gateway: { ...config.gateway, port: other.port } }));
  const { m, store } = monitorFor(dir);
  try {
    await m.tick();
    const g = m.snapshot().gateway;
    assert.is(g.running, false);
    assert.is(g.url, null, "the config's port is not probed in demo mode");
  } finally {
    await m.stop();
    store.close();
    await other.close();
  }
});

test.run();
