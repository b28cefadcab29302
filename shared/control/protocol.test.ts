import { test } from "uvu";
import * as assert from "uvu/assert";
import { LineDecoder } from "./protocol.js";

function decoder(max?: number): { d: LineDecoder; messages: unknown[]; errors: string[] } {
  const messages: unknown[] = [];
  const errors: string[] = [];
  const d = new LineDecoder((v) => messages.push(v), (e) => errors.push(e.message), max);
  return { d, messages, errors };
}

test("the tail of an over-long line is dropped up to its newline, never read as a request", () => {
  const { d, messages, errors } = decoder(16);
  d.push("x".repeat(20));
  d.push('{"id":1,"method":"shutdown"}\n');
  d.push('{"id":2}\n');
  assert.equal(messages, [{ id: 2 }]);
  assert.is(errors.length, 1);
  assert.match(errors[0] as string, /longer than 16 bytes/);
});

test("an over-long line that arrives in one chunk with its newline is refused too", () => {
  const { d, messages, errors } = decoder(16);
  d.push(`{"pad":"${"y".repeat(40)}"}\n{"id":3}\n`);
  assert.equal(messages, [{ id: 3 }]);
  assert.is(errors.length, 1);
});

test("the limit counts bytes, and a character split across chunks stays whole", () => {
  const { d, messages, errors } = decoder(64);
  const bytes = Buffer.from('{"v":"é中"}\n', "utf8");
  for (let i = 0; i < bytes.length; i++) d.push(bytes.subarray(i, i + 1));
  assert.equal(messages, [{ v: "é中" }]);
  assert.equal(errors, []);
  const small = decoder(10);
  small.d.push(Buffer.from(`"${"中".repeat(4)}"\n`, "utf8")); // 6 characters, 14 bytes
  assert.equal(small.messages, []);
  assert.is(small.errors.length, 1);
});

test("bad JSON is one error and the next line still parses; blank lines are ignored", () => {
  const { d, messages, errors } = decoder();
  d.push("not json\n\n   \n");
  d.push('{"id":4}\r\n');
  assert.equal(messages, [{ id: 4 }]);
  assert.is(errors.length, 1);
});

test.run();
