import { appendFileSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { peekString, readLines, type LineCursor, type ReadLinesOptions } from "./line-reader.js";

const dir = mkdtempSync(join(tmpdir(), "gi-lines-"));
let n = 0;
const file = (content: string | Buffer): string => {
  const p = join(dir, `f${n++}.jsonl`);
  writeFileSync(p, content);
  return p;
};

function readAll(path: string, cursor: LineCursor | null, options: ReadLinesOptions = {}) {
  const lines: Array<{ text: string; pos: number }> = [];
  const r = readLines(path, cursor, options, (line, pos) => lines.push({ text: line.toString("utf8"), pos }));
  if (!r.ok) throw r.error;
  return { lines, ...r.value, warnings: r.warnings };
}

test("complete lines with their byte offsets; a partial last line waits for the next call", () => {
  const p = file('{"a":1}\n{"b":"é"}\r\n{"c":');
  const first = readAll(p, null);
  assert.equal(first.lines, [
    { text: '{"a":1}', pos: 0 },
    { text: '{"b":"é"}', pos: 8 },
  ]);
  assert.is(first.cursor.offset, Buffer.byteLength('{"a":1}\n{"b":"é"}\r\n'));
  assert.ok(first.done);
  appendFileSync(p, '3}\n{"d":4}\n');
  const second = readAll(p, first.cursor);
  assert.equal(second.lines.map((l) => l.text), ['{"c":3}', '{"d":4}']);
  assert.is(second.lines[0]?.pos, first.cursor.offset);
  assert.not.ok(second.restarted);
});

test("lines longer than a chunk are whole; the budget stops only at a line boundary", () => {
  const long = `{"x":"${"y".repeat(5000)}"}`;
  const p = file(`${long}\n{"a":1}\n{"b":2}\n`);
  const r = readAll(p, null, { chunkBytes: 1024, maxBytes: 10 });
  assert.equal(r.lines.map((l) => l.text), [long]);
  assert.not.ok(r.done);
  const rest = readAll(p, r.cursor, { chunkBytes: 1024, maxBytes: 5 });
  assert.equal(rest.lines.map((l) => l.text), ['{"a":1}']);
  const last = readAll(p, rest.cursor, { chunkBytes: 1024 });
  assert.equal(last.lines.map((l) => l.text), ['{"b":2}']);
  assert.ok(last.done);
});

test("keep sees only the head, and a skipped line is never handed over", () => {
  const blob = `{"type":"blob","data":"${"z".repeat(20_000)}"}`;
  const p = file(`${blob}\n{"type":"keep","v":1}\n${blob}\n{"type":"keep","v":2}\n`);
  const heads: number[] = [];
  const r = readAll(p, null, {
    chunkBytes: 4096,
    peekBytes: 64,
    keep: (head) => {
      heads.push(head.length);
      return peekString(head, "type") === "keep";
    },
  });
  assert.equal(r.lines.map((l) => JSON.parse(l.text).v), [1, 2]);
  assert.is(r.skipped, 2);
  assert.ok(heads.every((h) => h <= 64), `heads: ${heads.join(",")}`);
});

test("a kept line over maxLineBytes is skipped with a warning, and reading goes on", () => {
  const p = file(`{"big":"${"q".repeat(3000)}"}\n{"ok":true}\n`);
  const r = readAll(p, null, { maxLineBytes: 1000, chunkBytes: 512 });
  assert.equal(r.lines.map((l) => l.text), ['{"ok":true}']);
  assert.is(r.warnings[0]?.code, "TRUNCATED");
});

test("a truncated or replaced file restarts at 0", () => {
  const p = file('{"a":1}\n{"b":2}\n');
  const first = readAll(p, null);
  truncateSync(p, 0);
  writeFileSync(p, '{"c":3}\n');
  const shorter = readAll(p, first.cursor);
  assert.ok(shorter.restarted);
  assert.equal(shorter.lines.map((l) => l.text), ['{"c":3}']);
  const other = file('{"d":4}\n{"e":5}\n{"f":6}\n');
  renameSync(other, p);
  const replaced = readAll(p, shorter.cursor);
  assert.ok(replaced.restarted);
  assert.is(replaced.lines.length, 3);
});

test("a vanished file is an error result, not a throw", () => {
  const r = readLines(join(dir, "nope.jsonl"), null, {}, () => undefined);
  assert.not.ok(r.ok);
  if (!r.ok) assert.is(r.error.kind, "missing");
});

test("peekString reads a top-level string value from a head", () => {
  const head = Buffer.from('{"parentUuid":null,"type":"assistant","x":');
  assert.is(peekString(head, "type"), "assistant");
  assert.is(peekString(head, "subtype"), null);
  assert.is(peekString(Buffer.from('{"type":"unterminat'), "type"), null);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
