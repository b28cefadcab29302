import { test } from "uvu";
import * as assert from "uvu/assert";
import type { RateLimitSnapshot } from "../providers/contract.js";
import { CLOCK_SKEW_MS, MAX_USED_PERCENT, MAX_WINDOW_MINUTES, impossibleRateLimit } from "./rate-limit-check.js";

const AT = Date.parse("2026-11-23T21:40:00Z");
const MIN = 60_000;
const snap = (primary: Partial<NonNullable<RateLimitSnapshot["primary"]>> | null): RateLimitSnapshot => ({
  limitId: "codex",
  primary: primary ? { usedPercent: 8, windowMinutes: 300, resetsAt: AT + 200 * MIN, ...primary } : null,
  secondary: { usedPercent: 22, windowMinutes: 10080, resetsAt: AT + 5 * 1440 * MIN },
  planType: null,
  credits: null,
});

test("possible readings pass: 0 to the tolerance, a reset within the window, unknown parts", () => {
  for (const p of [{}, { usedPercent: 0 }, { usedPercent: 100 }, { usedPercent: MAX_USED_PERCENT }, { resetsAt: AT + 300 * MIN }, { resetsAt: null, windowMinutes: null }, { resetsAt: AT - 10 * MIN }]) {
    assert.is(impossibleRateLimit(snap(p), AT, AT), null, JSON.stringify(p));
  }
  assert.is(impossibleRateLimit(snap(null), AT, AT), null);
});

test("impossible readings are refused with the reason", () => {
  const cases: Array<[Partial<NonNullable<RateLimitSnapshot["primary"]>>, RegExp]> = [
    [{ usedPercent: 999 }, /primary used 999 %/],
    [{ usedPercent: MAX_USED_PERCENT + 0.1 }, /not between 0 and/],
    [{ usedPercent: -1 }, /used -1 %/],
    [{ usedPercent: Number.NaN }, /used NaN/],
    [{ usedPercent: Number.POSITIVE_INFINITY }, /used Infinity/],
    [{ resetsAt: Date.parse("5138-01-01T00:00:00Z") }, /resets at 5138-01-01T00:00:00.000Z, beyond its 300 minute window/],
    [{ resetsAt: AT + 300 * MIN + CLOCK_SKEW_MS + 1 }, /beyond its 300 minute window/],
    [{ windowMinutes: null, resetsAt: AT + MAX_WINDOW_MINUTES * MIN + CLOCK_SKEW_MS + 1 }, /beyond its \d+ minute window/],
    [{ windowMinutes: MAX_WINDOW_MINUTES + 1 }, /window of/],
    [{ windowMinutes: 0 }, /window of 0 minutes/],
  ];
  for (const [p, why] of cases) assert.match(impossibleRateLimit(snap(p), AT, AT) ?? "", why, JSON.stringify(p));
});

test("a reading dated in the future is refused (its own date would keep it current)", () => {
  assert.match(impossibleRateLimit(snap({}), AT + CLOCK_SKEW_MS + 1, AT) ?? "", /in the future/);
  assert.is(impossibleRateLimit(snap({}), AT + CLOCK_SKEW_MS, AT), null);
});

test.run();
