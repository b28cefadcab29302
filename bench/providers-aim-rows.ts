// The rows of issue 23's first-read aims (bench/providers-aims.ts measures them): our first scan
// and a no-daemon first `usage` against ccusage's native binary and a warm `cat` of the same
// files, the no-daemon run's memory and totals, and the longest stall beside a CPU-bound process.
import type { CcusageResult } from "./ccusage.js";
import type { UsageDailyRun } from "./providers-hooks.js";
import type { ScanResult } from "./providers-protocol.js";
import { MB, median } from "./stats.js";
import type { Row } from "./suite.js";
import { describeDiff, diffDaily, type Daily } from "./synthetic/daily.js";

export interface FirstReadRuns {
  /** Our first scans, one per round (time figures). */
  scans: ScanResult[];
  /** One more first scan, with a CPU-bound process beside it (the stall aim). */
  busy: ScanResult;
  /** Warm `cat` of the same files, ms, one per round. */
  cats: number[];
  cc: CcusageResult[];
  /** `insightsctl usage daily --json` with no daemon and an empty store, one per round. */
  firstUsage: UsageDailyRun[];
  checkDaily: Daily;
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const list = (xs: number[]): string => xs.map((m) => (m / 1000).toFixed(2)).join(", ");

export function firstReadRows(label: string, bytes: number, r: FirstReadRuns): Row[] {
  const scanMs = median(r.scans.map((s) => s.ms));
  const catMs = median(r.cats);
  const usageMs = median(r.firstUsage.map((u) => u.ms));
  const rows: Row[] = [
    {
      metric: `${label}: warm cat of the same files (the floor of any reader)`,
      value: catMs / 1000,
      unit: "s",
      note: `${(bytes / MB / (catMs / 1000)).toFixed(0)} MB/s; find | xargs cat > /dev/null as one process tree; runs ${list(r.cats)} s`,
    },
    {
      metric: `${label}: our first scan time / warm cat time`,
      value: scanMs / catMs,
      unit: "x",
      aim: { op: "<=", limit: 3 },
      note: `medians ${secs(scanMs)} and ${secs(catMs)}`,
    },
  ];
  if (r.cc.length) {
    const ccMs = median(r.cc.map((c) => c.ms));
    rows.push({
      metric: `${label}: our first scan time / ccusage daily time (aim: no slower than ccusage's native binary)`,
      value: scanMs / ccMs,
      unit: "x",
      aim: { op: "<=", limit: 1 },
      note: `medians ${secs(scanMs)} and ${secs(ccMs)}; our scan also writes every response into the store, ccusage keeps nothing`,
    });
    rows.push({
      metric: `${label}: insightsctl usage daily --json, no daemon, empty store, time / ccusage daily time`,
      value: usageMs / ccMs,
      unit: "x",
      aim: { op: "<=", limit: 1 },
      note: `medians ${secs(usageMs)} (${list(r.firstUsage.map((u) => u.ms))} s; its CPU ${secs(median(r.firstUsage.map((u) => u.cpuMs)))}) and ${secs(ccMs)}; whole processes`,
    });
  }
  const u0 = r.firstUsage[0];
  rows.push(
    {
      metric: `${label}: insightsctl usage daily --json, no daemon, empty store, time / warm cat time`,
      value: usageMs / catMs,
      unit: "x",
      aim: { op: "<=", limit: 3 },
      note: `medians ${secs(usageMs)} and ${secs(catMs)}`,
    },
    {
      metric: `${label}: peak RSS of insightsctl usage daily --json, no daemon, empty store`,
      value: Math.max(...r.firstUsage.map((u) => u.peakRssMb)),
      unit: "MB",
      aim: { op: "<=", limit: 150 },
      note: u0 ? u0.measuredBy : "",
    },
  );
  if (u0) {
    const diffs = r.firstUsage.map((u) => describeDiff(diffDaily(r.checkDaily, u.daily), r.checkDaily.length, ["checker", "insightsctl (no daemon)"]));
    const bad = diffs.filter((d) => d !== "");
    rows.push({
      metric: `${label}: no-daemon insightsctl runs whose days differ from the checker's`,
      value: bad.length,
      unit: "runs",
      aim: { op: "<=", limit: 0 },
      note: bad[0] ?? `${r.firstUsage.length} runs, every day to the token, scanComplete true, exit 0; ${u0.responses} responses`,
    });
  }
  rows.push({
    metric: `${label}: longest event-loop stall during our first scan, a CPU-bound process beside it`,
    value: r.busy.maxStallMs,
    unit: "ms",
    aim: { op: "<=", limit: 100 },
    note: `monitorEventLoopDelay max with node -e 'for(;;){}' running (2 cores: our main thread shares a core); a 10 ms timer was late by at most ${r.busy.maxTimerDriftMs.toFixed(0)} ms; that scan took ${secs(r.busy.ms)}`,
  });
  return rows;
}
