import { test } from "uvu";
import * as assert from "uvu/assert";
import { formatClock, formatDate, formatDateTime, formatDuration, formatDurationMs, formatMB, formatMs, formatPercent, formatRangeLabel, formatRelative, formatUsd, formatZone } from "./format.js";
import { tn } from "./messages.js";

test("money, percent, sizes", () => {
  // The shared rule (shared/i18n/numbers.test.ts has its boundaries): a fraction of a cent is shown.
  assert.is(formatUsd(0, "en"), "$0.00");
  assert.is(formatUsd(0.001, "en"), "$0.0010");
  assert.is(formatUsd(3.456, "zh"), "$3.46");
  assert.is(formatUsd(12_345.6, "en"), "$12,346");
  assert.is(formatPercent(99.84, "en"), "99.8%");
  assert.is(formatPercent(100, "zh"), "100%");
  assert.is(formatMB(512, "en"), "512 MB");
  assert.is(formatMB(2_380, "en"), "2.3 GB");
  // The unit and decimals the dashboard and the daemon's messages use for the same figure.
  assert.is(formatMB(52_344, "zh"), "51.1 GB");
  assert.is(formatMB(2_048, "en"), "2.0 GB");
  assert.is(formatMs(84, "zh"), "84 毫秒");
});

test("run times: under a second in milliseconds, never 0s", () => {
  assert.is(formatDurationMs(291, "en"), "291 ms");
  assert.is(formatDurationMs(291, "zh"), "291 毫秒");
  assert.is(formatDurationMs(0, "en"), "0 ms");
  assert.is(formatDurationMs(999.6, "en"), "1.0s");
  assert.is(formatDurationMs(3_200, "en"), "3.2s");
  assert.is(formatDurationMs(48_000, "zh"), "48秒");
  assert.is(formatDurationMs(3_700_000, "en"), "1h 1m");
});

test("counted phrases follow the language's plural rule", () => {
  assert.is(tn("en", "sessions.turns", 1), "1 turn");
  assert.is(tn("en", "sessions.turns", 0), "0 turns");
  assert.is(tn("en", "sessions.turns", 12_345), "12,345 turns");
  assert.is(tn("en", "sessions.subAgents", 1), "1 sub-agent");
  assert.is(tn("en", "cron.errorsInRow", 1), "1 failure in a row");
  assert.is(tn("zh", "sessions.turns", 1), "1 轮");
  assert.is(tn("zh", "cron.errorsInRow", 3), "连续失败 3 次");
});

test("durations and ranges per language", () => {
  assert.is(formatDuration(0, "en"), "0s");
  assert.is(formatDuration(3 * 86400 + 4 * 3600 + 17 * 60, "en"), "3d 4h");
  assert.is(formatDuration(3 * 86400 + 4 * 3600, "zh"), "3天4小时");
  assert.is(formatDuration(3_700, "en"), "1h 1m");
  assert.is(formatRangeLabel("30m", "en"), "30m");
  assert.is(formatRangeLabel("24h", "zh"), "24 小时");
});

test("dates in the card's zone, words from the catalog", () => {
  const at = Date.UTC(2026, 2, 14, 14, 32);
  assert.is(formatDateTime(at, "en", "UTC"), "Mar 14, 14:32");
  assert.is(formatDateTime(at, "zh", "Asia/Shanghai"), "3月14日 22:32");
  assert.is(formatDate(at, "zh", "UTC"), "3月14日");
  assert.is(formatClock(at, "America/New_York"), "10:32");
  assert.is(formatZone(at, "UTC"), "UTC");
  assert.is(formatZone(at, "Asia/Shanghai"), "GMT+8");
  assert.is(formatZone(at, "Asia/Kolkata"), "GMT+5:30");
  assert.is(formatZone(Date.UTC(2026, 0, 10), "Europe/London"), "UTC");
  assert.is(formatRelative(at - 5 * 60_000, at, "en"), "5m ago");
  assert.is(formatRelative(at + 5 * 3_600_000, at, "zh"), "5小时后");
  assert.is(formatRelative(at, at, "zh"), "刚刚");
});

test.run();
