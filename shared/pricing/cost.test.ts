import { test } from "uvu";
import * as assert from "uvu/assert";
import { costUnder, requestInputTokens, scheduleAt, usageProblem } from "./cost.js";
import type { PricedModel, Schedule, TokenUsage } from "./types.js";

const usage = (u: Partial<TokenUsage>): TokenUsage => ({ inputTokens: 0, cacheReadTokens: 0, cacheWrite5mTokens: 0, cacheWrite1hTokens: 0, outputTokens: 0, ...u });
const flat = (base: number) => ({ base, tiers: [] });
const tiered = (base: number, price: number, above = 200_000) => ({ base, tiers: [{ above, price }] });

// Anthropic's published Sonnet 4.5 rates: base and > 200k input (USD per MTok).
const sonnet: Schedule = {
  input: tiered(3, 6),
  output: tiered(15, 22.5),
  cacheRead: tiered(0.3, 0.6),
  cacheWrite5m: tiered(3.75, 7.5),
  cacheWrite1h: tiered(6, 12),
};

function cost(schedule: Schedule, u: TokenUsage): number {
  const r = costUnder(schedule, u, "m");
  if (!("costUsd" in r)) throw new Error(r.reason);
  return r.costUsd;
}

function near(actual: number, expected: number): void {
  assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} != ${expected}`);
}

test("each token class at its own rate", () => {
  const u = usage({ inputTokens: 1000, cacheReadTokens: 20_000, cacheWrite5mTokens: 3000, cacheWrite1hTokens: 400, outputTokens: 500 });
  near(cost(sonnet, u), (1000 * 3 + 20_000 * 0.3 + 3000 * 3.75 + 400 * 6 + 500 * 15) / 1e6);
});

test("the long-context tier takes the whole request once its total input passes the threshold", () => {
  // 1 fresh input token + 150k cache read + 50k cache write = 200,001 input: every class, output
  // included, is billed at the > 200k rate, though no single class passes 200k.
  const u = usage({ inputTokens: 1, cacheReadTokens: 150_000, cacheWrite5mTokens: 40_000, cacheWrite1hTokens: 10_000, outputTokens: 1000 });
  assert.is(requestInputTokens(u), 200_001);
  near(cost(sonnet, u), (1 * 6 + 150_000 * 0.6 + 40_000 * 7.5 + 10_000 * 12 + 1000 * 22.5) / 1e6);
});

test("exactly at the threshold is still the base rate", () => {
  const u = usage({ inputTokens: 100_000, cacheReadTokens: 100_000, outputTokens: 10 });
  near(cost(sonnet, u), (100_000 * 3 + 100_000 * 0.3 + 10 * 15) / 1e6);
});

test("output alone never triggers the tier (it is not input)", () => {
  near(cost(sonnet, usage({ inputTokens: 10, outputTokens: 300_000 })), (10 * 3 + 300_000 * 15) / 1e6);
});

test("with several tiers the highest passed one applies", () => {
  const s: Schedule = { input: { base: 1, tiers: [{ above: 100, price: 2 }, { above: 1000, price: 4 }] }, output: flat(10) };
  near(cost(s, usage({ inputTokens: 500, outputTokens: 1 })), (500 * 2 + 10) / 1e6);
  near(cost(s, usage({ inputTokens: 5000, outputTokens: 1 })), (5000 * 4 + 10) / 1e6);
});

test("tokens of a class without a rate make the response unpriced, naming the class", () => {
  const openai: Schedule = { input: flat(1.25), output: flat(10), cacheRead: flat(0.125) };
  near(cost(openai, usage({ inputTokens: 10, cacheReadTokens: 10 })), (10 * 1.25 + 10 * 0.125) / 1e6);
  assert.equal(costUnder(openai, usage({ inputTokens: 10, cacheWrite1hTokens: 5 }), "gpt-x"), { unpriced: true, reason: "no cacheWrite1h price for gpt-x" });
});

test("zero usage costs exactly 0", () => {
  assert.equal(costUnder(sonnet, usage({}), "m"), { costUsd: 0 });
});

test("usage counters must be finite numbers ≥ 0", () => {
  assert.is(usageProblem(usage({ outputTokens: 3 })), null);
  assert.is(usageProblem(usage({ cacheReadTokens: -1 })), "invalid usage: cacheReadTokens = -1");
  assert.is(usageProblem(usage({ inputTokens: Number.NaN })), "invalid usage: inputTokens = NaN");
  assert.is(usageProblem(usage({ outputTokens: Number.POSITIVE_INFINITY })), "invalid usage: outputTokens = Infinity");
  assert.is(usageProblem({ inputTokens: 1 } as TokenUsage), "invalid usage: outputTokens = undefined");
  assert.is(usageProblem(null as unknown as TokenUsage), "invalid usage: not an object");
});

test("the schedule in force: the last period that applies wins", () => {
  const a: Schedule = { input: flat(1) };
  const b: Schedule = { input: flat(2) };
  const c: Schedule = { input: flat(3) };
  const cut = Date.parse("2026-03-13T00:00:00Z");
  const model: PricedModel = {
    id: "m",
    source: "dataset",
    periods: [
      { constraint: { kind: "always" }, schedule: a },
      { constraint: { kind: "from", ms: cut }, schedule: b },
      // Off-peak from 16:30 to 00:30 UTC, wrapping past midnight.
      { constraint: { kind: "timeOfDay", startSec: 16.5 * 3600, endSec: 0.5 * 3600 }, schedule: c },
    ],
  };
  const hour = 3_600_000;
  const minute = 60_000;
  assert.is(scheduleAt(model, cut - 12 * hour), a); // the day before, at 12:00 UTC
  assert.is(scheduleAt(model, cut - 4 * hour), c); // the day before, at 20:00 UTC (off-peak)
  assert.is(scheduleAt(model, cut + 12 * hour), b);
  assert.is(scheduleAt(model, cut + 20 * hour), c);
  assert.is(scheduleAt(model, cut + 24 * hour + 10 * minute), c); // 00:10, inside the wrapped window
  assert.is(scheduleAt(model, cut + 24 * hour + 40 * minute), b); // 00:40, after it
});

test("before the first dated period, the first period is used", () => {
  const a: Schedule = { input: flat(1) };
  const model: PricedModel = { id: "m", source: "dataset", periods: [{ constraint: { kind: "from", ms: 1000 }, schedule: a }] };
  assert.is(scheduleAt(model, 0), a);
});

test.run();
