// What the real-CLI runners (claude-code-runner.ts, codex-runner.ts, gemini-runner.ts) share: the
// skip switch, typed errors naming the step that failed, a lock for a cold install cache, the npm
// registry check, pid bookkeeping, an exit hook, a hermetic environment, the fake API's readiness
// check, and the pty bridge an interactive session runs in.
//
// The runners drive the team's scripts (run-claude-code.sh, run-codex.sh, run-gemini-cli.sh). Each script starts its
// fake model API with `nohup node … &` and records the pid in DIR/<name>.pid; the fake API writes
// every request it gets to a JSONL log in DIR. Neither script checks that the server answering on
// the port is its own, so the runners check that through the log (see waitForOwnFakeApi).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCommand } from "../../shared/providers/run-command.js";
import type { CommandOutcome } from "../../shared/providers/run-command.js";

/**
 * Why real-CLI tests (Claude Code, Codex) should not run here, or null when they should. They are
 * required: CI (CI set) always runs them; only a developer's machine may opt out with GI_SKIP_REAL_CLI=1.
 */
export function realCliSkipReason(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.GI_SKIP_REAL_CLI !== "1") return null;
  if (env.CI) return null; // required in CI: the skip switch is for developers only
  return "GI_SKIP_REAL_CLI=1";
}

/** The install of a CLI from the npm registry failed; most often no network. */
export class CliInstallError extends Error {
  constructor(message: string, readonly output: string) {
    super(message);
    this.name = "CliInstallError";
  }
}

/** A runner step (up, turn, tui, env, down) failed or ran past its deadline. */
export class CliStepError extends Error {
  constructor(
    readonly step: string,
    message: string,
    readonly outcome: CommandOutcome | null,
  ) {
    super(`${step}: ${message}`);
    this.name = "CliStepError";
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** A pid file holding a bare number (the scripts' fake-*.pid). */
export function readPid(file: string): number | null {
  try {
    const n = Number(fs.readFileSync(file, "utf8").trim());
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Waits for the pids to exit; SIGKILL for whatever is left at the deadline. */
export async function waitGone(pids: number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(isAlive)) {
    if (Date.now() > deadline) {
      for (const p of pids) signal(p, "SIGKILL");
      return;
    }
    await sleep(100);
  }
}

/** The end of some output, without npm's config-warning noise and terminal escapes. */
export function tail(s: string, n = 1500): string {
  const clean = s
    // eslint-disable-next-line no-control-regex -- terminal escapes from a TUI's screen
    .replace(/\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78]/g, "")
    .split("\n")
    .filter((l) => !/^npm warn (Unknown (user|env) config|install-scripts)/.test(l))
    .join("\n")
    .trim();
  return clean.length > n ? `…${clean.slice(-n)}` : clean;
}

/** Every complete JSON line of a JSONL file; a missing file is empty, a torn or foreign line is skipped. */
export function readJsonl(file: string): Array<Record<string, unknown>> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const out: Array<Record<string, unknown>> = [];
  const lines = text.split("\n");
  // The last element is "" after a final newline, or a line still being written: never parse it.
  for (const line of lines.slice(0, -1)) {
    if (!line.trim()) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (v && typeof v === "object" && !Array.isArray(v)) out.push(v as Record<string, unknown>);
    } catch {
      // not JSON: skip
    }
  }
  return out;
}

/** `export A=x B=y` (the scripts' `env` command) as a map. */
export function parseExports(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of stdout.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) out[m[1]!] = m[2]!;
  return out;
}

/**
 * The run's dir: `given` (made if missing, kept), else a fresh temp dir `<prefix>…` that `remove()`
 * deletes (unless GI_KEEP_CLI_DIR=1, for a post-mortem).
 */
export function runDir(given: string | undefined, prefix: string): { dir: string; remove: () => void } {
  const dir = given === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), prefix)) : path.resolve(given);
  fs.mkdirSync(dir, { recursive: true });
  const remove = (): void => {
    if (given === undefined && process.env.GI_KEEP_CLI_DIR !== "1") fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
  return { dir, remove };
}

/** The error for a CLI (`spec`, an npm package@version) that the run script's `up` did not install into `cacheDir`. */
export function installError(spec: string, cacheDir: string, up: CommandOutcome, upTimeoutMs: number): CliInstallError {
  return new CliInstallError(
    `could not install ${spec} from the npm registry into ${cacheDir} (no network? registry unreachable?)` + `${up.timedOut ? ` within ${upTimeoutMs} ms` : ""}: ${tail(up.output, 800)}`,
    up.output,
  );
}

/**
 * What `<script> env DIR` exports (the script's word on where things are), read once so a run's
 * env() can stay synchronous; a CliStepError("env") when it fails or `expected` says it is wrong.
 */
export async function readScriptEnv(script: string, dir: string, env: NodeJS.ProcessEnv, expected: (exported: Record<string, string>) => boolean): Promise<Record<string, string>> {
  const out = await runCommand("bash", [script, "env", dir], { timeoutMs: 30_000, env });
  const exported = parseExports(out.stdout);
  if (out.exitCode !== 0 || !expected(exported)) throw new CliStepError("env", `unexpected output (exit ${out.exitCode}): ${tail(out.stdout + out.stderr, 400)}`, out);
  return exported;
}

/**
 * The test process's environment without the variables that would point a CLI at a real account,
 * a real config dir or a real endpoint (a developer's ANTHROPIC_API_KEY, CLAUDE_CONFIG_DIR,
 * CODEX_HOME, OPENAI_BASE_URL, OTEL exporters …). The scripts set what the CLI needs on top.
 */
export function hermeticEnv(dropPrefixes: readonly string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || dropPrefixes.some((p) => k.startsWith(p))) continue;
    env[k] = v;
  }
  return env;
}

/**
 * Two test files may start the same runner at once (test/run.mjs runs files in parallel) and the
 * scripts' install step (`npm install` into one cache folder) is not safe to run twice at once.
 * A cold cache is therefore filled under one lock directory; with a warm cache no lock is taken.
 */
export async function withInstallLock<T>(cacheDir: string, installed: () => boolean, what: string, deadlineAt: number, fn: () => Promise<T>): Promise<T> {
  if (installed()) return fn();
  const lock = path.join(cacheDir, ".gi-install.lock");
  fs.mkdirSync(cacheDir, { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = readPid(path.join(lock, "pid"));
      let age = 0;
      try {
        age = Date.now() - fs.statSync(lock).mtimeMs;
      } catch {
        // removed meanwhile: try again
      }
      // A lock left by a dead process (or one that died before writing its pid, long ago) is stale.
      if ((owner !== null && !isAlive(owner)) || (owner === null && age > 60_000)) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadlineAt) throw new CliStepError("up", `timed out waiting for another process to install ${what} (lock ${lock})`, null);
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Before a cold install: can npm reach its registry at all? Without this, an offline machine waits
 * out npm's retries (minutes) before the install fails.
 */
export async function checkRegistry(what: string, cacheDir: string): Promise<void> {
  let r: CommandOutcome | null = null;
  // Three quick tries, so one dropped packet in CI does not fail a required test.
  for (let i = 0; i < 3; i++) {
    r = await runCommand("npm", ["ping", "--fetch-retries=0", "--fetch-timeout=15000"], { timeoutMs: 20_000 });
    if (r.exitCode === 0 && !r.timedOut) return;
  }
  if (!r) return;
  const why = r.spawnError ? `npm not runnable: ${r.spawnError.message}` : r.timedOut ? "npm ping timed out" : tail(`${r.stdout}\n${r.stderr}`, 400);
  throw new CliInstallError(
    `cannot install ${what} into ${cacheDir}: the npm registry is unreachable (no network?): ${why}. ` +
      "A developer can skip the real-CLI tests with GI_SKIP_REAL_CLI=1.",
    `${r.stdout}\n${r.stderr}`,
  );
}

/** Sync killers run when the test process exits without stop() (not on SIGKILL). */
const exitKillers = new Set<() => void>();
let exitHookInstalled = false;

export function onExitKill(kill: () => void): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const k of exitKillers) k();
    });
  }
  exitKillers.add(kill);
  return () => exitKillers.delete(kill);
}

export type FakeApiState = { ok: true; pid: number } | { ok: false; why: string; portInUse: boolean };

/**
 * Waits until the fake API the script started in DIR is up AND is the one answering on the port:
 * its pid (from the pid file) is alive and its own request log shows `isOwnReady` (a line only our
 * server can have written). `poke` may send a request to produce that line. The fake APIs have no
 * 'error' handler on listen, so a taken port makes them exit: then portInUse says so.
 */
export async function waitForOwnFakeApi(opts: {
  pidFile: string;
  logFile: string;
  outFile: string;
  isOwnReady: (line: Record<string, unknown>) => boolean;
  poke?: () => Promise<void>;
  deadlineAt: number;
}): Promise<FakeApiState> {
  for (;;) {
    const pid = readPid(opts.pidFile);
    const alive = pid !== null && isAlive(pid);
    if (alive && readJsonl(opts.logFile).some(opts.isOwnReady)) return { ok: true, pid };
    if (!alive) {
      let out = "";
      try {
        out = fs.readFileSync(opts.outFile, "utf8");
      } catch {
        // never started
      }
      // A pid file without a live process: the server died (a taken port most often). Give its
      // output a moment to land only when there is none yet.
      if (pid !== null && (out || Date.now() > opts.deadlineAt)) {
        return { ok: false, why: `the fake API (pid ${pid}) exited: ${tail(out, 600) || "(no output)"}`, portInUse: /EADDRINUSE/.test(out) };
      }
      // No pid file: never started, or the script saw it exit and removed the file (run-codex.sh).
      if (pid === null) return { ok: false, why: `no fake API running: ${tail(out, 600) || "(no output)"}`, portInUse: /EADDRINUSE/.test(out) };
    }
    if (Date.now() > opts.deadlineAt) return { ok: false, why: "the fake API did not answer before the deadline", portInUse: false };
    if (alive && opts.poke) await opts.poke().catch(() => undefined);
    await sleep(200);
  }
}

/** GET url with a short deadline; resolves either way (used to make a fake API log a readiness line). */
export async function pokeHttp(url: string): Promise<void> {
  const ac = new AbortController();
  const t = setTimeout(() => ac.abort(), 2000);
  try {
    const r = await fetch(url, { signal: ac.signal });
    await r.arrayBuffer();
  } finally {
    clearTimeout(t);
  }
}

// The pty bridge: runs argv in a pty (120x40), copies the screen to stdout and stdin to the pty,
// and answers the terminal queries the TUI sends at start (cursor position, colours, device
// attributes, keyboard protocol), which it otherwise waits on. A query split across two reads is
// still seen (the last bytes of the previous read are kept). Exits with the TUI's exit code.
export const PTY_BRIDGE = String.raw`
import os, pty, sys, select, signal, fcntl, termios, struct
cwd, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.chdir(cwd)
    os.environ["TERM"] = "xterm-256color"
    os.execvp(argv[0], argv)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
answers = {b"\x1b[6n": b"\x1b[20;1R", b"\x1b]10;?": b"\x1b]10;rgb:ffff/ffff/ffff\x1b\\",
           b"\x1b]11;?": b"\x1b]11;rgb:0000/0000/0000\x1b\\", b"\x1b[c": b"\x1b[?62;22c", b"\x1b[?u": b"\x1b[?0u"}
keep = max(len(q) for q in answers) - 1
inp, out = sys.stdin.fileno(), sys.stdout.fileno()
prev, reading = b"", True
def stop(*_):
    try: os.kill(pid, signal.SIGTERM)
    except ProcessLookupError: pass
signal.signal(signal.SIGTERM, stop)
while True:
    try: r, _, _ = select.select([fd] + ([inp] if reading else []), [], [], 0.5)
    except InterruptedError: continue
    if fd in r:
        try: d = os.read(fd, 65536)
        except OSError: break
        if not d: break
        os.write(out, d)
        buf = prev + d
        for q, a in answers.items():
            i = buf.find(q)
            while i != -1:
                if i + len(q) > len(prev): os.write(fd, a)
                i = buf.find(q, i + 1)
        prev = buf[-keep:]
    if reading and inp in r:
        d = os.read(inp, 65536)
        if d: os.write(fd, d)
        else:
            reading = False
            stop()
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
`;

/** Text with terminal escapes and all whitespace removed (the TUI moves the cursor between words). */
export function screenText(raw: string): string {
  // eslint-disable-next-line no-control-regex -- terminal escapes
  return raw.replace(/\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78]/g, "").replace(/\s+/g, "");
}
