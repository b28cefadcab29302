import { test } from "uvu";
import * as assert from "uvu/assert";
import { MAX_TOKENS_PER_FIELD, toTokenUsage } from "./usage.js";

const real = { input_tokens: 11931, cached_input_tokens: 2048, cache_write_input_tokens: 0, output_tokens: 192, reasoning_output_tokens: 144, total_tokens: 12123 };

test("maps a real record: input without the cached part, output with reasoning, reasoning apart", () => {
  const r = toTokenUsage(real, "f:1");
  assert.is(r.warning, null);
  assert.equal(r.usage, { input: 11931 - 2048, output: 192, cacheRead: 2048, cacheWrite: 0, cacheWrite1h: 0, reasoning: 144 });
  // The four parts add up to Codex's own total (cache writes are 0 here).
  const u = r.usage as NonNullable<typeof r.usage>;
  assert.is(u.input + u.cacheRead + u.cacheWrite + u.output, real.total_tokens);
});

test("no usage is null without a warning; missing fields are 0", () => {
  assert.equal(toTokenUsage(undefined, "f"), { usage: null, warning: null });
  assert.equal(toTokenUsage(null, "f"), { usage: null, warning: null });
  assert.equal(toTokenUsage({}, "f"), { usage: null, warning: null });
  assert.equal(toTokenUsage({ input_tokens: 5 }, "f").usage, { input: 5, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 });
});

for (const [name, bad] of [
  ["huge", { ...real, output_tokens: 1e308 }],
  ["negative", { ...real, input_tokens: -5 }],
  ["fractional", { ...real, cached_input_tokens: 1.5 }],
  ["over the cap", { ...real, input_tokens: MAX_TOKENS_PER_FIELD + 1 }],
  ["a string", { ...real, output_tokens: "12" }],
  ["infinite", { ...real, reasoning_output_tokens: Number.POSITIVE_INFINITY }],
  ["cached above input", { ...real, cached_input_tokens: real.input_tokens + 1 }],
  ["reasoning above output", { ...real, reasoning_output_tokens: real.output_tokens + 1 }],
  ["not an object", [1, 2]],
] as const) {
  test(`a ${name} value drops the whole usage with BAD_FIELD`, () => {
    const r = toTokenUsage(bad, "file.jsonl:42");
    assert.is(r.usage, null);
    assert.is(r.warning?.code, "BAD_FIELD");
    assert.is(r.warning?.where, "file.jsonl:42");
  });
}

test("the cap itself is accepted", () => {
  assert.is(toTokenUsage({ input_tokens: MAX_TOKENS_PER_FIELD }, "f").usage?.input, MAX_TOKENS_PER_FIELD);
});

test.run();
