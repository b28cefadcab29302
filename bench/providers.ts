// Suite "providers": reading a Claude Code history (~/.claude/projects), a Codex history
// (~/.codex/sessions) and a Gemini CLI history (~/.gemini/tmp) at data scale, next to ccusage, on
// synthetic data made of the real fixture lines or, for Gemini CLI, of the records its demo writer
// builds (bench/synthetic/claude-code.ts, codex.ts, gemini-cli.ts; 2 GB, 1 GB and 500 MB, cached
// under .tmp/bench/providers/ by seed and size). ccusage reads no Gemini CLI history: there, the
// rows that compare with it are left out. Per provider, in one run:
//   - bare read + JSON.parse of every line (streamed, own child process): MB/s and RSS, the floor
//     of a JS reader; and the same with a substring filter (only usage lines parsed);
//   - ccusage daily --json --offline (bench/ccusage.ts): wall and CPU time, peak RSS, its totals;
//   - the independent checker's totals (bench/synthetic/expected-*.ts) against ccusage's and the
//     generator's, day by day: they must agree to the token;
//   - our first scan (bench/providers-hooks.ts, providers-scan-child.ts), in the same back-to-back
//     triples as the bare read and ccusage: MB/s and its ratio to the bare read, peak RSS, the
//     longest event-loop stall; each against its aim;
//   - `insightsctl usage daily --json` on a warm daemon (bench/providers-hooks.ts) in pairs with
//     ccusage: the time ratio against its aim, and its totals against the checker's and ccusage's.
import * as fs from "node:fs";
import * as path from "node:path";
import { CcusageUnavailable, locateCcusage, runCcusage, type CcusageResult } from "./ccusage.js";
import { runChild } from "./child.js";
import { newProfileDir } from "./paths.js";
import { formatSummary, summarize, summarizeWindows } from "./profile-summary.js";
import { besideSpinner, noDaemonUsage, warmCatMs } from "./providers-aims.js";
import { nodeFloorMs, ourFirstScan, startOurDaemon, type HookInput, type UsageDailyRun } from "./providers-hooks.js";
import { firstReadRows } from "./providers-aim-rows.js";
import type { BareInput, BareResult, CheckInput, CheckResult, IncrementalRun, ScanResult } from "./providers-protocol.js";
import { MB, median } from "./stats.js";
import type { BenchOptions, Measurements, Row, Suite } from "./suite.js";
import { CC_SIZES, ensureClaudeCodeData } from "./synthetic/claude-code.js";
import { CX_SIZES, ensureCodexData } from "./synthetic/codex.js";
import { ensureGeminiCliData, GM_SIZES } from "./synthetic/gemini-cli.js";
import { describeDiff, describeTotals, diffDaily, sumDaily, type Daily } from "./synthetic/daily.js";
import { describeDataset, parseSize, relative, type ProviderDataset, type ProviderKind, type ProviderParams } from "./synthetic/provider-common.js";

const CHECKER_VERSION = 1;
const LABEL: Record<ProviderKind, string> = { "claude-code": "Claude Code", codex: "Codex", "gemini-cli": "Gemini CLI" };
const KINDS: readonly ProviderKind[] = ["claude-code", "codex", "gemini-cli"];
/** The line marker of a usage line, for the filtered bare read. */
const USAGE_MARKER: Record<ProviderKind, string> = { "claude-code": '"type":"assistant"', codex: '"token_usage_record"', "gemini-cli": '"tokens":{' };
/** Each provider's sizes and the prefix of its size flags. */
const SIZES = { "claude-code": { sizes: CC_SIZES, flag: "cc" }, codex: { sizes: CX_SIZES, flag: "cx" }, "gemini-cli": { sizes: GM_SIZES, flag: "gm" } } as const;
/** Where each provider keeps its transcripts under its root dir. */
const TREE: Record<ProviderKind, string> = { "claude-code": "projects", codex: "sessions", "gemini-cli": "tmp" };
/** What the bare reader's biggest lines are, for its memory note. */
const BIGGEST: Record<ProviderKind, string> = { "claude-code": "the biggest lines are 110 KB", codex: "the biggest lines are 25 KB", "gemini-cli": "the biggest lines are the resumes' $set.messages re-listings" };

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
  const { sizes, flag: p } = SIZES[kind];
  const size = o.quick ? sizes.quick : sizes.full;
  return {
    bytes: parseSize(str(o.flags, `${p}-bytes`) ?? String(size.bytes)),
    files: positiveInt(o.flags, `${p}-files`, size.files),
    seed: positiveInt(o.flags, "prov-seed", 1),
  };
}

export function ensureProviderData(o: BenchOptions, kind: ProviderKind): ProviderDataset {
  const opts = { rebuild: o.flags["prov-rebuild"] === true, log: o.log };
  const params = providerParams(o, kind);
  return kind === "claude-code" ? ensureClaudeCodeData(params, opts) : kind === "codex" ? ensureCodexData(params, opts) : ensureGeminiCliData(params, opts);
}

/** CLAUDE_CONFIG_DIR / CODEX_HOME / .gemini of a dataset, and the transcript tree under it. */
function dirsOf(d: ProviderDataset): { root: string; tree: string; home: string } {
  const root = path.join(d.dir, d.manifest.root);
  return { root, tree: path.join(root, TREE[d.manifest.kind]), home: path.join(d.dir, d.manifest.home) };
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
  title: "Claude Code, Codex and Gemini CLI histories: our first scan and usage report next to a bare read and ccusage, equal totals",
  flags: {
    "prov-only": { type: "string", description: "one provider: claude-code, codex or gemini-cli" },
    "cc-bytes": { type: "string", description: "Claude Code history size (default 2g; --quick 50m)" },
    "cc-files": { type: "string", description: "Claude Code transcripts, sub-agents included (default 7000; --quick 170)" },
    "cx-bytes": { type: "string", description: "Codex history size (default 1g; --quick 25m)" },
    "cx-files": { type: "string", description: "Codex rollouts (default 10000; --quick 250)" },
    "gm-bytes": { type: "string", description: "Gemini CLI history size (default 500m; --quick 12.5m)" },
    "gm-files": { type: "string", description: "Gemini CLI main sessions (default 5000; --quick 125)" },
    "prov-seed": { type: "string", description: "generator seed of the histories (default 1)" },
    "prov-repeat": { type: "string", description: "rounds of bare read, ccusage, our first scan, warm cat and a no-daemon usage run, alternating order (default 2; --quick 1)" },
    "prov-usage-reps": { type: "string", description: "insightsctl usage daily + ccusage daily pairs on a warm daemon (default 5; --quick 3)" },
    "prov-rebuild": { type: "boolean", description: "rebuild the cached histories" },
  },

  async setup(o) {
    const only = str(o.flags, "prov-only");
    const one = KINDS.find((k) => k === only);
    if (only !== undefined && one === undefined) throw new RangeError(`--prov-only must be one of ${KINDS.join(", ")}`);
    const kinds: readonly ProviderKind[] = one ? [one] : KINDS;
    const repeat = positiveInt(o.flags, "prov-repeat", o.quick ? 1 : 2);
    const usageReps = positiveInt(o.flags, "prov-usage-reps", o.quick ? 3 : 5);
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
        for (const d of datasets) rows.push(...(await measure(o, d, repeat, usageReps)));
        return rows;
      },
    } satisfies Measurements;
  },
};

async function measure(o: BenchOptions, d: ProviderDataset, repeat: number, usageReps: number): Promise<Row[]> {
  const kind = d.manifest.kind;
  const label = LABEL[kind];
  const { root, tree, home } = dirsOf(d);
  const bytes = d.manifest.bytes;
  const hook: HookInput = { kind, dataset: d, root, home, bytes, keep: o.flags.keep === true, build: o.build, log: o.log };
  o.log(`${label}: warming the page cache`);
  warmPageCache(tree);

  const bareRun = async (filter: string | null, how: BareInput["how"] = "strings"): Promise<BareResult> => {
    const r = await runChild<BareResult>("providers-child.ts", { mode: "bare", dir: tree, filter, how } satisfies BareInput);
    o.log(`  bare read${filter ? ` (${how === "bytes" ? "byte-level " : ""}filtered)` : ""}: ${secs(r.ms)}, ${rate(r.bytes, r.ms).toFixed(0)} MB/s, peak RSS ${r.memory.maxRssMb} MB`);
    return r;
  };
  let ccusageMissing: string | null = kind === "gemini-cli" ? "ccusage 20 has no Gemini CLI report" : null;
  const ccusageRun = async (singleThread = false): Promise<CcusageResult | null> => {
    if (ccusageMissing || kind === "gemini-cli") return null;
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
  const scanRun = async (profileDir: string | null = null, incrementalReps = 0): Promise<ScanResult> => {
    const r = await ourFirstScan(hook, { idleRefreshes: profileDir ? 0 : 5, profileDir, incrementalReps });
    o.log(
      `  our first scan${profileDir ? " (profiled, not a figure)" : ""}: ${secs(r.ms)}, ${rate(bytes, r.ms).toFixed(0)} MB/s, peak RSS ${r.hwmMb} MB, longest stall ${r.maxStallMs.toFixed(0)} ms, ${r.usageRows} usage rows, ${r.warnings} warnings`,
    );
    if (!r.firstPassDone) throw new Error(`our first scan of ${root} did not finish (${r.refreshes} refreshes, ${r.sources} sources)`);
    return r;
  };

  // Rounds back to back, in alternating order, so a burst of load elsewhere hits every side.
  const bare: BareResult[] = [];
  const cc: CcusageResult[] = [];
  const scans: ScanResult[] = [];
  const cats: number[] = [];
  const firstUsage: UsageDailyRun[] = [];
  for (let i = 0; i < repeat; i++) {
    const steps: Array<() => Promise<void>> = [
      async () => void bare.push(await bareRun(null)),
      async () => {
        const c = await ccusageRun();
        if (c) cc.push(c);
      },
      // The first scan also times appended lines (in a hard-linked mirror of the dataset).
      async () => void scans.push(await scanRun(null, scans.length === 0 ? INCREMENTAL_REPS : 0)),
      async () => {
        const ms = await warmCatMs(tree);
        o.log(`  warm cat: ${secs(ms)}, ${rate(bytes, ms).toFixed(0)} MB/s`);
        cats.push(ms);
      },
      async () => {
        const r = await noDaemonUsage(hook);
        o.log(`  insightsctl usage daily --json, no daemon, empty store: ${secs(r.ms)} wall, ${secs(r.cpuMs)} CPU, peak RSS ${r.peakRssMb} MB`);
        firstUsage.push(r);
      },
    ];
    for (const step of i % 2 === 0 ? steps : steps.reverse()) await step();
  }
  // The stall aim holds on a busy machine: one more scan with a CPU-bound process beside it.
  o.log("  our first scan beside a CPU-bound process (node -e 'for(;;){}'):");
  const busy = await besideSpinner(() => scanRun(null, 0));
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
      note: `${b0.baseline.rssMb} MB before reading; V8 heap peaked at ${b0.peaks.heapUsedMb} MB used / ${b0.peaks.heapTotalMb} MB reserved (${BIGGEST[kind]})`,
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
  } else if (check.kind === "gemini-cli") {
    const c = check.check;
    genRow.note += `; ${c.responses} responses (${c.repeatedRecords} more lines repeat a counted gemini record id: tool rounds)`;
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
    // Codex: ccusage takes token_count deltas; where a response's record and its token_count fall on
    // either side of midnight UTC, that rule dates it a day later than the record rule.
    const byTokenCount = check.kind === "codex" ? diffDaily(check.check.dailyByTokenCount, c0.daily) : null;
    rows.push({
      metric: `${label}: days where ccusage and the checker differ`,
      value: diff.length,
      unit: "days",
      aim: { op: "<=", limit: 0 },
      note:
        (describeDiff(diff, checkDaily.length, ["checker", "ccusage"]) || `${c0.daily.length} days, to the token; ccusage totals ${describeTotals(sumDaily(c0.daily))}`) +
        (byTokenCount ? `; against the checker's token_count-delta rule (ccusage's): ${byTokenCount.length ? describeDiff(byTokenCount, checkDaily.length, ["checker (token_count rule)", "ccusage"]) : "equal, to the token"}` : ""),
    });
  } else {
    o.log(`${label}: ${ccusageMissing ?? "ccusage did not run"}`);
  }

  rows.push(...scanRows(label, bytes, scans, bare, cc));
  rows.push(...firstReadRows(label, bytes, { scans, busy, cats, cc, firstUsage, checkDaily }));
  if (o.flags.profile === true) {
    const dir = newProfileDir();
    const r = await scanRun(dir);
    const scanProfile = r.profiles[0];
    const stalls = scanProfile && r.stallWindows.length ? `\n\nthe longest event-loop stalls of the profiled scan:\n${summarizeWindows(scanProfile, r.stallWindows.slice(0, 3))}` : "";
    const text = r.profiles.map((f) => formatSummary(path.basename(f), summarize(f, 25))).join("\n\n") + stalls;
    fs.writeFileSync(path.join(dir, `${kind}-summary.txt`), `${text}\n`);
    o.log(`${text}\n(profile and ${kind}-summary.txt in ${relative(dir)}; open the .cpuprofile in Chrome DevTools for the tree)`);
  }

  rows.push(...(await usageRows(o, hook, label, usageReps, check, ccusageMissing === null ? ccusageRun : null)));
  return rows;
}

const fmtMs = (ms: number): string => `${ms.toFixed(0)} ms`;

/** How the longest late stretch of the timer splits: our CPU, waiting for a core, blocked. */
function splitOf(scans: ScanResult[]): string {
  const w = scans
    .flatMap((s) => s.stallWindows)
    .sort((a, b) => b.endUs - b.startUs - (a.endUs - a.startUs))[0];
  if (!w || w.cpuMs === null || w.waitMs === null) return "";
  const ms = (w.endUs - w.startUs) / 1000;
  return `; the longest late stretch (${ms.toFixed(0)} ms): ${w.cpuMs.toFixed(0)} ms of our work on the CPU, ${w.waitMs.toFixed(0)} ms waiting for a core, ${Math.max(0, ms - w.cpuMs - w.waitMs).toFixed(0)} ms blocked (I/O, e.g. the store's fsync)`;
}

/** Our first scan next to the bare read (same triples) and ccusage. */
/** Appended-line pairs (hinted, full) timed after the first scan. */
const INCREMENTAL_REPS = 10;

function scanRows(label: string, bytes: number, scans: ScanResult[], bare: BareResult[], cc: CcusageResult[]): Row[] {
  const s0 = scans[0] as ScanResult;
  const scanMs = median(scans.map((s) => s.ms));
  const runs = scans.length > 1 ? `; median of ${scans.length}` : "";
  const ratios = scans.map((s, i) => (bare[i] as BareResult).ms / s.ms);
  const peak = Math.max(...scans.map((s) => s.hwmMb ?? s.scanPeaks.rssMb));
  const worst = scans.reduce((a, s) => ((s.hwmMb ?? 0) > (a.hwmMb ?? 0) ? s : a), s0);
  const stall = Math.max(...scans.map((s) => s.maxStallMs));
  const idle = scans.flatMap((s) => s.idleRefreshMs);
  const rows: Row[] = [
    {
      metric: `${label}: our first scan (fresh store, refresh until firstPassDone)`,
      value: rate(bytes, scanMs),
      unit: "MB/s",
      note: `${secs(scanMs)}${runs}; ${s0.transcripts} transcripts, ${s0.usageRows} responses stored, ${s0.warnings} warnings, ${s0.refreshes} refresh(es); store ${(s0.storeBytes / MB).toFixed(0)} MB; own child process`,
    },
    {
      metric: `${label}: our first scan throughput / bare read + JSON.parse throughput`,
      value: median(ratios),
      unit: "x",
      aim: { op: ">=", limit: 0.5 },
      note: `per back-to-back pair: ${ratios.map((r) => r.toFixed(2)).join(", ")}; same warm page cache`,
    },
    {
      metric: `${label}: peak RSS during our first scan`,
      value: peak,
      unit: "MB",
      aim: { op: "<=", limit: 150 },
      note: `kernel VmHWM of the scanning process, highest of ${scans.length}; ${worst.baseline.rssMb} MB before reading; sampled: V8 heap ${worst.scanPeaks.heapUsedMb} used / ${worst.scanPeaks.heapTotalMb} MB reserved, external ${worst.scanPeaks.externalMb} MB; after the scan ${worst.afterScan.rssAnonMb ?? "?"} MB anonymous + ${worst.afterScan.rssFileMb ?? "?"} MB mapped files; the bare reader peaked at ${Math.max(...bare.map((b) => b.memory.maxRssMb))} MB`,
    },
    {
      metric: `${label}: longest event-loop stall during our first scan`,
      value: stall,
      unit: "ms",
      aim: { op: "<=", limit: 100 },
      note: `monitorEventLoopDelay max, highest of ${scans.length} (${scans.map((s) => s.maxStallMs.toFixed(0)).join(", ")}); a 10 ms timer was late by at most ${Math.max(...scans.map((s) => s.maxTimerDriftMs)).toFixed(0)} ms${splitOf(scans)}`,
    },
  ];
  const cpuStalls = scans.map((s) => s.maxStallCpuMs).filter((v): v is number => v !== null);
  if (cpuStalls.length)
    rows.push({
      metric: `${label}: longest stretch of our own work between two turns of the event loop`,
      value: Math.max(...cpuStalls),
      unit: "ms",
      note: `main-thread CPU time between two ticks of a 10 ms timer (/proc/thread-self/schedstat), highest of ${cpuStalls.length}: the stall an idle machine would see`,
    });
  rows.push(
    {
      metric: `${label}: refresh with nothing new`,
      value: median(idle),
      unit: "ms",
      note: `median of ${idle.length}; the collector polls every 2 s, and the daemon runs one before each usage report`,
    },
  );
  const inc = scans.find((s) => s.incremental)?.incremental;
  if (inc) {
    const of = (how: string): IncrementalRun[] => inc.filter((r) => r.how === how);
    const hinted = of("hinted");
    const full = of("full");
    const ms = (xs: IncrementalRun[], f: (r: IncrementalRun) => number): string => `${median(xs.map(f)).toFixed(1)} ms`;
    rows.push(
      {
        metric: `${label}: incremental update after one appended line (the file its watch event names -> visible in findSession), median`,
        value: median(hinted.map((r) => r.ms)),
        unit: "ms",
        aim: { op: "<=", limit: 20 },
        note: `${hinted.length} appends, alternating with the full-pass ones; refresh ${ms(hinted, (r) => r.refreshMs)} (CPU ${ms(hinted, (r) => r.refreshCpuMs)}) + findSession ${ms(hinted, (r) => r.queryMs)}; ${s0.transcripts} transcripts`,
      },
      {
        metric: `${label}: the same appended line through a full pass of the source (no hint: the way before), median`,
        value: median(full.map((r) => r.ms)),
        unit: "ms",
        note: `${full.length} appends; refresh ${ms(full, (r) => r.refreshMs)} (CPU ${ms(full, (r) => r.refreshCpuMs)}): lists and stats every transcript`,
      },
    );
  }
  if (cc.length) rows.push({ metric: `${label}: our first scan time / ccusage daily time`, value: scanMs / median(cc.map((c) => c.ms)), unit: "x", note: "ccusage keeps nothing: it reads everything on every call; we read once, then only what is new" });
  return rows;
}

interface UsagePhase {
  mine: UsageDailyRun[];
  theirs: CcusageResult[];
  /** The daemon's answer over the control socket, asked from this process. */
  daemonMs: number[];
}

/**
 * `insightsctl usage daily --json` on a warm daemon next to ccusage daily, in back-to-back pairs
 * (alternating order; the daemon is paused while ccusage runs so its polls take no CPU from it),
 * and their totals against the checker's and each other's. Twice: right after the daemon's first
 * scan (every row still raw), and after a restart on the same store (its retention job, which runs
 * at start and then hourly, has rolled up the rows older than retentionRawDays).
 */
async function usageRows(
  o: BenchOptions,
  hook: HookInput,
  label: string,
  reps: number,
  check: CheckResult,
  ccusageRun: ((singleThread?: boolean) => Promise<CcusageResult | null>) | null,
): Promise<Row[]> {
  o.log(`${label}: a daemon on the history`);
  const ours = await startOurDaemon(hook, o.flags.profile === true ? ["--inspect-port=0"] : []);
  const rows: Row[] = [];
  try {
    const firstReadyMs = ours.readyMs;
    const afterScan = ours.daemon.memory();
    const phase = async (): Promise<UsagePhase> => {
      // Warm: the daemon's first report compiles its queries; the CLI's files are in the page cache.
      await ours.usageDaily();
      const p: UsagePhase = { mine: [], theirs: [], daemonMs: [] };
      const oursOnce = async (): Promise<void> => {
        const r = await ours.usageDaily();
        o.log(`  ${ours.command}: ${fmtMs(r.ms)} wall, ${fmtMs(r.cpuMs)} CPU, peak RSS ${r.peakRssMb} MB`);
        p.mine.push(r);
      };
      const theirsOnce = async (): Promise<void> => {
        if (!ccusageRun) return;
        ours.daemon.pause(true);
        try {
          const c = await ccusageRun();
          if (c) p.theirs.push(c);
        } finally {
          ours.daemon.pause(false);
        }
      };
      for (let i = 0; i < reps; i++) {
        if (i % 2 === 0) {
          await oursOnce();
          await theirsOnce();
        } else {
          await theirsOnce();
          await oursOnce();
        }
      }
      for (let i = 0; i < reps; i++) p.daemonMs.push(await ours.askDaemon());
      o.log(`  the daemon's answer alone (control socket): ${p.daemonMs.map((m) => m.toFixed(0)).join(", ")} ms`);
      return p;
    };
    const fresh = await phase();
    // `insightsctl status` on the running daemon and a bare `node -e 0`, in back-to-back pairs
    // (alternating order), so both see the same machine load (issue 13: status <= 1.5x node).
    const floor: number[] = [];
    const status: number[] = [];
    const pairs = Math.max(reps, 5);
    for (let i = 0; i < pairs; i++) {
      if (i % 2 === 0) {
        status.push(await ours.status());
        floor.push(await nodeFloorMs({ ...ours.daemon.env, NO_COLOR: "1" }));
      } else {
        floor.push(await nodeFloorMs({ ...ours.daemon.env, NO_COLOR: "1" }));
        status.push(await ours.status());
      }
    }
    o.log(`  insightsctl status: ${status.map((m) => m.toFixed(0)).join(", ")} ms; node -e 0: ${floor.map((m) => m.toFixed(0)).join(", ")} ms`);
    o.log(`${label}: restarting the daemon on the same store (retention rolls up what is older than retentionRawDays)`);
    await ours.restart();
    const rolled = await phase();
    const daemonMem = ours.daemon.memory();

    rows.push(
      {
        metric: `${label}: daemon start to first scan done`,
        value: firstReadyMs / 1000,
        unit: "s",
        note: `spawn to every source's lifetimeStats.isReady (polled once a second); daemon RSS then ${afterScan?.rssMb ?? "?"} MB, peak (VmHWM) ${afterScan?.hwmMb ?? "?"} MB; after the restart and the reports ${daemonMem?.rssMb ?? "?"} MB`,
      },
      {
        metric: `${label}: node -e 0 (the floor of any Node.js CLI)`,
        value: median(floor),
        unit: "ms",
        note: `whole process, in the environment insightsctl runs in here${process.env.NODE_EXTRA_CA_CERTS ? " (NODE_EXTRA_CA_CERTS is set: Node reads that CA bundle at every start)" : ""}, median of ${floor.length} (${floor.map((m) => m.toFixed(0)).join(", ")})`,
      },
      {
        metric: `${label}: insightsctl usage daily --json on a warm daemon, time / node -e 0 time`,
        value: median(fresh.mine.map((r) => r.ms)) / median(floor),
        unit: "x",
        aim: { op: "<=", limit: 1.5 },
        note: `medians: usage daily ${fmtMs(median(fresh.mine.map((r) => r.ms)))} (right after the first scan), node ${fmtMs(median(floor))}`,
      },
      {
        metric: `${label}: insightsctl status time / node -e 0 time`,
        value: median(status.map((m, i) => m / (floor[i] as number))),
        unit: "x",
        aim: { op: "<=", limit: 1.5 },
        note: `per back-to-back pair (alternating order), on the running daemon: status ${status.map((m) => m.toFixed(0)).join(", ")} ms, node ${floor.map((m) => m.toFixed(0)).join(", ")} ms; medians ${fmtMs(median(status))} and ${fmtMs(median(floor))}`,
      },
    );
    const phaseRows = (p: UsagePhase, when: string): void => {
      const m0 = p.mine[0] as UsageDailyRun;
      rows.push(
        {
          metric: `${label}: ${ours.command}, ${when}`,
          value: median(p.mine.map((r) => r.ms)),
          unit: "ms",
          note: `whole process (node start-up included), median of ${p.mine.length} (${p.mine.map((r) => r.ms.toFixed(0)).join(", ")}); its own CPU ${fmtMs(median(p.mine.map((r) => r.cpuMs)))}, peak RSS ${m0.peakRssMb} MB; the daemon's answer alone (control socket, it reads what is new first): median ${fmtMs(median(p.daemonMs))}`,
        },
      );
      if (p.theirs.length) {
        const ratios = p.theirs.map((c, i) => (p.mine[i] as UsageDailyRun).ms / c.ms);
        rows.push({
          metric: `${label}: insightsctl usage daily time / ccusage daily time, ${when}`,
          value: median(ratios),
          unit: "x",
          aim: { op: "<=", limit: 1 / 20 },
          note: `per back-to-back pair: ${ratios.map((r) => r.toFixed(3)).join(", ")}; ccusage ${secs(median(p.theirs.map((c) => c.ms)))} in these pairs (daemon paused meanwhile)`,
        });
      }
    };
    phaseRows(fresh, "warm daemon right after its first scan (all rows raw)");
    phaseRows(rolled, "after a restart (rows older than 7 days rolled up)");

    // Totals: every run of both phases, against the checker, ccusage and each other.
    const m0 = fresh.mine[0] as UsageDailyRun;
    const checkDaily = check.check.daily;
    const vsCheck = diffDaily(checkDaily, m0.daily);
    rows.push({
      metric: `${label}: days where insightsctl and the checker differ`,
      value: vsCheck.length,
      unit: "days",
      aim: { op: "<=", limit: 0 },
      note: describeDiff(vsCheck, checkDaily.length, ["checker", "insightsctl"]) || `${m0.daily.length} days, to the token; ${m0.responses} responses`,
    });
    const t0 = fresh.theirs[0];
    if (t0) {
      const vsCc = diffDaily(t0.daily, m0.daily);
      // Codex: the checker counts by both documented rules; ccusage takes token_count deltas.
      const byTokenCount = check.kind === "codex" ? check.check.dailyByTokenCount : null;
      const rules = byTokenCount ? diffDaily(checkDaily, byTokenCount) : [];
      const explained = byTokenCount !== null && rules.length > 0 && vsCc.length === rules.length && vsCc.every((d) => rules.some((r) => r.date === d.date)) && diffDaily(byTokenCount, t0.daily).length === 0;
      rows.push({
        metric: `${label}: days where insightsctl and ccusage differ`,
        value: vsCc.length,
        unit: "days",
        aim: { op: "<=", limit: 0 },
        note:
          (describeDiff(vsCc, t0.daily.length, ["ccusage", "insightsctl"]) || `${t0.daily.length} days, to the token; totals ${describeTotals(sumDaily(m0.daily))}`) +
          (explained
            ? `; exactly the days where the two documented Codex rules differ (a response whose token_usage_record and token_count lines straddle midnight UTC): ccusage dates it by its token_count, insightsctl by its record, as the checker's record rule does`
            : ""),
      });
      const sum = (d: Daily): number[] => Object.values(sumDaily(d));
      const off = sum(t0.daily).map((v, i) => Math.abs(v - (sum(m0.daily)[i] as number))).reduce((a, b) => a + b, 0);
      rows.push({
        metric: `${label}: tokens where insightsctl and ccusage differ, all days summed`,
        value: off,
        unit: "tokens",
        aim: { op: "<=", limit: 0 },
        note: `insightsctl ${describeTotals(sumDaily(m0.daily))}; ccusage ${describeTotals(sumDaily(t0.daily))}`,
      });
    }
    const all = [...fresh.mine, ...rolled.mine];
    const unstable = all.filter((r) => diffDaily(m0.daily, r.daily).length > 0).length;
    rows.push({ metric: `${label}: insightsctl runs whose days differ from its first (before and after the roll-up)`, value: unstable, unit: "runs", aim: { op: "<=", limit: 0 }, note: `${all.length} runs` });
    if (o.flags.profile === true)
      await ours.daemon.profile(`providers-${hook.kind}`, `during ${reps} usage reports`, o.log, async () => {
        for (let i = 0; i < reps; i++) await ours.usageDaily();
      });
  } finally {
    await ours.stop();
  }
  return rows;
}
