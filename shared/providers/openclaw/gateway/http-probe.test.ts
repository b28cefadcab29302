import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { gatewayBaseUrl, probeGateway, probeLive, probeReady } from "./http-probe.js";
import { FIXTURES_DIR } from "../../../../test/helpers/openclaw-fixtures.js";

const FIX = path.join(FIXTURES_DIR, "gateway-responses-2026.9.6");
const healthzBody = fs.readFileSync(`${FIX}/healthz.json`, "utf8");
const readyzBody = fs.readFileSync(`${FIX}/readyz.json`, "utf8");

type Mode = "fixture" | "not-ready" | "bad-json" | "array";
let mode: Mode = "fixture";

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: gatewayBaseUrl((server.address() as AddressInfo).port) };
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

const gateway = listen((req, res) => {
  const send = (status: number, body: string) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body);
  };
  if (mode === "bad-json") return send(200, "<html>not json</html>");
  if (mode === "array") return send(200, "[1,2]");
  if (req.url === "/healthz") return send(200, healthzBody);
  if (req.url === "/readyz") {
    if (mode === "not-ready") {
      const body = { ...(JSON.parse(readyzBody) as object), ready: false, failing: ["channels", { name: "plugins" }] };
      return send(503, JSON.stringify(body));
    }
    return send(200, readyzBody);
  }
  send(404, '{"error":"not found"}');
});

test("fixture /healthz and /readyz answers are read as typed results", async () => {
  mode = "fixture";
  const { base } = await gateway;
  const expectLive = JSON.parse(healthzBody) as { ok: boolean; status: string };
  const expectReady = JSON.parse(readyzBody) as { ready: boolean; failing: string[]; uptimeMs: number; eventLoop: { degraded: boolean; delayP99Ms: number; utilization: number; reasons: string[] } };
  const live = await probeLive(base);
  assert.ok(live.ok);
  if (live.ok) {
    assert.is(live.value.live, expectLive.ok);
    assert.is(live.value.status, expectLive.status);
    assert.is(live.value.httpStatus, 200);
    assert.ok(live.value.roundTripMs >= 0 && live.value.roundTripMs < 5000);
  }
  const ready = await probeReady(base);
  assert.ok(ready.ok);
  if (ready.ok) {
    assert.is(ready.value.ready, expectReady.ready);
    assert.equal(ready.value.failing, expectReady.failing);
    assert.is(ready.value.uptimeMs, expectReady.uptimeMs);
    assert.is(ready.value.eventLoop.delayP99Ms, expectReady.eventLoop.delayP99Ms);
    assert.is(ready.value.eventLoop.degraded, expectReady.eventLoop.degraded);
    assert.is(ready.value.eventLoop.utilization, expectReady.eventLoop.utilization);
    assert.equal(ready.value.eventLoop.reasons, expectReady.eventLoop.reasons);
  }
  const both = await probeGateway(base);
  assert.ok(both.ok && both.value.live.live && both.value.ready?.ready === true && both.value.readyError === null);
});

test("a 503 /readyz with a JSON body is an answer: not ready, with the failing list", async () => {
  mode = "not-ready";
  const { base } = await gateway;
  const r = await probeReady(base);
  assert.ok(r.ok);
  if (r.ok) {
    assert.is(r.value.ready, false);
    assert.is(r.value.httpStatus, 503);
    assert.equal(r.value.failing, ["channels", "plugins"]);
  }
});

test("non-JSON or non-object bodies are corrupt", async () => {
  const { base } = await gateway;
  mode = "bad-json";
  const a = await probeLive(base);
  assert.ok(!a.ok && a.error.kind === "corrupt");
  mode = "array";
  const b = await probeReady(base);
  assert.ok(!b.ok && b.error.kind === "corrupt");
  const c = await probeGateway(base);
  assert.ok(!c.ok && c.error.kind === "corrupt");
  mode = "fixture";
});

test("a server that never answers -> timeout", async () => {
  const { server, base } = await listen(() => {
    // Accept the request and say nothing.
  });
  try {
    const started = Date.now();
    const r = await probeLive(base, { timeoutMs: 150 });
    assert.ok(!r.ok && r.error.kind === "timeout");
    assert.ok(Date.now() - started < 5000);
  } finally {
    await close(server);
  }
});

test("a closed port -> unreachable", async () => {
  const { server, base } = await listen(() => {});
  await close(server);
  const r = await probeGateway(base, { timeoutMs: 2000 });
  assert.ok(!r.ok);
  if (!r.ok) {
    assert.is(r.error.kind, "unreachable");
    assert.is(r.error.code, "SOURCE_UNAVAILABLE");
    assert.is(r.error.details.code, "ECONNREFUSED");
  }
});

test("gatewayBaseUrl defaults to the gateway port on loopback", () => {
  assert.is(gatewayBaseUrl(), "http://127.0.0.1:18789");
  assert.is(gatewayBaseUrl(19001, "::1"), "http://[::1]:19001");
});

test.after(async () => {
  await close((await gateway).server);
});

test.run();
