// Demo mode end to end: a real daemon with no provider's data (no OpenClaw state dir, no Claude
// Code or Codex dir) serves the bundled demo of all four providers, OpenClaw's as a living
// gateway. Its clock is injected far from the recordings' dates, so "recent" can only come from
// moving the copies to now; the replay's timer is injected, so the test decides when it fires.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { createClient as createSseClient } from "graphql-sse";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Daemon } from "../daemon/daemon.js";
import { pollUntil, shiftedClock, systemClock } from "../shared/base/clock.js";
import { seededRandom } from "../shared/base/random.js";
import type { ReplayTimers } from "../shared/demo-replay/replay.js";
import { resolvePaths } from "../shared/base/paths.js";
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
    // The memory job's `0 3 * * *` has no tz: it runs at 03:00 where the (demo) gateway runs, the
    // daemon's own zone here, and never at a time of day the demo's time shift made up.
    const nightly = (rest as { source: { cronJobs: { name: string; nextRunAt: string | null }[] } }).source.cronJobs.find((j) => j.name === "Memory Dreaming Promotion");
    assert.ok(nightly?.nextRunAt, "the 0 3 * * * job has a next run");
    const clock = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).format(Date.parse(nightly.nextRunAt));
    assert.is(clock, "03:00:00", `next run ${nightly.nextRunAt}`);
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

const MARKERS = ["FAKE", "@@", "[[", "fakellm", "fake-model", "chatcmpl-fake", "fixture", "fakeopenai"];

interface ProviderSession {
  key: string;
  displayName: string;
  totalTokens: number;
  updatedAt: string | null;
  project: string | null;
  model: string | null;
}

const sourceQuery = (id: string, body: string): string => `{ source(selector: { id: ${JSON.stringify(id)} }) { ... on AgentNamespace { ${body} } } }`;

async function sourceSessions(d: Demo["d"], id: string): Promise<ProviderSession[]> {
  return (await gqlData<{ source: { sessions: ProviderSession[] } }>(d, sourceQuery(id, "sessions(filter: { grouped: false, limit: 1000 }) { key displayName totalTokens updatedAt project model }"))).source.sessions;
}

async function ready(d: Demo["d"], id: string): Promise<void> {
  await pollUntil(async () => (await gqlData<{ source: { lifetimeStats: { isReady: boolean } } }>(d, sourceQuery(id, "lifetimeStats { isReady }"))).source.lifetimeStats.isReady, { what: `first scan of ${id}`, timeoutMs: 20_000 });
}

test("demo mode serves all four providers: recent sessions of each, demo content only, Codex's rate limits current", async () => {
  const demo = await startDemo();
  try {
    const { d } = demo;
    // Codex's rate limits come from its transcripts: there are none before its first scan (on a
    // real daemon the systems query answers `rateLimits: null` for a few hundred ms after start).
    for (const id of ["claude-code:default", "codex:default", "gemini-cli:default"]) await ready(d, id);
    const sys = await gqlData<{ systems: Array<{ provider: string; demo?: boolean; rateLimits?: { stale: boolean; updatedAt: string; primary: { usedPercent: number; windowMinutes: number | null; resetsAt: string | null } | null; secondary: { usedPercent: number } | null } | null }> }>(
      d,
      `{ systems { provider ... on ProviderASystem { demo } ... on ProviderBSystem { demo } ... on ProviderDSystem { demo } ... on ProviderCSystem { demo rateLimits { stale updatedAt primary { usedPercent windowMinutes resetsAt } secondary { usedPercent } } } } }`,
    );
    assert.equal(sys.systems.map((s) => s.provider), ["PROVIDER_A", "PROVIDER_B", "PROVIDER_C", "PROVIDER_D"]);
    assert.ok(sys.systems.every((s) => s.demo === true), "each says it is the demo");
    const inRange = (iso: string | null | undefined, what: string): void => {
      assert.ok(iso, `${what} has a time`);
      const t = Date.parse(iso as string);
      assert.ok(t > NOW - DAY && t <= NOW + 60_000, `${what} ${iso} is within the last day of ${new Date(NOW).toISOString()}`);
    };
    for (const [id, min] of [["claude-code:default", 6], ["codex:default", 7], ["gemini-cli:default", 6]] as const) {
      const list = await sourceSessions(d, id);
      assert.ok(list.length >= min, `${id}: ${list.length} sessions`);
      assert.ok(new Set(list.map((s) => s.project)).size >= 3, `${id}: several projects`);
      assert.ok(new Set(list.map((s) => s.model).filter(Boolean)).size >= 2, `${id}: two models`);
      assert.ok(list.some((s) => s.displayName.startsWith("Demo")), list.map((s) => s.displayName).join(", "));
      let everything = JSON.stringify(list);
      for (const s of list) {
        inRange(s.updatedAt, `${id} session ${s.key} updatedAt`);
        const t = await gqlData<{ source: { sessionTranscript: { messages: Array<{ timestamp: string | null }> } } }>(
          d,
          sourceQuery(id, `sessionTranscript(sessionKey: ${JSON.stringify(s.key)}, limit: 500) { displayName model messages { role text timestamp model stopReason errorMessage toolName toolCalls { name } } }`),
        );
        assert.ok(t.source.sessionTranscript.messages.length > 0, `${s.key} has messages`);
        for (const m of t.source.sessionTranscript.messages) inRange(m.timestamp, `a message of ${s.key}`);
        everything += JSON.stringify(t);
      }
      everything += JSON.stringify(await gqlData(d, sourceQuery(id, "recentLogs(count: 1000) { time level module message } events(limit: 1000) { type message } usageCost { byModel { model } }")));
      for (const bad of MARKERS) assert.not.ok(everything.includes(bad), `${id}: the API shows "${bad}"`);
    }
    // Asked again now that the Codex source has finished its first scan (the limits come from it).
    const after = await gqlData<typeof sys>(d, `{ systems { provider ... on ProviderCSystem { rateLimits { stale updatedAt primary { usedPercent windowMinutes resetsAt } secondary { usedPercent } } } } }`);
    const codex = after.systems[2]?.rateLimits;
    assert.ok(codex?.primary && codex.secondary, "Codex's rate limits are there");
    assert.is(codex.stale, false);
    assert.is(codex.primary.windowMinutes, 300);
    assert.ok(Date.parse(codex.primary.resetsAt as string) > NOW, `resets ${codex.primary.resetsAt} after now`);
    inRange(codex.updatedAt, "the rate limits' time");
  } finally {
    await demo.stop();
  }
});

/** Every .jsonl under `dir` with its size. */
function sizes(dir: string, out = new Map<string, number>()): Map<string, number> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sizes(p, out);
    else if (e.name.endsWith(".jsonl")) out.set(p, statSync(p).size);
  }
  return out;
}

/** The lines a step appended: the one file of `dir` that grew, from where it ended. */
function appended(dir: string, before: Map<string, number>): { file: string; lines: Array<Record<string, unknown>> } {
  const grown = [...sizes(dir)].filter(([f, n]) => n > (before.get(f) ?? 0));
  assert.is(grown.length, 1, `one transcript grew: ${grown.map(([f]) => f).join(", ")}`);
  const [file] = grown[0] as [string, number];
  const text = readFileSync(file).subarray(before.get(file) ?? 0).toString("utf8");
  return { file, lines: text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>) };
}

test("demo mode: a replay step adds a Claude Code turn and a Codex turn; each session's tokens grow by exactly what was appended", async () => {
  const demo = await startDemo();
  const client = createSseClient({ url: `${demo.d.url}/graphql`, headers: { authorization: `Bearer ${demo.d.token}` }, retryAttempts: 0 });
  try {
    const { d } = demo;
    for (const id of ["agent:main", "claude-code:default", "codex:default"]) await ready(d, id);
    const ccDir = join(dirname(demo.stateDir), "claude-code-home", ".claude", "projects");
    const codexDir = join(dirname(demo.stateDir), "codex-home", ".codex", "sessions");
    const ccBefore = sizes(ccDir);
    const codexBefore = sizes(codexDir);
    const tokensOf = async (id: string): Promise<Map<string, number>> => new Map((await sourceSessions(d, id)).map((s) => [s.key, s.totalTokens]));
    const ccTokens = await tokensOf("claude-code:default");
    const codexTokens = await tokensOf("codex:default");
    const changes: string[] = [];
    const dispose = client.subscribe<{ dataChanged: { source: string } }>(
      { query: "subscription { dataChanged { source ts } }" },
      { next: (v) => v.data && changes.push(v.data.dataChanged.source), error: () => undefined, complete: () => undefined },
    );
    await pollUntil(() => changes.length > 0, { what: "the subscription delivering", timeoutMs: 15_000 });
    changes.length = 0;
    assert.ok(demo.fire(), "the replay scheduled a step");

    // Claude Code: the responses among the appended lines, each counted once by (message.id, requestId).
    const cc = appended(ccDir, ccBefore);
    const ccSession = String(cc.lines.find((l) => typeof l.sessionId === "string")?.sessionId);
    const seen = new Set<string>();
    let ccWritten = 0;
    for (const l of cc.lines) {
      const m = l.message as { id: string; model: string; usage: Record<string, number> } | undefined;
      if (l.type !== "assistant" || !m || m.model === "<synthetic>" || seen.has(`${m.id}|${String(l.requestId)}`)) continue;
      seen.add(`${m.id}|${String(l.requestId)}`);
      ccWritten += (m.usage.input_tokens ?? 0) + (m.usage.output_tokens ?? 0) + (m.usage.cache_read_input_tokens ?? 0) + (m.usage.cache_creation_input_tokens ?? 0);
    }
    assert.ok(seen.size > 0 && ccWritten > 0, "a Claude Code response was appended");
    // Codex: the appended token_usage_records (input includes the cached part).
    const cx = appended(codexDir, codexBefore);
    const threadId = String(((JSON.parse(readFileSync(cx.file, "utf8").split("\n")[0] as string) as { payload: { id: string } }).payload).id);
    let codexWritten = 0;
    for (const l of cx.lines) {
      if (l.type !== "token_usage_record") continue;
      const u = (l.payload as { usage: Record<string, number> }).usage;
      codexWritten += (u.input_tokens ?? 0) + (u.output_tokens ?? 0) + (u.cache_write_input_tokens ?? 0);
    }
    assert.ok(codexWritten > 0, "a Codex response was appended");

    const ccAfter = await pollUntil(async () => {
      const t = (await tokensOf("claude-code:default")).get(ccSession);
      return t !== undefined && t !== ccTokens.get(ccSession) ? t : null;
    }, { what: "the Claude Code turn in the totals" });
    assert.is(ccAfter - (ccTokens.get(ccSession) ?? 0), ccWritten, "exactly the appended responses' tokens");
    const codexAfter = await pollUntil(async () => {
      const t = (await tokensOf("codex:default")).get(threadId);
      return t !== undefined && t !== codexTokens.get(threadId) ? t : null;
    }, { what: "the Codex turn in the totals" });
    assert.is(codexAfter - (codexTokens.get(threadId) ?? 0), codexWritten, "exactly the appended records' tokens");
    await pollUntil(() => changes.includes("claude-code:default") && changes.includes("codex:default"), { what: "dataChanged for both sources" });
    dispose();
  } finally {
    client.dispose();
    await demo.stop();
  }
});

test.run();
