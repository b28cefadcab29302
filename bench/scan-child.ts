// Child process of the scan suite, run on plain node against dist/ (see bench/child.ts).
//   bare: read every transcript row / line, zstd-decode like the daemon, JSON.parse: the floor.
//   real: a fresh store + SourceRegistry.refresh() until every agent is ready, then the
//         incremental and query measurements on that store.
import * as fs from "node:fs";
import * as path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import Database from "better-sqlite3";
import { OpenClawProvider } from "../shared/providers/openclaw/provider.js";
import { SourceRegistry } from "../shared/ingest/source-registry.js";
import { LogHub } from "../shared/base/log/logger.js";
import { queryMetrics } from "../shared/queries/metrics.js";
import { KeptTotals } from "../shared/queries/kept-totals.js";
import { findSession, querySessions } from "../shared/queries/sessions.js";
import { decodeZstd, zstdBackend } from "../shared/providers/openclaw/zstd.js";
import { Store } from "../shared/store/store.js";
import { Appender } from "./append.js";
import { childInput, reply } from "./child-reply.js";
import { CpuProfiler } from "./cpu-profile.js";
import { memorySnapshot, MemorySampler } from "./memory.js";
import type { BareInput, BareResult, RealInput, RealResult } from "./scan-protocol.js";
import { since } from "./stats.js";

function agentDirs(stateDir: string): string[] {
  const root = path.join(stateDir, "agents");
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(root, d.name))
    .sort();
}

async function bare(input: BareInput): Promise<BareResult> {
  const start = performance.now();
  let bytes = 0;
  let events = 0;
  let zstdRows = 0;
  let messages = 0;
  // User and assistant messages: the real scan must record exactly one usage row for each.
  const count = (event: unknown): void => {
    const role = (event as { message?: { role?: unknown } }).message?.role;
    if (role === "user" || role === "assistant") messages++;
  };
  for (const dir of agentDirs(input.stateDir)) {
    if (input.era === "sqlite") {
      const db = new Database(path.join(dir, "agent", "openclaw-agent.sqlite"), { readonly: true, fileMustExist: true });
      const rows = db.prepare("SELECT event_json, event_zstd FROM transcript_events ORDER BY session_id, seq").iterate() as IterableIterator<{ event_json: string | null; event_zstd: Buffer | null }>;
      for (const r of rows) {
        let text = r.event_json;
        if (text === null && r.event_zstd) {
          const buf = decodeZstd(r.event_zstd);
          bytes += buf.length;
          text = buf.toString("utf8");
          zstdRows++;
        } else if (text !== null) bytes += Buffer.byteLength(text);
        if (text !== null) count(JSON.parse(text));
        events++;
      }
      db.close();
    } else {
      const sessionsDir = path.join(dir, "sessions");
      for (const name of fs.readdirSync(sessionsDir)) {
        if (!name.endsWith(".jsonl")) continue;
        const buf = fs.readFileSync(path.join(sessionsDir, name));
        bytes += buf.length;
        for (const line of buf.toString("utf8").split("\n")) {
          if (line === "") continue;
          count(JSON.parse(line));
          events++;
        }
      }
    }
  }
  return { ms: since(start), bytes, events, zstdRows, messages, memory: memorySnapshot() };
}

/** Runs `work` and says how long the event loop was blocked at most meanwhile (HTTP waits that long). */
async function withStallWatch<T>(work: () => Promise<T>): Promise<{ value: T; maxStallMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  // The histogram's first tick only sets its reference time: let it tick before the work starts.
  await new Promise((r) => setTimeout(r, 25));
  try {
    const value = await work();
    // Let one more turn of the loop record the block that ended with `work`.
    await new Promise((r) => setTimeout(r, 20));
    return { value, maxStallMs: h.max / 1e6 };
  } finally {
    h.disable();
  }
}

async function real(input: RealInput): Promise<RealResult> {
  const baseline = memorySnapshot();
  // The dataset was built at `anchorNow`; time runs on from there so "last 24 h" means the same.
  const t0 = Date.now();
  const clock = { now: () => input.anchorNow + (Date.now() - t0) };
  const logger = new LogHub({ console: "off", level: "info", ringSize: 100 }).logger;
  const store = Store.open(input.storePath, { clock });
  const registry = new SourceRegistry({ providers: [new OpenClawProvider({ stateDir: input.stateDir, env: {} })], store, clock, logger });
  const profiles: string[] = [];
  const profile = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    if (!input.profileDir) return work();
    const p = new CpuProfiler();
    await p.start();
    try {
      return await work();
    } finally {
      const file = path.join(input.profileDir, `${name}.cpuprofile`);
      await p.stop(file);
      profiles.push(file);
    }
  };

  // First scan.
  const sampler = new MemorySampler();
  let refreshes = 0;
  let scanMs = 0;
  const { maxStallMs } = await withStallWatch(() =>
    profile("scan", async () => {
      const start = performance.now();
      do {
        await registry.refresh();
        refreshes++;
      } while (!registry.ready && refreshes < 10_000);
      scanMs = since(start);
    }),
  );
  const scanPeaks = sampler.stop();
  const afterScan = memorySnapshot();
  // What the process holds on to, as opposed to garbage V8 has not collected yet.
  if (typeof globalThis.gc === "function") globalThis.gc();
  const afterGc = memorySnapshot();
  const snaps = registry.agentSnapshots();
  const count = (sql: string): number => (store.db.prepare(sql).get() as { n: number }).n;
  const scan = {
    ms: scanMs,
    refreshes,
    transcripts: snaps.reduce((a, s) => a + s.transcripts, 0),
    sessions: snaps.reduce((a, s) => a + s.sessions.length, 0),
    usageRows: count("SELECT count(*) AS n FROM token_usage"),
    warnings: snaps.reduce((a, s) => a + s.warnings, 0),
    agentsReady: snaps.filter((s) => s.firstPassDone && s.state.status === "CONNECTED").length,
    maxStallMs,
  };

  // What every poll costs when nothing changed.
  const idleRefreshMs: number[] = [];
  let idleMaxStallMs = 0;
  for (let i = 0; i < input.idleRefreshes; i++) {
    const { value: ms, maxStallMs: stall } = await withStallWatch(async () => {
      const t = performance.now();
      await registry.refresh();
      return since(t);
    });
    idleRefreshMs.push(ms);
    idleMaxStallMs = Math.max(idleMaxStallMs, stall);
  }

  let incremental: RealResult["incremental"] = null;
  if (input.incremental) {
    const { target, reps } = input.incremental;
    const appender = new Appender(input.stateDir, target, clock);
    const agent = registry.source(`agent:${target.agentId}`);
    if (!agent) throw new Error(`agent ${target.agentId} not found by the registry`);
    // Per-session totals as the daemon's read model keeps them: read again for the sessions written only.
    const kept = new KeptTotals(store);
    const before = findSession(store, agent.snapshot(), target.sessionKey, clock.now(), kept.of(agent));
    if (!before) throw new Error(`session ${target.sessionKey} not found`);
    let expected = before.outputTokens;
    const result: NonNullable<RealResult["incremental"]> = { latencyMs: [], refreshMs: [], queryMs: [], refreshes: [], how: [], indexRefreshMs: [] };
    const files = target.era === "files";
    await profile("incremental", async () => {
      for (let i = 0; i < reps; i++) {
        const output = 1000 + i;
        // The writer's own cost is not ours: timing starts once it is on disk. File era: the JSONL
        // line first, refreshed as its watch event makes the daemon refresh (that agent, the file
        // named), then sessions.json, refreshed as its own event does (below).
        appender.appendLine(output);
        expected += output;
        // As the daemon does on the watch event: that agent alone (SQLite era: the WAL named, which
        // only a full pass of the agent can read).
        const how = !files ? "agent" : i % 2 === 0 ? "hinted" : "full";
        const refresh = (): Promise<unknown> => registry.refreshSource(agent.id, how === "hinted" ? { paths: new Set([appender.jsonl]) } : null);
        const t = performance.now();
        let refreshMs = 0;
        let queryMs = 0;
        let n = 0;
        for (let visible = false; !visible; ) {
          if (n >= 5) throw new Error(`appended event not visible in querySessions after ${n} refreshes`);
          const r = performance.now();
          await refresh();
          refreshMs += since(r);
          n++;
          const q = performance.now();
          const views = querySessions(store, agent.snapshot(), {}, clock.now(), kept.of(agent));
          queryMs += since(q);
          visible = views.find((v) => v.key === target.sessionKey)?.outputTokens === expected;
        }
        result.latencyMs.push(since(t));
        result.refreshMs.push(refreshMs);
        result.queryMs.push(queryMs);
        result.refreshes.push(n);
        result.how.push(how);
        if (files) {
          appender.touchIndex();
          const r = performance.now();
          await registry.refreshSource(agent.id, { paths: new Set([appender.sessionsJson]) });
          result.indexRefreshMs.push(since(r));
        }
      }
    });
    appender.close();
    incremental = result;
  }

  let queries: RealResult["queries"] = null;
  if (input.queryReps > 0) {
    const ids = registry.agentSnapshots().map((s) => s.id);
    const sessionsMs: number[] = [];
    const metricsMs: number[] = [];
    const perAgent: Record<string, { sessionsMs: number[]; metricsMs: number[] }> = {};
    let sessionsReturned = 0;
    let rangeTokensK = 0;
    // One untimed pass first: statement and page caches warm, as in a running daemon.
    for (const id of ids) {
      const snap = registry.source(id)?.snapshot();
      if (snap) querySessions(store, snap, {}, clock.now());
      queryMetrics(store, { sourceId: id, provider: "openclaw" }, { range: "TWENTY_FOUR_HOUR", now: clock.now(), timeZone: "UTC" });
    }
    for (let i = 0; i < input.queryReps; i++) {
      const id = ids[i % ids.length] as string;
      const snap = registry.source(id)?.snapshot();
      if (!snap) throw new Error(`source ${id} vanished`);
      let t = performance.now();
      const views = querySessions(store, snap, {}, clock.now());
      sessionsMs.push(since(t));
      t = performance.now();
      const m = queryMetrics(store, { sourceId: id, provider: "openclaw" }, { range: "TWENTY_FOUR_HOUR", now: clock.now(), timeZone: "UTC" });
      metricsMs.push(since(t));
      const mine = (perAgent[id] ??= { sessionsMs: [], metricsMs: [] });
      mine.sessionsMs.push(sessionsMs[sessionsMs.length - 1] as number);
      mine.metricsMs.push(metricsMs[metricsMs.length - 1] as number);
      if (i === 0) {
        sessionsReturned = views.length;
        rangeTokensK = m.rangeTokensK;
      }
    }
    queries = { sessionsMs, metricsMs, perAgent, sessionsReturned, rangeTokensK };
  }

  registry.close();
  store.close();
  return { scan, afterScan, afterGc, scanPeaks, baseline, idleRefreshMs, idleMaxStallMs, incremental, queries, profiles, zstdBackend: zstdBackend() };
}

const input = childInput<BareInput | RealInput>();
reply<BareResult | RealResult>(() => (input.mode === "bare" ? bare(input) : real(input)));
