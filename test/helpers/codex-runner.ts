// A typed wrapper around the team's run-codex.sh for tests that need the REAL OpenAI Codex CLI
// (npm @openai/codex, a native binary) making real turns against the fake OpenAI Responses API
// (fake-openai-responses.mjs) on a free loopback port. All Codex writes stays in one dir: DIR/home
// (HOME), DIR/codex-home (CODEX_HOME: sessions/, state_5.sqlite, …), DIR/work (default cwd).
//
//   const cx = await startCodex();
//   try {
//     const t = await cx.turn(["--json", "hello [[SHELL: ls]]"]);   // markers: see fake-openai-responses.mjs
//     await cx.tui(cx.workDir, ["first prompt", "second prompt"]);  // interactive, starts the app-server daemon
//     // daemon under test: CODEX_HOME=cx.codexHome
//   } finally { await cx.stop(); }
//
// turn() runs `run-codex.sh turn` (codex exec). tui() does NOT use the script's `tui`: that one
// types on a fixed schedule (sleeps), which a loaded machine outruns. Here a small python3 pty
// bridge runs `codex` and Node waits on real signals: the prompt in CODEX_HOME/history.jsonl, a
// `task_complete` line per turn in the session's rollout, the pasted text echoed on the screen.
//
// Env: GI_SKIP_REAL_CLI=1 lets a developer skip these tests locally (never in CI, see
// realCliSkipReason); CODEX_CACHE moves the install cache (default ~/.cache/codex-e2e);
// GI_KEEP_CLI_DIR=1 keeps a temp dir after stop() for a post-mortem.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TOOLS_DIR } from "./openclaw-fixtures.js";
import { runCommand } from "../../shared/providers/run-command.js";
import type { CommandOutcome } from "../../shared/providers/run-command.js";
import { freePort } from "./cli.js";
import {
  CliInstallError,
  CliStepError,
  checkRegistry,
  hermeticEnv,
  installError,
  isAlive,
  onExitKill,
  PTY_BRIDGE,
  readJsonl,
  readPid,
  readScriptEnv,
  runDir,
  screenText,
  signal,
  sleep,
  tail,
  waitForOwnFakeApi,
  waitGone,
  withInstallLock,
} from "./real-cli.js";

export { CliInstallError, CliStepError, realCliSkipReason } from "./real-cli.js";

export const DEFAULT_CODEX_VERSION = "0.169.0";

const SCRIPT = path.join(TOOLS_DIR, "run-codex.sh");
/** A developer's Codex/OpenAI settings (CODEX_HOME, OPENAI_API_KEY, OPENAI_BASE_URL …) must not reach the CLI. */
const DROP_ENV = ["CODEX_", "OPENAI_", "FAKE_OPENAI_", "FAKE_RL_", "RUST_LOG", "OTEL_"];
/** The key run-codex.sh gives codex for the fake provider (config env_key); not a secret. */
const FAKE_KEY = "fake-loopback-key-not-a-secret";

export interface RateLimitStart {
  /** used-percent of the 5 h window on the first response (fake default 12). */
  primaryStart: number;
  /** used-percent of the weekly window on the first response (fake default 31). */
  secondaryStart: number;
  /** percent added to the primary window per served request (fake default 1.5; secondary gets a third). */
  step: number;
}

export interface CodexTurnResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** The thread id: `thread.started.thread_id` (--json) or the `session id:` header line; null when neither was printed. */
  sessionId: string | null;
  wallMs: number;
}

export interface CodexTuiResult {
  /** The TUI thread's id (from history.jsonl). */
  sessionId: string;
  /** The rollout the TUI wrote, with one task_complete per prompt. */
  rolloutPath: string;
  /** The TUI's exit code (0 after a clean Ctrl-C Ctrl-C), null when it had to be killed. */
  exitCode: number | null;
  /** What the TUI drew, terminal escapes included. */
  screen: string;
  wallMs: number;
}

export interface CodexTimings {
  /** Whole start: install when the cache was cold, config, fake API start, env. */
  upMs: number;
  /** True when this start had to install the CLI first. */
  installed: boolean;
}

export interface CodexRun {
  readonly version: string;
  readonly dir: string;
  /** The HOME codex ran with. */
  readonly home: string;
  /** CODEX_HOME: what a monitor under test reads (sessions/, history.jsonl, state_5.sqlite …). */
  readonly codexHome: string;
  readonly sessionsDir: string;
  /** The default cwd of turns. */
  readonly workDir: string;
  /** Port of the fake Responses API on 127.0.0.1 (from config.toml). */
  readonly port: number;
  /** http://127.0.0.1:<port>/v1 */
  readonly baseUrl: string;
  /** Every request the fake API got (JSONL). */
  readonly requestLog: string;
  readonly timings: CodexTimings;
  /**
   * What `run-codex.sh env` exports (CODEX_HOME, CODEX_SESSIONS_DIR, CODEX_TEST_HOME, FAKE_OPENAI_LOG),
   * plus HOME: the environment for a monitor under test.
   */
  env(): Record<string, string>;
  /** The environment to run the cached `codex` yourself (PATH first, HOME, CODEX_HOME, the fake key). */
  cliEnv(): NodeJS.ProcessEnv;
  /** The fake API's request log, one object per request (plus its `listening` line), oldest first. */
  requests(): Array<Record<string, unknown>>;
  /** The fake API's pid, null after stop(). */
  pid(): number | null;
  /** The live app-server daemon processes the TUI started (pids from CODEX_HOME/app-server-daemon/*.pid). */
  daemonPids(): number[];
  /** One real `codex exec ARGS` turn (the last arg is the prompt). Resolves on any exit; rejects only at the deadline. */
  turn(args: string[], opts?: { timeoutMs?: number }): Promise<CodexTurnResult>;
  /**
   * One interactive TUI session in `cwd` (absolute, or relative to workDir): the first prompt goes on
   * the command line, the others are pasted one by one, each after the previous turn completed;
   * then Ctrl-C Ctrl-C. Resolves once the TUI exited; the app-server daemon keeps running until stop().
   */
  tui(cwd: string, prompts: string[], opts?: { timeoutMs?: number }): Promise<CodexTuiResult>;
  /** Stops the fake API, any TUI and the app-server daemon, waits until they are gone; removes the dir when start created it. Safe to call twice. */
  stop(opts?: { timeoutMs?: number }): Promise<void>;
}

export interface StartCodexOptions {
  /** Use this dir (created if missing, kept by stop()); default a fresh temp dir removed by stop(). */
  dir?: string;
  /** Port for the fake API; default a free one (another one is tried if it was taken meanwhile). */
  port?: number;
  /** Rate-limit percentages the fake API reports (FAKE_RL_*). Keep them low for tui(): near 100 % the TUI opens a dialog that eats prompts. */
  rateLimits?: RateLimitStart;
  version?: string;
  /** config.toml `model` (CODEX_MODEL); default gpt-5-codex. */
  model?: string;
  /** config.toml `model_auto_compact_token_limit` (CODEX_AUTO_COMPACT_LIMIT). */
  autoCompactLimit?: number;
  /** The fake API also writes every request body whole to DIR/fake-openai-bodies.jsonl (FAKE_OPENAI_BODYLOG): what reached the model. */
  logBodies?: boolean;
  /** Deadline for the start (install included); default 480 s (the install is ~400 MB), inside test/run.mjs's 600 s per file. */
  upTimeoutMs?: number;
}

function cacheDir(): string {
  return process.env.CODEX_CACHE ?? path.join(os.homedir(), ".cache", "codex-e2e");
}

function binDir(version: string): string {
  return path.join(cacheDir(), `codex-${version}`, "node_modules", ".bin");
}

/** The script's own test (install() runs npm unless this launcher exists). */
function installed(version: string): boolean {
  return fs.existsSync(path.join(binDir(version), "codex"));
}

/** All rollout files under sessions/ (YYYY/MM/DD/rollout-…-<id>.jsonl). */
function rollouts(sessionsDir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^rollout-.*\.jsonl$/.test(e.name)) out.push(p);
    }
  };
  walk(sessionsDir);
  return out;
}

function taskCompletes(rollout: string): number {
  return readJsonl(rollout).filter((l) => l.type === "event_msg" && (l.payload as { type?: unknown } | undefined)?.type === "task_complete").length;
}

/** The daemon pid files hold JSON {"pid":N,…}; only a process running the daemon copy in THIS CODEX_HOME counts. */
function liveDaemonPids(codexHome: string): number[] {
  const pids: number[] = [];
  for (const f of ["daemon.pid", "daemon-updater.pid"]) {
    let pid: unknown;
    try {
      pid = (JSON.parse(fs.readFileSync(path.join(codexHome, "app-server-daemon", f), "utf8")) as { pid?: unknown }).pid;
    } catch {
      continue;
    }
    if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) continue;
    let cmdline = "";
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (cmdline.includes(path.join(codexHome, "packages") + path.sep)) pids.push(pid);
  }
  return pids;
}

const SESSION_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

function sessionIdOf(stdout: string, stderr: string): string | null {
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      const ev = JSON.parse(line) as { type?: unknown; thread_id?: unknown };
      if (ev.type === "thread.started" && typeof ev.thread_id === "string") return ev.thread_id;
    } catch {
      // not an event line
    }
  }
  const m = new RegExp(`^session id: (${SESSION_ID.source})$`, "m").exec(`${stderr}\n${stdout}`);
  return m ? m[1]! : null;
}

/** Writes config.toml and starts the fake Responses API in DIR (installing the CLI first when the cache is cold); resolves once it answers. */
export async function startCodex(opts: StartCodexOptions = {}): Promise<CodexRun> {
  const version = opts.version ?? DEFAULT_CODEX_VERSION;
  const upTimeoutMs = opts.upTimeoutMs ?? 480_000;
  if (!fs.existsSync(SCRIPT)) throw new CliStepError("up", `run-codex.sh not found at ${SCRIPT} (set GI_REFERENCE_DIR)`, null);
  const rl = opts.rateLimits;
  if (rl && ![rl.primaryStart, rl.secondaryStart, rl.step].every((n) => Number.isFinite(n) && n >= 0 && n <= 100)) {
    throw new CliStepError("up", `rateLimits must be percentages in 0..100: ${JSON.stringify(rl)}`, null);
  }
  if (opts.autoCompactLimit !== undefined && !(Number.isInteger(opts.autoCompactLimit) && opts.autoCompactLimit > 0)) {
    throw new CliStepError("up", `autoCompactLimit must be a positive integer: ${opts.autoCompactLimit}`, null);
  }
  if (opts.model !== undefined && !/^[A-Za-z0-9._:-]+$/.test(opts.model)) throw new CliStepError("up", `model ${JSON.stringify(opts.model)} is not a plain model id`, null);

  const { dir, remove: removeDir } = runDir(opts.dir, "gi-cx-");
  const home = path.join(dir, "home");
  const codexHome = path.join(dir, "codex-home");
  const configPath = path.join(codexHome, "config.toml");
  const pidFile = path.join(dir, "fake-openai.pid");
  const requestLog = path.join(dir, "fake-openai-requests.jsonl");
  const outFile = path.join(dir, "fake-openai.out");
  const baseEnv = hermeticEnv(DROP_ENV);
  // Scratch stays in DIR too. Not honoured by everything: 0.169's app-server daemon keeps its
  // control socket in /tmp/codex-daemon-<uid>/ whatever TMPDIR says (it removes it when stopped).
  fs.mkdirSync(path.join(dir, "tmp"), { recursive: true });
  baseEnv.TMPDIR = path.join(dir, "tmp");
  const scriptEnv = (port: number): NodeJS.ProcessEnv => ({
    ...baseEnv,
    // `up` runs `codex --version` without the run's HOME: codex would write its arg0 scratch
    // (~/.codex/tmp/arg0-linux) into the caller's HOME. Every step runs with the run's own dirs.
    HOME: home,
    CODEX_HOME: codexHome,
    CODEX_VERSION: version,
    CODEX_CACHE: cacheDir(),
    FAKE_OPENAI_PORT: String(port),
    ...(opts.model !== undefined ? { CODEX_MODEL: opts.model } : {}),
    ...(opts.autoCompactLimit !== undefined ? { CODEX_AUTO_COMPACT_LIMIT: String(opts.autoCompactLimit) } : {}),
    ...(opts.logBodies ? { FAKE_OPENAI_BODYLOG: path.join(dir, "fake-openai-bodies.jsonl") } : {}),
    ...(rl ? { FAKE_RL_PRIMARY_START: String(rl.primaryStart), FAKE_RL_SECONDARY_START: String(rl.secondaryStart), FAKE_RL_STEP: String(rl.step) } : {}),
  });

  const tuis = new Set<ChildProcess>();
  const killTuis = (): void => {
    for (const c of tuis) if (c.pid !== undefined) signal(-c.pid, "SIGKILL");
  };
  /** The fake API, the daemon and any TUI, stopped and waited for. */
  const stopAll = async (timeoutMs: number): Promise<void> => {
    killTuis();
    const pids = [readPid(pidFile), ...liveDaemonPids(codexHome)].filter((p): p is number => p !== null);
    for (const p of pids) signal(p, "SIGTERM");
    await waitGone(pids, timeoutMs);
    fs.rmSync(pidFile, { force: true });
  };
  const unhook = onExitKill(() => {
    killTuis();
    for (const p of [readPid(pidFile), ...liveDaemonPids(codexHome)]) if (p !== null) signal(p, "SIGTERM");
  });

  const wasInstalled = installed(version);
  const hadConfig = fs.existsSync(configPath);
  const started = Date.now();
  const deadlineAt = started + upTimeoutMs;
  let port = opts.port ?? (await freePort());
  let upOutput = "";
  let exported: Record<string, string>;
  try {
    if (!wasInstalled) await checkRegistry(`@openai/codex@${version}`, cacheDir());
    for (let attempt = 1; ; attempt++) {
      const up = await withInstallLock(cacheDir(), () => installed(version), `codex ${version}`, deadlineAt, () =>
        runCommand("bash", [SCRIPT, "up", dir], { timeoutMs: Math.max(1000, deadlineAt - Date.now()), env: scriptEnv(port), keep: "tail" }),
      );
      upOutput = up.output;
      if (!installed(version)) {
        throw installError(`@openai/codex@${version}`, cacheDir(), up, upTimeoutMs);
      }
      // An existing config.toml (a dir given back to us) keeps its port: the script reuses it.
      const cfgPort = /^base_url = "http:\/\/127\.0\.0\.1:(\d+)\/v1"$/m.exec(fs.existsSync(configPath) ? fs.readFileSync(configPath, "utf8") : "")?.[1];
      if (cfgPort !== undefined) port = Number(cfgPort);
      const readyPort = port;
      // Ready = our pid alive and OUR log's `listening` line for this port (the script only curls the port).
      const state = await waitForOwnFakeApi({
        pidFile,
        logFile: requestLog,
        outFile,
        isOwnReady: (l) => l.event === "listening" && l.port === readyPort,
        deadlineAt,
      });
      if (state.ok) break;
      await stopAll(10_000);
      if (state.portInUse && opts.port === undefined && !hadConfig && attempt < 4) {
        // config.toml holds the port: write it again with a new one.
        fs.rmSync(configPath, { force: true });
        fs.rmSync(outFile, { force: true });
        port = await freePort();
        continue;
      }
      throw new CliStepError(
        "up",
        `the fake OpenAI API on 127.0.0.1:${port} did not come up (${state.why}); up exited ${up.exitCode}${up.timedOut ? " (deadline)" : ""}: ${tail(up.output, 600)}`,
        up,
      );
    }
    // The launcher is there but not the native binary (an interrupted install): the script would
    // never repair it, and every turn would fail with a launcher error.
    if (!new RegExp(`codex ${version.replace(/\./g, "\\.")}\\s*$`, "m").test(upOutput)) {
      throw new CliInstallError(
        `codex ${version} in ${path.join(cacheDir(), `codex-${version}`)} does not run (incomplete install? remove that folder and try again): ${tail(upOutput, 600)}`,
        upOutput,
      );
    }
    exported = await readScriptEnv(SCRIPT, dir, scriptEnv(port), (e) => e.CODEX_HOME === codexHome);
  } catch (err) {
    unhook();
    await stopAll(10_000);
    removeDir();
    throw err;
  }
  const upMs = Date.now() - started;
  const workDir = path.join(dir, "work");
  const sessionsDir = path.join(codexHome, "sessions");
  let stopped = false;

  const cliEnv = (): NodeJS.ProcessEnv => ({
    ...baseEnv,
    PATH: `${binDir(version)}${path.delimiter}${baseEnv.PATH ?? ""}`,
    HOME: home,
    CODEX_HOME: codexHome,
    FAKE_OPENAI_API_KEY: FAKE_KEY,
  });

  const run: CodexRun = {
    version,
    dir,
    home,
    codexHome,
    sessionsDir,
    workDir,
    port,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requestLog,
    timings: { upMs, installed: !wasInstalled },
    env: () => ({ ...exported, HOME: home }),
    cliEnv,
    requests: () => readJsonl(requestLog).filter((l) => l.event !== "listening"),
    pid: () => (stopped ? null : readPid(pidFile)),
    daemonPids: () => liveDaemonPids(codexHome),
    async turn(args, { timeoutMs = 180_000 } = {}) {
      if (stopped) throw new CliStepError("turn", "turn() after stop()", null);
      if (args.length === 0) throw new CliStepError("turn", "turn() needs at least the prompt", null);
      const t = Date.now();
      const r: CommandOutcome = await runCommand("bash", [SCRIPT, "turn", dir, ...args], { timeoutMs, env: scriptEnv(port) });
      if (r.timedOut) throw new CliStepError("turn", `codex exec ${JSON.stringify(args)} ran past ${timeoutMs} ms: ${tail(r.output, 600)}`, r);
      if (r.spawnError) throw new CliStepError("turn", `bash not runnable: ${r.spawnError.message}`, r);
      return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, sessionId: sessionIdOf(r.stdout, r.stderr), wallMs: Date.now() - t };
    },
    async tui(cwdIn, prompts, { timeoutMs = 300_000 } = {}) {
      if (stopped) throw new CliStepError("tui", "tui() after stop()", null);
      if (prompts.length === 0) throw new CliStepError("tui", "tui() needs at least one prompt", null);
      for (const p of prompts) {
        // A prompt is pasted (bracketed paste): an escape or CR inside would end the paste or submit early.
        // eslint-disable-next-line no-control-regex -- rejecting control characters
        if (!p.trim() || /[\x00-\x08\x0b-\x1f\x7f]/.test(p)) throw new CliStepError("tui", `prompt ${JSON.stringify(p)} is empty or holds control characters`, null);
      }
      const cwd = path.resolve(workDir, cwdIn);
      // The config line below is TOML built from the path: refuse what would break out of the string.
      if (/["\\\n\r]/.test(cwd)) throw new CliStepError("tui", `cwd ${JSON.stringify(cwd)} holds a quote, backslash or newline`, null);
      fs.mkdirSync(cwd, { recursive: true });
      // An untrusted git checkout opens a "Trust this folder?" dialog that would eat the first prompt.
      const config = fs.readFileSync(configPath, "utf8");
      if (!config.includes(`[projects."${cwd}"]`)) fs.appendFileSync(configPath, `\n[projects."${cwd}"]\ntrust_level = "trusted"\n`);

      const historyFile = path.join(codexHome, "history.jsonl");
      const historyBefore = readJsonl(historyFile).length;
      const t = Date.now();
      const deadlineAt = t + timeoutMs;
      // `--` so that a prompt starting with "-" is not read as a flag.
      const child = spawn("python3", ["-c", PTY_BRIDGE, cwd, "codex", "--dangerously-bypass-approvals-and-sandbox", "--", prompts[0]!], {
        env: cliEnv(),
        stdio: ["pipe", "pipe", "pipe"],
        detached: true, // own process group: one kill reaches the bridge, the launcher and codex
      });
      tuis.add(child);
      const chunks: Buffer[] = [];
      let exited: { code: number | null } | null = null;
      let spawnError: Error | null = null;
      child.stdout?.on("data", (d: Buffer) => chunks.push(d));
      child.stderr?.on("data", (d: Buffer) => chunks.push(d));
      child.stdin?.on("error", () => undefined); // EPIPE after the TUI exited
      child.on("error", (e) => (spawnError = e));
      child.on("exit", (code) => (exited = { code }));
      const screen = (): string => Buffer.concat(chunks).toString("utf8");
      const fail = (what: string): CliStepError => new CliStepError("tui", `${what} (${Math.round((Date.now() - t) / 1000)} s in); screen: ${tail(screen(), 1200)}`, null);
      const until = async <T>(what: string, check: () => T | null | undefined | false): Promise<T> => {
        for (;;) {
          const v = check();
          if (v) return v;
          if (spawnError) throw fail(`python3 not runnable: ${(spawnError as Error).message}`);
          if (exited) throw fail(`the TUI exited (code ${exited.code}) before ${what}`);
          if (Date.now() > deadlineAt) throw fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
          await sleep(100);
        }
      };
      const killGroup = (sig: NodeJS.Signals): void => {
        if (child.pid !== undefined) signal(-child.pid, sig);
      };
      try {
        // 1. The first prompt was submitted: history.jsonl names the thread.
        const first = await until("the first prompt in history.jsonl", () => readJsonl(historyFile)[historyBefore]);
        if (first.text !== prompts[0] || typeof first.session_id !== "string") throw fail(`unexpected history line ${JSON.stringify(first)}`);
        const sessionId = first.session_id;
        const rolloutPath = await until("the session's rollout file", () => rollouts(sessionsDir).find((f) => f.endsWith(`-${sessionId}.jsonl`)));
        await until("turn 1 to complete", () => taskCompletes(rolloutPath) >= 1);
        for (let i = 1; i < prompts.length; i++) {
          const text = prompts[i]!;
          // Typed characters followed at once by Enter count as a paste burst (Enter becomes a newline):
          // paste the prompt, wait until the composer shows it, then press Enter.
          const from = Buffer.concat(chunks).length;
          child.stdin?.write(`\x1b[200~${text}\x1b[201~`);
          const needle = screenText(text).slice(0, 40);
          await until(`prompt ${i + 1} to appear in the composer`, () => screenText(Buffer.concat(chunks).subarray(from).toString("utf8")).includes(needle));
          child.stdin?.write("\r");
          await until(`prompt ${i + 1} in history.jsonl`, () => readJsonl(historyFile).filter((h) => h.session_id === sessionId).length > i);
          await until(`turn ${i + 1} to complete`, () => taskCompletes(rolloutPath) > i);
        }
        // 2. Quit: Ctrl-C twice (the first arms "press again to quit"); resent once at half time.
        child.stdin?.write("\x03\x03");
        const quitBy = Date.now() + Math.min(30_000, Math.max(5_000, deadlineAt - Date.now()));
        let resent = false;
        while (!exited && Date.now() < quitBy) {
          if (!resent && Date.now() > quitBy - 15_000) {
            child.stdin?.write("\x03\x03");
            resent = true;
          }
          await sleep(100);
        }
        const finalExit = exited as { code: number | null } | null;
        return { sessionId, rolloutPath, exitCode: finalExit ? finalExit.code : null, screen: screen(), wallMs: Date.now() - t };
      } finally {
        if (!exited) {
          killGroup("SIGTERM");
          const by = Date.now() + 10_000;
          while (!exited && Date.now() < by) await sleep(100);
          if (!exited) killGroup("SIGKILL");
        }
        tuis.delete(child);
      }
    },
    async stop({ timeoutMs = 30_000 } = {}) {
      if (stopped) return;
      stopped = true;
      unhook();
      killTuis();
      // The script removes the fake API's pid file: read every pid first and wait for them ourselves.
      const pids = [readPid(pidFile), ...liveDaemonPids(codexHome)].filter((p): p is number => p !== null);
      const r = await runCommand("bash", [SCRIPT, "down", dir], { timeoutMs: Math.min(timeoutMs, 20_000), env: scriptEnv(port) });
      if (r.timedOut || r.exitCode !== 0) for (const p of pids) signal(p, "SIGTERM");
      await waitGone(pids, timeoutMs);
      const left = pids.filter(isAlive);
      if (left.length > 0) throw new CliStepError("down", `still running: ${left.join(", ")}`, r);
      removeDir();
    },
  };
  return run;
}
