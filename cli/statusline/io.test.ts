import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readInput, runChained } from "./io.js";
import { parseFlags } from "./run.js";

test("stdin: read to its end; too large or never closed gives null, within the deadline", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sl-io-"));
  try {
    const file = join(dir, "in.json");
    writeFileSync(file, '{"a":1}');
    const fd = openSync(file, "r");
    assert.is(await readInput(fd, 5000, 100), '{"a":1}');
    closeSync(fd);
    writeFileSync(file, "x".repeat(11));
    const big = openSync(file, "r");
    assert.is(await readInput(big, 5000, 10), null);
    closeSync(big);
    // A FIFO held open for writing by this process too: its reader never sees an end.
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    const open = openSync(fifo, "r+");
    const t0 = Date.now();
    assert.is(await readInput(open, 200, 100), null);
    assert.ok(Date.now() - t0 < 5000, "the deadline ends the wait");
    // The read left pending in the thread pool ends with these bytes, after the answer.
    writeSync(open, "late");
    await new Promise((r) => setTimeout(r, 50));
    closeSync(open);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a chained status line gets the same input; its first line is kept; a hung one is cut off", async () => {
  const input = '{"session_id":"s1"}';
  assert.is(await runChained("cat; echo; echo second", input), input);
  assert.is(await runChained("exit 3", input), "");
  const t0 = Date.now();
  assert.is(await runChained("sleep 30", input, 300), "");
  assert.ok(Date.now() - t0 < 10_000, "the deadline kills it");
});

test("flags of the fast path: --format, --color, --chain (with = or a separate value); anything else is said", () => {
  assert.equal(parseFlags(["--format", "5h,week", "--color=never", "--chain", "echo hi"]), { format: "5h,week", color: "never", chain: "echo hi" });
  assert.type(parseFlags(["--bogus"]), "string");
  assert.type(parseFlags(["--format"]), "string");
});

test.run();
