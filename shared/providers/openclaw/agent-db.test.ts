import * as fs from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { AgentDb, readSchemaMeta } from "./agent-db.js";
import type { TranscriptEvent } from "./transcript-event.js";
import { FILES_FIXTURE, SQLITE_FIXTURE, compressZstd, copyFixture, makeTempDir, removeTempDirs } from "../../../test/helpers/openclaw-fixtures.js";

test.after(removeTempDirs);

// any: rows and raw event JSON are compared as plain data.
type Json = Record<string, any>;

function dbCopy(): string {
  return path.join(copyFixture(SQLITE_FIXTURE), "agents", "main", "agent", "openclaw-agent.sqlite");
}

function open(p: string): AgentDb {
  const r = AgentDb.open(p);
  if (!r.ok) throw r.error;
  return r.value;
}

/** Reads every event of one transcript in batches of `batch`, following the cursor. */
function readAll(db: AgentDb, sessionId: string, batch: number): { events: TranscriptEvent[]; calls: number; warnings: number } {
  const events: TranscriptEvent[] = [];
  let after = -1;
  let calls = 0;
  let warnings = 0;
  for (;;) {
    const r = db.transcriptEvents(sessionId, after, batch);
    assert.ok(r.ok);
    calls++;
    warnings += r.warnings.length;
    assert.ok(r.value.events.length <= batch);
    events.push(...r.value.events);
    after = r.value.lastSeq;
    if (r.value.done) return { events, calls, warnings };
  }
}

test("session_nodes and session_windows match the fixture rows", () => {
  const p = dbCopy();
  const sql = new Database(p, { readonly: true });
  const nodes = sql.prepare("SELECT * FROM session_nodes ORDER BY session_key").all() as Json[];
  const windows = sql.prepare("SELECT * FROM session_windows ORDER BY session_key, created_at, session_id").all() as Json[];
  sql.close();
  const db = open(p);
  const n = db.sessionNodes();
  assert.ok(n.ok);
  assert.is(n.warnings.length, 0);
  assert.is(n.value.length, nodes.length);
  n.value.forEach((row, i) => {
    const want = nodes[i] as Json;
    assert.is(row.sessionKey, want.session_key);
    assert.is(row.currentSessionId, want.current_session_id);
    // Every field of the entry but the three large blobs the reader drops in SQL (nothing reads them).
    const { skillsSnapshot: _skills, systemPromptReport: _report, contextBudgetStatus: _budget, ...entry } = JSON.parse(want.entry_json) as Json;
    assert.equal(row.entry, entry);
    assert.is(row.status, want.status);
    assert.is(row.createdVia, want.created_via);
    assert.is(row.label, want.label);
    assert.is(row.updatedAt, want.updated_at);
  });
  const w = db.sessionWindows();
  assert.ok(w.ok);
  assert.equal(
    w.value.map((r) => [r.sessionId, r.sessionKey, r.status, r.model, r.modelProvider, r.channel, r.chatType, r.createdAt]),
    windows.map((r) => [r.session_id, r.session_key, r.status, r.model, r.model_provider, r.channel, r.chat_type, r.created_at]),
  );
  db.close();
});

test("schema_meta gives the app version; the 2026.7.1 state DB keeps it on another row", () => {
  const p = dbCopy();
  const sql = new Database(p, { readonly: true });
  const primary = sql.prepare("SELECT schema_version, app_version FROM schema_meta WHERE meta_key = 'primary'").get() as Json;
  sql.close();
  const db = open(p);
  const meta = db.schemaMeta();
  assert.ok(meta.ok);
  assert.equal(meta.value, { schemaVersion: primary.schema_version, appVersion: primary.app_version });
  db.close();

  const stateDb = path.join(copyFixture(FILES_FIXTURE), "state", "openclaw.sqlite");
  const s = new Database(stateDb, { readonly: true });
  const rows = s.prepare("SELECT meta_key, app_version FROM schema_meta").all() as Json[];
  s.close();
  assert.is(rows.find((r) => r.meta_key === "primary")?.app_version, null, "fixture fact: primary has no version");
  const legacy = readSchemaMeta(stateDb);
  assert.ok(legacy.ok);
  assert.is(legacy.value.appVersion, rows.find((r) => r.meta_key === "startup-migrations")?.app_version);
});

test("transcript stats and batched reads reproduce every event_json row", () => {
  const p = dbCopy();
  const sql = new Database(p, { readonly: true });
  const stats = sql.prepare("SELECT session_id AS sessionId, max(seq) AS maxSeq, count(*) AS count FROM transcript_events GROUP BY session_id ORDER BY session_id").all() as Json[];
  const rows = sql.prepare("SELECT session_id, seq, event_json FROM transcript_events ORDER BY session_id, seq").all() as Json[];
  const inputSum = (sql.prepare("SELECT sum(json_extract(event_json, '$.message.usage.input')) AS s FROM transcript_events").get() as Json).s as number;
  sql.close();
  const db = open(p);
  const st = db.transcriptStats();
  assert.ok(st.ok);
  assert.equal(st.value, stats);
  let input = 0;
  for (const s of stats) {
    const got = readAll(db, s.sessionId, 2);
    assert.is(got.warnings, 0);
    assert.is(got.calls, Math.floor(s.count / 2) + 1, "bounded batches of 2");
    const want = rows.filter((r) => r.session_id === s.sessionId);
    assert.equal(
      got.events.map((e) => [e.pos, e.raw]),
      want.map((r) => [r.seq, JSON.parse(r.event_json)]),
    );
    for (const e of got.events) if (e.kind === "assistant") input += e.usage?.input ?? 0;
  }
  assert.ok(inputSum > 0);
  assert.is(input, inputSum);
  db.close();
});

test("a zstd-compressed row (event_json NULL) reads back identical", () => {
  const p = dbCopy();
  const w = new Database(p);
  // The table is STRICT with CHECKs on the compressed form; read them rather than guess.
  const schema = (w.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'transcript_events'").get() as Json).sql as string;
  assert.match(schema, "event_json IS NULL AND event_zstd IS NOT NULL");
  assert.match(schema, "AND navigation_json IS NOT NULL");
  assert.match(schema, "json_extract(navigation_json, '$.report.kind') IN ('canonical'");
  const target = w
    .prepare("SELECT session_id, seq, event_json FROM transcript_events WHERE json_extract(event_json, '$.message.role') = 'assistant' ORDER BY session_id, seq LIMIT 1")
    .get() as Json;
  const original = target.event_json as string;
  const bytes = Buffer.byteLength(original);
  const navigation = JSON.stringify({
    version: 1,
    report: { kind: "canonical" },
    navigation: {},
    reset: {},
    model: {},
    modelBytes: bytes,
    modelWithoutCheckpointBytes: bytes,
    withoutCustomDataBytes: bytes,
  });
  const { bytes: zstd, how } = compressZstd(Buffer.from(original));
  w.prepare("UPDATE transcript_events SET event_json = NULL, event_zstd = ?, event_utf8_bytes = ?, navigation_json = ? WHERE session_id = ? AND seq = ?").run(
    zstd,
    bytes,
    navigation,
    target.session_id,
    target.seq,
  );
  const check = w.prepare("SELECT event_json, length(event_zstd) AS z FROM transcript_events WHERE session_id = ? AND seq = ?").get(target.session_id, target.seq) as Json;
  w.close();
  assert.is(check.event_json, null, "the row really is compressed now");
  assert.is(check.z, zstd.length);

  const db = open(p);
  const r = db.transcriptEvents(target.session_id, target.seq - 1, 1);
  assert.ok(r.ok);
  assert.is(r.warnings.length, 0, `decoded (${how})`);
  const ev = r.value.events[0];
  assert.ok(ev);
  assert.is(ev.pos, target.seq);
  assert.equal(ev.raw, JSON.parse(original));
  assert.is(ev.kind, "assistant");
  db.close();
});

test("bad rows are warnings, skipped, and the cursor still moves past them", () => {
  const p = dbCopy();
  const w = new Database(p);
  const sid = (w.prepare("SELECT session_id FROM transcript_events GROUP BY session_id ORDER BY count(*) DESC, session_id LIMIT 1").get() as Json).session_id as string;
  const seqs = (w.prepare("SELECT seq FROM transcript_events WHERE session_id = ? ORDER BY seq").all(sid) as Json[]).map((r) => r.seq as number);
  const [s0, s1, s2] = seqs;
  assert.ok(s0 !== undefined && s1 !== undefined && s2 !== undefined);
  const nav = JSON.stringify({ version: 1, report: { kind: "canonical" }, navigation: {}, reset: {}, model: {}, modelBytes: 1, modelWithoutCheckpointBytes: 1, withoutCustomDataBytes: 1 });
  w.prepare("UPDATE transcript_events SET event_json = ? WHERE session_id = ? AND seq = ?").run('{"type":"message","id":', sid, s0);
  w.prepare("UPDATE transcript_events SET event_json = NULL, event_zstd = ?, event_utf8_bytes = 10, navigation_json = ? WHERE session_id = ? AND seq = ?").run(
    Buffer.from("not a zstd frame"),
    nav,
    sid,
    s1,
  );
  w.close();
  const db = open(p);
  const r = db.transcriptEvents(sid, -1, 2);
  assert.ok(r.ok);
  assert.is(r.value.events.length, 0);
  assert.is(r.value.lastSeq, s1, "advanced past both bad rows");
  assert.equal(
    r.warnings.map((x) => [x.code, x.where]),
    [
      ["BAD_JSON", `transcript_events:${sid}:${s0}`],
      ["DECODE_FAILED", `transcript_events:${sid}:${s1}`],
    ],
  );
  const rest = db.transcriptEvents(sid, r.value.lastSeq, 1000);
  assert.ok(rest.ok);
  assert.is(rest.value.events.length, seqs.length - 2);
  assert.is(rest.value.events[0]?.pos, s2);
  db.close();
});

test("a malformed entry_json is a warning and the node is still listed from its columns", () => {
  const p = dbCopy();
  const w = new Database(p);
  const key = (w.prepare("SELECT session_key FROM session_nodes ORDER BY session_key LIMIT 1").get() as Json).session_key as string;
  const want = w.prepare("SELECT current_session_id, status, updated_at FROM session_nodes WHERE session_key = ?").get(key) as Json;
  const total = (w.prepare("SELECT count(*) AS n FROM session_nodes").get() as Json).n as number;
  w.prepare("UPDATE session_nodes SET entry_json = '{\"sessionId\": \"trunc' WHERE session_key = ?").run(key);
  w.close();
  const db = open(p);
  const r = db.sessionNodes();
  assert.ok(r.ok);
  assert.is(r.value.length, total);
  const node = r.value.find((n) => n.sessionKey === key);
  assert.ok(node);
  assert.is(node.entry, null);
  assert.is(node.currentSessionId, want.current_session_id);
  assert.is(node.status, want.status);
  assert.is(node.updatedAt, want.updated_at);
  assert.equal(r.warnings.map((x) => [x.code, x.where]), [["BAD_JSON", `session_nodes:${key}`]]);
  db.close();
});

test("incremental: only rows after the cursor come back", () => {
  const p = dbCopy();
  const db = open(p);
  const st = db.transcriptStats();
  assert.ok(st.ok);
  const first = st.value[0];
  assert.ok(first);
  const all = db.transcriptEvents(first.sessionId, -1, 1000);
  assert.ok(all.ok && all.value.done);
  const w = new Database(p);
  const line = JSON.stringify({ type: "message", id: "new-1", timestamp: "2026-11-22T00:00:00.000Z", message: { role: "user", content: "appended" } });
  w.prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)").run(first.sessionId, first.maxSeq + 1, line, Date.UTC(2026, 10, 22));
  w.close();
  const next = db.transcriptEvents(first.sessionId, all.value.lastSeq, 1000);
  assert.ok(next.ok);
  assert.equal(next.value.events.map((e) => [e.pos, e.kind, e.id]), [[first.maxSeq + 1, "user", "new-1"]]);
  const maxSeq = db.maxSeq(first.sessionId);
  assert.ok(maxSeq.ok);
  assert.is(maxSeq.value, first.maxSeq + 1);
  const none = db.maxSeq("no-such-session");
  assert.ok(none.ok);
  assert.is(none.value, -1);
  db.close();
});

test("no read transaction is left open between calls (a writer can checkpoint)", () => {
  const p = dbCopy();
  const w = new Database(p);
  assert.is(w.pragma("journal_mode", { simple: true }), "wal");
  const db = open(p);
  assert.ok(db.sessionNodes().ok);
  assert.ok(db.transcriptStats().ok);
  const st = db.transcriptStats();
  assert.ok(st.ok && st.value[0]);
  assert.ok(db.transcriptEvents(st.value[0].sessionId, -1, 1).ok, "a partial batch too");
  w.prepare("UPDATE schema_meta SET updated_at = updated_at + 1 WHERE meta_key = 'primary'").run();
  const res = w.pragma("wal_checkpoint(TRUNCATE)") as Json[];
  assert.is(res[0]?.busy, 0, "a reader holding a snapshot would make the checkpoint busy");
  w.close();
  db.close();
});

test("a file that is not SQLite is corrupt; a missing file is missing; a foreign DB is unsupported", () => {
  const dir = makeTempDir();
  const notDb = path.join(dir, "openclaw-agent.sqlite");
  fs.writeFileSync(notDb, "this is not an SQLite database, just text long enough to fill a header....".repeat(4));
  const corrupt = AgentDb.open(notDb);
  assert.ok(!corrupt.ok);
  assert.is(corrupt.error.kind, "corrupt");

  const missing = AgentDb.open(path.join(dir, "nope", "openclaw-agent.sqlite"));
  assert.ok(!missing.ok);
  assert.is(missing.error.kind, "missing");

  const foreign = path.join(dir, "other.sqlite");
  const f = new Database(foreign);
  f.exec("CREATE TABLE t (x INTEGER)");
  f.close();
  const unsupported = AgentDb.open(foreign);
  assert.ok(!unsupported.ok);
  assert.is(unsupported.error.kind, "unsupported");

  const meta = readSchemaMeta(notDb);
  assert.ok(!meta.ok);
  assert.is(meta.error.kind, "corrupt");
});

test("calls after close fail cleanly instead of throwing", () => {
  const db = open(dbCopy());
  db.close();
  const r = db.sessionNodes();
  assert.ok(!r.ok);
  db.close(); // idempotent
});

test("session entries are parsed again when their row's updated_at moves, and at the latest every 20th listing otherwise", () => {
  const file = dbCopy();
  const db = open(file);
  const first = db.sessionNodes();
  assert.ok(first.ok);
  const node = first.value[0] as (typeof first.value)[number];
  const writer = new Database(file);
  const row = writer.prepare("SELECT entry_json, updated_at FROM session_nodes WHERE session_key = ?").get(node.sessionKey) as { entry_json: string; updated_at: number };
  const entry = JSON.parse(row.entry_json) as Json;
  // A write that moves updated_at (the gateway's after a turn): seen by the next listing.
  writer.prepare("UPDATE session_nodes SET entry_json = ?, updated_at = ? WHERE session_key = ?").run(JSON.stringify({ ...entry, label: "moved" }), row.updated_at + 1, node.sessionKey);
  const second = db.sessionNodes();
  assert.ok(second.ok);
  assert.is(second.value.find((n) => n.sessionKey === node.sessionKey)?.entry?.label, "moved");
  // One that keeps it: the cache may hold the old entry, but not past the periodic full read.
  writer.prepare("UPDATE session_nodes SET entry_json = ? WHERE session_key = ?").run(JSON.stringify({ ...entry, label: "kept" }), node.sessionKey);
  writer.close();
  const labels: unknown[] = [];
  for (let i = 0; i < 20; i++) {
    const r = db.sessionNodes();
    assert.ok(r.ok);
    labels.push(r.value.find((n) => n.sessionKey === node.sessionKey)?.entry?.label);
  }
  assert.is(labels[labels.length - 1], "kept");
  db.close();
});

test("a read of events stops after 128 KiB of event JSON and the next one goes on from there", () => {
  const p = dbCopy();
  const w = new Database(p);
  const sid = (w.prepare("SELECT current_session_id AS s FROM session_nodes WHERE session_key = 'agent:main:main'").get() as Json).s as string;
  const max = (w.prepare("SELECT max(seq) AS m FROM transcript_events WHERE session_id = ?").get(sid) as Json).m as number;
  const before = (w.prepare("SELECT count(*) AS n FROM transcript_events WHERE session_id = ?").get(sid) as Json).n as number;
  // 40 user messages of ~16 KB each: ~640 KB, well under the 1,000-event limit.
  const insert = w.prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)");
  for (let i = 1; i <= 40; i++) insert.run(sid, max + i, JSON.stringify({ type: "message", id: `big-${i}`, message: { role: "user", content: "x".repeat(16_000) } }), Date.UTC(2026, 10, 22));
  w.close();
  const db = open(p);
  const first = db.transcriptEvents(sid, -1, 1000);
  assert.ok(first.ok);
  assert.is(first.value.done, false, "stopped at its byte budget");
  assert.ok(first.value.events.length < before + 40);
  const all = readAll(db, sid, 1000);
  assert.is(all.events.length, before + 40);
  assert.ok(all.calls >= 3, `${all.calls} calls`);
  assert.equal(all.events.map((e) => e.pos), [...all.events.map((e) => e.pos)].sort((a, b) => a - b));
  assert.equal(new Set(all.events.map((e) => e.pos)).size, before + 40);
  db.close();
});

test.run();
