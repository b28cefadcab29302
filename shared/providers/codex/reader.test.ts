import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ActivityEvent, IncidentEvent, RateLimitEvent, ResponseEvent, SourceReader, TranscriptRef } from "../contract.js";
import type { SourceWarning } from "../result.js";
import { openCodexReader } from "./reader.js";
import type { CodexReaderOptions } from "./reader.js";
import { copyCodexHome, installOf, isEvent, lastTotal, makeTempDir, mapped, rawLines, recordSums, removeTempDirs, rolloutFiles, sessionIdOf, writeLines } from "../../../test/helpers/codex-fixture.js";
import type { RawLine } from "../../../test/helpers/codex-fixture.js";

test.after(removeTempDirs);

// The fixture's sessions (README scenario), by session id.
const RESUMED = "01a20a4f-8ada-7c40-a2c4-78459390a270";
const FAILED_500 = "01a20a4f-ce31-70b1-9d3d-de24c7722363";
const TUI = "01a20a4f-fdf8-7f63-ac60-18abdb48f090";
const NO_GIT = "01a20a4f-c0a7-70c0-9b38-1aa052ca57cc";

function open(dir: string, opts: CodexReaderOptions = {}): SourceReader {
  const r = openCodexReader(installOf(dir), { probe: { heldLocks: () => [] }, ...opts });
  if (!r.ok) throw r.error;
  return r.value;
}

function list(reader: SourceReader): TranscriptRef[] {
  const r = reader.listTranscripts();
  if (!r.ok) throw r.error;
  return r.value;
}

function refOf(reader: SourceReader, id: string): TranscriptRef {
  const ref = list(reader).find((t) => t.id === id);
  if (!ref) throw new Error(`no transcript ${id}`);
  return ref;
}

/** Follows the cursor until done, `limit` events per call. */
function drain(reader: SourceReader, ref: TranscriptRef, limit = 1000, cursor: unknown = null) {
  const events: ActivityEvent[] = [];
  const warnings: SourceWarning[] = [];
  let calls = 0;
  let restarted = false;
  for (;;) {
    const r = reader.readTranscript(ref, cursor, limit);
    if (!r.ok) throw r.error;
    calls++;
    assert.ok(calls < 10_000, "terminates");
    events.push(...r.value.events);
    warnings.push(...r.warnings);
    restarted ||= r.value.restarted;
    // The store keeps the cursor as JSON: hand back what a round trip gives.
    cursor = JSON.parse(JSON.stringify(r.value.cursor)) as unknown;
    if (r.value.done) return { events, warnings, cursor, calls, restarted };
  }
}

type Sums = ReturnType<typeof mapped>;
const zero = (): Sums => ({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 });

/** The core's rule: usage counted once per response key. */
function dedupedUsage(events: ActivityEvent[]): { sums: Sums; keys: number } {
  const seen = new Set<string>();
  const sums = zero();
  for (const e of events) {
    if (e.kind !== "response" || e.key === null || seen.has(e.key)) continue;
    seen.add(e.key);
    if (!e.usage) continue;
    for (const k of Object.keys(sums) as Array<keyof Sums>) sums[k] += e.usage[k];
  }
  return { sums, keys: seen.size };
}

const ofKind = <K extends ActivityEvent["kind"]>(events: ActivityEvent[], kind: K) => events.filter((e): e is Extract<ActivityEvent, { kind: K }> => e.kind === kind);
const fileOf = (codexDir: string, id: string): string => {
  const rel = rolloutFiles(codexDir).find((r) => r.includes(id));
  if (!rel) throw new Error(`no file for ${id}`);
  return path.join(codexDir, rel);
};

test("every session: usage per response_id equals the records and the last total; prompts, tools and results as the lines say", () => {
  const { codexDir } = copyCodexHome();
  const reader = open(codexDir);
  const refs = list(reader);
  const files = rolloutFiles(codexDir);
  assert.equal(refs.map((r) => r.id).sort(), files.map((f) => sessionIdOf(path.join(codexDir, f))).sort());
  let withTools = 0;
  for (const ref of refs) {
    const lines = rawLines(fileOf(codexDir, ref.id));
    const expected = recordSums(lines);
    const { events, warnings } = drain(reader, ref);
    assert.equal(warnings, [], ref.id);
    const got = dedupedUsage(events);
    assert.equal(got.sums, mapped(expected.sums), ref.id);
    assert.equal(got.sums, mapped(lastTotal(lines)), `${ref.id}: the last token_count total`);
    assert.is(got.keys, expected.responses, ref.id);
    assert.is(ofKind(events, "response").length, lines.filter((l) => l.type === "token_usage_record").length, ref.id);
    assert.is(ofKind(events, "prompt").length, lines.filter((l) => isEvent(l, "task_started")).length, ref.id);
    const calls = lines.filter((l) => l.type === "response_item" && /_call$/.test(l.payload.type)).length;
    withTools += calls;
    assert.is(ofKind(events, "response").reduce((n, e) => n + e.toolCalls, 0), calls, ref.id);
    // Tool results in order, failed when the command's exit code says so.
    const exits = new Map(lines.filter((l) => isEvent(l, "item_completed") && l.payload.item.type === "CommandExecution").map((l) => [l.payload.item.id, l.payload.item.exit_code]));
    const outputs = lines.filter((l) => l.type === "response_item" && l.payload.type === "function_call_output");
    assert.equal(ofKind(events, "toolResult").map((e) => e.isError), outputs.map((l) => exits.get(l.payload.call_id) !== 0), ref.id);
    for (const e of ofKind(events, "response")) assert.is(e.modelProvider, "openai");
    // Events are in file order.
    const positions = events.map((e) => e.pos);
    assert.equal(positions, [...positions].sort((a, b) => a - b), ref.id);
  }
  assert.ok(withTools > 0, "the fixture has tool calls");
});

test("per model: each response carries its turn_context model", () => {
  const { codexDir } = copyCodexHome();
  const reader = open(codexDir);
  for (const ref of list(reader)) {
    const lines = rawLines(fileOf(codexDir, ref.id));
    const modelOfTurn = new Map(lines.filter((l) => l.type === "turn_context").map((l) => [l.payload.turn_id, l.payload.model]));
    const expected = lines.filter((l) => l.type === "token_usage_record").map((l) => [l.payload.response_id, modelOfTurn.get(l.payload.turn_id)]);
    const { events } = drain(reader, ref);
    assert.equal(ofKind(events, "response").map((r) => [r.key, r.model]), expected, ref.id);
  }
});

test("the resumed session: two turns in one file; a model switched on resume (in a copy) is per turn", () => {
  const { codexDir } = copyCodexHome();
  const file = fileOf(codexDir, RESUMED);
  const lines = rawLines(file);
  assert.is(lines.filter((l) => isEvent(l, "task_started")).length, 2);
  let reader = open(codexDir);
  let { events } = drain(reader, refOf(reader, RESUMED));
  assert.is(ofKind(events, "prompt").length, 2);
  // Resume with -m: the second turn's turn_context names another model.
  const contexts = lines.filter((l) => l.type === "turn_context");
  const second = contexts[1] as RawLine;
  second.payload.model = "gpt-5-mini";
  writeLines(file, lines);
  reader = open(codexDir);
  ({ events } = drain(reader, refOf(reader, RESUMED)));
  const expected = lines.filter((l) => l.type === "token_usage_record").map((l) => (l.payload.turn_id === second.payload.turn_id ? "gpt-5-mini" : "gpt-5-codex"));
  assert.ok(expected.includes("gpt-5-mini") && expected.includes("gpt-5-codex"));
  assert.equal(ofKind(events, "response").map((r) => r.model), expected);
  assert.equal(ofKind(events, "meta").filter((m) => m.patch.model !== undefined).map((m) => m.patch.model), ["gpt-5-codex", "gpt-5-mini"]);
});

test("the 500 session: one prompt, one error incident with the file's code and message, no response", () => {
  const { codexDir } = copyCodexHome();
  const reader = open(codexDir);
  const lines = rawLines(fileOf(codexDir, FAILED_500));
  const failure = lines.find((l) => isEvent(l, "task_complete"))?.payload.error;
  assert.ok(failure);
  const { events } = drain(reader, refOf(reader, FAILED_500));
  assert.is(ofKind(events, "response").length, 0);
  assert.is(ofKind(events, "prompt").length, 1);
  assert.equal(ofKind(events, "incident").map((i) => [i.type, i.code, i.message]), [["error", failure.codex_error_info, failure.message]]);
});

test("a 429 turn (made in a copy, shaped like format doc §7): one warning, no error, rate limits with primary 100", () => {
  const { codexDir } = copyCodexHome();
  const file = fileOf(codexDir, FAILED_500);
  const lines = rawLines(file);
  const started = lines.find((l) => isEvent(l, "task_started")) as RawLine;
  const turnContext = lines.find((l) => l.type === "turn_context") as RawLine;
  const resets = 1795481131;
  const turn = "01a20a50-0000-7000-8000-000000000429";
  let ordinal = (lines[lines.length - 1] as RawLine).ordinal as number;
  const at = (s: string) => `2026-11-23T21:40:${s}.000Z`;
  const add = (type: string, payload: Record<string, unknown>, ts: string) => lines.push({ timestamp: at(ts), ordinal: ++ordinal, type, payload });
  add("event_msg", { ...started.payload, turn_id: turn }, "00");
  add("turn_context", { ...turnContext.payload, turn_id: turn }, "01");
  add("event_msg", { type: "token_count", info: null, rate_limits: { limit_id: "codex", limit_name: null, primary: { used_percent: 100.0, window_minutes: 300, resets_at: resets }, secondary: { used_percent: 40.0, window_minutes: 10080, resets_at: resets + 3600 }, credits: { has_credits: false, unlimited: false, balance: null }, plan_type: null } }, "02");
  add("event_msg", { type: "task_complete", turn_id: turn, last_agent_message: null, error: { message: "You've hit your usage limit.", codex_error_info: "usage_limit_exceeded" } }, "03");
  writeLines(file, lines);
  const reader = open(codexDir);
  const { events, warnings } = drain(reader, refOf(reader, FAILED_500));
  assert.equal(warnings, []);
  const incidents = ofKind(events, "incident") as IncidentEvent[];
  const last = incidents[incidents.length - 1] as IncidentEvent;
  assert.equal([last.type, last.code, last.message], ["warning", "usage_limit_exceeded", "You've hit your usage limit."]);
  assert.equal(incidents.filter((i) => i.type === "error").length, 1, "only the original 500 turn is an error");
  const limits = ofKind(events, "rateLimits") as RateLimitEvent[];
  assert.is(limits.length, 1);
  assert.equal(limits[0]?.snapshot.primary, { usedPercent: 100, windowMinutes: 300, resetsAt: resets * 1000 });
  assert.is(limits[0]?.ts, Date.parse(at("02")));
  assert.is(ofKind(events, "response").length, 0);
  assert.is(ofKind(events, "prompt").length, 2);
});

test("session facts: the TUI session is `vscode`, exec ones `exec`; branch from git, null without a repo", () => {
  const { codexDir } = copyCodexHome();
  const reader = open(codexDir);
  for (const ref of list(reader)) {
    const meta = (rawLines(fileOf(codexDir, ref.id))[0] as RawLine).payload;
    const { events } = drain(reader, ref);
    const first = ofKind(events, "meta")[0];
    assert.is(first?.pos, 0);
    assert.equal(first?.patch.origin, meta.source, ref.id);
    assert.equal(first?.patch.project, meta.cwd, ref.id);
    assert.equal(first?.patch.cliVersion, meta.cli_version, ref.id);
    assert.equal(first?.patch.gitBranch, meta.git?.branch ?? null, ref.id);
  }
  const origin = (id: string) => ofKind(drain(reader, refOf(reader, id)).events, "meta")[0]?.patch.origin;
  assert.is(origin(TUI), "vscode");
  assert.is(origin(RESUMED), "exec");
  assert.is(ofKind(drain(reader, refOf(reader, NO_GIT)).events, "meta")[0]?.patch.gitBranch, null);
  // The first prompt is the session's first UserMessage.
  const firstUser = rawLines(fileOf(codexDir, TUI)).find((l) => isEvent(l, "item_completed") && l.payload.item.type === "UserMessage");
  const metas = ofKind(drain(reader, refOf(reader, TUI)).events, "meta");
  assert.is(metas.find((m) => m.patch.firstPrompt !== undefined)?.patch.firstPrompt, firstUser?.payload.item.content[0].text);
});

test("the date folder says nothing: a rollout moved to another day's folder keeps its line times; a copy is not counted twice", () => {
  const { codexDir } = copyCodexHome();
  const original = fileOf(codexDir, RESUMED);
  const lines = rawLines(original);
  const movedDir = path.join(codexDir, "sessions", "2026", "11", "24");
  fs.mkdirSync(movedDir, { recursive: true });
  const moved = path.join(movedDir, path.basename(original));
  fs.renameSync(original, moved);
  // Another session copied into a third day's folder: two files, one session.
  const copied = fileOf(codexDir, TUI);
  const copyDir = path.join(codexDir, "sessions", "2026", "12", "01");
  fs.mkdirSync(copyDir, { recursive: true });
  fs.copyFileSync(copied, path.join(copyDir, path.basename(copied)));
  const reader = open(codexDir);
  const refs = list(reader);
  assert.is(refs.length, new Set(rolloutFiles(codexDir).map((f) => sessionIdOf(path.join(codexDir, f)))).size);
  assert.is(refs.filter((r) => r.id === TUI).length, 1);
  const { events } = drain(reader, refOf(reader, RESUMED));
  const byPos = new Map<number, number>();
  let offset = 0;
  for (const text of fs.readFileSync(moved, "utf8").split("\n")) {
    if (text === "") continue;
    byPos.set(offset, Date.parse(JSON.parse(text).timestamp));
    offset += Buffer.byteLength(text) + 1;
  }
  for (const e of events) assert.is(e.ts, byPos.get(e.pos) ?? null);
  const days = new Set(ofKind(events, "response").map((e) => new Date(e.ts as number).toISOString().slice(0, 10)));
  assert.equal([...days], [...new Set(lines.filter((l) => l.type === "token_usage_record").map((l) => l.timestamp.slice(0, 10)))]);
  assert.equal([...days], ["2026-11-23"]);
  const tui = drain(reader, refOf(reader, TUI)).events;
  assert.equal(dedupedUsage(tui).sums, mapped(recordSums(rawLines(copied)).sums));
});

test("duplicate token_count lines (format doc §5 trap 1) change nothing but repeat the limits", () => {
  const { codexDir } = copyCodexHome();
  const file = fileOf(codexDir, RESUMED);
  const lines = rawLines(file);
  const before = drain(open(codexDir), refOf(open(codexDir), RESUMED)).events;
  const doubled: RawLine[] = [];
  for (const l of lines) {
    doubled.push(l);
    if (isEvent(l, "token_count")) doubled.push(l);
  }
  writeLines(file, doubled);
  const reader = open(codexDir);
  const after = drain(reader, refOf(reader, RESUMED)).events;
  assert.equal(dedupedUsage(after).sums, dedupedUsage(before).sums);
  assert.equal(dedupedUsage(after).sums, mapped(recordSums(lines).sums));
  assert.is(ofKind(after, "response").length, ofKind(before, "response").length);
  const ctx = (es: ActivityEvent[]) => ofKind(es, "meta").filter((m) => m.patch.contextTokens !== undefined).map((m) => m.patch.contextTokens);
  assert.equal(ctx(after), ctx(before));
  assert.is(ofKind(after, "rateLimits").length, 2 * ofKind(before, "rateLimits").length);
});

test("rate limits: the latest snapshot by line time across all files is what the events give", () => {
  const { codexDir } = copyCodexHome();
  const reader = open(codexDir);
  let latest: RawLine | null = null;
  for (const rel of rolloutFiles(codexDir)) {
    for (const l of rawLines(path.join(codexDir, rel))) {
      if (isEvent(l, "token_count") && l.payload.rate_limits && (latest === null || l.timestamp > latest.timestamp)) latest = l;
    }
  }
  assert.ok(latest);
  const all = list(reader).flatMap((ref) => ofKind(drain(reader, ref).events, "rateLimits"));
  const newest = all.reduce((a, b) => ((b.ts ?? 0) > (a.ts ?? 0) ? b : a));
  const rl = (latest as RawLine).payload.rate_limits;
  assert.is(newest.ts, Date.parse((latest as RawLine).timestamp));
  assert.equal(newest.snapshot, {
    limitId: rl.limit_id,
    primary: { usedPercent: rl.primary.used_percent, windowMinutes: rl.primary.window_minutes, resetsAt: rl.primary.resets_at * 1000 },
    secondary: { usedPercent: rl.secondary.used_percent, windowMinutes: rl.secondary.window_minutes, resetsAt: rl.secondary.resets_at * 1000 },
    planType: rl.plan_type,
    credits: { hasCredits: rl.credits.has_credits, unlimited: rl.credits.unlimited, balance: rl.credits.balance },
  });
});

test("absurd usage (1e308, -5) is BAD_FIELD for that response only; a corrupt line is BAD_JSON; the rest is untouched", () => {
  const { codexDir } = copyCodexHome();
  const file = fileOf(codexDir, RESUMED);
  const lines = rawLines(file);
  const records = lines.filter((l) => l.type === "token_usage_record");
  const [r0, r1] = records as [RawLine, RawLine];
  r0.payload.usage.output_tokens = 1e308;
  r1.payload.usage.input_tokens = -5;
  const text = lines.map((l) => JSON.stringify(l));
  text.splice(5, 0, '{"timestamp":"2026-11-23T21:28:35.086Z","ordinal":5,"type":"event_msg","payload":{"type":"task_st');
  fs.writeFileSync(file, `${text.join("\n")}\n`);
  const reader = open(codexDir);
  const { events, warnings } = drain(reader, refOf(reader, RESUMED));
  assert.equal(warnings.map((w) => w.code).sort(), ["BAD_FIELD", "BAD_FIELD", "BAD_JSON"]);
  const responses = ofKind(events, "response") as ResponseEvent[];
  assert.is(responses.length, records.length);
  assert.equal(responses.filter((r) => r.usage === null).map((r) => r.key), [r0.payload.response_id, r1.payload.response_id]);
  const rest = recordSums(records.slice(2));
  assert.equal(dedupedUsage(events).sums, mapped(rest.sums));
  assert.is(ofKind(events, "prompt").length, 2);
});

test("paging: a few events per call gives the same events as one read", () => {
  const { codexDir } = copyCodexHome();
  const reader = open(codexDir);
  for (const ref of list(reader)) {
    const whole = drain(reader, ref);
    const paged = drain(reader, ref, 2);
    if (whole.events.length > 2) assert.ok(paged.calls > 1, ref.id);
    const noMeta = (es: ActivityEvent[]) => es.filter((e) => e.kind !== "meta");
    assert.equal(noMeta(paged.events), noMeta(whole.events), ref.id);
  }
});

test("append and resume from a stored cursor in a new reader (daemon restart) mid-turn: nothing lost or repeated", () => {
  const { codexDir } = copyCodexHome();
  const file = fileOf(codexDir, RESUMED);
  const full = fs.readFileSync(file, "utf8");
  const all = full.split("\n").filter((l) => l !== "");
  // Cut inside the second turn, after its turn_context and a function_call, before their record.
  const cut = all.findIndex((l, i) => i > 30 && JSON.parse(l).payload?.type === "function_call") + 1;
  assert.ok(cut > 30);
  fs.writeFileSync(file, `${all.slice(0, cut).join("\n")}\n${all[cut]?.slice(0, 40)}`); // and a partial line
  const reader1 = open(codexDir);
  const first = drain(reader1, refOf(reader1, RESUMED));
  fs.writeFileSync(file, full);
  const reader2 = open(codexDir);
  const second = drain(reader2, refOf(reader2, RESUMED), 1000, first.cursor);
  assert.not.ok(second.restarted);
  const whole = drain(reader2, refOf(reader2, RESUMED)).events;
  const noMeta = (es: ActivityEvent[]) => es.filter((e) => e.kind !== "meta");
  assert.equal(noMeta([...first.events, ...second.events]), noMeta(whole));
  // The record after the cut got the model and the tool call from the stored state.
  const resumed = ofKind(second.events, "response")[0] as ResponseEvent;
  assert.equal([resumed.model, resumed.toolCalls], ["gpt-5-codex", 1]);
});

test("a truncated or replaced file restarts; a foreign cursor restarts", () => {
  const { codexDir } = copyCodexHome();
  const file = fileOf(codexDir, RESUMED);
  const reader = open(codexDir);
  const ref = refOf(reader, RESUMED);
  const first = drain(reader, ref);
  const lines = fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
  fs.truncateSync(file, 0);
  fs.writeFileSync(file, `${lines.slice(0, 10).join("\n")}\n`);
  const again = drain(reader, ref, 1000, first.cursor);
  assert.ok(again.restarted);
  assert.is(ofKind(again.events, "prompt").length, 1);
  // The parser state restarted too: the session facts of line 0 come again.
  assert.is(ofKind(again.events, "meta")[0]?.patch.project, (rawLines(file)[0] as RawLine).payload.cwd);
  const foreign = reader.readTranscript(ref, { offset: 5, inode: 1, size: 9 }, 1000);
  assert.ok(foreign.ok && foreign.value.restarted && foreign.value.events.some((e) => e.kind === "prompt"));
});

test("archiving moves the file: same transcript id, the cursor still fits, nothing is read twice; both copies list once", () => {
  const { codexDir } = copyCodexHome();
  const reader = open(codexDir);
  const ref = refOf(reader, TUI);
  const first = drain(reader, ref);
  const live = fileOf(codexDir, TUI);
  const archived = path.join(codexDir, "archived_sessions", path.basename(live));
  fs.mkdirSync(path.dirname(archived), { recursive: true });
  fs.renameSync(live, archived);
  const after = refOf(reader, TUI);
  assert.is(after.changeToken.split(":")[1], ref.changeToken.split(":")[1], "same inode");
  const next = drain(reader, after, 1000, first.cursor);
  assert.not.ok(next.restarted);
  assert.equal(next.events, []);
  // A copy back in sessions/ (both exist): listed once, the live path read.
  fs.copyFileSync(archived, live);
  assert.is(list(reader).filter((r) => r.id === TUI).length, 1);
});

test("transcript view: prompts, assistant text with usage once per response, tool calls and results named, the failed turn", () => {
  const { codexDir } = copyCodexHome();
  const reader = open(codexDir);
  for (const ref of list(reader)) {
    const lines = rawLines(fileOf(codexDir, ref.id));
    const r = reader.readMessages(ref);
    assert.ok(r.ok, ref.id);
    if (!r.ok) continue;
    assert.equal(r.warnings, []);
    const msgs = r.value.messages;
    assert.is(r.value.bytes, fs.statSync(fileOf(codexDir, ref.id)).size);
    const prompts = lines.filter((l) => isEvent(l, "item_completed") && l.payload.item.type === "UserMessage").map((l) => l.payload.item.content.map((c: RawLine) => c.text).join("\n"));
    assert.equal(msgs.filter((m) => m.role === "user").map((m) => m.text), prompts, ref.id);
    const answers = lines.filter((l) => l.type === "response_item" && l.payload.type === "message" && l.payload.role === "assistant").map((l) => l.payload.content.map((c: RawLine) => c.text).join("\n"));
    assert.equal(msgs.filter((m) => m.role === "assistant" && m.text !== "" && !m.isError).map((m) => m.text), answers, ref.id);
    const sums = zero();
    for (const m of msgs) if (m.usage) for (const k of Object.keys(sums) as Array<keyof Sums>) sums[k] += m.usage[k];
    assert.equal(sums, mapped(recordSums(lines).sums), ref.id);
    const calls = lines.filter((l) => l.type === "response_item" && l.payload.type === "function_call");
    assert.equal(msgs.flatMap((m) => m.toolCalls), calls.map((l) => ({ id: l.payload.call_id, name: l.payload.name })), ref.id);
    const results = msgs.filter((m) => m.role === "toolResult");
    assert.equal(results.map((m) => m.toolName), lines.filter((l) => l.type === "response_item" && l.payload.type === "function_call_output").map(() => "exec_command"), ref.id);
    assert.equal(new Set(msgs.map((m) => m.id)).size, msgs.length, `${ref.id}: ids unique`);
    assert.equal(msgs.map((m) => m.pos), [...msgs.map((m) => m.pos)].sort((a, b) => a - b));
    const failure = lines.find((l) => isEvent(l, "task_complete") && l.payload.error)?.payload.error;
    const errors = msgs.filter((m) => m.isError);
    if (failure) assert.equal(errors.map((m) => [m.role, m.errorMessage, m.stopReason]), [["assistant", failure.message, failure.codex_error_info]]);
    else assert.is(errors.length, 0);
    for (const m of msgs.filter((x) => x.usage)) assert.ok(m.model === "gpt-5-codex" || m.model === "gpt-5-mini");
  }
});

test("lines the parser does not use are never parsed", () => {
  const { codexDir } = copyCodexHome();
  const parsedTypes = new Set<string>();
  let parsed = 0;
  const parse = (t: string): unknown => {
    parsed++;
    const v = JSON.parse(t) as RawLine;
    parsedTypes.add(v.payload?.type ? `${v.type}/${v.payload.type}` : v.type);
    return v;
  };
  const reader = open(codexDir, { parse });
  let lines = 0;
  for (const ref of list(reader)) {
    drain(reader, ref);
    lines += rawLines(fileOf(codexDir, ref.id)).length;
  }
  // A tool call is counted from its line's head: the parser never sees it (toolCalls stay right: the tests above).
  for (const t of ["world_state", "response_item/message", "response_item/reasoning", "event_msg/thread_settings_applied", "response_item/function_call"]) assert.not.ok(parsedTypes.has(t), t);
  assert.ok(parsedTypes.has("response_item/function_call_output"), "a tool's output is parsed (its exit code)");
  assert.ok(parsed < lines);
});

test("a session_meta's instructions are never parsed; its facts still are", () => {
  const { codexDir } = copyCodexHome();
  const parsedMetas: string[] = [];
  const parse = (t: string): unknown => {
    const v = JSON.parse(t) as RawLine;
    if (v.type === "session_meta") parsedMetas.push(t);
    return v;
  };
  const reader = open(codexDir, { parse });
  const ref = refOf(reader, NO_GIT);
  const { events } = drain(reader, ref);
  const [meta] = rawLines(fileOf(codexDir, NO_GIT));
  assert.is(meta?.type, "session_meta");
  const instructions = (meta?.payload as { base_instructions?: { text?: string } }).base_instructions?.text ?? "";
  assert.ok(instructions.length > 10_000, "the fixture's instructions are long");
  assert.is(parsedMetas.length, 1);
  const raw = fs.readFileSync(fileOf(codexDir, NO_GIT), "utf8").split("\n")[0] as string;
  assert.ok((parsedMetas[0]?.length ?? 0) < raw.length - instructions.length / 2, `the parser got ${parsedMetas[0]?.length} of the line's ${raw.length} characters`);
  assert.not.ok(parsedMetas[0]?.includes(JSON.stringify(instructions).slice(1, 200)), "the instructions' text was handed to the parser");
  const patch = ofKind(events, "meta")[0]?.patch;
  assert.is(patch?.project, meta?.payload.cwd);
  assert.is(patch?.cliVersion, meta?.payload.cli_version);
});

test("appVersion: the newest cli_version, known before any read; changeStamp moves on every call", () => {
  const { codexDir } = copyCodexHome();
  const reader = open(codexDir);
  const v = reader.appVersion();
  assert.ok(v.ok);
  if (v.ok) assert.is(v.value, (rawLines(fileOf(codexDir, TUI))[0] as RawLine).payload.cli_version);
  const a = reader.changeStamp();
  const b = reader.changeStamp();
  assert.ok(a.ok && b.ok && a.value !== b.value);
  const empty = open(makeTempDir());
  const none = empty.appVersion();
  assert.ok(none.ok && none.value === null);
});

test("an id that is not a session id, or a session with no file, is `missing`; a missing dir does not open", () => {
  const { codexDir } = copyCodexHome();
  const reader = open(codexDir);
  const bad = reader.readTranscript({ id: "../../etc/passwd", sessionKey: null, parentKey: null, changeToken: "", sizeBytes: null }, null, 10);
  assert.ok(!bad.ok && bad.error.kind === "missing");
  const gone = reader.readMessages({ id: "01a20a4f-0000-7000-8000-000000000000", sessionKey: null, parentKey: null, changeToken: "", sizeBytes: null });
  assert.ok(!gone.ok && gone.error.kind === "missing");
  const r = openCodexReader(installOf(path.join(codexDir, "nope")));
  assert.ok(!r.ok && r.error.kind === "missing");
});

test("nothing is written into CODEX_HOME", () => {
  const { codexDir } = copyCodexHome();
  const snapshot = (): string[] => {
    const out: string[] = [];
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else out.push(`${path.relative(codexDir, p)}:${fs.statSync(p).size}:${fs.statSync(p).mtimeMs}`);
      }
    };
    walk(codexDir);
    return out.sort();
  };
  const before = snapshot();
  const reader = open(codexDir);
  for (const ref of list(reader)) {
    drain(reader, ref);
    reader.readMessages(ref);
  }
  reader.liveSessions();
  reader.appVersion();
  reader.close();
  assert.equal(snapshot(), before);
});

test.run();
