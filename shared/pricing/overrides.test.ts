import { test } from "uvu";
import * as assert from "uvu/assert";
import { ConfigError } from "../base/errors.js";
import { NO_OVERRIDES, parsePriceOverrides } from "./overrides.js";

const ORIGIN = "/home/op/.config/gateway-insights/config.json";

function rejects(raw: unknown, pattern: RegExp): ConfigError {
  try {
    parsePriceOverrides(raw, ORIGIN);
  } catch (err) {
    assert.instance(err, ConfigError);
    assert.is((err as ConfigError).code, "CONFIG_INVALID");
    assert.match((err as Error).message, pattern);
    assert.ok((err as Error).message.includes(`(from ${ORIGIN})`), (err as Error).message);
    return err as ConfigError;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(raw)}`);
}

test("no prices key means no overrides", () => {
  assert.is(parsePriceOverrides(undefined, ORIGIN), NO_OVERRIDES);
  assert.is(parsePriceOverrides(null, ORIGIN), NO_OVERRIDES);
  assert.is(parsePriceOverrides({}, ORIGIN).exact.size, 0);
});

test("a full entry becomes a schedule with its long-context tier", () => {
  const o = parsePriceOverrides(
    {
      "Claude-Sonnet-4": {
        input: 3,
        output: 15,
        cacheRead: 0.3,
        cacheWrite5m: 3.75,
        cacheWrite1h: 6,
        longContext: { thresholdTokens: 200000, input: 6, output: 22.5, cacheRead: 0.6, cacheWrite5m: 7.5, cacheWrite1h: 12 },
      },
    },
    ORIGIN,
  );
  const m = o.exact.get("claude-sonnet-4");
  assert.ok(m, "keys are matched lower-cased");
  assert.is(m.id, "Claude-Sonnet-4");
  assert.is(m.source, "override");
  const s = m.periods[0]!.schedule;
  assert.equal(s.input, { base: 3, tiers: [{ above: 200000, price: 6 }] });
  assert.equal(s.cacheWrite1h, { base: 6, tiers: [{ above: 200000, price: 12 }] });
});

test("a class left out of longContext keeps its base rate; a class left out entirely has no rate", () => {
  const s = parsePriceOverrides({ m: { input: 1, output: 2, cacheRead: 0.1, longContext: { thresholdTokens: 10, input: 5 } } }, ORIGIN).exact.get("m")!.periods[0]!.schedule;
  assert.equal(s.cacheRead, { base: 0.1, tiers: [] });
  assert.is(s.cacheWrite5m, undefined);
});

test("globs are kept apart, the most specific first", () => {
  const o = parsePriceOverrides({ "*": { input: 1, output: 1 }, "claude-*": { input: 2, output: 2 }, "claude-opus-*": { input: 3, output: 3 } }, ORIGIN);
  assert.is(o.exact.size, 0);
  assert.equal(
    o.globs.map((g) => g.pattern),
    ["claude-opus-*", "claude-*", "*"],
  );
  assert.ok(o.globs[0]!.re.test("claude-opus-5-5"));
  assert.not.ok(o.globs[0]!.re.test("xclaude-opus-5-5"), "anchored");
  const dots = parsePriceOverrides({ "gpt-5.*": { input: 1, output: 1 } }, ORIGIN).globs[0]!.re;
  assert.ok(dots.test("gpt-5.1"));
  assert.not.ok(dots.test("gpt-501"), "a dot in a glob is a dot");
});

test("errors name the model key, the field, the value and what is allowed", () => {
  rejects({ "claude-opus-5-5": { input: -1, output: 20 } }, /prices\["claude-opus-5-5"\]\.input = -1 .*expected a price in USD per million tokens/);
  rejects({ "claude-opus-5-5": { input: "4", output: 20 } }, /prices\["claude-opus-5-5"\]\.input = "4"/);
  rejects({ "my-model": { output: 20 } }, /prices\["my-model"\]\.input = undefined .*expected a price/);
  rejects({ "my-model": { input: 1, output: 2, cacheWrite: 3 } }, /prices\["my-model"\]\.cacheWrite = 3 .*no such field \(one of input, output, cacheRead, cacheWrite5m, cacheWrite1h, longContext\)/);
  rejects({ "my-model": { input: 1, output: 2, longContext: { thresholdTokens: 1.5, input: 2 } } }, /prices\["my-model"\]\.longContext\.thresholdTokens = 1\.5 .*whole number of input tokens/);
  rejects({ "my-model": { input: 1, output: 2, longContext: { input: 2 } } }, /prices\["my-model"\]\.longContext\.thresholdTokens = undefined/);
  rejects({ "my-model": { input: 1, output: 2, longContext: { thresholdTokens: 5, inputs: 2 } } }, /prices\["my-model"\]\.longContext\.inputs = 2 .*no such field \(one of thresholdTokens, input/);
  rejects({ "my-model": { input: 1, output: 2, longContext: { thresholdTokens: 5 } } }, /prices\["my-model"\]\.longContext = .*at least one of input/);
  rejects({ "my-model": { input: 1, output: 2, longContext: { thresholdTokens: 5, cacheRead: 1 } } }, /prices\["my-model"\]\.cacheRead = undefined .*since longContext\.cacheRead is set/);
  rejects({ "my-model": 3 }, /prices\["my-model"\] = 3 .*an object of prices in USD per million tokens \(input and output required/);
  rejects({ "my-model": { input: 1e9, output: 1 } }, /prices\["my-model"\]\.input = 1000000000 .*from 0 to 100000/);
});

test("a __proto__ key is an ordinary key: checked, and kept", () => {
  rejects(JSON.parse('{"__proto__": {"input": -1, "output": 1}}'), /prices\["__proto__"\]\.input = -1/);
  const o = parsePriceOverrides(JSON.parse('{"__proto__": {"input": 1, "output": 1}, "constructor": {"input": 2, "output": 2}}'), ORIGIN);
  assert.equal([...o.exact.keys()], ["__proto__", "constructor"]);
});

test("the prices value itself and its keys are checked", () => {
  rejects([1, 2], /prices = \[1,2\] .*an object mapping model ids or globs to prices/);
  rejects("cheap", /prices = "cheap"/);
  rejects({ "": { input: 1, output: 1 } }, /prices\[""\] .*1 to 256 characters/);
  rejects({ ["x".repeat(300)]: { input: 1, output: 1 } }, /1 to 256 characters/);
  rejects({ "bad\nid": { input: 1, output: 1 } }, /without control characters/);
  rejects({ "Gpt-5": { input: 1, output: 1 }, "gpt-5": { input: 2, output: 2 } }, /prices\["gpt-5"\] .*same model as "Gpt-5"/);
  const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`m${i}`, { input: 1, output: 1 }]));
  rejects(many, /prices = "<1001 entries>" .*at most 1000 entries/);
});

test.run();
