// The one count and money rule of the dashboard, the card and the CLI, at its boundaries.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { formatCompact, formatUsd, formatUsdExact } from "./numbers.js";

test("counts: exact below the first unit, then three significant digits", () => {
  const cases: Array<[number, string, string]> = [
    [0, "0", "0"],
    [999, "999", "999"],
    [1_000, "1k", "1,000"],
    [9_999, "10k", "9,999"],
    [10_000, "10k", "1万"],
    [99_999, "100k", "10万"],
    [100_000, "100k", "10万"],
    [999_999, "1M", "100万"],
    [1_000_000, "1M", "100万"],
    // The figure: the dashboard read "2M" above a table that said 1,574,828.
    [1_574_828, "1.57M", "157万"],
    // An axis tick: "3M" before.
    [2_500_000, "2.5M", "250万"],
    [99_999_999, "100M", "1亿"],
    [123_456_789, "123M", "1.23亿"],
    [2_500_000_000, "2.5B", "25亿"],
    [999_999_999_999, "1T", "1万亿"],
    [2.2346e13, "22.3T", "22.3万亿"],
    [-1_574_828, "-1.57M", "-157万"],
    [-42, "-42", "-42"],
  ];
  for (const [n, en, zh] of cases) {
    assert.is(formatCompact(n, "en"), en, `en ${n}`);
    assert.is(formatCompact(n, "zh"), zh, `zh ${n}`);
  }
});

test("counts: fractions on an axis keep their digits; a figure that rounds up takes the unit", () => {
  assert.is(formatCompact(0.5, "en"), "0.5");
  assert.is(formatCompact(2.5, "en"), "2.5");
  assert.is(formatCompact(999.7, "en"), "1k");
  assert.is(formatCompact(9_999.6, "zh"), "1万");
  assert.is(formatCompact(Number.NaN, "en"), "—");
});

test("money: cents from a cent, four decimals below, whole dollars from $1,000", () => {
  const cases: Array<[number, string]> = [
    [0, "$0.00"],
    [0.00004, "<$0.0001"],
    [0.0031, "$0.0031"],
    [0.00994, "$0.0099"],
    // Rounds to a cent: cents.
    [0.009996, "$0.01"],
    // The pair: $1.14 beside $0.9268, and an axis labelled "$0.5000".
    [0.9268, "$0.93"],
    [1.14, "$1.14"],
    [0.5, "$0.50"],
    [999.99, "$999.99"],
    [999.996, "$1,000"],
    [12_345.6, "$12,346"],
    [1_574_828, "$1.57M"],
    [-1.14, "-$1.14"],
  ];
  for (const [n, text] of cases) {
    assert.is(formatUsd(n, "en"), text, `${n}`);
    assert.is(formatUsd(n, "zh"), text.replace("1.57M", "157万"), `${n} (zh)`);
  }
});

test("money someone typed keeps the digits that tell two budgets apart", () => {
  assert.is(formatUsdExact(0.0107, "en"), "$0.0107");
  assert.is(formatUsdExact(0.0086, "en"), "$0.0086");
  assert.is(formatUsdExact(0.5, "en"), "$0.50");
  assert.is(formatUsdExact(4.8, "en"), "$4.80");
  assert.is(formatUsdExact(0, "en"), "$0.00");
});

test.run();
