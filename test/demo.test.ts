// Demo mode end to end: a real daemon with no OpenClaw state dir serves the bundled demo as a
// living gateway. Its clock is injected far from the recording's date, so "recent" can only come
// from moving the copy to now; the replay's timer is injected, so the test decides when it fires.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { createClient as createSseClient } from "graphql-sse";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Daemon } from "../daemon/daemon.js";
import { pollUntil, shiftedClock, systemClock } from "../shared/clock.js";
import { seededRandom } from "../shared/demo-replay/random.js";
import type { ReplayTimers } from "../shared/demo-replay/replay.js";
import { resolvePaths } from "../shared/paths.js";
import { freePort } from "./helpers/cli.js";
import { gqlData } from "./helpers/daemon.js";

/** The injected "now": months after the recording (2026-11-21), so stale data cannot pass for recent. */
const NOW = Date.parse("2027-03-01T12:00:00.000Z");
const DAY = 86_400_000;

/** Timers that never fire by themselves: `fire` runs the step the replay scheduled. */
function heldTimers(): { timers: ReplayTimers; fire(): boolean } {
  let pending: (() => void) | null = null;
  return {
    timers: {
      set: (fn) => {
        pending = fn;
        return 1;
      },
      clear: () => {
        pending = null;
      },
    },
    fire: () => {
      const fn = pending;
      pending = null;
      fn?.();
      return fn !== null;
    },
  };
}

interface Demo {
  daemon: Daemon;
  d: { url: string; token: string };
  root: string;
  stateDir: string;
  fire(): boolean;
  stop(): Promise<void>;
}

async function startDemo(): Promise<Demo> {
  const root = mkdtempSync(join(tmpdir(), "gi-demo-"));
  const env: Record<string, string> = {
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_STATE_HOME: join(root, "state"),
    XDG_RUNTIME_DIR: join(root, "run"),
    INSIGHTS_PORT: String(await freePort()),
    PATH: process.env.PATH ?? "/usr/bin:/bin",
  };
  const paths = resolvePaths(env);
  const held = heldTimers();
  const daemon = await Daemon.start({
    paths,
    env,
    clock: shiftedClock(systemClock, NOW),
    console: "off",
    updates: false,
    scanMs: 100,
    logMs: 100,
    cronMs: 200,
    demoReplay: { timers: held.timers, random: seededRandom(7) },
  });
  return {
    daemon,
    d: { url: `http://127.0.0.1:${daemon.address.port}`, token: readFileSync(paths.tokenFile, "utf8").trim() },
    root,
    stateDir: paths.demoStateDir,
    fire: held.fire,
    stop: async () => {
      await daemon.stop("test done");
      rmSync(root, { recursive: true, force: true });
    },
  };
}

interface Sys {
  system: { demo: boolean; gateway: { running: boolean; version: string | null; uptime: number | null; pid: number | null; port: number | null }; channels: { provider: string; name: string; connected: boolean }[] };
}
const SYSTEM = `{ system { ... on ProviderASystem { demo gateway { running version uptime pid port } channels { provider name connected } } } }`;

interface SessionRow {
  key: string;
  displayName: string;
  totalTokens: number;
  updatedAt: string | null;
  startedAt: string | null;
}

const agentQuery = (body: string): string => `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { ${body} } } }`;

async function sessions(d: Demo["d"]): Promise<SessionRow[]> {
  return (await gqlData<{ source: { sessions: SessionRow[] } }>(d, agentQuery("sessions(filter: { grouped: false, limit: 1000 }) { key displayName totalTokens updatedAt startedAt }"))).source.sessions;
}

test("demo mode: a running demo gateway, everything recent, demo content only", async () => {
  const demo = await startDemo();
  try {
    const { d } = demo;
    const sys = await pollUntil(
      async () => {
        const s = await gqlData<Sys>(d, SYSTEM);
        return s.system.gateway.running && s.system.channels.length > 0 ? s : null;
      },
      { what: "the demo gateway up with its channels", timeoutMs: 20_000 },
    );
    assert.is(sys.system.demo, true);
    assert.is(sys.system.gateway.version, "2026.9.6");
    assert.is(sys.system.gateway.pid, process.pid, "the lock names the daemon's own pid");
    assert.not.equal(sys.system.gateway.port, 18789, "never a real gateway's port");
    assert.ok((sys.system.gateway.uptime ?? 0) > 60, `the recorded gateway has run for a while (uptime ${sys.system.gateway.uptime} s)`);
    assert.ok(sys.system.channels.every((c) => c.connected) && sys.system.channels.some((c) => c.name === "Demo support bot"), JSON.stringify(sys.system.channels));
    const status = demo.daemon.status();
    assert.is(status.gateway.up, true);

    await pollUntil(async () => (await gqlData<{ source: { lifetimeStats: { isReady: boolean } } }>(d, agentQuery("lifetimeStats { isReady }"))).source.lifetimeStats.isReady, { what: "first scan" });
    const list = await sessions(d);
    assert.ok(list.length >= 3, `main, cron and sub-agent sessions: ${list.map((s) => s.key).join(", ")}`);
    assert.ok(list.some((s) => s.displayName.startsWith("Demo")), list.map((s) => s.displayName).join(", "));
    const inRange = (iso: string | null | undefined, what: string): void => {
      assert.ok(iso, `${what} has a time`);
      const t = Date.parse(iso as string);
      assert.ok(t > NOW - DAY && t <= NOW + 60_000, `${what} ${iso} is within the last day of ${new Date(NOW).toISOString()}`);
    };
    for (const s of list) inRange(s.updatedAt, `session ${s.key} updatedAt`);

    // Everything a client can read about sessions and transcripts: no fake-model text, no test markers.
    let everything = JSON.stringify(list);
    for (const s of list) {
      const t = await gqlData<{ source: { sessionTranscript: { messages: { text: string; timestamp: string | null; model: string | null }[] } } }>(
        d,
        agentQuery(`sessionTranscript(sessionKey: ${JSON.stringify(s.key)}, limit: 500) { displayName model spawnPrompt messages { role text timestamp model stopReason toolName toolCalls { name } } }`),
      );
      assert.ok(t.source.sessionTranscript.messages.length > 0, `${s.key} has messages`);
      for (const m of t.source.sessionTranscript.messages) inRange(m.timestamp, `a message of ${s.key}`);
      everything += JSON.stringify(t);
    }
    const rest = await gqlData(d, agentQuery("cronJobs { name lastRunAt nextRunAt } recentLogs(count: 1000) { time level module message } usageCost { byModel { model } }"));
    everything += JSON.stringify(rest);
    for (const bad of ["FAKE-LLM", "@@", "fakellm", "fake-model", "chatcmpl-fake", "END_OPENCLAW_INTERNAL_CONTEXT", "probe-every"]) assert.not.ok(everything.includes(bad), `the API shows "${bad}"`);
    const logs = (rest as { source: { recentLogs: { time: string }[]; cronJobs: { name: string; lastRunAt: string | null }[] } }).source;
    assert.ok(logs.recentLogs.length > 0);
    for (const l of logs.recentLogs) inRange(l.time, "a log line");
    const triage = logs.cronJobs.find((j) => j.name === "Demo ticket triage");
    assert.ok(triage, "the demo cron job is listed");
    inRange(triage.lastRunAt, "the demo cron job's last run");
  } finally {
    await demo.stop();
  }
});

test("demo mode: a replay step appends a turn whose tokens reach the totals, and dataChanged says so", async () => {
  const demo = await startDemo();
  const client = createSseClient({ url: `${demo.d.url}/graphql`, headers: { authorization: `Bearer ${demo.d.token}` }, retryAttempts: 0 });
  try {
    const { d } = demo;
    await pollUntil(async () => (await gqlData<{ source: { lifetimeStats: { isReady: boolean } } }>(d, agentQuery("lifetimeStats { isReady }"))).source.lifetimeStats.isReady, { what: "first scan" });
    const mainTokens = async (): Promise<number> => (await sessions(d)).find((s) => s.key === "agent:main:main")?.totalTokens ?? NaN;
    const before = await mainTokens();
    const changes: string[] = [];
    const dispose = client.subscribe<{ dataChanged: { source: string } }>(
      { query: "subscription { dataChanged { source ts } }" },
      { next: (v) => v.data && changes.push(v.data.dataChanged.source), error: () => undefined, complete: () => undefined },
    );
    // Give the stream a moment to open: collector changes (log reads, probes) arrive on their own; wait for one.
    await pollUntil(() => changes.length > 0, { what: "the subscription delivering", timeoutMs: 15_000 });
    changes.length = 0;
    assert.ok(demo.fire(), "the replay scheduled a step");

    // What the step wrote, read back from the demo copy itself.
    const db = new Database(join(demo.stateDir, "agents", "main", "agent", "openclaw-agent.sqlite"), { readonly: true });
    let written: number;
    try {
      const row = db
        .prepare(
          `SELECT e.event_json FROM transcript_events e JOIN session_nodes n ON n.current_session_id = e.session_id
           WHERE n.session_key = 'agent:main:main' ORDER BY e.seq DESC LIMIT 1`,
        )
        .get() as { event_json: string };
      const event = JSON.parse(row.event_json) as { message: { role: string; usage: { input: number; output: number; cacheRead: number; cacheWrite: number; totalTokens: number } } };
      assert.is(event.message.role, "assistant");
      const u = event.message.usage;
      written = u.input + u.output + u.cacheRead + u.cacheWrite;
      assert.is(u.totalTokens, written, "the row's own total matches its parts");
    } finally {
      db.close();
    }
    const after = await pollUntil(async () => {
      const t = await mainTokens();
      return t !== before ? t : null;
    }, { what: "the new turn in the totals" });
    assert.is(after - before, written, "exactly the new row's tokens");
    await pollUntil(() => changes.includes("agent:main"), { what: "dataChanged for agent:main" });
    dispose();
  } finally {
    client.dispose();
    await demo.stop();
  }
});

test.run();
