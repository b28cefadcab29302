// SourceReader.transcriptsAt (issue 13): for the files a watch event named, each provider gives the
// very refs its full listing gives for them (same id, keys and change token, so cursors and de-dup
// stay right), nothing for a file that is gone, and null (a full pass) for a path it cannot answer.
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { openClaudeCodeReader } from "./claude-code/reader.js";
import { copyClaudeHome, installOf as claudeInstall, transcriptFiles } from "../../test/helpers/claude-code-fixture.js";
import type { SourceReader, TranscriptRef } from "./contract.js";
import { openCodexReader } from "./codex/reader.js";
import { copyCodexHome, installOf as codexInstall, rolloutFiles } from "../../test/helpers/codex-fixture.js";
import { openAgentData } from "./openclaw/agent-data.js";
import { openclawReader } from "./openclaw/reader.js";
import { copyFixture, FILES_FIXTURE, SQLITE_FIXTURE, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";

test.after(removeTempDirs);

function must<T>(r: { ok: true; value: T } | { ok: false; error: Error }): T {
  if (!r.ok) throw r.error;
  return r.value;
}

const listed = (reader: SourceReader): TranscriptRef[] => must(reader.listTranscripts());

/** transcriptsAt's answer, failing the test on null or an error. */
function at(reader: SourceReader, paths: string[]): TranscriptRef[] {
  const r = reader.transcriptsAt?.(paths);
  if (!r) throw new Error(`transcriptsAt(${paths.join(", ")}) was ${String(r)}`);
  return must(r);
}

test("Claude Code: a session and a sub-agent transcript give the listing's refs; a live record gives none; other paths are null; a vanished file gives none", () => {
  const { claudeDir } = copyClaudeHome();
  const reader = must(openClaudeCodeReader(claudeInstall(claudeDir)));
  const files = transcriptFiles(claudeDir).map((rel) => path.join(claudeDir, rel));
  const main = files.find((f) => !f.includes("/subagents/")) as string;
  const sub = files.find((f) => f.includes("/subagents/"));
  assert.ok(main && sub, "the fixture has both kinds");
  fs.appendFileSync(main, '{"type":"user"}\n');
  const all = listed(reader);
  const byRel = (abs: string): TranscriptRef | undefined => all.find((r) => r.id === path.relative(claudeDir, abs).split(path.sep).join("/"));
  assert.equal(at(reader, [main]), [byRel(main)]);
  assert.equal(at(reader, [sub as string, main, main]), [byRel(main), byRel(sub as string)].sort((a, b) => ((a?.id ?? "") < (b?.id ?? "") ? -1 : 1)));
  assert.ok(byRel(sub as string)?.parentKey, "the sub-agent's ref has its parent");
  assert.equal(at(reader, [path.join(claudeDir, "sessions", "12345.json")]), [], "a live-process record: nothing to scan");
  assert.is(reader.transcriptsAt?.([path.join(claudeDir, "settings.json")]), null);
  assert.is(reader.transcriptsAt?.([path.join(claudeDir, "projects", "x", "notes.txt")]), null);
  assert.is(reader.transcriptsAt?.([path.join(path.dirname(claudeDir), "elsewhere.jsonl")]), null, "outside the install");
  assert.is(reader.transcriptsAt?.([main, path.join(claudeDir, "projects")]), null, "one unknown path makes the whole answer null");
  fs.rmSync(main);
  assert.equal(at(reader, [main]), [], "gone: no ref (the next listing drops it)");
});

test("Codex: the listed rollout gives the listing's ref; a new session's file, another copy or a shrunk file is null; a vanished one gives none", () => {
  const { codexDir } = copyCodexHome();
  const reader = must(openCodexReader(codexInstall(codexDir), { probe: { heldLocks: () => [] } }));
  const [file] = rolloutFiles(codexDir).map((rel) => path.join(codexDir, rel));
  assert.ok(file);
  listed(reader);
  fs.appendFileSync(file as string, '{"type":"event_msg","payload":{"type":"other"}}\n');
  const fresh = listed(reader);
  // Asked before the listing that follows the append: the answer is what that listing gives.
  const again = must(openCodexReader(codexInstall(codexDir), { probe: { heldLocks: () => [] } }));
  listed(again);
  fs.appendFileSync(file as string, '{"type":"event_msg","payload":{"type":"other"}}\n');
  const got = at(again, [file as string]);
  const want = listed(reader).filter((r) => got.some((g) => g.id === r.id));
  assert.is(got.length, 1);
  assert.equal(got, want);
  assert.is.not(got[0]?.changeToken, fresh.find((r) => r.id === got[0]?.id)?.changeToken, "the token is the file's now");
  // A second copy of the session somewhere else, and a session never listed.
  const copy = path.join(path.dirname(file as string), `copy-${path.basename(file as string)}`.replace(/^copy-rollout-/, "rollout-2020-01-01T00-00-00-"));
  fs.copyFileSync(file as string, copy);
  assert.is(again.transcriptsAt?.([copy]), null, "another copy: the listing decides which is read");
  const unknown = path.join(path.dirname(file as string), "rollout-2026-11-23T10-00-00-0199a0b1-0000-7000-8000-00000000abcd.jsonl");
  fs.writeFileSync(unknown, "");
  assert.is(again.transcriptsAt?.([unknown]), null, "a new session: the listing decides");
  assert.is(again.transcriptsAt?.([path.join(codexDir, "sessions", "notes.jsonl")]), null);
  fs.truncateSync(file as string, 10);
  assert.is(again.transcriptsAt?.([file as string]), null, "shrunk: another copy may win now");
  fs.rmSync(copy);
  listed(again);
  fs.rmSync(file as string);
  assert.equal(at(again, [file as string]), [], "gone: no ref");
});

test("OpenClaw file era: a transcript gives the listing's ref (with its key) while sessions.json is as last parsed; sessions.json, a stale parse and other files are null; the SQLite era has none", () => {
  const state = copyFixture(FILES_FIXTURE);
  const data = must(openAgentData(state, "main"));
  const reader = openclawReader(data);
  const sessions = path.join(state, "agents", "main", "sessions");
  const file = path.join(sessions, "4d7eee47-dc3e-4269-8d1c-bb0990fbc547.jsonl");
  assert.is(reader.transcriptsAt?.([file]), null, "nothing parsed yet: a full pass first");
  listed(reader);
  fs.appendFileSync(file, '{"type":"custom"}\n');
  const got = at(reader, [file]);
  const want = listed(reader).filter((r) => r.id === "4d7eee47-dc3e-4269-8d1c-bb0990fbc547");
  assert.is(want.length, 1);
  assert.ok(want[0]?.sessionKey, "the fixture's transcript has a key");
  assert.equal(got, want);
  assert.is(reader.transcriptsAt?.([path.join(sessions, "sessions.json")]), null, "the index itself: a full pass");
  assert.is(reader.transcriptsAt?.([path.join(sessions, "4d7eee47-dc3e-4269-8d1c-bb0990fbc547.trajectory.jsonl")]), null);
  const index = path.join(sessions, "sessions.json");
  fs.writeFileSync(index, fs.readFileSync(index, "utf8") + " ");
  assert.is(reader.transcriptsAt?.([file]), null, "sessions.json changed since it was parsed: its keys may have");
  listed(reader);
  fs.rmSync(file);
  assert.equal(at(reader, [file]), [], "gone: no ref");

  const sqlite = copyFixture(SQLITE_FIXTURE);
  const db = openclawReader(must(openAgentData(sqlite, "main")));
  assert.is(db.transcriptsAt, undefined, "the SQLite era cannot name transcripts by file");
  db.close();
});

test.run();
