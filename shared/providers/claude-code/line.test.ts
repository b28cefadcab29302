import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ActivityEvent, IncidentEvent, ResponseEvent, SessionMetaEvent } from "../contract.js";
import type { SourceWarning } from "../result.js";
import { lineEvents, newLineContext, parseLine } from "./line.js";
import type { LineContext } from "./line.js";
import { shortenPrompt } from "./line-shape.js";
import { copyClaudeHome, rawLines, removeTempDirs, transcriptFiles } from "../../../test/helpers/claude-code-fixture.js";
import type { RawLine } from "../../../test/helpers/claude-code-fixture.js";

test.after(removeTempDirs);

// Real lines from the fixture, picked by what they are (never by position), then varied per test.
const { claudeDir } = copyClaudeHome();
const all: RawLine[] = transcriptFiles(claudeDir).flatMap((rel) => rawLines(path.join(claudeDir, rel)));
const pick = (pred: (l: RawLine) => boolean, what: string): RawLine => {
  const l = all.find(pred);
  if (!l) throw new Error(`fixture has no ${what}`);
  return structuredClone(l);
};
const prompt = () => pick((l) => l.type === "user" && typeof l.message.content === "string" && !l.isSidechain, "prompt");
const toolUseLine = () => pick((l) => l.type === "assistant" && l.message.content.some((b: RawLine) => b.type === "tool_use"), "tool_use line");
const toolResult = () => pick((l) => l.type === "user" && Array.isArray(l.message.content) && l.message.content[0]?.type === "tool_result", "tool result");
const synthetic = () => pick((l) => l.type === "assistant" && l.message.model === "<synthetic>", "synthetic error");
const apiError = () => pick((l) => l.type === "system" && l.subtype === "api_error", "api_error");
const subagentPrompt = () => pick((l) => l.type === "user" && l.isSidechain === true && typeof l.message.content === "string", "sub-agent prompt");

function run(lines: RawLine[], ctx: LineContext = newLineContext(false)) {
  const warnings: SourceWarning[] = [];
  const events: ActivityEvent[] = [];
  lines.forEach((l, i) => events.push(...lineEvents(l, i * 100, `f:${i * 100}`, ctx, warnings)));
  return { events, warnings, kinds: events.map((e) => e.kind) };
}
const of = <K extends ActivityEvent["kind"]>(events: ActivityEvent[], kind: K) => events.filter((e): e is Extract<ActivityEvent, { kind: K }> => e.kind === kind);

test("a prompt: one prompt event and the session facts, firstPrompt once per read", () => {
  const p = prompt();
  const { events, warnings } = run([p, prompt()]);
  assert.equal(warnings, []);
  assert.equal(of(events, "prompt").length, 2);
  const metas = of(events, "meta") as SessionMetaEvent[];
  assert.is(metas.length, 1, "the repeated line says nothing new");
  assert.equal(metas[0]?.patch, { project: p.cwd, gitBranch: p.gitBranch === "HEAD" ? null : p.gitBranch, cliVersion: p.version, origin: p.entrypoint, firstPrompt: shortenPrompt(p.message.content) });
  assert.is(events[0]?.ts, Date.parse(p.timestamp));
});

test("not prompts: meta, compaction summary, local command output, a task notification, sidechain in a main file", () => {
  const variants: RawLine[] = [
    { ...prompt(), isMeta: true },
    { ...prompt(), isCompactSummary: true },
    { ...prompt(), isVisibleInTranscriptOnly: true },
    { ...prompt(), message: { role: "user", content: "<local-command-stdout>Compacted</local-command-stdout>" } },
    { ...prompt(), message: { role: "user", content: "<local-command-caveat>x</local-command-caveat>" } },
    { ...prompt(), isSidechain: true },
    { ...prompt(), message: { role: "user", content: "   " } },
    { ...prompt(), message: { role: "user" } },
  ];
  // A background sub-agent's notification in the parent transcript (format doc §5), either form.
  const notice = "<task-notification>\n<task-id>a1</task-id>\n<status>completed</status>\n</task-notification>";
  variants.push({ ...prompt(), message: { role: "user", content: notice } }, { ...prompt(), message: { role: "user", content: [{ type: "text", text: notice }] } });
  for (const v of variants) assert.equal(of(run([v]).events, "prompt"), [], JSON.stringify(v).slice(0, 200));
  // A typed slash command is a prompt (format doc §3), and so are text blocks.
  assert.is(of(run([{ ...prompt(), message: { role: "user", content: "<command-name>/compact</command-name>" } }]).events, "prompt").length, 1);
  assert.is(of(run([{ ...prompt(), message: { role: "user", content: [{ type: "text", text: "hi" }] } }]).events, "prompt").length, 1);
});

test("a sub-agent file's task prompt counts there, not in a main file", () => {
  const p = subagentPrompt();
  assert.is(of(run([p], newLineContext(true)).events, "prompt").length, 1);
  assert.is(of(run([p], newLineContext(false)).events, "prompt").length, 0);
});

test("tool results: one event per block with is_error", () => {
  const r = toolResult();
  r.message.content = [r.message.content[0], { ...r.message.content[0], is_error: true }];
  const { events } = run([r]);
  assert.equal(of(events, "toolResult").map((e) => e.isError), [false, true]);
  assert.equal(of(events, "prompt"), []);
});

test("an assistant line: a response keyed by message.id:requestId with its usage and this line's tool calls", () => {
  const a = toolUseLine();
  const { events, warnings } = run([a]);
  assert.equal(warnings, []);
  const [resp] = of(events, "response") as ResponseEvent[];
  const u = a.message.usage;
  assert.equal(resp, {
    kind: "response",
    ts: Date.parse(a.timestamp),
    pos: 0,
    key: `${a.message.id}:${a.requestId}`,
    model: a.message.model,
    modelProvider: "anthropic",
    usage: { input: u.input_tokens, output: u.output_tokens, cacheRead: u.cache_read_input_tokens, cacheWrite: u.cache_creation_input_tokens, cacheWrite1h: u.cache_creation.ephemeral_1h_input_tokens, reasoning: u.output_tokens_details.thinking_tokens },
    costUsd: null,
    toolCalls: a.message.content.filter((b: RawLine) => b.type === "tool_use").length,
    error: null,
  });
  const meta = of(events, "meta")[0] as SessionMetaEvent;
  assert.is(meta.patch.model, a.message.model);
  assert.is(meta.patch.contextTokens, u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens);
});

test("bad usage: BAD_FIELD, the response stays without usage, the next line is unaffected", () => {
  for (const value of [1e308, -5]) {
    const a = toolUseLine();
    a.message.usage.output_tokens = value;
    const { events, warnings } = run([a, toolUseLine()]);
    assert.equal(warnings.map((w) => [w.code, w.where]), [["BAD_FIELD", "f:0"]]);
    const responses = of(events, "response") as ResponseEvent[];
    assert.is(responses.length, 2);
    assert.is(responses[0]?.usage, null);
    assert.is(responses[0]?.toolCalls, 1, "the rest of the event stays");
    assert.ok(responses[1]?.usage);
    // The latest valid response gives the context size; the bad one gives none.
    assert.ok(!("contextTokens" in ((of(events, "meta")[0] as SessionMetaEvent).patch)));
  }
});

test("the synthetic API-error line is an error incident, never a response", () => {
  const s = synthetic();
  const { events } = run([s]);
  assert.equal(of(events, "response"), []);
  const [inc] = of(events, "incident") as IncidentEvent[];
  assert.is(inc?.type, "error");
  assert.is(inc?.code, s.error);
  assert.is(inc?.message, s.message.content[0].text);
  assert.is((of(events, "meta")[0] as SessionMetaEvent).patch.model, undefined, "<synthetic> is not the session's model");
  // Without an `error` code the status names it; a synthetic line that is no error yields nothing.
  assert.is((of(run([{ ...s, error: undefined }]).events, "incident")[0] as IncidentEvent).code, `http_${s.apiErrorStatus}`);
  assert.equal(of(run([{ ...s, error: undefined, isApiErrorMessage: undefined, apiErrorStatus: undefined }]).events, "incident"), []);
});

test("retried attempts are warnings (429 is rate_limited); compaction is an info entry", () => {
  const e = apiError();
  const [retry] = of(run([e]).events, "incident") as IncidentEvent[];
  assert.equal([retry?.type, retry?.code], ["warning", "retry"]);
  assert.ok(retry?.message.includes(e.error.formatted) && retry.message.includes(`retry ${e.retryAttempt} of ${e.maxRetries}`), retry?.message);
  const limited = structuredClone(e);
  limited.error.status = 429;
  assert.is((of(run([limited]).events, "incident")[0] as IncidentEvent).code, "rate_limited");
  // The compact_boundary shape as the real CLI wrote it (format doc §7).
  const boundary = { ...e, subtype: "compact_boundary", level: "info", error: undefined, compactMetadata: { trigger: "manual", preTokens: 19148, postTokens: 2677 } };
  const [c] = of(run([boundary]).events, "incident") as IncidentEvent[];
  assert.equal([c?.type, c?.code, c?.message], ["info", "compaction", "context compacted (manual): 19148 -> 2677 tokens"]);
});

test("session facts: HEAD is no branch; a change is sent, a repeat is not; a summary is the title", () => {
  const p = prompt();
  const { events } = run([{ ...p, gitBranch: "HEAD" }, { ...toolResult(), gitBranch: "HEAD" }, { ...toolResult(), gitBranch: "feature" }, { type: "summary", summary: "Fix  the\nbuild", leafUuid: "x" }]);
  const patches = (of(events, "meta") as SessionMetaEvent[]).map((m) => m.patch);
  assert.is(patches[0]?.gitBranch, null);
  assert.equal(patches.slice(1), [{ gitBranch: "feature" }, { title: "Fix the build" }]);
});

test("time: absent is null, unreadable is null with BAD_FIELD, out of order is kept as written", () => {
  const a = prompt();
  delete a.timestamp;
  const b = { ...prompt(), timestamp: "yesterday" };
  const c = { ...prompt(), timestamp: "2020-01-01T00:00:00.000Z" };
  const { events, warnings } = run([a, b, c]);
  assert.equal(of(events, "prompt").map((e) => e.ts), [null, null, Date.parse("2020-01-01T00:00:00.000Z")]);
  assert.equal(warnings.map((w) => w.code), ["BAD_FIELD"]);
});

test("firstPrompt: whitespace collapsed, at most 200 characters, never a broken surrogate pair", () => {
  const long = `${"word\n\t ".repeat(60)}`;
  const s = shortenPrompt(long);
  assert.ok(s.length <= 200 && s.endsWith("…") && !/\s\s/.test(s));
  const emoji = shortenPrompt("😀".repeat(150));
  assert.ok(emoji.length <= 200);
  assert.not.ok(/[\ud800-\udbff](?![\udc00-\udfff])/.test(emoji));
});

test("not JSON, or JSON that is not an object: one BAD_JSON warning, no events; unknown types are silent", () => {
  const ctx = newLineContext(false);
  for (const line of ['{"type":"user","mess', "[1,2]", "42", '"x"', "null"]) {
    const warnings: SourceWarning[] = [];
    assert.equal(parseLine(line, 0, "f:0", ctx, warnings), []);
    assert.equal(warnings.map((w) => w.code), ["BAD_JSON"], line);
  }
  const warnings: SourceWarning[] = [];
  assert.equal(parseLine('{"type":"something-new","x":{"y":1}}', 0, "f:0", ctx, warnings), []);
  assert.equal(parseLine('{"type":"assistant","message":"oops"}', 0, "f:0", ctx, warnings), []);
  assert.equal(warnings, []);
});

test.run();
