// The OpenClaw demo writer on an installed demo copy, checked with OpenClaw's readers (the same
// ones the daemon uses): what it writes must read back as sessions, transcripts, cron runs and
// log lines, with usage that adds up, and it must not grow without bound.
import { readFileSync, statSync, existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readCron } from "../gateway/cron.js";
import { parseLogLine } from "../gateway/log-line.js";
import { openAgentData } from "../agent-data.js";
import type { AssistantMessageEvent, TranscriptEvent } from "../transcript-event.js";
import { makeTempDir, removeTempDirs } from "../../../../test/helpers/openclaw-fixtures.js";
import { installDemoState } from "../../../demo-replay/install.js";
import { seededRandom } from "../../../base/random.js";
import { DEMO_MODEL } from "./events.js";
import { OpenclawDemoWriter } from "./writer.js";

test.after(removeTempDirs);

const NOW = Date.parse("2027-03-01T12:00:00.000Z");

function install(): string {
  const dir = join(makeTempDir(), "openclaw-state");
  installDemoState(dir, { now: NOW });
  return dir;
}

function readAll(dir: string, sessionId: string): TranscriptEvent[] {
  const data = openAgentData(dir, "main");
  if (!data.ok) throw new Error(data.error.message);
  try {
    const batch = data.value.readTranscript({ sessionId }, null, 10_000);
    if (!batch.ok) throw new Error(batch.error.message);
    return batch.value.events;
  } finally {
    data.value.close();
  }
}

function mainSession(dir: string): { currentSessionId: string; sessionIds: string[]; updatedAt: number | null } {
  const data = openAgentData(dir, "main");
  if (!data.ok) throw new Error(data.error.message);
  try {
    const list = data.value.listSessions();
    if (!list.ok) throw new Error(list.error.message);
    const s = list.value.find((x) => x.key === "agent:main:main");
    if (!s?.currentSessionId) throw new Error("no main session");
    return { currentSessionId: s.currentSessionId, sessionIds: s.sessionIds, updatedAt: s.updatedAt };
  } finally {
    data.value.close();
  }
}

test("a step appends a question and its answer that OpenClaw's reader reads, with usage that adds up", () => {
  const dir = install();
  const before = mainSession(dir);
  const eventsBefore = readAll(dir, before.currentSessionId).length;
  const writer = new OpenclawDemoWriter({ stateDir: dir, random: seededRandom(3) });
  const at = NOW + 20_000;
  let step;
  try {
    step = writer.step(at);
  } finally {
    writer.close();
  }
  assert.ok(step.wrote.includes("turn agent:main:main"), step.wrote.join(", "));
  const after = mainSession(dir);
  assert.is(after.currentSessionId, before.currentSessionId);
  assert.ok(after.updatedAt !== null && after.updatedAt <= at && after.updatedAt > at - 15_000, "the session was just updated");
  const events = readAll(dir, after.currentSessionId);
  const added = events.slice(eventsBefore);
  assert.equal(added.map((e) => e.kind), ["user", "assistant"]);
  const answer = added[1] as AssistantMessageEvent;
  assert.ok(answer.ts !== null && answer.ts <= at && answer.ts > at - 15_000);
  assert.is(answer.model, DEMO_MODEL.model);
  assert.is(answer.stopReason, "stop");
  const u = answer.usage;
  assert.ok(u);
  assert.is(u.totalTokens, u.input + u.output + u.cacheRead + u.cacheWrite);
  const r = DEMO_MODEL.rates;
  const expected = (u.input * r.input + u.output * r.output + u.cacheRead * r.cacheRead + u.cacheWrite * r.cacheWrite) / 1e6;
  assert.ok(Math.abs((u.costUsd ?? -1) - expected) < 1e-12, `cost ${u.costUsd} = tokens x list price ${expected}`);
  assert.ok(u.cacheRead > 10_000 && u.output > 20, "a turn in a long session reads its cached prompt");

  const lines = readFileSync(join(dir, "logs", "gateway.log"), "utf8").trim().split("\n");
  const mine = lines.map((l) => parseLogLine(l, "gateway.log")).filter((p) => p.ok && p.entry.timeMs > NOW);
  assert.ok(mine.length >= 3, "the run's log lines, parseable by the log reader");
});

test("the triage cron runs when its schedule is due: a new window, the job's next run, a receipt", () => {
  const dir = install();
  const cronBefore = readCron(dir, { nowMs: NOW });
  assert.ok(cronBefore.ok);
  const job = cronBefore.value.jobs.find((j) => j.name === "Demo ticket triage");
  assert.ok(job && job.nextRunAt !== null);
  const due = job.nextRunAt + 1000;
  const writer = new OpenclawDemoWriter({ stateDir: dir, random: seededRandom(4) });
  try {
    const early = writer.step(job.nextRunAt - 1000);
    assert.not.ok(early.wrote.some((w) => w.startsWith("cron")), "not before it is due");
    const step = writer.step(due);
    assert.ok(step.wrote.some((w) => w.startsWith("cron")), step.wrote.join(", "));
    const again = writer.step(due + 2000);
    assert.not.ok(again.wrote.some((w) => w.startsWith("cron")), "once per due time");
  } finally {
    writer.close();
  }
  const cron = readCron(dir, { nowMs: due + 2000 });
  assert.ok(cron.ok);
  const after = cron.value.jobs.find((j) => j.name === "Demo ticket triage");
  assert.ok(after);
  assert.ok(after.lastRunAt !== null && after.lastRunAt >= job.nextRunAt && after.lastRunAt <= due);
  assert.ok(after.nextRunAt !== null && after.nextRunAt > due && after.nextRunAt <= due + 120_000, "every 2 minutes from its anchor");
  assert.is(after.lastStatus, "ok");
  const db = new Database(join(dir, "state", "openclaw.sqlite"), { readonly: true });
  try {
    const receipts = db.prepare("SELECT count(*) AS n FROM cron_run_receipts WHERE started_at_ms >= ?").get(job.nextRunAt) as { n: number };
    assert.is(receipts.n, 1);
  } finally {
    db.close();
  }
});

test("growth is bounded: windows roll over and are recycled, the log rotates, turns stop at the daily cap", () => {
  const dir = install();
  const writer = new OpenclawDemoWriter({ stateDir: dir, random: seededRandom(5), turnsPerWindow: 3, keepMainWindows: 2, keepCronWindows: 4, maxLogBytes: 64 * 1024, maxTurnsPerDay: 40 });
  let turns = 0;
  try {
    for (let i = 0; i < 60; i++) {
      const step = writer.step(NOW + i * 60_000);
      if (step.wrote.includes("turn agent:main:main")) turns++;
    }
  } finally {
    writer.close();
  }
  assert.is(turns, 40, "no more than the daily cap");
  const main = mainSession(dir);
  assert.is(main.sessionIds.length, 2, "only the newest windows are kept");
  const events = readAll(dir, main.currentSessionId);
  assert.is(events[0]?.kind, "session", "a new window starts with its header");
  assert.ok(events.filter((e) => e.kind === "user").length <= 3);
  const db = new Database(join(dir, "agents", "main", "agent", "openclaw-agent.sqlite"), { readonly: true });
  try {
    const cronWindows = db.prepare("SELECT count(*) AS n FROM session_windows WHERE session_key LIKE 'agent:main:cron:%'").get() as { n: number };
    assert.is(cronWindows.n, 4);
    const orphans = db.prepare("SELECT count(*) AS n FROM transcript_events WHERE session_id NOT IN (SELECT session_id FROM session_windows)").get() as { n: number };
    assert.is(orphans.n, 0, "a recycled window's events go with it");
  } finally {
    db.close();
  }
  assert.ok(existsSync(join(dir, "logs", "gateway.1.log")), "the log was rotated");
  assert.ok(statSync(join(dir, "logs", "gateway.log")).size <= 64 * 1024 + 16 * 1024);
});

test.run();
