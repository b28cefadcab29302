// The export's CSV: RFC 4180 quoting of text from provider files, and no cell a spreadsheet would
// run as a formula; the parameters are checked like the usage report's.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InsightsError } from "../base/errors.js";
import { EXPORT_COLUMNS, EXPORT_KEY, exportCsv, parseExportParams, type ExportReport, type ExportRow } from "./export.js";

const row = (project: string, model = "gpt-5-codex"): ExportRow => ({
  host: "box",
  date: "2026-11-23",
  provider: "codex",
  source: "codex:default",
  model,
  project,
  timeZone: "UTC",
  inputTokens: 1,
  outputTokens: 2,
  cacheWriteTokens: 3,
  cacheReadTokens: 4,
  reasoningTokens: 1,
  totalTokens: 10,
  responses: 1,
  unpricedResponses: 0,
  costUsd: 0.5,
});

const report = (rows: ExportRow[]): ExportReport => ({ schemaVersion: 1, host: "box", timeZone: "UTC", since: "2026-11-01", until: null, provider: null, currency: "USD", exportedAt: "2026-11-24T00:00:00.000Z", demo: false, scanComplete: true, key: EXPORT_KEY, rows });

test("CSV: header, CRLF, quoting of commas, quotes and line breaks; formulas defused", () => {
  const csv = exportCsv(report([row("/home/op/a,b"), row('/home/op/"q"'), row("/home/op/line\nbreak"), row("=HYPERLINK(\"http://x\")"), row("/ok", "@model"), row("-2+3")]));
  const lines = csv.split("\r\n");
  assert.is(lines[0], EXPORT_COLUMNS.join(","));
  assert.is(lines[lines.length - 1], "", "ends with CRLF");
  assert.ok(csv.includes(',"/home/op/a,b",'));
  assert.ok(csv.includes(',"/home/op/""q""",'));
  assert.ok(csv.includes(',"/home/op/line\nbreak",'));
  assert.ok(csv.includes(`,"'=HYPERLINK(""http://x"")",`), "a formula is shown as text");
  assert.ok(csv.includes(",'@model,"));
  assert.ok(csv.includes(",'-2+3,"));
  assert.not.match(csv, /,[=+@-]/, "no field starts a formula");
});

test("params: --since required, days real, zones known, unknown keys and types refused", () => {
  assert.equal(parseExportParams({ since: "20261101", until: "2026-11-30", provider: "PROVIDER_C" }, "UTC"), { since: "2026-11-01", until: "2026-11-30", timeZone: "UTC", provider: "codex" });
  for (const [raw, message] of [
    [{}, /--since is required/],
    [{ since: "2026-13-01" }, /invalid --since/],
    [{ since: 20261101 }, /--since must be a string/],
    [{ since: "2026-11-01", timeZone: "Nowhere/City" }, /invalid --timezone/],
    [{ since: "2026-11-01", breakdown: true }, /unknown export parameter "breakdown"/],
  ] as Array<[Record<string, unknown>, RegExp]>) {
    try {
      parseExportParams(raw, "UTC");
      assert.unreachable(JSON.stringify(raw));
    } catch (err) {
      assert.instance(err, InsightsError);
      assert.is((err as InsightsError).code, "INVALID_PARAM");
      assert.match((err as Error).message, message);
    }
  }
});

test.run();
