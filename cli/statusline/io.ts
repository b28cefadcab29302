// The statusline's two reads from outside: its stdin (Claude Code's JSON) and, when chained, the
// output of the status line the user had before. Both are hostile: capped in size and bounded in
// time, so a writer that never closes stdin or a chained command that hangs cannot stall Claude
// Code's status line, which runs this after every message.

/** Claude Code's input is a few KB; far more is not it. */
export const MAX_INPUT_BYTES = 256 * 1024;
/** How long stdin may take to arrive and close. */
export const INPUT_DEADLINE_MS = 1500;

/** The text on stdin, or null when there is none, it is too large, or it does not end in time. */
export function readInput(stdin: NodeJS.ReadStream = process.stdin, deadlineMs = INPUT_DEADLINE_MS, maxBytes = MAX_INPUT_BYTES): Promise<string | null> {
  // A terminal: someone ran it by hand with nothing piped in.
  if (stdin.isTTY) return Promise.resolve(null);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (text: string | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stdin.removeAllListeners("data");
      // Stop reading (a writer that keeps going is not waited for) without keeping the loop alive.
      stdin.pause();
      stdin.destroy();
      resolve(text);
    };
    const timer = setTimeout(() => finish(null), deadlineMs);
    stdin.on("data", (c: Buffer | string) => {
      const b = typeof c === "string" ? Buffer.from(c) : c;
      size += b.length;
      if (size > maxBytes) return finish(null);
      chunks.push(b);
    });
    stdin.once("end", () => finish(Buffer.concat(chunks).toString("utf8")));
    stdin.once("error", () => finish(null));
  });
}

/** How long the chained status line may take, and how much of its output is read. */
export const CHAIN_DEADLINE_MS = 2000;
const MAX_CHAIN_BYTES = 4096;

/**
 * Runs the status line the user had before (`sh -c`), with the same input; its first line of
 * output, or "" when it fails, prints nothing or takes too long (then it is killed).
 */
export async function runChained(command: string, input: string, deadlineMs = CHAIN_DEADLINE_MS): Promise<string> {
  // Loaded only when chaining, and not by import(): in the CommonJS bundle that would start Node's
  // ESM loader, which the status line otherwise never does.
  const { spawn } = process.getBuiltinModule("node:child_process");
  return new Promise((resolve) => {
    let out = "";
    let done = false;
    const child = spawn("/bin/sh", ["-c", command], { stdio: ["pipe", "pipe", "ignore"], detached: true });
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        // The whole group: a shell pipeline's children go too.
        if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      resolve((out.split("\n")[0] ?? "").trimEnd());
    };
    const timer = setTimeout(finish, deadlineMs);
    child.on("error", finish);
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      if (out.length > MAX_CHAIN_BYTES || out.includes("\n")) finish();
    });
    child.on("close", finish);
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}
