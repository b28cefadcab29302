// Suite "snapshot" (issue 5): the status card.
//   - warm render time per detail (compact, standard, full) and format (svg, png) through
//     renderCard, next to a bare satori -> resvg render of the same element tree with the same
//     fonts, in one child process: the ratio is our overhead;
//   - POST /api/snapshot requests/s on a real daemon at its default renderConcurrency (2), with
//     autocannon at concurrency 2 and 8, each request a different card (the render queue shares
//     identical requests in flight), and the share of 503s (QUEUE_FULL / QUEUE_TIMEOUT);
//   - resident memory of the daemon and of its render workers every 50 of 1,000 renders: it must
//     stay flat. Workers are replaced after 500 cards by design (daemon/snapshot/render-pool.ts).
// The card models are built by the daemon from the synthetic state (`format: "json"`).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runChild } from "./child.js";
import { endDaemonRun, startReadyDaemon, type Daemon, type WorkerMemory } from "./daemon.js";
import type { LoadInput, LoadResult } from "./load-protocol.js";
import { procCpuMs, type ProcMemory } from "./proc.js";
import { WORKER_IDLE_COLLECT_MS } from "../daemon/snapshot/render-pool.js";
import type { Detail, RenderTimingInput, RenderTimingResult } from "./snapshot-protocol.js";
import { median, percentile } from "./stats.js";
import { copySyntheticState, type StateCopy } from "./state-copy.js";
import type { BenchOptions, Measurements, Row, Suite } from "./suite.js";

const DETAILS: readonly Detail[] = ["compact", "standard", "full"];
const THEMES = ["dark", "light"] as const;
const LANGS = ["en", "zh"] as const;
const RANGES = ["30m", "1h", "6h", "12h", "24h"] as const;
/** Largest drift of RSS over the second half of the renders from the first half's level. */
const AIM_DRIFT_PERCENT = 10;
/** Below this many renders the drift rows carry no aim. */
const MIN_RENDERS_JUDGED = 500;

function num(flags: BenchOptions["flags"], name: string, fallback: number): number {
  const v = flags[name];
  const n = typeof v === "string" ? Number(v) : fallback;
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`--${name} must be a positive integer`);
  return n;
}

/** Distinct bodies of one detail and format: every theme, language and range. */
function bodies(details: readonly Detail[], format: "png" | "svg"): string[] {
  const out: string[] = [];
  for (const detail of details) for (const range of RANGES) for (const theme of THEMES) for (const lang of LANGS) out.push(JSON.stringify({ detail, format, range, theme, lang }));
  return out;
}

const QUEUE_QUERY = `{ source(selector: {id: "dashboard:self"}) { ... on DashboardNamespace { renderQueue { active queued concurrency maxQueue rendersTotal failuresTotal } } } }`;

interface QueueStats {
  active: number;
  queued: number;
  concurrency: number;
  maxQueue: number;
  rendersTotal: number;
  failuresTotal: number;
}

async function queueStats(d: Daemon): Promise<QueueStats> {
  const r = await d.graphql<{ source: { renderQueue: QueueStats | null } }>(QUEUE_QUERY);
  if (!r.source.renderQueue) throw new Error("the daemon reports no render queue");
  return r.source.renderQueue;
}

/** Waits until no snapshot is rendering or queued (requests cut at the end of a load run still finish). */
async function settle(d: Daemon): Promise<QueueStats> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const q = await queueStats(d);
    if ((q.active === 0 && q.queued === 0) || Date.now() > deadline) return q;
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface LoadRun extends LoadResult {
  connections: number;
  daemonCpuMs: number;
  workerCpuMs: number;
}

interface Sample {
  renders: number;
  daemon: ProcMemory | null;
  workers: WorkerMemory[];
}

const fmt = (v: number): string => (v < 10 ? v.toFixed(1) : v.toFixed(0));
const pct = (v: number): string => `${v >= 0 ? "+" : ""}${v.toFixed(1)} %`;

export const snapshotSuite: Suite = {
  name: "snapshot",
  title: "the status card: warm render times vs bare satori + resvg, POST /api/snapshot req/s, RSS over 1,000 renders",
  flags: {
    "render-reps": { type: "string", description: "timed renders per detail, format and path (default 30; --quick 5)" },
    "snap-seconds": { type: "string", description: "seconds of autocannon load per concurrency (default 20; --quick 5)" },
    renders: { type: "string", description: "renders through the daemon for the RSS series (default 1000; --quick 100)" },
  },

  async setup(o) {
    const reps = num(o.flags, "render-reps", o.quick ? 5 : 30);
    const seconds = num(o.flags, "snap-seconds", o.quick ? 5 : 20);
    const renders = num(o.flags, "renders", o.quick ? 100 : 1000);
    const copy: StateCopy = copySyntheticState(o, "snapshot");
    let daemon: Daemon | null = null;
    try {
      const started = await startReadyDaemon(o, "snapshot", copy);
      const { ready } = started;
      const d = (daemon = started.daemon);
      const q0 = await queueStats(d);
      const context = [
        ...copy.context,
        `daemon: dist/daemon/main.js (pid ${d.pid}), default config (renderConcurrency ${q0.concurrency}, renderQueueMax ${q0.maxQueue}) but INSIGHTS_SNAPSHOT_RATE_LIMIT_PER_MINUTE=100000; first scan ${(ready.ms / 1000).toFixed(1)} s`,
        `card models: built by the daemon from the synthetic state (POST /api/snapshot format json, range 24h, dark, en), one per detail`,
      ];
      return {
        context,
        async run(): Promise<Row[]> {
          // 1. The card models, as the daemon builds them from this state.
          const models: Partial<Record<Detail, unknown>> = {};
          for (const detail of DETAILS) {
            const r = await fetch(`${d.url}/api/snapshot`, {
              method: "POST",
              headers: { ...d.authHeaders, "Content-Type": "application/json" },
              body: JSON.stringify({ detail, format: "json" }),
              signal: AbortSignal.timeout(60_000),
            });
            if (!r.ok) throw new Error(`POST /api/snapshot json ${detail}: HTTP ${r.status} ${await r.text()}`);
            models[detail] = await r.json();
          }
          const modelsFile = path.join(d.dir, "card-models.json");
          fs.writeFileSync(modelsFile, JSON.stringify(models));

          // 2. Warm render times, ours next to bare, with the daemon paused so its polls do not
          // take a core from the timed process.
          o.log(`render times: ${reps} timed renders per detail, format and path (daemon paused meanwhile)`);
          const timingInput: RenderTimingInput = { modelsFile, warmup: o.quick ? 2 : 5, reps };
          const load1 = os.loadavg()[0] as number;
          d.pause(true);
          let timing: RenderTimingResult;
          try {
            timing = await runChild<RenderTimingResult>("snapshot-child.ts", timingInput, { build: o.build });
          } finally {
            d.pause(false);
          }

          // 3. Requests per second at autocannon concurrency 2 and 8.
          const standardPng = bodies(["standard"], "png");
          const loadAt = async (connections: number): Promise<LoadRun> => {
            await settle(d);
            const cpu0 = procCpuMs(d.pid);
            const workerCpu0 = new Map(d.workers().map((w) => [w.pid, procCpuMs(w.pid)]));
            const input: LoadInput = {
              url: `${d.url}/api/snapshot`,
              method: "POST",
              headers: { ...d.authHeaders, "Content-Type": "application/json" },
              bodies: standardPng,
              connections,
              durationS: seconds,
              warmupS: o.quick ? 1 : 3,
              timeoutS: 30,
              inspect: true,
            };
            const r = await runChild<LoadResult>("load-child.ts", input);
            const daemonCpuMs = procCpuMs(d.pid) - cpu0;
            // Workers that started during the run count from 0; the CPU of one replaced meanwhile is missed.
            let workerCpuMs = 0;
            for (const w of d.workers()) workerCpuMs += procCpuMs(w.pid) - (workerCpu0.get(w.pid) ?? 0);
            await settle(d);
            const run: LoadRun = { ...r, connections, daemonCpuMs, workerCpuMs };
            o.log(`  concurrency ${connections}: ${fmt(r.perSecond)} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, status ${JSON.stringify(r.statusCodes)} ${JSON.stringify(r.errorCodes)}`);
            return run;
          };
          o.log(`POST /api/snapshot (standard png, ${standardPng.length} distinct bodies in turn): ${seconds} s at concurrency 2, then 8`);
          const runs = [await loadAt(2), await loadAt(8)];

          // 4. RSS of the daemon and its workers every twentieth of the renders.
          await settle(d);
          const every = Math.max(1, Math.round(renders / 20));
          o.log(`RSS series: ${renders} renders at concurrency 2, sampled every ${every}`);
          const series = await rssSeries(d, renders, every, o.log);
          const end = await settle(d);
          if (o.flags.profile === true) await d.profile("snapshot", "(not its render workers) during one more load at concurrency 2", o.log, () => loadAt(2));
          return rows({ timing, load1, runs, series, every, renders, end });
        },
        async teardown() {
          await endDaemonRun(d, copy, o.flags.keep === true);
        },
      } satisfies Measurements;
    } catch (err) {
      await endDaemonRun(daemon, copy, false);
      throw err;
    }
  },
};

/**
 * `renders` PNG cards (every detail, range, theme and language in turn), two at a time. After every
 * `every` renders the load stops until the queue is idle and the workers have had their idle garbage
 * collection, then memory is sampled: what the processes keep between renders, not a render's
 * transient peak or garbage not yet collected (VmHWM has the peaks).
 */
async function rssSeries(d: Daemon, renders: number, every: number, log: (m: string) => void): Promise<{ samples: Sample[]; failures: Record<string, number>; ms: number }> {
  const all = bodies(DETAILS, "png");
  const samples: Sample[] = [];
  const failures: Record<string, number> = {};
  let started = 0;
  const t0 = performance.now();
  const loop = async (until: number): Promise<void> => {
    while (started < until) {
      const body = all[started++ % all.length] as string;
      const r = await fetch(`${d.url}/api/snapshot`, {
        method: "POST",
        headers: { ...d.authHeaders, "Content-Type": "application/json" },
        body,
        signal: AbortSignal.timeout(60_000),
      });
      const bytes = await r.arrayBuffer();
      if (!r.ok) {
        const key = `${r.status} ${Buffer.from(bytes).toString("utf8").slice(0, 80)}`;
        failures[key] = (failures[key] ?? 0) + 1;
      }
    }
  };
  while (started < renders) {
    const until = Math.min(renders, started + every);
    await Promise.all([loop(until), loop(until)]);
    await settle(d);
    await new Promise((r) => setTimeout(r, WORKER_IDLE_COLLECT_MS + 500));
    const s: Sample = { renders: started, daemon: d.memory(), workers: d.workers() };
    samples.push(s);
    log(`  ${s.renders} renders (${((performance.now() - t0) / 1000).toFixed(0)} s): daemon ${s.daemon?.rssMb} MB, workers ${s.workers.map((w) => `${w.pid}: ${w.rssMb}`).join(", ")} MB`);
  }
  return { samples, failures, ms: performance.now() - t0 };
}

/**
 * How far the second half of a series moved from the first: the medians of the two halves (RSS
 * between renders swings with garbage collection, so single points are noisy), plus the single
 * point of the second half farthest from the first half's median.
 */
function drift(values: number[]): { percent: number; reference: number; worstPointPercent: number } {
  const half = Math.floor(values.length / 2);
  const reference = median(values.slice(0, half));
  const later = values.slice(half);
  const rel = (v: number): number => ((v - reference) / reference) * 100;
  const worst = later.reduce((w, v) => (Math.abs(rel(v)) > Math.abs(w) ? rel(v) : w), 0);
  return { percent: rel(median(later)), reference, worstPointPercent: worst };
}

function rows(r: {
  timing: RenderTimingResult;
  load1: number;
  runs: LoadRun[];
  series: { samples: Sample[]; failures: Record<string, number>; ms: number };
  every: number;
  renders: number;
  end: QueueStats;
}): Row[] {
  const out: Row[] = [];
  const ratios: number[] = [];
  for (const t of r.timing.timings) {
    const ours = median(t.oursMs);
    const bare = median(t.bareMs);
    ratios.push(ours / bare);
    out.push({
      metric: `warm render, ${t.detail} ${t.format}, median`,
      value: ours,
      unit: "ms",
      note: `p95 ${fmt(percentile(t.oursMs, 95))} ms; bare satori${t.format === "png" ? " + resvg" : ""} ${fmt(bare)} ms (p95 ${fmt(percentile(t.bareMs, 95))}): ${(ours / bare).toFixed(2)}x; tree ${t.treeMs.length ? median(t.treeMs).toFixed(2) : "?"} ms; ${(t.bytes / 1000).toFixed(0)} kB${t.identical ? ", same bytes" : ", DIFFERENT bytes"}`,
    });
  }
  const n = r.timing.timings[0]?.oursMs.length ?? 0;
  out.push({
    metric: "renderCard / bare satori + resvg",
    value: median(ratios),
    unit: "x",
    note: `median over the 6 kinds (${ratios.map((x) => x.toFixed(2)).join(", ")}); ${n} interleaved pairs each, one child process, daemon paused; first render of the process ${fmt(r.timing.coldMs)} ms; load average ${r.load1.toFixed(2)}`,
  });

  for (const run of r.runs) {
    const c = run.connections;
    const s503 = run.statusCodes["503"] ?? 0;
    const codes = Object.entries(run.errorCodes).map(([k, v]) => `${v}× ${k}`).join(", ") || "none";
    const ok = run.statusCodes["200"] ?? 0;
    out.push(
      {
        metric: `POST /api/snapshot standard png, concurrency ${c}, requests/s`,
        value: run.perSecond,
        unit: "req/s",
        note: `${run.requests} responses in ${run.durationS} s (${ok} × 200); errors/timeouts ${run.errors}/${run.timeouts}; error bodies: ${codes}`,
      },
      {
        metric: `  concurrency ${c}, p50 latency`,
        value: run.latencyMs.p50,
        unit: "ms",
        note: `of which in the daemon's pipeline (X-Snapshot-Duration: collect + build + render, no queue wait) median ${fmt(median(run.serverMs))} ms, p95 ${fmt(percentile(run.serverMs, 95))} ms`,
      },
      { metric: `  concurrency ${c}, p99 latency`, value: run.latencyMs.p99, unit: "ms", note: `max ${run.latencyMs.max} ms; a wait for a renderer beyond renderQueueWaitSeconds (5 s) is a 503 QUEUE_TIMEOUT` },
      {
        metric: `  concurrency ${c}, share of 503`,
        value: run.requests ? (100 * s503) / run.requests : 0,
        unit: "%",
        note: `${s503} of ${run.requests}; daemon CPU ${fmt(run.daemonCpuMs / Math.max(1, ok))} ms and render workers' CPU ${fmt(run.workerCpuMs / Math.max(1, ok))} ms per card (from /proc)`,
      },
    );
  }

  const { samples } = r.series;
  const daemonRss = samples.map((s) => s.daemon?.rssMb ?? Number.NaN);
  const workerTotal = samples.map((s) => s.workers.reduce((a, w) => a + w.rssMb, 0));
  const workerMax = samples.map((s) => Math.max(0, ...s.workers.map((w) => w.rssMb)));
  // When a worker's pid first shows: replacements after 500 cards (by design) or after a crash.
  const seen = new Set<number>();
  const newAt: string[] = [];
  for (const s of samples) {
    for (const w of s.workers) {
      if (seen.has(w.pid)) continue;
      seen.add(w.pid);
      if (s !== samples[0]) newAt.push(`pid ${w.pid} at ${s.renders}`);
    }
  }
  const dd = drift(daemonRss);
  const wd = drift(workerTotal);
  const failures = Object.entries(r.series.failures).map(([k, v]) => `${v}× ${k}`).join("; ") || "no failures";
  const seriesText = (xs: number[]): string => samples.map((s, i) => `${s.renders}: ${fmt(xs[i] as number)}`).join(", ");
  const half = samples[Math.floor(samples.length / 2)]?.renders ?? 0;
  // Fresh workers take a few hundred cards to reach their level: fewer renders cannot tell flat from growing.
  const judged = r.renders >= MIN_RENDERS_JUDGED;
  const aim = judged ? { aim: { op: "<=" as const, limit: AIM_DRIFT_PERCENT } } : {};
  const unjudged = judged ? "" : `; not judged under ${MIN_RENDERS_JUDGED} renders (the workers are still warming up)`;
  const last = samples[samples.length - 1];
  out.push(
    {
      metric: `daemon RSS after ${r.renders} renders`,
      value: daemonRss[daemonRss.length - 1] ?? Number.NaN,
      unit: "MB",
      note: `concurrency 2, sampled at rest every ${r.every} renders (queue idle, then the workers' idle collection), ${(r.series.ms / 1000).toFixed(0)} s in all; ${failures} (the daemon counted ${r.end.rendersTotal} cards and ${r.end.failuresTotal} failures since it started); peak ${last?.daemon?.hwmMb ?? "?"} MB; series (renders: MB) ${seriesText(daemonRss)}`,
    },
    {
      metric: `daemon RSS drift, renders ${half}-${r.renders} vs 1-${half}`,
      value: Math.abs(dd.percent),
      unit: "%",
      ...aim,
      note: `median ${pct(dd.percent)} from the first half's median ${fmt(dd.reference)} MB; farthest single sample ${pct(dd.worstPointPercent)}${unjudged}`,
    },
    {
      metric: `render workers' RSS after ${r.renders} renders (all workers)`,
      value: workerTotal[workerTotal.length - 1] ?? Number.NaN,
      unit: "MB",
      note: `${last?.workers.map((w) => `pid ${w.pid} ${w.rssMb} MB (peak ${w.hwmMb})`).join(", ") || "none"}; series ${seriesText(workerTotal)}; largest worker ${seriesText(workerMax)}; new workers (replacing one after 500 cards): ${newAt.join(", ") || "none"}`,
    },
    {
      metric: `render workers' RSS drift, renders ${half}-${r.renders} vs 1-${half}`,
      value: Math.abs(wd.percent),
      unit: "%",
      ...aim,
      note: `median ${pct(wd.percent)} from the first half's median ${fmt(wd.reference)} MB; farthest single sample ${pct(wd.worstPointPercent)}${unjudged}`,
    },
  );
  return out;
}
