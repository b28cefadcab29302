// The REAL interactive Claude Code (not `claude -p`) in a pseudo-terminal, for what only the
// interactive program does: the status line. tmux gives the pty and, more to the point, renders the
// screen: `capture-pane` returns the rows a person sees, so a test reads the status line where it is
// drawn instead of picking it out of a stream of cursor moves. The tmux server is private to the
// run (its socket in the run's dir) and is stopped with it.
//
//   const cc = await startClaudeCode({ unified: { fiveHour: 0.42, sevenDay: 0.18, step: 0.01 } });
//   const tui = await startClaudeTui(cc, { statusLine: recorderCommand(dir), login: "oauth" });
//   await tui.prompt("hello");                        // typed, then Enter once the input box shows it
//   const rows = await tui.waitFor("the answer", (r) => r.some((l) => l.includes("Fake reply")) && r);
//   statusRows(rows);                                 // the rows under the input box
//   await tui.stop();
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand } from "../../shared/providers/run-command.js";
import type { ClaudeCodeRun } from "./claude-code-runner.js";
import { CliStepError, isAlive, onExitKill, signal, sleep, waitGone } from "./real-cli.js";

/** The ANTHROPIC_API_KEY of an API-key login (the fake API takes any); not a secret. */
export const FAKE_API_KEY = "fake-e2e-key-not-a-secret";
/** The CLAUDE_CODE_OAUTH_TOKEN of a subscription login (what `claude setup-token` prints); not a secret. */
export const FAKE_OAUTH_TOKEN = "fake-oauth-token-not-a-secret";

const RECORDER = path.join(path.dirname(fileURLToPath(import.meta.url)), "statusline-recorder.sh");

export interface ClaudeTuiOptions {
  /** The `statusLine.command` written to `<home>/.claude/settings.json` (Claude Code runs it with a shell). */
  statusLine: string;
  /**
   * "oauth": CLAUDE_CODE_OAUTH_TOKEN, a Claude.ai subscription's long-lived token (the login whose
   * plan windows Claude Code reports); "api-key": ANTHROPIC_API_KEY (no plan windows).
   */
  login: "oauth" | "api-key";
  /** Working directory, absolute or relative to the run's dir; default DIR/workspace. */
  cwd?: string;
  /** `--model`; default claude-sonnet-4-5-20250929 (as the print-mode turns). */
  model?: string;
  /** Deadline of every wait (start, each prompt, each waitFor) unless given; default 180 s. */
  timeoutMs?: number;
}

export interface ClaudeTui {
  /** The terminal's rows as drawn now (trailing blanks trimmed). */
  screen(): Promise<string[]>;
  /** Polls the screen until `check` returns something truthy; throws with the screen (and `what`, a function for a description of the state then) at the deadline or when Claude Code exited. */
  waitFor<T>(what: string | (() => string), check: (rows: string[]) => T | null | undefined | false, timeoutMs?: number): Promise<T>;
  /** Types `text` into the input box, waits until the box shows it, then presses Enter. */
  prompt(text: string): Promise<void>;
  /** Quits Claude Code and the private tmux server; waits until both are gone. Safe to call twice. */
  stop(): Promise<void>;
}

/** A command line for a shell: every argument single-quoted. */
export function shellLine(argv: string[]): string {
  return argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
}

/**
 * The statusLine command that records each call in `dir` (see statusline-recorder.sh): Claude Code's
 * stdin JSON as in-<id>.json, what was printed as out-<id>.txt. With `inner`, that command (argv)
 * makes the line; without, the recorder prints `GI-STATUSLINE <id>`.
 */
export function recorderCommand(dir: string, inner: string[] = []): string {
  return shellLine(["sh", RECORDER, dir, ...inner]);
}

export interface StatusCall {
  id: string;
  /** What Claude Code wrote to the command's stdin. */
  input: Record<string, unknown>;
  /** What the command printed. */
  output: string;
}

/** The recorder's finished calls in `dir`, oldest first (a call Claude Code cut short has no output and is left out). */
export function statusCalls(dir: string): StatusCall[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: StatusCall[] = [];
  for (const n of names.filter((x) => /^out-.+\.txt$/.test(x)).sort()) {
    const id = n.slice(4, -4);
    try {
      const input: unknown = JSON.parse(fs.readFileSync(path.join(dir, `in-${id}.json`), "utf8"));
      if (input && typeof input === "object" && !Array.isArray(input)) out.push({ id, input: input as Record<string, unknown>, output: fs.readFileSync(path.join(dir, n), "utf8") });
    } catch {
      // not JSON: Claude Code always writes JSON, so this is not one of its calls
    }
  }
  return out;
}

/** A horizontal rule of Claude Code's input box. */
const RULE = /^─{20,}$/;

/**
 * The rows drawn under Claude Code's input box (rule, `❯ …`, rule): the status line first, then the
 * mode hint. Null when no input box is on screen.
 */
export function statusRows(rows: string[]): string[] | null {
  for (let i = rows.length - 1; i >= 2; i--) {
    if (RULE.test(rows[i]!.trim()) && rows[i - 1]!.startsWith("❯") && RULE.test(rows[i - 2]!.trim())) return rows.slice(i + 1).map((r) => r.trim()).filter(Boolean);
  }
  return null;
}

/** Merges `patch` into the JSON object in `file` (created if missing). */
function mergeJson(file: string, patch: (o: Record<string, unknown>) => void): void {
  let o: Record<string, unknown> = {};
  try {
    const v: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    if (v && typeof v === "object" && !Array.isArray(v)) o = v as Record<string, unknown>;
  } catch {
    // missing: a new file
  }
  patch(o);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(o, null, 2));
}

/** Starts interactive Claude Code under `cc`'s HOME against its fake API; resolves once the input box is drawn. */
export async function startClaudeTui(cc: ClaudeCodeRun, opts: ClaudeTuiOptions): Promise<ClaudeTui> {
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const cwd = path.resolve(cc.dir, opts.cwd ?? "workspace");
  fs.mkdirSync(cwd, { recursive: true });
  mergeJson(path.join(cc.claudeDir, "settings.json"), (o) => {
    o.statusLine = { type: "command", command: opts.statusLine, padding: 0 };
  });
  // Without these, a first start shows the theme picker, the "trust this folder?" dialog and, for
  // an API key, "use this key?": each would eat the first prompt.
  mergeJson(path.join(cc.home, ".claude.json"), (o) => {
    o.hasCompletedOnboarding = true;
    o.theme = "dark";
    if (opts.login === "api-key") o.customApiKeyResponses = { approved: [FAKE_API_KEY.slice(-20)], rejected: [] };
    const projects = (o.projects && typeof o.projects === "object" ? o.projects : {}) as Record<string, unknown>;
    projects[cwd] = { ...(projects[cwd] as object | undefined), hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true };
    o.projects = projects;
  });

  const sock = path.join(cc.dir, `tmux-${process.pid}.sock`);
  const conf = path.join(cc.dir, "tmux.conf");
  // remain-on-exit: if Claude Code exits early, its last screen stays readable for the error.
  fs.writeFileSync(conf, "set -g remain-on-exit on\nset -g history-limit 0\n");
  const tmux = (args: string[]) => runCommand("tmux", ["-S", sock, "-f", conf, ...args], { timeoutMs: 30_000 });
  // Exactly this environment (env -i): nothing of the test process's reaches Claude Code.
  const env: Record<string, string> = {
    HOME: cc.home,
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    TMPDIR: path.join(cc.dir, "tmp"),
    CLAUDE_CODE_TMPDIR: path.join(cc.dir, "tmp"),
    XDG_RUNTIME_DIR: path.join(cc.dir, "run"),
    XDG_CACHE_HOME: path.join(cc.dir, "cache"),
    ANTHROPIC_BASE_URL: cc.baseUrl,
    DISABLE_TELEMETRY: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    IS_SANDBOX: "1",
    ...(opts.login === "oauth" ? { CLAUDE_CODE_OAUTH_TOKEN: FAKE_OAUTH_TOKEN } : { ANTHROPIC_API_KEY: FAKE_API_KEY }),
  };
  const argv = ["env", "-i", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), cc.bin(), "--model", opts.model ?? "claude-sonnet-4-5-20250929"];
  const started = await tmux(["new-session", "-d", "-s", "cc", "-x", "120", "-y", "40", "-c", cwd, ...argv]);
  if (started.spawnError || started.exitCode !== 0) {
    throw new CliStepError("tui", `tmux new-session failed (is tmux installed?): ${started.spawnError?.message ?? started.output}`, started);
  }
  const ids = await tmux(["display-message", "-p", "-t", "cc", "#{pid} #{pane_pid}"]);
  const [serverPid, panePid] = ids.stdout.trim().split(" ").map(Number) as [number, number];
  const unhook = onExitKill(() => {
    signal(panePid, "SIGKILL");
    signal(serverPid, "SIGTERM");
  });

  const screen = async (): Promise<string[]> => {
    const r = await tmux(["capture-pane", "-p", "-t", "cc"]);
    return r.stdout.split("\n").map((l) => l.trimEnd());
  };
  const waitFor = async <T>(what: string | (() => string), check: (rows: string[]) => T | null | undefined | false, ms = timeoutMs): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const rows = await screen();
      const v = check(rows);
      if (v) return v;
      const dead = !isAlive(panePid);
      if (dead || Date.now() > deadline) {
        const shown = rows.filter((l) => l.trim()).join("\n");
        throw new CliStepError("tui", `${dead ? "Claude Code exited" : `timed out after ${ms} ms`} waiting for ${typeof what === "string" ? what : what()}; screen:\n${shown}`, null);
      }
      await sleep(200);
    }
  };
  let stopped = false;
  const tui: ClaudeTui = {
    screen,
    waitFor,
    async prompt(text) {
      // A newline would submit early; a control character would be read as a key.
      // eslint-disable-next-line no-control-regex -- rejecting control characters
      if (!text.trim() || /[\x00-\x1f\x7f]/.test(text)) throw new CliStepError("tui", `prompt ${JSON.stringify(text)} is empty or holds control characters`, null);
      await tmux(["send-keys", "-t", "cc", "-l", text]);
      await waitFor(`${JSON.stringify(text)} in the input box`, (rows) => rows.some((r) => r.startsWith("❯") && r.includes(text)));
      await tmux(["send-keys", "-t", "cc", "Enter"]);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      unhook();
      // Killing the server hangs up the pane: Claude Code exits as when its terminal closes.
      await tmux(["kill-server"]);
      await waitGone([panePid, serverPid], 20_000);
      fs.rmSync(sock, { force: true });
    },
  };
  try {
    await waitFor("the input box", (rows) => statusRows(rows) !== null);
  } catch (err) {
    await tui.stop();
    throw err;
  }
  return tui;
}
