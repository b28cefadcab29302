// The health checks' messages: every one comes from the daemon's catalog, so it reads in Chinese
// for a Chinese reader, while the API's English without a locale stays word for word what it was
// (the expected strings below are the texts the checks wrote before the catalog).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { localize } from "../i18n/message.js";
import type { AgentSnapshot } from "../ingest/agent-source.js";
import type { SystemSnapshot } from "../providers/contract.js";
import type { ChannelStatus } from "../providers/contract.js";
import { healthChecks, type HealthCheck, type SystemInputs } from "./system.js";

function channel(provider: string, connected: boolean): ChannelStatus {
  return {
    provider,
    name: provider,
    accountId: "default",
    label: provider,
    connected,
    connectedSource: "reported",
    running: connected,
    enabled: true,
    configured: true,
    latencyMs: null,
    probeOk: null,
    lastError: null,
    healthState: null,
    lastConnectedAt: null,
    lastProbeAt: null,
    issues: [],
  };
}

function agent(agentId: string, status: AgentSnapshot["state"]["status"] = "CONNECTED", lastError: string | null = null): AgentSnapshot {
  return { id: `agent:${agentId}`, agentId, name: agentId, state: { status, lastError, since: 0 }, provider: "openclaw", tags: ["openclaw", agentId], dir: "", live: [], sessions: [], appVersion: null, firstPassDone: true, transcripts: 0, warnings: 0 };
}

interface Change {
  demo?: boolean;
  gateway?: Partial<SystemSnapshot["gateway"]>;
  resources?: Partial<SystemSnapshot["resources"]>;
  channels?: Partial<SystemSnapshot["channels"]>;
  agents?: AgentSnapshot[];
  openclawError?: string | null;
  store?: SystemInputs["store"];
}

/** A healthy gateway with one connected channel and agent, changed by `c`. */
function inputs(c: Change = {}): SystemInputs {
  const snapshot: SystemSnapshot = {
    demo: c.demo ?? false,
    checkedAt: 1,
    gateway: {
      running: true,
      url: "http://127.0.0.1:18789",
      port: 18789,
      pid: 4242,
      startedAt: 0,
      uptimeSeconds: 60,
      version: "2026.9.6",
      latencyMs: 3.4,
      error: null,
      ready: true,
      failing: [],
      eventLoopDelayMs: 12,
      eventLoopDegraded: false,
      updateAvailable: false,
      latestVersion: null,
      ...c.gateway,
    },
    resources: { cpuPercent: 1, memoryMB: 400, diskMB: 120, diskFreeMB: 52344, diskUsedPercent: 40, sampledAt: 1, ...c.resources },
    channels: { list: [channel("telegram", true)], checkedAt: 1, error: null, rpcLatencyMs: 5, source: "rpc", ...c.channels },
  };
  return { snapshot, agents: c.agents ?? [agent("main")], openclawError: c.openclawError ?? null, store: c.store ?? { ok: true }, appVersion: "0.1.0" };
}

const find = (checks: HealthCheck[], name: string): HealthCheck => {
  const c = checks.find((x) => x.name === name);
  if (!c) throw new Error(`no ${name} check`);
  return c;
};

/** [what, inputs, check name, the English the API has always given] */
const CASES: Array<[string, Change, string, string | null]> = [
  ["healthy gateway", {}, "gateway", "healthz answered in 3.4 ms"],
  ["ready", {}, "ready", null],
  ["event loop fine", {}, "event-loop", "p99 delay 12 ms"],
  ["one channel up", {}, "channels", "1 connected"],
  ["one agent", {}, "sources", "1 agent connected"],
  ["disk fine", {}, "disk", "52344 MB free"],
  ["store fine", {}, "store", null],
  ["demo without its gateway", { demo: true, gateway: { running: false } }, "gateway", "demo mode: no demo gateway answers"],
  ["gateway error", { gateway: { running: false, error: "connect ECONNREFUSED 127.0.0.1:18789" } }, "gateway", "connect ECONNREFUSED 127.0.0.1:18789"],
  ["gateway silent", { gateway: { running: false, error: null } }, "gateway", "the gateway does not answer /healthz"],
  ["no port known", { gateway: { running: false, port: null, url: null, error: "no gateway port known" } }, "gateway", "no gateway port known"],
  ["healthz not ok", { gateway: { running: false, error: "healthz did not answer ok" } }, "gateway", "healthz did not answer ok"],
  ["ready when down", { gateway: { running: false } }, "ready", "the gateway is down"],
  ["event loop when down", { gateway: { running: false } }, "event-loop", "no event-loop figures (readyz)"],
  ["readyz silent", { gateway: { ready: null } }, "ready", "readyz did not answer"],
  ["readyz failing", { gateway: { ready: false, failing: ["db", "plugins"] } }, "ready", "failing: db, plugins"],
  ["readyz not ready", { gateway: { ready: false, failing: [] } }, "ready", "readyz says not ready"],
  ["event loop degraded", { gateway: { eventLoopDelayMs: 240, eventLoopDegraded: true } }, "event-loop", "p99 delay 240 ms, reported degraded"],
  ["event loop slow", { gateway: { eventLoopDelayMs: 1200 } }, "event-loop", "p99 delay 1200 ms"],
  ["channels unreadable", { channels: { list: [], error: "timeout after 5000 ms" } }, "channels", "channel status unavailable: timeout after 5000 ms"],
  ["channels not probed", { channels: { list: [], checkedAt: null } }, "channels", "not probed yet"],
  ["no channels", { channels: { list: [] } }, "channels", "no channels configured"],
  ["all channels down", { channels: { list: [channel("telegram", false), channel("slack", false)] } }, "channels", "all 2 channels disconnected"],
  ["some channels down", { channels: { list: [channel("telegram", true), channel("whatsapp", false), channel("slack", false)] } }, "channels", "disconnected: whatsapp, slack"],
  ["three channels up", { channels: { list: [channel("a", true), channel("b", true), channel("c", true)] } }, "channels", "3 connected"],
  ["state dir unreadable", { openclawError: "EACCES: permission denied, scandir '/home/op/.openclaw/agents'" }, "sources", "EACCES: permission denied, scandir '/home/op/.openclaw/agents'"],
  ["agents failing", { agents: [agent("main", "ERROR", "database is locked"), agent("ops", "ERROR")] }, "sources", "agent:main: database is locked; agent:ops: error"],
  ["agent gone", { agents: [agent("main"), agent("ops", "DISCONNECTED")] }, "sources", "disconnected: agent:ops"],
  ["first scan", { agents: [agent("main", "INITIALIZING")] }, "sources", "first scan running: agent:main"],
  ["no agents", { agents: [] }, "sources", "no agents found"],
  ["two agents", { agents: [agent("main"), agent("ops")] }, "sources", "2 agents connected"],
  ["disk unmeasured", { resources: { diskUsedPercent: null, diskFreeMB: null } }, "disk", "free space not measured yet"],
  ["disk filling", { resources: { diskUsedPercent: 93.5, diskFreeMB: 3000 } }, "disk", "93.5% used, 3000 MB free"],
  ["disk full", { resources: { diskUsedPercent: 98, diskFreeMB: 900 } }, "disk", "98% used, 900 MB free"],
  ["store failing", { store: { ok: false, error: "SQLITE_BUSY: database is locked" } }, "store", "SQLITE_BUSY: database is locked"],
  ["store silent", { store: { ok: false } }, "store", "the store does not answer"],
];

test("without a locale the messages read as the API has always written them", () => {
  for (const [what, change, name, english] of CASES) assert.is(find(healthChecks(inputs(change)), name).message, english, what);
});

test("every message the checks write has a catalog id, and its Chinese is Chinese", () => {
  const han = /[\u4e00-\u9fff]/;
  for (const [what, change, name] of CASES) {
    const c = find(healthChecks(inputs(change)), name);
    if (c.message === null) {
      assert.is(c.text, null, what);
      continue;
    }
    assert.ok(c.text, `${what}: the message has a catalog id`);
    assert.ok(han.test(localize(c.text, "zh")), `${what}: ${JSON.stringify(localize(c.text, "zh"))} is in Chinese`);
  }
});

test("the gateway monitor's own reasons are said in Chinese, not quoted in English", () => {
  for (const [error, zh] of [
    ["no gateway port known", "不知道网关的端口（OpenClaw 配置和网关锁文件都没有给出）"],
    ["healthz did not answer ok", "healthz 没有返回正常"],
  ]) {
    const c = find(healthChecks(inputs({ gateway: { running: false, error } })), "gateway");
    assert.ok(c.text);
    assert.is(localize(c.text, "zh"), zh);
  }
  // An OS error is the monitor's evidence, quoted as it is inside a Chinese sentence.
  const refused = find(healthChecks(inputs({ gateway: { running: false, error: "connect ECONNREFUSED 127.0.0.1:18789" } })), "gateway");
  assert.ok(refused.text);
  assert.is(localize(refused.text, "zh"), "网关无响应：connect ECONNREFUSED 127.0.0.1:18789");
});

test("channels not probed yet are a pending check (STARTING), never a PASS; none configured is a PASS", () => {
  const notProbed = find(healthChecks(inputs({ channels: { list: [], checkedAt: null } })), "channels");
  assert.is(notProbed.status, "WARN");
  assert.is(notProbed.pending, true);
  const none = find(healthChecks(inputs({ channels: { list: [], checkedAt: 1 } })), "channels");
  assert.equal([none.status, none.pending ?? false, none.message], ["PASS", false, "no channels configured"]);
});

test("a single channel that is down is not 'all 1 channels'", () => {
  const c = find(healthChecks(inputs({ channels: { list: [channel("telegram", false)] } })), "channels");
  assert.is(c.status, "FAIL");
  assert.is(c.message, "the only channel is disconnected");
});

test("display text: the free disk in the unit the dashboard shows, in both languages", () => {
  const disk = find(healthChecks(inputs()), "disk");
  assert.ok(disk.text);
  assert.is(localize(disk.text, "en"), "51.1 GB free");
  assert.is(localize(disk.text, "zh"), "可用 51.1 GB");
  const gw = find(healthChecks(inputs()), "gateway");
  assert.ok(gw.text);
  assert.is(localize(gw.text, "zh"), "healthz 响应耗时 3.4 毫秒");
  const demo = find(healthChecks(inputs({ demo: true, gateway: { running: false } })), "gateway");
  assert.ok(demo.text);
  assert.is(localize(demo.text, "zh"), "演示模式：没有演示网关应答");
});

test.run();
