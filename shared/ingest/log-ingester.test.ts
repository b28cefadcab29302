import { appendFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { LogHub } from "../base/log/logger.js";
import { FIXTURES_DIR, makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { Store } from "../store/store.js";
import { logPathResolver } from "../providers/openclaw/gateway/log-files.js";
import { openclawLogFormat } from "../providers/openclaw/gateway-side.js";
import { LogIngester, type IngestedEntry } from "./log-ingester.js";

test.after(removeTempDirs);
const logger = new LogHub({ console: "off" }).logger;

/** Counts straight from the fixture lines: levels and gateway starts ("http server listening"). */
function expectedCounts(text: string): { lines: number; stored: number; error: number; warning: number; restart: number } {
  const out = { lines: 0, stored: 0, error: 0, warning: 0, restart: 0 };
  for (const line of text.split("\n").filter(Boolean)) {
    const o = JSON.parse(line) as { _meta: { logLevelName: string }; message?: string; "0"?: string };
    out.lines++;
    const level = o._meta.logLevelName;
    if (level === "ERROR" || level === "FATAL") out.error++;
    if (level === "WARN") out.warning++;
    if (o["0"] === '{"subsystem":"gateway"}' && String(o.message).startsWith("http server listening")) out.restart++;
    if (["INFO", "WARN", "ERROR", "FATAL"].includes(level)) out.stored++;
  }
  return out;
}

function setup(): { dir: string; active: string; store: Store; make: (onEntry?: (e: IngestedEntry) => void) => LogIngester; dbPath: string } {
  const dir = makeTempDir();
  const active = join(dir, "gateway.log");
  const dbPath = join(dir, "insights.db");
  const store = Store.open(dbPath, { clock: manualClock() });
  const make = (onEntry?: (e: IngestedEntry) => void): LogIngester =>
    new LogIngester({ store, clock: manualClock(), logger, format: openclawLogFormat, resolveActivePath: () => active, maxBytes: 16 * 1024, maxBatches: 1000, ...(onEntry ? { onEntry } : {}) });
  return { dir, active, store, make, dbPath };
}

const counts = (store: Store): Record<string, number> =>
  store.db.prepare("SELECT count(*) AS stored, sum(type = 'error') AS error, sum(type = 'warning') AS warning, sum(type = 'restart') AS restart FROM log_events").get() as Record<string, number>;

for (const version of ["openclaw-2026.9.6", "openclaw-2026.7.1"]) {
  test(`${version}: the real log gives its own counts of errors, warnings and restarts`, async () => {
    const { active, store, make } = setup();
    const text = readFileSync(join(FIXTURES_DIR, version, "logs", "openclaw-2026-11-21.log"), "utf8");
    writeFileSync(active, text);
    const exp = expectedCounts(text);
    assert.is(exp.restart, 1, "the fixture holds one gateway start");
    const seen: IngestedEntry[] = [];
    const r = await make((e) => seen.push(e)).ingest();
    assert.is(r.caughtUp, true);
    assert.is(r.lines, exp.lines);
    assert.is(seen.length, exp.lines, "every line reaches the live stream, any level");
    const c = counts(store);
    assert.is(c.stored, exp.stored + 0);
    assert.is(c.error ?? 0, exp.error);
    assert.is(c.warning ?? 0, exp.warning);
    assert.is(c.restart, exp.restart);
  });
}

test("appended lines are counted once; a new ingester resumes from the stored cursor", async () => {
  const { active, store, make } = setup();
  const text = readFileSync(join(FIXTURES_DIR, "openclaw-2026.9.6", "logs", "openclaw-2026-11-21.log"), "utf8");
  writeFileSync(active, text);
  await make().ingest();
  const before = counts(store);
  const warnLine = JSON.stringify({ "0": '{"subsystem":"diagnostic"}', "1": "disk almost full", _meta: { logLevelName: "WARN", date: "2026-11-21T23:59:00.000Z" }, time: "2026-11-21T23:59:00.000+00:00", message: "disk almost full" });
  appendFileSync(active, warnLine + "\nnot json at all\n");
  const r = await make().ingest();
  assert.is(r.lines, 2);
  assert.is(r.warnings, 1, "the non-JSON line is a counted warning");
  const after = counts(store);
  assert.is(after.warning, (before.warning ?? 0) + 1);
  assert.is(after.stored, (before.stored ?? 0) + 1);
  assert.is((await make().ingest()).lines, 0, "nothing twice");
});

test("a rotation between reads loses no line", async () => {
  const { active, store, make } = setup();
  const line = (i: number): string => JSON.stringify({ "0": '{"subsystem":"gateway/ws"}', _meta: { logLevelName: "INFO" }, time: `2026-11-21T10:00:${String(i % 60).padStart(2, "0")}.000+00:00`, message: `line ${i}` }) + "\n";
  writeFileSync(active, line(1) + line(2));
  await make().ingest();
  appendFileSync(active, line(3));
  renameSync(active, join(active, "..", "gateway.1.log"));
  writeFileSync(active, line(4) + line(5));
  await make().ingest();
  const messages = (store.db.prepare("SELECT message FROM log_events ORDER BY rowid").all() as Array<{ message: string }>).map((r) => r.message);
  assert.equal(messages, ["line 1", "line 2", "line 3", "line 4", "line 5"]);
});

test("first start at 00:30: yesterday's file and its archive are backfilled once, oldest first; a restart mid-way counts nothing twice", async () => {
  const dir = makeTempDir();
  const dbPath = join(dir, "insights.db");
  const clock = manualClock(Date.UTC(2026, 10, 22, 0, 30));
  const resolveActivePath = logPathResolver({ configuredFile: join(dir, "openclaw-2026-01-01.log"), timeZone: "UTC" });
  const text = readFileSync(join(FIXTURES_DIR, "openclaw-2026.9.6", "logs", "openclaw-2026-11-21.log"), "utf8");
  const all = text.split("\n").filter(Boolean);
  // The gateway's own layout: yesterday rotated once (older lines in .1), today's file just begun.
  const cut1 = Math.floor(all.length / 3);
  const cut2 = all.length - 5;
  writeFileSync(join(dir, "openclaw-2026-11-21.1.log"), all.slice(0, cut1).join("\n") + "\n");
  writeFileSync(join(dir, "openclaw-2026-11-21.log"), all.slice(cut1, cut2).join("\n") + "\n");
  writeFileSync(join(dir, "openclaw-2026-11-22.log"), all.slice(cut2).join("\n") + "\n");
  const exp = expectedCounts(text);
  let store = Store.open(dbPath, { clock });
  const make = (s: Store, maxBatches: number): LogIngester => new LogIngester({ store: s, clock, logger, format: openclawLogFormat, resolveActivePath, maxBytes: 8 * 1024, maxBatches });
  // Stopped part-way (a restart in the middle of the backfill)...
  const partial = await make(store, 3).ingest();
  assert.is(partial.caughtUp, false);
  assert.ok(partial.lines > 0 && partial.lines < exp.lines);
  store.close();
  // ...and resumed by the next daemon from the stored cursor.
  store = Store.open(dbPath, { clock });
  const rest = await make(store, 1000).ingest();
  assert.is(rest.caughtUp, true);
  assert.is(partial.lines + rest.lines, exp.lines, "every line of every file, once");
  const c = counts(store);
  assert.is(c.stored, exp.stored);
  assert.is(c.error ?? 0, exp.error);
  assert.is(c.warning ?? 0, exp.warning);
  assert.is(c.restart, exp.restart);
  const totals = Object.fromEntries((store.db.prepare("SELECT type, count FROM event_totals").all() as Array<{ type: string; count: number }>).map((r) => [r.type, r.count]));
  assert.equal(totals, Object.fromEntries(Object.entries({ error: exp.error, warning: exp.warning, restart: exp.restart }).filter(([, n]) => n > 0)));
  const times = (store.db.prepare("SELECT ts FROM log_events ORDER BY rowid").all() as Array<{ ts: number }>).map((r) => r.ts);
  assert.equal(times, [...times].sort((a, b) => a - b), "oldest first");
  assert.is((await make(store, 1000).ingest()).lines, 0, "nothing twice");
  store.close();
});

test("a gateway start split across two reads counts once", async () => {
  const { active, store, make } = setup();
  const gw = (msg: string): string => JSON.stringify({ "0": '{"subsystem":"gateway"}', _meta: { logLevelName: "INFO" }, time: "2026-11-21T10:00:00.000+00:00", message: msg }) + "\n";
  writeFileSync(active, gw("http server listening (14 plugins; 5.2s)"));
  await make().ingest();
  appendFileSync(active, gw("gateway ready"));
  await make().ingest();
  assert.is(counts(store).restart, 1);
});

test.run();
