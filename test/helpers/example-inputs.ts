// Example card inputs: a busy two-agent OpenClaw gateway (long session keys, Chinese names,
// sub-agents, errors, cron failures, an overdue job, a dropped channel), a Claude Code install
// (projects, a sub-agent, a model with no known price) and a Codex install (the plan's rate limits),
// any subset of the three, and an empty gateway. They feed the README images
// (test/tools/snapshot/render-examples.ts) and the tests. Times are relative to `now`.
import { list, millis, msg, plainText, sizeMB, type Message } from "../../shared/i18n/message.js";
import type { EventType, EventView } from "../../shared/queries/events.js";
import { healthOf } from "../../shared/queries/health.js";
import type { Metrics, MetricsBucket } from "../../shared/queries/metrics.js";
import { RANGES } from "../../shared/queries/metrics.js";
import type { SessionStatus, SessionView } from "../../shared/queries/sessions.js";
import { projectWindow, type WindowSample } from "../../shared/queries/rate-limit-projection.js";
import type { SessionKind } from "../../shared/providers/openclaw/session-record.js";
import type { CronJobInfo } from "../../shared/providers/contract.js";
import { VERSION } from "../../shared/base/version.js";
import { CARD_PROVIDERS, type CardProvider } from "../../shared/snapshot/card-model.js";
import type { AgentCardInputs, CardInputs, CliCardInputs, HealthInput, OpenClawCardInputs, ProviderCardInputs } from "../../shared/snapshot/inputs.js";
import { METRICS_RANGE, type SnapshotRange } from "../../shared/snapshot/params.js";

const MIN = 60_000;
const HOUR = 60 * MIN;

const example = (name: string, status: HealthInput["checks"][number]["status"], text: Message | null): HealthInput["checks"][number] => ({ name, status, message: text && plainText(text), text });

/** Fixed so the committed images do not change from run to run. */
export const EXAMPLE_NOW = Date.UTC(2026, 2, 14, 14, 32, 0);

interface SessionSeed {
  key: string;
  name: string;
  kind?: SessionKind;
  status: SessionStatus;
  model?: string | null;
  channel?: string | null;
  tokens: number;
  cost: number;
  turns: number;
  agoMin: number;
  subs?: SessionSeed[];
  project?: string | null;
  unpriced?: number;
}

function session(agentId: string, s: SessionSeed, now: number, parentKey: string | null = null): SessionView {
  const input = Math.round(s.tokens * 0.2);
  const output = Math.round(s.tokens * 0.1);
  const cacheRead = Math.round(s.tokens * 0.6);
  const cacheWrite = s.tokens - input - output - cacheRead;
  const last = new Date(now - s.agoMin * MIN).toISOString();
  return {
    key: s.key,
    agentId,
    displayName: s.name,
    kind: s.kind ?? (parentKey ? "subagent" : "direct"),
    model: s.model === undefined ? "claude-sonnet-4.5" : s.model,
    channel: s.channel === undefined ? (parentKey ? null : "telegram") : s.channel,
    status: s.status,
    totalTokens: s.tokens,
    inputTokens: input,
    outputTokens: output,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    reasoningTokens: 0,
    costUsd: s.cost,
    unpricedResponses: s.unpriced ?? 0,
    project: s.project ?? null,
    gitBranch: null,
    contextTokens: null,
    contextWindow: null,
    usagePercent: null,
    turnCount: s.turns,
    assistantMessages: s.turns,
    toolCalls: 0,
    errors: 0,
    updatedAt: last,
    startedAt: new Date(now - s.agoMin * MIN - 3 * HOUR).toISOString(),
    lastActivityAt: last,
    parentKey,
    thinkingLevel: null,
    windows: 1,
    subAgents: (s.subs ?? []).map((c) => session(agentId, c, now, s.key)),
  };
}

const tokensIn = (b: readonly MetricsBucket[]): number => b.reduce((n, x) => n + x.tokens, 0);

function metrics(range: SnapshotRange, now: number, shape: (i: number, n: number) => number, turnsPer: number, costPerK: number, more: { unpriced?: number; uptime?: number | null } = {}): Metrics {
  const r = METRICS_RANGE[range];
  const { buckets: n, stepMs } = RANGES[r];
  const lastEnd = Math.ceil(now / stepMs) * stepMs;
  const start = lastEnd - n * stepMs;
  const buckets: MetricsBucket[] = Array.from({ length: n }, (_, i) => {
    const tokens = Math.round(shape(i, n));
    return {
      start: (start + i * stepMs) / 1000,
      end: (start + (i + 1) * stepMs) / 1000,
      label: "",
      tokens,
      inputTokens: Math.round(tokens * 0.2),
      outputTokens: Math.round(tokens * 0.1),
      cacheReadTokens: Math.round(tokens * 0.6),
      cacheWriteTokens: tokens - Math.round(tokens * 0.2) - Math.round(tokens * 0.1) - Math.round(tokens * 0.6),
      costUsd: (tokens / 1000) * costPerK,
      turns: tokens > 0 ? Math.max(1, Math.round(tokens / turnsPer)) : 0,
      errors: 0,
      warnings: 0,
      uptimePercent: more.uptime === null ? null : 100,
    };
  });
  const sum = (f: (b: MetricsBucket) => number): number => buckets.reduce((a, b) => a + f(b), 0);
  return {
    range: r,
    from: new Date(start).toISOString(),
    to: new Date(lastEnd).toISOString(),
    totalTokensK: 48_210,
    lastActivityAt: tokensIn(buckets) > 0 ? new Date(now).toISOString() : null,
    rangeTokensK: Math.round(sum((b) => b.tokens) / 10) / 100,
    totalErrors: 0,
    totalWarnings: 0,
    totalTurns: sum((b) => b.turns),
    costUsd: sum((b) => b.costUsd),
    unpricedResponses: more.unpriced ?? 0,
    uptimePercent: more.uptime === undefined ? 99.6 : more.uptime,
    tokensByModel: [],
    buckets,
  };
}

function event(now: number, agoMin: number, type: EventType, module: string, message: string, agentId: string | null): EventView {
  const ms = now - agoMin * MIN;
  return { ts: Math.floor(ms / 1000), time: new Date(ms).toISOString(), type, level: type === "restart" ? "info" : type === "warning" ? "warn" : "error", module, message, agentId, sessionKey: null };
}

function job(now: number, j: Partial<CronJobInfo> & { id: string; name: string; text: string }): CronJobInfo {
  return {
    id: j.id,
    name: j.name,
    displayName: j.displayName ?? null,
    agentId: j.agentId ?? "main",
    enabled: j.enabled ?? true,
    schedule: { kind: "cron", text: j.text, spec: null },
    lastRunAt: j.lastRunAt === undefined ? now - 20 * MIN : j.lastRunAt,
    lastStatus: j.lastStatus === undefined ? "ok" : j.lastStatus,
    lastDurationMs: j.lastDurationMs === undefined ? 12_400 : j.lastDurationMs,
    lastError: j.lastError ?? null,
    nextRunAt: j.nextRunAt === undefined ? now + 40 * MIN : j.nextRunAt,
    dueAt: j.dueAt ?? null,
    consecutiveErrors: j.consecutiveErrors ?? 0,
  };
}

/** A busy OpenClaw gateway with two agents for `range`, as the collector would pass it. */
function openclawExample(range: SnapshotRange, now: number): OpenClawCardInputs {
  // Gateway-wide lines (agentId null) appear in both agents' event lists, as the queries return them.
  const gatewayWide = [
    event(now, 12, "error", "gateway/ws", "upstream connection reset by peer (code 1006) while streaming a reply to telegram", null),
    event(now, 95, "warning", "gateway/readyz", "event loop p99 delay 240 ms", null),
    event(now, 190, "restart", "gateway", "gateway restarted (pid 48213 -> 48877)", null),
  ];
  const mainEvents = [
    event(now, 5, "error", "agent/main", "model call failed: 529 overloaded; retrying in 4s", "main"),
    event(now, 48, "warning", "channels/discord", "rate limited, backing off 2s", "main"),
    event(now, 300, "error", "tools/browser", "navigation timeout after 30000 ms", "main"),
    ...gatewayWide,
  ].sort((a, b) => b.ts - a.ts);
  const opsEvents = [event(now, 70, "error", "cron/nightly-report", "job exited with status 1: disk quota exceeded on /var/reports", "ops"), ...gatewayWide].sort((a, b) => b.ts - a.ts);

  const day = (i: number, n: number): number => {
    const x = (i + 0.5) / n;
    return 18_000 + 140_000 * Math.max(0, Math.sin(Math.PI * (x * 1.4 - 0.15))) + (i % 5) * 6_000;
  };
  const main: AgentCardInputs = {
    sourceId: "agent:main",
    sessions: [
      session("main", {
        key: "agent:main:telegram:direct:88213377",
        name: "Alice (telegram)",
        status: "ACTIVE",
        tokens: 1_843_220,
        cost: 4.127,
        turns: 214,
        agoMin: 2,
        subs: [
          { key: "agent:main:subagent:7f3c9a1e-5d2b-4c8e-9a61-2b7e0f4d8c13", name: "research: vendor pricing comparison", status: "ACTIVE", model: "claude-haiku-4.5", tokens: 182_400, cost: 0.21, turns: 6, agoMin: 3 },
          {
            key: "agent:main:subagent:0b1d2c3e-4f50-6172-8394-a5b6c7d8e9f0",
            name: "summarise thread",
            status: "DONE",
            model: "claude-haiku-4.5",
            tokens: 24_800,
            cost: 0.03,
            turns: 2,
            agoMin: 40,
            subs: [{ key: "agent:main:subagent:deadbeef-0000-4000-8000-000000000001", name: "fetch attachments", status: "FAILED", model: "claude-haiku-4.5", tokens: 3_100, cost: 0.004, turns: 1, agoMin: 41 }],
          },
        ],
      }, now),
      session("main", { key: "agent:main:discord:group:1203948571234567890:thread:998877665544332211", name: "agent:main:discord:group:1203948571234567890:thread:998877665544332211", kind: "group", channel: "discord", status: "IDLE", tokens: 962_000, cost: 2.61, turns: 88, agoMin: 130 }, now),
      session("main", { key: "agent:main:feishu:group:oc_5f2a", name: "产品讨论群：发布计划与用户反馈", kind: "group", channel: "feishu", status: "ACTIVE", model: "qwen3-max", tokens: 512_660, cost: 0.94, turns: 57, agoMin: 9 }, now),
      session("main", { key: "agent:main:main", name: "main", status: "IDLE", channel: "webchat", tokens: 95_000, cost: 0.31, turns: 12, agoMin: 400 }, now),
      session("main", { key: "agent:main:telegram:direct:1200", name: "Bob", status: "FAILED", tokens: 40_100, cost: 0.12, turns: 4, agoMin: 600 }, now),
      session("main", { key: "agent:main:whatsapp:direct:+4917612345678", name: "+49 176 12345678", channel: "whatsapp", status: "DONE", tokens: 22_500, cost: 0.05, turns: 3, agoMin: 1500 }, now),
    ],
    metrics: metrics(range, now, day, 9_000, 0.0021),
    events: mainEvents,
    lifetime: {
      isReady: true,
      createdAt: new Date(now - 41 * 24 * HOUR).toISOString(),
      daysSinceCreation: 41,
      totalSessions: 318,
      totalInputTokens: 9_100_000,
      totalOutputTokens: 3_900_000,
      totalCacheReadTokens: 31_000_000,
      totalCacheWriteTokens: 2_400_000,
      totalReasoningTokens: 0,
      totalTokens: 46_400_000,
      totalUserMessages: 5_212,
      totalAssistantMessages: 6_020,
      totalCostUsd: 98.34,
      unpricedResponses: 0,
    },
    usageCost: { currency: "USD", totalUsd: 98.34, todayUsd: 3.82, monthUsd: 3.82, monthTokens: 0, byModel: [], byDay: [] },
  };
  const ops: AgentCardInputs = {
    sourceId: "agent:ops",
    sessions: [
      session("ops", { key: "agent:ops:cron:nightly-report", name: "nightly report", kind: "cron", channel: null, status: "FAILED", model: "gpt-5-mini", tokens: 310_000, cost: 0.42, turns: 30, agoMin: 70 }, now),
      session("ops", { key: "agent:ops:slack:direct:U02ABCDEF", name: "on-call (slack)", channel: "slack", status: "ACTIVE", model: "gpt-5", tokens: 120_500, cost: 0.66, turns: 19, agoMin: 1 }, now),
    ],
    metrics: metrics(range, now, (i, n) => (i > n - 6 ? 9_000 + i * 300 : i % 3 === 0 ? 4_000 : 0), 6_000, 0.004),
    events: opsEvents,
    lifetime: {
      isReady: true,
      createdAt: new Date(now - 12 * 24 * HOUR).toISOString(),
      daysSinceCreation: 12,
      totalSessions: 41,
      totalInputTokens: 1_000_000,
      totalOutputTokens: 400_000,
      totalCacheReadTokens: 1_500_000,
      totalCacheWriteTokens: 100_000,
      totalReasoningTokens: 0,
      totalTokens: 3_000_000,
      totalUserMessages: 300,
      totalAssistantMessages: 320,
      totalCostUsd: 7.9,
      unpricedResponses: 0,
    },
    usageCost: { currency: "USD", totalUsd: 7.9, todayUsd: 0.71, monthUsd: 0.71, monthTokens: 0, byModel: [], byDay: [] },
  };
  return {
    provider: "openclaw",
    gateway: { state: "UP", running: true, version: "2026.9.6", uptimeSeconds: 3 * 86400 + 4 * 3600 + 17 * 60, pid: 48877, updateAvailable: true, latestVersion: "2026.9.8" },
    resources: { cpuPercent: 7.4, memoryMB: 612, diskMB: 2_380 },
    channels: [
      { provider: "telegram", name: "default", connected: true, latencyMs: 84 },
      { provider: "discord", name: "default", connected: true, latencyMs: 121 },
      { provider: "feishu", name: "feishu", connected: true, latencyMs: 233 },
      { provider: "whatsapp", name: "business", connected: false, latencyMs: null },
      { provider: "slack", name: "ops-workspace", connected: true, latencyMs: 67 },
    ],
    sources: [
      { id: "agent:main", name: "main", status: "CONNECTED", lastError: null },
      { id: "agent:ops", name: "ops", status: "CONNECTED", lastError: null },
    ],
    agents: [main, ops],
    cronJobs: [
      job(now, { id: "hb", name: "heartbeat", displayName: "Heartbeat (main)", text: "every 30m", lastRunAt: now - 2 * MIN, lastDurationMs: 3_200, nextRunAt: now + 28 * MIN }),
      job(now, { id: "nightly", name: "nightly-report", agentId: "ops", text: "0 3 * * * (Europe/Berlin)", lastStatus: "error", lastError: "exit 1", consecutiveErrors: 3, lastRunAt: now - 11 * HOUR, nextRunAt: now + 13 * HOUR }),
      job(now, { id: "digest", name: "每日摘要", text: "0 9 * * 1-5 (Asia/Shanghai)", lastRunAt: now - 5 * HOUR, lastDurationMs: 48_000, nextRunAt: now + 19 * HOUR }),
      // Due 25 minutes ago and not run: overdue.
      job(now, { id: "backup", name: "backup workspace", text: "every 1h", lastRunAt: now - 85 * MIN, lastDurationMs: 9_800, nextRunAt: now - 25 * MIN, dueAt: now - 25 * MIN }),
      job(now, { id: "cleanup", name: "cleanup old transcripts", text: "every 6h", enabled: false, lastRunAt: now - 30 * HOUR, nextRunAt: null }),
      job(now, { id: "remind", name: "reminder: renew certificate", text: "at 2026-03-20T09:00:00Z", lastStatus: null, lastRunAt: null, lastDurationMs: null, nextRunAt: Date.UTC(2026, 2, 20, 9) }),
    ],
    cronRuns: {},
  };
}

/** A Claude Code install: two projects, a sub-agent, one session of a model with no known price. */
function claudeCodeExample(range: SnapshotRange, now: number): CliCardInputs {
  const src = "claude-code:default";
  const events = [
    event(now, 22, "error", "api", "API error 529: overloaded_error (request req_011CVr9)", null),
    event(now, 140, "warning", "api", "rate limited (429); retrying in 8 s, attempt 2 of 10", null),
  ];
  return {
    provider: "claude-code",
    cli: { versions: ["2.1.330", "2.1.318"], liveSessions: 2 },
    sources: [{ id: src, name: "default", status: "CONNECTED", lastError: null }],
    agents: [
      {
        sourceId: src,
        sessions: [
          session("default", {
            key: "5f0c1e2a-8b7d-4c3e-9a10-2b3c4d5e6f70",
            name: "Refactor the billing module to use the new invoice API",
            project: "/home/ana/src/webshop",
            channel: null,
            status: "ACTIVE",
            model: "claude-opus-4-5",
            tokens: 2_214_300,
            cost: 6.482,
            turns: 31,
            agoMin: 1,
            subs: [{ key: "5f0c1e2a-8b7d-4c3e-9a10-2b3c4d5e6f70:subagent:a1b2c3", name: "find every caller of createInvoice", project: "/home/ana/src/webshop", status: "DONE", model: "claude-haiku-4-5", tokens: 96_400, cost: 0.06, turns: 1, agoMin: 18 }],
          }, now),
          session("default", { key: "0d9e8f7a-6b5c-4d3e-8f21-0a1b2c3d4e5f", name: "修复结账页面的时区问题", project: "/home/ana/src/webshop", channel: null, status: "IDLE", model: "claude-sonnet-4-5", tokens: 688_000, cost: 1.214, turns: 12, agoMin: 95 }, now),
          session("default", { key: "7c6b5a49-3827-4160-9f8e-7d6c5b4a3928", name: "draft the release notes", project: "/home/ana/notes", channel: null, status: "DONE", model: "claude-next-preview", tokens: 142_900, cost: 0, unpriced: 14, turns: 5, agoMin: 300 }, now),
        ],
        sessionCounts: { total: 4, active: 1 },
        metrics: metrics(range, now, (i, n) => (i > n * 0.45 ? 40_000 + ((i * 7919) % 13) * 9_000 : (i % 4) * 5_000), 60_000, 0.0029, { unpriced: 14, uptime: null }),
        events,
        lifetime: {
          isReady: true,
          createdAt: new Date(now - 26 * 24 * HOUR).toISOString(),
          daysSinceCreation: 26,
          totalSessions: 84,
          totalInputTokens: 800_000,
          totalOutputTokens: 1_900_000,
          totalCacheReadTokens: 58_000_000,
          totalCacheWriteTokens: 4_300_000,
          totalReasoningTokens: 210_000,
          totalTokens: 65_000_000,
          totalUserMessages: 940,
          totalAssistantMessages: 6_300,
          totalCostUsd: 142.7,
          unpricedResponses: 14,
        },
        usageCost: { currency: "USD", totalUsd: 142.7, todayUsd: 8.19, monthUsd: 8.19, monthTokens: 0, byModel: [], byDay: [] },
      },
    ],
  };
}

/** Readings of the example's 5-hour window over the last half hour: 24 points an hour, the last at 62 %. */
function example5h(now: number): WindowSample[] {
  return [28, 16, 4].map((ago) => ({ ts: now - ago * MIN, usedPercent: 62 - (24 * (ago - 4)) / 60, resetsAt: now + 108 * MIN }));
}

/** A Codex install with the plan's rate limits: the weekly window past the warning line. */
function codexExample(range: SnapshotRange, now: number): CliCardInputs {
  const src = "codex:default";
  return {
    provider: "codex",
    cli: { versions: ["0.169.0"], liveSessions: 1 },
    rateLimits: [
      {
        source: src,
        limitId: "codex",
        // Burning 24 points an hour (the last reading 4 min ago): full before the 5-hour window resets.
        primary: { usedPercent: 62, windowMinutes: 300, resetsAt: new Date(now + 108 * MIN).toISOString(), projection: projectWindow(example5h(now), now) },
        secondary: { usedPercent: 84, windowMinutes: 10_080, resetsAt: new Date(now + 3 * 24 * HOUR + 5 * HOUR).toISOString(), projection: projectWindow([], now) },
        planType: "plus",
        credits: null,
        updatedAt: new Date(now - 4 * MIN).toISOString(),
        stale: false,
      },
    ],
    sources: [{ id: src, name: "default", status: "CONNECTED", lastError: null }],
    agents: [
      {
        sourceId: src,
        sessions: [
          session("default", { key: "019a7b2c-3d4e-7f50-8a61-b2c3d4e5f607", name: "fix the flaky integration tests in CI", project: "/home/ana/src/infra-scripts", channel: null, status: "ACTIVE", model: "gpt-5-codex", tokens: 1_120_000, cost: 1.87, turns: 9, agoMin: 3 }, now),
          session("default", { key: "019a7a11-2233-7445-8566-778899aabbcc", name: "explain the deploy pipeline", project: "/home/ana/src/webshop", channel: null, status: "DONE", model: "gpt-5-mini", tokens: 84_200, cost: 0.02, turns: 2, agoMin: 420 }, now),
        ],
        sessionCounts: { total: 2, active: 1 },
        metrics: metrics(range, now, (i, n) => (i > n * 0.6 ? 30_000 + (i % 3) * 14_000 : 0), 70_000, 0.0016, { uptime: null }),
        events: [event(now, 64, "error", "turn", "turn failed: internal_server_error (stream disconnected before completion)", null)],
        lifetime: {
          isReady: true,
          createdAt: new Date(now - 9 * 24 * HOUR).toISOString(),
          daysSinceCreation: 9,
          totalSessions: 23,
          totalInputTokens: 3_100_000,
          totalOutputTokens: 420_000,
          totalCacheReadTokens: 9_800_000,
          totalCacheWriteTokens: 0,
          totalReasoningTokens: 160_000,
          totalTokens: 13_320_000,
          totalUserMessages: 61,
          totalAssistantMessages: 410,
          totalCostUsd: 18.4,
          unpricedResponses: 0,
        },
        usageCost: { currency: "USD", totalUsd: 18.4, todayUsd: 2.05, monthUsd: 2.05, monthTokens: 0, byModel: [], byDay: [] },
      },
    ],
  };
}

function geminiCliExample(range: SnapshotRange, now: number): CliCardInputs {
  const src = "gemini-cli:default";
  return {
    provider: "gemini-cli",
    cli: { versions: ["0.61.0"], liveSessions: 0 },
    rateLimits: [],
    sources: [{ id: src, name: "default", status: "CONNECTED", lastError: null }],
    agents: [
      {
        sourceId: src,
        sessions: [session("default", { key: "ce196191-a580-4c7b-a111-e68c686fa8cf", name: "summarize the repository layout", project: "/home/ana/src/api-server", channel: null, status: "DONE", model: "gemini-2.5-pro", tokens: 61_400, cost: 0.09, turns: 2, agoMin: 95 }, now)],
        sessionCounts: { total: 1, active: 0 },
        metrics: metrics(range, now, (i, n) => (i > n * 0.8 ? 12_000 : 0), 20_000, 0.0012, { uptime: null }),
        events: [],
        lifetime: {
          isReady: true,
          createdAt: new Date(now - 2 * 24 * HOUR).toISOString(),
          daysSinceCreation: 2,
          totalSessions: 6,
          totalInputTokens: 52_000,
          totalOutputTokens: 4_100,
          totalCacheReadTokens: 88_000,
          totalCacheWriteTokens: 0,
          totalReasoningTokens: 2_900,
          totalTokens: 144_100,
          totalUserMessages: 8,
          totalAssistantMessages: 14,
          totalCostUsd: 0.31,
          unpricedResponses: 0,
        },
        usageCost: { currency: "USD", totalUsd: 0.31, todayUsd: 0.12, monthUsd: 0.31, monthTokens: 0, byModel: [], byDay: [] },
      },
    ],
  };
}

/** The checks the daemon would give over the providers, as ReadModel.overallHealth() names them. */
function exampleHealth(providers: readonly CardProvider[]): HealthInput {
  const checks: HealthInput["checks"] = [];
  if (providers.includes("openclaw")) {
    checks.push(
      example("gateway", "PASS", msg("health.gateway.answered", { latency: millis(12) })),
      example("ready", "PASS", null),
      example("event-loop", "WARN", msg("health.eventLoop.delay", { delay: millis(240) })),
      example("channels", "WARN", msg("health.channels.someDown", { channels: list(["whatsapp"]) })),
      example("sources", "PASS", msg("health.sources.connected", { n: 2 })),
    );
  }
  if (providers.includes("claude-code")) {
    checks.push(
      example("claude-code/sources", "PASS", msg("health.sources.installsConnected", { n: 1 })),
      example("claude-code/pricing", "WARN", msg("health.pricing.unpriced", { n: 14, models: list(["claude-next-preview"]) })),
    );
  }
  if (providers.includes("codex")) {
    checks.push(
      example("codex/sources", "PASS", msg("health.sources.installsConnected", { n: 1 })),
      example("codex/pricing", "PASS", msg("health.pricing.ok")),
      example("codex/rate-limit", "WARN", msg("health.rateLimit.used", { used: 84, window: msg("health.rateLimit.secondary"), source: "codex:default" })),
    );
  }
  checks.push(example("disk", "PASS", msg("health.disk.free", { free: sizeMB(48213) })), example("store", "PASS", null));
  const h = healthOf(checks);
  return { status: h.status, verdict: h.verdict, checks };
}

/**
 * Example inputs for `range`: by default every provider (a busy OpenClaw gateway with two agents,
 * a Claude Code install, a Codex install), or the `providers` named, as the collector would pass them.
 */
export function exampleInputs(range: SnapshotRange = "24h", now = EXAMPLE_NOW, providers: readonly CardProvider[] = CARD_PROVIDERS): CardInputs {
  const make: Record<CardProvider, () => ProviderCardInputs> = {
    openclaw: () => openclawExample(range, now),
    "claude-code": () => claudeCodeExample(range, now),
    codex: () => codexExample(range, now),
    "gemini-cli": () => geminiCliExample(range, now),
  };
  return {
    appVersion: VERSION,
    health: exampleHealth(providers),
    providers: CARD_PROVIDERS.filter((p) => providers.includes(p)).map((p) => make[p]()),
    timeZone: "Europe/Berlin",
  };
}

/** A fresh gateway with one agent and nothing recorded yet: no sessions, tokens, events, channels or jobs. */
export function emptyInputs(range: SnapshotRange = "24h", now = EXAMPLE_NOW): CardInputs {
  const zero = metrics(range, now, () => 0, 1, 0, { uptime: null });
  zero.totalTokensK = 0;
  return {
    appVersion: VERSION,
    health: { status: "HEALTHY", verdict: "OK", checks: [] },
    providers: [
      {
        provider: "openclaw",
        gateway: { state: "UP", running: true, version: null, uptimeSeconds: 0, pid: null, updateAvailable: false, latestVersion: null },
        resources: { cpuPercent: null, memoryMB: null, diskMB: null },
        channels: [],
        sources: [],
        agents: [{ sourceId: "agent:main", sessions: [], metrics: zero, events: [] }],
        cronJobs: [],
      },
    ],
    timeZone: "UTC",
  };
}
