// The Gemini CLI demo writer, checked with the format's counting rule done by hand on its files
// (test/helpers/gemini-oracle.ts): each step is one turn whose responses, prompts and tool calls
// count as the turn's content says, a tool round's record is written twice as Gemini CLI does, a
// resume re-lists the old messages without tokens (and counts nothing twice), a sub-agent gets its
// own file under its parent, the project is registered, a restarted writer goes on in the same
// session, the project does not grow without bound, and every record has a shape the real Gemini
// CLI 0.61.0 wrote (its fixture).
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { FIXTURES_DIR, makeTempDir, removeTempDirs } from "../../../../test/helpers/openclaw-fixtures.js";
import { foreignShapes } from "../../../../test/helpers/gemini-shapes.js";
import { expected, readLines, sessionFiles } from "../../../../test/helpers/gemini-oracle.js";
import { seededRandom } from "../../../base/random.js";
import { GEMINI_TURNS, WRITER_CWD, type GeminiTurnContent } from "./content.js";
import { GeminiCliDemoWriter } from "./writer.js";

test.after(removeTempDirs);

type Json = Record<string, unknown>;
const NOW = Date.parse("2027-03-01T12:00:00.000Z");
/** The recorded demo bundle (shared/demo). */
const DEMO = join(import.meta.dirname, "..", "..", "..", "demo");

function home(): string {
  const dir = join(makeTempDir(), ".gemini");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The content a turn was written from: the one whose answer the turn's last reply holds. */
function contentOf(answer: unknown): GeminiTurnContent {
  const c = GEMINI_TURNS.find((t) => t.answer === answer);
  assert.ok(c, `an answer from the writer's content: ${String(answer)}`);
  return c;
}

/** Responses one turn must have: one per tool call, one for the delegation, one for the answer; its sub-agent one per call plus complete_task. */
const wantMain = (c: GeminiTurnContent): number => c.calls.length + (c.agent ? 1 : 0) + 1;
const wantSub = (c: GeminiTurnContent): number => (c.agent ? c.agent.calls.length + 1 : 0);

/** The answers (last gemini record of each turn) in a main session file, in order. */
const answers = (lines: Json[]): unknown[] => lines.filter((l) => l.type === "gemini" && typeof l.content === "string" && l.content !== "" && !l.toolCalls && GEMINI_TURNS.some((t) => t.answer === l.content)).map((l) => l.content);

test("one step: a registered project, a session file named by its minute, one turn that counts as its content says", () => {
  const dir = home();
  const at = NOW + 20_000;
  const w = new GeminiCliDemoWriter({ geminiDir: dir, random: seededRandom(3), agentShare: 0 });
  assert.equal(w.step(at).wrote.length, 1);
  w.close();
  const reg = JSON.parse(readFileSync(join(dir, "projects.json"), "utf8")) as { projects: Record<string, string> };
  assert.equal(reg.projects, { [WRITER_CWD]: "acme-mobile" }, "slug = the cwd's basename");
  assert.is(readFileSync(join(dir, "tmp", "acme-mobile", ".project_root"), "utf8"), WRITER_CWD);
  const files = sessionFiles(dir);
  assert.is(files.length, 1);
  const f = files[0]!;
  const header = f.lines[0] as Json;
  const start = new Date(String(header.startTime));
  const pad = (n: number): string => String(n).padStart(2, "0");
  assert.is(basename(f.file), `session-${start.getUTCFullYear()}-${pad(start.getUTCMonth() + 1)}-${pad(start.getUTCDate())}T${pad(start.getUTCHours())}-${pad(start.getUTCMinutes())}-${f.sessionId.slice(0, 8)}.jsonl`);
  assert.is(header.kind, "main");
  for (const l of f.lines) {
    if (typeof l.timestamp !== "string") continue;
    const t = Date.parse(l.timestamp);
    assert.ok(t <= at && t > at - 60_000, `${l.timestamp} lies in the minute before the step`);
  }
  const c = contentOf(answers(f.lines)[0]);
  const e = expected(files);
  assert.equal([e.total.prompts, e.total.responses, e.total.toolCalls, e.toolErrors.total], [1, wantMain(c), c.calls.length, c.calls.filter((x) => x.error).length]);
  // A tool round's reply is written twice, with the same id and tokens (the format's de-dup trap).
  const replies = f.lines.filter((l) => l.type === "gemini");
  assert.is(replies.length, wantMain(c) + c.calls.length);
  for (const r of e.responses) assert.is(r.raw.total, r.raw.input + r.raw.output + r.raw.thoughts + r.raw.tool, "total = input + output + thoughts + tool");
  for (const r of e.responses) assert.ok(r.raw.cached <= r.raw.input, "cached is part of input");
  assert.ok(e.total.cost > 0 && e.total.unpriced === 0, "a priced model");
});

test("many steps: resumes re-list without tokens, sub-agents under their parent, a restart goes on; all counted once", () => {
  const dir = home();
  let t = NOW;
  const steps = 12;
  const w = new GeminiCliDemoWriter({ geminiDir: dir, random: seededRandom(11), resumeShare: 0.5, agentShare: 0.4, turnsPerSession: 100 });
  for (let i = 0; i < steps / 2; i++) w.step((t += 60_000));
  // A restarted daemon: a new writer goes on in the same session.
  const again = new GeminiCliDemoWriter({ geminiDir: dir, random: seededRandom(12), resumeShare: 0.5, agentShare: 0.4, turnsPerSession: 100 });
  for (let i = 0; i < steps / 2; i++) again.step((t += 60_000));
  const files = sessionFiles(dir);
  const main = files.filter((f) => f.kind === "main");
  const subs = files.filter((f) => f.kind === "subagent");
  assert.is(main.length, 1, "one session throughout");
  const turns = answers(main[0]!.lines).map(contentOf);
  assert.is(turns.length, steps);
  const headers = main[0]!.lines.filter((l) => typeof l.startTime === "string");
  assert.ok(headers.length > 1, `resumed: ${headers.length} headers`);
  const relisted = main[0]!.lines.filter((l) => Array.isArray((l.$set as Json | undefined)?.messages)).flatMap((l) => (l.$set as { messages: Json[] }).messages);
  assert.ok(relisted.some((m) => m.type === "gemini"), "old replies re-listed");
  assert.ok(relisted.every((m) => m.tokens === undefined && m.model === undefined), "re-listed without tokens and model");
  assert.is(subs.length, turns.filter((c) => c.agent).length, "one sub-agent file per delegated turn");
  assert.ok(subs.length > 0, "the seed delegates at least once");
  const invoked = main[0]!.lines.flatMap((l) => (Array.isArray(l.toolCalls) ? (l.toolCalls as Json[]) : [])).filter((c) => c.name === "invoke_agent").map((c) => c.agentId);
  for (const sub of subs) {
    assert.is(sub.parent, main[0]!.sessionId, "chats/<parent sessionId>/");
    assert.ok(invoked.includes(sub.sessionId), "the parent's invoke_agent names it by agentId");
    assert.ok((sub.lines[sub.lines.length - 1]?.$set as Json | undefined)?.summary, "ends with $set.summary");
  }
  const e = expected(files);
  assert.is(e.total.prompts, steps + subs.length, "one prompt per turn, one task per sub-agent");
  assert.is(e.bySession.get(main[0]!.sessionId)?.responses, turns.reduce((n, c) => n + wantMain(c), 0));
  assert.is(subs.reduce((n, s) => n + (e.bySession.get(s.sessionId)?.responses ?? 0), 0), turns.reduce((n, c) => n + wantSub(c), 0));
  // Every line is whole JSON, and the times only move forward within the main file's message records.
  assert.is(readLines(main[0]!.file).length, readFileSync(main[0]!.file, "utf8").trim().split("\n").length);
});

test("every record (headers, patches, prompts, replies, tool calls, sub-agents, resumes) has a shape the real 0.61.0 wrote", () => {
  const dir = home();
  const w = new GeminiCliDemoWriter({ geminiDir: dir, random: seededRandom(21), resumeShare: 0.5, agentShare: 0.3, turnsPerSession: 8 });
  for (let i = 0; i < 30; i++) w.step(NOW + i * 60_000);
  const fixture = makeTempDir();
  cpSync(join(FIXTURES_DIR, "gemini-cli-0.61.0", ".gemini"), fixture, { recursive: true });
  assert.equal(foreignShapes(dir, fixture), []);
});

test("on the bundled demo: goes on in the writer's project's newest session (not the stray file of a resume); other projects untouched", () => {
  const dir = join(makeTempDir(), ".gemini");
  cpSync(join(DEMO, "gemini-home", ".gemini"), dir, { recursive: true });
  const before = sessionFiles(dir);
  const mine = before.filter((f) => f.cwd === WRITER_CWD && f.kind === "main");
  // The newest conversation of the project: the latest first prompt of a file with messages.
  const newest = mine.filter((f) => answers(f.lines).length > 0).sort((a, b) => (String(a.lines[0]?.startTime) < String(b.lines[0]?.startTime) ? 1 : -1))[0]!;
  const was = expected(before).bySession.get(newest.sessionId)!;
  new GeminiCliDemoWriter({ geminiDir: dir, random: seededRandom(31), resumeShare: 0, agentShare: 0 }).step(NOW);
  const after = sessionFiles(dir);
  const grown = after.find((f) => f.file === newest.file)!;
  const c = contentOf(answers(grown.lines).pop());
  const now = expected(after).bySession.get(newest.sessionId)!;
  assert.equal([now.prompts - was.prompts, now.responses - was.responses], [1, wantMain(c)]);
  for (const f of before.filter((x) => x.file !== newest.file)) assert.is(readFileSync(f.file, "utf8"), f.lines.map((l) => JSON.stringify(l)).join("\n") + "\n", `${f.rel} untouched`);
  const fixture = makeTempDir();
  cpSync(join(FIXTURES_DIR, "gemini-cli-0.61.0", ".gemini"), fixture, { recursive: true });
  assert.equal(foreignShapes(dir, fixture), [], "the bundle and the writer write only real shapes");
});

test("a session file cut off mid-line (a crash) is continued on a new line", () => {
  const dir = home();
  const w = new GeminiCliDemoWriter({ geminiDir: dir, random: seededRandom(5), agentShare: 0, resumeShare: 0 });
  w.step(NOW);
  const file = sessionFiles(dir)[0]!.file;
  appendFileSync(file, '{"id":"torn","type":"gemini","tok');
  w.step(NOW + 60_000);
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
  const torn = lines.findIndex((l) => l.endsWith('"tok'));
  assert.ok(torn >= 0 && torn < lines.length - 1);
  assert.is(answers(readLines(file)).length, 2, "both turns readable");
});

test("bounded: a new session after turnsPerSession turns; only keepSessions kept, with their sub-agents; maxTurnsPerDay", () => {
  const dir = home();
  const w = new GeminiCliDemoWriter({ geminiDir: dir, random: seededRandom(7), turnsPerSession: 2, keepSessions: 2, agentShare: 1 });
  const ids = new Set<string>();
  for (let i = 0; i < 9; i++) ids.add(w.step(NOW + i * 60_000).wrote[0] as string);
  assert.is(ids.size, 5, "9 turns, 2 a session");
  const files = sessionFiles(dir);
  const main = files.filter((f) => f.kind === "main");
  assert.is(main.length, 2);
  const chats = join(dir, "tmp", "acme-mobile", "chats");
  const folders = readdirSync(chats, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  assert.equal(folders, main.map((f) => f.sessionId).sort(), "sub-agent folders only of the kept sessions");
  for (const f of files.filter((x) => x.kind === "subagent")) assert.ok(existsSync(join(chats, f.parent ?? "")));
  for (const f of main) assert.ok(answers(f.lines).length <= 2);

  const capped = new GeminiCliDemoWriter({ geminiDir: home(), random: seededRandom(8), maxTurnsPerDay: 3 });
  assert.equal([0, 1, 2, 3, 4].map((i) => capped.step(NOW + i * 60_000).wrote.length), [1, 1, 1, 0, 0]);
});

test.run();
