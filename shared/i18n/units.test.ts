// The one size and millisecond formatter of the daemon's messages, the card and the dashboard.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { formatMB, formatMs, formatNumber, localeOf } from "./units.js";

test("sizes: one unit per figure, picked by size, in both languages", () => {
  const cases: Array<[number, string]> = [
    [0, "0.0 MB"],
    [8.53, "8.5 MB"],
    [412, "412 MB"],
    [1023.4, "1,023 MB"],
    // Would round to "1,024 MB": a gigabyte reads as one.
    [1023.6, "1.0 GB"],
    [2380, "2.3 GB"],
    [52344, "51.1 GB"],
    [1.5 * 1024 * 1024, "1.5 TB"],
  ];
  for (const [mb, text] of cases) {
    assert.is(formatMB(mb, "en"), text, `${mb} MB`);
    assert.is(formatMB(mb, "zh"), text, `${mb} MB (zh)`);
  }
});

test("milliseconds: a tenth below 10, whole above; Chinese spells the unit", () => {
  assert.is(formatMs(3.4, "en"), "3.4 ms");
  assert.is(formatMs(3, "en"), "3 ms");
  assert.is(formatMs(240, "en"), "240 ms");
  assert.is(formatMs(1250, "en"), "1,250 ms");
  assert.is(formatMs(291, "zh"), "291 毫秒");
});

test("numbers and languages", () => {
  assert.is(formatNumber(52344, "en"), "52,344");
  assert.is(formatNumber(93.46, "zh", 1), "93.5");
  assert.is(localeOf("zh-CN"), "zh");
  assert.is(localeOf("zh-Hant-TW"), "zh");
  assert.is(localeOf("ZH"), "zh");
  assert.is(localeOf("en-US"), "en");
  assert.is(localeOf("zu"), "en");
  assert.is(localeOf(null), "en");
});

test.run();
