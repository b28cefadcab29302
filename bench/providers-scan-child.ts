// Child process of the providers suite (bench/providers.ts), on plain node against dist/ (see
// bench/child.ts): our first scan of a Claude Code or Codex history, as the daemon does it. A
// fresh store, the provider pointed at exactly the dataset's dir, and SourceRegistry.refresh()
// until every source has finished its first pass (AgentSnapshot.firstPassDone). Measured: wall
// time, memory (sampled at event-loop turns, and the kernel's VmHWM), the event loop's longest
// block meanwhile (what an HTTP or GraphQL request waits at worst), then what a refresh costs
// when nothing changed (the collector polls every 2 s).
import * as fs from "node:fs";
import * as path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { SourceRegistry } from "../shared/ingest/source-registry.js";
import { LogHub } from "../shared/log/logger.js";
import { Pricer } from "../shared/pricing/pricer.js";
import { ClaudeCodeProvider } from "../shared/sources/claude-code/provider.js";
import { CodexProvider } from "../shared/sources/codex/provider.js";
import type { Provider } from "../shared/sources/contract.js";
import { Store } from "../shared/store/store.js";
import { childInput, reply } from "./child-reply.js";
import { CpuProfiler } from "./cpu-profile.js";
import { memorySnapshot, MemorySampler } from "./memory.js";
import { procMemory } from "./proc.js";
import type { ScanInput, ScanResult, StallWindow } from "./providers-protocol.js";
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

async function scan(input: ScanInput): Promise<ScanResult> {
  const baseline = memorySnapshot();
  const t0 = Date.now();
  const clock = { now: () => input.anchorNow + (Date.now() - t0) };
  const logger = new LogHub({ console: "off", level: "info", ringSize: 100 }).logger;
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(input.storePath + suffix, { force: true });
  fs.mkdirSync(path.dirname(input.storePath), { recursive: true, mode: 0o700 });
  const store = Store.open(input.storePath, { clock });
  const pricer = new Pricer();
  const provider: Provider =
    input.kind === "claude-code"
      ? new ClaudeCodeProvider({ env: {}, home: input.home, dirs: [input.root], pricer })
      : new CodexProvider({ env: {}, home: input.home, dirs: [input.root], pricer });
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
  };
}

reply<ScanResult>(() => scan(childInput<ScanInput>()));
