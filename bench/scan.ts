// Suite "scan": what reading OpenClaw's transcripts costs the daemon at data scale.
//   - first-scan throughput of the real path (fresh store, SourceRegistry.refresh() until every
//     agent is ready) next to a bare read + JSON.parse of the same bytes, same run: the ratio;
//   - memory of that scan (own child process, so RSS and peak RSS are the scan's alone);
//   - incremental update latency: one event appended -> next refresh -> visible in querySessions;
//   - querySessions / queryMetrics(TWENTY_FOUR_HOUR) times on the scanned store.
import * as fs from "node:fs";
import * as path from "node:path";
import { zstdBackend } from "../shared/providers/openclaw/zstd.js";
import { runChild } from "./child.js";
import { formatSummary, summarize } from "./profile-summary.js";
import type { MemorySnapshot } from "./memory.js";
import type { BareResult, RealInput, RealResult } from "./scan-protocol.js";
import { MB, median, percentile } from "./stats.js";
import type { BenchOptions, Measurements, Row, Suite } from "./suite.js";
import { BENCH_TMP, newProfileDir, REPO_ROOT } from "./paths.js";
import { DEFAULT_PARAMS, describeManifest, ensureSyntheticState, parseEra, parseSize } from "./synthetic-state.js";
import type { BuildParams } from "./synthetic/plan.js";

const AIM_RATIO = 2;
const AIM_RSS_MB = 150;
const AIM_QUERY_MS = 20;
/** Issue 13: the longest event-loop stall of a first scan, and the work of an update after one appended line. */
const AIM_STALL_MS = 100;
const AIM_INCREMENTAL_MS = 20;

function str(flags: BenchOptions["flags"], name: string): string | undefined {
  const v = flags[name];
  return typeof v === "string" ? v : undefined;
}

/** The synthetic dataset the flags ask for; every suite that reads one uses the same flags. */
export function paramsOf(o: BenchOptions): BuildParams {
  const f = o.flags;
  const num = (name: string, fallback: number): number => {
    const v = str(f, name);
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`--${name} must be a positive integer`);
    return n;
  };
  return {
    era: parseEra(str(f, "era") ?? DEFAULT_PARAMS.era),
    agents: num("agents", DEFAULT_PARAMS.agents),
    sessions: num("sessions", o.quick ? 200 : DEFAULT_PARAMS.sessions),
    bytes: parseSize(str(f, "bytes") ?? (o.quick ? "20m" : String(DEFAULT_PARAMS.bytes))),
    seed: num("seed", DEFAULT_PARAMS.seed),
  };
}

/** Reads every file once so both readers start from the same warm page cache. */
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

const rate = (bytes: number, ms: number): number => bytes / MB / (ms / 1000);
const ms1 = (v: number): string => `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`;

export const scanSuite: Suite = {
  name: "scan",
  title: "transcript scan at data scale: first scan, memory, incremental update, queries",
  flags: {
    era: { type: "string", description: "storage era of the synthetic state dir: sqlite (default) or files" },
    sessions: { type: "string", description: "session keys in total (default 10000; --quick 200)" },
    bytes: { type: "string", description: "transcript event JSON in total, e.g. 1g, 20m (default 1g; --quick 20m)" },
    agents: { type: "string", description: "agents (default 8)" },
    seed: { type: "string", description: "generator seed (default 1)" },
    repeat: { type: "string", description: "first-scan pairs (bare + real) to run, alternating order (default 2; --quick 3)" },
    profile: { type: "boolean", description: "after measuring, one more real scan under the CPU profiler; prints where time went" },
    rebuild: { type: "boolean", description: "rebuild the cached synthetic state dir" },
    keep: { type: "boolean", description: "keep the work copy of the state dir and the stores" },
  },

  async setup(o) {
    const params = paramsOf(o);
    const repeat = Number(str(o.flags, "repeat") ?? (o.quick ? 3 : 2));
    if (!Number.isInteger(repeat) || repeat < 1) throw new RangeError("--repeat must be a positive integer");
    const state = ensureSyntheticState(params, { rebuild: o.flags.rebuild === true, log: o.log });
    const m = state.manifest;
    // The runs append to transcripts and SQLite adds -wal/-shm beside the DBs: work on a copy.
    const work = path.join(BENCH_TMP, `work-scan-${process.pid}`);
    fs.rmSync(work, { recursive: true, force: true });
    const stateDir = path.join(work, "state");
    o.log(`copying the state dir to ${path.relative(REPO_ROOT, work)}`);
    fs.cpSync(state.dir, stateDir, { recursive: true });
    const context = [
      `dataset: ${describeManifest(m)}`,
      `dataset ${state.cached ? `from cache (built ${m.builtAt} in ${(m.buildMs / 1000).toFixed(0)} s)` : `built now in ${(m.buildMs / 1000).toFixed(0)} s`}: ${path.relative(REPO_ROOT, state.dir)}`,
      ...(m.zstd ? [`compressed rows written with: ${m.zstd.describe}`] : []),
      `zstd decoder of the daemon (and of the bare reader): ${zstdBackend()}`,
    ];

    return {
      context,
      async run(): Promise<Row[]> {
        const pairs: Pair[] = [];
        const realInput = (i: number, profileDir: string | null): RealInput => {
          const storePath = path.join(work, `insights-${i}.db`);
          for (const s of ["", "-wal", "-shm"]) fs.rmSync(storePath + s, { force: true });
          const first = i === 0;
          return {
            mode: "real",
            stateDir,
            storePath,
            anchorNow: m.now,
            idleRefreshes: first ? 5 : 0,
            incremental: first || profileDir ? { reps: 20, target: { era: m.params.era, ...m.target } } : null,
            queryReps: first ? (o.quick ? 40 : 80) : 0,
            profileDir,
          };
        };
        o.log("warming the page cache");
        warmPageCache(stateDir);
        const runBare = async (i: number): Promise<BareResult> => {
          const b = await runChild<BareResult>("scan-child.ts", { mode: "bare", era: m.params.era, stateDir }, { build: o.build });
          o.log(`  bare read #${i + 1}: ${(b.ms / 1000).toFixed(2)} s, ${rate(b.bytes, b.ms).toFixed(0)} MB/s`);
          return b;
        };
        const runReal = async (i: number): Promise<RealResult> => {
          const r = await runChild<RealResult>("scan-child.ts", realInput(i, null), { nodeArgs: ["--expose-gc"], build: o.build });
          o.log(`  real scan #${i + 1}: ${(r.scan.ms / 1000).toFixed(2)} s, peak RSS ${r.afterScan.maxRssMb} MB`);
          return r;
        };
        // Pairs run back to back, in alternating order, so a burst of load elsewhere hits both sides.
        for (let i = 0; i < repeat; i++) {
          if (i % 2 === 0) {
            const bare = await runBare(i);
            pairs.push({ bare, real: await runReal(i) });
          } else {
            const real = await runReal(i);
            pairs.push({ real, bare: await runBare(i) });
          }
        }
        if (o.flags.profile === true) {
          const dir = newProfileDir();
          o.log("profiling one more real scan (not part of the figures)");
          const r = await runChild<RealResult>("scan-child.ts", realInput(repeat, dir), { nodeArgs: ["--expose-gc"], build: o.build });
          const text = r.profiles.map((f) => formatSummary(path.basename(f), summarize(f))).join("\n\n");
          fs.writeFileSync(path.join(dir, "summary.txt"), `${text}\n`);
          o.log(`${text}\n(profiles and summary.txt in ${path.relative(REPO_ROOT, dir)}; open a .cpuprofile in Chrome DevTools for the tree)`);
        }
        return rows(pairs, m.totals.windows, m.agents.length);
      },
      async teardown() {
        if (o.flags.keep !== true) fs.rmSync(work, { recursive: true, force: true });
      },
    } satisfies Measurements;
  },
};

interface Pair {
  bare: BareResult;
  real: RealResult;
}

function rows(pairs: Pair[], windows: number, agents: number): Row[] {
  const first = pairs[0]?.real;
  const b0 = pairs[0]?.bare;
  if (!first || !b0) throw new Error("no scan ran");
  // The real scan must have seen everything the bare reader did, or the ratio means nothing.
  if (first.scan.agentsReady !== agents) throw new Error(`only ${first.scan.agentsReady} of ${agents} agents were ready after the scan`);
  if (first.scan.transcripts < windows) throw new Error(`the scan listed ${first.scan.transcripts} transcripts, the dataset has ${windows}`);
  // The first pair ran before any append: one usage row per user and assistant message.
  if (first.scan.usageRows !== b0.messages) throw new Error(`the scan recorded ${first.scan.usageRows} usage rows for ${b0.messages} user and assistant messages`);
  const bytes = b0.bytes;
  const realMs = median(pairs.map((p) => p.real.scan.ms));
  const bareMs = median(pairs.map((p) => p.bare.ms));
  const ratios = pairs.map((p) => p.real.scan.ms / p.bare.ms);
  const runs = pairs.length > 1 ? `; median of ${pairs.length} runs` : "";
  const out: Row[] = [
    {
      metric: "first scan, real path (fresh store, refresh until ready)",
      value: rate(bytes, realMs),
      unit: "MB/s",
      note: `${(bytes / MB).toFixed(0)} MB of event JSON in ${(realMs / 1000).toFixed(2)} s, ${first.scan.refreshes} refresh(es), ${first.scan.usageRows} usage rows, ${first.scan.warnings} warnings${runs}`,
    },
    {
      metric: "first scan, bare read + zstd + JSON.parse of the same rows",
      value: rate(bytes, bareMs),
      unit: "MB/s",
      note: `${b0.events} events (${b0.zstdRows} zstd rows) in ${(bareMs / 1000).toFixed(2)} s${runs}`,
    },
    {
      metric: "real / bare scan time",
      value: median(ratios),
      unit: "x",
      aim: { op: "<=", limit: AIM_RATIO },
      note: pairs.length > 1 ? `median of ${pairs.length} back-to-back pairs (${ratios.map((r) => r.toFixed(2)).join(", ")})` : "one back-to-back pair",
    },
    {
      metric: "RSS after the scan",
      value: first.afterScan.rssMb,
      unit: "MB",
      aim: { op: "<=", limit: AIM_RSS_MB },
      note: `own child process, ${first.baseline.rssMb} MB before reading anything; ${split(first.afterScan)}; V8 heap ${first.afterScan.heapUsedMb} used of ${first.afterScan.heapTotalMb} MB; after a full GC ${first.afterGc.rssMb} MB (heap ${first.afterGc.heapUsedMb} MB)`,
    },
    {
      metric: "peak RSS during the scan",
      value: first.afterScan.maxRssMb,
      unit: "MB",
      aim: { op: "<=", limit: AIM_RSS_MB },
      note: `peaks sampled at event-loop turns: V8 heap ${first.scanPeaks.heapUsedMb} used / ${first.scanPeaks.heapTotalMb} MB reserved, external ${first.scanPeaks.externalMb} MB; the bare reader peaked at ${b0.memory.maxRssMb} MB`,
    },
    { metric: "longest event-loop stall during the scan", value: first.scan.maxStallMs, unit: "ms", aim: { op: "<=", limit: AIM_STALL_MS }, note: "HTTP and GraphQL requests wait this long" },
    {
      metric: "refresh with nothing new",
      value: median(first.idleRefreshMs),
      unit: "ms",
      note: `median of ${first.idleRefreshMs.length}; every poll pays it (the collector polls every 2 s); longest event-loop stall ${first.idleMaxStallMs.toFixed(0)} ms`,
    },
  ];
  const inc = first.incremental;
  if (inc) {
    // SQLite era: every append through the agent's refresh. File era: the appends the daemon's way
    // (hinted: the agent's refresh of the JSONL named by its watch event), the others a full pass
    // of the agent on the same event (the way before), and each sessions.json rewrite's own refresh.
    const pick = <T>(xs: T[], how: string): T[] => xs.filter((_, i) => inc.how[i] === how);
    const main = inc.how.includes("hinted") ? "hinted" : "agent";
    const lat = pick(inc.latencyMs, main);
    const how = `refresh ${ms1(median(pick(inc.refreshMs, main)))} + querySessions ${ms1(median(pick(inc.queryMs, main)))} (medians); visible after ${Math.max(...pick(inc.refreshes, main))} refresh`;
    const what = main === "hinted" ? "append -> the agent's refresh of the JSONL its watch event names -> querySessions" : "append -> the agent's refresh -> querySessions";
    out.push(
      { metric: `incremental update (${what}), median`, value: median(lat), unit: "ms", aim: { op: "<=", limit: AIM_INCREMENTAL_MS }, note: `${lat.length} appends; ${how}` },
      { metric: "incremental update, p95", value: percentile(lat, 95), unit: "ms", note: "poll interval not included" },
    );
    const full = pick(inc.latencyMs, "full");
    if (full.length) {
      out.push({
        metric: "incremental update through a full pass of the agent (no hint), median",
        value: median(full),
        unit: "ms",
        note: `${full.length} appends alternating with the hinted ones; refresh ${ms1(median(pick(inc.refreshMs, "full")))}: lists and stats every transcript`,
      });
    }
    if (inc.indexRefreshMs.length) {
      out.push({
        metric: "the agent's refresh after sessions.json is rewritten (its own watch event), median",
        value: median(inc.indexRefreshMs),
        unit: "ms",
        note: `${inc.indexRefreshMs.length} rewrites; a new index file: a full pass of the agent (sessions.json walked, every transcript stat-ed; the reader and its caches are kept). In the daemon both events usually land in one burst: one such pass`,
      });
    }
  }
  const q = first.queries;
  if (q) {
    const per = `${q.sessionsMs.length} calls round-robin over ${agents} agents`;
    const slowest = (pick: (a: { sessionsMs: number[]; metricsMs: number[] }) => number[]): string => {
      const [id, ms] = Object.entries(q.perAgent)
        .map(([id, a]) => [id, median(pick(a))] as const)
        .reduce((a, b) => (b[1] > a[1] ? b : a));
      return `slowest agent: ${id}, median ${ms1(ms)}`;
    };
    out.push(
      { metric: "querySessions (default filter), median", value: median(q.sessionsMs), unit: "ms", aim: { op: "<=", limit: AIM_QUERY_MS }, note: `${per}; ${q.sessionsReturned} root sessions returned` },
      { metric: "querySessions, p95", value: percentile(q.sessionsMs, 95), unit: "ms", aim: { op: "<=", limit: AIM_QUERY_MS }, note: slowest((a) => a.sessionsMs) },
      { metric: "queryMetrics(TWENTY_FOUR_HOUR), median", value: median(q.metricsMs), unit: "ms", aim: { op: "<=", limit: AIM_QUERY_MS }, note: `${per}; ${q.rangeTokensK}k tokens in range (first agent)` },
      { metric: "queryMetrics, p95", value: percentile(q.metricsMs, 95), unit: "ms", aim: { op: "<=", limit: AIM_QUERY_MS }, note: slowest((a) => a.metricsMs) },
    );
  }
  return out;
}

/** "312 MB anonymous + 46 MB mapped files" where /proc tells. */
function split(m: MemorySnapshot): string {
  return m.rssAnonMb !== null && m.rssFileMb !== null ? `${m.rssAnonMb} MB anonymous + ${m.rssFileMb} MB mapped files` : `${m.rssMb} MB`;
}
