import { PassThrough } from "node:stream";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readInput, runChained } from "./io.js";
import { parseFlags } from "./run.js";

const stream = (): NodeJS.ReadStream => new PassThrough() as unknown as NodeJS.ReadStream;

test("stdin: read to its end; too large or never closed gives null, within the deadline", async () => {
  const s = stream();
  const got = readInput(s, 5000, 100);
  (s as unknown as PassThrough).end('{"a":1}');
  assert.is(await got, '{"a":1}');
  const big = stream();
  const tooBig = readInput(big, 5000, 10);
  (big as unknown as PassThrough).write("x".repeat(11));
  assert.is(await tooBig, null);
  const open = stream();
  const t0 = Date.now();
  assert.is(await readInput(open, 200, 100), null);
  assert.ok(Date.now() - t0 < 5000, "the deadline ends the wait");
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
