// End to end with the REAL Codex CLI (issue 11): codex exec makes real turns against the fake OpenAI
// Responses API (../shared/tools/run-codex.sh through test/helpers/codex-runner.ts), and a real
// gateway-insights daemon reads its CODEX_HOME. After each turn the daemon must show it: numbers
// computed here from the fake API's request log (the usage and rate-limit headers it served) AND
// from the rollout files, which must agree with each other and with GraphQL (sessions,
// lifetimeStats, events, ProviderCSystem.rateLimits and its history), /metrics, the card JSON and
// `insightsctl usage --json`. Turns: a tool call, a resume with a model switch, an HTTP 500 that
// fails the turn (an error event), a 429 (a warning event, primary window at 100 %); the fake API
// raises its rate-limit headers per request and the gauges follow. Then a daemon restart.
// Required: CI always runs this; a developer may skip it locally with GI_SKIP_REAL_CLI=1.
import * as fs from "node:fs";
import { suite, test } from "uvu";
import * as assert from "uvu/assert";
import { systemClock } from "../shared/base/clock.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { realCliSkipReason, startCodex, type CodexRun } from "./helpers/codex-runner.js";
import { expected, oracleCost, responsesOf, rollouts, type RawLine, type Rollout } from "./helpers/codex-oracle.js";
import { gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { scrape, sumOf } from "./helpers/prometheus.js";
import { cardSummary, checkUsageTotals, settle, snapshotJson, usageJson } from "./helpers/e2e-checks.js";

const skip = realCliSkipReason();
const SOURCE = "codex:default";
const RL = { primaryStart: 10, secondaryStart: 20, step: 5 };

interface SessionRow {
  key: string;
  model: string | null;
  status: string;
  kind: string;
  project: string | null;
  turnCount: number;
  assistantMessages: number;
  toolCalls: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  totalTokens: number;
  costUsd: number;
  unpricedResponses: number;
  windows: number;
}

interface Lifetime {
  isReady: boolean;
  totalSessions: number;
  totalInputTokens: number;
  totalOutputTokens: number;
  totalCacheReadTokens: number;
  totalCacheWriteTokens: number;
  totalReasoningTokens: number;
  totalTokens: number;
  totalUserMessages: number;
  totalAssistantMessages: number;
  totalCostUsd: number;
  unpricedResponses: number;
}

interface Agent {
  source: {
    source: { status: string };
    lifetimeStats: Lifetime;
    sessions: SessionRow[];
    eventCounts: { error: number; warning: number; restart: number };
    events: Array<{ type: string; sessionKey: string | null; message: string }>;
  };
}

const SESSION_FIELDS = "key model status kind project turnCount assistantMessages toolCalls errors inputTokens outputTokens cacheReadTokens cacheWriteTokens reasoningTokens totalTokens costUsd unpricedResponses windows";
const AGENT = `{ source(selector: { id: "${SOURCE}" }) { ... on AgentNamespace {
  source { status }
  lifetimeStats { isReady totalSessions totalInputTokens totalOutputTokens totalCacheReadTokens totalCacheWriteTokens totalReasoningTokens totalTokens totalUserMessages totalAssistantMessages totalCostUsd unpricedResponses }
  sessions(filter: { grouped: false, limit: 1000 }) { ${SESSION_FIELDS} }
  eventCounts { error warning restart }
  events { type sessionKey message } } } }`;

interface Window {
  usedPercent: number;
  windowMinutes: number | null;
}
interface Sys {
  system: {
    provider: string;
    health: { status: string; checks: Array<{ name: string; status: string }> };
    versions: string[];
    rateLimits: { source: string; primary: Window | null; secondary: Window | null; updatedAt: string; stale: boolean; history: Array<{ time: string; primaryUsedPercent: number | null; secondaryUsedPercent: number | null }> } | null;
  };
}
const SYSTEM = `{ system(provider: PROVIDER_C) { provider health { status checks { name status } } ... on ProviderCSystem {
  versions rateLimits { source primary { usedPercent windowMinutes } secondary { usedPercent windowMinutes } updatedAt stale history(days: 1) { time primaryUsedPercent secondaryUsedPercent } } } } }`;

/** What the fake API served: per response its usage in the shared vocabulary, and the failures. */
function served(cx: CodexRun): { responses: Map<string, { input: number; cacheRead: number; output: number; reasoning: number }>; fail500: number; fail429: number } {
  const responses = new Map<string, { input: number; cacheRead: number; output: number; reasoning: number }>();
  let fail500 = 0;
  let fail429 = 0;
  for (const r of cx.requests()) {
    if (r.reply === 500) fail500++;
    if (r.reply === 429) fail429++;
    if (typeof r.response_id !== "string") continue;
    // any: the fake API's own log line.
    const u = r.usage as Record<string, any>;
    const cached = u.input_tokens_details?.cached_tokens ?? 0;
    responses.set(r.response_id, { input: u.input_tokens - cached, cacheRead: cached, output: u.output_tokens, reasoning: u.output_tokens_details?.reasoning_tokens ?? 0 });
  }
  return { responses, fail500, fail429 };
}

/** Why the rollouts and the request log disagree (they must hold the same responses with the same usage), or null. */
function logMismatch(cx: CodexRun, rs: Rollout[]): string | null {
  const log = served(cx).responses;
  const files = new Map(rs.flatMap((r) => responsesOf(r.lines)).map((r) => [r.key, r.mapped]));
  const a = JSON.stringify([...files.keys()].sort());
  const b = JSON.stringify([...log.keys()].sort());
  if (a !== b) return `responses in the rollouts ${a} != served ${b}`;
  for (const [id, m] of files) {
    const l = log.get(id);
    if (JSON.stringify([m.input, m.cacheRead, m.output, m.reasoning, m.cacheWrite]) !== JSON.stringify([l?.input, l?.cacheRead, l?.output, l?.reasoning, 0])) return `response ${id}: ${JSON.stringify(m)} != served ${JSON.stringify(l)}`;
  }
  return null;
}

/** Every `token_count.rate_limits.primary`, oldest first by line time. */
function rateLines(rs: Rollout[]): Array<{ ts: number; primary: number; secondary: number }> {
  return rs
    .flatMap((r) => r.lines.filter((l: RawLine) => l.type === "event_msg" && l.payload.type === "token_count" && l.payload.rate_limits?.primary))
    .map((l: RawLine) => ({ ts: Date.parse(l.timestamp), primary: l.payload.rate_limits.primary.used_percent as number, secondary: l.payload.rate_limits.secondary.used_percent as number }))
    .sort((a, b) => a.ts - b.ts);
}

function collapse(values: Array<[number | null, number | null]>): string[] {
  const out: string[] = [];
  for (const [p, s] of values) if (out[out.length - 1] !== `${p}/${s}`) out.push(`${p}/${s}`);
  return out;
}

const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-6;

/** Why GraphQL does not (yet) show what the files say, or null when it does. */
function mismatch(a: Agent, rs: Rollout[]): string | null {
  const oracle = expected(rs);
  const t = oracle.total;
  const l = a.source.lifetimeStats;
  const got = [l.totalSessions, l.totalInputTokens, l.totalOutputTokens, l.totalCacheReadTokens, l.totalCacheWriteTokens, l.totalReasoningTokens, l.totalUserMessages, l.totalAssistantMessages, l.unpricedResponses];
  const want = [rs.length, t.input, t.output, t.cacheRead, t.cacheWrite, t.reasoning, t.prompts, t.responses, t.unpriced];
  if (JSON.stringify(got) !== JSON.stringify(want)) return `lifetimeStats ${JSON.stringify(got)} != ${JSON.stringify(want)}`;
  if (!near(l.totalCostUsd, t.cost)) return `lifetime cost ${l.totalCostUsd} != ${t.cost}`;
  for (const [key, s] of oracle.bySession) {
    const v = a.source.sessions.find((x) => x.key === key);
    if (!v) return `session ${key} not listed`;
    const g = [v.inputTokens, v.outputTokens, v.cacheReadTokens, v.cacheWriteTokens, v.reasoningTokens, v.turnCount, v.assistantMessages, v.toolCalls, v.errors, v.unpricedResponses];
    const w = [s.input, s.output, s.cacheRead, s.cacheWrite, s.reasoning, s.prompts, s.responses, s.toolCalls, s.errors, s.unpriced];
    if (JSON.stringify(g) !== JSON.stringify(w)) return `session ${key}: ${JSON.stringify(g)} != ${JSON.stringify(w)}`;
    if (!near(v.costUsd, s.cost)) return `session ${key}: cost ${v.costUsd} != ${s.cost}`;
  }
  const errors = [...oracle.bySession.values()].reduce((n, s) => n + s.errors, 0);
  const warnings = [...oracle.bySession.values()].reduce((n, s) => n + s.warnings, 0);
  if (a.source.eventCounts.error !== errors || a.source.eventCounts.warning !== warnings) return `eventCounts ${JSON.stringify(a.source.eventCounts)} != ${errors}/${warnings}`;
  return null;
}

/**
 * Polls until the request log, the rollouts and GraphQL agree (the fake API logs a response just
 * after sending it, the daemon reads on its own pace); returns the answers and the oracle.
 */
async function untilShown(d: TestDaemon, cx: CodexRun, what: string): Promise<{ a: Agent; rs: Rollout[]; oracle: ReturnType<typeof expected> }> {
  const v = await settle(
    what,
    async () => ({ rs: rollouts(cx.codexHome), a: await gqlData<Agent>(d, AGENT) }),
    (x) => logMismatch(cx, x.rs) ?? mismatch(x.a, x.rs),
  );
  return { ...v, oracle: expected(v.rs) };
}

/** Polls until the rate-limit gauge shows `primary`; checks it against the newest rollout line and the history. */
async function untilGauge(d: TestDaemon, rs: Rollout[], primary: number, what: string): Promise<Sys> {
  const lines = rateLines(rs);
  const newest = lines[lines.length - 1];
  assert.is(newest?.primary, primary, `${what}: the newest rollout line says ${newest?.primary}`);
  const sys = await settle(what, () => gqlData<Sys>(d, SYSTEM), (s) => {
    const r = s.system.rateLimits;
    if (!r) return "no rate limits yet";
    if (r.primary?.usedPercent !== primary || r.updatedAt !== new Date(newest!.ts).toISOString()) return `primary ${r.primary?.usedPercent} at ${r.updatedAt}`;
    return null;
  });
  const r = sys.system.rateLimits!;
  assert.equal([r.source, r.secondary?.usedPercent, r.primary?.windowMinutes, r.secondary?.windowMinutes, r.stale], [SOURCE, newest?.secondary, 300, 10080, false]);
  assert.equal(collapse(r.history.map((h) => [h.primaryUsedPercent, h.secondaryUsedPercent])), collapse(lines.map((l) => [l.primary, l.secondary])), `${what}: history`);
  // The same gauges in /metrics, as ratios.
  const m = await scrape(d);
  assert.ok(near(sumOf(m, "insights_rate_limit_used_ratio", { source: SOURCE, window: "primary" }), primary / 100), `${what}: /metrics primary`);
  assert.ok(near(sumOf(m, "insights_rate_limit_used_ratio", { source: SOURCE, window: "secondary" }), (newest?.secondary ?? -1) / 100), `${what}: /metrics secondary`);
  assert.is(sumOf(m, "insights_rate_limit_stale", { source: SOURCE }), 0);
  return sys;
}

if (skip) {
  console.log(`e2e-codex.test: the real Codex CLI was not started (${skip})`);
  const skipped = suite("e2e codex (skipped)");
  skipped("the skip switch is honoured only outside CI", () => {
    assert.not.ok(process.env.CI);
    assert.is(process.env.GI_SKIP_REAL_CLI, "1");
  });
  skipped.run();
} else {
  test.after(removeTempDirs);

  test("real Codex turns: a tool call, a resume with a model switch, a 500 and a 429, rate-limit gauges; GraphQL, /metrics, card, usage and a restart agree with the files", async () => {
    let cx: CodexRun | undefined;
    let d: TestDaemon | undefined;
    try {
      cx = await startCodex({ rateLimits: RL });
      const run = cx;
      console.log(`e2e codex: runner up in ${run.timings.upMs} ms (installed: ${run.timings.installed})`);
      d = await startDaemon({
        clock: systemClock,
        env: { HOME: run.home, CODEX_HOME: run.codexHome, INSIGHTS_OPENCLAW: "off", INSIGHTS_CLAUDE_CODE: "off", INSIGHTS_CODEX: "on" },
      });
      const daemon = d;
      const started = Date.now();
      const step = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
        const t = Date.now();
        const v = await fn();
        console.log(`e2e codex: ${label} ${Date.now() - t} ms`);
        return v;
      };

      // 1. A turn with a tool call: two responses; the gauge at the second response's headers.
      const t1 = await step("turn 1 (tool call)", () => run.turn(["--json", "list the files here [[SHELL: ls]]"]));
      assert.is(t1.exitCode, 0, t1.stderr.slice(-800));
      const s1 = t1.sessionId as string;
      assert.ok(s1, "the thread id");
      const v1 = await step("daemon shows turn 1", () => untilShown(daemon, run, "turn 1"));
      const first = v1.a.source.sessions.find((s) => s.key === s1);
      assert.equal([first?.turnCount, first?.toolCalls, first?.assistantMessages, first?.model, first?.status], [1, 1, 2, "gpt-5-codex", "ACTIVE"]);
      // The project is the cwd the rollout names (the run's work dir, however the path is spelled).
      const project = first?.project as string;
      assert.is(project, (v1.rs[0]?.lines[0] as RawLine).payload.cwd);
      assert.is(fs.realpathSync(project), fs.realpathSync(run.workDir));
      assert.ok((first?.reasoningTokens ?? 0) > 0, "gpt-5 models get reasoning tokens");
      assert.is(served(run).responses.size, 2);
      await untilGauge(daemon, v1.rs, RL.primaryStart + RL.step, "gauge after turn 1");

      // 2. Resume with -m gpt-5-mini: the same file, a second model, the gauge one step further per response.
      const t2 = await step("turn 2 (resume, gpt-5-mini)", () => run.turn(["--json", "-m", "gpt-5-mini", "resume", "--last", "summarise what you found"]));
      assert.is(t2.exitCode, 0, t2.stderr.slice(-800));
      assert.is(t2.sessionId, s1, "resume appends to the same thread");
      const v2 = await step("daemon shows turn 2", () => untilShown(daemon, run, "turn 2"));
      assert.is(v2.rs.length, 1, "one rollout file");
      const resumed = v2.a.source.sessions.find((s) => s.key === s1);
      assert.equal([resumed?.turnCount, resumed?.windows, resumed?.model], [2, 1, "gpt-5-mini"]);
      const servedCount = served(run).responses.size;
      await untilGauge(daemon, v2.rs, RL.primaryStart + RL.step * (servedCount - 1), "gauge after turn 2");

      // 3. HTTP 500 on every attempt: the turn fails, an error event, a FAILED session with no tokens; the gauge stays.
      const t3 = await step("turn 3 ([[FAIL500]])", () => run.turn(["--json", "deploy the preview [[FAIL500]]"]));
      assert.is.not(t3.exitCode, 0);
      const s3 = t3.sessionId as string;
      assert.ok(served(run).fail500 >= 1);
      const v3 = await step("daemon shows turn 3", () => untilShown(daemon, run, "turn 3"));
      // RUNNING (so ACTIVE) for as long as the daemon last saw the CLI's process live, FAILED once it is gone.
      const settled = await settle("the failed session FAILED", () => gqlData<Agent>(daemon, AGENT), (x) => {
        const st = x.source.sessions.find((s) => s.key === s3)?.status;
        return st === "FAILED" ? null : `status ${st}`;
      });
      const failed = settled.source.sessions.find((s) => s.key === s3);
      assert.equal([failed?.status, failed?.errors, failed?.totalTokens, failed?.turnCount], ["FAILED", 1, 0, 1]);
      const error = v3.a.source.events.find((e) => e.type === "error");
      assert.is(error?.sessionKey, s3);
      await untilGauge(daemon, v3.rs, RL.primaryStart + RL.step * (servedCount - 1), "gauge after the 500");

      // 4. HTTP 429: a warning event (not an error), the primary window at 100 %, the rate-limit check FAIL.
      const t4 = await step("turn 4 ([[FAIL429]])", () => run.turn(["--json", "one more thing [[FAIL429]]"]));
      assert.is.not(t4.exitCode, 0);
      const s4 = t4.sessionId as string;
      assert.ok(served(run).fail429 >= 1);
      const v4 = await step("daemon shows turn 4", () => untilShown(daemon, run, "turn 4"));
      assert.equal(v4.a.source.eventCounts, { error: 1, warning: 1, restart: 0 });
      const limited = v4.a.source.sessions.find((s) => s.key === s4);
      assert.equal([limited?.errors, limited?.totalTokens, limited?.turnCount], [0, 0, 1]);
      assert.equal(v4.a.source.events.map((e) => [e.type, e.sessionKey]), [["warning", s4], ["error", s3]]);
      const sys = await untilGauge(daemon, v4.rs, 100, "gauge after the 429");
      assert.is(sys.system.health.checks.find((c) => c.name === "rate-limit")?.status, "FAIL");
      assert.ok(sys.system.versions.includes(run.version), `versions ${sys.system.versions}`);

      // 5. The same numbers everywhere: /metrics, the card, insightsctl usage --json.
      const { oracle, rs } = v4;
      const total = oracle.total;
      const m = await scrape(daemon);
      for (const [type, want] of [["input", total.input], ["output", total.output], ["cache_read", total.cacheRead], ["cache_write", total.cacheWrite]] as const) {
        assert.is(sumOf(m, "insights_tokens_total", { provider: "codex", source: SOURCE, type }), want, `/metrics ${type}`);
      }
      for (const model of ["gpt-5-codex", "gpt-5-mini"]) {
        const rsps = rs.flatMap((r) => responsesOf(r.lines)).filter((r) => r.model === model);
        assert.ok(rsps.length > 0, model);
        const want = rsps.reduce((n, r) => n + r.mapped.input + r.mapped.output + r.mapped.cacheRead + r.mapped.cacheWrite, 0);
        assert.is(sumOf(m, "insights_tokens_total", { source: SOURCE, model, project }), want, `/metrics tokens of ${model}`);
        assert.ok(near(sumOf(m, "insights_cost_usd_total", { source: SOURCE, model }), rsps.reduce((n, r) => n + (oracleCost(r) ?? 0), 0)), `/metrics cost of ${model}`);
        assert.is(sumOf(m, "insights_responses_total", { source: SOURCE, model }), rsps.length);
      }
      assert.ok(near(sumOf(m, "insights_cost_usd_total", { source: SOURCE }), total.cost), "/metrics cost");
      assert.is(sumOf(m, "insights_reasoning_tokens_total", { source: SOURCE }), total.reasoning);

      const card = cardSummary(await snapshotJson(daemon), "codex");
      assert.is(card.tokens, total.input + total.output + total.cacheRead + total.cacheWrite, "card tokens");
      assert.is(card.turns, total.prompts, "card turns");
      assert.is(card.errors, 1, "card errors");

      checkUsageTotals((await usageJson(daemon)).totals, total);
      console.log(`e2e codex: whole run ${Date.now() - started} ms`);

      // 6. A daemon restart on the same store counts nothing twice.
      await daemon.stop({ keep: true });
      d = await startDaemon({ again: daemon, clock: systemClock });
      const again = d;
      const after = await step("restarted daemon shows the same", () => settle("after a restart", () => gqlData<Agent>(again, AGENT), (x) => (x.source.lifetimeStats.isReady ? mismatch(x, rs) : "not ready")));
      assert.equal(after.source.eventCounts, { error: 1, warning: 1, restart: 0 });
      await untilGauge(again, rs, 100, "gauge after a restart");
    } finally {
      await d?.stop();
      await cx?.stop();
    }
  });

  test.run();
}

