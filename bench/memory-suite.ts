// Suite "memory" (issue 13): what a real daemon holds when nobody asks it anything, and what
// drawing cards costs in memory. Measured from the outside (/proc) on the built daemon, like a
// user's `ps` would see it, as the sum over the process tree (the daemon and its render workers).
//
//   - `insightsctl status` against the running daemon next to a bare `node -e ""`, in pairs;
//   - demo state: a first card (no worker yet), then cards one after another (one worker at most,
//     its peak), then 60 s without a request: the tree at rest, no worker left; then the first
//     card after that rest against a warm one;
//   - the synthetic install (10,000 sessions): the tree at rest after the first scan; then one card
//     and rest (the reference), 1,000 cards two at a time (the workers' peak), and rest again: the
//     daemon must hold within 10 % of the reference. --mem-heap takes a heap snapshot of the
//     daemon at both points and prints what grew (bench/heap-diff.ts).
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { cliMain } from "./build.js";
import { endDaemonRun, startDaemon, startReadyDaemon, type Daemon } from "./daemon.js";
import { diffHeaps, formatDiff } from "./heap-diff.js";
import { QUIET_CHECK_MS, QUIET_MS } from "../daemon/quiet-gc.js";
import { BENCH_TMP, REPO_ROOT } from "./paths.js";
import { childPids, procMemory } from "./proc.js";
import { median, percentile } from "./stats.js";
import { copySyntheticState, type StateCopy } from "./state-copy.js";
import type { BenchOptions, Measurements, Row, Suite } from "./suite.js";

/** "At rest": no request for this long (the issue's definition). */
const REST_MS = 60_000;
const AIM = {
  restDemoMb: 120,
  rest10kMb: 150,
  workersAtRest: 0,
  workersUnqueued: 1,
  workerPeakMb: 250,
  coldExtraMs: 1000,
  driftPercent: 10,
  statusRatio: 1.5,
} as const;

const DETAILS = ["compact", "standard", "full"] as const;
const RANGES = ["30m", "1h", "6h", "12h", "24h"] as const;
const THEMES = ["dark", "light"] as const;
const LANGS = ["en", "zh"] as const;
/** The default card of POST /api/snapshot (standard, PNG, 24h, dark, en). */
const DEFAULT_CARD = "{}";

function num(flags: BenchOptions["flags"], name: string, fallback: number): number {
  const v = flags[name];
  const n = typeof v === "string" ? Number(v) : fallback;
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`--${name} must be a positive integer`);
  return n;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const fmt = (v: number): string => (v < 10 ? v.toFixed(1) : v.toFixed(0));

/** Every card variant as a PNG request body, in turn. */
function cardBodies(): string[] {
  const out: string[] = [];
  for (const detail of DETAILS) for (const range of RANGES) for (const theme of THEMES) for (const lang of LANGS) out.push(JSON.stringify({ detail, format: "png", range, theme, lang }));
  return out;
}

/**
 * Polls /proc every 100 ms while cards are drawn: how many render workers ran at once, and each
 * worker's peak (VmHWM, kept as last read: a worker's peak only grows until it exits).
 */
class WorkerWatch {
  maxAlive = 0;
  readonly peaks = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly d: Daemon) {
    this.sample();
    this.timer = setInterval(() => this.sample(), 100);
    this.timer.unref();
  }

  private sample(): void {
    const pids = childPids(this.d.pid);
    this.maxAlive = Math.max(this.maxAlive, pids.length);
    for (const pid of pids) {
      const m = procMemory(pid);
      // A worker that has exited but not been reaped yet has no Vm* lines (NaN).
      if (m && Number.isFinite(m.hwmMb)) this.peaks.set(pid, Math.max(this.peaks.get(pid) ?? 0, m.hwmMb));
    }
  }

  stop(): { maxAlive: number; peakMb: number; workers: number } {
    clearInterval(this.timer);
    this.sample();
    return { maxAlive: this.maxAlive, peakMb: Math.max(0, ...this.peaks.values()), workers: this.peaks.size };
  }
}

/** Tracks when the daemon last got a request, so rest is measured from there. */
class Client {
  lastRequestAt = Date.now();
  failures: Record<string, number> = {};

  constructor(private readonly d: Daemon) {}

  /** One card; resolves with its wall time (ms). */
  async card(body: string): Promise<number> {
    const started = performance.now();
    try {
      const r = await fetch(`${this.d.url}/api/snapshot`, {
        method: "POST",
        headers: { ...this.d.authHeaders, "Content-Type": "application/json" },
        body,
        signal: AbortSignal.timeout(60_000),
      });
      const bytes = await r.arrayBuffer();
      if (!r.ok) {
        const key = `${r.status} ${Buffer.from(bytes).toString("utf8").slice(0, 80)}`;
        this.failures[key] = (this.failures[key] ?? 0) + 1;
      }
      return performance.now() - started;
    } finally {
      this.lastRequestAt = Date.now();
    }
  }

  /** Waits until no request has reached the daemon for `restMs`, then reads the tree. */
  async rest(restMs: number, log: (m: string) => void): Promise<NonNullable<ReturnType<Daemon["treeMemory"]>>> {
    const wait = this.lastRequestAt + restMs + 500 - Date.now();
    log(`  resting ${(wait / 1000).toFixed(0)} s (no request for ${restMs / 1000} s)`);
    if (wait > 0) await sleep(wait);
    const t = this.d.treeMemory();
    if (!t) throw new Error(`the daemon is gone:\n${this.d.consoleTail()}`);
    log(`  at rest: ${t.rssMb} MB (daemon ${t.daemon.rssMb} MB${t.workers.map((w) => `, worker ${w.pid} ${w.rssMb} MB`).join("")})`);
    return t;
  }
}

/** Wall time of one process from spawn to exit, ms. */
function timeRun(args: string[], env: Readonly<Record<string, string>>): Promise<{ ms: number; code: number | null }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => resolve({ ms: performance.now() - started, code }));
  });
}

/** `insightsctl status` and `node -e ""` in alternating pairs; the median of the pairs' ratios. */
async function statusVsNode(d: Daemon, pairs: number, cli: string): Promise<{ ratio: number; statusMs: number; nodeMs: number; ratios: number[] }> {
  const status = [cli, "status"];
  const bare = ["-e", ""];
  for (let i = 0; i < 2; i++) {
    const r = await timeRun(status, d.env);
    if (r.code !== 0) throw new Error(`insightsctl status exited ${r.code} against the running daemon`);
    await timeRun(bare, d.env);
  }
  const ratios: number[] = [];
  const s: number[] = [];
  const n: number[] = [];
  for (let i = 0; i < pairs; i++) {
    // Alternating order, so a drift of the machine's speed weighs on both sides alike.
    const first = i % 2 === 0 ? status : bare;
    const a = await timeRun(first, d.env);
    const b = await timeRun(first === status ? bare : status, d.env);
    const [st, nd] = first === status ? [a.ms, b.ms] : [b.ms, a.ms];
    s.push(st);
    n.push(nd);
    ratios.push(st / nd);
  }
  return { ratio: median(ratios), statusMs: median(s), nodeMs: median(n), ratios };
}

/** Sends SIGUSR2 (the daemon runs with --heapsnapshot-signal) and waits for the new file. */
async function heapSnapshot(d: Daemon, dir: string): Promise<string> {
  const before = new Set(fs.readdirSync(dir));
  process.kill(d.pid, "SIGUSR2");
  const deadline = Date.now() + 120_000;
  for (;;) {
    const fresh = fs.readdirSync(dir).filter((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    const file = fresh[0] ? path.join(dir, fresh[0]) : null;
    // Written in one go; the size stops changing when it is done.
    if (file) {
      const a = fs.statSync(file).size;
      await sleep(1000);
      if (a > 0 && fs.statSync(file).size === a) return file;
    }
    if (Date.now() > deadline) throw new Error("no heap snapshot after 120 s");
    await sleep(500);
  }
}

interface DemoResult {
  status: Awaited<ReturnType<typeof statusVsNode>>;
  firstMs: number;
  warmMs: number[];
  watch: ReturnType<WorkerWatch["stop"]>;
  rest: NonNullable<ReturnType<Daemon["treeMemory"]>>;
  afterRestMs: number;
  startRss: number;
}

interface LargeResult {
  restStart: NonNullable<ReturnType<Daemon["treeMemory"]>>;
  reference: NonNullable<ReturnType<Daemon["treeMemory"]>>;
  end: NonNullable<ReturnType<Daemon["treeMemory"]>>;
  watch: ReturnType<WorkerWatch["stop"]>;
  cards: number;
  cardMs: number[];
  seconds: number;
  failures: Record<string, number>;
  heap: string | null;
}

export const memorySuite: Suite = {
  name: "memory",
  title: "the daemon at rest (demo and 10,000 sessions), render workers' lifecycle and peak, drift over 1,000 cards, insightsctl status start-up",
  flags: {
    "mem-cards": { type: "string", description: "cards drawn between the two rests on the large install (default 1000; --quick 100)" },
    "status-pairs": { type: "string", description: "insightsctl status / node -e \"\" pairs (default 20; --quick 10)" },
    "mem-heap": { type: "boolean", description: "heap-snapshot the daemon at both rests of the large install and print what grew" },
  },

  async setup(o) {
    const cards = num(o.flags, "mem-cards", o.quick ? 100 : 1000);
    const pairs = num(o.flags, "status-pairs", o.quick ? 10 : 20);
    // --quick: a short idle period and rest, so the smoke run stays short (the aims are for the full
    // run); still past the daemon's quiet period and one check, so its quiet collection is in it.
    const restMs = o.quick ? QUIET_MS + QUIET_CHECK_MS + 3000 : REST_MS;
    const quickEnv: Record<string, string> = o.quick ? { INSIGHTS_RENDER_IDLE_SECONDS: "5" } : {};
    const copy: StateCopy = copySyntheticState(o, "memory");
    const heapDir = path.join(BENCH_TMP, `heap-${process.pid}`);
    const context = [
      ...copy.context,
      `rest: no request for ${restMs / 1000} s${o.quick ? " (--quick; renderIdleSeconds 5)" : " (default config: renderIdleSeconds 30)"}; RSS from /proc, the daemon and its render workers summed`,
    ];
    let demo: Daemon | null = null;
    let large: Daemon | null = null;
    return {
      context,
      async run(): Promise<Row[]> {
        // 1. Demo state.
        o.log("demo state: a daemon without an OpenClaw dir");
        const d = (demo = await startDaemon({ name: "memory-demo", openclawDir: null, env: { INSIGHTS_SNAPSHOT_RATE_LIMIT_PER_MINUTE: "100000", ...quickEnv }, build: o.build, log: o.log }));
        await sleep(3000);
        const startRss = d.treeMemory()?.rssMb ?? Number.NaN;
        o.log(`insightsctl status vs node -e "": ${pairs} pairs`);
        const status = await statusVsNode(d, pairs, cliMain(o.build));
        const client = new Client(d);
        const watch = new WorkerWatch(d);
        const firstMs = await client.card(DEFAULT_CARD);
        const warmMs: number[] = [];
        for (let i = 0; i < 8; i++) warmMs.push(await client.card(DEFAULT_CARD));
        const demoWatch = watch.stop();
        o.log(`  first card ${fmt(firstMs)} ms, then ${warmMs.map(fmt).join(", ")} ms; workers at once ${demoWatch.maxAlive}, peak ${demoWatch.peakMb} MB`);
        const rest = await client.rest(restMs, o.log);
        const afterRestMs = await client.card(DEFAULT_CARD);
        o.log(`  first card after rest ${fmt(afterRestMs)} ms`);
        const demoResult: DemoResult = { status, firstMs, warmMs, watch: demoWatch, rest, afterRestMs, startRss };
        await d.stop();
        d.remove();
        demo = null;

        // 2. The synthetic install.
        const heap = o.flags["mem-heap"] === true;
        if (heap) fs.mkdirSync(heapDir, { recursive: true });
        const started = await startReadyDaemon(
          o,
          "memory",
          copy,
          heap ? { env: quickEnv, nodeArgs: ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${heapDir}`] } : { env: quickEnv },
        );
        const l = (large = started.daemon);
        const lc = new Client(l);
        o.log("large install: at rest after the first scan");
        const restStart = await lc.rest(restMs, o.log);
        await lc.card(DEFAULT_CARD);
        const reference = await lc.rest(restMs, o.log);
        const before = heap ? await heapSnapshot(l, heapDir) : null;
        o.log(`${cards} cards, two at a time`);
        const bodies = cardBodies();
        const lw = new WorkerWatch(l);
        const cardMs: number[] = [];
        let next = 0;
        const t0 = performance.now();
        const loop = async (): Promise<void> => {
          while (next < cards) {
            const body = bodies[next++ % bodies.length] as string;
            cardMs.push(await lc.card(body));
            if (next % 100 === 0) o.log(`  ${next} cards (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
          }
        };
        await Promise.all([loop(), loop()]);
        const seconds = (performance.now() - t0) / 1000;
        const largeWatch = lw.stop();
        const end = await lc.rest(restMs, o.log);
        let heapText: string | null = null;
        if (before) {
          const after = await heapSnapshot(l, heapDir);
          heapText = formatDiff(diffHeaps(before, after));
          o.log(`heap snapshots ${path.relative(REPO_ROOT, before)} -> ${path.basename(after)}:\n${heapText}`);
        }
        const largeResult: LargeResult = { restStart, reference, end, watch: largeWatch, cards, cardMs, seconds, failures: lc.failures, heap: heapText };
        return rows(demoResult, largeResult, client.failures, started.ready.ms, restMs);
      },
      async teardown() {
        if (demo) {
          await demo.stop();
          demo.remove();
        }
        await endDaemonRun(large, copy, o.flags.keep === true);
        if (o.flags.keep !== true) fs.rmSync(heapDir, { recursive: true, force: true });
      },
    } satisfies Measurements;
  },
};

type Tree = NonNullable<ReturnType<Daemon["treeMemory"]>>;
const treeNote = (t: Tree): string => `daemon ${t.daemon.rssMb} MB (${t.daemon.anonMb} anonymous + ${t.daemon.fileMb} file-backed)${t.workers.length ? t.workers.map((w) => `; worker ${w.rssMb} MB`).join("") : "; no render worker"}`;

function rows(demo: DemoResult, large: LargeResult, demoFailures: Record<string, number>, scanMs: number, restMs: number): Row[] {
  const restS = `${restMs / 1000} s`;
  const warm = median(demo.warmMs);
  const drift = ((large.end.daemon.rssMb - large.reference.daemon.rssMb) / large.reference.daemon.rssMb) * 100;
  const failures = (f: Record<string, number>): string => Object.entries(f).map(([k, v]) => `${v}× ${k}`).join("; ") || "no failures";
  const s = demo.status;
  return [
    {
      metric: "demo: process tree at rest",
      value: demo.rest.rssMb,
      unit: "MB",
      aim: { op: "<=", limit: AIM.restDemoMb },
      note: `${restS} after the last of 10 cards; ${treeNote(demo.rest)}; ${demo.startRss} MB 3 s after start, before any card`,
    },
    {
      metric: "demo: render workers alive at rest",
      value: demo.rest.workers.length,
      unit: "workers",
      aim: { op: "<=", limit: AIM.workersAtRest },
      note: "each stops after renderIdleSeconds without a card",
    },
    {
      metric: "demo: render workers at once, cards one after another",
      value: demo.watch.maxAlive,
      unit: "workers",
      aim: { op: "<=", limit: AIM.workersUnqueued },
      note: `9 cards in sequence (no request waits), /proc polled every 100 ms; ${demo.watch.workers} worker(s) seen; ${failures(demoFailures)}`,
    },
    {
      metric: "demo: first card after rest, minus a warm card",
      value: demo.afterRestMs - warm,
      unit: "ms",
      aim: { op: "<=", limit: AIM.coldExtraMs },
      note: `default card (standard PNG): after rest ${fmt(demo.afterRestMs)} ms (a worker starts); warm ${fmt(warm)} ms (median of 8 in a row, p95 ${fmt(percentile(demo.warmMs, 95))}); the daemon's first card ever ${fmt(demo.firstMs)} ms`,
    },
    {
      metric: "large install: process tree at rest after the first scan",
      value: large.restStart.rssMb,
      unit: "MB",
      aim: { op: "<=", limit: AIM.rest10kMb },
      note: `no card asked yet; first scan took ${(scanMs / 1000).toFixed(1)} s; ${treeNote(large.restStart)}`,
    },
    {
      metric: "large install: process tree at rest after one card",
      value: large.reference.rssMb,
      unit: "MB",
      aim: { op: "<=", limit: AIM.rest10kMb },
      note: `the reference for the drift below; ${treeNote(large.reference)}`,
    },
    {
      metric: `large install: render worker peak over ${large.cards} cards`,
      value: large.watch.peakMb,
      unit: "MB",
      aim: { op: "<=", limit: AIM.workerPeakMb },
      note: `largest VmHWM of the ${large.watch.workers} worker(s) seen (at most ${large.watch.maxAlive} at once, two requests at a time); ${large.cards} PNG cards of every detail, range, theme and language in ${large.seconds.toFixed(0)} s, median ${fmt(median(large.cardMs))} ms each; ${failures(large.failures)}`,
    },
    {
      metric: `large install: daemon RSS at rest, after ${large.cards} more cards vs before`,
      value: Math.abs(drift),
      unit: "%",
      aim: { op: "<=", limit: AIM.driftPercent },
      note: `${drift >= 0 ? "+" : ""}${drift.toFixed(1)} %: ${large.reference.daemon.rssMb} -> ${large.end.daemon.rssMb} MB, both ${restS} after the last request; ${treeNote(large.end)}${large.heap ? "; heap diff in the log (--mem-heap)" : ""}`,
    },
    {
      metric: "insightsctl status / node -e \"\" (wall time)",
      value: s.ratio,
      unit: "x",
      aim: { op: "<=", limit: AIM.statusRatio },
      note: `median of ${s.ratios.length} alternating pairs against the running demo daemon; status ${fmt(s.statusMs)} ms, node ${fmt(s.nodeMs)} ms (medians)`,
    },
  ];
}
