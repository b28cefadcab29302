import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { LOGS_DB, entryOf, levelOf, openCodexLogs } from "./logs.js";
import type { CodexLogEntry, CodexLogReader } from "./logs.js";
import { copyCodexHome, makeTempDir, removeTempDirs } from "../../../test/helpers/codex-fixture.js";

const children: ChildProcess[] = [];
const readers: CodexLogReader[] = [];
test.after(() => {
  for (const c of children) c.kill("SIGKILL");
  for (const r of readers) r.close();
  removeTempDirs();
});

function reader(dir: string): CodexLogReader {
  const r = openCodexLogs(dir, { tmpRoot: makeTempDir() });
  readers.push(r);
  return r;
}

interface Row {
  id: number;
  ts: number;
  ts_nanos: number;
  level: string;
  target: string;
  feedback_log_body: string | null;
  thread_id: string | null;
}

/** The rows as the test reads them itself, from its own copy (never the reader's). */
function expectedRows(dbFile: string): Row[] {
  const copy = path.join(makeTempDir(), "expected.sqlite");
  fs.copyFileSync(dbFile, copy);
  if (fs.existsSync(`${dbFile}-wal`)) fs.copyFileSync(`${dbFile}-wal`, `${copy}-wal`);
  const db = new Database(copy);
  try {
    return db.prepare("SELECT id, ts, ts_nanos, level, target, feedback_log_body, thread_id FROM logs ORDER BY id").all() as Row[];
  } finally {
    db.close();
  }
}

/** The documented clip: at most 4000 characters, an ellipsis marking a cut (the fixture's messages are ASCII). */
const clipped = (s: string): string => (s.length > 4000 ? `${s.slice(0, 3999)}…` : s);

function asEntry(r: Row): Omit<CodexLogEntry, "message"> & { message: string } {
  const ts = r.ts * 1000 + Math.floor(r.ts_nanos / 1e6);
  return { id: r.id, ts, time: new Date(ts).toISOString(), level: r.level as CodexLogEntry["level"], module: r.target, message: clipped(r.feedback_log_body ?? ""), sessionKey: r.thread_id };
}

function readAll(r: CodexLogReader, limit: number, cursor: unknown = null) {
  const entries: CodexLogEntry[] = [];
  let calls = 0;
  let restarted = false;
  for (;;) {
    const b = r.read(cursor, limit);
    if (!b.ok) throw b.error;
    assert.equal(b.warnings, []);
    calls++;
    assert.ok(calls < 1000);
    entries.push(...b.value.entries);
    restarted ||= b.value.restarted;
    cursor = JSON.parse(JSON.stringify(b.value.cursor)) as unknown;
    if (b.value.done) return { entries, cursor, calls, restarted };
  }
}

/** Every file of a dir with its size and content hash. */
function dirState(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((n) => fs.statSync(path.join(dir, n)).isFile())
    .map((n) => `${n}:${createHash("sha256").update(fs.readFileSync(path.join(dir, n))).digest("hex")}`)
    .sort();
}

test("the fixture's rows, in pages, as the test reads them itself; nothing written beside the database", () => {
  const { codexDir } = copyCodexHome();
  const before = dirState(codexDir);
  const expected = expectedRows(path.join(codexDir, LOGS_DB));
  assert.ok(expected.length > 100, "the fixture has log rows");
  const r = reader(codexDir);
  const got = readAll(r, 100);
  assert.ok(got.calls >= Math.ceil(expected.length / 100));
  assert.equal(got.entries, expected.map(asEntry));
  assert.equal(new Set(got.entries.map((e) => e.level)), new Set(expected.map((e) => e.level)));
  assert.ok(got.entries.some((e) => e.sessionKey !== null), "some rows name their thread");
  r.close();
  assert.equal(dirState(codexDir), before);
});

test("a stored cursor resumes in a new reader; nothing new is an empty, done batch", () => {
  const { codexDir } = copyCodexHome();
  const expected = expectedRows(path.join(codexDir, LOGS_DB));
  const first = reader(codexDir).read(null, 50);
  assert.ok(first.ok && !first.value.done);
  if (!first.ok) return;
  const rest = readAll(reader(codexDir), 500, JSON.parse(JSON.stringify(first.value.cursor)));
  assert.not.ok(rest.restarted);
  assert.equal([...first.value.entries, ...rest.entries].map((e) => e.id), expected.map((e) => e.id));
  const again = reader(codexDir).read(rest.cursor, 10);
  assert.ok(again.ok && again.value.entries.length === 0 && again.value.done);
});

test("no logs database (an exec-only install) is an empty batch", () => {
  const b = reader(makeTempDir()).read(null, 10);
  assert.ok(b.ok && b.value.entries.length === 0 && b.value.done);
});

test("a database made again (ids start over, another inode) restarts; a foreign cursor restarts", () => {
  const { codexDir } = copyCodexHome();
  const r = reader(codexDir);
  const all = readAll(r, 1000);
  const dbFile = path.join(codexDir, LOGS_DB);
  const fresh = path.join(makeTempDir(), "fresh.sqlite");
  fs.copyFileSync(dbFile, fresh);
  const db = new Database(fresh);
  db.exec("DELETE FROM logs; DELETE FROM sqlite_sequence; PRAGMA journal_mode=DELETE;");
  db.prepare("INSERT INTO logs (ts, ts_nanos, level, target, feedback_log_body) VALUES (?, ?, ?, ?, ?)").run(1795470000, 5_000_000, "INFO", "codex_core", "again");
  db.close();
  fs.rmSync(dbFile);
  fs.copyFileSync(fresh, dbFile);
  const after = r.read(all.cursor, 100);
  assert.ok(after.ok);
  if (!after.ok) return;
  assert.ok(after.value.restarted);
  assert.equal(after.value.entries.map((e) => [e.id, e.message, e.ts]), [[1, "again", 1795470000005]]);
  const foreign = r.read({ afterId: "x" }, 100);
  assert.ok(foreign.ok && foreign.value.restarted && foreign.value.entries.length === 1);
});

test("unreadable rows are skipped with BAD_ROW and the cursor moves past them", () => {
  const { codexDir } = copyCodexHome();
  const dbFile = path.join(codexDir, LOGS_DB);
  const db = new Database(dbFile);
  const insert = db.prepare("INSERT INTO logs (ts, ts_nanos, level, target, feedback_log_body, thread_id) VALUES (?, ?, ?, ?, ?, ?)");
  insert.run(1795470000, 0, "LOUD", "x", "bad level", null);
  insert.run(-5, 0, "INFO", "x", "bad time", null);
  insert.run(1795470001, 999_999_999, "warning", "codex_core::x", "y".repeat(10_000), "01a20a4f-fdf8-7f63-ac60-18abdb48f090");
  db.close();
  const r = reader(codexDir);
  const expectedCount = expectedRows(dbFile).length;
  const b = r.read(null, 5000);
  assert.ok(b.ok);
  if (!b.ok) return;
  assert.equal(b.warnings.map((w) => w.code), ["BAD_ROW", "BAD_ROW"]);
  assert.is(b.value.entries.length, expectedCount - 2);
  const last = b.value.entries[b.value.entries.length - 1] as CodexLogEntry;
  assert.equal([last.level, last.ts, last.module, last.message.length, last.sessionKey], ["WARN", 1795470001999, "codex_core::x", 4000, "01a20a4f-fdf8-7f63-ac60-18abdb48f090"]);
  assert.is(b.value.cursor.afterId, expectedCount);
});

test("levels and rows", () => {
  assert.equal(["TRACE", "debug", "Info", "WARN", "WARNING", "ERROR", "LOUD", 3, null].map(levelOf), ["TRACE", "DEBUG", "INFO", "WARN", "WARN", "ERROR", null, null, null]);
  const row = { id: 7, ts: 1795469343, ts_nanos: 456730608, level: "ERROR", target: "codex_app_server", module_path: null, body: "m", thread_id: null };
  assert.equal(entryOf(row, 10), { id: 7, ts: 1795469343456, time: "2026-11-23T21:29:03.456Z", level: "ERROR", module: "codex_app_server", message: "m", sessionKey: null });
  assert.type(entryOf({ ...row, id: "7" }, 10), "string");
  assert.type(entryOf({ ...row, ts: 1.5 }, 10), "string");
  const noTarget = entryOf({ ...row, target: null, module_path: "codex_core" }, 10);
  assert.is(typeof noTarget === "object" ? noTarget.module : null, "codex_core");
});

/**
 * A live writer in another process: keeps the database open in WAL mode with autocheckpoint off,
 * inserts `n` rows and writes `ready`; on `go` it inserts `m` more, checkpoints (the main file
 * changes and the WAL restarts on the next write) and inserts `k` more, then writes `ready2`.
 */
const WRITER = `
const [lib, file, dir, n, m, k] = process.argv.slice(1);
const fs = require("fs"), path = require("path");
const Database = require(lib);
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("wal_autocheckpoint = 0");
const ins = db.prepare("INSERT INTO logs (ts, ts_nanos, level, target, feedback_log_body, thread_id, estimated_bytes) VALUES (?, 0, 'INFO', 'writer', ?, NULL, 1)");
const add = (count, tag) => { for (let i = 0; i < count; i++) ins.run(1795470000 + i, tag + " " + i); };
add(Number(n), "wal");
fs.writeFileSync(path.join(dir, "ready"), "");
const timer = setInterval(() => {
  if (!fs.existsSync(path.join(dir, "go"))) return;
  clearInterval(timer);
  add(Number(m), "before-checkpoint");
  db.pragma("wal_checkpoint(TRUNCATE)");
  add(Number(k), "after-checkpoint");
  fs.writeFileSync(path.join(dir, "ready2"), "");
  setTimeout(() => {}, 600000);
}, 20);
`;

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test("a live WAL writer: rows still in the WAL are read, rows after a checkpoint too, and Codex's files are not touched", async () => {
  const { codexDir } = copyCodexHome();
  const dbFile = path.join(codexDir, LOGS_DB);
  const base = expectedRows(dbFile).length;
  const signals = makeTempDir();
  const lib = createRequire(import.meta.url).resolve("better-sqlite3");
  const child = spawn(process.execPath, ["-e", WRITER, lib, dbFile, signals, "30", "20", "10"], { stdio: ["ignore", "ignore", "inherit"] });
  children.push(child);
  await until("the writer", () => fs.existsSync(path.join(signals, "ready")));
  assert.ok(fs.statSync(`${dbFile}-wal`).size > 0, "the new rows are in the WAL");
  const before = dirState(codexDir);
  const r = reader(codexDir);
  const first = readAll(r, 1000);
  assert.is(first.entries.length, base + 30);
  assert.equal(first.entries.slice(base).map((e) => e.message), Array.from({ length: 30 }, (_, i) => `wal ${i}`));
  assert.equal(dirState(codexDir), before, "no file beside the database was made or changed by the reader");
  fs.writeFileSync(path.join(signals, "go"), "");
  await until("the checkpoint", () => fs.existsSync(path.join(signals, "ready2")));
  const second = readAll(r, 7, first.cursor);
  assert.not.ok(second.restarted);
  assert.equal(second.entries.map((e) => e.message), [...Array.from({ length: 20 }, (_, i) => `before-checkpoint ${i}`), ...Array.from({ length: 10 }, (_, i) => `after-checkpoint ${i}`)]);
  assert.equal(second.entries.map((e) => e.id), Array.from({ length: 30 }, (_, i) => base + 31 + i));
  child.kill("SIGKILL");
});

test.run();
