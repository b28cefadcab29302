// Child process of the providers suite (bench/providers.ts), on plain node against dist/ (see
// bench/child.ts): our first scan of a Claude Code, Codex or Gemini CLI history, as the daemon does it. A
// fresh store, the provider pointed at exactly the dataset's dir, and SourceRegistry.refresh()
// until every source has finished its first pass (AgentSnapshot.firstPassDone). Measured: wall
// time, memory (sampled at event-loop turns, and the kernel's VmHWM), the event loop's longest
// block meanwhile (what an HTTP or GraphQL request waits at worst), then what a refresh costs
// when nothing changed (the collector polls every 2 s).
import * as fs from "node:fs";
import * as path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { SourceRegistry } from "../shared/ingest/source-registry.js";
import { LogHub } from "../shared/base/log/logger.js";
import { Pricer } from "../shared/pricing/pricer.js";
import { ClaudeCodeProvider } from "../shared/providers/claude-code/provider.js";
import { CodexProvider } from "../shared/providers/codex/provider.js";
import type { Provider } from "../shared/providers/contract.js";
import { KeptTotals } from "../shared/queries/kept-totals.js";
import { findSession } from "../shared/queries/sessions.js";
import { Store } from "../shared/store/store.js";
import { childInput, reply } from "./child-reply.js";
import { CpuProfiler } from "./cpu-profile.js";
import { memorySnapshot, MemorySampler } from "./memory.js";
import { procMemory } from "./proc.js";
import type { IncrementalRun, ScanInput, ScanResult, StallWindow } from "./providers-protocol.js";
import { since } from "./stats.js";

const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * What the scheduler says of this thread so far (Linux /proc/thread-self/schedstat): ms on a CPU,
 * and ms runnable but waiting for one; null elsewhere. A stall's wall time is the code's own CPU
 * time, plus waiting for a core on a loaded machine, plus time blocked (I/O: an fsync of the store).
 */
function threadSched(): { cpuMs: number; waitMs: number } | null {
  try {
    const [run, wait] = fs.readFileSync("/proc/thread-self/schedstat", "utf8").split(" ");
    return { cpuMs: Number(run) / 1e6, waitMs: Number(wait) / 1e6 };
  } catch {
    return null;
  }
}

/**
 * Two independent stall probes: the histogram of loop delays, and a 10 ms timer's lateness. The
 * timer also measures the main thread's CPU time between its ticks (the longest stretch of our
 * own work without a turn of the loop), and keeps the 10 longest late stretches, each with how it
 * splits, so a CPU profile can say what ran during them.
 */
function stallProbes(): { stop(): { maxStallMs: number; maxTimerDriftMs: number; maxStallCpuMs: number | null; windows: StallWindow[] } } {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const period = 10;
  let last = nowUs();
  let lastSched = threadSched();
  let drift = 0;
  let maxCpu: number | null = lastSched === null ? null : 0;
  const windows: StallWindow[] = [];
  const timer = setInterval(() => {
    const now = nowUs();
    const sched = threadSched();
    const late = (now - last) / 1000 - period;
    drift = Math.max(drift, late);
    const cpuMs = sched && lastSched ? sched.cpuMs - lastSched.cpuMs : null;
    const waitMs = sched && lastSched ? sched.waitMs - lastSched.waitMs : null;
    if (cpuMs !== null && maxCpu !== null) maxCpu = Math.max(maxCpu, cpuMs);
    if (late > 50) {
      windows.push({ startUs: last, endUs: now, cpuMs, waitMs });
      windows.sort((a, b) => b.endUs - b.startUs - (a.endUs - a.startUs));
      if (windows.length > 10) windows.pop();
    }
    last = now;
    lastSched = sched;
  }, period);
  return {
    stop() {
      clearInterval(timer);
      h.disable();
      return { maxStallMs: h.max / 1e6, maxTimerDriftMs: Math.max(0, drift), maxStallCpuMs: maxCpu, windows };
    },
  };
}

const tick = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// any: a transcript line as JSON, copied with a few fields changed.
type Line = Record<string, any>;

/**
 * The session a transcript belongs to, and a line like its last response's with fresh ids and
 * `output` output tokens (Claude Code: an assistant line; Codex: a token_usage_record; Gemini
 * CLI: a gemini record).
 */
function appendTemplate(kind: ScanInput["kind"], file: string): { key: string; line(i: number, output: number, now: number): string } {
  const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
  const parsed = lines.map((l) => {
    try {
      return JSON.parse(l) as Line;
    } catch {
      return null;
    }
  });
  if (kind === "claude-code") {
    const t = [...parsed].reverse().find((l) => l?.type === "assistant" && l.message?.usage);
    if (!t) throw new Error(`${file}: no assistant line with usage`);
    return {
      key: path.basename(file, ".jsonl"),
      line: (i, output, now) =>
        JSON.stringify({
          ...t,
          uuid: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
          timestamp: new Date(now).toISOString(),
          requestId: `req_bench_incremental_${i}`,
          message: { ...t.message, id: `msg_bench_incremental_${i}`, usage: { ...t.message.usage, output_tokens: output } },
        }),
    };
  }
  if (kind === "gemini-cli") {
    // A new response of the session: its last gemini record with tokens, under a new id, without tool calls.
    const header = parsed[0];
    const g = [...parsed].reverse().find((l) => l?.type === "gemini" && l.tokens);
    if (typeof header?.sessionId !== "string" || !g) throw new Error(`${file}: no session header or no gemini record with tokens`);
    return {
      key: header.sessionId,
      line: (i, output, now) => {
        const tokens = { ...g.tokens, output, total: g.tokens.input + output + g.tokens.thoughts + g.tokens.tool };
        return JSON.stringify({ id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, timestamp: new Date(now).toISOString(), type: "gemini", content: "Done.", thoughts: g.thoughts, tokens, model: g.model });
      },
    };
  }
  const t = [...parsed].reverse().find((l) => l?.type === "token_usage_record");
  if (!t) throw new Error(`${file}: no token_usage_record line`);
  const m = /([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl$/.exec(file);
  if (!m?.[1]) throw new Error(`${file}: not a rollout name`);
  return {
    key: m[1].toLowerCase(),
    line: (i, output, now) =>
      JSON.stringify({ ...t, timestamp: new Date(now).toISOString(), payload: { ...t.payload, response_id: `resp_bench_incremental_${i}`, usage: { ...t.payload.usage, output_tokens: output } } }),
  };
}

/**
 * One line appended at a time, then refreshed as the daemon does on its watch event (the file
 * named: `hinted`) or by a full pass of the source (`full`, the way before), alternating, until
 * the session's output tokens moved in findSession. Returns every run.
 */
async function incrementalRuns(registry: SourceRegistry, store: Store, clock: { now(): number }, kind: ScanInput["kind"], file: string, reps: number): Promise<IncrementalRun[]> {
  const [snap] = registry.agentSnapshots();
  const source = snap ? registry.source(snap.id) : undefined;
  if (!source) throw new Error("no source to append to");
  const { key, line } = appendTemplate(kind, file);
  // Per-session totals as the daemon's read model keeps them: read again for the sessions written only.
  const kept = new KeptTotals(store);
  const output = (): number | null => findSession(store, source.snapshot(), key, clock.now(), kept.of(source))?.outputTokens ?? null;
  let last = output();
  if (last === null) throw new Error(`session ${key} not found`);
  const runs: IncrementalRun[] = [];
  for (let i = 0; i < reps * 2; i++) {
    // Pairs in alternating order (hinted, full, full, hinted, ...): neither always goes first.
    const how: IncrementalRun["how"] = i % 4 === 0 || i % 4 === 3 ? "hinted" : "full";
    fs.appendFileSync(file, `${line(i, 1000 + i, clock.now())}\n`);
    const t = performance.now();
    const c = process.cpuUsage();
    await registry.refreshSource(source.id, how === "hinted" ? { paths: new Set([file]) } : null);
    const refreshMs = since(t);
    const d = process.cpuUsage(c);
    const q = performance.now();
    const now = output();
    const queryMs = since(q);
    if (now === null || now === last) throw new Error(`the appended line was not visible after one ${how} refresh`);
    last = now;
    runs.push({ how, ms: since(t), refreshMs, refreshCpuMs: (d.user + d.system) / 1000, queryMs });
  }
  return runs;
}

async function scan(input: ScanInput): Promise<ScanResult> {
  const baseline = memorySnapshot();
  const t0 = Date.now();
  const clock = { now: () => input.anchorNow + (Date.now() - t0) };
  const logger = new LogHub({ console: "off", level: "info", ringSize: 100 }).logger;
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(input.storePath + suffix, { force: true });
  fs.mkdirSync(path.dirname(input.storePath), { recursive: true, mode: 0o700 });
  const store = Store.open(input.storePath, { clock });
  const pricer = new Pricer();
  const options = { env: {}, home: input.home, dirs: [input.root], pricer };
  // Gemini CLI's module is loaded only when asked for: an earlier build measured with --baseline may not have it.
  const provider: Provider =
    input.kind === "claude-code"
      ? new ClaudeCodeProvider(options)
      : input.kind === "codex"
        ? new CodexProvider(options)
        : new (await import("../shared/providers/gemini-cli/provider.js")).GeminiCliProvider(options);
  const registry = new SourceRegistry({ providers: [provider], store, clock, logger });

  const profiler = input.profileDir ? new CpuProfiler() : null;
  if (profiler) await profiler.start();
  const sampler = new MemorySampler();
  const probes = stallProbes();
  // The histogram's first tick only sets its reference time: let it tick before the work starts.
  await tick(25);
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let refreshes = 0;
  do {
    await registry.refresh();
    refreshes++;
  } while (!registry.ready && refreshes < 10_000);
  const ms = since(start);
  const cpu = process.cpuUsage(cpu0);
  // One more turn of the loop records the block that ended with the scan.
  await tick(20);
  const { windows: stallWindows, ...stalls } = probes.stop();
  const scanPeaks = sampler.stop();
  const afterScan = memorySnapshot();
  const hwmMb = procMemory(process.pid)?.hwmMb ?? null;
  const profiles: string[] = [];
  if (profiler && input.profileDir) {
    const file = path.join(input.profileDir, `${input.kind}-scan.cpuprofile`);
    await profiler.stop(file);
    profiles.push(file);
  }

  const snaps = registry.agentSnapshots();
  const idleProfiler = input.profileDir && input.idleRefreshes > 0 ? new CpuProfiler() : null;
  if (idleProfiler) await idleProfiler.start();
  const idleRefreshMs: number[] = [];
  const idleRefreshCpuMs: number[] = [];
  for (let i = 0; i < input.idleRefreshes; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    await registry.refresh();
    idleRefreshMs.push(since(t));
    const d = process.cpuUsage(c);
    idleRefreshCpuMs.push((d.user + d.system) / 1000);
  }
  if (idleProfiler && input.profileDir) {
    const file = path.join(input.profileDir, `${input.kind}-idle-refresh.cpuprofile`);
    await idleProfiler.stop(file);
    profiles.push(file);
  }
  const incremental = input.incremental ? await incrementalRuns(registry, store, clock, input.kind, input.incremental.file, input.incremental.reps) : null;
  const usageRows = (store.db.prepare("SELECT count(*) AS n FROM token_usage WHERE role = 'assistant'").get() as { n: number }).n;
  registry.close();
  store.close();
  let storeBytes = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      storeBytes += fs.statSync(input.storePath + suffix).size;
    } catch {
      // no WAL left
    }
  }
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    refreshes,
    sources: snaps.length,
    firstPassDone: snaps.length > 0 && snaps.every((s) => s.firstPassDone),
    transcripts: snaps.reduce((a, s) => a + s.transcripts, 0),
    usageRows,
    warnings: snaps.reduce((a, s) => a + s.warnings, 0),
    ...stalls,
    baseline,
    afterScan,
    scanPeaks,
    hwmMb,
    idleRefreshMs,
    idleRefreshCpuMs,
    storeBytes,
    profiles,
    stallWindows,
    incremental,
  };
}

reply<ScanResult>(() => scan(childInput<ScanInput>()));
