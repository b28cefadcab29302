import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ActivityEvent, IncidentEvent, ResponseEvent, SourceReader, TranscriptRef } from "../contract.js";
import type { SourceWarning } from "../result.js";
import { SKIPPED_TYPES } from "./classify.js";
import { openClaudeCodeReader } from "./reader.js";
import { compareVersions } from "../version-order.js";
import type { ClaudeCodeReaderOptions } from "./reader.js";
import { copyClaudeHome, expectedPrompts, expectedUsage, installOf, makeTempDir, rawLines, removeTempDirs, transcriptFiles, zeroSums } from "../../../test/helpers/claude-code-fixture.js";
import type { RawLine, UsageSums } from "../../../test/helpers/claude-code-fixture.js";

test.after(removeTempDirs);

const ERROR_SESSION = "099ba3cc-161b-48e0-aab9-43167bb42fd3";
const RESUMED_SESSION = "2e9c2371-da3e-47f6-90cb-2bbf8fb5defc";

function open(dir: string, opts: ClaudeCodeReaderOptions = {}): SourceReader {
  const r = openClaudeCodeReader(installOf(dir), { probe: { isPidAlive: () => false }, ...opts });
  if (!r.ok) throw r.error;
  return r.value;
}

function list(reader: SourceReader): TranscriptRef[] {
  const r = reader.listTranscripts();
  if (!r.ok) throw r.error;
  return r.value;
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
    cursor = r.value.cursor;
    if (r.value.done) return { events, warnings, cursor, calls, restarted };
  }
}

/** The core's rule: usage counted once per response key. */
function dedupedUsage(events: ActivityEvent[]): { sums: UsageSums; keys: number } {
  const seen = new Set<string>();
  const sums = zeroSums();
  for (const e of events) {
    if (e.kind !== "response" || e.key === null || seen.has(e.key)) continue;
    seen.add(e.key);
    if (!e.usage) continue;
    for (const k of Object.keys(sums) as Array<keyof UsageSums>) sums[k] += e.usage[k];
  }
  return { sums, keys: seen.size };
}

const count = (events: ActivityEvent[], kind: ActivityEvent["kind"]) => events.filter((e) => e.kind === kind).length;
const refOf = (refs: TranscriptRef[], sessionPrefix: string) => {
  const ref = refs.find((t) => (t.sessionKey ?? "").startsWith(sessionPrefix) && t.parentKey === null);
  if (!ref) throw new Error(`no transcript for ${sessionPrefix}`);
  return ref;
};

test("every transcript: usage per distinct (message.id, requestId), prompts, tool calls and results as the fixture's own lines say", () => {
  const { claudeDir } = copyClaudeHome();
  const reader = open(claudeDir);
  const refs = list(reader);
  assert.equal(refs.map((r) => r.id), transcriptFiles(claudeDir));
  let lineCountForResponses = 0;
  for (const ref of refs) {
    const lines = rawLines(path.join(claudeDir, ref.id));
    const expected = expectedUsage(lines);
    const { events, warnings } = drain(reader, ref);
    assert.equal(warnings, [], ref.id);
    const got = dedupedUsage(events);
    assert.equal(got.sums, expected.sums, ref.id);
    assert.is(got.keys, expected.responses, ref.id);
    // One response event per non-synthetic assistant line; the core de-duplicates, not the reader.
    const assistantLines = lines.filter((l) => l.type === "assistant" && l.message.model !== "<synthetic>").length;
    assert.is(count(events, "response"), assistantLines, ref.id);
    lineCountForResponses += assistantLines - expected.responses;
    const toolCalls = events.reduce((n, e) => n + (e.kind === "response" ? e.toolCalls : 0), 0);
    assert.is(toolCalls, expected.toolUseIds.size, ref.id);
    assert.is(count(events, "prompt"), expectedPrompts(lines, ref.parentKey !== null), ref.id);
    const results = lines.flatMap((l) => (l.type === "user" && Array.isArray(l.message.content) ? l.message.content.filter((b: RawLine) => b.type === "tool_result") : []));
    assert.equal(events.filter((e) => e.kind === "toolResult").map((e) => (e as { isError: boolean }).isError), results.map((b: RawLine) => b.is_error === true), ref.id);
    for (const e of events) if (e.kind === "response") assert.is(e.modelProvider, "anthropic");
  }
  assert.ok(lineCountForResponses > 0, "the fixture has responses written as several lines");
});

test("the sub-agent file is its own transcript: key <sessionId>:subagent:<agentId>, parent the session, its task prompt counted", () => {
  const { claudeDir } = copyClaudeHome();
  const reader = open(claudeDir);
  const subs = list(reader).filter((r) => r.parentKey !== null);
  assert.is(subs.length, 1);
  const sub = subs[0] as TranscriptRef;
  const lines = rawLines(path.join(claudeDir, sub.id));
  const first = lines[0] as RawLine;
  assert.is(sub.sessionKey, `${first.sessionId}:subagent:${first.agentId}`);
  assert.is(sub.parentKey, first.sessionId);
  const { events } = drain(reader, sub);
  assert.is(count(events, "prompt"), 1);
  const meta = events.find((e) => e.kind === "meta" && e.patch.firstPrompt !== undefined);
  assert.is(meta?.kind === "meta" ? meta.patch.firstPrompt : null, first.message.content.replace(/\s+/g, " ").trim());
});

test("the error-only session: no response, one error incident, one warning per retried attempt", () => {
  const { claudeDir } = copyClaudeHome();
  const reader = open(claudeDir);
  const ref = refOf(list(reader), ERROR_SESSION);
  const lines = rawLines(path.join(claudeDir, ref.id));
  const retries = lines.filter((l) => l.type === "system" && l.subtype === "api_error").length;
  const synthetic = lines.filter((l) => l.type === "assistant" && l.message.model === "<synthetic>");
  assert.ok(retries > 0 && synthetic.length === 1);
  const { events } = drain(reader, ref);
  assert.is(count(events, "response"), 0);
  const incidents = events.filter((e): e is IncidentEvent => e.kind === "incident");
  assert.equal(incidents.filter((e) => e.type === "error").map((e) => [e.code, e.message]), [[synthetic[0]?.error, synthetic[0]?.message.content[0].text]]);
  assert.equal(incidents.filter((e) => e.type === "warning").map((e) => e.code), Array(retries).fill("retry"));
  // The first meta that tells the session's facts (a queue-operation's marker carries none).
  const meta = events.find((e) => e.kind === "meta" && "gitBranch" in e.patch);
  assert.is(meta?.kind === "meta" ? meta.patch.gitBranch : undefined, null, "web-ui is not a git repo (gitBranch HEAD)");
});

test("the resumed session holds both prompts in one file", () => {
  const { claudeDir } = copyClaudeHome();
  const reader = open(claudeDir);
  const ref = refOf(list(reader), RESUMED_SESSION);
  const lines = rawLines(path.join(claudeDir, ref.id));
  assert.is(expectedPrompts(lines, false), 2);
  const { events } = drain(reader, ref);
  assert.is(count(events, "prompt"), 2);
  assert.is(events.filter((e) => e.kind === "meta" && e.patch.firstPrompt !== undefined).length, 1);
});

test("reading a few events at a time gives the same events as one read, each call near the limit", () => {
  const { claudeDir } = copyClaudeHome();
  const reader = open(claudeDir);
  for (const ref of list(reader)) {
    const whole = drain(reader, ref);
    const paged = drain(reader, ref, 2);
    if (whole.events.length > 2) assert.ok(paged.calls > 1, ref.id);
    // meta patches are per read (facts repeated in a new read), so compare everything else.
    const noMeta = (es: ActivityEvent[]) => es.filter((e) => e.kind !== "meta");
    assert.equal(noMeta(paged.events), noMeta(whole.events), ref.id);
  }
  const ref = refOf(list(reader), RESUMED_SESSION);
  const first = reader.readTranscript(ref, null, 2);
  assert.ok(first.ok && !first.value.done && first.value.events.length >= 2 && first.value.events.length <= 2 + 3);
});

/** A copy of a fixture transcript at a path the reader lists, made writable. */
function scratchTranscript(): { reader: SourceReader; ref: () => TranscriptRef; file: string; lines: string[]; claudeDir: string } {
  const { claudeDir } = copyClaudeHome();
  const reader = open(claudeDir);
  const ref0 = refOf(list(reader), RESUMED_SESSION);
  const file = path.join(claudeDir, ref0.id);
  const lines = fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
  return { reader, ref: () => refOf(list(reader), RESUMED_SESSION), file, lines, claudeDir };
}

test("a line without timestamp and lines out of order still read: ts null, same totals", () => {
  const { reader, ref, file, lines } = scratchTranscript();
  const parsed = lines.map((l) => JSON.parse(l) as RawLine);
  const firstAssistant = parsed.findIndex((l) => l.type === "assistant");
  delete parsed[firstAssistant]?.timestamp;
  const reordered = [...parsed].reverse();
  fs.writeFileSync(file, reordered.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const { events, warnings } = drain(reader, ref());
  assert.equal(warnings, []);
  const untimed = events.filter((e) => e.kind === "response" && e.ts === null) as ResponseEvent[];
  assert.is(untimed.length, 1);
  assert.is(untimed[0]?.key, `${parsed[firstAssistant]?.message.id}:${parsed[firstAssistant]?.requestId}`);
  assert.equal(dedupedUsage(events).sums, expectedUsage(parsed).sums);
});

test("usage of 1e308 or -5 on one line: BAD_FIELD, that line without usage, every other line as before", () => {
  for (const bad of ["1e308", "-5"]) {
    const { reader, ref, file, lines } = scratchTranscript();
    const before = drain(reader, ref()).events;
    const target = lines.findIndex((l) => l.includes('"type":"assistant"') && l.includes('"output_tokens":'));
    const pos = lines.slice(0, target).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
    lines[target] = (lines[target] as string).replace(/"output_tokens":\d+/, `"output_tokens":${bad}`);
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const after = drain(reader, ref());
    assert.equal(after.warnings.map((w) => [w.code, w.where]), [["BAD_FIELD", `${file}:${pos}`]], bad);
    const changed = after.events.filter((e) => e.kind === "response" && e.pos === pos) as ResponseEvent[];
    assert.is(changed.length, 1);
    assert.is(changed[0]?.usage, null);
    // Positions after the edited line moved by the length change; compare the rest without them.
    const others = (es: ActivityEvent[]) => es.filter((e) => e.kind === "response" && e.pos !== pos).map((e) => ({ ...e, pos: 0 }));
    assert.equal(others(after.events), others(before), bad);
    assert.is(others(before).length, count(before, "response") - 1);
  }
});

test("a corrupt line in the middle is one BAD_JSON warning; the lines around it read", () => {
  const { reader, ref, file, lines } = scratchTranscript();
  const before = drain(reader, ref()).events;
  const mid = Math.floor(lines.length / 2);
  const half = (lines[mid] as string).slice(0, 40);
  lines.splice(mid, 0, half.startsWith('{"type":"') ? '{"type":"user","message":{"content":"cut' : half);
  fs.writeFileSync(file, lines.join("\n") + "\n");
  const after = drain(reader, ref());
  assert.equal(after.warnings.map((w) => w.code), ["BAD_JSON"]);
  const strip = (es: ActivityEvent[]) => es.map((e) => ({ ...e, pos: 0 }));
  assert.equal(strip(after.events), strip(before));
});

test("appended lines: reading from the previous cursor yields only the new events", () => {
  const { reader, ref, file, lines } = scratchTranscript();
  const half = Math.floor(lines.length / 2);
  fs.writeFileSync(file, lines.slice(0, half).join("\n") + "\n");
  const first = drain(reader, ref());
  const tokenBefore = ref().changeToken;
  // The writer is mid-line: the partial line waits.
  const rest = lines.slice(half).join("\n") + "\n";
  fs.appendFileSync(file, rest.slice(0, 25));
  const partial = drain(reader, ref(), 1000, first.cursor);
  assert.equal(partial.events, []);
  fs.appendFileSync(file, rest.slice(25));
  assert.not.equal(ref().changeToken, tokenBefore);
  const second = drain(reader, ref(), 1000, partial.cursor);
  assert.not.ok(second.restarted);
  const whole = drain(reader, ref(), 1000, null);
  const noMeta = (es: ActivityEvent[]) => es.filter((e) => e.kind !== "meta");
  assert.equal(noMeta([...first.events, ...second.events]), noMeta(whole.events));
  assert.ok(second.events.some((e) => e.kind === "response") && second.events.every((e) => e.pos >= Buffer.byteLength(lines.slice(0, half).join("\n") + "\n")));
});

test("a truncated or replaced file, or a cursor that is not one, restarts from the beginning", () => {
  const { reader, ref, file, lines } = scratchTranscript();
  const whole = drain(reader, ref());
  fs.writeFileSync(file, lines.slice(0, 3).join("\n") + "\n"); // truncate in place (same inode)
  const truncated = reader.readTranscript(ref(), whole.cursor, 1000);
  assert.ok(truncated.ok && truncated.value.restarted);
  const again = drain(reader, ref());
  const replacement = `${file}.new`;
  fs.writeFileSync(replacement, lines.join("\n") + "\n");
  fs.renameSync(replacement, file);
  const replaced = reader.readTranscript(ref(), again.cursor, 1000);
  assert.ok(replaced.ok && replaced.value.restarted);
  if (replaced.ok) assert.is(count(replaced.value.events, "prompt"), 2);
  for (const junk of [{ offset: -1, inode: 1, size: 0 }, "abc", { offset: 5 }, [1, 2, 3]]) {
    const r = reader.readTranscript(ref(), junk, 1000);
    assert.ok(r.ok && r.value.restarted && r.value.events.length > 0, JSON.stringify(junk));
  }
});

test("skipped line types are never parsed: JSON.parse runs once per kept line, and a broken skipped line is no warning", () => {
  const { reader: _unused, ref, file, lines, claudeDir } = scratchTranscript();
  void _unused;
  let parses = 0;
  const reader = open(claudeDir, {
    parse: (t) => {
      parses++;
      return JSON.parse(t);
    },
  });
  const kept = lines.filter((l) => !SKIPPED_TYPES.has((JSON.parse(l) as RawLine).type)).length;
  assert.ok(kept < lines.length / 2, "most lines of a real transcript are skipped");
  drain(reader, ref());
  assert.is(parses, kept);
  readMessagesOk(reader, ref());
  assert.is(parses, kept * 2);
  // Lines that would fail if parsed: an attachment line (type after a huge object) and request lines.
  const broken = [
    `{"parentUuid":null,"isSidechain":false,"attachment":{"type":"prompt_snapshot","text":"${"x".repeat(50_000)}`,
    `{"type":"api-request-shape","sessionId":"s","shape":{"system":[${"{".repeat(1000)}`,
    `{"type":"api-request-blob","sessionId":"s","hash":"h","message":{"role":"user","content":[`,
  ];
  fs.appendFileSync(file, broken.join("\n") + "\n");
  const r = drain(reader, ref());
  assert.equal(r.warnings, []);
});

function readMessagesOk(reader: SourceReader, ref: TranscriptRef) {
  const r = reader.readMessages(ref);
  if (!r.ok) throw r.error;
  return r;
}

test("transcript view: prompts, assistant text and tool calls, named tool results, the API error; usage once per response", () => {
  const { claudeDir } = copyClaudeHome();
  const reader = open(claudeDir);
  for (const ref of list(reader)) {
    const file = path.join(claudeDir, ref.id);
    const lines = rawLines(file);
    const r = readMessagesOk(reader, ref);
    assert.is(r.value.bytes, fs.statSync(file).size);
    const msgs = r.value.messages;
    assert.equal(msgs.map((m) => m.pos), [...msgs.map((m) => m.pos)].sort((a, b) => a - b), "file order");
    // Usage summed over a page equals the de-duplicated usage.
    const sums = zeroSums();
    for (const m of msgs) if (m.usage) for (const k of Object.keys(sums) as Array<keyof UsageSums>) sums[k] += m.usage[k];
    assert.equal(sums, expectedUsage(lines).sums, ref.id);
    assert.is(msgs.filter((m) => m.role === "user").length, expectedPrompts(lines, ref.parentKey !== null));
    const toolNames = new Map<string, string>();
    for (const l of lines) if (l.type === "assistant") for (const b of l.message.content) if (b.type === "tool_use") toolNames.set(b.id, b.name);
    const results = lines.flatMap((l) => (l.type === "user" && Array.isArray(l.message.content) ? l.message.content.filter((b: RawLine) => b.type === "tool_result") : []));
    assert.equal(msgs.filter((m) => m.role === "toolResult").map((m) => [m.toolName, m.isError]), results.map((b: RawLine) => [toolNames.get(b.tool_use_id), b.is_error === true]));
    assert.equal(msgs.flatMap((m) => m.toolCalls.map((t) => t.id)), [...toolNames.keys()]);
    const synthetic = lines.filter((l) => l.type === "assistant" && l.message.model === "<synthetic>");
    const errors = msgs.filter((m) => m.isError && m.role === "assistant");
    assert.equal(errors.map((m) => m.errorMessage), synthetic.map((l) => l.message.content[0].text));
  }
});

test("transcript view: thinking is not text; a response whose first line is thinking shows its usage on the next line", () => {
  const { reader, ref, file, lines } = scratchTranscript();
  const parsed = lines.map((l) => JSON.parse(l) as RawLine);
  const at = parsed.findIndex((l) => l.type === "assistant");
  const thinking = structuredClone(parsed[at]) as RawLine;
  thinking.uuid = "thinking-line";
  thinking.message.content = [{ type: "thinking", thinking: "secret plan", signature: "sig" }];
  parsed.splice(at, 0, thinking);
  fs.writeFileSync(file, parsed.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const msgs = readMessagesOk(reader, ref()).value.messages;
  assert.not.ok(msgs.some((m) => m.text.includes("secret plan") || m.id === "thinking-line"));
  const firstAssistant = msgs.find((m) => m.role === "assistant");
  assert.is(firstAssistant?.id, parsed[at + 1]?.uuid);
  assert.ok(firstAssistant?.usage);
  assert.equal(msgs.reduce((n, m) => n + (m.usage?.input ?? 0), 0), expectedUsage(parsed).sums.input);
});

test("live sessions through the reader; a .key file's secret appears in nothing the reader returns", () => {
  const { claudeDir } = copyClaudeHome();
  const secret = "peer-token-must-not-leak-0123456789";
  fs.mkdirSync(path.join(claudeDir, "sessions"), { recursive: true });
  fs.writeFileSync(path.join(claudeDir, "sessions", `4242.${"ab".repeat(32)}.key`), JSON.stringify({ peerToken: secret, procStart: "1" }));
  fs.writeFileSync(path.join(claudeDir, "sessions", "4242.json"), JSON.stringify({ pid: 4242, sessionId: RESUMED_SESSION, cwd: "/home/op/code/api-server", startedAt: 1, procStart: "1", version: "2.1.999", status: "busy" }));
  const reader = open(claudeDir, { probe: { isPidAlive: (pid) => pid === 4242, procStartOf: () => "1", ownPidDomain: () => null, isProviderProcess: (pid) => pid === 4242 } });
  const outputs: unknown[] = [reader.liveSessions(), reader.listTranscripts(), reader.appVersion(), reader.changeStamp()];
  for (const ref of list(reader)) outputs.push(reader.readTranscript(ref, null, 1000), reader.readMessages(ref));
  assert.not.ok(JSON.stringify(outputs).includes(secret));
  const liveR = outputs[0] as ReturnType<SourceReader["liveSessions"]>;
  assert.ok(liveR.ok);
  if (liveR.ok) assert.equal(liveR.value.map((s) => [s.pid, s.sessionKey, s.status]), [[4242, RESUMED_SESSION, "busy"]]);
});

test("appVersion: the newest version the files show, known before any transcript is read", () => {
  const { claudeDir } = copyClaudeHome();
  const versions = new Set<string>();
  for (const rel of transcriptFiles(claudeDir)) for (const l of rawLines(path.join(claudeDir, rel))) if (typeof l.version === "string") versions.add(l.version);
  const newest = [...versions].sort(compareVersions).pop();
  const reader = open(claudeDir);
  list(reader);
  assert.equal(reader.appVersion(), { ok: true, value: newest, warnings: [] });
  assert.equal(open(makeTempDir()).appVersion(), { ok: true, value: null, warnings: [] });
});

test("changeStamp moves on every call before a listing; after one, only when a poll finds a change; listing changes its token on append", () => {
  const { claudeDir } = copyClaudeHome();
  const reader = open(claudeDir);
  const a = reader.changeStamp();
  const b = reader.changeStamp();
  assert.ok(a.ok && b.ok && a.value !== b.value, "no listing yet: the core never skips a pass");
  const ref0 = refOf(list(reader), RESUMED_SESSION);
  const file = path.join(claudeDir, ref0.id);
  const c = reader.changeStamp();
  assert.equal(reader.changeStamp(), c, "nothing changed: the same stamp");
  fs.appendFileSync(file, '{"type":"mode","mode":"normal"}\n');
  const d = reader.changeStamp();
  assert.ok(c.ok && d.ok && c.value !== d.value, "an append to a file written lately moves it");
  assert.equal(reader.changedTranscripts?.()?.refs.map((r) => r.id), [ref0.id]);
  assert.not.equal(refOf(list(reader), RESUMED_SESSION).changeToken, ref0.changeToken);
});

test("ids that are not this reader's transcripts are refused; a missing install dir does not open", () => {
  const { reader } = scratchTranscript();
  for (const id of ["../../etc/passwd", "/etc/passwd", "projects/../../x.jsonl", "sessions/1.json"]) {
    const ref: TranscriptRef = { id, sessionKey: "x", parentKey: null, changeToken: "", sizeBytes: null };
    assert.not.ok(reader.readTranscript(ref, null, 10).ok, id);
    assert.not.ok(reader.readMessages(ref).ok, id);
  }
  const gone: TranscriptRef = { id: "projects/p/gone.jsonl", sessionKey: "gone", parentKey: null, changeToken: "", sizeBytes: null };
  const r = reader.readTranscript(gone, null, 10);
  assert.ok(!r.ok && r.error.kind === "missing");
  const missing = openClaudeCodeReader(installOf(path.join(makeTempDir(), "nope")));
  assert.ok(!missing.ok && missing.error.kind === "missing");
});

test.run();
