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

// Intl is the oracle here: formatNumber writes what Intl.NumberFormat writes, without building one
// (loading ICU's locale data costs the status line as much as Node's start).
test("numbers: the same text as Intl.NumberFormat for en-US and zh-CN, rounding included", () => {
  const values = [0, -0, 0.5, 1.5, 2.5, -2.5, 1.45, 1.005, 0.045, 999.995, 1234.5, -0.001, 5e-7, -1e-9, 123456789.987, 1e20, 999999.5];
  // A fixed sequence (no Math.random: a failure must repeat): magnitudes 1e-6 to 1e10, halves included.
  let x = 0x9e3779b9;
  const next = (): number => ((x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
  for (let i = 0; i < 20000; i++) {
    const scale = 10 ** (Math.floor(next() * 16) - 6);
    values.push((next() - 0.3) * scale, Math.round(next() * 1e6) / 1000 + 0.0005, Math.round(next() * 1e5) / 100 + 0.05);
  }
  for (const [locale, tag] of [["en", "en-US"], ["zh", "zh-CN"]] as const) {
    for (const digits of [0, 1, 2, 4]) {
      const intl = new Intl.NumberFormat(tag, { minimumFractionDigits: digits, maximumFractionDigits: digits });
      for (const v of values) assert.is(formatNumber(v, locale, digits), intl.format(v), `${v} with ${digits} decimals (${locale})`);
    }
  }
});

test("numbers: written without building an Intl.NumberFormat", () => {
  const real = Intl.NumberFormat;
  let built = 0;
  Intl.NumberFormat = new Proxy(real, {
    construct(target, args: ConstructorParameters<typeof Intl.NumberFormat>) {
      built++;
      return new target(...args);
    },
  });
  try {
    // Figures and decimals not asked for before in this file, so no cached formatter answers.
    assert.is(formatNumber(7654321.25, "en", 3), "7,654,321.250");
    assert.is(formatNumber(0.5, "zh", 5), "0.50000");
    assert.is(built, 0);
  } finally {
    Intl.NumberFormat = real;
  }
});

test.run();
