import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { directoryUsage, filesystemSpace } from "./disk-usage.js";
import { FIXTURES_DIR } from "../../test/helpers/openclaw-fixtures.js";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));

/** A small tree: root/a.txt, root/sub/b.bin, root/sub/deeper/c.log, plus a symlink to a big outside dir. */
function makeTree() {
  const root = tmp();
  const sizes = { "a.txt": 10, "sub/b.bin": 5000, "sub/deeper/c.log": 123_456 };
  for (const [rel, size] of Object.entries(sizes)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), Buffer.alloc(size, 1));
  }
  const outside = tmp();
  fs.writeFileSync(path.join(outside, "huge"), Buffer.alloc(1_000_000));
  fs.symlinkSync(outside, path.join(root, "link-to-dir"));
  fs.symlinkSync(path.join(outside, "huge"), path.join(root, "sub", "link-to-file"));
  return { root, total: Object.values(sizes).reduce((a, b) => a + b, 0), files: Object.keys(sizes).length };
}

test("sums file sizes, skips symlinks, counts dirs", async () => {
  const { root, total, files } = makeTree();
  const r = await directoryUsage(root);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.is(r.value.bytes, total);
  assert.is(r.value.files, files);
  assert.is(r.value.dirs, 3);
  assert.is(r.value.skippedSymlinks, 2);
  assert.is(r.value.truncated, false);
  assert.ok(r.value.allocatedBytes > 0);
  assert.equal(r.warnings, []);
});

test("bounded: maxEntries and maxDepth truncate and say so", async () => {
  const { root, total } = makeTree();
  const few = await directoryUsage(root, { maxEntries: 2 });
  assert.ok(few.ok && few.value.truncated && few.value.bytes < total);
  const shallow = await directoryUsage(root, { maxDepth: 1 });
  assert.ok(shallow.ok);
  if (shallow.ok) {
    assert.is(shallow.value.truncated, true);
    assert.is(shallow.value.bytes, 10 + 5000, "deeper/c.log not reached");
  }
});

test("missing root -> missing; a file as root -> corrupt", async () => {
  const root = tmp();
  const missing = await directoryUsage(path.join(root, "nope"));
  assert.ok(!missing.ok && missing.error.kind === "missing");
  fs.writeFileSync(path.join(root, "f"), "x");
  const file = await directoryUsage(path.join(root, "f"));
  assert.ok(!file.ok && file.error.kind === "corrupt");
});

test("the fixture state dir: bytes equal a plain recursive size sum", async () => {
  const fixture = path.join(FIXTURES_DIR, "openclaw-2026.9.6");
  let expected = 0;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) expected += fs.statSync(p).size;
    }
  };
  walk(fixture);
  const r = await directoryUsage(fixture);
  assert.ok(r.ok && r.value.bytes === expected);
});

test("filesystem space agrees with df", async () => {
  const dir = tmp();
  const r = await filesystemSpace(dir);
  assert.ok(r.ok);
  if (!r.ok) return;
  const [size, avail] = execFileSync("df", ["-B1", "--output=size,avail", dir], { encoding: "utf8" }).trim().split("\n")[1]!.trim().split(/\s+/).map(Number) as [number, number];
  assert.is(r.value.totalBytes, size);
  // Other processes write meanwhile; allow 64 MB of drift.
  assert.ok(Math.abs(r.value.availableBytes - avail) < 64 * 1024 * 1024, `${r.value.availableBytes} vs ${avail}`);
  assert.ok(r.value.freeBytes >= r.value.availableBytes);
  assert.ok(r.value.usedPercent >= 0 && r.value.usedPercent <= 100);
  const missing = await filesystemSpace(path.join(dir, "nope"));
  assert.ok(!missing.ok && missing.error.kind === "missing");
});

test.run();
