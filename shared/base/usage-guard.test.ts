import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkCostUsd, checkTokenCount, finiteTotal, finiteTotals, MAX_COST_USD_PER_RESPONSE, MAX_TOKENS_PER_RESPONSE } from "./usage-guard.js";

test("token counts: whole numbers in [0, bound] pass; missing is 0 without a problem; anything else is refused as 0", () => {
  for (const v of [0, 1, 217, MAX_TOKENS_PER_RESPONSE]) assert.equal(checkTokenCount(v), { value: v, problem: null }, String(v));
  assert.equal(checkTokenCount(undefined), { value: 0, problem: null });
  assert.equal(checkTokenCount(null), { value: 0, problem: null });
  for (const v of [-5, -0.5, 1.5, MAX_TOKENS_PER_RESPONSE + 1, 1e308, Infinity, -Infinity, NaN, "12", true, {}, [1]]) {
    const c = checkTokenCount(v);
    assert.is(c.value, 0, String(v));
    assert.type(c.problem, "string", String(v));
  }
  assert.match(checkTokenCount(-5).problem ?? "", /negative/);
  assert.match(checkTokenCount(1.5).problem ?? "", /whole number/);
  assert.match(checkTokenCount(1e308).problem ?? "", /beyond 10000000/);
});

test("costs: numbers in [0, bound] pass; missing is null (may be priced); anything else is refused as 0 (not priced)", () => {
  for (const v of [0, 0.000651, 12.5, MAX_COST_USD_PER_RESPONSE]) assert.equal(checkCostUsd(v), { value: v, problem: null }, String(v));
  assert.equal(checkCostUsd(undefined), { value: null, problem: null });
  for (const v of [-0.01, MAX_COST_USD_PER_RESPONSE + 0.01, 1e308, Infinity, NaN, "0.5"]) {
    const c = checkCostUsd(v);
    assert.is(c.value, 0, String(v));
    assert.type(c.problem, "string", String(v));
  }
});

test("finite totals: Infinity, NaN, negatives and null read back as 0, the rest unchanged", () => {
  assert.equal([Infinity, -Infinity, NaN, -5, null, undefined, 0, 3.25].map(finiteTotal), [0, 0, 0, 0, 0, 0, 0, 3.25]);
  const row = { input: Infinity, output: 7, name: "m" };
  assert.is(finiteTotals(row, ["input", "output"]), row);
  assert.equal(row, { input: 0, output: 7, name: "m" });
});

test.run();
