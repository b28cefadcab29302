// The Gemini CLI oracle (test/helpers/gemini-oracle.ts) on the real 0.61.0 fixture: the figures its
// README states (7 session files, 8 prompts, 8 tool calls, 2 models), the format doc's "14 of 14
// responses", every response's tokens equal to what the fake API served (its request log in the
// fixture's _capture), two responses priced by hand, the 200k tier, and the traps (a record written
// twice, `$set.messages` re-listings with tokens, a torn last line).
import fs from "node:fs";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { FIXTURES_DIR, makeTempDir, removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { oracleOf } from "./helpers/conformance/gemini-cli.js";
import { expected, priceOf, readLines, servedResponses, sessionFiles, type RawTokens } from "./helpers/gemini-oracle.js";

test.after(removeTempDirs);

const FIXTURE = path.join(FIXTURES_DIR, "gemini-cli-0.61.0");

function copy(): string {
  const dir = makeTempDir();
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return path.join(dir, ".gemini");
}

const tuple = (t: RawTokens): string => [t.input, t.output, t.cached, t.thoughts, t.tool, t.total].join("/");
const near = (a: number | null, b: number): boolean => a !== null && Math.abs(a - b) < 1e-12;

test("the fixture: sessions, prompts, tool calls and models as its README lists them; 14 responses", () => {
  const files = sessionFiles(copy());
  assert.is(files.length, 7, "6 main session files and 1 sub-agent");
  const sub = files.filter((f) => f.kind === "subagent");
  assert.equal(sub.map((f) => [f.sessionId, f.parent]), [["7956600e-8427-4a53-b014-eb9f357bd133", "683ca3e3-9d1c-437c-867a-158273a2eace"]]);
  assert.equal([...new Set(files.map((f) => f.cwd))].sort(), ["/home/op/code/api-server", "/home/op/code/web-ui"]);
  const e = expected(files);
  assert.is(e.bySession.size, 7);
  // README: turns 01-05, 07, 08 left a prompt (06 failed and its file was deleted), plus the sub-agent's task.
  assert.is(e.total.prompts, 8);
  // README: run_shell_command x3 (one in the sub-agent), read_file x2, write_file, invoke_agent, complete_task.
  assert.is(e.total.toolCalls, 8);
  assert.is(e.toolErrors.total, 0);
  assert.is(e.total.responses, 14, "gemini-cli-format.md §5: 14 of 14 responses");
  assert.is(e.responses.length, 14);
  assert.equal([...new Set(e.responses.map((r) => r.model))].sort(), ["gemini-2.5-flash", "gemini-2.5-pro"]);
  assert.is(e.total.unpriced, 0);
  // A1 (ce196191) holds both its turns: 2 prompts, 4 responses (a tool round in each turn).
  const a1 = e.bySession.get("ce196191-a580-4c7b-a111-e68c686fa8cf");
  assert.equal([a1?.prompts, a1?.responses, a1?.toolCalls], [2, 4, 2]);
});

test("every response's tokens are what the fake API served (its request log), none counted twice", () => {
  const files = sessionFiles(copy());
  const served = servedResponses(JSON.parse(`[${fs.readFileSync(path.join(FIXTURE, "_capture", "fake-gemini-requests.jsonl"), "utf8").trim().split("\n").join(",")}]`) as Array<Record<string, unknown>>);
  const e = expected(files);
  assert.equal(e.responses.map((r) => `${r.model} ${tuple(r.raw)}`).sort(), served.map((s) => `${s.model} ${tuple(s.raw)}`).sort());
  // The mapping: every kind of token lands once (input + tool + output + thoughts = the API's total).
  const t = e.total;
  const apiTotal = served.reduce((n, s) => n + s.raw.total, 0);
  assert.is(t.input + t.cacheRead + t.output, apiTotal);
  assert.is(t.reasoning, served.reduce((n, s) => n + s.raw.thoughts, 0));
  assert.is(t.cacheRead, served.reduce((n, s) => n + s.raw.cached, 0));
});

test("prices by hand: two fixture responses, the Pro 200k tier per request, an unknown model unpriced", () => {
  const e = expected(sessionFiles(copy()));
  const byId = new Map(e.responses.map((r) => [r.id, r]));
  // b9651cac (A1, gemini-2.5-pro): input 11946, cached 0, output 50, thoughts 405, tool 0.
  // 11946 x 1.25 + (50 + 405) x 10 = 14932.5 + 4550 = 19482.5 per million.
  const first = byId.get("b9651cac-b9f5-4722-b507-ca6af64c5855");
  assert.equal(first?.raw, { input: 11946, output: 50, cached: 0, thoughts: 405, tool: 0, total: 12401 });
  assert.ok(near(first?.cost ?? null, 0.0194825), String(first?.cost));
  // 8a7fad0c (A1 resumed): input 12199 of which cached 11008, output 41, thoughts 134.
  // (12199 - 11008) x 1.25 + 11008 x 0.125 + 175 x 10 = 1488.75 + 1376 + 1750 = 4614.75 per million.
  const resumed = byId.get("8a7fad0c-346f-48b4-bdf9-ef4f192fd022");
  assert.is(resumed?.raw.cached, 11008);
  assert.ok(near(resumed?.cost ?? null, 0.00461475), String(resumed?.cost));

  const z = { input: 0, output: 0, cached: 0, thoughts: 0, tool: 0, total: 0 };
  assert.ok(near(priceOf("gemini-2.5-pro", { ...z, input: 200_000 }), 0.25), "200k is still the base tier");
  assert.ok(near(priceOf("gemini-2.5-pro", { ...z, input: 200_001 }), 0.5000025), "200,001 tokens: the whole request at 2.50");
  assert.ok(near(priceOf("gemini-2.5-pro", { ...z, input: 199_990, tool: 20, output: 100 }), (200_010 * 2.5 + 100 * 15) / 1e6), "tool-use tokens count toward the prompt");
  assert.ok(near(priceOf("gemini-2.5-flash", { ...z, input: 300_000 }), 0.09), "flash has no tier");
  assert.is(priceOf("gemini-flash-latest", { ...z, input: 10 }), null, "an alias without a price is unpriced, never $0");
});

test("the traps: a record written twice, $set.messages re-listings (even with tokens), a torn last line", () => {
  const home = makeTempDir();
  const chats = path.join(home, "tmp", "demo", "chats");
  fs.mkdirSync(chats, { recursive: true });
  fs.writeFileSync(path.join(home, "tmp", "demo", ".project_root"), "/home/op/demo");
  const tokens = { input: 1000, output: 10, cached: 256, thoughts: 30, tool: 5, total: 1045 };
  const reply = { id: "r1", timestamp: "2027-01-01T00:00:01.000Z", type: "gemini", content: "", tokens, model: "gemini-2.5-flash" };
  const lines = [
    { sessionId: "s1", projectHash: "h", startTime: "2027-01-01T00:00:00.000Z", lastUpdated: "2027-01-01T00:00:00.000Z", kind: "main" },
    { id: "p1", timestamp: "2027-01-01T00:00:00.500Z", type: "user", content: [{ text: "hi" }] },
    reply,
    { $set: { lastUpdated: "2027-01-01T00:00:01.000Z" } },
    { ...reply, toolCalls: [{ id: "t1", name: "run_shell_command", status: "error" }] },
    { id: "u2", timestamp: "2027-01-01T00:00:01.100Z", type: "user", content: [{ functionResponse: { id: "t1", name: "run_shell_command", response: { output: "no" } } }] },
    // A /compress-style re-listing: new ids, a prompt copy and a reply copy WITH tokens. Never counted.
    { $set: { messages: [{ id: "p1-copy", type: "user", content: [{ text: "hi" }] }, { ...reply, id: "r1-copy" }] } },
  ];
  fs.writeFileSync(path.join(chats, "session-2027-01-01T00-00-s1aaaaaa.jsonl"), lines.map((l) => JSON.stringify(l)).join("\n") + '\n{"id":"r2","type":"gemini","tok');
  const files = sessionFiles(home);
  assert.is(readLines(files[0]!.file).length, lines.length, "the torn line is not read");
  const e = expected(files);
  const s = e.total;
  assert.equal([s.responses, s.prompts, s.toolCalls, e.toolErrors.total], [1, 1, 1, 1]);
  // The test's own input, mapped: input 1000 - 256 + 5, cacheRead 256, output 10 + 30, reasoning 30.
  assert.equal([s.input, s.cacheRead, s.output, s.reasoning], [749, 256, 40, 30]);
  assert.ok(near(s.cost, (749 * 0.3 + 256 * 0.03 + 40 * 2.5) / 1e6));
});

test("notices are incidents and ids count per session: an error and a warning record (each written twice), one prompt id in two sessions", () => {
  const home = makeTempDir();
  const chats = path.join(home, "tmp", "demo", "chats");
  fs.mkdirSync(chats, { recursive: true });
  const header = (sessionId: string): object => ({ sessionId, projectHash: "h", startTime: "2027-01-01T00:00:00.000Z", lastUpdated: "2027-01-01T00:00:00.000Z", kind: "main" });
  const prompt = { id: "p1", timestamp: "2027-01-01T00:00:00.500Z", type: "user", content: [{ text: "hi" }] };
  const error = { id: "e1", timestamp: "2027-01-01T00:00:01.000Z", type: "error", content: "quota" };
  const warning = { id: "w1", timestamp: "2027-01-01T00:00:02.000Z", type: "warning", content: "Attempt 1 failed, retrying" };
  const write = (name: string, lines: object[]): void => fs.writeFileSync(path.join(chats, name), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  write("session-2027-01-01T00-00-s1aaaaaa.jsonl", [header("s1"), prompt, error, error, warning, warning]);
  write("session-2027-01-01T00-01-s2bbbbbb.jsonl", [header("s2"), prompt]);
  const e = expected(sessionFiles(home));
  const of = (id: string): number[] => {
    const s = e.bySession.get(id);
    return [s?.prompts ?? -1, s?.errors ?? -1, s?.warnings ?? -1];
  };
  assert.equal([of("s1"), of("s2")], [[1, 1, 1], [1, 0, 0]]);
  assert.equal([e.total.prompts, e.total.errors, e.total.warnings], [2, 1, 1]);
});

test("the conformance adapter's oracle is this one: the same figures per session and in total, incidents from the notices", () => {
  const files = sessionFiles(copy());
  const e = expected(files);
  const o = oracleOf(files);
  assert.equal([...o.bySession.entries()], [...e.bySession.entries()]);
  assert.equal(o.total, e.total);
  assert.equal([o.files, o.incidents], [files.length, { error: e.total.errors, warning: e.total.warnings }]);
  // Priced from the format doc (§11), not the product's pricer: every fixture response is in its table.
  assert.ok(near(o.total.cost, e.responses.reduce((n, r) => n + (priceOf(r.model, r.raw) ?? Number.NaN), 0)), String(o.total.cost));
});

test.run();
