// The Gemini CLI reader against the real 0.61.0 fixture: every figure expected here comes from the
// fixture's own files (the oracle in test/helpers/gemini-oracle.ts over the raw JSONL, or
// the fake API's request log), never from the reader.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { copyGeminiHome, geminiInstall } from "../../../test/helpers/conformance/gemini-cli.js";
import { expected, sessionFiles, type SessionFile } from "../../../test/helpers/gemini-oracle.js";
import { FIXTURES_DIR, rawLines, removeTempDirs } from "../../../test/helpers/openclaw-fixtures.js";
import { Pricer } from "../../pricing/pricer.js";
import type { ActivityEvent, ResponseEvent, SourceReader, TranscriptRef } from "../contract.js";
import { GeminiCliProvider } from "./provider.js";
import { HEADER_COST, LIST_PACE } from "./files.js";
import { openGeminiReader } from "./reader.js";

test.after(removeTempDirs);

function open(dir: string): SourceReader {
  const r = openGeminiReader(geminiInstall(dir));
  if (!r.ok) throw r.error;
  return r.value;
}

function readAll(reader: SourceReader, ref: TranscriptRef): ActivityEvent[] {
  const events: ActivityEvent[] = [];
  let cursor: unknown = null;
  for (let i = 0; i < 1000; i++) {
    const b = reader.readTranscript(ref, cursor, 3);
    if (!b.ok) throw b.error;
    events.push(...b.value.events);
    cursor = b.value.cursor;
    if (b.value.done) return events;
  }
  throw new Error("never done");
}

function byKey(reader: SourceReader): Map<string, { ref: TranscriptRef; events: ActivityEvent[] }> {
  const refs = reader.listTranscripts();
  if (!refs.ok) throw refs.error;
  return new Map(refs.value.map((ref) => [ref.sessionKey as string, { ref, events: readAll(reader, ref) }]));
}

/** The API's usageMetadata as the fake API logged it. */
interface Usage {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
}

/** Responses as the core counts them: once per key (a re-appended record only adds its new calls). */
function counted(events: ActivityEvent[]): { responses: ResponseEvent[]; toolCalls: number } {
  const seen = new Set<string>();
  const responses: ResponseEvent[] = [];
  let toolCalls = 0;
  for (const e of events) {
    if (e.kind !== "response") continue;
    toolCalls += e.toolCalls;
    if (e.key !== null && seen.has(e.key)) continue;
    if (e.key !== null) seen.add(e.key);
    responses.push(e);
  }
  return { responses, toolCalls };
}

test("every session's responses, tokens, prompts and tool calls are the format's rule over its own lines", () => {
  const { geminiDir } = copyGeminiHome();
  const oracle = expected(sessionFiles(geminiDir));
  const read = byKey(open(geminiDir));
  assert.equal([...read.keys()].sort(), [...oracle.bySession.keys()].sort());
  for (const [key, want] of oracle.bySession) {
    const { events } = read.get(key) as { events: ActivityEvent[] };
    const { responses, toolCalls } = counted(events);
    const sum = (f: "input" | "output" | "cacheRead" | "reasoning"): number => responses.reduce((n, r) => n + (r.usage?.[f] ?? 0), 0);
    assert.equal(
      { responses: responses.length, input: sum("input"), output: sum("output"), cacheRead: sum("cacheRead"), reasoning: sum("reasoning"), prompts: events.filter((e) => e.kind === "prompt").length, toolCalls },
      { responses: want.responses, input: want.input, output: want.output, cacheRead: want.cacheRead, reasoning: want.reasoning, prompts: want.prompts, toolCalls: want.toolCalls },
      key,
    );
  }
  // Records are written 2-3 times per tool round and resumes re-list old messages: summing lines would overcount.
  const lines = sessionFiles(geminiDir).flatMap((f) => f.lines).filter((l) => l.type === "gemini" && l.tokens);
  assert.ok(lines.length > oracle.total.responses, `${lines.length} gemini lines with tokens for ${oracle.total.responses} responses`);
});

test("the responses match what the fake API served (its request log): once each, tokens mapped to the project's vocabulary", () => {
  const { geminiDir } = copyGeminiHome();
  const served = rawLines(path.join(FIXTURES_DIR, "gemini-cli-0.61.0", "_capture", "fake-gemini-requests.jsonl")).filter((r) => r.usage && r.status === undefined);
  const read = byKey(open(geminiDir));
  const responses = [...read.values()].flatMap((s) => counted(s.events).responses);
  assert.is(responses.length, served.length);
  const u = served.map((r) => r.usage as Usage);
  const total = (f: (x: Usage) => number): number => u.reduce((n: number, x: Usage) => n + f(x), 0);
  const got = (f: "input" | "output" | "cacheRead" | "reasoning"): number => responses.reduce((n, r) => n + (r.usage?.[f] ?? 0), 0);
  assert.equal(
    { input: got("input"), cacheRead: got("cacheRead"), output: got("output"), reasoning: got("reasoning") },
    {
      input: total((x) => x.promptTokenCount - (x.cachedContentTokenCount ?? 0) + (x.toolUsePromptTokenCount ?? 0)),
      cacheRead: total((x) => x.cachedContentTokenCount ?? 0),
      output: total((x) => x.candidatesTokenCount + (x.thoughtsTokenCount ?? 0)),
      reasoning: total((x) => x.thoughtsTokenCount ?? 0),
    },
  );
  // totalTokens (input + output + cache read) is the file's and the API's total.
  assert.is(got("input") + got("output") + got("cacheRead"), total((x) => x.totalTokenCount));
  assert.equal(new Set(responses.map((r) => r.modelProvider)), new Set(["google"]));
});

test("sessions name their project's cwd (from .project_root, not the slug); the sub-agent is under its parent", () => {
  const { geminiDir } = copyGeminiHome();
  const read = byKey(open(geminiDir));
  const files = sessionFiles(geminiDir);
  for (const f of files) {
    const { ref, events } = read.get(f.sessionId) as { ref: TranscriptRef; events: ActivityEvent[] };
    const slugDir = path.dirname(path.dirname(f.parent === null ? f.file : path.dirname(f.file)));
    const project = events.find((e) => e.kind === "meta" && e.patch.project)?.kind === "meta" ? (events.find((e) => e.kind === "meta" && e.patch.project) as { patch: { project: string } }).patch.project : null;
    assert.is(project, fs.readFileSync(path.join(slugDir, ".project_root"), "utf8").trim(), f.sessionId);
    assert.is(ref.parentKey, f.parent, f.sessionId);
  }
  assert.ok(files.some((f) => f.parent !== null), "the fixture has a sub-agent");
  // Without .project_root the registry projects.json names the cwd.
  const slug = path.join(geminiDir, "tmp", "web-ui");
  fs.rmSync(path.join(slug, ".project_root"));
  const registry = JSON.parse(fs.readFileSync(path.join(geminiDir, "projects.json"), "utf8")).projects as Record<string, string>;
  const again = byKey(open(geminiDir));
  const w1 = files.find((f) => f.file.startsWith(slug)) as SessionFile;
  const meta = (again.get(w1.sessionId)?.events ?? []).find((e) => e.kind === "meta" && e.patch.project);
  assert.is(meta?.kind === "meta" ? meta.patch.project : null, Object.keys(registry).find((k) => registry[k] === "web-ui"));
});

/** A session file of one header and `records`, in a fresh `.gemini`. */
function oneSession(records: object[]): { dir: string; reader: SourceReader; file: string } {
  const { geminiDir } = copyGeminiHome();
  const chats = path.join(geminiDir, "tmp", "api-server", "chats");
  const file = path.join(chats, "session-2026-11-29T10-00-abcdef01.jsonl");
  const header = { sessionId: "abcdef01-0000-4000-8000-000000000000", projectHash: "x", startTime: "2026-11-29T10:00:00.000Z", lastUpdated: "2026-11-29T10:00:00.000Z", kind: "main" };
  fs.writeFileSync(file, [header, ...records].map((r) => JSON.stringify(r)).join("\n") + "\n");
  return { dir: geminiDir, reader: open(geminiDir), file };
}

const reply = (id: string, model: string, tokens: object | null, extra: object = {}): object => ({ id, timestamp: "2026-11-29T10:00:01.000Z", type: "gemini", content: "", tokens, model, ...extra });

test("each response is priced on its own: a Pro response above 200k prompt tokens (tool-use prompt included) at the higher rate, an unknown model unpriced", () => {
  const big = { input: 199_990, output: 1000, cached: 0, thoughts: 500, tool: 11, total: 201_501 };
  const small = { input: 1000, output: 10, cached: 200, thoughts: 0, tool: 0, total: 1010 };
  const { reader } = oneSession([reply("r1", "gemini-2.5-pro", big), reply("r2", "gemini-2.5-pro", small), reply("r3", "gemini-flash-latest", small)]);
  const refs = reader.listTranscripts();
  if (!refs.ok) throw refs.error;
  const ref = refs.value.find((r) => r.sessionKey?.startsWith("abcdef01")) as TranscriptRef;
  const responses = counted(readAll(reader, ref)).responses;
  const provider = new GeminiCliProvider({ env: {}, home: "/nonexistent", dirs: null, pricer: new Pricer() });
  const price = (r: ResponseEvent): number | null => provider.price(geminiInstall("/x"), r);
  // gemini-cli-format.md §11: 1.25 / 0.125 / 10 per MTok, 2.50 / 0.25 / 15 above 200k input tokens (the whole request).
  const near = (a: number | null, b: number): void => assert.ok(a !== null && Math.abs(a - b) < 1e-12, `${a} != ${b}`);
  near(price(responses[0] as ResponseEvent), ((big.input + big.tool) * 2.5 + (big.output + big.thoughts) * 15) / 1e6);
  near(price(responses[1] as ResponseEvent), ((small.input - small.cached) * 1.25 + small.cached * 0.125 + small.output * 10) / 1e6);
  assert.is(price(responses[2] as ResponseEvent), null);
});

test("a record written again counts its tool calls once, a failed call is a tool error; a bad token count drops that usage with a warning", () => {
  const call = (status: string): object => ({ id: "run_shell_command_1", name: "run_shell_command", args: {}, status });
  const tokens = { input: 100, output: 5, cached: 0, thoughts: 0, tool: 0, total: 105 };
  const { reader } = oneSession([
    reply("r1", "gemini-2.5-flash", tokens),
    reply("r1", "gemini-2.5-flash", tokens, { toolCalls: [call("executing")] }),
    reply("r1", "gemini-2.5-flash", tokens, { toolCalls: [call("error")] }),
    { $set: { messages: [reply("r1", "gemini-2.5-flash", null), reply("copy", "gemini-2.5-flash", tokens)] } },
    reply("r2", "gemini-2.5-flash", { ...tokens, output: -3 }),
    { id: "e1", timestamp: "2026-11-29T10:00:02.000Z", type: "error", content: "API error 500" },
  ]);
  const refs = reader.listTranscripts();
  if (!refs.ok) throw refs.error;
  const ref = refs.value.find((r) => r.sessionKey?.startsWith("abcdef01")) as TranscriptRef;
  const b = reader.readTranscript(ref, null, 1000);
  if (!b.ok) throw b.error;
  const { responses, toolCalls } = counted(b.value.events);
  assert.equal(responses.map((r) => [r.key, r.usage === null]), [["r1", false], ["r2", true]]);
  assert.is(toolCalls, 1);
  assert.equal(b.value.events.filter((e) => e.kind === "toolResult").map((e) => e.kind === "toolResult" && e.isError), [true]);
  assert.equal(b.value.events.filter((e) => e.kind === "incident").map((e) => e.kind === "incident" && [e.type, e.code]), [["error", "api_error"]]);
  assert.ok(b.warnings.some((w) => w.code === "BAD_FIELD" && w.message.includes("tokens.output")), JSON.stringify(b.warnings));
});

test("a resume in a later minute writes a second file of the session: both are its transcripts, and the real one deleted first is not replaced by the stray one", () => {
  const { geminiDir } = copyGeminiHome();
  const a1 = sessionFiles(geminiDir).find((f) => f.sessionId.startsWith("ce196191")) as SessionFile;
  // What Gemini CLI writes then: the header and the context $set only (gemini-cli-format.md §6).
  const stray = path.join(path.dirname(a1.file), "session-2026-11-29T09-00-ce196191.jsonl");
  fs.writeFileSync(stray, a1.lines.slice(0, 2).map((l) => JSON.stringify(l)).join("\n") + "\n");
  const reader = open(geminiDir);
  const refs = reader.listTranscripts();
  if (!refs.ok) throw refs.error;
  const mine = refs.value.filter((r) => r.sessionKey === a1.sessionId);
  assert.equal(mine.map((r) => r.id).sort(), [a1.file, stray].map((f) => path.relative(geminiDir, f)).sort());
  const want = expected(sessionFiles(geminiDir)).bySession.get(a1.sessionId);
  assert.is(counted(mine.flatMap((r) => readAll(reader, r))).responses.length, want?.responses);
  // Gemini CLI's cleanup removes the real file a moment before the stray one: its transcript is gone, the stray is not read in its place.
  const real = mine.find((r) => r.id === path.relative(geminiDir, a1.file)) as TranscriptRef;
  fs.rmSync(a1.file);
  const after = reader.listTranscripts();
  if (!after.ok) throw after.error;
  assert.equal(after.value.filter((r) => r.sessionKey === a1.sessionId).map((r) => r.id), [path.relative(geminiDir, stray)]);
  assert.not.ok(reader.readTranscript(real, null, 10).ok, "the deleted file's transcript is not another file's");
});

test("a FIFO under a session file's name, or a link to one, is passed over and never opened (an open would wait for ever)", () => {
  const { geminiDir } = copyGeminiHome();
  const sessions = new Set(sessionFiles(geminiDir).map((f) => f.sessionId)).size;
  const chats = path.join(geminiDir, "tmp", "web-ui", "chats");
  execFileSync("mkfifo", [path.join(chats, "session-2026-11-29T10-00-deadbeef.jsonl")]);
  fs.symlinkSync(path.join(chats, "session-2026-11-29T10-00-deadbeef.jsonl"), path.join(chats, "session-2026-11-29T10-01-deadbee2.jsonl"));
  const refs = open(geminiDir).listTranscripts();
  if (!refs.ok) throw refs.error;
  assert.is(refs.value.length, sessions);
});

test("transcriptsAt: session files give the listing's refs (a new one too, its header read); another path is null; a vanished file gives none", () => {
  const { geminiDir } = copyGeminiHome();
  const reader = open(geminiDir);
  const first = reader.listTranscripts();
  if (!first.ok) throw first.error;
  const w1 = sessionFiles(geminiDir).find((f) => f.sessionId.startsWith("f16a21d4")) as SessionFile;
  fs.appendFileSync(w1.file, `${JSON.stringify({ $set: { lastUpdated: "2026-11-29T10:00:00.000Z" } })}\n`);
  const stray = path.join(path.dirname(w1.file), "session-2026-11-29T11-00-f16a21d4.jsonl");
  fs.writeFileSync(stray, `${JSON.stringify(w1.lines[0])}\n`);
  const got = reader.transcriptsAt?.([w1.file, stray]);
  const now = open(geminiDir).listTranscripts();
  if (!got?.ok || !now.ok) throw new Error("no answer");
  assert.is(got.value.length, 2);
  assert.equal(got.value, now.value.filter((r) => r.sessionKey === w1.sessionId));
  assert.is(reader.transcriptsAt?.([path.join(geminiDir, "projects.json")]), null);
  assert.is(reader.transcriptsAt?.([w1.file, path.join(geminiDir, "tmp", "web-ui", "notes.jsonl")]), null, "one unknown path makes the answer null");
  fs.rmSync(w1.file);
  const gone = reader.transcriptsAt?.([w1.file]);
  assert.equal(gone?.ok ? gone.value : null, [], "gone: no ref");
});

test("/compress: its info record is an info entry, and the re-listing it writes (new ids, the last prompt copied) adds no prompt or response", () => {
  const tokens = { input: 100, output: 5, cached: 0, thoughts: 0, tool: 0, total: 105 };
  const prompt = { id: "p1", timestamp: "2026-11-29T10:00:00.500Z", type: "user", content: [{ text: "hello" }] };
  const { reader } = oneSession([
    prompt,
    reply("r1", "gemini-2.5-flash", tokens),
    { $set: { sessionId: "abcdef01-0000-4000-8000-000000000000" } },
    { $set: { messages: [{ ...prompt, id: "p1-copy" }, reply("r1-copy", "gemini-2.5-flash", tokens)] } },
    { id: "i1", timestamp: "2026-11-29T10:00:03.000Z", type: "info", content: "" },
  ]);
  const refs = reader.listTranscripts();
  if (!refs.ok) throw refs.error;
  const events = readAll(reader, refs.value.find((r) => r.sessionKey?.startsWith("abcdef01")) as TranscriptRef);
  assert.is(events.filter((e) => e.kind === "prompt").length, 1);
  assert.equal(counted(events).responses.map((r) => r.key), ["r1"]);
  assert.equal(events.filter((e) => e.kind === "incident").map((e) => e.kind === "incident" && [e.type, e.code]), [["info", "compression"]]);
});

test("the transcript view: each top-level message once (the last copy of a re-appended record), tool results named after their call", () => {
  const { geminiDir } = copyGeminiHome();
  const a1 = sessionFiles(geminiDir).find((f) => f.sessionId.startsWith("ce196191")) as SessionFile;
  const reader = open(geminiDir);
  const refs = reader.listTranscripts();
  if (!refs.ok) throw refs.error;
  const r = reader.readMessages(refs.value.find((x) => x.sessionKey === a1.sessionId) as TranscriptRef);
  if (!r.ok) throw r.error;
  const top = a1.lines.filter((l) => typeof l.id === "string" && (l.type === "user" || l.type === "gemini"));
  assert.equal(r.value.messages.map((m) => m.id), [...new Set(top.map((l) => l.id as string))]);
  const results = top.filter((l) => l.type === "user" && Array.isArray(l.content) && (l.content as Array<Record<string, unknown>>).some((p) => p.functionResponse));
  assert.equal(
    r.value.messages.filter((m) => m.role === "toolResult").map((m) => m.toolName),
    results.map((l) => ((l.content as Array<{ functionResponse: { name: string } }>)[0] as { functionResponse: { name: string } }).functionResponse.name),
  );
  assert.ok(r.value.messages.filter((m) => m.role === "assistant").every((m) => m.usage !== null && m.model !== null));
});


/** Calls to fs.openSync while `fn` runs (the builtin's ESM exports re-synced so every module sees the spy). */
function opensDuring<T>(fn: () => T): { value: T; opens: string[] } {
  const real = fs.openSync;
  const opens: string[] = [];
  const fsMut = fs as unknown as { default: { openSync: typeof fs.openSync } };
  fsMut.default.openSync = ((p: fs.PathLike, ...rest: unknown[]) => {
    opens.push(String(p));
    return (real as (...a: unknown[]) => number)(p, ...rest);
  }) as typeof fs.openSync;
  syncBuiltinESMExports();
  try {
    return { value: fn(), opens };
  } finally {
    fsMut.default.openSync = real;
    syncBuiltinESMExports();
  }
}

test("changeStamp: equal while nothing a listing gives moved, so an idle refresh is skipped; an append, a new file or a removal moves it", () => {
  const { geminiDir } = copyGeminiHome();
  const reader = open(geminiDir);
  const stamp = (): string => {
    const s = reader.changeStamp();
    if (!s.ok) throw s.error;
    return s.value;
  };
  const s0 = stamp();
  if (!reader.listTranscripts().ok) throw new Error("no listing");
  // Nothing written: the same stamp, and no file opened for it (headers were read once, by inode).
  const idle = opensDuring(stamp);
  assert.is(idle.value, s0);
  assert.equal(idle.opens, []);
  const w1 = sessionFiles(geminiDir).find((f) => f.sessionId.startsWith("f16a21d4")) as SessionFile;
  fs.appendFileSync(w1.file, `${JSON.stringify({ $set: { lastUpdated: "2026-11-29T10:00:00.000Z" } })}\n`);
  const s1 = stamp();
  assert.is.not(s1, s0, "an append to an old file moves it");
  assert.is(stamp(), s1);
  const stray = path.join(path.dirname(w1.file), "session-2026-11-29T11-00-f16a21d4.jsonl");
  fs.writeFileSync(stray, `${JSON.stringify(w1.lines[0])}\n`);
  const s2 = stamp();
  assert.is.not(s2, s1, "a new session file moves it");
  fs.rmSync(stray);
  assert.is.not(stamp(), s2, "a removed file moves it");
});
test("changeStampPaced: the stamp changeStamp gives, with a pause at least every LIST_PACE stats, and an append still moves it", async () => {
  const { geminiDir } = copyGeminiHome();
  const w1 = sessionFiles(geminiDir).find((f) => f.sessionId.startsWith("f16a21d4")) as SessionFile;
  const header = w1.lines[0] as Record<string, unknown>;
  // Stray files of w1's session (a resume in a later minute writes one): enough for several paces.
  const added = 3 * LIST_PACE;
  for (let i = 0; i < added; i++) {
    const minute = String(i % 60).padStart(2, "0");
    const hour = String(Math.floor(i / 60) % 24).padStart(2, "0");
    const day = String(1 + Math.floor(i / 1440)).padStart(2, "0");
    fs.writeFileSync(path.join(path.dirname(w1.file), `session-2026-10-${day}T${hour}-${minute}-${w1.sessionId.slice(0, 8)}.jsonl`), `${JSON.stringify(header)}\n`);
  }
  const reader = open(geminiDir);
  if (!reader.listTranscripts().ok) throw new Error("no listing");
  assert.type(reader.changeStampPaced, "function", "the Gemini reader offers a paced stamp");
  const real = fs.statSync;
  const fsMut = fs as unknown as { default: { statSync: typeof fs.statSync } };
  const stretches: number[] = [0];
  fsMut.default.statSync = ((...a: unknown[]) => {
    stretches.push((stretches.pop() ?? 0) + 1);
    return (real as (...b: unknown[]) => unknown)(...a);
  }) as typeof fs.statSync;
  syncBuiltinESMExports();
  const paced = async (): Promise<string> => {
    stretches.push(0); // a new call: the last one's tail is not this one's stretch
    const s = await reader.changeStampPaced?.(async () => {
      stretches.push(0);
    });
    if (!s?.ok) throw new Error("no stamp");
    return s.value;
  };
  let s0: string, s1: string, s2: string;
  try {
    s0 = await paced();
    s1 = await paced();
    fs.appendFileSync(w1.file, `${JSON.stringify({ $set: { lastUpdated: "2026-11-29T10:00:00.000Z" } })}\n`);
    s2 = await paced();
  } finally {
    fsMut.default.statSync = real;
    syncBuiltinESMExports();
  }
  const stats = stretches.reduce((a, b) => a + b, 0);
  assert.ok(stats >= 3 * added, `every file stat-ed on each of the three stamps (${stats} stats)`);
  assert.ok(Math.max(...stretches) <= LIST_PACE + 1, `stats between two pauses: max ${Math.max(...stretches)}`);
  assert.is(s1, s0, "nothing written: the same stamp");
  assert.is.not(s2, s1, "an append to an old file moves it");
  const sync = reader.changeStamp();
  assert.ok(sync.ok && sync.value === s2, "the sync stamp agrees with the paced one");
});

test("a first paced listing pauses between header reads: no stretch opens more than LIST_PACE / HEADER_COST files", async () => {
  const { geminiDir } = copyGeminiHome();
  const w1 = sessionFiles(geminiDir).find((f) => f.sessionId.startsWith("f16a21d4")) as SessionFile;
  const header = w1.lines[0] as Record<string, unknown>;
  // 60 more main sessions: each new file's header is read once by the first listing.
  const added = 60;
  for (let i = 0; i < added; i++) {
    const id = `${(0x10000000 + i).toString(16)}-0000-4000-8000-000000000000`;
    fs.writeFileSync(path.join(path.dirname(w1.file), `session-2026-11-29T12-00-${id.slice(0, 8)}.jsonl`), `${JSON.stringify({ ...header, sessionId: id })}\n`);
  }
  const reader = open(geminiDir);
  const real = fs.openSync;
  const fsMut = fs as unknown as { default: { openSync: typeof fs.openSync } };
  const stretches: number[] = [0];
  fsMut.default.openSync = ((...a: unknown[]) => {
    stretches.push((stretches.pop() ?? 0) + 1);
    return (real as (...b: unknown[]) => number)(...a);
  }) as typeof fs.openSync;
  syncBuiltinESMExports();
  let refs;
  try {
    refs = await reader.listTranscriptsPaced?.(async () => {
      stretches.push(0);
    });
  } finally {
    fsMut.default.openSync = real;
    syncBuiltinESMExports();
  }
  if (!refs?.ok) throw new Error("no listing");
  assert.ok(refs.value.length >= added, "the added sessions are listed");
  const opened = stretches.reduce((a, b) => a + b, 0);
  assert.ok(opened >= added, `every new header read (${opened} opens)`);
  assert.ok(Math.max(...stretches) <= Math.ceil(LIST_PACE / HEADER_COST), `opens between two pauses: ${stretches.join(",")}`);
});

test.run();
