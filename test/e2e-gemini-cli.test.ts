// End to end with the REAL Gemini CLI (issue 24): `gemini -p` makes real turns against the fake
// Gemini API (../shared/tools/run-gemini-cli.sh through test/helpers/gemini-runner.ts): a plain
// turn, a @@SHELL@@ tool round, an @@AGENT@@ sub-agent, a @@RETRY429@@ (an HTTP 429 retried, which
// no file shows) and a --resume of the first session. After each turn the session files must hold
// exactly the responses the fake API served (its request log), counted by the format's rule
// (test/helpers/gemini-oracle.ts). Then a real gateway-insights daemon reads that HOME and must show
// the same: GraphQL (the sessions and lifetimeStats of `gemini-cli:default`, `system(provider:
// PROVIDER_D)` as a ProviderDSystem), /metrics, the card JSON and `insightsctl usage --json`; a
// turn made while it runs (@@MULTI@@: one reply, two calls) is shown too.
// The daemon half needs the `gemini-cli` provider in shared/providers/registry.ts; until it is
// there, that half says so and the CLI half runs alone.
// Required: CI always runs this; a developer may skip it locally with GI_SKIP_REAL_CLI=1.
import fs from "node:fs";
import path from "node:path";
import { suite, test } from "uvu";
import * as assert from "uvu/assert";
import { systemClock } from "../shared/base/clock.js";
import { isProviderName } from "../shared/providers/registry.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { geminiSkipReason, startGemini, type GeminiRun } from "./helpers/gemini-runner.js";
import { expected, servedResponses, sessionFiles, type Expected, type SessionFile } from "./helpers/gemini-oracle.js";
import { gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { scrape, sumOf } from "./helpers/prometheus.js";
import { cardSummary, checkUsageTotals, settle, snapshotJson, usageJson } from "./helpers/e2e-checks.js";

const skip = await geminiSkipReason();
const PROVIDER = "gemini-cli";
const SOURCE = `${PROVIDER}:default`;
/** Removed by the merge of the provider: then isProviderName() is true and the daemon half runs. */
const NOT_REGISTERED = `the ${PROVIDER} provider is not in shared/providers/registry.ts yet: the daemon half (GraphQL, /metrics, card, usage) waits for it`;

interface SessionRow {
  key: string;
  model: string | null;
  project: string | null;
  turnCount: number;
  assistantMessages: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  costUsd: number;
  unpricedResponses: number;
}

interface Agent {
  source: {
    lifetimeStats: { isReady: boolean; totalInputTokens: number; totalOutputTokens: number; totalCacheReadTokens: number; totalCacheWriteTokens: number; totalReasoningTokens: number; totalUserMessages: number; totalAssistantMessages: number; totalCostUsd: number; unpricedResponses: number };
    sessions: SessionRow[];
  };
}

const AGENT = `{ source(selector: { id: "${SOURCE}" }) { ... on AgentNamespace {
  lifetimeStats { isReady totalInputTokens totalOutputTokens totalCacheReadTokens totalCacheWriteTokens totalReasoningTokens totalUserMessages totalAssistantMessages totalCostUsd unpricedResponses }
  sessions(filter: { grouped: false, limit: 1000 }) { key model project turnCount assistantMessages toolCalls inputTokens outputTokens cacheReadTokens cacheWriteTokens reasoningTokens costUsd unpricedResponses } } } }`;
const SYSTEM = `{ system(provider: PROVIDER_D) { provider health { status } ... on ProviderDSystem { sources { id } } } }`;

const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-6;
const tuple = (model: string, t: { input: number; output: number; cached: number; thoughts: number; tool: number; total: number }): string => `${model} ${[t.input, t.output, t.cached, t.thoughts, t.tool, t.total].join("/")}`;

/** The session files hold exactly the responses the fake API served (none lost, none twice); returns the files and the oracle. */
function filesMatchLog(g: GeminiRun, what: string): { files: SessionFile[]; oracle: Expected } {
  const files = sessionFiles(g.geminiDir);
  const oracle = expected(files);
  const inFiles = oracle.responses.map((r) => tuple(r.model, r.raw)).sort();
  const served = servedResponses(g.requests()).map((s) => tuple(s.model, s.raw)).sort();
  assert.equal(inFiles, served, `${what}: the files' responses are the served ones`);
  assert.is(oracle.total.responses, served.length, `${what}: each counted once`);
  return { files, oracle };
}

/** Why GraphQL does not (yet) show what the files say, or null when it does. */
function mismatch(a: Agent, files: SessionFile[], o: Expected): string | null {
  const t = o.total;
  const l = a.source.lifetimeStats;
  const got = [l.totalInputTokens, l.totalOutputTokens, l.totalCacheReadTokens, l.totalCacheWriteTokens, l.totalReasoningTokens, l.totalUserMessages, l.totalAssistantMessages, l.unpricedResponses];
  const want = [t.input, t.output, t.cacheRead, t.cacheWrite, t.reasoning, t.prompts, t.responses, t.unpriced];
  if (JSON.stringify(got) !== JSON.stringify(want)) return `lifetimeStats ${JSON.stringify(got)} != ${JSON.stringify(want)}`;
  if (!near(l.totalCostUsd, t.cost)) return `lifetime cost ${l.totalCostUsd} != ${t.cost}`;
  for (const f of files.filter((x) => x.kind === "main")) {
    const s = o.bySession.get(f.sessionId)!;
    const v = a.source.sessions.find((x) => x.key === f.sessionId);
    if (!v) return `session ${f.sessionId} not listed`;
    const g = [v.inputTokens, v.outputTokens, v.cacheReadTokens, v.reasoningTokens, v.turnCount, v.assistantMessages, v.toolCalls, v.unpricedResponses, v.project];
    const w = [s.input, s.output, s.cacheRead, s.reasoning, s.prompts, s.responses, s.toolCalls, s.unpriced, f.cwd];
    if (JSON.stringify(g) !== JSON.stringify(w)) return `session ${f.sessionId}: ${JSON.stringify(g)} != ${JSON.stringify(w)}`;
    if (!near(v.costUsd, s.cost)) return `session ${f.sessionId}: cost ${v.costUsd} != ${s.cost}`;
  }
  return null;
}

if (skip) {
  console.log(`e2e-gemini-cli.test: the real Gemini CLI was not started (${skip})`);
  const skipped = suite("e2e gemini cli (skipped)");
  skipped("the skip is honoured only outside CI", () => assert.not.ok(process.env.CI));
  skipped.run();
} else {
  test.after(removeTempDirs);

  test("real Gemini CLI turns: plain, tool round, sub-agent, a 429 retried, a resume; the files match the fake API's log, and GraphQL, /metrics, card and usage match the files", async () => {
    let g: GeminiRun | undefined;
    let d: TestDaemon | undefined;
    try {
      g = await startGemini();
      const run = g;
      console.log(`e2e gemini: runner up in ${run.timings.upMs} ms (installed: ${run.timings.installed})`);
      const step = async (label: string, args: string[], o: { cwd: string; model?: string }): Promise<string> => {
        const t = await run.turn(args, o);
        console.log(`e2e gemini: ${label} ${t.wallMs} ms, exit ${t.exitCode}`);
        assert.is(t.exitCode, 0, `${label}: ${t.stderr.slice(-800)}`);
        assert.ok(t.sessionId, `${label}: a session id`);
        return t.sessionId as string;
      };

      // 1. A plain turn: one response, no tool call.
      const s1 = await step("turn 1 (plain, flash)", ["What is a monorepo, in one sentence?"], { cwd: "api", model: "gemini-2.5-flash" });
      const v1 = filesMatchLog(run, "turn 1");
      assert.equal([v1.oracle.bySession.get(s1)?.responses, v1.oracle.bySession.get(s1)?.toolCalls], [1, 0]);

      // 2. A tool round: the reply with the call (written twice in the file), the result, the answer.
      const s2 = await step("turn 2 (@@SHELL@@)", ["Summarize the repository layout. @@SHELL@@"], { cwd: "api" });
      const v2 = filesMatchLog(run, "turn 2");
      assert.equal([v2.oracle.bySession.get(s2)?.responses, v2.oracle.bySession.get(s2)?.toolCalls], [2, 1]);
      const f2 = v2.files.find((f) => f.sessionId === s2)!;
      assert.ok(f2.lines.filter((l) => l.type === "gemini").length > 2, "a reply re-appended with its toolCalls");

      // 3. A sub-agent: its own file under the parent, named by the parent's invoke_agent call.
      const s3 = await step("turn 3 (@@AGENT@@)", ["Audit the src folder for obvious bugs. @@AGENT@@"], { cwd: "web" });
      const v3 = filesMatchLog(run, "turn 3");
      const sub = v3.files.find((f) => f.kind === "subagent");
      assert.ok(sub, "a sub-agent file");
      assert.is(sub.parent, s3);
      const invoked = v3.files.find((f) => f.sessionId === s3)!.lines.flatMap((l) => (Array.isArray(l.toolCalls) ? (l.toolCalls as Array<Record<string, unknown>>) : [])).find((c) => c.name === "invoke_agent");
      assert.is(invoked?.agentId, sub.sessionId);
      assert.ok((v3.oracle.bySession.get(sub.sessionId)?.responses ?? 0) >= 2, "the sub-agent's own responses (a call, complete_task)");

      // 4. A 429, retried: the log has the 429, the file only the answer.
      const before = run.requests().length;
      const s4 = await step("turn 4 (@@RETRY429@@)", ["Status ping for the preview. @@RETRY429@@"], { cwd: "web", model: "gemini-2.5-flash" });
      assert.ok(run.requests().slice(before).some((r) => r.status === 429), "the fake API answered 429 once");
      const v4 = filesMatchLog(run, "turn 4");
      assert.is(v4.oracle.bySession.get(s4)?.responses, 1);

      // 5. A resume of session 1: its file gains a second header and the re-listing; nothing counts twice.
      const s5 = await step("turn 5 (--resume)", ["--resume", s1, "And one sentence on its trade-offs."], { cwd: "api", model: "gemini-2.5-flash" });
      assert.is(s5, s1, "resume keeps the session");
      const v5 = filesMatchLog(run, "turn 5");
      const mine = v5.files.filter((f) => f.sessionId === s1);
      const withMessages = mine.filter((f) => f.lines.some((l) => typeof l.id === "string"));
      assert.is(withMessages.length, 1, `the turns are in one file (${mine.map((f) => f.rel).join(", ")}; a second one is the stray file of a resume in a later minute)`);
      // The resume's header: in the same file, or (a resume in a later minute) in the stray file.
      assert.ok(mine.flatMap((f) => f.lines).filter((l) => typeof l.startTime === "string").length >= 2, "a second header");
      assert.equal([v5.oracle.bySession.get(s1)?.prompts, v5.oracle.bySession.get(s1)?.responses], [2, 2]);

      if (!isProviderName(PROVIDER)) {
        console.log(`e2e-gemini-cli.test: ${NOT_REGISTERED}`);
        return;
      }

      // 6. The daemon reads that HOME: the same figures everywhere.
      d = await startDaemon({ clock: systemClock, env: { HOME: run.home, INSIGHTS_OPENCLAW: "off", INSIGHTS_CLAUDE_CODE: "off", INSIGHTS_CODEX: "off", INSIGHTS_GEMINI_CLI: "on" } });
      const daemon = d;
      const shown = async (what: string): Promise<{ files: SessionFile[]; oracle: Expected }> => {
        const v = filesMatchLog(run, what);
        await settle(what, () => gqlData<Agent>(daemon, AGENT), (a) => (a.source.lifetimeStats.isReady ? mismatch(a, v.files, v.oracle) : "not ready"));
        return v;
      };
      await shown("the daemon's first scan");
      const sys = await gqlData<{ system: { provider: string; health: { status: string }; sources: Array<{ id: string }> } }>(daemon, SYSTEM);
      assert.is(sys.system.provider, "PROVIDER_D");
      assert.ok(sys.system.sources.some((s) => s.id === SOURCE), JSON.stringify(sys.system.sources));

      // 7. A turn while the daemon runs: one reply with two calls.
      await step("turn 7 (@@MULTI@@, live)", ["Check the OS and the README at once. @@MULTI@@"], { cwd: "web" });
      const { files, oracle } = await shown("the live turn");
      const total = oracle.total;

      const m = await scrape(daemon);
      for (const [type, want] of [["input", total.input], ["output", total.output], ["cache_read", total.cacheRead], ["cache_write", total.cacheWrite]] as const) {
        assert.is(sumOf(m, "insights_tokens_total", { provider: PROVIDER, source: SOURCE, type }), want, `/metrics ${type}`);
      }
      for (const model of [...new Set(oracle.responses.map((r) => r.model))]) {
        const rs = oracle.responses.filter((r) => r.model === model);
        assert.is(sumOf(m, "insights_responses_total", { source: SOURCE, model }), rs.length, `/metrics responses of ${model}`);
        assert.ok(near(sumOf(m, "insights_cost_usd_total", { source: SOURCE, model }), rs.reduce((n, r) => n + (r.cost ?? 0), 0)), `/metrics cost of ${model}`);
      }
      assert.ok(near(sumOf(m, "insights_cost_usd_total", { source: SOURCE }), total.cost), "/metrics cost");
      assert.is(sumOf(m, "insights_reasoning_tokens_total", { source: SOURCE }), total.reasoning);

      const card = cardSummary(await snapshotJson(daemon), PROVIDER);
      assert.is(card.tokens, total.input + total.output + total.cacheRead + total.cacheWrite, "card tokens");
      assert.is(card.turns, total.prompts, "card turns");
      checkUsageTotals((await usageJson(daemon)).totals, total);
      // The projects are the cwds (from .project_root), not the slugs.
      assert.equal([...new Set(files.filter((f) => f.kind === "main").map((f) => f.cwd))].sort(), [run.cwdOf("api"), run.cwdOf("web")].sort());
      assert.ok(fs.existsSync(path.join(run.geminiDir, "projects.json")));
    } finally {
      await d?.stop();
      await g?.stop();
    }
  });

  test.run();
}
