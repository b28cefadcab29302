import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import JSON5 from "json5";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { suite, test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../../../base/clock.js";
import { probeChannels } from "./channels.js";
import { probeChannelsWithFallback, spawnRunner } from "./cli-fallback.js";
import { DEVICE_IDENTITY_FILE, DEVICE_TOKEN_FILE, loadDeviceToken, saveDeviceToken } from "./device-identity.js";
import { resolveGatewayAuth } from "./gateway-auth.js";
import { GatewayRpcClient, rpcErrorToSourceError } from "./rpc-client.js";
import type { GatewayRpcClientOptions } from "./rpc-client.js";
import { CLOSE_SOCKET, GATEWAY_FIXTURES_DIR, NO_REPLY, StubRpcError, fixtureHandlers, startStubGateway } from "../../../../test/helpers/stub-gateway.js";
import type { StubGateway, StubGatewayOptions } from "../../../../test/helpers/stub-gateway.js";
import { TEST_RPC_DEADLINES, realGatewaySkipReason, startOpenClawGateway } from "../../../../test/helpers/openclaw-gateway.js";
import type { OpenClawGateway } from "../../../../test/helpers/openclaw-gateway.js";

const TOKEN = "stub-token";
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
const readFixture = (f: string) => JSON.parse(fs.readFileSync(path.join(GATEWAY_FIXTURES_DIR, f), "utf8")) as Record<string, unknown>;
const noSleep = () => Promise.resolve();

async function withStub(opts: StubGatewayOptions, fn: (stub: StubGateway, stateDir: string) => Promise<void>): Promise<void> {
  const stub = await startStubGateway({ token: TOKEN, ...opts });
  try {
    await fn(stub, tmp());
  } finally {
    await stub.close();
  }
}

function client(stub: StubGateway, stateDir: string, extra: Partial<GatewayRpcClientOptions> = {}): GatewayRpcClient {
  return new GatewayRpcClient({ url: stub.url, stateDir, auth: { token: TOKEN }, sleep: noSleep, ...extra });
}

/** Pids of the processes whose environment holds `entry` (`NAME=value`); Linux /proc. */
function processesWithEnv(entry: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/environ`, "utf8").split("\0").includes(entry)) found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** A port nothing listens on: bind one, note it, release it. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

test("handshake: signed connect verified by the stub, hello-ok parsed, identity persisted", () =>
  withStub({}, async (stub, dir) => {
    const c = client(stub, dir, { clientVersion: "9.9.9" });
    const h = await c.connect();
    assert.ok(h.ok, h.ok ? "" : h.error.message);
    if (!h.ok) return;
    assert.is(h.value.protocol, 4);
    assert.is(h.value.serverVersion, "2026.9.6");
    assert.equal(h.value.methods.sort(), ["channels.status", "health"]);
    assert.equal(h.value.scopes, ["operator.read"]);
    assert.is(h.value.authMethod, "token");
    assert.ok(h.value.deviceTokenIssued);
    const stored = JSON.parse(fs.readFileSync(path.join(dir, DEVICE_IDENTITY_FILE), "utf8")) as { deviceId: string };
    const seen = stub.connects[0];
    assert.is(seen?.deviceId, stored.deviceId);
    assert.is(seen?.payloadVersion, "v3");
    assert.is(seen?.clientId, "cli");
    assert.is(seen?.clientMode, "probe");
    assert.is(seen?.displayName, "gateway-insights");
    assert.is(seen?.userAgent, "gateway-insights/9.9.9");
    assert.equal(seen?.scopes, ["operator.read"]);
    assert.ok(c.isOpen);
    await c.close();
    assert.not.ok(c.isOpen);
  }));

test("calls return the payload and the measured round trip; one socket serves many calls", () => {
  let t = 1000;
  const mono = () => t;
  return withStub(
    {
      handlers: {
        ...fixtureHandlers(),
        // The "server" takes 42 ms of the client's monotonic clock to answer.
        "slow.echo": (params) => {
          t += 42;
          return params;
        },
      },
    },
    async (stub, dir) => {
      const c = client(stub, dir, { monotonicNow: mono });
      const a = await c.call("channels.status");
      assert.ok(a.ok);
      if (!a.ok) return;
      assert.equal(a.value.payload, readFixture("call-channels.status.json"));
      assert.is(a.value.latencyMs, 0);
      const b = await c.call<{ x: number }>("slow.echo", { x: 7 });
      assert.ok(b.ok);
      if (!b.ok) return;
      assert.equal(b.value.payload, { x: 7 });
      assert.is(b.value.latencyMs, 42);
      const h = await c.call("health");
      assert.ok(h.ok);
      if (h.ok) assert.equal(h.value.payload, readFixture("health.json"));
      assert.is(stub.connects.length, 1);
      assert.equal(stub.calls.map((x) => x.method), ["channels.status", "slow.echo", "health"]);
      await c.close();
    },
  );
});

test("concurrent calls are matched by id even when answered out of order", () => {
  const gates = new Map<string, () => void>();
  return withStub(
    {
      handlers: {
        "wait.for": (params) => {
          const name = (params as { name: string }).name;
          return new Promise((resolve) => gates.set(name, () => resolve({ name })));
        },
      },
    },
    async (stub, dir) => {
      const c = client(stub, dir);
      const first = c.call<{ name: string }>("wait.for", { name: "first" });
      const second = c.call<{ name: string }>("wait.for", { name: "second" });
      await pollUntil(() => gates.size === 2, { what: "both calls at the stub" });
      gates.get("second")?.();
      const s = await second;
      gates.get("first")?.();
      const f = await first;
      assert.ok(s.ok && f.ok);
      if (s.ok && f.ok) {
        assert.is(s.value.payload.name, "second");
        assert.is(f.value.payload.name, "first");
      }
      await c.close();
    },
  );
});

test("a method the stub never answers times out; the socket stays usable", () =>
  withStub({ handlers: { ...fixtureHandlers(), "never.answers": () => NO_REPLY } }, async (stub, dir) => {
    const c = client(stub, dir);
    const r = await c.call("never.answers", {}, { timeoutMs: 150 });
    assert.not.ok(r.ok);
    if (r.ok) return;
    assert.is(r.error.kind, "timeout");
    assert.is(r.error.details.timeoutMs, 150);
    const after = await c.call("health");
    assert.ok(after.ok);
    assert.is(stub.connects.length, 1);
    await c.close();
  }));

test("the server closing mid-call fails that call as unreachable; the next call reconnects", () =>
  withStub({ handlers: { ...fixtureHandlers(), "closes.socket": () => CLOSE_SOCKET } }, async (stub, dir) => {
    let closes = 0;
    const c = client(stub, dir, { onClose: () => closes++ });
    const r = await c.call("closes.socket");
    assert.not.ok(r.ok);
    if (r.ok) return;
    assert.is(r.error.kind, "unreachable");
    assert.match(r.error.message, /closed/);
    assert.is(closes, 1);
    assert.not.ok(c.isOpen);
    const again = await c.call("health");
    assert.ok(again.ok);
    assert.is(stub.connects.length, 2);
    // The shared token still goes first on a reconnect, as the docs order it.
    assert.is(stub.connects[1]?.authMethod, "token");
    await c.close();
    assert.is(closes, 1, "closing it ourselves is not reported as a drop");
  }));

test("a server restart while a call is pending fails the call, not the process", () =>
  withStub({ handlers: { "never.answers": () => NO_REPLY } }, async (stub, dir) => {
    const c = client(stub, dir);
    const pending = c.call("never.answers", {}, { timeoutMs: 10_000 });
    await pollUntil(() => stub.calls.length === 1, { what: "call at the stub" });
    stub.dropAll();
    const r = await pending;
    assert.not.ok(r.ok);
    if (!r.ok) {
      assert.is(r.error.kind, "unreachable");
      assert.match(r.error.message, /1012/);
    }
    await c.close();
  }));

test("a silent peer is cut off after two tick intervals without frames", () =>
  withStub({ tickIntervalMs: 40, handlers: { "never.answers": () => NO_REPLY } }, async (stub, dir) => {
    const c = client(stub, dir);
    const r = await c.call("never.answers", {}, { timeoutMs: 10_000 });
    assert.not.ok(r.ok);
    if (!r.ok) {
      assert.is(r.error.kind, "unreachable");
      assert.match(r.error.message, /no frames from the gateway for 80 ms/);
    }
    assert.not.ok(c.isOpen);
    await c.close();
  }));

test("a closed port is unreachable, quickly, and never throws", async () => {
  const port = await closedPort();
  const c = new GatewayRpcClient({ url: `ws://127.0.0.1:${port}`, stateDir: tmp(), auth: { token: TOKEN }, connectTimeoutMs: 5000 });
  const started = Date.now();
  const r = await c.call("health");
  assert.not.ok(r.ok);
  if (!r.ok) {
    assert.is(r.error.kind, "unreachable");
    assert.match(r.error.message, /ECONNREFUSED/);
  }
  assert.ok(Date.now() - started < 4000, "refused connections must not wait for the connect timeout");
  await c.close();
});

test("a peer that accepts the socket but never challenges hits the connect timeout", () =>
  withStub({ silent: true }, async (stub, dir) => {
    const c = client(stub, dir, { connectTimeoutMs: 200 });
    const r = await c.connect();
    assert.not.ok(r.ok);
    if (!r.ok) {
      assert.is(r.error.kind, "timeout");
      assert.match(r.error.message, /challenge/);
    }
    await c.close();
  }));

test("a plain HTTP server on the port is reported as not a gateway", async () => {
  const http = await import("node:http");
  const srv = http.createServer((_q, s) => s.writeHead(404).end());
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  const c = new GatewayRpcClient({ url: `ws://127.0.0.1:${port}`, stateDir: tmp() });
  const r = await c.connect();
  await new Promise<void>((res) => srv.close(() => res()));
  assert.not.ok(r.ok);
  if (!r.ok) {
    assert.is(r.error.kind, "unreachable");
    assert.is(r.error.details.httpStatus, 404);
  }
});

test("wrong or missing shared token is a permission error with the gateway's detail code", () =>
  withStub({}, async (stub, dir) => {
    const wrong = await client(stub, dir, { auth: { token: "nope" } }).connect();
    assert.not.ok(wrong.ok);
    if (!wrong.ok) {
      assert.is(wrong.error.kind, "permission");
      assert.is(wrong.error.details.detailCode, "AUTH_TOKEN_MISMATCH");
    }
    const none = await client(stub, tmp(), { auth: {} }).connect();
    assert.not.ok(none.ok);
    if (!none.ok) assert.is(none.error.details.detailCode, "AUTH_TOKEN_MISSING");
    assert.equal(stub.connects, []);
  }));

test("the issued device token is saved 0600 and used when no shared token is configured", () =>
  withStub({}, async (stub, dir) => {
    const first = client(stub, dir);
    assert.ok((await first.connect()).ok);
    await first.close();
    const file = path.join(dir, DEVICE_TOKEN_FILE);
    assert.is(fs.statSync(file).mode & 0o777, 0o600);
    const saved = loadDeviceToken(dir);
    assert.is(saved?.token, stub.deviceTokens.get(stub.connects[0]?.deviceId ?? ""));
    assert.is(saved?.gatewayUrl, stub.url);
    const second = client(stub, dir, { auth: {} });
    const h = await second.connect();
    assert.ok(h.ok);
    if (h.ok) assert.is(h.value.authMethod, "device-token");
    assert.is(stub.connects[1]?.authMethod, "device-token");
    await second.close();
  }));

test("a rotated shared token falls back once to the stored device token (loopback)", () =>
  withStub({}, async (stub, dir) => {
    const first = client(stub, dir);
    assert.ok((await first.connect()).ok);
    await first.close();
    const c = client(stub, dir, { auth: { token: "rotated-elsewhere" } });
    const h = await c.connect();
    assert.ok(h.ok);
    assert.equal(stub.rejections, ["AUTH_TOKEN_MISMATCH"]);
    assert.is(stub.connects[1]?.authMethod, "device-token");
    await c.close();
  }));

test("a device token the gateway no longer knows is forgotten", () =>
  withStub({}, async (stub, dir) => {
    const idFirst = client(stub, dir);
    assert.ok((await idFirst.connect()).ok);
    await idFirst.close();
    const saved = loadDeviceToken(dir);
    assert.ok(saved);
    if (!saved) return;
    saveDeviceToken(dir, { ...saved, token: "revoked-token" });
    const r = await client(stub, dir, { auth: {} }).connect();
    assert.not.ok(r.ok);
    if (!r.ok) {
      assert.is(r.error.kind, "permission");
      assert.is(r.error.details.detailCode, "AUTH_DEVICE_TOKEN_MISMATCH");
    }
    assert.not.ok(fs.existsSync(path.join(dir, DEVICE_TOKEN_FILE)));
  }));

test("pairing required with wait_then_retry is retried within the connect budget", () =>
  withStub({ pairingRequiredTimes: 2 }, async (stub, dir) => {
    const waits: number[] = [];
    const c = client(stub, dir, { sleep: (ms) => (waits.push(ms), Promise.resolve()) });
    const h = await c.connect();
    assert.ok(h.ok);
    assert.equal(stub.rejections, ["PAIRING_REQUIRED", "PAIRING_REQUIRED"]);
    assert.is(waits.length, 2);
    assert.is(stub.connects.length, 1);
    await c.close();
  }));

test("pairing that needs an operator is a permission error naming the request id", () =>
  withStub({ pairingRequiredTimes: 1, pairingNextStep: "review_auth_configuration" }, async (stub, dir) => {
    const r = await client(stub, dir).connect();
    assert.not.ok(r.ok);
    if (r.ok) return;
    assert.is(r.error.kind, "permission");
    assert.is(r.error.details.detailCode, "PAIRING_REQUIRED");
    assert.match(r.error.details.requestId as string, /^req-/);
    assert.match(r.error.message, /openclaw devices approve req-/);
  }));

test("UNAVAILABLE during gateway startup is retried after retryAfterMs", () =>
  // A real 2026.9.6 gateway answered connect this way 4 times (500 ms apart) right after /healthz first answered.
  withStub({ unavailableTimes: 4 }, async (stub, dir) => {
    const waits: number[] = [];
    const c = client(stub, dir, { sleep: (ms) => (waits.push(ms), Promise.resolve()) });
    const h = await c.connect();
    assert.ok(h.ok);
    assert.equal(waits, [500, 500, 500, 500]);
    assert.equal(stub.rejections, ["UNAVAILABLE", "UNAVAILABLE", "UNAVAILABLE", "UNAVAILABLE"]);
    await c.close();
  }));

test("a retryAfterMs below 50 ms is stretched to 50", () =>
  withStub({ unavailableTimes: 1, unavailableRetryAfterMs: 20 }, async (stub, dir) => {
    const waits: number[] = [];
    const c = client(stub, dir, { sleep: (ms) => (waits.push(ms), Promise.resolve()) });
    assert.ok((await c.connect()).ok);
    assert.equal(waits, [50]);
    await c.close();
  }));

test("a 2026.7.1-shaped hello-ok (no auth.method, no buildId) is accepted and its device token reused", () =>
  withStub({ recorded: "2026.7.1", serverVersion: "2026.7.1" }, async (stub, dir) => {
    const c = client(stub, dir);
    const h = await c.connect();
    assert.ok(h.ok, h.ok ? "" : h.error.message);
    if (!h.ok) return;
    assert.is(h.value.serverVersion, "2026.7.1");
    assert.is(h.value.buildId, null);
    assert.is(h.value.authMethod, null);
    assert.ok(h.value.deviceTokenIssued);
    assert.is(h.value.tickIntervalMs, 30_000);
    await c.close();
    const again = client(stub, dir, { auth: {} });
    assert.ok((await again.connect()).ok);
    assert.is(stub.connects[1]?.authMethod, "device-token");
    await again.close();
  }));

test("the 2026.9.6-shaped hello-ok carries the build id", () =>
  withStub({}, async (stub, dir) => {
    const c = client(stub, dir);
    const h = await c.connect();
    assert.ok(h.ok && h.value.buildId === "2026.9.6-release-eb377ac59e6c-2026-09-23T16-33-12.144Z" && h.value.authMethod === "token");
    await c.close();
  }));

test("a method the gateway does not advertise is unsupported and never sent", () =>
  withStub({}, async (stub, dir) => {
    const c = client(stub, dir);
    const r = await c.call("sessions.list");
    assert.not.ok(r.ok);
    if (!r.ok) assert.is(r.error.kind, "unsupported");
    assert.equal(stub.calls, []);
    await c.close();
  }));

test("an error frame maps to a SourceError kind and keeps the wire facts", () =>
  withStub(
    {
      handlers: {
        health: () => {
          throw new StubRpcError("FORBIDDEN", "missing scope: operator.admin", { details: { code: "MISSING_SCOPE", missingScope: "operator.admin" } });
        },
      },
    },
    async (stub, dir) => {
      const c = client(stub, dir);
      const r = await c.call("health");
      assert.not.ok(r.ok);
      if (!r.ok) {
        assert.is(r.error.kind, "permission");
        assert.is(r.error.details.rpcCode, "FORBIDDEN");
        assert.is(r.error.details.missingScope, "operator.admin");
      }
      await c.close();
    },
  ));

// Regression: 2026.7.1 says "missing scope" as INVALID_REQUEST without details, which read as a
// version skew ("unsupported") instead of a permission problem.
test("a 2026.7.1 gateway's missing-scope answer is a permission error naming the scope", () =>
  withStub({ recorded: "2026.7.1", handlers: { ...fixtureHandlers(), "update.status": () => new StubRpcError("INVALID_REQUEST", "missing scope: operator.admin") } }, async (stub, dir) => {
    const c = client(stub, dir);
    const r = await c.call("update.status");
    assert.not.ok(r.ok);
    if (!r.ok) {
      assert.is(r.error.kind, "permission");
      assert.is(r.error.details.rpcCode, "INVALID_REQUEST");
      assert.is(r.error.details.missingScope, "operator.admin");
    }
    await c.close();
  }));

test("rpcErrorToSourceError kinds", () => {
  const kind = (code: string, details?: unknown) => rpcErrorToSourceError({ code, message: "m", ...(details ? { details } : {}) }, "x").kind;
  assert.is(kind("UNAVAILABLE"), "unreachable");
  assert.is(kind("NOT_PAIRED"), "permission");
  assert.is(kind("INVALID_REQUEST", { code: "PROTOCOL_MISMATCH" }), "unsupported");
  assert.is(kind("INVALID_REQUEST", { code: "DEVICE_AUTH_SIGNATURE_EXPIRED" }), "permission");
  assert.is(kind("INVALID_REQUEST"), "unsupported");
  assert.is(rpcErrorToSourceError({ code: "INVALID_REQUEST", message: "missing scope: operator.admin" }, "x").kind, "permission");
  assert.is(rpcErrorToSourceError({ code: "INVALID_REQUEST", message: "unknown method: nope" }, "x").kind, "unsupported");
  assert.is(kind("SOMETHING_NEW"), "corrupt");
});

test("a damaged identity file stops the connect with corrupt and is not replaced", () =>
  withStub({}, async (stub, dir) => {
    fs.writeFileSync(path.join(dir, DEVICE_IDENTITY_FILE), "garbage");
    const r = await client(stub, dir).call("health");
    assert.not.ok(r.ok);
    if (!r.ok) assert.is(r.error.kind, "corrupt");
    assert.is(fs.readFileSync(path.join(dir, DEVICE_IDENTITY_FILE), "utf8"), "garbage");
    assert.equal(stub.connects, []);
  }));

test("close() resolves a pending call as unreachable", () =>
  withStub({ handlers: { "never.answers": () => NO_REPLY } }, async (stub, dir) => {
    const c = client(stub, dir);
    const pending = c.call("never.answers", {}, { timeoutMs: 10_000 });
    await pollUntil(() => stub.calls.length === 1, { what: "call at the stub" });
    await c.close();
    const r = await pending;
    assert.not.ok(r.ok);
    if (!r.ok) assert.is(r.error.kind, "unreachable");
    await pollUntil(() => stub.openSockets() === 0, { what: "socket closed at the stub" });
  }));

test.run();

// ------------------------------------------------------------------------------------------------
// Against a REAL OpenClaw gateway (test/helpers/openclaw-gateway.ts runs run-openclaw.sh).
// Required: CI always runs these; a developer may skip them locally with GI_SKIP_REAL_GATEWAY=1.
const skipReal = realGatewaySkipReason();
// Not uvu's test.skip: test/run.mjs counts a skipped test as a failure (uvu's Total excludes skips).
if (skipReal) console.log(`rpc-client.test: real-gateway tests not run (${skipReal})`);
else {
  const real = suite("real gateway");
  let started: Promise<OpenClawGateway> | null = null;
  // Started by the first test that needs it, so an install failure fails a test with its message.
  const gateway = (): Promise<OpenClawGateway> => (started ??= startOpenClawGateway());
  real.after(async () => {
    const gw = started ? await started.catch(() => null) : null;
    await gw?.down();
  });

  /** The version the gateway's own state DB records: the expectation comes from outside our code. */
  const appVersionOf = (gw: OpenClawGateway): string => {
    const db = new Database(path.join(gw.stateDir, "state", "openclaw.sqlite"), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare("SELECT app_version FROM schema_meta WHERE meta_key = 'primary'").get() as { app_version: string }).app_version;
    } finally {
      db.close();
    }
  };

  real("handshake: challenge, signed connect, hello-ok with the scopes we asked for; channels.status and health", async () => {
    const gw = await gateway();
    const t = gw.timings;
    console.log(`real gateway ${gw.version}: up in ${t.upMs} ms (${t.installed ? "installed first" : "cached install"}), /healthz ${t.startToHealthzMs} ms and /readyz ${t.startToReadyMs} ms after launch`);
    const config = JSON5.parse<{ gateway: { port: number }; channels?: Record<string, unknown> }>(fs.readFileSync(gw.configPath, "utf8"));
    const dir = tmp();
    const c = new GatewayRpcClient({ url: gw.wsUrl, stateDir: dir, auth: resolveGatewayAuth(config, {}), ...TEST_RPC_DEADLINES });
    const t0 = performance.now();
    const h = await c.connect();
    const connectMs = performance.now() - t0;
    assert.ok(h.ok, h.ok ? "" : `${h.error.kind}: ${h.error.message}`);
    if (!h.ok) return;
    assert.is(h.value.protocol, 4);
    assert.is(h.value.serverVersion, appVersionOf(gw));
    assert.ok(h.value.methods.includes("channels.status") && h.value.methods.includes("health"));
    assert.equal(h.value.scopes, ["operator.read"]);
    assert.is(h.value.role, "operator");
    assert.is(h.value.authMethod, "token");
    assert.ok(h.value.deviceTokenIssued, "loopback pairing is silent and issues a device token");
    assert.ok(h.value.tickIntervalMs > 0);
    const probe = await probeChannels(c, { timeoutMs: TEST_RPC_DEADLINES.requestTimeoutMs });
    assert.ok(probe.ok, probe.ok ? "" : probe.error.message);
    if (!probe.ok) return;
    assert.is(probe.value.serverVersion, appVersionOf(gw));
    assert.is(probe.value.channels.length, Object.keys(config.channels ?? {}).length);
    assert.ok(probe.value.health?.ok);
    assert.is(probe.value.health?.defaultAgentId, "main");
    assert.ok(probe.value.rpcLatencyMs !== null && probe.value.rpcLatencyMs > 0);
    const rtts: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await c.call("health");
      assert.ok(r.ok, r.ok ? "" : r.error.message);
      if (r.ok) rtts.push(r.value.latencyMs);
    }
    rtts.sort((a, b) => a - b);
    console.log(`real gateway ${gw.version}: connect ${connectMs.toFixed(1)} ms (handshake ${h.value.handshakeMs.toFixed(1)} ms), health RTT median ${rtts[5]?.toFixed(2)} ms, max ${rtts[9]?.toFixed(2)} ms`);
    await c.close();
    // The issued device token is enough on its own for the next connect.
    assert.ok(fs.existsSync(path.join(dir, DEVICE_TOKEN_FILE)));
    const again = new GatewayRpcClient({ url: gw.wsUrl, stateDir: dir, auth: {}, ...TEST_RPC_DEADLINES });
    const h2 = await again.connect();
    assert.ok(h2.ok, h2.ok ? "" : h2.error.message);
    if (h2.ok) assert.is(h2.value.authMethod, "device-token");
    await again.close();
  });

  real("an admin-only method answers a read-scoped client FORBIDDEN / missing operator.admin, as the stub does", async () => {
    const gw = await gateway();
    const c = new GatewayRpcClient({ url: gw.wsUrl, stateDir: tmp(), auth: resolveGatewayAuth(JSON.parse(fs.readFileSync(gw.configPath, "utf8")), {}), ...TEST_RPC_DEADLINES });
    const h = await c.connect();
    assert.ok(h.ok, h.ok ? "" : h.error.message);
    // update.* is admin-only; the stub gives the same answer for any method it lacks.
    const admin = await c.call("update.status", {});
    assert.not.ok(admin.ok);
    if (!admin.ok) {
      assert.is(admin.error.kind, "permission");
      assert.is(admin.error.details.rpcCode, "FORBIDDEN");
      assert.is(admin.error.details.missingScope, "operator.admin");
    }
    await c.close();
  });

  real("with the socket broken the CLI fallback answers through `openclaw gateway call`", async () => {
    const gw = await gateway();
    const dead = new GatewayRpcClient({ url: `ws://127.0.0.1:${await closedPort()}`, stateDir: tmp(), auth: {} });
    const started = Date.now();
    const r = await probeChannelsWithFallback(dead, { cli: { openclawBin: gw.openclawBin, env: gw.cliEnv(), port: gw.port, timeoutMs: 120_000 } });
    console.log(`real gateway ${gw.version}: CLI fallback probe (two CLI runs in parallel) took ${Date.now() - started} ms`);
    assert.ok(r.ok, r.ok ? "" : r.error.message);
    if (!r.ok) return;
    assert.is(r.value.source, "cli");
    assert.equal(r.value.channels, []);
    assert.ok(r.value.health?.ok);
    await dead.close();
  });

  real("a CLI call past its deadline is cut off with the child the launcher re-spawned", async () => {
    const gw = await gateway();
    // A peer that accepts TCP and never speaks: the CLI would wait for its own timeout (10 min here),
    // so only our deadline ends it. A marker in the env finds every process of the run in /proc.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => {
      sockets.push(s);
      s.on("error", () => undefined);
      s.resume(); // read (and drop) what the CLI sends, so its hang-up is seen
    });
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      // The point is the child the launcher re-spawns, which exists only once the CLI got going: a
      // deadline that fired before the CLI reached the peer proves nothing, so it doubles and runs again.
      let r: Awaited<ReturnType<typeof spawnRunner>> | null = null;
      let marker = "";
      for (let deadlineMs = 5_000; sockets.length === 0; deadlineMs *= 2) {
        if (deadlineMs > 160_000) throw new Error("the CLI never reached the peer");
        marker = `gi-cli-cut-${process.pid}-${deadlineMs}`;
        r = await spawnRunner(gw.openclawBin, ["gateway", "call", "health", "--json", "--params", "{}", "--timeout", "600000"], { timeoutMs: deadlineMs, env: { ...gw.cliEnv(), OPENCLAW_GATEWAY_PORT: String(port), GI_TEST_MARKER: marker } });
        assert.ok(r.timedOut, "only the deadline can end this call");
      }
      // Nothing of the run outlives it: no process carries the marker, the peer's sockets are closed.
      await pollUntil(() => processesWithEnv(`GI_TEST_MARKER=${marker}`).length === 0, { timeoutMs: 30_000, what: "every process of the CLI run to be gone" });
      await pollUntil(() => sockets.every((s) => s.closed), { timeoutMs: 30_000, what: "the CLI's sockets to the peer to be closed" });
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  real.run();
}
