// `npm run bench -- --baseline <checkout>`: the pure parts. Rows of the two builds paired by
// metric name (bench/side-by-side.ts), and a child script's imports pointed at where moved
// modules were in the baseline (bench/child.ts rewriteMovedImports).
//   TEST_DIRS=bench node test/run.mjs side-by-side
import { test } from "uvu";
import * as assert from "uvu/assert";
import { rewriteMovedImports } from "./child.js";
import { pairRows, renderSideBySide } from "./side-by-side.js";
import type { Row } from "./suite.js";

const row = (metric: string, value: number, unit = "ms"): Row => ({ metric, value, unit });

test("pairs by metric name: median over each side's rounds, ratio ours / baseline", () => {
  const baseline = [[row("scan", 10), row("rss", 100, "MB")], [row("scan", 14), row("rss", 120, "MB")]];
  const ours = [[row("rss", 90, "MB"), row("scan", 12)], [row("scan", 16), row("rss", 110, "MB")]];
  const paired = pairRows({ baseline, ours });
  // Our order of first appearance.
  assert.equal(
    paired.map((p) => p.metric),
    ["rss", "scan"],
  );
  const scan = paired.find((p) => p.metric === "scan");
  assert.ok(scan);
  // Medians of two rounds: (10 + 14) / 2 and (12 + 16) / 2.
  assert.is(scan.baseline, 12);
  assert.is(scan.ours, 14);
  assert.is(scan.ratio, 14 / 12);
  assert.equal(scan.baselineValues, [10, 14]);
  assert.equal(scan.oursValues, [12, 16]);
  const rss = paired.find((p) => p.metric === "rss");
  assert.is(rss?.ratio, 100 / 110);
});

test("a metric only one side has is kept, without a ratio; ours first, then the baseline's", () => {
  const paired = pairRows({ baseline: [[row("old only", 3), row("both", 2)]], ours: [[row("both", 4), row("new only", 5)]] });
  assert.equal(
    paired.map((p) => [p.metric, p.baseline, p.ours, p.ratio]),
    [
      ["both", 2, 4, 2],
      ["new only", null, 5, null],
      ["old only", 3, null, null],
    ],
  );
});

test("a side whose every run failed has no rows: every metric is the other side's alone", () => {
  const paired = pairRows({ baseline: [], ours: [[row("a", 1)]] });
  assert.equal(
    paired.map((p) => [p.metric, p.baseline, p.ours, p.ratio]),
    [["a", null, 1, null]],
  );
});

test("no ratio across different units, nor against a baseline of 0", () => {
  const paired = pairRows({ baseline: [[row("t", 2, "s"), row("zero", 0, "days")]], ours: [[row("t", 2000, "ms"), row("zero", 1, "days")]] });
  const t = paired.find((p) => p.metric === "t");
  assert.is(t?.ratio, null);
  assert.ok(t?.unitMismatch?.includes("s"));
  assert.is(t?.baselineUnit, "s");
  assert.is(paired.find((p) => p.metric === "zero")?.ratio, null);
});

test("the table: one line per metric with both figures, the ratio and each round", () => {
  const text = renderSideBySide([
    { suite: "scan", baseline: [[row("first scan", 20, "MB/s"), row("gone", 7)]], ours: [[row("first scan", 25, "MB/s")], [row("first scan", 27, "MB/s")]] },
  ]);
  const lines = text.split("\n");
  assert.is(lines.length, 4, text);
  assert.ok(lines[0]?.includes("baseline") && lines[0].includes("ours / baseline"), lines[0]);
  // Ours: the median of 25 and 27; the ratio 26 / 20.
  assert.is(lines[2], "| scan | first scan | 20.0 MB/s | 26.0 MB/s | 1.30x | 20.0; 25.0, 27.0 |");
  assert.is(lines[3], "| scan | gone | 7.00 ms | (this checkout has none) |  | 7.00; – |");
});

test("a metric name holding | does not break the table's columns", () => {
  const text = renderSideBySide([{ suite: "s", baseline: [[row("a | b", 1)]], ours: [[row("a | b", 1)]] }]);
  assert.ok(text.split("\n")[2]?.startsWith("| s | a \\| b |"), text);
});

test("imports of moved modules point where they were at the baseline; the others stay", () => {
  const text = [
    'import { A } from "../shared/providers/openclaw/provider.js";',
    'import { B } from "../shared/ingest/source-registry.js";',
    'import { C } from "./append.js";',
    'const m = await import("../shared/base/log/logger.js");',
    'import { D } from "../shared/providers/gemini-cli/provider.js";',
  ].join("\n");
  const there = new Set(["shared/ingest/source-registry.js", "shared/sources/openclaw/provider.js", "shared/log/logger.js"]);
  const moved = new Map([
    ["shared/providers/openclaw/provider.ts", "shared/sources/openclaw/provider.ts"],
    ["shared/base/log/logger.ts", "shared/log/logger.ts"],
  ]);
  const out = rewriteMovedImports(text, "bench/scan-child.ts", (rel) => there.has(rel), moved).split("\n");
  assert.equal(out, [
    'import { A } from "../shared/sources/openclaw/provider.js";',
    'import { B } from "../shared/ingest/source-registry.js";',
    'import { C } from "./append.js";',
    'const m = await import("../shared/log/logger.js");',
    // Not in the baseline and moved from nowhere: left as is, so loading it fails by its name.
    'import { D } from "../shared/providers/gemini-cli/provider.js";',
  ]);
});

test("a script one folder deeper gets a path relative to itself", () => {
  const out = rewriteMovedImports('import { z } from "../../shared/providers/openclaw/zstd.js";', "bench/synthetic/zstd-batch.ts", () => false, new Map([["shared/providers/openclaw/zstd.ts", "shared/sources/openclaw/zstd.ts"]]));
  assert.is(out, 'import { z } from "../../shared/sources/openclaw/zstd.js";');
});

test.run();
