// Suite "providers": reading a Claude Code history (~/.claude/projects) and a Codex history
// (~/.codex/sessions) at data scale, next to ccusage, on synthetic data made of the real fixture
// lines (bench/synthetic/claude-code.ts, bench/synthetic/codex.ts; 2 GB and 1 GB, cached under
// .tmp/bench/providers/ by seed and size). Per provider, in one run:
//   - bare read + JSON.parse of every line (streamed, own child process): MB/s and RSS, the floor
//     of a JS reader; and the same with a substring filter (only usage lines parsed);
//   - ccusage daily --json --offline (bench/ccusage.ts): wall and CPU time, peak RSS, its totals;
//   - the independent checker's totals (bench/synthetic/expected-*.ts) against ccusage's and the
//     generator's, day by day: they must agree to the token;
//   - our first scan and `insightsctl usage daily --json` on a warm daemon: bench/providers-hooks.ts
//     (null until the readers are integrated; then the same ratios and the same totals check).
import * as fs from "node:fs";
import * as path from "node:path";
import { CcusageUnavailable, locateCcusage, runCcusage, type CcusageResult } from "./ccusage.js";
import { runChild } from "./child.js";
import { ourFirstScan, ourUsageDaily, type HookInput } from "./providers-hooks.js";
import type { BareInput, BareResult, CheckInput, CheckResult } from "./providers-protocol.js";
import { MB, median } from "./stats.js";
import type { BenchOptions, Measurements, Row, Suite } from "./suite.js";
import { CC_SIZES, ensureClaudeCodeData } from "./synthetic/claude-code.js";
import { CX_SIZES, ensureCodexData } from "./synthetic/codex.js";
import { describeDiff, describeTotals, diffDaily, sumDaily, type Daily } from "./synthetic/daily.js";
import { describeDataset, parseSize, relative, type ProviderDataset, type ProviderKind, type ProviderParams } from "./synthetic/provider-common.js";

const CHECKER_VERSION = 1;
const LABEL: Record<ProviderKind, string> = { "claude-code": "Claude Code", codex: "Codex" };
/** The line marker of a usage line, for the filtered bare read. */
const USAGE_MARKER: Record<ProviderKind, string> = { "claude-code": '"type":"assistant"', codex: '"token_usage_record"' };

function str(flags: BenchOptions["flags"], name: string): string | undefined {
  const v = flags[name];
  return typeof v === "string" ? v : undefined;
}

function positiveInt(flags: BenchOptions["flags"], name: string, fallback: number): number {
  const v = str(flags, name);
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`--${name} must be a positive integer`);
  return n;
}

export function providerParams(o: BenchOptions, kind: ProviderKind): ProviderParams {
  const sizes = kind === "claude-code" ? CC_SIZES : CX_SIZES;
  const size = o.quick ? sizes.quick : sizes.full;
  const p = kind === "claude-code" ? "cc" : "cx";
  return {
    bytes: parseSize(str(o.flags, `${p}-bytes`) ?? String(size.bytes)),
    files: positiveInt(o.flags, `${p}-files`, size.files),
    seed: positiveInt(o.flags, "prov-seed", 1),
  };
}

export function ensureProviderData(o: BenchOptions, kind: ProviderKind): ProviderDataset {
  const opts = { rebuild: o.flags["prov-rebuild"] === true, log: o.log };
  return kind === "claude-code" ? ensureClaudeCodeData(providerParams(o, "claude-code"), opts) : ensureCodexData(providerParams(o, "codex"), opts);
}

/** CLAUDE_CONFIG_DIR / CODEX_HOME of a dataset, and the transcript tree under it. */
function dirsOf(d: ProviderDataset): { root: string; tree: string; home: string } {
  const root = path.join(d.dir, d.manifest.root);
  return { root, tree: path.join(root, d.manifest.kind === "claude-code" ? "projects" : "sessions"), home: path.join(d.dir, d.manifest.home) };
}

/** Reads every file once so the readers compared start from the same warm page cache. */
function warmPageCache(dir: string): void {
  const buf = Buffer.allocUnsafe(8 << 20);
  for (const d of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!d.isFile()) continue;
    const fd = fs.openSync(path.join(d.parentPath, d.name), "r");
    try {
      while (fs.readSync(fd, buf, 0, buf.length, null) > 0);
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** The checker reads the whole dataset: its result is kept beside it (datasets never change). */
async function checkerResult(d: ProviderDataset, log: (m: string) => void): Promise<CheckResult> {
  const file = path.join(d.dir, `checker-v${CHECKER_VERSION}.json`);
  try {
    const cached = JSON.parse(fs.readFileSync(file, "utf8")) as { builtAt: string; result: CheckResult };
    if (cached.builtAt === d.manifest.builtAt) return cached.result;
  } catch {
    // not there yet
  }
  log(`  checking totals independently (${relative(file)})`);
  const result = await runChild<CheckResult>("providers-child.ts", { mode: "check", kind: d.manifest.kind, root: dirsOf(d).root } satisfies CheckInput);
  fs.writeFileSync(file, JSON.stringify({ builtAt: d.manifest.builtAt, result }));
  return result;
}

const rate = (bytes: number, ms: number): number => bytes / MB / (ms / 1000);
const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

export const providersSuite: Suite = {
  name: "providers",
  title: "Claude Code and Codex histories: bare read, ccusage, our scan (hooks), equal totals",
  flags: {
    "prov-only": { type: "string", description: "one provider: claude-code or codex" },
    "cc-bytes": { type: "string", description: "Claude Code history size (default 2g; --quick 50m)" },
    "cc-files": { type: "string", description: "Claude Code transcripts, sub-agents included (default 7000; --quick 170)" },
    "cx-bytes": { type: "string", description: "Codex history size (default 1g; --quick 25m)" },
    "cx-files": { type: "string", description: "Codex rollouts (default 10000; --quick 250)" },
    "prov-seed": { type: "string", description: "generator seed of both histories (default 1)" },
    "prov-repeat": { type: "string", description: "bare read + ccusage pairs, alternating order (default 2; --quick 1)" },
    "prov-rebuild": { type: "boolean", description: "rebuild the cached histories" },
  },

  async setup(o) {
    const only = str(o.flags, "prov-only");
    if (only !== undefined && only !== "claude-code" && only !== "codex") throw new RangeError("--prov-only must be claude-code or codex");
    const kinds: ProviderKind[] = only ? [only] : ["claude-code", "codex"];
    const repeat = positiveInt(o.flags, "prov-repeat", o.quick ? 1 : 2);
    const datasets = kinds.map((k) => ensureProviderData(o, k));
    let ccusage: string;
    try {
      ccusage = `ccusage ${locateCcusage().version} (native binary, run directly; days in UTC)`;
    } catch (err) {
      if (!(err instanceof CcusageUnavailable)) throw err;
      ccusage = `ccusage unavailable: ${err.message}`;
    }
    const context = [
      ...datasets.map((d) => `dataset ${describeDataset(d.manifest)}; ${d.cached ? "cached" : `built now in ${(d.manifest.buildMs / 1000).toFixed(0)} s`}: ${relative(d.dir)}`),
      ccusage,
    ];
    return {
      context,
      async run(): Promise<Row[]> {
        const rows: Row[] = [];
        for (const d of datasets) rows.push(...(await measure(o, d, repeat)));
        return rows;
      },
    } satisfies Measurements;
  },
};

async function measure(o: BenchOptions, d: ProviderDataset, repeat: number): Promise<Row[]> {
  const kind = d.manifest.kind;
  const label = LABEL[kind];
  const { root, tree, home } = dirsOf(d);
  const bytes = d.manifest.bytes;
  o.log(`${label}: warming the page cache`);
  warmPageCache(tree);

  const bareRun = async (filter: string | null, how: BareInput["how"] = "strings"): Promise<BareResult> => {
    const r = await runChild<BareResult>("providers-child.ts", { mode: "bare", dir: tree, filter, how } satisfies BareInput);
    o.log(`  bare read${filter ? ` (${how === "bytes" ? "byte-level " : ""}filtered)` : ""}: ${secs(r.ms)}, ${rate(r.bytes, r.ms).toFixed(0)} MB/s, peak RSS ${r.memory.maxRssMb} MB`);
    return r;
  };
  let ccusageMissing: string | null = null;
  const ccusageRun = async (singleThread = false): Promise<CcusageResult | null> => {
    if (ccusageMissing) return null;
    try {
      const r = await runCcusage(kind, root, { singleThread });
      o.log(`  ${r.command}: ${secs(r.ms)} wall, ${secs(r.cpuMs)} CPU, peak RSS ${r.peakRssMb} MB`);
      return r;
    } catch (err) {
      if (!(err instanceof CcusageUnavailable)) throw err;
      ccusageMissing = err.message;
      return null;
    }
  };

  // Pairs back to back, in alternating order, so a burst of load elsewhere hits both sides.
  const bare: BareResult[] = [];
  const cc: CcusageResult[] = [];
  for (let i = 0; i < repeat; i++) {
    if (i % 2 === 0) {
      bare.push(await bareRun(null));
      const c = await ccusageRun();
      if (c) cc.push(c);
    } else {
      const c = await ccusageRun();
      if (c) cc.push(c);
      bare.push(await bareRun(null));
    }
  }
  const filtered = await bareRun(USAGE_MARKER[kind]);
  const byteFiltered = await bareRun(USAGE_MARKER[kind], "bytes");
  const single = kind === "claude-code" ? await ccusageRun(true) : null;
  const check = await checkerResult(d, o.log);

  const b0 = bare[0] as BareResult;
  const bareMs = median(bare.map((b) => b.ms));
  const runs = (n: number): string => (n > 1 ? `; median of ${n}` : "");
  const rows: Row[] = [
    {
      metric: `${label}: bare read + JSON.parse of every line`,
      value: rate(b0.bytes, bareMs),
      unit: "MB/s",
      note: `${(b0.bytes / MB).toFixed(0)} MB, ${b0.lines} lines in ${b0.files} files, ${secs(bareMs)}${runs(bare.length)}; own child process, 1 MB reads`,
    },
    {
      metric: `${label}: bare reader peak RSS`,
      value: b0.memory.maxRssMb,
      unit: "MB",
      note: `${b0.baseline.rssMb} MB before reading; V8 heap peaked at ${b0.peaks.heapUsedMb} MB used / ${b0.peaks.heapTotalMb} MB reserved (the biggest lines are ${kind === "claude-code" ? "110 KB" : "25 KB"})`,
    },
    {
      metric: `${label}: bare read, JSON.parse of usage lines only`,
      value: rate(filtered.bytes, filtered.ms),
      unit: "MB/s",
      note: `lines holding ${USAGE_MARKER[kind]}: ${filtered.parsed} of ${filtered.lines} parsed, ${secs(filtered.ms)}, peak RSS ${filtered.memory.maxRssMb} MB; every line is still decoded to a string and searched`,
    },
    {
      metric: `${label}: bare read, marker found in the raw bytes, only usage lines decoded + parsed`,
      value: rate(byteFiltered.bytes, byteFiltered.ms),
      unit: "MB/s",
      note: `${byteFiltered.parsed} lines parsed, ${secs(byteFiltered.ms)}, peak RSS ${byteFiltered.memory.maxRssMb} MB: what a reader that never decodes the big lines can reach`,
    },
  ];

  const checkDaily: Daily = check.check.daily;
  const gen = diffDaily(d.manifest.expected, checkDaily);
  const genRow: Row = {
    metric: `${label}: days where the checker and the generator differ`,
    value: gen.length,
    unit: "days",
    aim: { op: "<=", limit: 0 },
    note: describeDiff(gen, checkDaily.length, ["generator", "checker"]) || `${checkDaily.length} days agree; totals ${describeTotals(sumDaily(checkDaily))}; checker took ${secs(check.ms)}`,
  };
  rows.push(genRow);
  if (check.kind === "codex") {
    const c = check.check;
    const rules = diffDaily(c.daily, c.dailyByTokenCount);
    rows.push({
      metric: "Codex: rollouts whose token_count totals disagree with their token_usage_record lines",
      value: c.inconsistentFiles.length,
      unit: "files",
      aim: { op: "<=", limit: 0 },
      note: `${c.records} records, ${c.tokenCountLines} token_count lines (${c.unchangedTokenCounts} repeats, ${c.nullInfoTokenCounts} with info: null); per day, record rule vs token_count-delta rule: ${rules.length ? describeDiff(rules, c.daily.length, ["records", "token_count"]) : "equal"}`,
    });
  } else {
    const c = check.check;
    genRow.note += `; ${c.responses} responses from ${c.assistantLines} assistant lines (${c.repeatedLines} repeats of a counted message.id + requestId, ${c.syntheticLines} <synthetic>)`;
  }

  const ccMs = cc.length ? median(cc.map((c) => c.ms)) : Number.NaN;
  const c0 = cc[0];
  if (c0) {
    rows.push(
      {
        metric: `${label}: ${c0.command}`,
        value: ccMs / 1000,
        unit: "s",
        note: `${rate(bytes, ccMs).toFixed(0)} MB/s equivalent; CPU ${secs(median(cc.map((c) => c.cpuMs)))} (user + sys, several threads)${runs(cc.length)}; ${c0.measuredBy}`,
      },
      { metric: `${label}: ccusage peak RSS`, value: c0.peakRssMb, unit: "MB", note: c0.measuredBy },
    );
    if (single) rows.push({ metric: `${label}: ccusage ... --single-thread`, value: single.ms / 1000, unit: "s", note: `CPU ${secs(single.cpuMs)}, peak RSS ${single.peakRssMb} MB` });
    const ratios = bare.slice(0, cc.length).map((b, i) => b.ms / (cc[i] as CcusageResult).ms);
    rows.push({ metric: `${label}: bare read time / ccusage time`, value: median(ratios), unit: "x", note: `per back-to-back pair: ${ratios.map((r) => r.toFixed(2)).join(", ")}` });
    const diff = diffDaily(checkDaily, c0.daily);
    rows.push({
      metric: `${label}: days where ccusage and the checker differ`,
      value: diff.length,
      unit: "days",
      aim: { op: "<=", limit: 0 },
      note: describeDiff(diff, checkDaily.length, ["checker", "ccusage"]) || `${c0.daily.length} days, to the token; ccusage totals ${describeTotals(sumDaily(c0.daily))}`,
    });
  } else {
    o.log(`${label}: ${ccusageMissing ?? "ccusage did not run"}`);
  }

  // The integrator's hooks.
  const hook: HookInput = { kind, dataset: d, root, home, bytes, log: o.log };
  const scan = await ourFirstScan(hook);
  if (scan) {
    rows.push({ metric: `${label}: our first scan`, value: rate(bytes, scan.ms), unit: "MB/s", note: `${secs(scan.ms)}${scan.peakRssMb !== undefined ? `, peak RSS ${scan.peakRssMb} MB` : ""}${scan.note ? `; ${scan.note}` : ""}` });
    rows.push({ metric: `${label}: our first scan / bare read time`, value: scan.ms / bareMs, unit: "x", note: "same run, same warm page cache" });
    if (c0) rows.push({ metric: `${label}: our first scan / ccusage time`, value: scan.ms / ccMs, unit: "x" });
  }
  const daily = await ourUsageDaily(hook);
  if (daily) {
    rows.push({ metric: `${label}: insightsctl usage daily --json (warm daemon)`, value: daily.ms, unit: "ms", note: daily.note });
    const vsCheck = diffDaily(checkDaily, daily.daily);
    rows.push({ metric: `${label}: days where insightsctl and the checker differ`, value: vsCheck.length, unit: "days", aim: { op: "<=", limit: 0 }, note: describeDiff(vsCheck, checkDaily.length, ["checker", "insightsctl"]) || "equal, to the token" });
    if (c0) {
      const vsCc = diffDaily(c0.daily, daily.daily);
      rows.push({ metric: `${label}: days where insightsctl and ccusage differ`, value: vsCc.length, unit: "days", aim: { op: "<=", limit: 0 }, note: describeDiff(vsCc, c0.daily.length, ["ccusage", "insightsctl"]) || "equal, to the token" });
    }
  }
  if (!scan || !daily) {
    // Said under the first figure (the context lines are printed before the run).
    const missing = `${[!scan ? "our first scan" : "", !daily ? "insightsctl usage daily" : ""].filter(Boolean).join(" and ")}: not wired yet (bench/providers-hooks.ts)`;
    o.log(`${label}: ${missing}`);
    const first = rows[0] as Row;
    first.note = `${first.note ?? ""}; ${missing}`;
  }
  return rows;
}
