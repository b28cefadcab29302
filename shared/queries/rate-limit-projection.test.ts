import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { projectWindow, type WindowSample } from "./rate-limit-projection.js";

const MIN = 60_000;
const clock = manualClock(Date.UTC(2026, 10, 24, 15, 0));
const NOW = clock.now();
const near = (a: number | null, b: number, what: string): void => assert.ok(a !== null && Math.abs(a - b) < 1e-6, `${what}: ${a} ≈ ${b}`);

/** Readings `minutesAgo` before now at `used` %, all in one window resetting at `resetsAt`. */
const at = (resetsAt: number | null, ...points: Array<[minutesAgo: number, used: number]>): WindowSample[] => points.map(([m, used]) => ({ ts: NOW - m * MIN, usedPercent: used, resetsAt }));

test("a steady rise: the rate from first to last reading, full when the rest is used at that rate, before the reset", () => {
  const reset = NOW + 70 * MIN;
  const s = at(reset, [28, 40], [20, 46], [10, 52], [1, 61]);
  const p = projectWindow(s, NOW);
  const perMin = (61 - 40) / 27;
  assert.is(p.status, "PROJECTED");
  near(p.burnPercentPerHour, perMin * 60, "burn");
  const fullAt = NOW - MIN + ((100 - 61) / perMin) * MIN;
  near(p.fullAt, fullAt, "fullAt");
  assert.is(p.resetsAt, reset);
  assert.is(p.beforeReset, fullAt < reset);
  assert.is(p.beforeReset, true);
  near(p.usedPercentAtReset, 61 + perMin * ((reset - (NOW - MIN)) / MIN), "at reset");
  assert.is(p.samples, 4);
});

test("a slow rise fills after the reset: projected, not before it", () => {
  const reset = NOW + 20 * MIN;
  const p = projectWindow(at(reset, [25, 10], [5, 12]), NOW);
  assert.is(p.status, "PROJECTED");
  const perMin = 2 / 20;
  near(p.fullAt, NOW - 5 * MIN + (88 / perMin) * MIN, "fullAt");
  assert.is(p.beforeReset, false);
  near(p.usedPercentAtReset, 12 + perMin * 25, "at reset");
});

test("readings older than 30 minutes, or in the future, do not count", () => {
  const reset = NOW + 200 * MIN;
  const p = projectWindow(at(reset, [90, 0], [45, 5], [31, 30], [20, 40], [2, 49], [-5, 99]), NOW);
  assert.is(p.samples, 2);
  near(p.burnPercentPerHour, ((49 - 40) / 18) * 60, "burn from the last 30 minutes only");
});

test("a window reset within the 30 minutes: only the readings since count", () => {
  const old = NOW - 12 * MIN;
  const next = old + 300 * MIN;
  const s = [...at(old, [29, 70], [20, 88]), ...at(next, [10, 2], [4, 8], [0, 11])];
  const p = projectWindow(s, NOW);
  assert.is(p.status, "PROJECTED");
  assert.is(p.samples, 3);
  near(p.burnPercentPerHour, ((11 - 2) / 10) * 60, "burn since the reset");
  assert.is(p.resetsAt, next);
  // Just after a reset, one reading of the new window says nothing yet.
  const q = projectWindow([...at(old, [29, 70], [20, 88]), ...at(next, [1, 2])], NOW);
  assert.is(q.status, "WINDOW_RESET");
  assert.is(q.fullAt, null);
  assert.is(q.samples, 1);
});

test("a reset told by a jump of the reset time, with the time crossing no old reset", () => {
  // A weekly window reset early (the provider moved it): the reset time jumps by days.
  const s = [...at(NOW + 10 * MIN, [25, 50], [15, 60]), ...at(NOW + 7 * 24 * 60 * MIN, [10, 1], [8, 1])];
  assert.is(projectWindow(s, NOW).status, "WINDOW_RESET");
  // Codex's reset moving by seconds between lines is the same window.
  const jitter: WindowSample[] = [
    { ts: NOW - 20 * MIN, usedPercent: 20, resetsAt: NOW + 60 * MIN },
    { ts: NOW - 10 * MIN, usedPercent: 25, resetsAt: NOW + 60 * MIN + 1_000 },
    { ts: NOW, usedPercent: 30, resetsAt: NOW + 60 * MIN - 1_000 },
  ];
  const j = projectWindow(jitter, NOW);
  assert.is(j.status, "PROJECTED");
  assert.is(j.samples, 3);
});

test("without reset times a drop in use is a new window", () => {
  const p = projectWindow(at(null, [29, 80], [25, 90], [15, 3], [5, 13]), NOW);
  assert.is(p.status, "PROJECTED");
  near(p.burnPercentPerHour, ((13 - 3) / 10) * 60, "burn");
  assert.is(p.beforeReset, null, "no reset known: no answer");
  assert.is(p.usedPercentAtReset, null);
});

test("too few readings: none, one, or two a minute apart", () => {
  const reset = NOW + 100 * MIN;
  assert.is(projectWindow([], NOW).status, "TOO_FEW_SAMPLES");
  assert.is(projectWindow(at(reset, [3, 50]), NOW).status, "TOO_FEW_SAMPLES");
  const p = projectWindow(at(reset, [3, 50], [2, 60]), NOW);
  assert.is(p.status, "TOO_FEW_SAMPLES");
  assert.is(p.fullAt, null);
  assert.is(p.samples, 2);
});

test("flat or falling use does not fill: no projection, and the rate says why", () => {
  const reset = NOW + 100 * MIN;
  const flat = projectWindow(at(reset, [20, 40], [10, 40], [0, 40]), NOW);
  assert.is(flat.status, "NOT_RISING");
  assert.is(flat.burnPercentPerHour, 0);
  assert.is(flat.fullAt, null);
  const falling = projectWindow(at(reset, [20, 40], [0, 39]), NOW);
  assert.is(falling.status, "NOT_RISING");
  near(falling.burnPercentPerHour, (-1 / 20) * 60, "falling burn");
});

test("a full window, and a window whose reset passed since the newest reading", () => {
  assert.is(projectWindow(at(NOW + 60 * MIN, [20, 90], [0, 100]), NOW).status, "FULL");
  const ended = projectWindow(at(NOW - MIN, [20, 40], [5, 60]), NOW);
  assert.is(ended.status, "WINDOW_RESET");
  assert.is(ended.fullAt, null);
});

test.run();
