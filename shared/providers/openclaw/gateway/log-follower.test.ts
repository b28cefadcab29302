import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../../../base/clock.js";
import { readLogLines } from "./log-follower.js";
import type { FollowOptions, FollowResult, LogCursor } from "./log-follower.js";
import { logPathResolver, rotatedLogPath } from "./log-files.js";
import { FIXTURES_DIR } from "../../../../test/helpers/openclaw-fixtures.js";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));

function read(cursor: LogCursor | null, opts: FollowOptions): FollowResult {
  const r = readLogLines(cursor, opts);
  if (!r.ok) throw r.error;
  return r.value;
}

/** Reads until caught up, persisting the cursor as JSON between calls like the daemon's store would. */
function drain(cursor: LogCursor | null, opts: FollowOptions): { texts: string[]; cursor: LogCursor | null; calls: number; warnings: string[] } {
  const texts: string[] = [];
  const warnings: string[] = [];
  let cur = cursor;
  for (let calls = 1; calls < 10_000; calls++) {
    const r = readLogLines(cur, opts);
    if (!r.ok) throw r.error;
    warnings.push(...r.warnings.map((w) => w.code));
    texts.push(...r.value.lines.map((l) => l.text));
    cur = r.value.cursor ? (JSON.parse(JSON.stringify(r.value.cursor)) as LogCursor) : null;
    if (r.value.caughtUp) return { texts, cursor: cur, calls, warnings };
  }
  throw new Error("never caught up");
}

const fixed = (file: string, extra: Partial<FollowOptions> = {}): FollowOptions => ({ resolveActivePath: () => file, ...extra });
const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

test("no file yet: null cursor, caught up; then reads complete lines only", () => {
  const dir = tmp();
  const file = path.join(dir, "gw.log");
  const r0 = read(null, fixed(file));
  assert.is(r0.cursor, null);
  assert.is(r0.caughtUp, true);

  fs.writeFileSync(file, "a\nb\nc");
  const r1 = read(null, fixed(file));
  assert.equal(r1.lines.map((l) => l.text), ["a", "b"]);
  assert.is(r1.cursor!.offset, 4);
  assert.equal(r1.lines.map((l) => l.offset), [0, 2]);
  assert.is(r1.caughtUp, true);

  fs.appendFileSync(file, "c-continued\nd\n");
  const r2 = read(r1.cursor, fixed(file));
  assert.equal(r2.lines.map((l) => l.text), ["cc-continued", "d"]);
  const r3 = read(r2.cursor, fixed(file));
  assert.equal(r3.lines, []);
  assert.is(r3.cursor!.offset, fs.statSync(file).size);
});

test("start: end skips existing content", () => {
  const file = path.join(tmp(), "gw.log");
  fs.writeFileSync(file, "old1\nold2\n");
  const r = read(null, fixed(file, { start: "end" }));
  assert.equal(r.lines, []);
  fs.appendFileSync(file, "new\n");
  assert.equal(read(r.cursor, fixed(file)).lines.map((l) => l.text), ["new"]);
});

test("bounded bytes per call: many calls, same lines in order, not caught up until the end", () => {
  const file = path.join(tmp(), "gw.log");
  const all = lines("line-", 200);
  fs.writeFileSync(file, all.join("\n") + "\n");
  const first = read(null, fixed(file, { maxBytes: 100 }));
  assert.is(first.caughtUp, false);
  assert.ok(first.lines.length > 0 && first.lines.length < 20);
  const rest = drain(first.cursor, fixed(file, { maxBytes: 100 }));
  assert.equal([...first.lines.map((l) => l.text), ...rest.texts], all);
  assert.ok(rest.calls > 10);
});

test("the fixture log through a small budget equals a plain split of the file", () => {
  const fixture = path.join(FIXTURES_DIR, "openclaw-2026.9.6", "logs", "openclaw-2026-11-21.log");
  const file = path.join(tmp(), "openclaw-2026-11-21.log");
  fs.copyFileSync(fixture, file);
  const expected = fs.readFileSync(fixture, "utf8").split("\n").filter((l) => l !== "");
  const got = drain(null, fixed(file, { maxBytes: 4096 }));
  assert.is(got.texts.length, expected.length);
  assert.equal(got.texts, expected);
  assert.equal(got.warnings, []);
});

test("size rotation: finish the rotated .1 file, then the new active file from 0", () => {
  const file = path.join(tmp(), "gw.log");
  fs.writeFileSync(file, lines("a", 3).join("\n") + "\n");
  const r1 = read(null, fixed(file));
  assert.is(r1.lines.length, 3);
  fs.appendFileSync(file, lines("b", 3).join("\n") + "\n" + "b-tail-no-newline");
  fs.renameSync(file, rotatedLogPath(file, 1));
  fs.writeFileSync(file, lines("c", 2).join("\n") + "\n");
  const r2 = drain(r1.cursor, fixed(file));
  assert.equal(r2.texts, [...lines("b", 3), "b-tail-no-newline", ...lines("c", 2)]);
  assert.is(r2.cursor!.inode, fs.statSync(file).ino);
  assert.is(r2.cursor!.path, file);
});

test("two rotations between reads: old inode at .2, then .1, then active", () => {
  const file = path.join(tmp(), "gw.log");
  fs.writeFileSync(file, "a0\n");
  const r1 = read(null, fixed(file));
  fs.appendFileSync(file, "a1\n");
  fs.renameSync(file, rotatedLogPath(file, 1));
  fs.writeFileSync(file, "b0\n");
  fs.renameSync(rotatedLogPath(file, 1), rotatedLogPath(file, 2));
  fs.renameSync(file, rotatedLogPath(file, 1));
  fs.writeFileSync(file, "c0\n");
  assert.equal(drain(r1.cursor, fixed(file)).texts, ["a1", "b0", "c0"]);
});

test("rotation where the new active file is not created yet: wait on the archive, nothing repeated", () => {
  const file = path.join(tmp(), "gw.log");
  fs.writeFileSync(file, "a0\n");
  const r1 = read(null, fixed(file));
  fs.appendFileSync(file, "a1\n");
  fs.renameSync(file, rotatedLogPath(file, 1));
  const r2 = read(r1.cursor, fixed(file));
  assert.equal(r2.lines.map((l) => l.text), ["a1"]);
  assert.is(r2.caughtUp, true);
  const r3 = read(r2.cursor, fixed(file));
  assert.equal(r3.lines, []);
  fs.writeFileSync(file, "b0\n");
  assert.equal(read(r3.cursor, fixed(file)).lines.map((l) => l.text), ["b0"]);
});

test("truncation in place (same inode, smaller size) restarts at 0 with a warning", () => {
  const file = path.join(tmp(), "gw.log");
  fs.writeFileSync(file, lines("x", 5).join("\n") + "\n");
  const r1 = read(null, fixed(file));
  fs.truncateSync(file, 0);
  fs.appendFileSync(file, "y0\n");
  const r = readLogLines(r1.cursor, fixed(file));
  assert.ok(r.ok);
  if (r.ok) {
    assert.equal(r.value.lines.map((l) => l.text), ["y0"]);
    assert.equal(r.warnings.map((w) => w.code), ["TRUNCATED"]);
  }
});

test("file replaced and the old inode gone: a ROTATED warning, the new file from 0", () => {
  const file = path.join(tmp(), "gw.log");
  fs.writeFileSync(file, "a\n");
  const r1 = read(null, fixed(file));
  fs.unlinkSync(file);
  fs.writeFileSync(file + ".tmp", "b\n");
  fs.renameSync(file + ".tmp", file);
  const r = readLogLines(r1.cursor, fixed(file));
  assert.ok(r.ok);
  if (r.ok) {
    assert.equal(r.value.lines.map((l) => l.text), ["b"]);
    assert.equal(r.warnings.map((w) => w.code), ["ROTATED"]);
  }
});

test("midnight: finish yesterday's file (incl. a last line without newline) before today's", () => {
  const dir = tmp();
  const clock = manualClock(Date.UTC(2026, 10, 21, 23, 59, 0));
  const opts: FollowOptions = { resolveActivePath: logPathResolver({ configuredFile: path.join(dir, "openclaw-2026-01-01.log"), timeZone: "UTC" }), clock };
  const y = path.join(dir, "openclaw-2026-11-21.log");
  const t = path.join(dir, "openclaw-2026-11-22.log");
  fs.writeFileSync(y, "y0\n");
  const r1 = read(null, opts);
  assert.equal(r1.lines.map((l) => l.text), ["y0"]);

  fs.appendFileSync(y, "y1\ny2-last");
  clock.set(Date.UTC(2026, 10, 22, 0, 0, 5));
  // Today's file does not exist yet: keep reading yesterday's, complete lines only.
  const r2 = read(r1.cursor, opts);
  assert.equal(r2.lines.map((l) => l.text), ["y1"]);
  assert.is(r2.cursor!.path, y);

  fs.writeFileSync(t, "t0\nt1\n");
  const r3 = drain(r2.cursor, opts);
  assert.equal(r3.texts, ["y2-last", "t0", "t1"]);
  assert.is(r3.cursor!.path, t);
  assert.is(r3.cursor!.offset, fs.statSync(t).size);
});

test("midnight with yesterday's file rotated and then pruned", () => {
  const dir = tmp();
  const clock = manualClock(Date.UTC(2026, 10, 21, 22, 0));
  const opts: FollowOptions = { resolveActivePath: logPathResolver({ configuredFile: path.join(dir, "openclaw-2026-01-01.log"), timeZone: "UTC" }), clock };
  const y = path.join(dir, "openclaw-2026-11-21.log");
  const t = path.join(dir, "openclaw-2026-11-22.log");
  fs.writeFileSync(y, "y0\n");
  const r1 = read(null, opts);
  fs.appendFileSync(y, "y1\n");
  fs.renameSync(y, rotatedLogPath(y, 1));
  fs.writeFileSync(y, "y2\n");
  clock.set(Date.UTC(2026, 10, 22, 1, 0));
  fs.writeFileSync(t, "t0\n");
  const r2 = drain(r1.cursor, opts);
  assert.equal(r2.texts, ["y1", "y2", "t0"]);
  assert.equal(r2.warnings, []);

  // A cursor left on a fully read file of an earlier day that was pruned moves on quietly.
  const stale: LogCursor = { path: y, inode: fs.statSync(y).ino, offset: 3, size: 3 };
  fs.unlinkSync(y);
  fs.unlinkSync(rotatedLogPath(y, 1));
  const r3 = drain(stale, opts);
  assert.equal(r3.texts, ["t0"]);
  assert.equal(r3.warnings, []);
});

test("first read: every day and archive still kept, oldest first, then today's file; later reads only what is new", () => {
  const dir = tmp();
  const clock = manualClock(Date.UTC(2026, 10, 22, 0, 30));
  const opts: FollowOptions = { resolveActivePath: logPathResolver({ configuredFile: path.join(dir, "openclaw-2026-01-01.log"), timeZone: "UTC" }), clock, maxBytes: 20 };
  const day = (d: string) => path.join(dir, `openclaw-2026-11-${d}.log`);
  const write = (file: string, prefix: string) => fs.writeFileSync(file, lines(prefix, 2).join("\n") + "\n");
  // Two days back only an archive is left (its active file was pruned); yesterday rotated twice, today once.
  write(rotatedLogPath(day("20"), 1), "d20.1-");
  write(rotatedLogPath(day("21"), 2), "d21.2-");
  write(rotatedLogPath(day("21"), 1), "d21.1-");
  write(day("21"), "d21-");
  write(rotatedLogPath(day("22"), 1), "d22.1-");
  write(day("22"), "d22-");
  // Not ours: another profile's log and a file dated after today (a clock set back).
  write(path.join(dir, "openclaw-work-2026-11-21.log"), "work-");
  write(day("23"), "d23-");
  const got = drain(null, opts);
  assert.equal(got.texts, [...lines("d20.1-", 2), ...lines("d21.2-", 2), ...lines("d21.1-", 2), ...lines("d21-", 2), ...lines("d22.1-", 2), ...lines("d22-", 2)]);
  assert.equal(got.warnings, []);
  assert.is(got.cursor!.path, day("22"));
  fs.appendFileSync(day("22"), "new\n");
  assert.equal(drain(got.cursor, opts).texts, ["new"]);
});

test("first read of an undated file: its rotated archives first, oldest first", () => {
  const file = path.join(tmp(), "gw.log");
  fs.writeFileSync(rotatedLogPath(file, 2), "a0\n");
  fs.writeFileSync(rotatedLogPath(file, 1), "b0\n");
  fs.writeFileSync(file, "c0\n");
  const got = drain(null, fixed(file));
  assert.equal(got.texts, ["a0", "b0", "c0"]);
  assert.is(got.cursor!.inode, fs.statSync(file).ino);
});

test("first read before today's file exists: yesterday's family is read and kept open until today's appears", () => {
  const dir = tmp();
  const clock = manualClock(Date.UTC(2026, 10, 22, 0, 0, 2));
  const opts: FollowOptions = { resolveActivePath: logPathResolver({ configuredFile: path.join(dir, "openclaw-2026-01-01.log"), timeZone: "UTC" }), clock };
  const y = path.join(dir, "openclaw-2026-11-21.log");
  const t = path.join(dir, "openclaw-2026-11-22.log");
  fs.writeFileSync(y, "y0\ny1-last");
  const r1 = drain(null, opts);
  assert.equal(r1.texts, ["y0"], "yesterday's last line may still be completed");
  fs.writeFileSync(t, "t0\n");
  assert.equal(drain(r1.cursor, opts).texts, ["y1-last", "t0"]);
});

test("a line longer than the budget is skipped with a warning; reading goes on", () => {
  const file = path.join(tmp(), "gw.log");
  fs.writeFileSync(file, "short\n" + "x".repeat(500) + "\nafter\n");
  const got = drain(null, fixed(file, { maxBytes: 64 }));
  assert.equal(got.texts, ["short", "after"]);
  assert.ok(got.warnings.includes("TRUNCATED"));
});

test("a multi-byte character split by the budget is decoded whole", () => {
  const file = path.join(tmp(), "gw.log");
  const text = ["héllo ⇄ wörld ✓", "二行目のログ", "third"];
  fs.writeFileSync(file, text.join("\n") + "\n");
  assert.equal(drain(null, fixed(file, { maxBytes: 25 })).texts, text);
});

test.run();
