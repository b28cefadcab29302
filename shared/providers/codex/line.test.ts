import { test } from "uvu";
import * as assert from "uvu/assert";
import { subLimitField, type ActivityEvent, type IncidentEvent, type RateLimitEvent, type ResponseEvent, type ToolResultEvent } from "../contract.js";
import type { SourceWarning } from "../result.js";
import { newLineContext, outputFailed, parseLine, restoreContext, serializeContext } from "./line.js";
import type { CodexLineContext } from "./line.js";

const T = "2026-11-23T21:28:35.000Z";
let ordinal = 0;
const line = (type: string, payload: Record<string, unknown>): string => JSON.stringify({ timestamp: T, ordinal: ordinal++, type, payload });
const ev = (sub: string, payload: Record<string, unknown> = {}): string => line("event_msg", { type: sub, ...payload });
const usage = (input: number, cached: number, output: number, reasoning: number) => ({ input_tokens: input, cached_input_tokens: cached, cache_write_input_tokens: 0, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output });
const record = (turn: string, resp: string, u: unknown) => line("token_usage_record", { turn_id: turn, response_id: resp, usage: u });

function run(lines: string[], ctx: CodexLineContext = newLineContext()) {
  const warnings: SourceWarning[] = [];
  const events: ActivityEvent[] = [];
  lines.forEach((l, i) => events.push(...parseLine(l, i * 100, `f:${i * 100}`, ctx, warnings)));
  return { events, warnings, ctx };
}

const of = <K extends ActivityEvent["kind"]>(events: ActivityEvent[], kind: K) => events.filter((e): e is Extract<ActivityEvent, { kind: K }> => e.kind === kind);

test("a record takes its turn's model; tool calls since the last record go on it", () => {
  const { events, warnings } = run([
    ev("task_started", { turn_id: "t1", model_context_window: 258400 }),
    line("turn_context", { turn_id: "t1", model: "gpt-5-codex", cwd: "/p" }),
    line("response_item", { type: "function_call", name: "exec_command", call_id: "c1" }),
    line("response_item", { type: "custom_tool_call", name: "apply_patch", call_id: "c2" }),
    record("t1", "r1", usage(100, 40, 10, 5)),
    line("response_item", { type: "function_call_output", call_id: "c1", output: "Chunk ID: 1\nProcess exited with code 0\nOutput:\n" }),
    line("response_item", { type: "custom_tool_call_output", call_id: "c2", output: "Process exited with code 2" }),
    record("t1", "r2", usage(200, 100, 20, 0)),
    ev("task_complete", { turn_id: "t1" }),
    ev("task_started", { turn_id: "t2" }),
    line("turn_context", { turn_id: "t2", model: "gpt-5-mini", cwd: "/p" }),
    record("t2", "r3", usage(50, 0, 5, 0)),
    // A record of an unknown turn takes the latest model.
    record("t-unknown", "r4", usage(1, 0, 1, 0)),
  ]);
  assert.equal(warnings, []);
  const responses = of(events, "response");
  assert.equal(responses.map((r) => [r.key, r.model, r.toolCalls, r.modelProvider]), [
    ["r1", "gpt-5-codex", 2, "openai"],
    ["r2", "gpt-5-codex", 0, "openai"],
    ["r3", "gpt-5-mini", 0, "openai"],
    ["r4", "gpt-5-mini", 0, "openai"],
  ]);
  assert.equal(responses[0]?.usage, { input: 60, cacheRead: 40, cacheWrite: 0, cacheWrite1h: 0, output: 10, reasoning: 5 });
  assert.equal(of(events, "toolResult").map((r) => r.isError), [false, true]);
  assert.is(of(events, "prompt").length, 2);
  const models = of(events, "meta").filter((m) => m.patch.model !== undefined).map((m) => m.patch.model);
  assert.equal(models, ["gpt-5-codex", "gpt-5-mini"]);
});

test("the state survives a round trip through JSON: a resumed read keeps the turn's model and the unattached calls", () => {
  const first = run([ev("task_started", { turn_id: "t1" }), line("turn_context", { turn_id: "t1", model: "m-1" }), line("response_item", { type: "function_call", name: "x", call_id: "c" })]);
  const stored = JSON.parse(JSON.stringify(serializeContext(first.ctx))) as unknown;
  const ctx = restoreContext(stored);
  assert.ok(ctx);
  const second = run([record("t1", "r1", usage(10, 0, 1, 0))], ctx as CodexLineContext);
  const r = of(second.events, "response")[0] as ResponseEvent;
  assert.equal([r.model, r.toolCalls], ["m-1", 1]);
});

test("restoreContext refuses what is not its own state", () => {
  const good = serializeContext(newLineContext()) as Record<string, unknown>;
  assert.ok(restoreContext(good));
  for (const bad of [null, 1, "x", [], { ...good, tools: -1 }, { ...good, models: [["t", 5]] }, { ...good, commands: Array(100).fill(["c", true]) }, { ...good, meta: "yes" }, { ...good, latest: 3 }]) {
    assert.is(restoreContext(bad), null, JSON.stringify(bad));
  }
});

test("session_meta: project, branch, version, origin; no git or `{}` is a null branch; only the first one counts", () => {
  const meta = (payload: Record<string, unknown>) => line("session_meta", { id: "s", cli_version: "0.169.0", ...payload });
  const withGit = run([meta({ cwd: "/w", source: "exec", git: { branch: "main" } })]).events;
  assert.equal(of(withGit, "meta")[0]?.patch, { project: "/w", gitBranch: "main", cliVersion: "0.169.0", origin: "exec" });
  assert.is(of(run([meta({ cwd: "/w", source: "vscode", git: {} })]).events, "meta")[0]?.patch.gitBranch, null);
  assert.is(of(run([meta({ cwd: "/w", source: "vscode" })]).events, "meta")[0]?.patch.gitBranch, null);
  assert.is(of(run([meta({ cwd: "/w", source: { subagent: "review" } })]).events, "meta")[0]?.patch.origin, "subagent");
  const twice = run([meta({ cwd: "/a", source: "exec" }), meta({ cwd: "/b", source: "exec" })]).events;
  assert.equal(of(twice, "meta").map((m) => m.patch.project), ["/a"]);
});

test("turn_context: thinking level from collaboration_mode, project from its cwd", () => {
  const { events } = run([line("turn_context", { turn_id: "t", model: "m", cwd: "/other", collaboration_mode: { settings: { reasoning_effort: "high" } } })]);
  assert.equal(of(events, "meta")[0]?.patch, { model: "m", thinkingLevel: "high", project: "/other" });
});

test("a failed turn is an error incident; a usage limit (or any 429) is a warning", () => {
  const { events } = run([
    ev("task_complete", { turn_id: "a", error: { message: "We're currently experiencing high demand", codex_error_info: "internal_server_error" } }),
    ev("task_complete", { turn_id: "b", error: { message: "You've hit your usage limit.", codex_error_info: "usage_limit_exceeded" } }),
    ev("task_complete", { turn_id: "c", error: { message: "stream", codex_error_info: { response_stream_disconnected: { http_status_code: 429 } } } }),
    ev("task_complete", { turn_id: "d", error: { message: "x", codex_error_info: { http_connection_failed: { http_status_code: 502 } } } }),
    ev("task_complete", { turn_id: "e", error: "plain text error" }),
    ev("task_complete", { turn_id: "f" }),
  ]);
  const incidents = of(events, "incident") as IncidentEvent[];
  assert.equal(
    incidents.map((i) => [i.type, i.code, i.message]),
    [
      ["error", "internal_server_error", "We're currently experiencing high demand"],
      ["warning", "usage_limit_exceeded", "You've hit your usage limit."],
      ["warning", "response_stream_disconnected", "stream"],
      ["error", "http_connection_failed", "x"],
      ["error", "turn_failed", "plain text error"],
    ],
  );
});

test("token_count: rate limits (resets_at seconds -> ms), context size; info:null gives only the limits", () => {
  const rl = { limit_id: "codex", primary: { used_percent: 8.0, window_minutes: 300, resets_at: 1795481131 }, secondary: { used_percent: 22.0, window_minutes: 10080, resets_at: 1795832911 }, credits: { has_credits: false, unlimited: false, balance: null }, plan_type: null };
  const { events } = run([
    ev("token_count", { info: { total_token_usage: usage(11931, 2048, 192, 144), last_token_usage: usage(11931, 2048, 192, 144), model_context_window: 258400 }, rate_limits: rl }),
    ev("token_count", { info: null, rate_limits: { ...rl, primary: { used_percent: 100.0, window_minutes: 300, resets_at: 1795481131 } } }),
  ]);
  const limits = of(events, "rateLimits") as RateLimitEvent[];
  assert.equal(limits[0]?.snapshot, {
    limitId: "codex",
    primary: { usedPercent: 8, windowMinutes: 300, resetsAt: 1795481131000 },
    secondary: { usedPercent: 22, windowMinutes: 10080, resetsAt: 1795832911000 },
    planType: null,
    credits: { hasCredits: false, unlimited: false, balance: null },
  });
  assert.is(limits[1]?.snapshot.primary?.usedPercent, 100);
  const metas = of(events, "meta");
  assert.equal(metas.map((m) => m.patch), [{ contextTokens: 11931, contextWindow: 258400 }]);
});

test("a limit id with a colon is kept as a plan's own limit, not read as a limit inside a plan", () => {
  const { events } = run([ev("token_count", { info: null, rate_limits: { limit_id: "codex:weekly", primary: { used_percent: 8.0, window_minutes: 300, resets_at: 1795481131 } } })]);
  const limits = of(events, "rateLimits") as RateLimitEvent[];
  assert.is(limits[0]?.snapshot.limitId, "codex_weekly");
  assert.is(subLimitField(limits[0]?.snapshot.limitId ?? null), null);
});

test("after a compaction the context size is the estimate in last_token_usage.total_tokens", () => {
  const zero = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 4321 };
  const { events } = run([ev("token_count", { info: { total_token_usage: usage(1000, 0, 10, 0), last_token_usage: zero } })]);
  assert.is(of(events, "meta")[0]?.patch.contextTokens, 4321);
});

test("bad usage: BAD_FIELD, the response still counts with no usage, its neighbours untouched", () => {
  const { events, warnings } = run([record("t", "r1", { ...usage(10, 0, 1, 0), output_tokens: 1e308 }), record("t", "r2", { ...usage(10, 0, 1, 0), input_tokens: -5 }), record("t", "r3", usage(10, 0, 1, 0))]);
  assert.equal(warnings.map((w) => [w.code, w.where]), [["BAD_FIELD", "f:0"], ["BAD_FIELD", "f:100"]]);
  assert.equal(of(events, "response").map((r) => [r.key, r.usage?.input ?? null]), [["r1", null], ["r2", null], ["r3", 10]]);
});

test("a rate-limit window without a number is dropped with BAD_FIELD, the rest kept; numbers out of range are passed on for the store's check", () => {
  const { events, warnings } = run([ev("token_count", { info: null, rate_limits: { limit_id: "codex", primary: { used_percent: "lots" }, secondary: { used_percent: 5, window_minutes: 10080, resets_at: "soon" } } })]);
  assert.equal(warnings.map((w) => w.code), ["BAD_FIELD"]);
  assert.equal((of(events, "rateLimits")[0] as RateLimitEvent).snapshot.secondary, { usedPercent: 5, windowMinutes: 10080, resetsAt: null });
  assert.is((of(events, "rateLimits")[0] as RateLimitEvent).snapshot.primary, null);
  const year5138 = Date.parse("5138-01-01T00:00:00Z") / 1000;
  const odd = run([ev("token_count", { info: null, rate_limits: { limit_id: "codex", primary: { used_percent: -3, window_minutes: 300, resets_at: year5138 } } })]);
  assert.equal(odd.warnings, []);
  assert.equal((of(odd.events, "rateLimits")[0] as RateLimitEvent).snapshot.primary, { usedPercent: -3, windowMinutes: 300, resetsAt: year5138 * 1000 });
});

test("non-JSON and non-object lines are BAD_JSON; unknown types are silent", () => {
  const { events, warnings } = run(['{"timestamp":"x","type":"event_msg","payload":{"type":"task_st', "[1,2]", line("brand_new_type", { a: 1 }), ev("brand_new_event", {})]);
  assert.equal(warnings.map((w) => w.code), ["BAD_JSON", "BAD_JSON"]);
  assert.equal(events, []);
});

test("the first UserMessage is the first prompt, shortened; later ones are not repeated", () => {
  const msg = (t: string) => ev("item_completed", { item: { type: "UserMessage", content: [{ type: "text", text: t }] } });
  const { events } = run([msg(`  hello\n\n${"x".repeat(300)}`), msg("second")]);
  const firsts = of(events, "meta").map((m) => m.patch.firstPrompt);
  assert.is(firsts.length, 1);
  assert.ok(firsts[0]?.startsWith("hello xxx") && (firsts[0]?.length ?? 0) <= 200);
});

test("a tool result's error flag: the command's exit code first, else the output text", () => {
  const ctx = newLineContext();
  const { events } = run(
    [
      ev("item_completed", { item: { type: "CommandExecution", id: "c1", exit_code: 1, status: "failed" } }),
      // The exit code wins over an output that says 0.
      line("response_item", { type: "function_call_output", call_id: "c1", output: "Process exited with code 0" }),
      line("response_item", { type: "function_call_output", call_id: "c2", output: "Process running with session ID 3" }),
      line("response_item", { type: "function_call_output", call_id: "c3", output: JSON.stringify({ output: "boom", metadata: { exit_code: 127 } }) }),
      line("response_item", { type: "function_call_output", call_id: "c4", output: { content: "no", success: false } }),
    ],
    ctx,
  );
  assert.equal((of(events, "toolResult") as ToolResultEvent[]).map((e) => e.isError), [true, false, true, true]);
  assert.equal(ctx.commandFailed, [], "consumed");
  assert.is(outputFailed({ output: "Chunk ID: 1\nProcess exited with code -1\n" }, null), true);
});

test("prompts: one per task_started, failed turns included; a new turn drops calls that never got a record", () => {
  const { events } = run([
    ev("task_started", { turn_id: "t1" }),
    line("response_item", { type: "function_call", call_id: "c" }),
    ev("task_complete", { turn_id: "t1", error: { message: "boom", codex_error_info: "internal_server_error" } }),
    ev("task_started", { turn_id: "t2" }),
    record("t2", "r", usage(1, 0, 1, 0)),
  ]);
  assert.is(of(events, "prompt").length, 2);
  assert.is((of(events, "response")[0] as ResponseEvent).toolCalls, 0);
});

test.run();
