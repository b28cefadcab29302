import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildIndex, shippedDataset } from "./dataset.js";
import { parsePriceOverrides } from "./overrides.js";
import { Pricer, priceUsage } from "./pricer.js";
import type { PriceResult, TokenUsage } from "./types.js";

const usage = (u: Partial<TokenUsage>): TokenUsage => ({ inputTokens: 0, cacheReadTokens: 0, cacheWrite5mTokens: 0, cacheWrite1hTokens: 0, outputTokens: 0, ...u });

function costOf(r: PriceResult): number {
  if (!("costUsd" in r)) throw new Error(`unpriced: ${r.reason}`);
  return r.costUsd;
}

function near(actual: number, expected: number, what = ""): void {
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what} ${actual} != ${expected}`);
}

/** A data set shaped like @pydantic/genai-prices' provider records. */
const fakeProviders = [
  {
    id: "anthropic",
    models: [
      {
        id: "claude-sonnet-5",
        match: { or: [{ starts_with: "claude-sonnet-5" }, { equals: "claude-5-sonnet" }] },
        prices: { input_mtok: 2, output_mtok: 10, cache_read_mtok: 0.2, cache_write_mtok: 2.5, cache_write_1h_mtok: 4 },
      },
      {
        id: "claude-tiered",
        match: { equals: "claude-tiered" },
        prices: [
          { prices: { input_mtok: { base: 3, tiers: [{ start: 200000, price: 6 }] }, output_mtok: { base: 15, tiers: [{ start: 200000, price: 22.5 }] } } },
          { constraint: { type: "start_date", start_date: "2026-03-13" }, prices: { input_mtok: 3, output_mtok: 15 } },
        ],
      },
      { id: "claude-3-5-haiku-latest", match: { or: [{ starts_with: "claude-3-5-haiku" }, { starts_with: "claude-3.5-haiku-" }] }, prices: { input_mtok: 0.8, output_mtok: 4 } },
      { id: "broken", match: { equals: "broken" }, prices: { input_mtok: "three", output_mtok: 1 } },
      { id: "speech", match: { equals: "speech" }, prices: { input_audio_mtok: 3 } },
    ],
  },
  { id: "openai", models: [{ id: "claude-sonnet-5", match: { equals: "claude-sonnet-5" }, prices: { input_mtok: 99, output_mtok: 99 } }] },
];
const fake = buildIndex(fakeProviders, "test");

test("the data set index: ids and literal match ids, first vendor wins, malformed entries reported", () => {
  assert.is(fake.version, "test");
  assert.ok(fake.byId.has("claude-5-sonnet"), "equals ids are indexed");
  assert.is(fake.byId.get("claude-3-5-haiku")?.id, "claude-3-5-haiku-latest", "a starts_with prefix is indexed as a whole id");
  assert.ok(fake.byId.has("claude-3.5-haiku"), "without its trailing separator");
  assert.not.ok(fake.byId.has("claude-3.5-haiku-"));
  assert.is(fake.byId.get("claude-sonnet-5")!.periods[0]!.schedule.input!.base, 2, "the first vendor keeps an id");
  assert.equal(fake.skipped, ["anthropic/broken"]);
  assert.not.ok(fake.byId.has("speech"), "a model without token prices is not indexed");
});

test("nothing is priced by prefix: a newer version is unpriced, not priced as its neighbour", () => {
  const p = new Pricer({ dataset: fake });
  near(costOf(p.priceUsage("claude-sonnet-5-20260101", usage({ outputTokens: 1e6 }))), 10);
  assert.equal(p.priceUsage("claude-sonnet-5-5", usage({ outputTokens: 1e6 })), { unpriced: true, reason: "unknown model claude-sonnet-5-5" });
});

test("a dated price applies from its start date; before it, the older (tiered) price", () => {
  const p = new Pricer({ dataset: fake });
  const big = usage({ inputTokens: 300_000, outputTokens: 1000 });
  near(costOf(p.priceUsage("claude-tiered", big, { at: Date.parse("2026-03-12T23:59:59Z") })), (300_000 * 6 + 1000 * 22.5) / 1e6);
  near(costOf(p.priceUsage("claude-tiered", big, { at: new Date("2026-03-13T00:00:00Z") })), (300_000 * 3 + 1000 * 15) / 1e6);
  // Without `at`, the pricer's clock decides.
  const early = new Pricer({ dataset: fake, now: () => Date.parse("2026-01-01T00:00:00Z") });
  near(costOf(early.priceUsage("claude-tiered", big)), (300_000 * 6 + 1000 * 22.5) / 1e6);
});

test("the shipped data set prices Claude ids in every form Claude Code, routers, Bedrock and Vertex write", () => {
  const p = new Pricer();
  assert.match(p.datasetVersion, /^\d+\.\d+\.\d+/);
  const forms = [
    "claude-sonnet-4-5-20250929",
    "claude-sonnet-4-5",
    "anthropic/claude-sonnet-4.5",
    "anthropic.claude-sonnet-4-5-20250929-v1:0",
    "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "claude-sonnet-4-5@20250929",
    "sonnet-4.5",
  ];
  for (const id of forms) {
    const r = p.resolve(id);
    assert.ok(r.priced, id);
    assert.is(r.model.id, "claude-sonnet-4-5", id);
    assert.is(r.source, "dataset");
  }
  // Listed under `claude-3-5-haiku-latest`, matched by its rule's `starts_with: claude-3-5-haiku`.
  const haiku = p.resolve("claude-3-5-haiku-20241022");
  assert.ok(haiku.priced && haiku.model.id === "claude-3-5-haiku-latest");
  const r = p.resolve("gpt-5-mini-2025-08-07");
  assert.ok(r.priced && r.model.id === "gpt-5-mini");
});

test("the remapped claude-opus-5-5 that Claude Code sends for --model claude-opus-4-1 is priced by the data set", () => {
  // Claude Code stores and bills `claude-opus-5-5` (claude-code-format.md §4). The shipped data set
  // lists it; a second, independent list (ai-sdk-cost-calculator 7.1.14) gives the same figures:
  // $4 input, $20 output, $0.20 cache read, $5 cache write per MTok.
  const p = new Pricer();
  const r = p.resolve("claude-opus-5-5");
  assert.ok(r.priced && r.source === "dataset");
  near(costOf(p.priceUsage("claude-opus-5-5", usage({ inputTokens: 1000, outputTokens: 1000, cacheReadTokens: 1000, cacheWrite5mTokens: 1000 }))), (1000 * 4 + 1000 * 20 + 1000 * 0.2 + 1000 * 5) / 1e6);
});

test("an unknown model is unpriced (never $0), and listed with its responses and tokens", () => {
  const p = new Pricer();
  const r1 = p.priceUsage("claude-nonexistent-9-9", usage({ inputTokens: 10, outputTokens: 5 }));
  assert.equal(r1, { unpriced: true, reason: "unknown model claude-nonexistent-9-9" });
  p.priceUsage("claude-nonexistent-9-9", usage({ cacheReadTokens: 100 }));
  p.priceUsage("mystery-llm", usage({}));
  p.priceUsage("claude-sonnet-4-5", usage({ inputTokens: 1 }));
  assert.equal(p.unpricedModels(), [
    { model: "claude-nonexistent-9-9", reason: "unknown model claude-nonexistent-9-9", responses: 2, tokens: 115 },
    { model: "mystery-llm", reason: "unknown model mystery-llm", responses: 1, tokens: 0 },
  ]);
});

test("a known model with tokens of a class it has no rate for is unpriced and listed", () => {
  const p = new Pricer();
  // OpenAI lists no 1-hour cache write price for gpt-5-mini.
  const r = p.priceUsage("gpt-5-mini", usage({ inputTokens: 10, cacheWrite1hTokens: 10 }));
  assert.equal(r, { unpriced: true, reason: "no cacheWrite1h price for gpt-5-mini" });
  assert.is(p.unpricedModels()[0]!.reason, "no cacheWrite1h price for gpt-5-mini");
});

test("hostile input: bad usage, no id, over-long ids; the unpriced list is bounded", () => {
  const p = new Pricer();
  assert.equal(p.priceUsage("claude-sonnet-4-5", usage({ outputTokens: -5 })), { unpriced: true, reason: "invalid usage: outputTokens = -5" });
  assert.equal(p.priceUsage("", usage({})), { unpriced: true, reason: "no model id" });
  assert.equal(p.priceUsage(42 as unknown as string, usage({})), { unpriced: true, reason: "no model id" });
  const long = "x".repeat(10_000);
  assert.equal(p.priceUsage(long, usage({})), { unpriced: true, reason: "model id longer than 256 characters" });
  assert.ok(p.unpricedModels().every((m) => m.model.length <= 121), "ids are shortened in the list");
  for (let i = 0; i < 300; i++) p.priceUsage(`junk-${i}`, usage({ inputTokens: 1 }));
  assert.is(p.unpricedModels().length, 200);
  assert.ok(p.droppedUnpriced > 0);
});

test("overrides win over the data set, exact over glob, the most specific glob first", () => {
  const overrides = parsePriceOverrides(
    {
      "claude-sonnet-4-5": { input: 1, output: 1 },
      "claude-opus-*": { input: 2, output: 2 },
      "claude-*": { input: 3, output: 3 },
      "claude-opus-4-5": { input: 4, output: 4 },
    },
    "config.json",
  );
  const p = new Pricer({ overrides });
  const out = (id: string) => costOf(p.priceUsage(id, usage({ outputTokens: 1e6 })));
  near(out("claude-sonnet-4-5-20250929"), 1, "exact override on the date-stripped id beats the data set's exact id");
  near(out("claude-opus-4-5-20251101"), 4, "exact beats the globs");
  near(out("claude-opus-5-5"), 2, "the more specific glob");
  near(out("claude-haiku-4-5"), 3, "the general glob");
  near(out("anthropic/claude-opus-9"), 2, "globs see the normalized forms too");
  near(out("gpt-5-mini"), 2, "an id no override matches keeps the data set's price");
  const r = p.resolve("claude-opus-5-5");
  assert.ok(r.priced && r.source === "override" && r.matched === "claude-opus-*");
});

test("an override prices a model the data set does not know", () => {
  const p = new Pricer({ overrides: parsePriceOverrides({ "claude-fable-5-2": { input: 10, output: 50, cacheRead: 1 } }, "config.json") });
  near(costOf(p.priceUsage("claude-fable-5-2", usage({ inputTokens: 1000, cacheReadTokens: 1000, outputTokens: 100 }))), (1000 * 10 + 1000 * 1 + 100 * 50) / 1e6);
  assert.equal(p.unpricedModels(), []);
});

test("an override adds the long-context tier the data set lacks for claude-sonnet-4", () => {
  const big = usage({ inputTokens: 10, cacheReadTokens: 250_000, outputTokens: 2000 });
  // genai-prices 0.1.8 lists no > 200k tier for Sonnet 4 (docs/pricing.md); Anthropic billed 6 / 22.5 / 0.60.
  const plain = new Pricer();
  near(costOf(plain.priceUsage("claude-sonnet-4-20250514", big)), (10 * 3 + 250_000 * 0.3 + 2000 * 15) / 1e6);
  const overrides = parsePriceOverrides(
    {
      "claude-sonnet-4": {
        input: 3,
        output: 15,
        cacheRead: 0.3,
        cacheWrite5m: 3.75,
        cacheWrite1h: 6,
        longContext: { thresholdTokens: 200000, input: 6, output: 22.5, cacheRead: 0.6, cacheWrite5m: 7.5, cacheWrite1h: 12 },
      },
    },
    "config.json",
  );
  const p = new Pricer({ overrides });
  near(costOf(p.priceUsage("claude-sonnet-4-20250514", big)), (10 * 6 + 250_000 * 0.6 + 2000 * 22.5) / 1e6);
});

test("the shipped data set applies Sonnet 4.5's long-context tier to the whole request", () => {
  const p = new Pricer();
  const small = usage({ inputTokens: 5, cacheReadTokens: 199_995, outputTokens: 1000 });
  const big = usage({ inputTokens: 6, cacheReadTokens: 199_995, outputTokens: 1000 });
  near(costOf(p.priceUsage("claude-sonnet-4-5-20250929", small)), (5 * 3 + 199_995 * 0.3 + 1000 * 15) / 1e6);
  near(costOf(p.priceUsage("claude-sonnet-4-5-20250929", big)), (6 * 6 + 199_995 * 0.6 + 1000 * 22.5) / 1e6);
});

test("Sonnet 4.5 at the tier boundary: 199,999 and 200,000 request input tokens at the base rate, 200,001 at the long-context rate, every class", () => {
  // Anthropic's published USD per million tokens for Sonnet 4.5: base, and above 200k input.
  const base = { input: 3, cacheRead: 0.3, cacheWrite5m: 3.75, cacheWrite1h: 6, output: 15 };
  const long = { input: 6, cacheRead: 0.6, cacheWrite5m: 7.5, cacheWrite1h: 12, output: 22.5 };
  const p = new Pricer();
  // The request's input is spread over every class, none near 200k on its own: the case a
  // per-class threshold (ccusage's) bills at the base rate throughout (docs/pricing.md).
  for (const [total, rate] of [
    [199_999, base],
    [200_000, base],
    [200_001, long],
  ] as const) {
    const u = usage({ inputTokens: total - 190_000, cacheReadTokens: 150_000, cacheWrite5mTokens: 30_000, cacheWrite1hTokens: 10_000, outputTokens: 1_234 });
    const expected = (u.inputTokens * rate.input + u.cacheReadTokens * rate.cacheRead + u.cacheWrite5mTokens * rate.cacheWrite5m + u.cacheWrite1hTokens * rate.cacheWrite1h + u.outputTokens * rate.output) / 1e6;
    near(costOf(p.priceUsage("claude-sonnet-4-5-20250929", u)), expected, `${total} input tokens`);
  }
});

test("priceUsage without a pricer uses the shipped data set", () => {
  near(costOf(priceUsage("gpt-5-mini", usage({ outputTokens: 1e6 }))), 2);
  const p = new Pricer({ overrides: parsePriceOverrides({ "gpt-5-mini": { input: 0, output: 7 } }, "config.json") });
  near(costOf(priceUsage("gpt-5-mini", usage({ outputTokens: 1e6 }), { pricer: p })), 7);
});

test("the shipped index is built once and shared", () => {
  assert.is(shippedDataset(), shippedDataset());
  assert.ok(shippedDataset().models > 100);
});

test("a model's context window: the data set's, under any normalized form, even when an override prices it", () => {
  const dataset = buildIndex(
    [{ id: "anthropic", models: [
      { id: "claude-windowed-9", prices: { input_mtok: 1 }, context_window: 123_456 },
      { id: "claude-no-window", prices: { input_mtok: 1 } },
      { id: "claude-bad-window", prices: { input_mtok: 1 }, context_window: -5 },
    ] }],
    "test",
  );
  const overrides = parsePriceOverrides({ "claude-windowed-9": { input: 9, output: 9 } }, "config prices");
  const pricer = new Pricer({ dataset, overrides });
  for (const id of ["claude-windowed-9", "claude-windowed-9-20260101", "anthropic/claude-windowed-9"]) assert.is(pricer.contextWindow(id), 123_456, id);
  assert.is(pricer.contextWindow("claude-no-window"), null);
  assert.is(pricer.contextWindow("claude-bad-window"), null);
  assert.is(pricer.contextWindow("unknown-model"), null);
});

test.run();
