import { join } from "node:path";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "../../../test/helpers/openclaw-fixtures.js";
import { rawZstdFrame, shiftZstdBlob } from "../openclaw/demo/state-shift.js";
import { decodeZstd } from "../openclaw/zstd.js";
import { recordingShift, shiftSqliteFile, shiftText, type TimeShift } from "./time-shift.js";

test.after(removeTempDirs);

const FROM = Date.parse("2026-11-21T22:47:20.045Z");
const UNTIL = Date.parse("2026-11-21T23:16:54.991Z");
const HOUR = 3_600_000;

test("moves epoch ms and ISO times inside the window, keeps their length, leaves the rest alone", () => {
  const s: TimeShift = recordingShift(FROM, UNTIL, UNTIL + 2 * 24 * HOUR + 1);
  const text = JSON.stringify({
    ts: 1795301706290,
    iso: "2026-11-21T22:55:06.290Z",
    local: "2026-11-21T22:55:06.290+00:00",
    plus2: "2026-11-22T00:55:06+02:00",
    build: "2026-09-23T16:33:12.144Z",
    anchorMs: 288244,
    id: "manual:9dfb4fae:1795302081474:1",
    hex: "a1795301706290b",
    cost: 0.0011639999999999999,
  });
  const out = JSON.parse(shiftText(text, s)) as Record<string, unknown>;
  const d = 2 * 24 * HOUR + 1;
  assert.is(out.ts, 1795301706290 + d);
  assert.is(out.iso, new Date(Date.parse("2026-11-21T22:55:06.290Z") + d).toISOString());
  assert.is(out.local, new Date(Date.parse("2026-11-21T22:55:06.290Z") + d).toISOString().replace("Z", "+00:00"));
  assert.is(out.plus2, "2026-11-24T00:55:06+02:00", "zone and precision kept (the 1 ms is below the written precision)");
  assert.is(out.build, "2026-09-23T16:33:12.144Z", "a build date long before the recording stays");
  assert.is(out.anchorMs, 288244);
  assert.is(out.id, `manual:9dfb4fae:${1795302081474 + d}:1`);
  assert.is(out.hex, "a1795301706290b", "digits glued to other characters are not a timestamp");
  assert.is(out.cost, 0.0011639999999999999);
  assert.is(shiftText(text, s).length, text.length, "same length: stored byte counts stay true");
});

test("an SQLite file: INTEGER, REAL and JSON TEXT columns, an FTS table and a zstd row all move", () => {
  const file = join(makeTempDir(), "t.sqlite");
  const db = new Database(file);
  const at = 1795301706290;
  db.exec(`CREATE TABLE events (id INTEGER PRIMARY KEY, created_at INTEGER NOT NULL, score REAL, body TEXT, zrow BLOB) STRICT;
    CREATE VIRTUAL TABLE fts USING fts5(text, timestamp UNINDEXED);`);
  const json = JSON.stringify({ timestamp: new Date(at).toISOString(), message: { timestamp: at } });
  db.prepare("INSERT INTO events VALUES (1, ?, ?, ?, ?)").run(at, at + 0.5, json, rawZstdFrame(Buffer.from(json)));
  db.prepare("INSERT INTO events VALUES (2, 42, 1.5, 'no time here', x'00')").run();
  db.prepare("INSERT INTO fts (rowid, text, timestamp) VALUES (1, 'hello', ?)").run(at + 0.0);
  db.close();
  const offset = 123_456_789;
  shiftSqliteFile(file, { fromMs: at - HOUR, untilMs: at + HOUR, offsetMs: offset }, { blob: shiftZstdBlob });
  const check = new Database(file, { readonly: true });
  try {
    const r = check.prepare("SELECT created_at, typeof(created_at) AS t, score, body, zrow FROM events WHERE id = 1").get() as { created_at: number; t: string; score: number; body: string; zrow: Buffer };
    assert.is(r.created_at, at + offset);
    assert.is(r.t, "integer", "an INTEGER stays an INTEGER");
    assert.is(r.score, at + 0.5 + offset);
    const moved = JSON.stringify({ timestamp: new Date(at + offset).toISOString(), message: { timestamp: at + offset } });
    assert.is(r.body, moved);
    assert.is(decodeZstd(r.zrow).toString("utf8"), moved, "the compressed row is moved and still decodes");
    assert.equal(check.prepare("SELECT created_at, score, body FROM events WHERE id = 2").get(), { created_at: 42, score: 1.5, body: "no time here" });
    assert.is((check.prepare("SELECT timestamp FROM fts WHERE fts MATCH 'hello'").get() as { timestamp: number }).timestamp, at + offset, "the search index still finds the row");
  } finally {
    check.close();
  }
});

test.run();
