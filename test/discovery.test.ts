// Issue 19, items 1 and 2: a provider's data that appears after the daemon started is read within
// seconds without a restart (a named CLAUDE_CONFIG_DIR / CODEX_HOME that was empty, a first
// ~/.claude or ~/.codex, real data beside the demo), data that disappears reads DISCONNECTED, and a
// named dir that does not exist stops the start (exit 2) naming it. /health and `status` name every
// dir looked at. Expected counts come from the fixtures' own files.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil, shiftedClock, systemClock } from "../shared/base/clock.js";
import { Daemon } from "../daemon/daemon.js";
import { resolvePaths } from "../shared/base/paths.js";
import type { LookedAt } from "../shared/providers/looked-at.js";
import { ALL_PROVIDERS_NOW } from "./helpers/all-providers.js";
import { CLAUDE_FIXTURE, transcriptFiles } from "./helpers/claude-code-fixture.js";
import { CODEX_FIXTURE, rolloutFiles } from "./helpers/codex-fixture.js";
import { ctl, DAEMON, freePort, sandbox, type Sandbox } from "./helpers/cli.js";
import { gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { fixtureTranscripts } from "./helpers/fixture-expectations.js";
import { copyFixture, FILES_FIXTURE, FIXTURES_DIR, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";

const test = suite("discovery");
const CLAUDE_SRC = join(FIXTURES_DIR, CLAUDE_FIXTURE, ".claude");
const CODEX_SRC = join(FIXTURES_DIR, CODEX_FIXTURE, ".codex");
/** Sessions in the fixtures: one per transcript (Claude Code, sub-agents included) and per rollout (Codex). */
const CLAUDE_SESSIONS = transcriptFiles(CLAUDE_SRC).length;
const CODEX_SESSIONS = rolloutFiles(CODEX_SRC).length + rolloutFiles(CODEX_SRC, "archived_sessions").length;
/** Generous: the discovery pass runs every 2 s in the daemon (100 ms here), but the machine may be loaded. */
const DEADLINE = 60_000;

interface Source {
  id: string;
  status: string;
  attributes: { provider: string };
}

async function agentSources(d: TestDaemon): Promise<Source[]> {
  return (await gqlData<{ sources: Source[] }>(d, `{ sources(filter: { category: AGENT }) { id status attributes { provider } } }`)).sources;
}

async function totalSessions(d: TestDaemon, id: string): Promise<number> {
  const q = `{ source(selector: { id: ${JSON.stringify(id)} }) { ... on AgentNamespace { lifetimeStats { totalSessions } } } }`;
  return (await gqlData<{ source: { lifetimeStats: { totalSessions: number } } }>(d, q)).source.lifetimeStats.totalSessions;
}

/** Waits until the provider's one source shows `sessions` sessions; its id. */
async function untilSessions(d: TestDaemon, provider: string, sessions: number): Promise<string> {
  return pollUntil(
    async () => {
      const s = (await agentSources(d)).filter((x) => x.attributes.provider === provider);
      if (s.length !== 1) return null;
      const n = await totalSessions(d, (s[0] as Source).id);
      return n === sessions ? (s[0] as Source).id : null;
    },
    { timeoutMs: DEADLINE, intervalMs: 200, what: `${provider} to show ${sessions} sessions` },
  );
}

async function untilStatus(d: TestDaemon, id: string, status: string): Promise<void> {
  await pollUntil(async () => (await agentSources(d)).find((s) => s.id === id)?.status === status, { timeoutMs: DEADLINE, intervalMs: 200, what: `${id} to read ${status}` });
}

async function health(d: TestDaemon): Promise<{ lookedAt: LookedAt[]; providers: string[] }> {
  return (await fetch(`${d.url}/health`)).json() as Promise<{ lookedAt: LookedAt[]; providers: string[] }>;
}

const start = (env: Record<string, string>): Promise<TestDaemon> => startDaemon({ fixture: FILES_FIXTURE, clock: shiftedClock(systemClock, ALL_PROVIDERS_NOW), env });

test.after(() => removeTempDirs());

test("a CLAUDE_CONFIG_DIR and CODEX_HOME empty at start are read once data is written there; removed, they read DISCONNECTED", async () => {
  const claudeDir = makeTempDir();
  const codexDir = makeTempDir();
  const d = await start({ CLAUDE_CONFIG_DIR: claudeDir, CODEX_HOME: codexDir });
  try {
    const before = await health(d);
    assert.equal(
      before.lookedAt.filter((l) => l.provider === "claude-code" || l.provider === "codex").map((l) => [l.provider, l.dir, l.from, l.found]),
      [
        ["claude-code", claudeDir, "env CLAUDE_CONFIG_DIR", "empty"],
        ["codex", codexDir, "env CODEX_HOME", "empty"],
      ],
    );
    cpSync(CLAUDE_SRC, claudeDir, { recursive: true });
    cpSync(CODEX_SRC, codexDir, { recursive: true });
    const claudeId = await untilSessions(d, "PROVIDER_B", CLAUDE_SESSIONS);
    const codexId = await untilSessions(d, "PROVIDER_C", CODEX_SESSIONS);
    const after = await health(d);
    assert.equal(after.lookedAt.filter((l) => l.provider === "claude-code" || l.provider === "codex").map((l) => l.found), ["data", "data"]);
    assert.equal(after.providers, ["openclaw", "claude-code", "codex"]);
    rmSync(claudeDir, { recursive: true, force: true });
    rmSync(codexDir, { recursive: true, force: true });
    await untilStatus(d, claudeId, "DISCONNECTED");
    await untilStatus(d, codexId, "DISCONNECTED");
    // Gone from disk is not gone from the store: the sessions read stay.
    assert.is(await totalSessions(d, claudeId), CLAUDE_SESSIONS);
    assert.equal((await health(d)).lookedAt.filter((l) => l.provider === "claude-code" || l.provider === "codex").map((l) => l.found), ["missing", "missing"]);
  } finally {
    await d.stop();
  }
});

test("a first ~/.claude and ~/.codex are read without a restart, and their providers are shown from then on", async () => {
  const d = await start({});
  try {
    const home = d.env.HOME as string;
    assert.equal((await health(d)).providers, ["openclaw"], "no Claude Code or Codex data yet: not shown");
    mkdirSync(home, { recursive: true });
    cpSync(CLAUDE_SRC, join(home, ".claude"), { recursive: true });
    cpSync(CODEX_SRC, join(home, ".codex"), { recursive: true });
    assert.is(await untilSessions(d, "PROVIDER_B", CLAUDE_SESSIONS), "claude-code:default");
    assert.is(await untilSessions(d, "PROVIDER_C", CODEX_SESSIONS), "codex:default");
    assert.equal((await health(d)).providers, ["openclaw", "claude-code", "codex"]);
  } finally {
    await d.stop();
  }
});

/** Daemon.start's error for this environment (no OpenClaw flag: OPENCLAW_STATE_DIR is the env's). */
async function startError(env: Record<string, string>): Promise<Error & { code?: string }> {
  const root = makeTempDir();
  const full = { HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "config"), XDG_STATE_HOME: join(root, "state"), XDG_RUNTIME_DIR: join(root, "run"), INSIGHTS_PORT: String(await freePort()), ...env };
  try {
    const d = await Daemon.start({ paths: resolvePaths(full), env: full, console: "off", updates: false, channels: false });
    await d.stop("unexpected start");
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error(`the daemon started with ${JSON.stringify(env)}`);
}

test("a named CLAUDE_CONFIG_DIR, CODEX_HOME or OPENCLAW_STATE_DIR that does not exist stops the start, naming it", async () => {
  const missing = join(makeTempDir(), "typo");
  for (const name of ["CLAUDE_CONFIG_DIR", "CODEX_HOME", "OPENCLAW_STATE_DIR"]) {
    const err = await startError({ [name]: missing });
    assert.is(err.code, "CONFIG_INVALID", name);
    assert.ok(err.message.includes(missing) && err.message.includes(`env ${name}`) && err.message.includes("does not exist"), `${name}: ${err.message}`);
    assert.not.ok(existsSync(missing), "nothing was created in its place");
  }
  // A configured one, as a configured openclawDir already is.
  for (const [name, key] of [["INSIGHTS_CLAUDE_CODE_DIRS", "claudeCodeDirs"], ["INSIGHTS_CODEX_DIRS", "codexDirs"]] as const) {
    const err = await startError({ [name]: missing });
    assert.is(err.code, "CONFIG_INVALID", name);
    assert.ok(err.message.includes(missing) && err.message.includes(key), `${name}: ${err.message}`);
  }
});

test("insightsd exits 2 on a mistyped CODEX_HOME, naming it", async () => {
  const box = await sandbox();
  try {
    const missing = join(box.dir, "codex-typo");
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(process.execPath, [DAEMON], { env: { ...box.env, CODEX_HOME: missing }, timeout: 60_000 }, (err, _out, stderr) => resolve({ code: err && typeof err.code === "number" ? err.code : 0, stderr })),
    );
    assert.is(r.code, 2, r.stderr);
    assert.match(r.stderr, missing);
  } finally {
    await box.cleanup();
  }
});

interface Status {
  pid: number;
  demo: boolean;
  providers: Array<{ provider: string; sessions: number }>;
  lookedAt: LookedAt[];
}

async function status(box: Sandbox): Promise<Status | null> {
  const r = await ctl(box, ["status", "--json"]);
  return r.code === 0 ? (JSON.parse(r.stdout) as Status) : null;
}

test("a demo daemon steps aside for real data that appears: the first Codex session is read, the demo is gone", async () => {
  const box = await sandbox();
  // The machine's own runtime dirs must not reach the sandbox's daemon.
  for (const k of ["CODEX_HOME", "CLAUDE_CONFIG_DIR"]) delete box.env[k];
  try {
    const started = await ctl(box, ["start"]);
    assert.is(started.code, 0, started.stderr);
    const home = box.env.HOME as string;
    const demo = (await status(box)) as Status;
    assert.is(demo.demo, true);
    assert.equal(
      demo.lookedAt.map((l) => [l.provider, l.dir, l.found]),
      [
        ["openclaw", join(home, ".openclaw"), "missing"],
        ["claude-code", join(home, ".claude"), "missing"],
        ["claude-code", join(home, ".config", "claude"), "missing"],
        ["codex", join(home, ".codex"), "missing"],
        ["gemini-cli", join(home, ".gemini"), "missing"],
      ],
    );
    const text = await ctl(box, ["status"]);
    assert.match(text.stdout, `${join(home, ".codex")} (default): does not exist`);
    mkdirSync(home, { recursive: true });
    cpSync(CODEX_SRC, join(home, ".codex"), { recursive: true });
    const real = await pollUntil(
      async () => {
        const s = await status(box);
        return s && !s.demo && s.providers.find((p) => p.provider === "codex")?.sessions === CODEX_SESSIONS ? s : null;
      },
      { timeoutMs: DEADLINE, intervalMs: 250, what: "the daemon to leave the demo for the Codex data" },
    );
    assert.equal(real.providers.map((p) => p.provider), ["codex"], "the demo's providers are gone");
    assert.is(real.pid, demo.pid, "the same process, started anew inside");
    assert.equal(real.lookedAt.find((l) => l.provider === "codex")?.found, "data");
  } finally {
    await box.cleanup();
  }
});

test("an OpenClaw state dir that appears beside Codex data is read: the daemon starts anew on it", async () => {
  const box = await sandbox();
  for (const k of ["CODEX_HOME", "CLAUDE_CONFIG_DIR"]) delete box.env[k];
  try {
    const home = box.env.HOME as string;
    mkdirSync(home, { recursive: true });
    cpSync(CODEX_SRC, join(home, ".codex"), { recursive: true });
    const started = await ctl(box, ["start"]);
    assert.is(started.code, 0, started.stderr);
    const before = (await status(box)) as Status;
    assert.is(before.demo, false);
    assert.equal(before.providers.map((p) => p.provider), ["codex"]);
    const stateDir = join(home, ".openclaw");
    cpSync(copyFixture(SQLITE_FIXTURE), stateDir, { recursive: true });
    const d = { url: `http://127.0.0.1:${box.port}`, token: readFileSync(join(box.stateDir, "token"), "utf8").trim() };
    const sessions = fixtureTranscripts(stateDir).length;
    const q = `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { lifetimeStats { totalSessions } } } }`;
    await pollUntil(
      async () => {
        try {
          return (await gqlData<{ source: { lifetimeStats: { totalSessions: number } } }>(d, q)).source.lifetimeStats.totalSessions === sessions;
        } catch {
          return false; // not read yet (NOT_FOUND), or the daemon is between its two starts
        }
      },
      { timeoutMs: DEADLINE, intervalMs: 250, what: `agent:main to show the fixture's ${sessions} sessions` },
    );
    const after = (await status(box)) as Status;
    assert.equal(after.providers.map((p) => p.provider), ["openclaw", "codex"]);
    assert.is(after.pid, before.pid);
  } finally {
    await box.cleanup();
  }
});

test.run();
