// The statusline's two reads from outside: its stdin (Claude Code's JSON) and, when chained, the
// output of the status line the user had before. Both are hostile: capped in size and bounded in
// time, so a writer that never closes stdin or a chained command that hangs cannot stall Claude
// Code's status line, which runs this after every message.

import * as fs from "node:fs";
import { isatty } from "node:tty";

/** Claude Code's input is a few KB; far more is not it. */
export const MAX_INPUT_BYTES = 256 * 1024;
/** How long stdin may take to arrive and close. */
export const INPUT_DEADLINE_MS = 1500;

/**
 * The text on `fd` (stdin), or null when there is none, it is too large, or it does not end in time.
 * Read with fs.read on the descriptor, not through process.stdin: making that stream (a socket for
 * a pipe) costs about 10 ms of a call whose own work is a few. A read still pending at the
 * deadline stays in libuv's thread pool; the status line exits once its line is out, so it is
 * never waited for.
 */
export function readInput(fd = 0, deadlineMs = INPUT_DEADLINE_MS, maxBytes = MAX_INPUT_BYTES): Promise<string | null> {
  // A terminal: someone ran it by hand with nothing piped in.
  if (isatty(fd)) return Promise.resolve(null);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const buf = Buffer.allocUnsafe(64 * 1024);
    let size = 0;
    let done = false;
    const finish = (text: string | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(text);
    };
    const timer = setTimeout(() => finish(null), deadlineMs);
    const next = (): void => {
      fs.read(fd, buf, 0, buf.length, null, (err, n) => {
        if (done) return;
        // A non-blocking pipe with nothing in it yet: look again shortly, until the deadline.
        if (err?.code === "EAGAIN") return void setTimeout(next, 5);
        if (err) return finish(null);
        if (n === 0) return finish(Buffer.concat(chunks).toString("utf8"));
        size += n;
        if (size > maxBytes) return finish(null);
        chunks.push(Buffer.from(buf.subarray(0, n)));
        next();
      });
    };
    next();
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
