import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../../../base/clock.js";
import type { SourceWarning } from "../../result.js";
import { normalizeChannelsStatus, normalizeHealth, probeChannels } from "./channels.js";
import { GatewayRpcClient } from "./rpc-client.js";
import { GATEWAY_FIXTURES_DIR, StubRpcError, fixtureHandlers, startStubGateway } from "../../../../test/helpers/stub-gateway.js";
import type { StubGatewayOptions } from "../../../../test/helpers/stub-gateway.js";

type Json = Record<string, unknown>;
const fixture = (f: string) => JSON.parse(fs.readFileSync(path.join(GATEWAY_FIXTURES_DIR, f), "utf8")) as Json;

// A configured-gateway channels.status answer, written from ChannelsStatusResultSchema /
// ChannelAccountSnapshotSchema (the recorded probe gateway had no channels configured).
const CONFIGURED = {
  ts: 1795302068820,
  channelOrder: ["telegram", "slack", "discord", "signal"],
  channelLabels: { telegram: "Telegram", slack: "Slack", discord: "Discord", signal: "Signal" },
  channels: {
    telegram: { configured: true },
    signal: { configured: true, running: false, lastError: "plugin failed to load" },
  },
  channelAccounts: {
    telegram: [
      { accountId: "default", name: "Ops bot", enabled: true, configured: true, running: true, connected: true, lastConnectedAt: 1795302000000, lastProbeAt: 1795302068000, probe: { ok: true, status: 200, error: null, elapsedMs: 123 }, healthState: "healthy" },
      { accountId: "backup", enabled: true, configured: true, running: true, connected: false, lastError: "409 conflict", healthState: "disconnected" },
    ],
    slack: [{ accountId: "work", enabled: true, configured: true, running: true, healthState: "healthy", mode: "socket" }, "not-an-account"],
    discord: [{ accountId: "default", enabled: true, configured: true, running: false, lastError: "401 Unauthorized", probe: { ok: false, error: "401", elapsedMs: 88 } }],
  },
  channelDefaultAccountId: { telegram: "default", slack: "work", discord: "default", signal: "main" },
  statusIssues: [{ channel: "telegram", accountId: "backup", kind: "runtime", message: "another poller holds the token" }],
  partial: true,
  warnings: ["discord:default probe timed out"],
};

test("the recorded channels.status (no channels configured) normalizes to an empty list", () => {
  const raw = fixture("call-channels.status.json");
  const expected = Object.values(raw.channelAccounts as Record<string, unknown[]>).reduce((n, list) => n + list.length, 0);
  const warnings: SourceWarning[] = [];
  const rows = normalizeChannelsStatus(raw, warnings);
  assert.is(rows.length, expected);
  assert.is((raw.channelOrder as unknown[]).length, 0);
  assert.equal(warnings, []);
});

test("configured channels: one row per account with provider, name, connected, latency", () => {
  const warnings: SourceWarning[] = [];
  const rows = normalizeChannelsStatus(CONFIGURED, warnings);
  const pick = (provider: string, accountId: string) => rows.find((r) => r.provider === provider && r.accountId === accountId);
  assert.equal(
    rows.map((r) => `${r.provider}/${r.accountId}`),
    ["telegram/default", "telegram/backup", "slack/work", "discord/default", "signal/main"],
  );
  const tg = pick("telegram", "default");
  assert.is(tg?.name, "Ops bot");
  assert.is(tg?.label, "Telegram");
  assert.is(tg?.connected, true);
  assert.is(tg?.connectedSource, "reported");
  assert.is(tg?.latencyMs, 123);
  assert.is(tg?.probeOk, true);
  assert.is(tg?.lastConnectedAt, 1795302000000);
  const backup = pick("telegram", "backup");
  assert.is(backup?.name, "backup");
  assert.is(backup?.connected, false);
  assert.is(backup?.lastError, "409 conflict");
  assert.equal(backup?.issues, ["runtime: another poller holds the token"]);
  assert.is(backup?.latencyMs, null);
  // No transport flag: the gateway's "healthy" verdict on a running account counts as connected.
  const slack = pick("slack", "work");
  assert.is(slack?.connected, true);
  assert.is(slack?.connectedSource, "derived");
  const discord = pick("discord", "default");
  assert.is(discord?.connected, false);
  assert.is(discord?.probeOk, false);
  assert.is(discord?.latencyMs, 88);
  // A channel with no account snapshots still shows, from its summary, under its default account id.
  const signal = pick("signal", "main");
  assert.is(signal?.connected, false);
  assert.is(signal?.lastError, "plugin failed to load");
  assert.equal(
    warnings.map((w) => w.code),
    ["BAD_ROW"],
  );
  assert.match(warnings[0]?.message ?? "", /slack\[1\]/);
});

test("garbage payloads give warnings, not throws", () => {
  const warnings: SourceWarning[] = [];
  assert.equal(normalizeChannelsStatus("nope", warnings), []);
  assert.equal(normalizeChannelsStatus({ channelAccounts: { x: "not a list" } }, warnings), []);
  assert.is(normalizeHealth(42, warnings), null);
  assert.equal(
    warnings.map((w) => w.code),
    ["UNKNOWN_FORMAT", "BAD_FIELD", "UNKNOWN_FORMAT"],
  );
});

test("the recorded health answer reduces to the summary", () => {
  const raw = fixture("health.json") as {
    ok: boolean;
    ts: number;
    durationMs: number;
    defaultAgentId: string;
    heartbeatSeconds: number;
    plugins: { loaded: unknown[]; errors: unknown[] };
    agents: { agentId: string; isDefault: boolean; sessions: { count: number } }[];
    sessions: { count: number };
    eventLoop: { degraded: boolean; delayP99Ms: number };
    modelRuntime: { degraded: boolean };
  };
  const h = normalizeHealth(raw);
  assert.ok(h);
  if (!h) return;
  assert.is(h.ok, raw.ok);
  assert.is(h.ts, raw.ts);
  assert.is(h.durationMs, raw.durationMs);
  assert.is(h.defaultAgentId, raw.defaultAgentId);
  assert.is(h.heartbeatSeconds, raw.heartbeatSeconds);
  assert.is(h.pluginsLoaded, raw.plugins.loaded.length);
  assert.is(h.pluginErrors, raw.plugins.errors.length);
  assert.equal(
    h.agents,
    raw.agents.map((a) => ({ agentId: a.agentId, isDefault: a.isDefault, sessionCount: a.sessions.count })),
  );
  assert.is(h.sessionCount, raw.sessions.count);
  assert.is(h.eventLoopDegraded, raw.eventLoop.degraded);
  assert.is(h.eventLoopDelayP99Ms, raw.eventLoop.delayP99Ms);
  assert.is(h.modelRuntimeDegraded, raw.modelRuntime.degraded);
});

async function withClient(opts: StubGatewayOptions, fn: (c: GatewayRpcClient, calls: { method: string; params: unknown }[]) => Promise<void>): Promise<void> {
  const stub = await startStubGateway({ token: "t", serverVersion: "2026.9.6-stub", ...opts });
  const c = new GatewayRpcClient({ url: stub.url, stateDir: fs.mkdtempSync(path.join(os.tmpdir(), "gi-")), auth: { token: "t" } });
  try {
    await fn(c, stub.calls);
  } finally {
    await c.close();
    await stub.close();
  }
}

test("probeChannels over the stub: channels, health, server version and latency", () =>
  withClient({ handlers: { ...fixtureHandlers(), "channels.status": () => CONFIGURED } }, async (c, calls) => {
    const clock = manualClock(1_800_000_000_000);
    const r = await probeChannels(c, { clock });
    assert.ok(r.ok, r.ok ? "" : r.error.message);
    if (!r.ok) return;
    assert.is(r.value.channels.length, 5);
    assert.is(r.value.serverVersion, "2026.9.6-stub");
    assert.is(r.value.source, "rpc");
    assert.is(r.value.observedAt, 1_800_000_000_000);
    assert.ok(typeof r.value.rpcLatencyMs === "number" && r.value.rpcLatencyMs >= 0);
    assert.ok(typeof r.value.healthLatencyMs === "number");
    assert.is(r.value.health?.defaultAgentId, (fixture("health.json") as { defaultAgentId: string }).defaultAgentId);
    assert.is(r.value.partial, true);
    assert.equal(r.value.gatewayWarnings, CONFIGURED.warnings);
    assert.equal(r.warnings.map((w) => w.code), ["BAD_ROW"]);
    // Cheap by default: no live provider probes.
    assert.equal(calls.find((x) => x.method === "channels.status")?.params, {});
  }));

test("liveProbe asks channels.status to probe, within the call timeout", () =>
  withClient({}, async (c, calls) => {
    const r = await probeChannels(c, { liveProbe: true, timeoutMs: 4000 });
    assert.ok(r.ok);
    assert.equal(calls.find((x) => x.method === "channels.status")?.params, { probe: true, timeoutMs: 3500 });
  }));

test("a failing health call leaves channels valid and says why", () =>
  withClient(
    {
      handlers: {
        ...fixtureHandlers(),
        health: () => {
          throw new StubRpcError("UNAVAILABLE", "health refresh in progress", { retryable: true });
        },
      },
    },
    async (c) => {
      const r = await probeChannels(c);
      assert.ok(r.ok);
      if (!r.ok) return;
      assert.is(r.value.health, null);
      assert.is(r.value.healthError?.kind, "unreachable");
      assert.match(r.value.healthError?.message ?? "", /health refresh in progress/);
    },
  ));

test("a failing channels.status fails the probe with its error", () =>
  withClient(
    {
      handlers: {
        ...fixtureHandlers(),
        "channels.status": () => {
          throw new StubRpcError("FORBIDDEN", "missing scope: operator.read", { details: { code: "MISSING_SCOPE" } });
        },
      },
    },
    async (c) => {
      const r = await probeChannels(c);
      assert.not.ok(r.ok);
      if (!r.ok) assert.is(r.error.kind, "permission");
    },
  ));

test.run();
