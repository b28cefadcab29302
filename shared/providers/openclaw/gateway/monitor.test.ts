// The gateway monitor against a local stub that serves the recorded /healthz and /readyz and
// speaks the v4 WebSocket handshake, against a gateway that hangs, and against no gateway at all.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil, systemClock } from "../../../base/clock.js";
import { LogHub } from "../../../base/log/logger.js";
import { healthChecks } from "../../../queries/system.js";
import { startStubGateway, type StubGateway, GATEWAY_FIXTURES_DIR } from "../../../../test/helpers/stub-gateway.js";
import { processStartTicks } from "../../../base/proc-stats.js";
import { readOpenClawState } from "../state-dir.js";
import { copyFixture, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "../../../../test/helpers/openclaw-fixtures.js";
import { Store } from "../../../store/store.js";
import { GatewayMonitor } from "./monitor.js";

test.after(removeTempDirs);
const logger = new LogHub({ console: "off" }).logger;

const CHANNELS = {
  channelOrder: ["telegram", "discord"],
  channelLabels: { telegram: "Telegram", discord: "Discord" },
  channels: {},
  channelAccounts: {
    telegram: [{ accountId: "default", name: "Ops bot", enabled: true, configured: true, running: true, connected: true, probe: { ok: true, elapsedMs: 123 } }],
    discord: [{ accountId: "default", enabled: true, configured: true, running: false, connected: false, lastError: "401 Unauthorized" }],
  },
};

/** A fixture state dir whose config points at `port` and whose lock names this test process (a live pid). */
function stateFor(port: number): string {
  const dir = copyFixture(SQLITE_FIXTURE);
  const configPath = join(dir, "openclaw.json");
  const config = JSON.parse(readFileSync(configPath, "utf8")) as { gateway: { port: number } };
  config.gateway.port = port;
  writeFileSync(configPath, JSON.stringify(config));
  const lockPath = join(dir, "tmp", "openclaw-0", "gateway.5a1c2e9f.lock");
  const lock = JSON.parse(readFileSync(lockPath, "utf8")) as Record<string, unknown>;
  writeFileSync(lockPath, JSON.stringify({ ...lock, pid: process.pid, port, startTime: processStartTicks(process.pid), configPath, stateDir: dir }) + "\n");
  return dir;
}

function monitor(dir: string, o: { channels?: boolean; changes?: string[] } = {}): { m: GatewayMonitor; store: Store } {
  const store = Store.open(join(makeTempDir(), "i.db"), { clock: systemClock });
  const state = readOpenClawState({ stateDir: dir, env: {} });
  const m = new GatewayMonitor({
    store,
    clock: systemClock,
    logger,
    openclawDir: dir,
    stateDir: makeTempDir(),
    demo: false,
    openclaw: () => (state.ok ? state.value : null),
    gatewayUrl: () => null,
    env: {},
    sampleMs: 60_000,
    channels: o.channels ?? false,
    updates: false,
    onChange: () => o.changes?.push("system"),
  });
  return { m, store };
}

test("a live gateway: running with the lock's pid, readyz figures, CPU and RSS, channels over the RPC", async () => {
  let stub: StubGateway | undefined;
  const handlers = { "channels.status": () => CHANNELS, health: () => JSON.parse(readFileSync(join(GATEWAY_FIXTURES_DIR, "health.json"), "utf8")) as unknown };
  stub = await startStubGateway({ handlers });
  const readyz = JSON.parse(readFileSync(join(GATEWAY_FIXTURES_DIR, "readyz.json"), "utf8")) as { uptimeMs: number; eventLoop: { delayP99Ms: number } };
  const changes: string[] = [];
  const { m, store } = monitor(stateFor(stub.port), { channels: true, changes });
  try {
    m.start();
    const s = await pollUntil(() => (m.snapshot().channels.checkedAt !== null ? m.snapshot() : null), { what: "the first channel probe" });
    assert.is(s.gateway.running, true);
    assert.is(s.gateway.pid, process.pid);
    assert.is(s.gateway.port, stub.port);
    assert.is(s.gateway.ready, true);
    assert.is(s.gateway.eventLoopDelayMs, readyz.eventLoop.delayP99Ms);
    assert.ok(Math.abs((s.gateway.uptimeSeconds ?? 0) - readyz.uptimeMs / 1000) < 5, "uptime from readyz");
    assert.ok((s.resources.memoryMB ?? 0) > 10, "RSS of the lock's process tree (this test)");
    assert.equal(s.channels.list.map((c) => `${c.provider}:${c.connected}`), ["telegram:true", "discord:false"]);
    assert.is(s.channels.source, "rpc");
    assert.ok(stub.connects.length >= 1, "the v4 handshake with a device identity");
    assert.ok(changes.length >= 2, "every probe is a change of the system source");
    const checks = healthChecks({ snapshot: s, agents: [], openclawError: null, store: store.health(), appVersion: "0.1.0" });
    assert.equal(checks.filter((c) => ["gateway", "ready", "event-loop"].includes(c.name)).map((c) => c.status), ["PASS", "PASS", "PASS"]);
    assert.is(checks.find((c) => c.name === "channels")?.status, "WARN", "one of two channels is down");
    const sample = store.db.prepare("SELECT up, pid FROM gateway_samples ORDER BY ts DESC LIMIT 1").get() as { up: number; pid: number };
    assert.equal(sample, { up: 1, pid: process.pid });
  } finally {
    await m.stop();
    await stub?.close();
  }
});

test("no gateway at all: down with the reason, a failing check, a stored sample, nothing thrown", async () => {
  const stub = await startStubGateway();
  const port = stub.port;
  await stub.close(); // the port is now free: nothing listens there
  const { m, store } = monitor(stateFor(port));
  try {
    await m.tick();
    const s = m.snapshot();
    assert.is(m.ready, true);
    assert.is(s.gateway.running, false);
    assert.is(s.gateway.pid, null);
    assert.match(s.gateway.error ?? "", /ECONNREFUSED|refused/i);
    const checks = healthChecks({ snapshot: s, agents: [], openclawError: null, store: store.health(), appVersion: "0.1.0" });
    assert.is(checks.find((c) => c.name === "gateway")?.status, "FAIL");
    assert.is((store.db.prepare("SELECT up FROM gateway_samples").get() as { up: number }).up, 0);
  } finally {
    await m.stop();
  }
});

test("a gateway that accepts connections but never answers is down after the probe timeout, not hung", async () => {
  const stub = await startStubGateway({ http: { healthz: null, readyz: null } });
  const { m } = monitor(stateFor(stub.port));
  try {
    const started = Date.now();
    await m.tick();
    assert.is(m.snapshot().gateway.running, false);
    assert.match(m.snapshot().gateway.error ?? "", /no answer within/);
    assert.ok(Date.now() - started < 10_000, "bounded by the probe timeout");
  } finally {
    await m.stop();
    await stub.close();
  }
});

test("a store that cannot be written (disk full) is the store's failure, not a gateway that looks down", async () => {
  const stub = await startStubGateway();
  const { m, store } = monitor(stateFor(stub.port));
  try {
    // As on a full disk: the next page the store needs cannot be had (SQLITE_FULL).
    store.db.pragma(`max_page_count = ${store.db.pragma("page_count", { simple: true }) as number}`);
    const filler = store.db.prepare("INSERT INTO log_events (ts, level, type, module, message) VALUES (0, 'info', NULL, 'm', ?)");
    assert.throws(() => {
      for (let i = 0; i < 1000; i++) store.transaction(() => filler.run("x".repeat(4000)));
    }, /full/);
    // Fill what room is left in the samples table's pages, so the tick's own insert needs a page too.
    try {
      for (let i = 0; i < 10_000; i++) store.transaction(() => store.db.prepare("INSERT INTO gateway_samples (ts, up) VALUES (?, 1)").run(i));
    } catch {
      // full: what the tick below meets
    }
    await m.tick();
    const s = m.snapshot();
    assert.is(s.gateway.running, true, "the gateway answered; only storing the sample failed");
    assert.is(s.gateway.error, null);
    const checks = healthChecks({ snapshot: s, agents: [], openclawError: null, store: store.health(), appVersion: "0.1.0" });
    assert.is(checks.find((c) => c.name === "gateway")?.status, "PASS");
    const storeCheck = checks.find((c) => c.name === "store");
    assert.is(storeCheck?.status, "FAIL");
    assert.match(storeCheck?.message ?? "", /ingestion stalled/);
  } finally {
    await m.stop();
    await stub.close();
  }
});

test.run();
