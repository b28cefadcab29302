import * as fs from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { openAgentData } from "./agent-data.js";
import type { AgentData, TranscriptCursor, TranscriptRef } from "./agent-data.js";
import { emptyTotals, foldEvent } from "./session-record.js";
import type { SessionTotals } from "./session-record.js";
import { FILES_FIXTURE, SQLITE_FIXTURE, copyFixture, makeTempDir, removeTempDirs } from "../../../test/helpers/openclaw-fixtures.js";

test.after(removeTempDirs);

// any: raw fixture JSON and rows compared as plain data.
type Json = Record<string, any>;

function openOk(stateDir: string, agentId = "main"): AgentData {
  const r = openAgentData(stateDir, agentId, { env: {} });
  if (!r.ok) throw r.error;
  return r.value;
}

/** Scans one transcript to the end in batches, round-tripping the cursor through JSON like the store. */
function scan(data: AgentData, ref: TranscriptRef, limit: number, start: TranscriptCursor | null = null) {
  let cursor = start;
  const totals = emptyTotals();
  let events = 0;
  let calls = 0;
  let restarted = false;
  for (;;) {
    const r = data.readTranscript(ref, cursor, limit);
    if (!r.ok) throw r.error;
    calls++;
    assert.ok(calls < 1000);
    assert.ok(r.value.events.length <= limit);
    restarted ||= r.value.restarted;
    for (const e of r.value.events) foldEvent(totals, e);
    events += r.value.events.length;
    cursor = JSON.parse(JSON.stringify(r.value.cursor)) as TranscriptCursor;
    if (r.value.done) return { totals, events, calls, cursor, restarted };
  }
}

function usageSums(objs: Json[]): Pick<SessionTotals, "input" | "output" | "cacheRead" | "cacheWrite" | "userMessages" | "assistantMessages"> & { cost: number } {
  const a = objs.filter((o) => o.type === "message" && o.message?.role === "assistant");
  return {
    input: a.reduce((s, o) => s + o.message.usage.input, 0),
    output: a.reduce((s, o) => s + o.message.usage.output, 0),
    cacheRead: a.reduce((s, o) => s + o.message.usage.cacheRead, 0),
    cacheWrite: a.reduce((s, o) => s + o.message.usage.cacheWrite, 0),
    cost: a.reduce((s, o) => s + o.message.usage.cost.total, 0),
    userMessages: objs.filter((o) => o.type === "message" && o.message?.role === "user").length,
    assistantMessages: a.length,
  };
}

function assertTotals(t: SessionTotals, want: ReturnType<typeof usageSums>, what: string): void {
  assert.equal(
    [t.input, t.output, t.cacheRead, t.cacheWrite, t.userMessages, t.assistantMessages],
    [want.input, want.output, want.cacheRead, want.cacheWrite, want.userMessages, want.assistantMessages],
    what,
  );
  assert.ok(Math.abs(t.costUsd - want.cost) < 1e-12, `${what}: cost ${t.costUsd} vs ${want.cost}`);
}

test("SQLite era: sessions, transcripts, batched reads and totals match the DB", () => {
  const stateDir = copyFixture(SQLITE_FIXTURE);
  const dbPath = path.join(stateDir, "agents", "main", "agent", "openclaw-agent.sqlite");
  const sql = new Database(dbPath, { readonly: true });
  const keys = (sql.prepare("SELECT session_key FROM session_nodes ORDER BY session_key").all() as Json[]).map((r) => r.session_key);
  const windows = sql.prepare("SELECT session_id, session_key FROM session_windows ORDER BY session_key, created_at, session_id").all() as Json[];
  const rows = sql.prepare("SELECT session_id, event_json FROM transcript_events ORDER BY session_id, seq").all() as Json[];
  const appVersion = (sql.prepare("SELECT app_version FROM schema_meta WHERE meta_key = 'primary'").get() as Json).app_version;
  sql.close();

  const data = openOk(stateDir);
  assert.is(data.era, "sqlite");
  const sessions = data.listSessions();
  assert.ok(sessions.ok);
  assert.equal(sessions.value.map((s) => s.key), keys);
  const refs = data.listTranscripts();
  assert.ok(refs.ok);
  assert.equal(
    refs.value.map((r) => [r.sessionId, r.sessionKey]),
    windows.map((w) => [w.session_id, w.session_key]),
  );
  // Every window of a key is in that session's record.
  for (const s of sessions.value) assert.equal(s.sessionIds, windows.filter((w) => w.session_key === s.key).map((w) => w.session_id));

  const all = emptyTotals();
  for (const ref of refs.value) {
    const objs = rows.filter((r) => r.session_id === ref.sessionId).map((r) => JSON.parse(r.event_json) as Json);
    assert.is(ref.eventCount, objs.length);
    const got = scan(data, ref, 3);
    assert.is(got.events, objs.length);
    assert.is(got.calls, Math.floor(objs.length / 3) + 1);
    assertTotals(got.totals, usageSums(objs), ref.sessionId);
    all.input += got.totals.input;
  }
  assert.is(all.input, usageSums(rows.map((r) => JSON.parse(r.event_json) as Json)).input);
  const v = data.appVersion();
  assert.ok(v.ok);
  assert.is(v.value, appVersion);
  data.close();
});

test("file era: sessions, transcripts, batched reads and totals match the JSONL", () => {
  const stateDir = copyFixture(FILES_FIXTURE);
  const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
  const index = JSON.parse(fs.readFileSync(path.join(sessionsDir, "sessions.json"), "utf8")) as Json;
  const stateDb = new Database(path.join(stateDir, "state", "openclaw.sqlite"), { readonly: true });
  const versions = (stateDb.prepare("SELECT app_version FROM schema_meta WHERE app_version IS NOT NULL").all() as Json[]).map((r) => r.app_version);
  stateDb.close();

  const data = openOk(stateDir);
  assert.is(data.era, "files");
  const sessions = data.listSessions();
  assert.ok(sessions.ok);
  assert.equal(sessions.value.map((s) => s.key), Object.keys(index));
  const refs = data.listTranscripts();
  assert.ok(refs.ok);
  const idToKey = Object.fromEntries(Object.entries(index).map(([k, e]) => [(e as Json).sessionId, k]));
  assert.equal(
    refs.value.map((r) => [r.sessionId, r.sessionKey]),
    Object.keys(idToKey)
      .sort()
      .map((id) => [id, idToKey[id]]),
  );
  for (const ref of refs.value) {
    const file = path.join(sessionsDir, `${ref.sessionId}.jsonl`);
    assert.is(ref.sizeBytes, fs.statSync(file).size);
    const objs = fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Json);
    const got = scan(data, ref, 2);
    assert.is(got.events, objs.length);
    assertTotals(got.totals, usageSums(objs), ref.sessionId);
  }
  const v = data.appVersion();
  assert.ok(v.ok);
  assert.ok(v.value !== null && versions.includes(v.value), `${v.value} in ${versions.join(",")}`);
  data.close();
});

test("file era: the paced listing pauses between stretches of a big install and gives the same refs as listing in one go", async () => {
  const stateDir = copyFixture(FILES_FIXTURE);
  const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
  const index = JSON.parse(fs.readFileSync(path.join(sessionsDir, "sessions.json"), "utf8")) as Json;
  const [template] = Object.values(index) as Json[];
  assert.ok(template);
  // 1,500 sessions: a transcript each (a stat each) and a sessions.json of several MiB (the blobs).
  const big: Json = {};
  for (let i = 0; i < 1500; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    big[`agent:main:direct:${i}`] = { ...template, sessionId: id };
    fs.writeFileSync(path.join(sessionsDir, `${id}.jsonl`), fs.readFileSync(path.join(sessionsDir, `${template.sessionId}.jsonl`)));
  }
  fs.writeFileSync(path.join(sessionsDir, "sessions.json"), JSON.stringify(big, null, 2));
  assert.ok(fs.statSync(path.join(sessionsDir, "sessions.json")).size > 3 * 1024 * 1024);
  const data = openOk(stateDir);
  assert.ok(data.listTranscriptsPaced, "the file era lists paced");
  let pauses = 0;
  const paced = await data.listTranscriptsPaced(async () => {
    pauses++;
    await new Promise<void>((resolve) => setImmediate(resolve));
  });
  assert.ok(paced.ok);
  // At least one pause per 500 stats and one per MiB of sessions.json.
  assert.ok(pauses >= 5, `${pauses} pauses`);
  const once = openOk(stateDir).listTranscripts();
  assert.ok(once.ok);
  assert.equal(paced.value, once.value);
  assert.is(paced.value.filter((r) => r.sessionKey?.startsWith("agent:main:direct:")).length, 1500);
  data.close();
});

test("file era: listTranscripts right after changeStamp gives the listing the stamp was made from", () => {
  const stateDir = copyFixture(FILES_FIXTURE);
  const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
  const data = openOk(stateDir);
  const stamp = data.changeStamp();
  assert.ok(stamp.ok);
  const first = data.listTranscripts();
  assert.ok(first.ok);
  const [ref] = first.value;
  assert.ok(ref);
  // Grown after the stamp: the next stamp differs, so the next pass sees it; a later listing too.
  fs.appendFileSync(path.join(sessionsDir, `${ref.sessionId}.jsonl`), "\n");
  const again = data.listTranscripts();
  assert.ok(again.ok);
  assert.is(again.value[0]?.sizeBytes, (ref.sizeBytes ?? 0) + 1);
  const next = data.changeStamp();
  assert.ok(next.ok);
  assert.is.not(next.value, stamp.value);
  data.close();
});

test("change tokens stay put until a transcript grows (both eras)", () => {
  // SQLite: a new row moves max seq.
  const sqlDir = copyFixture(SQLITE_FIXTURE);
  const data = openOk(sqlDir);
  const before = data.listTranscripts();
  assert.ok(before.ok);
  const again = data.listTranscripts();
  assert.ok(again.ok);
  assert.equal(again.value.map((r) => r.changeToken), before.value.map((r) => r.changeToken));
  const target = before.value[0] as TranscriptRef;
  const done = scan(data, target, 100);
  const w = new Database(path.join(sqlDir, "agents", "main", "agent", "openclaw-agent.sqlite"));
  const max = (w.prepare("SELECT max(seq) AS m FROM transcript_events WHERE session_id = ?").get(target.sessionId) as Json).m as number;
  w.prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)").run(
    target.sessionId,
    max + 1,
    JSON.stringify({ type: "message", id: "x1", message: { role: "assistant", usage: { input: 7, output: 3, cost: { total: 0.25 } } } }),
    Date.UTC(2026, 10, 22),
  );
  w.close();
  const after = data.listTranscripts();
  assert.ok(after.ok);
  const changed = after.value.filter((r, i) => r.changeToken !== before.value[i]?.changeToken).map((r) => r.sessionId);
  assert.equal(changed, [target.sessionId]);
  const more = scan(data, target, 100, done.cursor);
  assert.equal([more.events, more.totals.input, more.totals.output, more.totals.costUsd, more.restarted], [1, 7, 3, 0.25, false]);
  data.close();

  // Files: an appended line moves size and mtime.
  const fileDir = copyFixture(FILES_FIXTURE);
  const files = openOk(fileDir);
  const fBefore = files.listTranscripts();
  assert.ok(fBefore.ok);
  const fTarget = fBefore.value[0] as TranscriptRef;
  const fDone = scan(files, fTarget, 100);
  fs.appendFileSync(
    path.join(fileDir, "agents", "main", "sessions", `${fTarget.sessionId}.jsonl`),
    `${JSON.stringify({ type: "message", id: "y1", message: { role: "user", content: "more" } })}\n`,
  );
  const fAfter = files.listTranscripts();
  assert.ok(fAfter.ok);
  assert.equal(
    fAfter.value.filter((r, i) => r.changeToken !== fBefore.value[i]?.changeToken).map((r) => r.sessionId),
    [fTarget.sessionId],
  );
  const fMore = scan(files, fTarget, 100, fDone.cursor);
  assert.equal([fMore.events, fMore.totals.userMessages, fMore.restarted], [1, 1, false]);
});

/** Lists with `data` and with a reader opened now: what an incremental listing gives must be what a fresh one reads. */
function assertSameAsFresh(data: AgentData, stateDir: string, what: string): { sessions: Json[]; refs: TranscriptRef[] } {
  const sessions = data.listSessions();
  const refs = data.listTranscripts();
  assert.ok(sessions.ok && refs.ok);
  const fresh = openOk(stateDir);
  const fSessions = fresh.listSessions();
  const fRefs = fresh.listTranscripts();
  fresh.close();
  assert.ok(fSessions.ok && fRefs.ok);
  assert.equal(sessions.value, fSessions.value, `${what}: sessions`);
  assert.equal(refs.value, fRefs.value, `${what}: transcripts`);
  assert.equal(sessions.warnings, fSessions.warnings, `${what}: warnings`);
  return { sessions: sessions.value as unknown as Json[], refs: refs.value };
}

test("SQLite era: after a turn only the moved session and transcript are new; every listing equals a fresh reader's", () => {
  const stateDir = copyFixture(SQLITE_FIXTURE);
  const dbFile = path.join(stateDir, "agents", "main", "agent", "openclaw-agent.sqlite");
  const data = openOk(stateDir);
  const before = assertSameAsFresh(data, stateDir, "at start");
  const w = new Database(dbFile);
  w.pragma("foreign_keys = ON");
  const node = w.prepare("SELECT session_key, current_session_id, updated_at FROM session_nodes WHERE session_key = 'agent:main:main'").get() as Json;
  const sid = node.current_session_id as string;
  const max = (w.prepare("SELECT max(seq) AS m FROM transcript_events WHERE session_id = ?").get(sid) as Json).m as number;
  const now = (node.updated_at as number) + 60_000;
  // One turn the way the gateway writes it: the event, then the window's and the node's stamps.
  w.prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)").run(
    sid,
    max + 1,
    JSON.stringify({ type: "message", id: "turn-1", message: { role: "assistant", usage: { input: 5, output: 9, cost: { total: 0.5 } } } }),
    now,
  );
  w.prepare("UPDATE session_windows SET transcript_updated_at = ? WHERE session_id = ?").run(now, sid);
  w.prepare("UPDATE session_nodes SET updated_at = ?, last_activity_at = ? WHERE session_key = 'agent:main:main'").run(now, now);
  const after = assertSameAsFresh(data, stateDir, "after a turn");
  const main = after.sessions.find((s) => s.key === "agent:main:main");
  assert.is(main?.updatedAt, now);
  // The unchanged session and transcripts come back as the very objects of the last listing: nothing
  // was read or built again for them.
  for (const s of after.sessions) if (s.key !== "agent:main:main") assert.ok(before.sessions.includes(s), `${s.key as string} kept its record`);
  const moved = after.refs.filter((r) => !before.refs.includes(r)).map((r) => r.sessionId);
  assert.equal(moved, [sid]);
  assert.is(after.refs.find((r) => r.sessionId === sid)?.changeToken, `seq:${max + 1}:${(before.refs.find((r) => r.sessionId === sid)?.eventCount ?? 0) + 1}`);

  // An append that moves no stamp at all is still seen (its rowid is above every row read before).
  w.prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)").run(
    sid,
    max + 2,
    JSON.stringify({ type: "message", id: "turn-2", message: { role: "user", content: "more" } }),
    now + 1,
  );
  const unstamped = assertSameAsFresh(data, stateDir, "after an unstamped append");
  assert.is(unstamped.refs.find((r) => r.sessionId === sid)?.changeToken, `seq:${max + 2}:${(before.refs.find((r) => r.sessionId === sid)?.eventCount ?? 0) + 2}`);

  // A new session (keyed between the two there are) with a window and events; then the cron session deleted.
  const entry = JSON.parse((w.prepare("SELECT entry_json FROM session_nodes WHERE session_key = 'agent:main:main'").get() as Json).entry_json as string) as Json;
  w.prepare("INSERT INTO session_nodes (session_key, current_session_id, entry_json, updated_at) VALUES (?, ?, ?, ?)").run(
    "agent:main:discord:group:7",
    "new-window-1",
    JSON.stringify({ ...entry, sessionId: "new-window-1", label: "new one" }),
    now + 2,
  );
  w.prepare("INSERT INTO session_windows (session_id, session_key, created_at, updated_at) VALUES (?, ?, ?, ?)").run("new-window-1", "agent:main:discord:group:7", now + 2, now + 2);
  w.prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, 0, ?, ?)").run("new-window-1", JSON.stringify({ type: "message", id: "n1", message: { role: "user", content: "hi" } }), now + 2);
  const added = assertSameAsFresh(data, stateDir, "after a new session");
  assert.equal(
    added.sessions.map((s) => s.key),
    ["agent:main:cron:9dfb4fae-b7f6-4eae-a966-549a6bcfe1c0", "agent:main:discord:group:7", "agent:main:main"],
  );
  w.prepare("DELETE FROM session_nodes WHERE session_key = 'agent:main:cron:9dfb4fae-b7f6-4eae-a966-549a6bcfe1c0'").run();
  w.close();
  const deleted = assertSameAsFresh(data, stateDir, "after a deleted session");
  assert.equal(deleted.sessions.map((s) => s.key), ["agent:main:discord:group:7", "agent:main:main"]);
  assert.equal(deleted.refs.map((r) => r.sessionId).sort(), ["new-window-1", sid].sort());
  data.close();
});

test("SQLite era: a window or node written without moving its stamps is read again by the periodic full listing", () => {
  const stateDir = copyFixture(SQLITE_FIXTURE);
  const data = openOk(stateDir);
  assert.ok(data.listSessions().ok);
  const w = new Database(path.join(stateDir, "agents", "main", "agent", "openclaw-agent.sqlite"));
  w.prepare("UPDATE session_windows SET channel = 'telegram' WHERE session_key = 'agent:main:main'").run();
  w.close();
  let channel: unknown = null;
  for (let i = 0; i < 20 && channel !== "telegram"; i++) {
    const r = data.listSessions();
    assert.ok(r.ok);
    channel = r.value.find((s) => s.key === "agent:main:main")?.channel;
  }
  assert.is(channel, "telegram");
  assertSameAsFresh(data, stateDir, "after the full listing");
  data.close();
});

test("SQLite era: the paced listing pauses between its stretches and lists what the plain one does, first and at the periodic full read", async () => {
  const stateDir = copyFixture(SQLITE_FIXTURE);
  const data = openOk(stateDir);
  const w = new Database(path.join(stateDir, "agents", "main", "agent", "openclaw-agent.sqlite"));
  const step = w.prepare("UPDATE session_nodes SET updated_at = updated_at + 1, last_activity_at = updated_at + 1 WHERE session_key = 'agent:main:main'");
  const paced = data.listTranscriptsPaced;
  assert.ok(paced, "the SQLite era lists in stretches");
  for (let i = 0; i < 22; i++) {
    let pauses = 0;
    const listed = await paced.call(data, async () => {
      pauses++;
    });
    assert.ok(listed.ok);
    assert.ok(pauses >= 1, `listing ${i} paused`);
    const fresh = openOk(stateDir);
    const plain = fresh.listTranscripts();
    const sessions = fresh.listSessions();
    fresh.close();
    assert.ok(plain.ok && sessions.ok);
    assert.equal(listed.value, plain.value, `listing ${i}: transcripts`);
    const mine = data.listSessions();
    assert.ok(mine.ok);
    assert.equal(mine.value, sessions.value, `listing ${i}: sessions`);
    step.run();
  }
  w.close();
  data.close();
});

test("a SQLite transcript whose seq went backwards is re-read from the start", () => {
  const stateDir = copyFixture(SQLITE_FIXTURE);
  const data = openOk(stateDir);
  const refs = data.listTranscripts();
  assert.ok(refs.ok);
  const ref = refs.value[0] as TranscriptRef;
  const first = scan(data, ref, 100);
  const w = new Database(path.join(stateDir, "agents", "main", "agent", "openclaw-agent.sqlite"));
  const max = (w.prepare("SELECT max(seq) AS m FROM transcript_events WHERE session_id = ?").get(ref.sessionId) as Json).m as number;
  w.prepare("DELETE FROM transcript_events WHERE session_id = ? AND seq >= ?").run(ref.sessionId, max - 1);
  w.close();
  const r = data.readTranscript(ref, first.cursor, 100);
  assert.ok(r.ok);
  assert.is(r.value.restarted, true);
  assert.equal(r.warnings.map((x) => x.code), ["TRUNCATED"]);
  assert.is(r.value.events.length, first.events - 2);
  data.close();
});

test("a cursor from the other era restarts the transcript and says so", () => {
  const data = openOk(copyFixture(SQLITE_FIXTURE));
  const refs = data.listTranscripts();
  assert.ok(refs.ok);
  const ref = refs.value[0] as TranscriptRef;
  const r = data.readTranscript(ref, { era: "files", offset: 500, inode: 1, size: 900 }, 1000);
  assert.ok(r.ok);
  assert.is(r.value.restarted, true);
  assert.is(r.value.events.length, ref.eventCount);
  data.close();

  const files = openOk(copyFixture(FILES_FIXTURE));
  const fRefs = files.listTranscripts();
  assert.ok(fRefs.ok);
  const f = files.readTranscript(fRefs.value[0] as TranscriptRef, { era: "sqlite", afterSeq: 3 }, 1000);
  assert.ok(f.ok);
  assert.is(f.value.restarted, true);
  assert.equal(f.warnings.map((x) => x.code), ["ROTATED"]);
  assert.is(f.value.events[0]?.kind, "session");
});

test("file era: a corrupt sessions.json still lists transcripts, without keys", async () => {
  const stateDir = copyFixture(FILES_FIXTURE);
  fs.writeFileSync(path.join(stateDir, "agents", "main", "sessions", "sessions.json"), '{"agent:main:main": {');
  const data = openOk(stateDir);
  const sessions = data.listSessions();
  assert.ok(!sessions.ok);
  assert.is(sessions.error.kind, "corrupt");
  const refs = data.listTranscripts();
  assert.ok(refs.ok);
  assert.ok(refs.value.length > 0);
  assert.ok(refs.value.every((r) => r.sessionKey === null));
  assert.equal(refs.warnings.map((w) => w.code), ["BAD_ROW"]);
  const bad = data.readTranscript({ sessionId: "../../../etc/passwd" }, null);
  assert.ok(!bad.ok);
  // The paced listing says the same, whether the walk fails at once or after a pause.
  assert.ok(data.listTranscriptsPaced);
  const pause = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  for (const text of ['{"agent:main:main": {', `{${'"k": {"skillsSnapshot": "x"},'.repeat(60_000)}"agent:main:main": [}`]) {
    fs.writeFileSync(path.join(stateDir, "agents", "main", "sessions", "sessions.json"), text);
    const paced = await data.listTranscriptsPaced(pause);
    assert.ok(paced.ok);
    assert.equal(
      paced.value.map((r) => [r.sessionId, r.sessionKey]),
      refs.value.map((r) => [r.sessionId, null]),
    );
    assert.equal(paced.warnings.map((w) => w.code), ["BAD_ROW"]);
    assert.ok(paced.warnings[0]?.message.includes("not valid JSON"), paced.warnings[0]?.message);
  }
});

test("missing state dir, missing agent and a non-SQLite agent DB are SourceErrors", () => {
  const gone = openAgentData(path.join(makeTempDir(), "nope"), "main", { env: {} });
  assert.ok(!gone.ok);
  assert.is(gone.error.kind, "missing");

  const stateDir = copyFixture(SQLITE_FIXTURE);
  const noAgent = openAgentData(stateDir, "ghost", { env: {} });
  assert.ok(!noAgent.ok);
  assert.is(noAgent.error.kind, "missing");

  fs.writeFileSync(path.join(stateDir, "agents", "main", "agent", "openclaw-agent.sqlite"), "garbage, not a database ".repeat(20));
  const corrupt = openAgentData(stateDir, "main", { env: {} });
  assert.ok(!corrupt.ok);
  assert.is(corrupt.error.kind, "corrupt");
});

test("the model table comes from the config unless given; a broken config is only a warning", () => {
  const stateDir = copyFixture(SQLITE_FIXTURE);
  const cfg = JSON.parse(fs.readFileSync(path.join(stateDir, "openclaw.json"), "utf8")) as Json;
  const window = (cfg.models.providers.fakellm.models as Json[])[0]?.contextWindow as number;
  const data = openOk(stateDir);
  const s = data.listSessions();
  assert.ok(s.ok);
  assert.ok(s.value.every((x) => x.contextWindow === window));
  data.close();

  const given = openAgentData(stateDir, "main", { models: new Map([["fakellm/fake-model", { provider: "fakellm", id: "fake-model", name: null, cost: null, contextWindow: 4242, maxTokens: null }]]) });
  assert.ok(given.ok);
  const g = given.value.listSessions();
  assert.ok(g.ok);
  assert.ok(g.value.every((x) => x.contextWindow === 4242));
  given.value.close();

  fs.writeFileSync(path.join(stateDir, "openclaw.json"), "{ broken");
  const broken = openAgentData(stateDir, "main", { env: {} });
  assert.ok(broken.ok);
  assert.equal(broken.warnings.map((w) => w.code), ["BAD_FIELD"]);
  broken.value.close();
});

test.run();
