// The Claude Code reader polled (issue 18): an install past the watch limit is read by polls of the
// kept listing. Each kind of change is seen within the time docs/providers.md gives for it, and a
// poll with nothing changed keeps the stamp (the core skips the pass). The reader's wall clock is
// injected: the fixture's files and dirs are dated a day back, and "now" moves by hand.
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { SourceReader, TranscriptRef } from "../contract.js";
import { openClaudeCodeReader } from "./reader.js";
import { HOT_MS, STAMP_MS, SWEEP_MS } from "./transcript-index.js";
import { copyClaudeHome, dateTree, installOf, removeTempDirs, transcriptFiles } from "../../../test/helpers/claude-code-fixture.js";

test.after(removeTempDirs);

const DAY = 86_400_000;

interface Polled {
  reader: SourceReader;
  claudeDir: string;
  ids: string[];
  clock: { t: number };
  /** One poll: the stamp, and what it found since the previous one (ids). */
  poll(): { stamp: string; changed: string[]; total: number };
}

function polled(): Polled {
  const { claudeDir } = copyClaudeHome();
  dateTree(path.join(claudeDir, "projects"), new Date(Date.now() - DAY));
  const clock = { t: Date.now() };
  const opened = openClaudeCodeReader(installOf(claudeDir), { now: () => clock.t });
  assert.ok(opened.ok);
  if (!opened.ok) throw new Error("no reader");
  const reader = opened.value;
  const listed = reader.listTranscripts();
  assert.ok(listed.ok);
  const ids = listed.ok ? listed.value.map((r) => r.id) : [];
  assert.equal(ids, transcriptFiles(claudeDir));
  const poll = () => {
    const s = reader.changeStamp();
    assert.ok(s.ok);
    const c = reader.changedTranscripts?.();
    assert.ok(c, "a listed reader says what changed");
    return { stamp: s.ok ? s.value : "", changed: (c?.refs ?? []).map((r: TranscriptRef) => r.id), total: c?.total ?? -1 };
  };
  return { reader, claudeDir, ids, clock, poll };
}

const line = (n: number): string => `${JSON.stringify({ type: "mode", mode: "normal", n })}\n`;

test("polled, nothing changed: the stamp stays through the slices and sweeps, nothing reported", () => {
  const p = polled();
  const first = p.poll();
  assert.equal(first.changed, []);
  for (const step of [1000, STAMP_MS, SWEEP_MS, SWEEP_MS]) {
    p.clock.t += step;
    const again = p.poll();
    assert.is(again.stamp, first.stamp);
    assert.equal(again.changed, []);
    assert.is(again.total, p.ids.length);
  }
});

test("polled: an append to a file written lately is seen by the next poll; to an older one, within SWEEP_MS", () => {
  const p = polled();
  const [cold, hot] = p.ids.filter((id) => !id.includes("/subagents/"));
  assert.ok(cold && hot);
  // Written lately: dated now (before the listing would be the same; this is what an active session does).
  fs.appendFileSync(path.join(p.claudeDir, hot), line(1));
  p.clock.t += SWEEP_MS; // a sweep sees it once...
  assert.equal(p.poll().changed, [hot]);
  fs.appendFileSync(path.join(p.claudeDir, hot), line(2));
  const next = p.poll(); // ...and from then on it is hot: the very next poll, with no time passed
  assert.equal(next.changed, [hot]);

  const before = p.poll().stamp;
  fs.appendFileSync(path.join(p.claudeDir, cold), line(3));
  let seen: string[] = [];
  let waited = 0;
  while (waited <= SWEEP_MS && !seen.includes(cold)) {
    p.clock.t += 2000; // the daemon's poll interval
    waited += 2000;
    seen = p.poll().changed;
  }
  assert.ok(seen.includes(cold), `an append to an older file within ${SWEEP_MS} ms (waited ${waited})`);
  assert.is.not(p.poll().stamp, before);
});

test("polled: a file truncated is seen (written lately: next poll; older: within SWEEP_MS)", () => {
  const p = polled();
  const a = p.ids.find((id) => !id.includes("/subagents/")) as string;
  const sizeOf = (id: string): number | null | undefined => {
    const c = p.reader.changedTranscripts?.();
    return c?.refs.find((r) => r.id === id)?.sizeBytes;
  };
  fs.truncateSync(path.join(p.claudeDir, a), 10);
  p.clock.t += SWEEP_MS;
  p.reader.changeStamp();
  assert.is(sizeOf(a), 10, "an older file truncated: within a sweep");
  // Now written lately.
  fs.truncateSync(path.join(p.claudeDir, a), 5);
  p.reader.changeStamp();
  assert.is(sizeOf(a), 5, "truncated again: the next poll");
});

test("polled: a new transcript (in a project written lately, an older project, a new project, a new sub-agent) and a removed one", () => {
  const p = polled();
  const projects = path.join(p.claudeDir, "projects");
  const slugs = fs.readdirSync(projects).sort();
  const [olderSlug, otherSlug] = slugs as [string, string];
  // In an older project: its dir's stamp is checked within STAMP_MS.
  const made = `projects/${olderSlug}/11111111-1111-4111-8111-111111111111.jsonl`;
  fs.writeFileSync(path.join(p.claudeDir, made), line(1));
  let found: string[] = [];
  for (let waited = 0; waited <= STAMP_MS && !found.includes(made); waited += 2000) {
    p.clock.t += 2000;
    found = p.poll().changed;
  }
  assert.ok(found.includes(made), `a new file in an older project within ${STAMP_MS} ms`);
  assert.is(p.poll().total, p.ids.length + 1);
  // That project is written lately now: the next one in it is seen by the next poll.
  const made2 = `projects/${olderSlug}/22222222-2222-4222-8222-222222222222.jsonl`;
  fs.writeFileSync(path.join(p.claudeDir, made2), line(2));
  assert.equal(p.poll().changed, [made2]);
  // A new project dir: the projects dir is stat-ed on every poll.
  const fresh = "projects/-home-op-new/33333333-3333-4333-8333-333333333333.jsonl";
  fs.mkdirSync(path.join(projects, "-home-op-new"));
  fs.writeFileSync(path.join(p.claudeDir, fresh), line(3));
  assert.equal(p.poll().changed, [fresh]);
  // A sub-agent of a session in the other (older) project.
  const session = "44444444-4444-4444-8444-444444444444";
  const sub = `projects/${otherSlug}/${session}/subagents/agent-a1.jsonl`;
  fs.mkdirSync(path.join(projects, otherSlug, session, "subagents"), { recursive: true });
  fs.writeFileSync(path.join(p.claudeDir, sub), line(4));
  found = [];
  for (let waited = 0; waited <= STAMP_MS && !found.includes(sub); waited += 2000) {
    p.clock.t += 2000;
    found = p.poll().changed;
  }
  assert.ok(found.includes(sub), "a new sub-agent transcript within STAMP_MS");
  const total = p.poll().total;
  assert.is(total, p.ids.length + 4);

  // Removed: an older transcript goes; the count drops and the stamp moves within STAMP_MS.
  const gone = p.ids.find((id) => id.startsWith(`projects/${otherSlug}/`) && !id.includes("/subagents/")) as string;
  const before = p.poll().stamp;
  fs.rmSync(path.join(p.claudeDir, gone));
  let after = p.poll();
  for (let waited = 0; waited <= STAMP_MS && after.total === total; waited += 2000) {
    p.clock.t += 2000;
    after = p.poll();
  }
  assert.is(after.total, total - 1, "the removed file is no longer counted");
  assert.is.not(after.stamp, before);
  // A full listing agrees with what the polls kept.
  const listed = p.reader.listTranscripts();
  assert.ok(listed.ok);
  if (listed.ok) assert.is(listed.value.length, total - 1);
});

test("polled: a file that stays unwritten for HOT_MS is no longer stat-ed on every poll (an append to it waits for the sweep)", () => {
  const p = polled();
  const id = p.ids[0] as string;
  fs.appendFileSync(path.join(p.claudeDir, id), line(1));
  p.clock.t += SWEEP_MS;
  assert.ok(p.poll().changed.includes(id));
  // Long after: cold again. A poll right after an append does not see it; the sweep does.
  p.clock.t += HOT_MS + SWEEP_MS;
  p.poll();
  fs.utimesSync(path.join(p.claudeDir, id), new Date(p.clock.t - HOT_MS - DAY), new Date(p.clock.t - HOT_MS - DAY));
  p.clock.t += SWEEP_MS;
  p.poll();
  fs.appendFileSync(path.join(p.claudeDir, id), line(2));
  assert.not.ok(p.poll().changed.includes(id), "not on every poll");
  p.clock.t += SWEEP_MS;
  assert.ok(p.poll().changed.includes(id), "within the sweep");
});

test.run();
