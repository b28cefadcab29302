// End to end with the REAL Claude Code CLI (issue 10): `claude -p` makes real turns against the fake
// Anthropic API (../shared/tools/run-claude-code.sh through test/helpers/claude-code-runner.ts), and
// a real gateway-insights daemon reads that HOME. After each turn the daemon must show it: numbers
// computed here from the fake API's request log (the usage it served per response) AND from the
// transcript files, which must agree with each other and with GraphQL (sessions with the sub-agent
// nested, lifetimeStats, events), /metrics, the card JSON and `insightsctl usage --json`. Turns: a
// Bash call, a sub-agent, two overloaded attempts then success (warnings), an API error after
// retries (an error event), a resume. Then a transcript is deleted (its totals stay) and the daemon
// restarts (nothing counted twice).
// Required: CI always runs this; a developer may skip it locally with GI_SKIP_REAL_CLI=1.
import * as fs from "node:fs";
import * as path from "node:path";
import { suite, test } from "uvu";
import * as assert from "uvu/assert";
import { systemClock } from "../shared/base/clock.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { realCliSkipReason, startClaudeCode, type ClaudeCodeRun, type ClaudeTurnResult } from "./helpers/claude-code-runner.js";
import { expected, listCost, transcripts, type RawLine, type Sums, type Transcript } from "./helpers/claude-code-oracle.js";
import { gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { cardSummary, checkUsageTotals, settle, snapshotJson, usageJson } from "./helpers/e2e-checks.js";
import { scrape, sumOf } from "./helpers/prometheus.js";

const skip = realCliSkipReason();
const SOURCE = "claude-code:default";

interface SessionRow {
  key: string;
  model: string | null;
  status: string;
  kind: string;
  project: string | null;
  gitBranch: string | null;
  parentKey: string | null;
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

interface Agent {
  source: {
    source: { status: string };
    lifetimeStats: {
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
    };
    sessions: SessionRow[];
    grouped: Array<{ key: string; subAgents: Array<{ key: string; kind: string; parentKey: string | null; totalTokens: number }> }>;
    eventCounts: { error: number; warning: number; restart: number };
    events: Array<{ type: string; sessionKey: string | null; message: string }>;
  };
}

const SESSION_FIELDS =
  "key model status kind project gitBranch parentKey turnCount assistantMessages toolCalls errors inputTokens outputTokens cacheReadTokens cacheWriteTokens reasoningTokens totalTokens costUsd unpricedResponses windows";
const AGENT = `{ source(selector: { id: "${SOURCE}" }) { ... on AgentNamespace {
  source { status }
  lifetimeStats { isReady totalSessions totalInputTokens totalOutputTokens totalCacheReadTokens totalCacheWriteTokens totalReasoningTokens totalTokens totalUserMessages totalAssistantMessages totalCostUsd unpricedResponses }
  sessions(filter: { grouped: false, limit: 1000 }) { ${SESSION_FIELDS} }
  grouped: sessions { key subAgents { key kind parentKey totalTokens } }
  eventCounts { error warning restart }
  events { type sessionKey message } } } }`;

interface Sys {
  system: { provider: string; health: { status: string }; versions: string[] };
}
const SYSTEM = `{ system(provider: PROVIDER_B) { provider health { status } ... on ProviderBSystem { versions } } }`;

const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-6;

/** What the fake API served: usage per message id, and the failed attempts by kind. */
function served(cc: ClaudeCodeRun): { responses: Map<string, { input: number; cacheWrite: number; cacheRead: number; output: number; kind: string }>; overload: number; fail: number } {
  const responses = new Map<string, { input: number; cacheWrite: number; cacheRead: number; output: number; kind: string }>();
  let overload = 0;
  let fail = 0;
  for (const r of cc.requests()) {
    if (r.reply === "overload") overload++;
    if (r.reply === "fail") fail++;
    if (typeof r.msgId !== "string") continue;
    // any: the fake API's own log line.
    const u = r.usage as Record<string, any>;
    responses.set(r.msgId, { input: u.input_tokens, cacheWrite: u.cache_creation_input_tokens, cacheRead: u.cache_read_input_tokens, output: u.output, kind: String(r.reply) });
  }
  return { responses, overload, fail };
}

/** Why the transcripts and the request log disagree (every model response served, side queries aside, is in a transcript with its usage), or null. */
function logMismatch(cc: ClaudeCodeRun, ts: Transcript[]): string | null {
  const log = served(cc).responses;
  const files = new Map<string, RawLine>();
  for (const t of ts) for (const l of t.lines) if (l.type === "assistant" && l.message.model !== "<synthetic>" && !files.has(l.message.id)) files.set(l.message.id, l.message.usage);
  const a = JSON.stringify([...files.keys()].sort());
  const b = JSON.stringify([...log].filter(([, v]) => v.kind !== "side").map(([k]) => k).sort());
  if (a !== b) return `responses in the transcripts ${a} != served ${b}`;
  for (const [id, u] of files) {
    const l = log.get(id);
    const got = [u.input_tokens, u.cache_creation_input_tokens, u.cache_read_input_tokens, u.output_tokens];
    if (JSON.stringify(got) !== JSON.stringify([l?.input, l?.cacheWrite, l?.cacheRead, l?.output])) return `response ${id}: ${JSON.stringify(got)} != served ${JSON.stringify(l)}`;
  }
  return null;
}

/** Why GraphQL does not (yet) show what the files say, or null when it does. */
function mismatch(a: Agent, oracle: ReturnType<typeof expected>, files: number): string | null {
  const t = oracle.total;
  const l = a.source.lifetimeStats;
  const got = [l.totalSessions, l.totalInputTokens, l.totalOutputTokens, l.totalCacheReadTokens, l.totalCacheWriteTokens, l.totalReasoningTokens, l.totalUserMessages, l.totalAssistantMessages, l.unpricedResponses];
  const want = [files, t.input, t.output, t.cacheRead, t.cacheWrite, t.reasoning, t.prompts, t.responses, 0];
  if (JSON.stringify(got) !== JSON.stringify(want)) return `lifetimeStats ${JSON.stringify(got)} != ${JSON.stringify(want)}`;
  if (!near(l.totalCostUsd, t.cost)) return `lifetime cost ${l.totalCostUsd} != ${t.cost}`;
  for (const [key, s] of oracle.bySession) {
    const v = a.source.sessions.find((x) => x.key === key);
    if (!v) return `session ${key} not listed`;
    const g = [v.inputTokens, v.outputTokens, v.cacheReadTokens, v.cacheWriteTokens, v.reasoningTokens, v.turnCount, v.assistantMessages, v.toolCalls, v.errors, v.unpricedResponses];
    const w = [s.input, s.output, s.cacheRead, s.cacheWrite, s.reasoning, s.prompts, s.responses, s.toolCalls, s.errors, 0];
    if (JSON.stringify(g) !== JSON.stringify(w)) return `session ${key}: ${JSON.stringify(g)} != ${JSON.stringify(w)}`;
    if (!near(v.costUsd, s.cost)) return `session ${key}: cost ${v.costUsd} != ${s.cost}`;
  }
  const errors = [...oracle.bySession.values()].reduce((n, s) => n + s.errors, 0);
  const warnings = [...oracle.bySession.values()].reduce((n, s) => n + s.warnings, 0);
  if (a.source.eventCounts.error !== errors || a.source.eventCounts.warning !== warnings) return `eventCounts ${JSON.stringify(a.source.eventCounts)} != ${errors}/${warnings}`;
  return null;
}

/** Polls until the request log, the transcripts and GraphQL agree; returns the answers and the oracle. */
async function untilShown(d: TestDaemon, cc: ClaudeCodeRun, what: string): Promise<{ a: Agent; ts: Transcript[]; oracle: ReturnType<typeof expected> }> {
  const v = await settle(
    what,
    async () => {
      const ts = transcripts(cc.claudeDir);
      return { ts, oracle: expected(ts), a: await gqlData<Agent>(d, AGENT) };
    },
    (x) => logMismatch(cc, x.ts) ?? mismatch(x.a, x.oracle, x.ts.length),
  );
  return v;
}

function ok(t: ClaudeTurnResult, what: string): string {
  assert.is(t.exitCode, 0, `${what}: exit ${t.exitCode}: ${t.stderr.slice(-800)}`);
  assert.ok(t.sessionId, `${what}: the session id`);
  return t.sessionId as string;
}

if (skip) {
  console.log(`e2e-claude-code.test: the real Claude Code CLI was not started (${skip})`);
  const skipped = suite("e2e claude code (skipped)");
  skipped("the skip switch is honoured only outside CI", () => {
    assert.not.ok(process.env.CI);
    assert.is(process.env.GI_SKIP_REAL_CLI, "1");
  });
  skipped.run();
} else {
  test.after(removeTempDirs);

  test("real Claude Code turns: Bash, a sub-agent, overloaded retries, an API error, a resume; GraphQL, /metrics, card and usage agree with the files; a deleted transcript keeps its totals; a restart counts nothing twice", async () => {
    let cc: ClaudeCodeRun | undefined;
    let d: TestDaemon | undefined;
    try {
      cc = await startClaudeCode();
      const run = cc;
      console.log(`e2e claude code: runner up in ${run.timings.upMs} ms (installed: ${run.timings.installed})`);
      // Claude Code on, though HOME has no transcripts yet: the install appears with the first turn.
      d = await startDaemon({ clock: systemClock, env: { HOME: run.home, INSIGHTS_OPENCLAW: "off", INSIGHTS_CODEX: "off", INSIGHTS_CLAUDE_CODE: "on" } });
      const daemon = d;
      const started = Date.now();
      const step = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
        const t = Date.now();
        const v = await fn();
        console.log(`e2e claude code: ${label} ${Date.now() - t} ms`);
        return v;
      };
      const projA = path.join(run.dir, "proj-a");
      const projB = path.join(run.dir, "proj-b");

      // 1. A Bash call: one response with text + tool_use (two lines, one usage), then the final text.
      const s1 = ok(await step("turn 1 (@@BASH@@)", () => run.turn("List the files here. @@BASH@@", { cwd: projA })), "turn 1");
      const v1 = await step("daemon shows turn 1", () => untilShown(daemon, run, "turn 1"));
      const first = v1.a.source.sessions.find((s) => s.key === s1);
      assert.equal([first?.turnCount, first?.toolCalls, first?.assistantMessages, first?.kind, first?.status], [1, 1, 2, "direct", "ACTIVE"]);
      const cwd = v1.ts[0]?.lines.find((l) => typeof l.cwd === "string")?.cwd as string;
      assert.equal([first?.project, first?.gitBranch, first?.model], [cwd, null, "claude-sonnet-4-5-20250929"]);
      assert.ok(fs.realpathSync(projA) === fs.realpathSync(cwd));

      // 2. A sub-agent: its own transcript, nested under the parent, its usage its own.
      const s2 = ok(await step("turn 2 (@@TASK@@)", () => run.turn("Audit this folder for obvious bugs. @@TASK@@", { cwd: projA })), "turn 2");
      const v2 = await step("daemon shows turn 2", () => untilShown(daemon, run, "turn 2"));
      const sub = v2.ts.find((t) => t.subagent);
      assert.ok(sub, "the sub-agent transcript");
      assert.is(sub?.parentKey, s2);
      const parent = v2.a.source.grouped.find((s) => s.key === s2);
      assert.equal(parent?.subAgents.map((s) => [s.key, s.kind, s.parentKey]), [[sub?.key, "subagent", s2]]);
      assert.not.ok(v2.a.source.grouped.some((s) => s.key === sub?.key), "the sub-agent is not a top-level session");
      const subTokens = v2.oracle.bySession.get(sub!.key) as Sums;
      assert.ok(subTokens.responses >= 2 && subTokens.toolCalls >= 1 && subTokens.prompts === 1, "the sub-agent ran a Bash call");
      assert.is(parent?.subAgents[0]?.totalTokens, subTokens.input + subTokens.output + subTokens.cacheRead + subTokens.cacheWrite);

      // 3. Two overloaded attempts, then success: a warning per retried attempt, no error.
      const s3 = ok(await step("turn 3 (@@OVERLOAD@@)", () => run.turn("Check the build status. @@OVERLOAD@@", { cwd: projB })), "turn 3");
      assert.is(served(run).overload, 2);
      const v3 = await step("daemon shows turn 3", () => untilShown(daemon, run, "turn 3"));
      assert.equal(v3.a.source.eventCounts, { error: 0, warning: 2, restart: 0 });
      assert.ok(v3.a.source.events.every((e) => e.type === "warning" && e.sessionKey === s3 && /529/.test(e.message)), JSON.stringify(v3.a.source.events));
      assert.is(v3.a.source.sessions.find((s) => s.key === s3)?.errors, 0);

      // 4. HTTP 500 on every attempt: retries (warnings), then the API error (an error event), exit 1, a FAILED session.
      const t4 = await step("turn 4 (@@FAIL@@)", () => run.turn("Deploy a preview build. @@FAIL@@", { cwd: projB }));
      assert.is(t4.exitCode, 1, t4.stderr.slice(-800));
      const s4 = t4.sessionId as string;
      const { fail } = served(run);
      assert.ok(fail >= 2, `${fail} failed attempts`);
      const v4 = await step("daemon shows turn 4", () => untilShown(daemon, run, "turn 4"));
      assert.equal(v4.a.source.eventCounts, { error: 1, warning: 2 + fail - 1, restart: 0 }, "a warning per retried attempt, the last one an error");
      // RUNNING (so ACTIVE) for as long as the daemon last saw the CLI's process live, FAILED once it is gone.
      const settled = await settle("the failed session FAILED", () => gqlData<Agent>(daemon, AGENT), (x) => {
        const st = x.source.sessions.find((s) => s.key === s4)?.status;
        return st === "FAILED" ? null : `status ${st}`;
      });
      const failed = settled.source.sessions.find((s) => s.key === s4);
      assert.equal([failed?.status, failed?.errors, failed?.totalTokens, failed?.turnCount, failed?.assistantMessages], ["FAILED", 1, 0, 1, 0]);
      assert.equal(v4.a.source.events.filter((e) => e.type === "error").map((e) => e.sessionKey), [s4]);

      // 5. Resume the first session: the same file, two turns.
      const before = v4.ts.length;
      const t5 = ok(await step("turn 5 (--resume)", () => run.turn("And one more thing about those files.", { cwd: projA, resume: s1 })), "turn 5");
      assert.is(t5, s1);
      const v5 = await step("daemon shows turn 5", () => untilShown(daemon, run, "turn 5"));
      assert.is(v5.ts.length, before, "no new transcript");
      const resumed = v5.a.source.sessions.find((s) => s.key === s1);
      assert.equal([resumed?.turnCount, resumed?.windows], [2, 1]);

      const sys = await gqlData<Sys>(daemon, SYSTEM);
      assert.ok(sys.system.versions.includes(run.version), `versions ${sys.system.versions}`);

      // 6. The same numbers everywhere: /metrics, the card, insightsctl usage --json.
      const { oracle, ts } = v5;
      const total = oracle.total;
      const m = await scrape(daemon);
      for (const [type, want] of [["input", total.input], ["output", total.output], ["cache_read", total.cacheRead], ["cache_write", total.cacheWrite]] as const) {
        assert.is(sumOf(m, "insights_tokens_total", { provider: "claude-code", source: SOURCE, type }), want, `/metrics ${type}`);
      }
      assert.ok(near(sumOf(m, "insights_cost_usd_total", { source: SOURCE }), total.cost), "/metrics cost");
      assert.is(sumOf(m, "insights_responses_total", { source: SOURCE }), total.responses);
      // Per project: the responses of each cwd's transcripts (the sub-agent's lines carry the parent's cwd).
      const byProject = new Map<string, Sums>();
      for (const t of ts) {
        const p = t.lines.find((l) => typeof l.cwd === "string")?.cwd as string;
        const s = expected([t]).total;
        const cur = byProject.get(p);
        byProject.set(p, cur ? { ...cur, input: cur.input + s.input, output: cur.output + s.output, cacheRead: cur.cacheRead + s.cacheRead, cacheWrite: cur.cacheWrite + s.cacheWrite, cost: cur.cost + s.cost } : s);
      }
      assert.is(byProject.size, 2);
      for (const [p, s] of byProject) {
        assert.is(sumOf(m, "insights_tokens_total", { source: SOURCE, project: p }), s.input + s.output + s.cacheRead + s.cacheWrite, `/metrics tokens of ${p}`);
        assert.ok(near(sumOf(m, "insights_cost_usd_total", { source: SOURCE, project: p, model: "claude-sonnet-4-5-20250929" }), s.cost), `/metrics cost of ${p}`);
      }
      const priced = ts.flatMap((t) => t.lines).filter((l) => l.type === "assistant" && l.message.model !== "<synthetic>");
      assert.ok(priced.every((l) => l.message.model === "claude-sonnet-4-5-20250929"));
      assert.ok(near(total.cost, [...new Map(priced.map((l) => [l.message.id, l])).values()].reduce((n, l) => n + listCost(l.message.model, l.message.usage), 0)));

      const card = cardSummary(await snapshotJson(daemon), "claude-code");
      assert.is(card.tokens, total.input + total.output + total.cacheRead + total.cacheWrite, "card tokens");
      assert.is(card.turns, total.prompts, "card turns");
      assert.is(card.errors, 1, "card errors");
      assert.ok(near(card.costUsd ?? -1, total.cost), "card cost");

      checkUsageTotals((await usageJson(daemon)).totals, total);
      console.log(`e2e claude code: turns and checks ${Date.now() - started} ms`);

      // 7. A transcript deleted (Claude Code removes old ones): its session and every total stay.
      const gone = ts.find((t) => t.key === s3) as Transcript;
      fs.rmSync(gone.file);
      const afterDelete = await step("daemon after a deletion", () =>
        settle("after deleting a transcript", () => gqlData<Agent>(daemon, AGENT), (x) => mismatch(x, oracle, ts.length - 1)),
      );
      assert.ok(afterDelete.source.sessions.some((s) => s.key === s3), "the deleted transcript's session is still listed");

      // 8. A daemon restart on the same store: the same figures, nothing counted twice.
      await daemon.stop({ keep: true });
      d = await startDaemon({ again: daemon, clock: systemClock });
      const again = d;
      const after = await step("restarted daemon", () =>
        settle("after a restart", () => gqlData<Agent>(again, AGENT), (x) => (x.source.lifetimeStats.isReady ? mismatch(x, oracle, ts.length - 1) : "not ready")),
      );
      assert.equal(after.source.eventCounts, v5.a.source.eventCounts);
      const m2 = await scrape(again);
      assert.is(sumOf(m2, "insights_tokens_total", { source: SOURCE }), total.input + total.output + total.cacheRead + total.cacheWrite, "/metrics after a restart");
    } finally {
      await d?.stop();
      await cc?.stop();
    }
  });

  test.run();
}
