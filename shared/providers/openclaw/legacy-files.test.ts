import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { listTranscriptFiles, readJsonlTranscript, readSessionsJson, transcriptSessionId } from "./legacy-files.js";
import type { FileCursor, JsonlReadOptions } from "./legacy-files.js";
import type { TranscriptEvent } from "./transcript-event.js";
import { FILES_FIXTURE, copyFixture, makeTempDir, removeTempDirs } from "../../../test/helpers/openclaw-fixtures.js";

test.after(removeTempDirs);

// any: raw fixture JSON compared as plain data.
type Json = Record<string, any>;

function sessionsCopy(): string {
  return path.join(copyFixture(FILES_FIXTURE), "agents", "main", "sessions");
}

function fixtureIds(dir: string): string[] {
  const index = JSON.parse(fs.readFileSync(path.join(dir, "sessions.json"), "utf8")) as Json;
  return Object.values(index).map((e) => (e as Json).sessionId as string);
}

function jsonLines(file: string): Json[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Json);
}

function readOk(file: string, cursor: FileCursor | null, opts?: JsonlReadOptions) {
  const r = readJsonlTranscript(file, cursor, opts);
  if (!r.ok) throw r.error;
  return r;
}

/** Follows the cursor until done; returns the events and how many calls it took. */
function drain(file: string, opts: JsonlReadOptions, cursor: FileCursor | null = null) {
  const events: TranscriptEvent[] = [];
  const warnings: string[] = [];
  let calls = 0;
  for (;;) {
    const r = readOk(file, cursor, opts);
    calls++;
    assert.ok(calls < 1000, "terminates");
    events.push(...r.value.events);
    warnings.push(...r.warnings.map((w) => w.code));
    cursor = r.value.cursor;
    if (r.value.done) return { events, calls, cursor, warnings };
  }
}

const line = (obj: Json) => `${JSON.stringify(obj)}\n`;
const userEvent = (id: string) => ({ type: "message", id, timestamp: "2026-11-22T00:00:00.000Z", message: { role: "user", content: id } });

test("sessions.json: one entry per key, values as written but for the three big blobs", () => {
  const dir = sessionsCopy();
  const index = JSON.parse(fs.readFileSync(path.join(dir, "sessions.json"), "utf8")) as Json;
  const r = readSessionsJson(dir);
  assert.ok(r.ok);
  assert.equal(
    r.value.map((e) => e.key),
    Object.keys(index),
  );
  let dropped = 0;
  for (const e of r.value) {
    const { skillsSnapshot, systemPromptReport, contextBudgetStatus, ...rest } = index[e.key] as Json;
    dropped += [skillsSnapshot, systemPromptReport, contextBudgetStatus].filter((v) => v !== undefined).length;
    assert.equal(e.entry, rest);
  }
  assert.ok(dropped > 0, "the fixture's entries carry the blobs");
});

test("sessions.json: a non-object entry is skipped with a warning; broken JSON is corrupt; absent is missing", () => {
  const dir = makeTempDir();
  fs.writeFileSync(path.join(dir, "sessions.json"), JSON.stringify({ "agent:main:main": { sessionId: "a" }, "agent:main:bad": 5 }));
  const r = readSessionsJson(dir);
  assert.ok(r.ok);
  assert.equal(r.value.map((e) => e.key), ["agent:main:main"]);
  assert.equal(r.warnings.map((w) => w.code), ["BAD_ROW"]);
  fs.writeFileSync(path.join(dir, "sessions.json"), '{"agent:main:main": {"sessionId": "a"');
  const broken = readSessionsJson(dir);
  assert.ok(!broken.ok);
  assert.is(broken.error.kind, "corrupt");
  const missing = readSessionsJson(path.join(dir, "nope"));
  assert.ok(!missing.ok);
  assert.is(missing.error.kind, "missing");
});

test("transcript listing ignores trajectory files and reset/deleted archives", () => {
  const dir = sessionsCopy();
  const ids = fixtureIds(dir);
  const [a] = ids;
  assert.ok(a);
  for (const decoy of [`${a}.jsonl.reset.2026-11-21T23-00-00.000Z`, `${a}.jsonl.deleted.1795303000000`, `${a}.deleted.1795303000000.jsonl`, `${a}.reset.1.jsonl`, `${a}.jsonl.zst`]) {
    fs.writeFileSync(path.join(dir, decoy), "{}\n");
  }
  assert.ok(fs.readdirSync(dir).some((n) => n.includes(".trajectory.jsonl")), "fixture has trajectory files");
  const r = listTranscriptFiles(dir);
  assert.ok(r.ok);
  assert.equal(
    r.value.map((f) => f.sessionId),
    [...ids].sort(),
  );
  for (const f of r.value) {
    const st = fs.statSync(f.path);
    assert.is(f.size, st.size);
    assert.is(f.inode, st.ino);
  }
  assert.is(transcriptSessionId("abc.trajectory-path.json"), null);
  assert.is(transcriptSessionId("abc.trajectory.jsonl"), null);
  assert.is(transcriptSessionId("abc.jsonl"), "abc");
  const missing = listTranscriptFiles(path.join(dir, "nope"));
  assert.ok(!missing.ok);
  assert.is(missing.error.kind, "missing");
});

test("a full read gives every line, in order, with byte offsets and usage", () => {
  const dir = sessionsCopy();
  for (const id of fixtureIds(dir)) {
    const file = path.join(dir, `${id}.jsonl`);
    const want = jsonLines(file);
    const r = readOk(file, null);
    assert.is(r.warnings.length, 0);
    assert.is(r.value.done, true);
    assert.is(r.value.restarted, false);
    assert.equal(
      r.value.events.map((e) => e.raw),
      want,
    );
    const text = fs.readFileSync(file);
    assert.is(r.value.cursor.offset, text.length);
    assert.is(r.value.cursor.size, text.length);
    assert.is(r.value.cursor.inode, fs.statSync(file).ino);
    // Each pos is the start of its line.
    for (const e of r.value.events) assert.ok(e.pos === 0 || text[e.pos - 1] === 0x0a);
    const input = r.value.events.reduce((s, e) => s + (e.kind === "assistant" ? (e.usage?.input ?? 0) : 0), 0);
    const wantInput = want.reduce((s, o) => s + (o.message?.role === "assistant" ? o.message.usage.input : 0), 0);
    assert.ok(wantInput > 0);
    assert.is(input, wantInput);
  }
});

test("bounded reads: small maxBytes and limit need several calls and give the same events", () => {
  const dir = sessionsCopy();
  const [id] = fixtureIds(dir);
  const file = path.join(dir, `${id}.jsonl`);
  const want = jsonLines(file);
  const longest = Math.max(...fs.readFileSync(file, "utf8").split("\n").map((l) => Buffer.byteLength(l) + 1));
  const small = drain(file, { maxBytes: 200 });
  assert.equal(small.events.map((e) => e.raw), want);
  assert.equal(small.warnings, []);
  assert.ok(small.calls >= want.length / 2, `took ${small.calls} calls`);
  // One call never consumes more than maxBytes unless a single line is longer.
  let cursor: FileCursor | null = null;
  for (;;) {
    const r = readOk(file, cursor, { maxBytes: 300 });
    const consumed = r.value.cursor.offset - (cursor?.offset ?? 0);
    assert.ok(consumed <= Math.max(300, longest), `consumed ${consumed}`);
    cursor = r.value.cursor;
    if (r.value.done) break;
  }
  const limited = drain(file, { limit: 2 });
  // The last call that reaches the end of the file reports done, even with a full batch.
  assert.is(limited.calls, Math.ceil(want.length / 2));
  assert.equal(limited.events.map((e) => e.raw), want);
});

test("incremental: appended lines come back alone; a partial line waits for its newline", () => {
  const dir = sessionsCopy();
  const [id] = fixtureIds(dir);
  const file = path.join(dir, `${id}.jsonl`);
  const first = readOk(file, null);
  const before = first.value.events.length;
  assert.ok(before > 0);
  fs.appendFileSync(file, line(userEvent("n1")) + line(userEvent("n2")));
  const second = readOk(file, first.value.cursor);
  assert.equal(second.value.events.map((e) => e.id), ["n1", "n2"]);
  assert.is(second.value.restarted, false);

  const partial = JSON.stringify(userEvent("n3"));
  fs.appendFileSync(file, partial.slice(0, 20));
  const third = readOk(file, second.value.cursor);
  assert.is(third.value.events.length, 0);
  assert.is(third.value.done, true);
  assert.is(third.value.cursor.offset, second.value.cursor.offset, "the partial line is not consumed");
  assert.is(third.warnings.length, 0, "a partial tail is not an error");
  fs.appendFileSync(file, `${partial.slice(20)}\n`);
  const fourth = readOk(file, third.value.cursor);
  assert.equal(fourth.value.events.map((e) => e.id), ["n3"]);
  assert.is(fourth.value.cursor.offset, fs.statSync(file).size);
  // A cursor survives JSON (the store persists it).
  const again = readOk(file, JSON.parse(JSON.stringify(fourth.value.cursor)) as FileCursor);
  assert.is(again.value.events.length, 0);
});

test("a corrupt (truncated) line in the middle is a warning; the rest is read", () => {
  const file = path.join(makeTempDir(), "s.jsonl");
  const cut = JSON.stringify(userEvent("broken")).slice(0, 30);
  fs.writeFileSync(file, line(userEvent("a")) + `${cut}\n` + "\n" + `${JSON.stringify(userEvent("crlf"))}\r\n` + "[1,2]\n" + line(userEvent("b")));
  const r = readOk(file, null);
  assert.equal(r.value.events.map((e) => e.id), ["a", "crlf", "b"]);
  assert.equal(r.warnings.map((w) => w.code), ["BAD_JSON", "BAD_JSON"]);
  assert.ok(r.warnings[0]?.where.endsWith(`@${Buffer.byteLength(line(userEvent("a")))}`), "names the byte offset");
});

test("truncation below the cursor restarts from 0 with TRUNCATED", () => {
  const dir = sessionsCopy();
  const [id] = fixtureIds(dir);
  const file = path.join(dir, `${id}.jsonl`);
  const first = readOk(file, null);
  const inode = fs.statSync(file).ino;
  fs.truncateSync(file, 0);
  fs.appendFileSync(file, line(userEvent("fresh")));
  assert.is(fs.statSync(file).ino, inode, "same file, shrunk");
  const r = readOk(file, first.value.cursor);
  assert.is(r.value.restarted, true);
  assert.equal(r.warnings.map((w) => w.code), ["TRUNCATED"]);
  assert.equal(r.value.events.map((e) => e.id), ["fresh"]);
});

test("replacement by a new inode restarts from 0 with ROTATED", () => {
  const dir = sessionsCopy();
  const [id] = fixtureIds(dir);
  const file = path.join(dir, `${id}.jsonl`);
  const first = readOk(file, null);
  const original = fs.readFileSync(file);
  const tmp = `${file}.tmp`;
  // Same content and longer: only the inode tells it is a different file.
  fs.writeFileSync(tmp, Buffer.concat([original, Buffer.from(line(userEvent("extra")))]));
  fs.renameSync(tmp, file);
  assert.is.not(fs.statSync(file).ino, first.value.cursor.inode);
  const r = readOk(file, first.value.cursor);
  assert.is(r.value.restarted, true);
  assert.equal(r.warnings.map((w) => w.code), ["ROTATED"]);
  assert.is(r.value.events.length, first.value.events.length + 1);
  assert.is(r.value.events[0]?.kind, "session");
});

test("a line longer than maxLineBytes is skipped with a warning; a long one within it is read", () => {
  const file = path.join(makeTempDir(), "long.jsonl");
  const huge = JSON.stringify({ type: "message", id: "huge", message: { role: "assistant", content: [{ type: "text", text: "y".repeat(5000) }] } });
  const big = JSON.stringify({ type: "message", id: "big", message: { role: "assistant", content: [{ type: "text", text: "z".repeat(900) }] } });
  fs.writeFileSync(file, line(userEvent("a")) + `${huge}\n` + line(userEvent("b")) + `${big}\n`);
  const r = drain(file, { maxBytes: 128, maxLineBytes: 1024 });
  assert.equal(r.events.map((e) => e.id), ["a", "b", "big"]);
  assert.equal(r.warnings, ["BAD_ROW"]);
  assert.is(r.cursor.offset, fs.statSync(file).size);
});

test("a missing transcript is a missing SourceError", () => {
  const r = readJsonlTranscript(path.join(makeTempDir(), "gone.jsonl"), null);
  assert.ok(!r.ok);
  assert.is(r.error.kind, "missing");
});

test.run();
