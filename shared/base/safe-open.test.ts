// Issue 18 items 5 and 6: no provider file may block the daemon. Each reader is pointed at a real
// FIFO (mkfifo) with no writer, where a plain open(2) blocks for good. So that a regression fails
// instead of hanging the suite, a helper process opens each FIFO for writing after RESCUE_MS
// (unblocking a stuck open) and leaves a marker first: a reader that returned before the marker
// exists never waited on the FIFO.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { readCronFromDb, readCronFromFiles } from "../providers/openclaw/gateway/cron.js";
import { readLines } from "../providers/jsonl/line-reader.js";
import { AgentDb } from "../providers/openclaw/agent-db.js";
import { readConfigFile } from "../providers/openclaw/state-dir.js";
import { SourceError } from "../providers/result.js";
import { checkSqliteFiles, copyRegularFile, openRegular, readRegularFile } from "./safe-open.js";
import { CodexLogReader } from "../providers/codex/logs.js";

const RESCUE_MS = 20_000;
const helpers: ChildProcess[] = [];

test.after(() => {
  for (const h of helpers) h.kill("SIGKILL");
  removeTempDirs();
});

/** A FIFO at `p`, and a helper that unblocks a reader stuck on it after RESCUE_MS; returns "was it rescued?". */
function fifo(p: string): () => boolean {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  execFileSync("mkfifo", [p]);
  const marker = `${p}.rescued`;
  const script = `setTimeout(() => { require("fs").writeFileSync(${JSON.stringify(marker)}, ""); require("fs").closeSync(require("fs").openSync(${JSON.stringify(p)}, "w")); }, ${RESCUE_MS});`;
  helpers.push(spawn(process.execPath, ["-e", script], { stdio: "ignore" }));
  return () => fs.existsSync(marker);
}

function refusedAs(fn: () => unknown, file: string, kind: RegExp): void {
  try {
    fn();
  } catch (err) {
    assert.instance(err, SourceError);
    assert.is((err as SourceError).kind, "unsupported");
    assert.ok((err as Error).message.includes(file), `names the path: ${(err as Error).message}`);
    assert.match((err as Error).message, kind);
    return;
  }
  assert.unreachable(`${file} was not refused`);
}

test("openRegular refuses a FIFO, a device and a directory by what the fd is, naming the path; a regular file opens", () => {
  const dir = makeTempDir("gi-safe-open-");
  const p = path.join(dir, "pipe");
  const rescued = fifo(p);
  refusedAs(() => openRegular(p), p, /a FIFO/);
  assert.not.ok(rescued(), "returned without waiting for a writer");
  refusedAs(() => openRegular("/dev/null"), "/dev/null", /a character device/);
  refusedAs(() => openRegular(dir), dir, /a directory/);
  const f = path.join(dir, "file");
  fs.writeFileSync(f, "hello");
  assert.is(readRegularFile(f).toString(), "hello");
  const link = path.join(dir, "link");
  fs.symlinkSync(f, link);
  assert.is(readRegularFile(link).toString(), "hello", "a link to a regular file is read (users link dotfiles)");
  assert.throws(() => openRegular(link, { noFollow: true }), (e: NodeJS.ErrnoException) => e.code === "ELOOP");
  const copy = path.join(dir, "copy");
  copyRegularFile(f, copy);
  assert.is(fs.readFileSync(copy, "utf8"), "hello");
});

test("the JSONL reader (transcripts, rollouts) refuses a FIFO instead of blocking", () => {
  const p = path.join(makeTempDir("gi-safe-open-"), "t.jsonl");
  const rescued = fifo(p);
  const r = readLines(p, null, {}, () => undefined);
  assert.not.ok(rescued(), "returned without waiting for a writer");
  assert.not.ok(r.ok);
  if (!r.ok) assert.ok(r.error.message.includes(p) && /FIFO/.test(r.error.message), r.error.message);
});

test("OpenClaw's config, cron files and agent database: a FIFO at any of their names (the db's -wal too) is refused", () => {
  const dir = makeTempDir("gi-safe-open-");
  const config = path.join(dir, "openclaw.json");
  const rescued = [fifo(config)];
  const c = readConfigFile(config);
  assert.not.ok(c.ok);

  const cronDir = path.join(dir, "cron");
  rescued.push(fifo(path.join(cronDir, "jobs.json")));
  const jobs = readCronFromFiles(cronDir, { nowMs: 0 });
  assert.not.ok(jobs.ok);

  const db = path.join(dir, "agent.sqlite");
  new Database(db).exec("CREATE TABLE t (x)");
  rescued.push(fifo(`${db}-wal`));
  refusedAs(() => checkSqliteFiles(db), `${db}-wal`, /a FIFO/);
  const opened = AgentDb.open(db);
  assert.not.ok(opened.ok);
  if (!opened.ok) assert.ok(opened.error.message.includes(`${db}-wal`), opened.error.message);
  const cron = readCronFromDb(db, { nowMs: 0 });
  assert.not.ok(cron.ok);
  assert.equal(rescued.map((r) => r()), [false, false, false], "nothing waited for a writer");
});

test("Codex's logs database: a FIFO at logs_2.sqlite-wal is refused, not copied with a blocking open", () => {
  const codexDir = makeTempDir("gi-safe-open-");
  const db = path.join(codexDir, "logs_2.sqlite");
  new Database(db).exec("CREATE TABLE logs (id INTEGER PRIMARY KEY, ts INTEGER, level TEXT)");
  const rescued = fifo(`${db}-wal`);
  const reader = new CodexLogReader(codexDir, { tmpRoot: makeTempDir("gi-safe-open-tmp-") });
  const r = reader.read(null, 10);
  reader.close();
  assert.not.ok(rescued(), "returned without waiting for a writer");
  assert.not.ok(r.ok);
  if (!r.ok) assert.ok(r.error.message.includes(`${db}-wal`), r.error.message);
});

test.run();
