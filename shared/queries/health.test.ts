// The one health rule (health.ts) and the OpenClaw checks and gateway state it is fed (system.ts).
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { AgentSnapshot } from "../ingest/agent-source.js";
import type { SystemSnapshot } from "../providers/contract.js";
import type { SourceStatus } from "../ingest/source-status.js";
import { describeReasons, healthOf, type HealthCheck } from "./health.js";
import { querySystem } from "./system.js";

const c = (name: string, status: HealthCheck["status"], pending = false): HealthCheck => ({ name, status, message: null, ...(pending ? { pending } : {}) });

test("the rule: FAIL is unhealthy (even while starting), a pending check is starting, WARN degraded, else ok", () => {
  assert.equal(pick(healthOf([c("a", "PASS"), c("b", "PASS")])), { status: "HEALTHY", verdict: "OK", reasons: [] });
  assert.equal(pick(healthOf([c("a", "WARN"), c("b", "PASS")])), { status: "DEGRADED", verdict: "DEGRADED", reasons: ["a"] });
  assert.equal(pick(healthOf([c("a", "WARN", true), c("b", "WARN")])), { status: "DEGRADED", verdict: "STARTING", reasons: ["a", "b"] });
  assert.equal(pick(healthOf([c("a", "WARN", true), c("b", "WARN"), c("store", "FAIL")])), { status: "UNHEALTHY", verdict: "UNHEALTHY", reasons: ["store", "a", "b"] });
  assert.equal(pick(healthOf([])), { status: "HEALTHY", verdict: "OK", reasons: [] });
  assert.is(describeReasons([{ name: "gateway", status: "FAIL", message: "refused" }, { name: "disk", status: "WARN", message: null }]), "gateway FAIL: refused; disk WARN");
});

function pick(h: ReturnType<typeof healthOf>): { status: string; verdict: string; reasons: string[] } {
  return { status: h.status, verdict: h.verdict, reasons: h.reasons.map((r) => r.name) };
}

function snapshot(over: { demo?: boolean; checkedAt?: number | null; running?: boolean; disk?: number | null } = {}): SystemSnapshot {
  const running = over.running ?? false;
  return {
    demo: over.demo ?? false,
    checkedAt: over.checkedAt === undefined ? 1 : over.checkedAt,
    gateway: {
      running,
      url: "http://127.0.0.1:18789",
      port: 18789,
      pid: running ? 42 : null,
      startedAt: null,
      uptimeSeconds: null,
      version: "2026.9.6",
      latencyMs: running ? 2 : null,
      error: running ? null : "connect ECONNREFUSED",
      ready: running ? true : null,
      failing: [],
      eventLoopDelayMs: running ? 10 : null,
      eventLoopDegraded: running ? false : null,
      updateAvailable: null,
      latestVersion: null,
    },
    resources: { cpuPercent: null, memoryMB: null, diskMB: 1, diskFreeMB: 1000, diskUsedPercent: over.disk === undefined ? 50 : over.disk, sampledAt: 1 },
    // Probed, none configured (a gateway down is never asked: then not probed yet, and pending).
    channels: { list: [], checkedAt: running ? 1 : null, error: null, rpcLatencyMs: null, source: null },
  };
}

const agent = (status: SourceStatus): AgentSnapshot => ({
  id: "agent:main",
  agentId: "main",
  name: "main",
  state: { status, lastError: null, since: 0 },
  provider: "openclaw",
  tags: ["openclaw", "main"],
  dir: "",
  live: [],
  sessions: [],
  appVersion: null,
  firstPassDone: status === "CONNECTED",
  transcripts: 0,
  warnings: 0,
});

function view(snap: SystemSnapshot, agents: AgentSnapshot[] = [agent("CONNECTED")], storeOk = true) {
  return querySystem({ snapshot: snap, agents, openclawError: null, store: storeOk ? { ok: true } : { ok: false, error: "disk I/O error" }, appVersion: "0.1.0" });
}

test("before the first probe: the gateway is UNKNOWN and the verdict STARTING, not down", () => {
  const v = view(snapshot({ checkedAt: null }));
  assert.is(v.gateway.state, "UNKNOWN");
  assert.is(v.health.verdict, "STARTING");
  assert.is(v.health.status, "DEGRADED");
  assert.not.ok(v.health.checks.some((x) => x.status === "FAIL"));
});

test("first scan running or disk not measured yet: STARTING; a failing store wins over starting", () => {
  assert.is(view(snapshot({ running: true }), [agent("INITIALIZING")]).health.verdict, "STARTING");
  assert.is(view(snapshot({ running: true, disk: null })).health.verdict, "STARTING");
  assert.is(view(snapshot({ running: true, disk: null }), [agent("INITIALIZING")], false).health.verdict, "UNHEALTHY");
});

test("gateway down: DOWN and UNHEALTHY; up with everything passing: UP and OK", () => {
  const down = view(snapshot());
  assert.is(down.gateway.state, "DOWN");
  assert.is(down.health.verdict, "UNHEALTHY");
  assert.equal(down.health.reasons.map((r) => `${r.name}:${r.status}`), ["gateway:FAIL", "ready:FAIL", "event-loop:WARN", "channels:WARN"]);
  const up = view(snapshot({ running: true }));
  assert.is(up.gateway.state, "UP");
  assert.is(up.health.verdict, "OK");
  assert.is(up.health.status, "HEALTHY");
});

test("demo: the gateway is DEMO whether or not a demo gateway answers; no answer is a WARN, an answer is checked as usual", () => {
  const silent = view(snapshot({ demo: true }));
  assert.is(silent.gateway.state, "DEMO");
  assert.equal(silent.health.checks.find((x) => x.name === "gateway")?.status, "WARN");
  assert.is(silent.health.verdict, "DEGRADED");
  const replay = view(snapshot({ demo: true, running: true }));
  assert.is(replay.gateway.state, "DEMO");
  assert.equal(replay.health.checks.filter((x) => ["gateway", "ready", "event-loop"].includes(x.name)).map((x) => x.status), ["PASS", "PASS", "PASS"]);
  assert.is(replay.health.verdict, "OK");
});

test("channels never probed by this process (a one-off CLI command): no channels check, and no STARTING for it", () => {
  const snap = snapshot({ running: true });
  const v = view({ ...snap, channels: { ...snap.channels, checkedAt: null, off: true } });
  assert.not.ok(v.health.checks.some((x) => x.name === "channels"));
  assert.is(v.health.verdict, "OK");
  assert.is(view({ ...snap, channels: { ...snap.channels, checkedAt: null } }).health.verdict, "STARTING", "a daemon that will probe them: starting");
});

test.run();
