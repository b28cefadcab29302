// A typed wrapper around the team's run-claude-code.sh for tests that need the REAL Claude Code CLI
// (npm @anthropic-ai/claude-code, a native binary) making real turns in print mode (`claude -p`)
// against the fake Anthropic Messages API (fake-anthropic.mjs) on a free loopback port. All the
// CLI writes stays in one dir: DIR/home is its HOME (so its state is DIR/home/.claude and
// DIR/home/.claude.json), DIR/tmp its CLAUDE_CODE_TMPDIR.
//
//   const cc = await startClaudeCode();
//   try {
//     const t = await cc.turn("list the files @@BASH@@");      // markers: see fake-anthropic.mjs
//     // daemon under test: HOME=cc.home (reads cc.home/.claude/projects/…)
//   } finally { await cc.stop(); }
//
// Env: GI_SKIP_REAL_CLI=1 lets a developer skip these tests locally (never in CI, see
// realCliSkipReason); CC_CACHE moves the install cache (default ~/.cache/claude-code-e2e);
// GI_KEEP_CLI_DIR=1 keeps a temp dir after stop() for a post-mortem.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TOOLS_DIR } from "./openclaw-fixtures.js";
import { runCommand } from "../../shared/providers/run-command.js";
import type { CommandOutcome } from "../../shared/providers/run-command.js";
import { freePort } from "./cli.js";
import {
  CliStepError,
  checkRegistry,
  hermeticEnv,
  installError,
  isAlive,
  onExitKill,
  pokeHttp,
  readJsonl,
  readPid,
  readScriptEnv,
  runDir,
  signal,
  tail,
  waitForOwnFakeApi,
  waitGone,
  withInstallLock,
} from "./real-cli.js";

export { CliInstallError, CliStepError, realCliSkipReason } from "./real-cli.js";

export const DEFAULT_CLAUDE_CODE_VERSION = "2.1.330";

const SCRIPT = path.join(TOOLS_DIR, "run-claude-code.sh");
/** A developer's Anthropic/Claude settings (API key, CLAUDE_CONFIG_DIR, Bedrock/Vertex switches, OTEL exporters) must not reach the CLI. */
const DROP_ENV = ["ANTHROPIC_", "CLAUDE_", "OTEL_", "CC_", "FAKE_ANTHROPIC_", "FAKE_UNIFIED_"];

export interface ClaudeTurnOptions {
  /** The turn's working directory: absolute, or relative to the run's dir; default DIR/workspace. Created if missing. */
  cwd?: string;
  /** `--model`; default claude-sonnet-4-5-20250929 (the script's CC_MODEL). */
  model?: string;
  /** `--resume <sessionId>`: append to that session. */
  resume?: string;
  /** `--continue`: append to the latest session of the cwd. */
  continue?: boolean;
  /** More flags for claude, before the prompt (e.g. ["--output-format", "stream-json", "--verbose"]). */
  flags?: string[];
  /** Extra environment for this turn (e.g. OTEL switches); passed through to claude. */
  env?: Record<string, string>;
  /** Deadline for the whole turn; default 180 s. */
  timeoutMs?: number;
}

export interface ClaudeTurnResult {
  /** `session_id` of the JSON result, null when stdout was not the JSON result. */
  sessionId: string | null;
  exitCode: number | null;
  /** stdout parsed as JSON (the `--output-format json` result), or null. */
  json: Record<string, unknown> | null;
  stdout: string;
  stderr: string;
  wallMs: number;
}

export interface ClaudeCodeTimings {
  /** Whole start: install when the cache was cold, fake API start, env. */
  upMs: number;
  /** True when this start had to install the CLI first. */
  installed: boolean;
}

export interface ClaudeCodeRun {
  readonly version: string;
  readonly dir: string;
  /** The HOME the CLI ran with: a monitor under test reads `<home>/.claude` (and `<home>/.claude.json`). */
  readonly home: string;
  /** `<home>/.claude` (what CLAUDE_CONFIG_DIR points at for ccusage and the like). */
  readonly claudeDir: string;
  /** Port of the fake Anthropic API on 127.0.0.1. */
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly baseUrl: string;
  /** Every request the fake API got (JSONL). */
  readonly requestLog: string;
  readonly timings: ClaudeCodeTimings;
  /**
   * What `run-claude-code.sh env` exports (CLAUDE_CONFIG_DIR, CLAUDE_HOME, CLAUDE_JSON,
   * ANTHROPIC_BASE_URL, FAKE_ANTHROPIC_LOG), plus HOME: the environment for a monitor under test.
   */
  env(): Record<string, string>;
  /** The fake API's request log, one object per request, oldest first. */
  requests(): Array<Record<string, unknown>>;
  /** The fake API's pid, null after stop(). */
  pid(): number | null;
  /** The cached native `claude` binary (for a caller that runs it itself, e.g. interactively in a pty). */
  bin(): string;
  /**
   * Runs the cached `claude` with ARGS in `cwd` (absolute, or relative to the run's dir; default
   * DIR/workspace, the turns' default cwd) under the run's HOME, as a user types it: `claude mcp add …`.
   */
  cli(args: string[], opts?: { cwd?: string; timeoutMs?: number }): Promise<CommandOutcome>;
  /** One real `claude -p PROMPT` turn. Resolves on any exit; rejects only when the deadline passes. */
  turn(prompt: string, opts?: ClaudeTurnOptions): Promise<ClaudeTurnResult>;
  /** Stops the fake API and waits until it is gone; removes the dir when start created it. Safe to call twice. */
  stop(opts?: { timeoutMs?: number }): Promise<void>;
}

export interface StartClaudeCodeOptions {
  /** Use this dir (created if missing, kept by stop()); default a fresh temp dir removed by stop(). */
  dir?: string;
  /** Port for the fake API; default a free one (another one is tried if it was taken meanwhile). */
  port?: number;
  version?: string;
  /** Deadline for the start (install included); default 360 s. */
  upTimeoutMs?: number;
  /** The fake API logs every request body whole (FAKE_ANTHROPIC_LOG_FULL=1; the script's default is 0): what reached the model. */
  logBodies?: boolean;
  /**
   * The fake API answers with Anthropic's unified rate-limit headers (a Claude.ai plan's 5-hour and
   * weekly windows): utilization as a fraction 0..1 at the first response, plus `step` per response
   * (the 7-day window gets a third of it); FAKE_UNIFIED_5H / _7D / _STEP of fake-anthropic.mjs.
   */
  unified?: { fiveHour: number; sevenDay: number; step: number };
}

function cacheDir(): string {
  return process.env.CC_CACHE ?? path.join(os.homedir(), ".cache", "claude-code-e2e");
}

/** Where the script looks for the native binary (its claude_bin), in its order. */
function binCandidates(version: string): string[] {
  const pkg = path.join(cacheDir(), `claude-code-${version}`, "node_modules", "@anthropic-ai");
  return [path.join(pkg, "claude-code-linux-x64", "claude"), path.join(pkg, "claude-code-linux-arm64", "claude"), path.join(pkg, "claude-code", "bin", "claude.exe")];
}

function findBin(version: string): string | undefined {
  return binCandidates(version).find((b) => {
    try {
      fs.accessSync(b, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function installed(version: string): boolean {
  return findBin(version) !== undefined;
}

/** Starts the fake Anthropic API in DIR (installing the CLI first when the cache is cold); resolves once it answers. */
export async function startClaudeCode(opts: StartClaudeCodeOptions = {}): Promise<ClaudeCodeRun> {
  const version = opts.version ?? DEFAULT_CLAUDE_CODE_VERSION;
  const upTimeoutMs = opts.upTimeoutMs ?? 360_000;
  const u = opts.unified;
  if (u && ![u.fiveHour, u.sevenDay, u.step].every((n) => Number.isFinite(n) && n >= 0 && n <= 1)) {
    throw new CliStepError("up", `unified utilizations must be fractions in 0..1: ${JSON.stringify(u)}`, null);
  }
  if (!fs.existsSync(SCRIPT)) throw new CliStepError("up", `run-claude-code.sh not found at ${SCRIPT} (set GI_REFERENCE_DIR)`, null);
  const { dir, remove: removeDir } = runDir(opts.dir, "gi-cc-");
  const pidFile = path.join(dir, "fake-anthropic.pid");
  const requestLog = path.join(dir, "fake-anthropic-requests.jsonl");
  const outFile = path.join(dir, "fake-anthropic.out");
  const baseEnv = hermeticEnv(DROP_ENV);
  // The script moves Claude Code's own scratch (CLAUDE_CODE_TMPDIR) to DIR/tmp; whatever else the
  // CLI or its tools put in $TMPDIR goes there too.
  fs.mkdirSync(path.join(dir, "tmp"), { recursive: true });
  baseEnv.TMPDIR = path.join(dir, "tmp");
  // Its messaging sockets (`cc-socks/<pid>.sock`) go to $XDG_RUNTIME_DIR when set: keep them in DIR too.
  fs.mkdirSync(path.join(dir, "run"), { recursive: true, mode: 0o700 });
  baseEnv.XDG_RUNTIME_DIR = path.join(dir, "run");
  // Its MCP client logs (claude-cli-nodejs/<project>/mcp-logs-<server>/) go to $XDG_CACHE_HOME when set.
  baseEnv.XDG_CACHE_HOME = path.join(dir, "cache");
  const scriptEnv = (port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    ...baseEnv,
    ...extra,
    CC_VERSION: version,
    CC_CACHE: cacheDir(),
    FAKE_ANTHROPIC_PORT: String(port),
    ...(opts.logBodies ? { FAKE_ANTHROPIC_LOG_FULL: "1" } : {}),
    ...(u ? { FAKE_UNIFIED_5H: String(u.fiveHour), FAKE_UNIFIED_7D: String(u.sevenDay), FAKE_UNIFIED_STEP: String(u.step) } : {}),
  });

  const stopFake = async (timeoutMs: number): Promise<void> => {
    const pid = readPid(pidFile);
    if (pid === null) return;
    signal(pid, "SIGTERM");
    await waitGone([pid], timeoutMs);
    fs.rmSync(pidFile, { force: true });
  };
  const unhook = onExitKill(() => {
    const pid = readPid(pidFile);
    if (pid !== null) signal(pid, "SIGTERM");
  });

  const wasInstalled = installed(version);
  const started = Date.now();
  const deadlineAt = started + upTimeoutMs;
  let port = opts.port ?? (await freePort());
  const home = path.join(dir, "home");
  let exported: Record<string, string>;
  try {
    if (!wasInstalled) await checkRegistry(`@anthropic-ai/claude-code@${version}`, cacheDir());
    // A free port can be taken between freePort() and the fake API's listen: then try another one.
    for (let attempt = 1; ; attempt++) {
      const up = await withInstallLock(cacheDir(), () => installed(version), `claude-code ${version}`, deadlineAt, () =>
        runCommand("bash", [SCRIPT, "up", dir], { timeoutMs: Math.max(1000, deadlineAt - Date.now()), env: scriptEnv(port), keep: "tail" }),
      );
      if (!installed(version)) {
        throw installError(`@anthropic-ai/claude-code@${version}`, cacheDir(), up, upTimeoutMs);
      }
      // The script gives the fake API 10 s; on a loaded machine we wait on to our own deadline.
      // Ready = our pid alive and a GET /v1/models in OUR request log (not another test's server on the port).
      const state = await waitForOwnFakeApi({
        pidFile,
        logFile: requestLog,
        outFile,
        isOwnReady: (l) => l.reply === "models",
        poke: () => pokeHttp(`http://127.0.0.1:${port}/v1/models`),
        deadlineAt,
      });
      if (state.ok) break;
      await stopFake(10_000);
      if (state.portInUse && opts.port === undefined && attempt < 4) {
        port = await freePort();
        continue;
      }
      throw new CliStepError(
        "up",
        `the fake Anthropic API on 127.0.0.1:${port} did not come up (${state.why}); up exited ${up.exitCode}${up.timedOut ? " (deadline)" : ""}: ${tail(up.output, 600)}`,
        up,
      );
    }
    exported = await readScriptEnv(SCRIPT, dir, scriptEnv(port), (e) => e.CLAUDE_HOME === home);
  } catch (err) {
    unhook();
    await stopFake(10_000);
    removeDir();
    throw err;
  }
  const upMs = Date.now() - started;
  let stopped = false;

  const run: ClaudeCodeRun = {
    version,
    dir,
    home,
    claudeDir: path.join(home, ".claude"),
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    requestLog,
    timings: { upMs, installed: !wasInstalled },
    env: () => ({ ...exported, HOME: home }),
    requests: () => readJsonl(requestLog),
    pid: () => (stopped ? null : readPid(pidFile)),
    bin() {
      const bin = findBin(version);
      if (!bin) throw new CliStepError("cli", "no claude binary in the cache", null);
      return bin;
    },
    async cli(args, o = {}) {
      const bin = findBin(version);
      if (!bin) throw new CliStepError("cli", "no claude binary in the cache", null);
      const cwd = path.resolve(dir, o.cwd ?? "workspace");
      fs.mkdirSync(cwd, { recursive: true });
      // runCommand has no cwd: a shell changes into it (the local scope of `claude mcp add` is the cwd's project).
      // No CLAUDE_CONFIG_DIR (turns run without it): with it, claude keeps its config elsewhere.
      const env = { ...scriptEnv(port), HOME: home, IS_SANDBOX: "1", DISABLE_AUTOUPDATER: "1", DISABLE_TELEMETRY: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" };
      return runCommand("bash", ["-c", 'cd "$1" && shift && exec "$@"', "cli", cwd, bin, ...args], { timeoutMs: o.timeoutMs ?? 120_000, env });
    },
    async turn(prompt, o = {}) {
      if (stopped) throw new CliStepError("turn", "turn() after stop()", null);
      const timeoutMs = o.timeoutMs ?? 180_000;
      const flags: string[] = [];
      if (o.model !== undefined) flags.push("--model", o.model);
      if (o.resume !== undefined) flags.push("--resume", o.resume);
      if (o.continue) flags.push("--continue");
      flags.push(...(o.flags ?? []));
      const extra: Record<string, string> = { ...(o.env ?? {}) };
      if (o.cwd !== undefined) extra.CC_CWD = o.cwd;
      const t = Date.now();
      const r: CommandOutcome = await runCommand("bash", [SCRIPT, "turn", dir, ...flags, prompt], { timeoutMs, env: scriptEnv(port, extra) });
      if (r.timedOut) throw new CliStepError("turn", `turn ${JSON.stringify(prompt)} ran past ${timeoutMs} ms: ${tail(r.output, 600)}`, r);
      if (r.spawnError) throw new CliStepError("turn", `bash not runnable: ${r.spawnError.message}`, r);
      let json: Record<string, unknown> | null = null;
      try {
        const v: unknown = JSON.parse(r.stdout);
        if (v && typeof v === "object" && !Array.isArray(v)) json = v as Record<string, unknown>;
      } catch {
        json = null; // stream-json / text output, or a failure before the result
      }
      const sessionId = typeof json?.session_id === "string" ? json.session_id : null;
      return { sessionId, exitCode: r.exitCode, json, stdout: r.stdout, stderr: r.stderr, wallMs: Date.now() - t };
    },
    async stop({ timeoutMs = 30_000 } = {}) {
      if (stopped) return;
      stopped = true;
      unhook();
      // The script removes the pid file, so read it first and wait for the process ourselves.
      const pid = readPid(pidFile);
      const r = await runCommand("bash", [SCRIPT, "down", dir], { timeoutMs: Math.min(timeoutMs, 20_000), env: scriptEnv(port) });
      if ((r.timedOut || r.exitCode !== 0) && pid !== null) signal(pid, "SIGTERM");
      if (pid !== null) await waitGone([pid], timeoutMs);
      if (pid !== null && isAlive(pid)) throw new CliStepError("down", `the fake API (pid ${pid}) is still running`, r);
      removeDir();
    },
  };
  return run;
}
