// Suite "graphql" (issue 4): the GraphQL API of a real daemon over the synthetic state.
//   - queries per second and latency of one `sessions` + `metrics` query (autocannon), next to
//     GET /health in the same run: the floor the HTTP stack gives; the ratio is the figure;
//   - fan-out: 100 SSE subscriptions to `dataChanged`, one event appended to a transcript, the
//     time until each subscription has the signal, split into the daemon's detection (poll wait +
//     refresh) and the delivery to the clients;
//   - the daemon's resident memory after all that (from /proc).
// The daemon is the built dist/daemon/main.js, a child process with its own HOME under .tmp/bench.
import { Appender } from "./append.js";
import { runChild } from "./child.js";
import { endDaemonRun, startReadyDaemon, type Daemon } from "./daemon.js";
import type { FanoutInput, FanoutResult } from "./graphql-protocol.js";
import type { LoadInput, LoadResult } from "./load-protocol.js";
import { procCpuMs, type ProcMemory } from "./proc.js";
import { median, percentile } from "./stats.js";
import { copySyntheticState, type StateCopy } from "./state-copy.js";
import type { BenchOptions, Measurements, Row, Suite } from "./suite.js";

/** The collector scans the agents every 2 s (shared/ingest/collector.ts). */
const POLL_MS = 2000;

/**
 * Issue 13's aims for the sessions + metrics query at 10,000 sessions: the daemon's CPU per
 * query, requests per second at 10 connections, p99 latency.
 */
export const AIM_CPU_PER_QUERY_MS = 3;
export const AIM_QUERIES_PER_S = 300;
export const AIM_P99_MS = 60;

const QUERY = `query Bench($id: String!) {
  source(selector: {id: $id}) {
    ... on AgentNamespace {
      sessions { key totalTokens costUsd status }
      metrics(range: TWENTY_FOUR_HOUR) { rangeTokensK costUsd buckets { tokens } }
    }
  }
}`;

function num(flags: BenchOptions["flags"], name: string, fallback: number): number {
  const v = flags[name];
  const n = typeof v === "string" ? Number(v) : fallback;
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`--${name} must be a positive integer`);
  return n;
}

interface LoadPair {
  health: LoadResult & { daemonCpuMs: number };
  graphql: LoadResult & { daemonCpuMs: number };
}

const fmt = (v: number): string => (v < 10 ? v.toFixed(1) : v.toFixed(0));
const mem = (m: ProcMemory | null): string => (m ? `${m.rssMb} MB (${m.anonMb} anonymous + ${m.fileMb} file-backed; peak ${m.hwmMb} MB)` : "gone");

export const graphqlSuite: Suite = {
  name: "graphql",
  title: "GraphQL on a real daemon: sessions + metrics queries per second, SSE fan-out, RSS",
  flags: {
    "gql-seconds": { type: "string", description: "seconds of autocannon load per run (default 20; --quick 5)" },
    "gql-connections": { type: "string", description: "autocannon connections (default 10)" },
    "gql-rounds": { type: "string", description: "health/graphql load pairs, in alternating order (default 2; --quick 1)" },
    "sse-clients": { type: "string", description: "SSE subscriptions in the fan-out (default 100)" },
    "sse-reps": { type: "string", description: "appends timed in the fan-out (default 10; --quick 3)" },
  },

  async setup(o) {
    const seconds = num(o.flags, "gql-seconds", o.quick ? 5 : 20);
    const connections = num(o.flags, "gql-connections", 10);
    const rounds = num(o.flags, "gql-rounds", o.quick ? 1 : 2);
    const clients = num(o.flags, "sse-clients", 100);
    const reps = num(o.flags, "sse-reps", o.quick ? 3 : 10);
    const copy: StateCopy = copySyntheticState(o, "graphql");
    const m = copy.state.manifest;
    let daemon: Daemon | null = null;
    try {
      const started = await startReadyDaemon(o, "graphql", copy);
      const { ready } = started;
      const d = (daemon = started.daemon);
      const afterScan = d.memory();
      const agentId = `agent:${m.target.agentId}`;
      const biggest = m.agents.reduce((a, b) => (b.sessions > a.sessions ? b : a));
      const sessionsOf = m.agents.find((a) => a.id === m.target.agentId)?.sessions ?? 0;
      const which = `${sessionsOf} sessions${biggest.id === m.target.agentId ? ", the biggest agent" : `; the biggest is ${biggest.id} with ${biggest.sessions}`}`;
      const context = [
        ...copy.context,
        `daemon: dist/daemon/main.js (pid ${d.pid}), default config but INSIGHTS_SNAPSHOT_RATE_LIMIT_PER_MINUTE=100000; first scan seen from outside ${(ready.ms / 1000).toFixed(1)} s, RSS then ${mem(afterScan)}`,
        `load: autocannon, ${connections} connections, ${seconds} s per run after a ${o.quick ? 1 : 3} s warm-up, ${rounds} round(s) of /health and /graphql in alternating order; query on ${agentId} (${which})`,
      ];
      return {
        context,
        async run(): Promise<Row[]> {
          // The query must return real data, or the figures mean nothing.
          const probe = await d.graphql<{ source: { sessions: unknown[]; metrics: { rangeTokensK: number; buckets: unknown[] } } }>(QUERY, { id: agentId });
          const body = JSON.stringify({ query: QUERY, variables: { id: agentId } });
          const responseBytes = Buffer.byteLength(JSON.stringify({ data: probe }));
          if (probe.source.sessions.length === 0 || probe.source.metrics.buckets.length === 0) throw new Error(`the query returned no sessions or no buckets for ${agentId}`);
          o.log(`query: ${probe.source.sessions.length} sessions, ${probe.source.metrics.buckets.length} buckets, ${probe.source.metrics.rangeTokensK}k tokens in range; response ${(responseBytes / 1000).toFixed(1)} kB`);

          const load = async (what: "health" | "graphql"): Promise<LoadResult & { daemonCpuMs: number }> => {
            const input: LoadInput = {
              url: `${d.url}${what === "health" ? "/health" : "/graphql"}`,
              method: what === "health" ? "GET" : "POST",
              // The same headers for both, so the floor differs only in what the route does.
              headers: { ...d.authHeaders, "Content-Type": "application/json" },
              bodies: what === "health" ? [] : [body],
              connections,
              durationS: seconds,
              warmupS: o.quick ? 1 : 3,
              timeoutS: 30,
            };
            const cpu0 = procCpuMs(d.pid);
            const r = await runChild<LoadResult>("load-child.ts", input);
            const daemonCpuMs = procCpuMs(d.pid) - cpu0;
            o.log(`  ${what}: ${fmt(r.perSecond)} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms, ${r.errors} errors, ${r.non2xx} non-2xx`);
            return { ...r, daemonCpuMs };
          };
          const pairs: LoadPair[] = [];
          for (let i = 0; i < rounds; i++) {
            // Alternating order, so a burst of load elsewhere on the machine hits both sides.
            if (i % 2 === 0) {
              const health = await load("health");
              pairs.push({ health, graphql: await load("graphql") });
            } else {
              const graphql = await load("graphql");
              pairs.push({ graphql, health: await load("health") });
            }
          }

          // The same load while the source changes every second, as a busy agent does: each change
          // drops the source's kept answers, so this shows what one change costs spread over the
          // queries between two changes.
          o.log(`changing: the query load while ${m.target.sessionKey} gets an assistant message every second`);
          const appender = new Appender(copy.stateDir, { era: m.params.era, ...m.target }, { now: () => Date.now() });
          let appends = 0;
          const ticker = setInterval(() => appender.append(2000 + appends++), 1000);
          let changing: LoadResult & { daemonCpuMs: number };
          try {
            changing = await load("graphql");
          } finally {
            clearInterval(ticker);
            appender.close();
          }

          o.log(`fan-out: ${clients} SSE subscriptions, ${reps} appends to ${m.target.sessionKey}`);
          const fanInput: FanoutInput = {
            url: d.url,
            token: d.token,
            clients,
            reps,
            stateDir: copy.stateDir,
            target: { era: m.params.era, ...m.target },
            source: agentId,
            pollMs: POLL_MS,
            timeoutMs: 30_000,
            query: { body, sessionKey: m.target.sessionKey },
          };
          const fan = await runChild<FanoutResult>("fanout-child.ts", fanInput);
          // Let the daemon settle (the subscriptions' sockets close) before reading its memory.
          await new Promise((r) => setTimeout(r, 1000));
          const after = d.memory();
          const workers = d.workers();
          if (o.flags.profile === true) await d.profile("graphql", "during one more graphql load", o.log, () => load("graphql"));
          return rows({ pairs, changing: { ...changing, appends }, fan, after, workers, responseBytes, sessions: probe.source.sessions.length });
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

function rows(r: { pairs: LoadPair[]; changing: LoadResult & { daemonCpuMs: number; appends: number }; fan: FanoutResult; after: ProcMemory | null; workers: Array<ProcMemory & { command: string }>; responseBytes: number; sessions: number }): Row[] {
  const { pairs, fan } = r;
  const g = pairs.map((p) => p.graphql);
  const h = pairs.map((p) => p.health);
  const med = (xs: LoadResult[], pick: (x: LoadResult) => number): number => median(xs.map(pick));
  const runs = pairs.length > 1 ? `median of ${pairs.length} runs` : "one run";
  const sum = (xs: LoadResult[], pick: (x: LoadResult) => number): number => xs.reduce((a, x) => a + pick(x), 0);
  const failures = (xs: LoadResult[]): string => {
    const codes = Object.entries(xs.reduce<Record<string, number>>((acc, x) => {
      for (const [c, n] of Object.entries(x.statusCodes)) acc[c] = (acc[c] ?? 0) + n;
      return acc;
    }, {})).map(([c, n]) => `${n}× ${c}`);
    return `${sum(xs, (x) => x.errors)} errors (${sum(xs, (x) => x.timeouts)} timeouts), ${sum(xs, (x) => x.non2xx)} non-2xx; status ${codes.join(", ")}`;
  };
  const cpuPerReq = (x: LoadResult & { daemonCpuMs: number }): number => x.daemonCpuMs / Math.max(1, x.requests);
  const ratios = pairs.map((p) => p.health.perSecond / p.graphql.perSecond);

  const reps = fan.reps;
  const all = reps.flatMap((x) => x.latencyMs);
  const detection = reps.map((x) => x.detectionMs);
  const spread = reps.map((x) => x.spreadMs);
  const firstAfter = reps.map((x) => x.firstAfterSignalMs);
  const others = Object.entries(fan.otherSignals).map(([s, n]) => `${n}× ${s}`).join(", ") || "none";
  const after = reps.map((x) => x.afterChange);
  const firstMs = after.map((a) => a.firstMs);
  const repeatMs = after.map((a) => a.repeatMs);
  const stale = after.filter((a) => !a.fresh).length;
  const workers = r.workers.length ? r.workers.map((w) => `${w.rssMb} MB (pid ${w.pid})`).join(", ") : "none running";

  return [
    {
      metric: "sessions + metrics query, requests/s",
      value: med(g, (x) => x.perSecond),
      unit: "req/s",
      aim: { op: ">=", limit: AIM_QUERIES_PER_S },
      note: `${runs}; ${sum(g, (x) => x.requests)} requests; ${r.sessions} sessions + 24 buckets per answer (${(r.responseBytes / 1000).toFixed(1)} kB); ${failures(g)}`,
    },
    { metric: "sessions + metrics query, p50 latency", value: med(g, (x) => x.latencyMs.p50), unit: "ms", note: `${runs}; mean ${fmt(med(g, (x) => x.latencyMs.mean))} ms` },
    { metric: "sessions + metrics query, p99 latency", value: med(g, (x) => x.latencyMs.p99), unit: "ms", aim: { op: "<=", limit: AIM_P99_MS }, note: `${runs}; max ${Math.max(...g.map((x) => x.latencyMs.max))} ms` },
    {
      metric: "daemon CPU per query",
      value: median(g.map(cpuPerReq)),
      unit: "ms",
      aim: { op: "<=", limit: AIM_CPU_PER_QUERY_MS },
      note: `daemon process CPU time (/proc) during the load / requests; /health: ${median(h.map(cpuPerReq)).toFixed(2)} ms`,
    },
    {
      metric: "GET /health (HTTP floor), requests/s",
      value: med(h, (x) => x.perSecond),
      unit: "req/s",
      note: `${runs}; p50 ${med(h, (x) => x.latencyMs.p50)} ms, p99 ${med(h, (x) => x.latencyMs.p99)} ms, max ${Math.max(...h.map((x) => x.latencyMs.max))} ms; ${failures(h)}`,
    },
    {
      metric: "/health req/s ÷ query req/s",
      value: median(ratios),
      unit: "x",
      note: `${pairs.length > 1 ? `median of ${pairs.length} back-to-back pairs (${ratios.map((x) => x.toFixed(1)).join(", ")})` : "one back-to-back pair"}; what a query costs over the bare HTTP stack`,
    },
    {
      metric: "daemon CPU per query while the source changes every second",
      value: cpuPerReq(r.changing),
      unit: "ms",
      aim: { op: "<=", limit: AIM_CPU_PER_QUERY_MS },
      note: `one run; ${fmt(r.changing.perSecond)} req/s, p50 ${r.changing.latencyMs.p50} ms, p99 ${r.changing.latencyMs.p99} ms, max ${r.changing.latencyMs.max} ms; ${r.changing.appends} assistant messages appended to the queried agent (warm-up included); ${failures([r.changing])}`,
    },
    {
      metric: `dataChanged fan-out to ${fan.clients} SSE clients, median`,
      value: median(all),
      unit: "ms",
      note: `append -> receipt, ${reps.length} appends × ${fan.clients} clients; min ${fmt(Math.min(...all))}, p99 ${fmt(percentile(all, 99))}, max ${fmt(Math.max(...all))} ms; ${fan.clients} subscriptions open in ${fmt(fan.connectMs)} ms, ${fan.dropped} dropped`,
    },
    { metric: "fan-out, p99", value: percentile(all, 99), unit: "ms", note: `poll interval ${POLL_MS} ms included` },
    {
      metric: "  of which detection (append -> daemon's signal), median",
      value: median(detection),
      unit: "ms",
      note: `min ${fmt(Math.min(...detection))}, max ${fmt(Math.max(...detection))} ms: waiting for the next poll (0-${POLL_MS} ms) + the refresh that finds the event; signals of other sources meanwhile: ${others}`,
    },
    {
      metric: "  of which delivery (signal -> first client), median",
      value: median(firstAfter),
      unit: "ms",
      note: `max ${fmt(Math.max(...firstAfter))} ms`,
    },
    {
      metric: `  of which fan-out spread (first -> last of ${fan.clients} clients), median`,
      value: median(spread),
      unit: "ms",
      note: `max ${fmt(Math.max(...spread))} ms; per append: ${spread.map(fmt).join(", ")}`,
    },
    {
      metric: "first query after a change (the source's answers dropped), median",
      value: median(firstMs),
      unit: "ms",
      note: `round trip, no other load; once each append reached all clients; max ${fmt(Math.max(...firstMs))} ms; ${stale} of ${after.length} answers without the appended tokens (must be 0: dataChanged never announces what a query cannot see yet)`,
    },
    {
      metric: "  the same query repeated at once, median",
      value: median(repeatMs),
      unit: "ms",
      note: `max ${fmt(Math.max(...repeatMs))} ms; answered from what the first one left`,
    },
    {
      metric: "daemon RSS after the run",
      value: r.after?.rssMb ?? Number.NaN,
      unit: "MB",
      note: `${mem(r.after)}; render worker(s): ${workers}`,
    },
  ];
}
