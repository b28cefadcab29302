// Runs an external program (the `openclaw` CLI) with a deadline that really holds.
//
// Why not child_process.execFile or a plain spawn + kill: the openclaw launcher (openclaw.mjs)
// re-spawns itself as a second node process with `stdio: "inherit"` and forwards signals to it.
// Seen against a real 2026.9.6 CLI:
// - SIGKILL on the launcher orphans the re-spawned child, which keeps our stdout pipe open, so a
//   runner that waits for the pipes to close waited 16 s past a 3 s timeout (until the child gave
//   up on its own);
// - SIGTERM on the launcher is forwarded, the child stops, and the launcher exits with code 0 and
//   no output, which execFile reports as a success: a timeout looked like "no JSON, exit 0".
// So the program gets its own process group, the whole group is killed at the deadline, the
// timeout is tracked here rather than inferred from the exit, and the result is delivered a short
// grace after the exit or the kill even if some descendant still holds the pipes.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";

export interface CommandOutcome {
  /** null when killed by a signal or never started. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as they arrived (with `keep: "tail"`, the last maxOutputBytes of it). */
  output: string;
  /** Our deadline fired (the process group was killed). */
  timedOut: boolean;
  /** Output went past maxOutputBytes: with `keep: "head"` the group was killed and the output cut there; with "tail" the oldest output was dropped. */
  truncated: boolean;
  /** Set when the program could not be started at all (ENOENT, EACCES). */
  spawnError?: NodeJS.ErrnoException;
}

interface RunCommandOptions {
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** stdout + stderr cap; default 16 MiB. */
  maxOutputBytes?: number;
  /**
   * What to keep when the cap is reached: "head" (default) kills the program and keeps the start,
   * for a JSON answer that must not be cut; "tail" lets it run and keeps the end, for a long
   * operation whose last lines say how it went.
   */
  keep?: "head" | "tail";
  /** How long to wait for the pipes to close after the exit or the kill; default 1000 ms. */
  settleMs?: number;
  /** Written to the program's stdin, which is then closed (default: no stdin). */
  input?: string;
}

const DEFAULT_MAX_OUTPUT = 16 * 1024 * 1024;

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    // Negative pid = the process group the child leads (it was spawned detached).
    process.kill(-child.pid, "SIGKILL");
  } catch {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Runs `file args` without a shell. Never rejects and never outlives `timeoutMs + settleMs` by much. */
export function runCommand(file: string, args: readonly string[], opts: RunCommandOptions): Promise<CommandOutcome> {
  const maxBytes = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const settleMs = opts.settleMs ?? 1000;
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const all: Buffer[] = [];
    let bytes = 0;
    let timedOut = false;
    let truncated = false;
    let exitCode: number | null = null;
    let signal: NodeJS.Signals | null = null;
    let settled = false;
    let settleTimer: NodeJS.Timeout | null = null;
    let child: ChildProcess;

    const finish = (spawnError?: NodeJS.ErrnoException): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (settleTimer) clearTimeout(settleTimer);
      // Whatever still holds the pipes (a descendant that left the group) must not keep us waiting.
      child?.stdout?.destroy();
      child?.stderr?.destroy();
      resolve({
        exitCode,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        output: (() => {
          const b = Buffer.concat(all);
          return (opts.keep === "tail" ? b.subarray(Math.max(0, b.length - maxBytes)) : b).toString("utf8");
        })(),
        timedOut,
        truncated,
        ...(spawnError ? { spawnError } : {}),
      });
    };
    const settleSoon = (): void => {
      if (!settleTimer && !settled) settleTimer = setTimeout(() => finish(), settleMs);
    };

    const deadline = setTimeout(() => {
      timedOut = true;
      killGroup(child);
      settleSoon();
    }, Math.max(1, opts.timeoutMs));

    try {
      // detached: own process group (and session), so killGroup reaches the launcher's re-spawned child.
      child = spawn(file, [...args], { env: opts.env ?? process.env, stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe"], detached: true });
    } catch (e) {
      finish(e as NodeJS.ErrnoException);
      return;
    }
    if (opts.input !== undefined && child.stdin) {
      // A program that exits without reading its stdin closes the pipe: that is not our failure.
      child.stdin.on("error", () => undefined);
      child.stdin.end(opts.input);
    }
    const take = (into: Buffer[]) => (chunk: Buffer): void => {
      if (opts.keep === "tail") {
        into.push(chunk);
        all.push(chunk);
        bytes += chunk.length;
        // Drop whole old chunks while what is left still covers the cap.
        while (bytes - (all[0]?.length ?? 0) >= maxBytes) {
          const dropped = all.shift() as Buffer;
          bytes -= dropped.length;
          const from = out[0] === dropped ? out : err[0] === dropped ? err : null;
          from?.shift();
          truncated = true;
        }
        return;
      }
      if (truncated) return;
      if (bytes + chunk.length > maxBytes) {
        into.push(chunk.subarray(0, maxBytes - bytes));
        all.push(chunk.subarray(0, maxBytes - bytes));
        bytes = maxBytes;
        truncated = true;
        killGroup(child);
        settleSoon();
        return;
      }
      bytes += chunk.length;
      into.push(chunk);
      all.push(chunk);
    };
    child.stdout?.on("data", take(out));
    child.stderr?.on("data", take(err));
    child.on("error", (e) => {
      // 'error' without a pid means it never started; with one, a kill failed and 'exit' still follows.
      if (child.pid === undefined) finish(e as NodeJS.ErrnoException);
    });
    child.on("exit", (code, sig) => {
      exitCode = code;
      signal = sig;
      settleSoon();
    });
    child.on("close", () => finish());
  });
}

/**
 * The line in which the openclaw launcher refuses the Node it was started with, or null. It prints
 * only this (stderr, exit 1, nothing on stdout) when an older Node is first on PATH, seen as
 * "openclaw: Node 20.20.2: node:sqlite is unavailable; use 24.16+/26.1+ …" (2026.9.6) and
 * "openclaw: Node.js >=22.22.3 <23, >=24.15.0 <25, or >=25.9.0 is required (current: v20.20.2)." (2026.7.1).
 */
export function unsupportedRuntimeLine(stderr: string): string | null {
  const m = /^openclaw: Node(?:\.js)? .*(?:required|unavailable|unsupported).*$/m.exec(stderr);
  return m ? m[0].trim() : null;
}

/** `OpenClaw does not recognize option "--port".`: the CLI's answer to an option its version lacks. */
export function unknownOptionLine(text: string): string | null {
  const m = /OpenClaw does not recognize option "[^"]*"\.?/.exec(text);
  return m ? m[0] : null;
}
