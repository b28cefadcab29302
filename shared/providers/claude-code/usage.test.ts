import { test } from "uvu";
import * as assert from "uvu/assert";
import { MAX_TOKENS_PER_FIELD, toTokenUsage } from "./usage.js";

// The shape Claude Code 2.1.330 writes (format doc §4), with numbers chosen for the test.
const real = () => ({
  input_tokens: 39,
  cache_creation_input_tokens: 7037,
  cache_read_input_tokens: 10775,
  output_tokens: 45,
  output_tokens_details: { thinking_tokens: 12 },
  server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
  service_tier: "standard",
  cache_creation: { ephemeral_1h_input_tokens: 1000, ephemeral_5m_input_tokens: 6037 },
});

test("maps every field onto the shared vocabulary", () => {
  const r = toTokenUsage(real(), "f:1");
  assert.is(r.warning, null);
  assert.equal(r.usage, { input: 39, output: 45, cacheRead: 10775, cacheWrite: 7037, cacheWrite1h: 1000, reasoning: 12 });
});

test("no usage is null without a warning; missing fields are 0; the breakdown stands in for a missing total", () => {
  assert.equal(toTokenUsage(undefined, "w"), { usage: null, warning: null });
  assert.equal(toTokenUsage(null, "w"), { usage: null, warning: null });
  assert.equal(toTokenUsage({ service_tier: "standard" }, "w"), { usage: null, warning: null });
  assert.equal(toTokenUsage({ input_tokens: 3, output_tokens: 4, output_tokens_details: null }, "w").usage, { input: 3, output: 4, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 });
  assert.equal(toTokenUsage({ input_tokens: 1, cache_creation: { ephemeral_5m_input_tokens: 5, ephemeral_1h_input_tokens: 2 } }, "w").usage?.cacheWrite, 7);
});

const bad: Array<[string, (u: ReturnType<typeof real>) => unknown]> = [
  ["negative", (u) => ({ ...u, input_tokens: -5 })],
  ["1e308", (u) => ({ ...u, output_tokens: 1e308 })],
  ["fractional", (u) => ({ ...u, cache_read_input_tokens: 1.5 })],
  ["a string", (u) => ({ ...u, input_tokens: "5" })],
  ["over the cap", (u) => ({ ...u, cache_creation_input_tokens: MAX_TOKENS_PER_FIELD + 1 })],
  ["nested negative", (u) => ({ ...u, cache_creation: { ...u.cache_creation, ephemeral_1h_input_tokens: -1 } })],
  ["nested non-finite", (u) => ({ ...u, output_tokens_details: { thinking_tokens: Number.POSITIVE_INFINITY } })],
  ["1h part larger than all writes", (u) => ({ ...u, cache_creation: { ephemeral_1h_input_tokens: 8000 } })],
  ["thinking larger than output", (u) => ({ ...u, output_tokens_details: { thinking_tokens: 46 } })],
  ["not an object", () => [1, 2]],
];

for (const [what, make] of bad) {
  test(`${what}: the whole usage is dropped with BAD_FIELD naming the place`, () => {
    const r = toTokenUsage(make(real()), "file.jsonl:120");
    assert.is(r.usage, null);
    assert.is(r.warning?.code, "BAD_FIELD");
    assert.is(r.warning?.where, "file.jsonl:120");
  });
}

test("the cap itself is allowed", () => {
  assert.is(toTokenUsage({ input_tokens: MAX_TOKENS_PER_FIELD }, "w").usage?.input, MAX_TOKENS_PER_FIELD);
});

test("a bad value is described, never echoed at length", () => {
  const r = toTokenUsage({ input_tokens: "x".repeat(10_000) }, "w");
  assert.ok((r.warning?.message.length ?? 0) < 300);
});

test.run();
