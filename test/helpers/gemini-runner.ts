// A typed wrapper around the team's run-gemini-cli.sh for tests that need the REAL Gemini CLI
// (npm @google/gemini-cli, a Node bundle) making real turns against the fake Gemini API
// (fake-gemini.mjs) on a free loopback port. Everything Gemini CLI writes stays in one dir:
// DIR/home (HOME, so its state is DIR/home/.gemini), DIR/tmp (TMPDIR: its error reports),
// DIR/workspace (the default cwd); each distinct cwd is its own project (gemini-cli-format.md §3).
//
//   const g = await startGemini();
//   try {
//     const t = await g.turn(["hello @@SHELL@@"], { cwd: "api" });   // markers: see fake-gemini.mjs
//     await g.turn(["--resume", "latest", "go on"], { cwd: "api" });
//     await g.tui("api", ["first prompt", "/compress"]);            // interactive, in a pty
//     // daemon under test: HOME=g.home
//   } finally { await g.stop(); }
//
// turn() runs `run-gemini-cli.sh turn` (gemini -p, -o json, yolo). tui() does NOT use the script's
// `tui`: that one types on a fixed schedule, which a loaded machine outruns. Here the shared pty
// bridge runs `gemini -i` and Node waits on real signals: the prompt's record and its answer in the
// session file, a typed command in the project's logs.json, `/compress`'s info record.
//
// Env: GI_SKIP_REAL_CLI=1 lets a developer skip these tests locally (never in CI, see
// geminiSkipReason); GEMINI_CACHE moves the install cache (default ~/.cache/gemini-cli-e2e);
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
  onExitKill,
  pokeHttp,
  PTY_BRIDGE,
  readJsonl,
  readPid,
  readScriptEnv,
  runDir,
  realCliSkipReason,
  screenText,
  signal,
  sleep,
  tail,
  waitForOwnFakeApi,
  waitGone,
  withInstallLock,
} from "./real-cli.js";

export { CliInstallError, CliStepError } from "./real-cli.js";

export const DEFAULT_GEMINI_VERSION = "0.61.0";

const SCRIPT = path.join(TOOLS_DIR, "run-gemini-cli.sh");
/** A developer's Gemini/Google settings (GEMINI_API_KEY, GOOGLE_CLOUD_PROJECT, GEMINI_CLI_HOME …) must not reach the CLI. */
const DROP_ENV = ["GEMINI_", "GOOGLE_", "FAKE_GEMINI_", "OTEL_", "FAKETIME", "LD_PRELOAD"];
/** The key run-gemini-cli.sh gives gemini for the fake API; not a secret. */
const FAKE_KEY = "fake-loopback-key-not-a-secret";

export interface GeminiTurnResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** `session_id` of the `-o json` result (stdout, or the error object on stderr); null when neither printed one. */
  sessionId: string | null;
  wallMs: number;
}

export interface GeminiTuiResult {
  sessionId: string;
  /** The main session file the interactive run wrote (tmp/<slug>/chats/session-….jsonl). */
  sessionFile: string;
  /** The exit code after /quit, null when it had to be killed. */
  exitCode: number | null;
  /** What the UI drew, terminal escapes included. */
  screen: string;
  wallMs: number;
}

export interface GeminiTimings {
  /** Whole start: install when the cache was cold, settings, fake API start, env. */
  upMs: number;
  /** True when this start had to install the CLI first. */
  installed: boolean;
}

export interface GeminiRun {
  readonly version: string;
  readonly dir: string;
  /** The HOME gemini ran with: what a monitor under test reads (`.gemini/` inside). */
  readonly home: string;
  /** `home/.gemini`. */
  readonly geminiDir: string;
  /** The default cwd of turns (DIR/workspace). */
  readonly workDir: string;
  readonly port: number;
  /** http://127.0.0.1:<port> (GOOGLE_GEMINI_BASE_URL). */
  readonly baseUrl: string;
  /** Every request the fake API got (JSONL). */
  readonly requestLog: string;
  /** Whole request bodies (only with `logBodies`). */
  readonly bodyLog: string;
  readonly timings: GeminiTimings;
  /** What `run-gemini-cli.sh env` exports (GEMINI_HOME, GEMINI_DIR, GOOGLE_GEMINI_BASE_URL, FAKE_GEMINI_LOG), plus HOME. */
  env(): Record<string, string>;
  /** The fake API's request log, oldest first. */
  requests(): Array<Record<string, unknown>>;
  /** The fake API's pid, null after stop(). */
  pid(): number | null;
  /** The absolute cwd a turn with `cwd` runs in. */
  cwdOf(cwd?: string): string;
  /** The project's dir `.gemini/tmp/<slug>` for a cwd, from projects.json; null before its first run. */
  projectDir(cwd?: string): string | null;
  /** One real `gemini -p` turn (the last arg is the prompt). Resolves on any exit; rejects only at the deadline. */
  turn(args: string[], opts?: { cwd?: string; model?: string; timeoutMs?: number; env?: Record<string, string> }): Promise<GeminiTurnResult>;
  /** One interactive session in `cwd`: the first prompt via `-i`, the others typed one by one after the previous finished; then /quit. */
  tui(cwd: string, prompts: string[], opts?: { model?: string; timeoutMs?: number }): Promise<GeminiTuiResult>;
  /** Stops the fake API and any interactive run, waits until they are gone; removes the dir when start created it. Safe to call twice. */
  stop(opts?: { timeoutMs?: number }): Promise<void>;
}

export interface StartGeminiOptions {
  /** Use this dir (created if missing, kept by stop()); default a fresh temp dir removed by stop(). */
  dir?: string;
  /** Port for the fake API; default a free one (another one is tried if it was taken meanwhile). */
  port?: number;
  version?: string;
  /** `general.maxAttempts` in settings.json (default 3: @@FAIL@@ ends in about 15 s). */
  maxAttempts?: number;
  /** FAKE_GEMINI_SEED: the fake API's usage numbers become reproducible for one request order. */
  seed?: string;
  /** The fake API also keeps every request body whole (DIR/fake-gemini-bodies.jsonl): what reached the model. */
  logBodies?: boolean;
  /** Deadline for the start (install included); default 480 s, inside test/run.mjs's 600 s per file. */
  upTimeoutMs?: number;
}

function cacheDir(): string {
  return process.env.GEMINI_CACHE ?? path.join(os.homedir(), ".cache", "gemini-cli-e2e");
}

function bundle(version: string): string {
  return path.join(cacheDir(), `gemini-cli-${version}`, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js");
}

/** The script's own test (install() runs npm unless the bundle exists). */
function installed(version: string): boolean {
  return fs.existsSync(bundle(version));
}

/**
 * Why the real-Gemini tests should not run here, or null when they should: the developer's
 * GI_SKIP_REAL_CLI=1, or (off CI only) a cold install cache with no npm registry to fill it. In CI
 * they are required: an offline CI fails with the install error instead.
 */
export async function geminiSkipReason(env: NodeJS.ProcessEnv = process.env, version = DEFAULT_GEMINI_VERSION): Promise<string | null> {
  const dev = realCliSkipReason(env);
  if (dev) return dev;
  if (env.CI || installed(version)) return null;
  try {
    await checkRegistry(`@google/gemini-cli@${version}`, cacheDir());
    return null;
  } catch (err) {
    if (err instanceof CliInstallError) return `Gemini CLI ${version} is not installed in ${cacheDir()} and cannot be: ${err.message}`;
    throw err;
  }
}

const SESSION_ID = /"session_id"\s*:\s*"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/;

/** `session_id` of `-o json` (stdout) or of the error object a failed run prints on stderr. */
function sessionIdOf(stdout: string, stderr: string): string | null {
  return SESSION_ID.exec(stdout)?.[1] ?? SESSION_ID.exec(stderr)?.[1] ?? null;
}

/** trustedFolders.json gains `cwd` (what the trust dialog writes); headless and interactive runs refuse an untrusted folder. */
function trust(geminiDir: string, cwd: string): void {
  const file = path.join(geminiDir, "trustedFolders.json");
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    // none yet
  }
  if (data[cwd] === "TRUST_FOLDER") return;
  data[cwd] = "TRUST_FOLDER";
  fs.mkdirSync(geminiDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(data, null, 2));
}

type Rec = Record<string, unknown>;

/** Main session files of a project dir (tmp/<slug>/chats/session-*.jsonl). */
function mainSessions(projectDir: string | null): string[] {
  if (!projectDir) return [];
  const chats = path.join(projectDir, "chats");
  try {
    return fs.readdirSync(chats).filter((n) => /^session-.*\.jsonl$/.test(n)).map((n) => path.join(chats, n));
  } catch {
    return [];
  }
}

/** Index of the top-level user record whose text is `text`, at or after `from`; -1 if none. */
function promptAt(lines: Rec[], text: string, from = 0): number {
  for (let i = from; i < lines.length; i++) {
    const l = lines[i] as Rec;
    if (l.type === "user" && Array.isArray(l.content) && (l.content as Rec[]).some((p) => p.text === text)) return i;
  }
  return -1;
}

/** A gemini record with tokens after line `i` whose own turn is over (no later user record waiting on a tool). */
function answeredAfter(lines: Rec[], i: number): boolean {
  const rest = lines.slice(i + 1).filter((l) => typeof l.type === "string");
  const last = rest[rest.length - 1];
  return last?.type === "gemini" && last.tokens !== undefined && !(Array.isArray(last.toolCalls) && (last.toolCalls as Rec[]).some((c) => c.status !== "success" && c.status !== "error" && c.status !== "cancelled"));
}

/** Writes settings.json and starts the fake Gemini API in DIR (installing the CLI first when the cache is cold); resolves once it answers. */
export async function startGemini(opts: StartGeminiOptions = {}): Promise<GeminiRun> {
  const version = opts.version ?? DEFAULT_GEMINI_VERSION;
  const upTimeoutMs = opts.upTimeoutMs ?? 480_000;
  if (!fs.existsSync(SCRIPT)) throw new CliStepError("up", `run-gemini-cli.sh not found at ${SCRIPT} (set GI_REFERENCE_DIR)`, null);
  if (opts.maxAttempts !== undefined && !(Number.isInteger(opts.maxAttempts) && opts.maxAttempts >= 1 && opts.maxAttempts <= 10)) {
    throw new CliStepError("up", `maxAttempts must be an integer in 1..10: ${opts.maxAttempts}`, null);
  }
  if (!/^[0-9]+\.[0-9]+\.[0-9]+$/.test(version)) throw new CliStepError("up", `version ${JSON.stringify(version)} is not x.y.z`, null);

  const { dir, remove: removeDir } = runDir(opts.dir, "gi-gm-");
  const home = path.join(dir, "home");
  const geminiDir = path.join(home, ".gemini");
  const pidFile = path.join(dir, "fake-gemini.pid");
  const requestLog = path.join(dir, "fake-gemini-requests.jsonl");
  const bodyLog = path.join(dir, "fake-gemini-bodies.jsonl");
  const outFile = path.join(dir, "fake-gemini.out");
  const workDir = path.join(dir, "workspace");
  const baseEnv = hermeticEnv(DROP_ENV);
  const scriptEnv = (port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    ...baseEnv,
    GEMINI_CACHE: cacheDir(),
    GEMINI_CLI_VERSION: version,
    FAKE_GEMINI_PORT: String(port),
    ...(opts.maxAttempts !== undefined ? { GEMINI_MAX_ATTEMPTS: String(opts.maxAttempts) } : {}),
    ...(opts.seed !== undefined ? { FAKE_GEMINI_SEED: opts.seed } : {}),
    ...(opts.logBodies ? { FAKE_GEMINI_BODYLOG: bodyLog } : {}),
    ...extra,
  });

  const tuis = new Set<ChildProcess>();
  const killTuis = (): void => {
    for (const c of tuis) if (c.pid !== undefined) signal(-c.pid, "SIGKILL");
  };
  const stopAll = async (timeoutMs: number): Promise<void> => {
    killTuis();
    const pid = readPid(pidFile);
    if (pid !== null) {
      signal(pid, "SIGTERM");
      await waitGone([pid], timeoutMs);
    }
    fs.rmSync(pidFile, { force: true });
  };
  const unhook = onExitKill(() => {
    killTuis();
    const p = readPid(pidFile);
    if (p !== null) signal(p, "SIGTERM");
  });

  const wasInstalled = installed(version);
  const started = Date.now();
  const deadlineAt = started + upTimeoutMs;
  let port = opts.port ?? (await freePort());
  let exported: Record<string, string>;
  try {
    if (!wasInstalled) await checkRegistry(`@google/gemini-cli@${version}`, cacheDir());
    for (let attempt = 1; ; attempt++) {
      const up = await withInstallLock(cacheDir(), () => installed(version), `gemini-cli ${version}`, deadlineAt, () =>
        runCommand("bash", [SCRIPT, "up", dir], { timeoutMs: Math.max(1000, deadlineAt - Date.now()), env: scriptEnv(port), keep: "tail" }),
      );
      if (!installed(version)) {
        throw installError(`@google/gemini-cli@${version}`, cacheDir(), up, upTimeoutMs);
      }
      const readyPort = port;
      // Ready = our pid alive and OUR log holds a model-list request addressed to this port (the
      // script's readiness curl): a server of someone else's on the port logs elsewhere.
      const state = await waitForOwnFakeApi({
        pidFile,
        logFile: requestLog,
        outFile,
        isOwnReady: (l) => l.reply === "models" && (l.headers as Rec | undefined)?.host === `127.0.0.1:${readyPort}`,
        poke: () => pokeHttp(`http://127.0.0.1:${readyPort}/v1beta/models`),
        deadlineAt,
      });
      if (state.ok) {
        // The bundle is there but does not run (an interrupted install): every turn would fail.
        if (!new RegExp(`\\(gemini ${version.replace(/\./g, "\\.")}\\)`).test(up.output)) {
          throw new CliInstallError(`gemini ${version} in ${path.dirname(bundle(version))} does not run (incomplete install? remove ${path.join(cacheDir(), `gemini-cli-${version}`)} and try again): ${tail(up.output, 600)}`, up.output);
        }
        break;
      }
      await stopAll(10_000);
      if (state.portInUse && opts.port === undefined && attempt < 4) {
        fs.rmSync(outFile, { force: true });
        port = await freePort();
        continue;
      }
      throw new CliStepError("up", `the fake Gemini API on 127.0.0.1:${port} did not come up (${state.why}); up exited ${up.exitCode}${up.timedOut ? " (deadline)" : ""}: ${tail(up.output, 600)}`, up);
    }
    exported = await readScriptEnv(SCRIPT, dir, scriptEnv(port), (e) => e.GEMINI_DIR === geminiDir);
  } catch (err) {
    unhook();
    await stopAll(10_000);
    removeDir();
    throw err;
  }
  const upMs = Date.now() - started;
  let stopped = false;
  const cwdOf = (cwd?: string): string => path.resolve(workDir, cwd ?? ".");
  const projectDir = (cwd?: string): string | null => {
    try {
      const reg = JSON.parse(fs.readFileSync(path.join(geminiDir, "projects.json"), "utf8")) as { projects?: Record<string, unknown> };
      const slug = reg.projects?.[cwdOf(cwd)];
      return typeof slug === "string" ? path.join(geminiDir, "tmp", slug) : null;
    } catch {
      return null;
    }
  };

  const run: GeminiRun = {
    version,
    dir,
    home,
    geminiDir,
    workDir,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    requestLog,
    bodyLog,
    timings: { upMs, installed: !wasInstalled },
    env: () => ({ ...exported, HOME: home }),
    requests: () => readJsonl(requestLog),
    pid: () => (stopped ? null : readPid(pidFile)),
    cwdOf,
    projectDir,
    async turn(args, { cwd, model, timeoutMs = 180_000, env = {} } = {}) {
      if (stopped) throw new CliStepError("turn", "turn() after stop()", null);
      if (args.length === 0) throw new CliStepError("turn", "turn() needs at least the prompt", null);
      const t = Date.now();
      const extra: Record<string, string> = { ...env, GEMINI_CWD: cwdOf(cwd) };
      if (model !== undefined) extra.GEMINI_MODEL = model;
      const r: CommandOutcome = await runCommand("bash", [SCRIPT, "turn", dir, ...args], { timeoutMs, env: scriptEnv(port, extra) });
      if (r.timedOut) throw new CliStepError("turn", `gemini -p ${JSON.stringify(args)} ran past ${timeoutMs} ms: ${tail(r.output, 600)}`, r);
      if (r.spawnError) throw new CliStepError("turn", `bash not runnable: ${r.spawnError.message}`, r);
      return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, sessionId: sessionIdOf(r.stdout, r.stderr), wallMs: Date.now() - t };
    },
    async tui(cwdIn, prompts, { model = "gemini-2.5-pro", timeoutMs = 300_000 } = {}) {
      if (stopped) throw new CliStepError("tui", "tui() after stop()", null);
      if (prompts.length === 0 || prompts[0]!.startsWith("/")) throw new CliStepError("tui", "tui() needs a first prompt that is no slash command", null);
      for (const p of prompts) {
        // eslint-disable-next-line no-control-regex -- a CR or escape inside would submit early or end the input
        if (!p.trim() || /[\x00-\x1f\x7f]/.test(p)) throw new CliStepError("tui", `prompt ${JSON.stringify(p)} is empty or holds control characters`, null);
      }
      const cwd = cwdOf(cwdIn);
      fs.mkdirSync(cwd, { recursive: true });
      trust(geminiDir, cwd);
      const before = new Set(mainSessions(projectDir(cwdIn)));
      const t = Date.now();
      const deadlineAt = t + timeoutMs;
      const child = spawn("python3", ["-c", PTY_BRIDGE, cwd, process.execPath, bundle(version), "-m", model, "--approval-mode", "yolo", "-i", prompts[0]!], {
        env: { ...baseEnv, HOME: home, TMPDIR: path.join(dir, "tmp"), GEMINI_API_KEY: FAKE_KEY, GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`, GEMINI_TELEMETRY_ENABLED: "false", NO_BROWSER: "1" },
        stdio: ["pipe", "pipe", "pipe"],
        detached: true, // own process group: one kill reaches the bridge and both gemini processes
      });
      tuis.add(child);
      const chunks: Buffer[] = [];
      let exited: { code: number | null } | null = null;
      let spawnError: Error | null = null;
      child.stdout?.on("data", (d: Buffer) => chunks.push(d));
      child.stderr?.on("data", (d: Buffer) => chunks.push(d));
      child.stdin?.on("error", () => undefined); // EPIPE after gemini exited
      child.on("error", (e) => (spawnError = e));
      child.on("exit", (code) => (exited = { code }));
      const screen = (): string => Buffer.concat(chunks).toString("utf8");
      const fail = (what: string): CliStepError => new CliStepError("tui", `${what} (${Math.round((Date.now() - t) / 1000)} s in); screen: ${tail(screen(), 1200)}`, null);
      const until = async <T>(what: string, check: () => T | null | undefined | false, mayExit = false): Promise<T> => {
        for (;;) {
          const v = check();
          if (v) return v;
          if (spawnError) throw fail(`python3 not runnable: ${(spawnError as Error).message}`);
          if (exited && !mayExit) throw fail(`gemini exited (code ${exited.code}) before ${what}`);
          if (Date.now() > deadlineAt) throw fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
          await sleep(100);
        }
      };
      const killGroup = (sig: NodeJS.Signals): void => {
        if (child.pid !== undefined) signal(-child.pid, sig);
      };
      const type = async (text: string, label: string): Promise<void> => {
        const from = Buffer.concat(chunks).length;
        child.stdin?.write(text);
        const needle = screenText(text).slice(0, 40);
        await until(`${label} to appear in the input box`, () => screenText(Buffer.concat(chunks).subarray(from).toString("utf8")).includes(needle));
        child.stdin?.write("\r");
      };
      try {
        // 1. The first prompt's session file, its record and the answer.
        const file = await until("the session file", () => mainSessions(projectDir(cwdIn)).find((f) => !before.has(f) && promptAt(readJsonl(f), prompts[0]!) >= 0));
        await until("the first answer", () => answeredAfter(readJsonl(file), promptAt(readJsonl(file), prompts[0]!)));
        const sessionId = String(readJsonl(file)[0]?.sessionId ?? "");
        if (!sessionId) throw fail(`${file} has no header`);
        const logs = (): Rec[] => {
          try {
            const v: unknown = JSON.parse(fs.readFileSync(path.join(projectDir(cwdIn) ?? "", "logs.json"), "utf8"));
            return Array.isArray(v) ? (v as Rec[]) : [];
          } catch {
            return [];
          }
        };
        for (let i = 1; i < prompts.length; i++) {
          const text = prompts[i]!;
          const lines = readJsonl(file).length;
          const infos = readJsonl(file).filter((l) => l.type === "info").length;
          const typed = logs().filter((l) => l.sessionId === sessionId && l.message === text).length;
          await type(text, `prompt ${i + 1}`);
          if (text === "/compress") await until("/compress's info record", () => readJsonl(file).filter((l) => l.type === "info").length > infos);
          else if (text.startsWith("/")) await until(`${text} in logs.json`, () => logs().filter((l) => l.sessionId === sessionId && l.message === text).length > typed);
          else {
            await until(`prompt ${i + 1} in the session file`, () => promptAt(readJsonl(file), text, lines) >= 0);
            await until(`answer ${i + 1}`, () => answeredAfter(readJsonl(file), promptAt(readJsonl(file), text, lines)));
          }
        }
        // 2. Quit: /quit, typed again while it has not reached logs.json (a busy UI can drop
        // input, e.g. just after /compress), then Ctrl-C twice if it is still there at the end.
        const quitBy = Date.now() + Math.min(60_000, Math.max(5_000, deadlineAt - Date.now()));
        const quitLogged = (): boolean => logs().some((l) => l.sessionId === sessionId && l.message === "/quit");
        const waitQuit = async (ms: number): Promise<void> => {
          const by = Math.min(quitBy - 10_000, Date.now() + ms);
          while (!exited && Date.now() < by && !quitLogged()) await sleep(100);
        };
        for (let i = 0; i < 3 && !exited && !quitLogged(); i++) {
          // A retry first presses Enter again (the text may still be in the box), then clears the line (Ctrl-U) and types anew.
          if (i > 0) {
            child.stdin?.write("\r");
            await waitQuit(5_000);
            if (exited || quitLogged()) break;
            child.stdin?.write("\x15");
          }
          await type("/quit", "/quit").catch(() => undefined);
          await waitQuit(10_000);
        }
        while (!exited && Date.now() < quitBy - 10_000) await sleep(100);
        if (!exited) child.stdin?.write("\x03\x03");
        while (!exited && Date.now() < quitBy) await sleep(100);
        const finalExit = exited as { code: number | null } | null;
        return { sessionId, sessionFile: file, exitCode: finalExit ? finalExit.code : null, screen: screen(), wallMs: Date.now() - t };
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
      // The script removes the pid file: read the pid first and wait for it ourselves.
      const pid = readPid(pidFile);
      const r = await runCommand("bash", [SCRIPT, "down", dir], { timeoutMs: Math.min(timeoutMs, 20_000), env: scriptEnv(port) });
      if ((r.timedOut || r.exitCode !== 0) && pid !== null) signal(pid, "SIGTERM");
      if (pid !== null) await waitGone([pid], timeoutMs);
      removeDir();
    },
  };
  return run;
}
