// The demo gateway through the monitor's own probes: the lock file, /healthz and /readyz, and
// the WebSocket RPC with the real client. The clock is a manual one, so "uptime" is exact.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../../../base/clock.js";
import { findGatewayLock } from "../gateway/lock-file.js";
import { probeGateway } from "../gateway/http-probe.js";
import { probeChannels } from "../gateway-rpc/channels.js";
import { GatewayRpcClient } from "../gateway-rpc/rpc-client.js";
import { makeTempDir, removeTempDirs } from "../../../../test/helpers/openclaw-fixtures.js";
import { demoLockHeldElsewhere, removeDemoLock, startDemoGateway, writeDemoLock } from "./gateway.js";
import { demoRoot, installDemoState } from "../../../demo-replay/install.js";
import { seededRandom } from "../../../base/random.js";

test.after(removeTempDirs);

const START = Date.parse("2027-03-01T11:30:00.000Z");

test("answers healthz, readyz and the RPC like a running 2026.9.6 gateway, on a loopback port the lock names", async () => {
  const clock = manualClock(START + 45 * 60_000);
  const stateDir = join(makeTempDir(), "openclaw-state");
  installDemoState(stateDir, { now: clock.now() });
  const gw = await startDemoGateway({ stateDir, answersDir: join(demoRoot(), "gateway"), clock, startedAt: START, random: seededRandom(1) });
  const client = new GatewayRpcClient({ url: gw.url.replace("http", "ws"), stateDir: makeTempDir(), auth: { token: "anything" }, connectTimeoutMs: 5000, requestTimeoutMs: 5000, clock });
  try {
    assert.match(gw.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.is.not(gw.port, 18789);

    const lockFile = writeDemoLock({ stateDir, port: gw.port, startedAt: START });
    const lock = findGatewayLock(stateDir, { configPath: join(stateDir, "openclaw.json") });
    assert.ok(lock.ok && lock.value);
    assert.is(lock.value.pid, process.pid);
    assert.is(lock.value.port, gw.port);
    assert.is(lock.value.createdAtMs, START);
    assert.is(lock.value.file, lockFile);
    const config = JSON.parse(readFileSync(join(stateDir, "openclaw.json"), "utf8")) as { gateway: { port: number } };
    assert.is(config.gateway.port, gw.port, "the config names the demo port too, never 18789");
    assert.is(demoLockHeldElsewhere(stateDir), false, "our own lock is not someone else's");
    assert.is(demoLockHeldElsewhere(stateDir, process.pid + 1_000_000), true, "a live process holds it, seen from another pid");

    const probe = await probeGateway(gw.url);
    assert.ok(probe.ok, probe.ok ? "" : probe.error.message);
    assert.is(probe.value.live.live, true);
    assert.is(probe.value.ready?.ready, true);
    assert.is(probe.value.ready?.uptimeMs, 45 * 60_000, "uptime since the recorded gateway's start");
    clock.advance(60_000);
    const later = await probeGateway(gw.url);
    assert.is(later.ok ? later.value.ready?.uptimeMs : null, 46 * 60_000);

    const channels = await probeChannels(client, { timeoutMs: 5000, clock });
    assert.ok(channels.ok, channels.ok ? "" : channels.error.message);
    assert.is(channels.value.serverVersion, "2026.9.6");
    assert.equal(
      channels.value.channels.map((c) => [c.provider, c.name, c.connected]),
      [
        ["telegram", "Demo support bot", true],
        ["slack", "Demo workspace", true],
      ],
    );
    assert.ok(channels.value.channels.every((c) => c.lastProbeAt !== null && c.lastProbeAt <= clock.now() && c.lastProbeAt > clock.now() - 60_000), "probed moments ago");
    assert.is(channels.value.health?.ok, true);
    const status = await client.call<{ runtimeVersion: string; ts: number }>("status", {});
    assert.ok(status.ok);
    assert.is(status.value.payload.ts, clock.now());
    const admin = await client.call("config.set", {});
    assert.not.ok(admin.ok, "anything else is refused, as a read-scoped client would be");

    removeDemoLock(lockFile);
    assert.not.ok(existsSync(lockFile), "a clean stop removes the lock");
  } finally {
    await client.close();
    await gw.close();
  }
});

test.run();
