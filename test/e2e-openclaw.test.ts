// End to end against the real thing: a real OpenClaw 2026.9.6 gateway on loopback with a fake
// model (../shared/tools/run-openclaw.sh), and a real gateway-insights daemon pointed at its
// state dir. The daemon sees the gateway running with its pid, version and resources; two real
// agent turns and a forced cron run show up with the numbers in the gateway's own database;
// stopping the gateway makes it UNHEALTHY and not running; starting it again records a restart.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { byKey, expectedTotals, fixtureCronJobs, fixtureTranscripts } from "./helpers/fixture-expectations.js";
import { gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { realGatewaySkipReason, startOpenClawGateway, type OpenClawGateway } from "./helpers/openclaw-gateway.js";

test.after(removeTempDirs);

const skip = realGatewaySkipReason();
const SLOW = { timeoutMs: 120_000, intervalMs: 250 };

interface Sys {
  system: {
    health: { status: string; checks: Array<{ name: string; status: string; message: string | null }> };
    gateway: { running: boolean; pid: number | null; version: string | null; uptime: number | null; port: number | null };
    resources: { cpu: number | null; memoryMB: number | null; diskMB: number | null };
  };
}
const SYSTEM = `{ system { health { status checks { name status message } } ... on ProviderASystem { gateway { running pid version uptime port } resources { cpu memoryMB diskMB } } } }`;

interface Agent {
  source: {
    lifetimeStats: { isReady: boolean; totalTokens: number; totalInputTokens: number; totalOutputTokens: number; totalCacheReadTokens: number; totalUserMessages: number; totalAssistantMessages: number; totalSessions: number };
    sessions: Array<{ key: string; turnCount: number; totalTokens: number; kind: string }>;
    cronJobs: Array<{ id: string; name: string; lastRunAt: string | null; lastStatus: string | null; nextRunAt: string | null }>;
    eventCounts: { restart: number; error: number; warning: number };
    recentLogs: Array<{ module: string; message: string }>;
  };
}
const AGENT = `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace {
  lifetimeStats { isReady totalTokens totalInputTokens totalOutputTokens totalCacheReadTokens totalUserMessages totalAssistantMessages totalSessions }
  sessions(filter: { grouped: false }) { key turnCount totalTokens kind }
  cronJobs { id name lastRunAt lastStatus nextRunAt }
  eventCounts { restart error warning }
  recentLogs(count: 20) { module message } } } }`;

test("a real gateway: running, turns, cron, stop and restart, as the daemon reports them", async () => {
  if (skip) {
    console.log(`skipped: ${skip}`);
    return;
  }
  let gw: OpenClawGateway | undefined;
  let d: TestDaemon | undefined;
  try {
    gw = await startOpenClawGateway();
    const g = gw;
    d = await startDaemon({
      openclawDir: g.stateDir,
      env: { OPENCLAW_CONFIG_PATH: g.configPath, PATH: `${g.nodeBinDir}:${process.env.PATH ?? ""}`, INSIGHTS_OPENCLAW_COMMAND: g.openclawBin, INSIGHTS_SAMPLE_INTERVAL_SECONDS: "1" },
    });
    const daemon = d;

    // 1. The gateway as the daemon sees it.
    const up = await pollUntil(async () => {
      const s = await gqlData<Sys>(daemon, SYSTEM);
      // CPU % needs two samples of the process tree: wait for the second.
      return s.system.gateway.running && s.system.resources.memoryMB !== null && s.system.resources.cpu !== null ? s : null;
    }, { ...SLOW, what: "the daemon to see the gateway running" });
    assert.is(up.system.gateway.pid, g.pid(), "the gateway's pid, from its lock file");
    assert.is(up.system.gateway.version, "2026.9.6");
    assert.is(up.system.gateway.port, g.port);
    assert.ok((up.system.resources.memoryMB ?? 0) > 50, `RSS of the gateway's process tree: ${up.system.resources.memoryMB} MB`);
    assert.ok(up.system.resources.cpu !== null);
    assert.is(up.system.health.checks.find((c) => c.name === "gateway")?.status, "PASS");

    // 2. Two real turns and a forced cron run.
    const t1 = await g.turn("hello from the e2e test");
    assert.is(t1.exitCode, 0, t1.stderr);
    const t2 = await g.turn("and a second turn");
    assert.is(t2.exitCode, 0, t2.stderr);
    const jobId = await g.cron("e2e-cron");

    // The numbers the daemon shows equal the ones in the gateway's own database (read here with plain SQL).
    const settled = await pollUntil(async () => {
      const a = await gqlData<Agent>(daemon, AGENT);
      const job = a.source.cronJobs.find((j) => j.id === jobId);
      if (!job?.lastRunAt || !job.lastStatus) return null;
      const transcripts = fixtureTranscripts(g.stateDir);
      const e = expectedTotals(transcripts);
      const l = a.source.lifetimeStats;
      const same = l.totalTokens === e.total && l.totalUserMessages === e.userMessages && l.totalAssistantMessages === e.assistantMessages && l.totalSessions === transcripts.length;
      return same ? { a, transcripts, e, job } : null;
    }, { ...SLOW, what: "the daemon's totals to equal the gateway's database" });
    const { a, transcripts, e, job } = settled;
    assert.ok(e.userMessages >= 3, "two turns and a cron run");
    assert.is(a.source.lifetimeStats.totalInputTokens, e.input);
    assert.is(a.source.lifetimeStats.totalOutputTokens, e.output);
    assert.is(a.source.lifetimeStats.totalCacheReadTokens, e.cacheRead);
    const keys = byKey(transcripts);
    const main = a.source.sessions.find((s) => s.key === "agent:main:main");
    assert.is(main?.turnCount, expectedTotals(keys.get("agent:main:main") ?? []).userMessages);
    assert.ok((main?.turnCount ?? 0) >= 2);
    assert.ok(a.source.sessions.some((s) => s.kind === "cron" && s.key.includes(jobId)), "the cron run's session");
    assert.is(job.name, "e2e-cron");
    assert.ok(fixtureCronJobs(g.stateDir).some((j) => j.id === jobId));
    assert.ok(a.source.eventCounts.restart >= 1, "the gateway start is in the event log");
    assert.ok(a.source.recentLogs.length > 0);

    // 3. Gateway down: not running, UNHEALTHY.
    const restartsBefore = a.source.eventCounts.restart;
    await g.stop();
    const down = await pollUntil(async () => {
      const s = await gqlData<Sys>(daemon, SYSTEM);
      return !s.system.gateway.running ? s : null;
    }, { ...SLOW, what: "the daemon to see the gateway down" });
    assert.is(down.system.health.status, "UNHEALTHY");
    assert.is(down.system.health.checks.find((c) => c.name === "gateway")?.status, "FAIL");
    assert.is(down.system.gateway.pid, null);

    // 4. Up again: running, and one more restart recorded.
    await g.start();
    await pollUntil(async () => {
      const s = await gqlData<Sys>(daemon, SYSTEM);
      const ev = await gqlData<Agent>(daemon, AGENT);
      return s.system.gateway.running && ev.source.eventCounts.restart === restartsBefore + 1 ? true : null;
    }, { ...SLOW, what: "the restart to be recorded" });
  } finally {
    await d?.stop();
    await gw?.down();
  }
});

test.run();
