// Starting and stopping the daemon process from the CLI: spawn insightsd detached and wait until
// it answers, or ask it to stop and escalate (control socket, then SIGTERM, then SIGKILL).
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { pollUntil } from "../shared/base/clock.js";
import type { DaemonStatus } from "../shared/control/protocol.js";
import { errorMessage, InsightsError } from "../shared/base/errors.js";
import { EXIT } from "../shared/base/exit-codes.js";
import { isAlive, isInsightsDaemon, readPidFile } from "../shared/base/lifecycle/process-check.js";
import type { Paths } from "../shared/base/paths.js";
import { ControlClient } from "./control-client.js";

export const DAEMON_MAIN = fileURLToPath(new URL("../daemon/main.js", import.meta.url));

export interface Started {
  pid: number;
  status: DaemonStatus;
  dashboardUrl: string;
}

/**
 * glibc's malloc setting for the daemon, set by whatever starts it (here, and the systemd unit's
 * Environment= line): glibc must see it when the process starts. With its default dynamic mmap
 * threshold, the threshold rises after a card's PNG-sized buffer is freed, the next ones come
 * from the heap arenas and stay there: measured +24.8 % RSS at rest after 1,000 cards, +3.8 % with
 * this fixed one (docs/benchmarks-history.md, memory suite). A GLIBC_TUNABLES of the user's own wins.
 */
export const DAEMON_GLIBC_TUNABLES = "glibc.malloc.mmap_threshold=131072";

export function daemonEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return env.GLIBC_TUNABLES ? env : { ...env, GLIBC_TUNABLES: DAEMON_GLIBC_TUNABLES };
}

/** Spawns insightsd detached and resolves once its control socket and /health both answer. */
export async function spawnDaemon(paths: Paths, argv: string[], timeoutMs = 20_000): Promise<Started> {
  const child = spawn(process.execPath, [DAEMON_MAIN, ...argv, "--detached"], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: daemonEnv(),
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  let exited: number | null = null;
  child.on("exit", (code, signal) => (exited = code ?? (signal ? 128 : 1)));

  try {
    if (child.pid === undefined) throw new InsightsError("START_FAILED", `could not run ${process.execPath} ${DAEMON_MAIN}`);
    return await waitUntilReady(paths, child.pid, {
      timeoutMs,
      failed: () => {
        if (exited === null) return null;
        // insightsd exits 2 for a bad flag or config value, like insightsctl.
        return new InsightsError(exited === EXIT.USAGE ? "CONFIG_INVALID" : "START_FAILED", startFailure(stderr, exited));
      },
    });
  } catch (err) {
    if (exited === null && child.pid) child.kill("SIGKILL");
    if (err instanceof InsightsError) throw err;
    const why = startFailure(stderr, null);
    throw new InsightsError("START_FAILED", `${errorMessage(err)}${why ? `; the daemon said: ${why}` : ""}`);
  } finally {
    child.stderr?.destroy();
    child.unref();
  }
}

/**
 * Waits until the daemon with this pid answers on the control socket and /health, and returns
 * its status and sign-in link. `failed` is asked on every round: an error ends the wait.
 */
export async function waitUntilReady(paths: Paths, pid: number, o: { timeoutMs: number; failed?: () => Error | null }): Promise<Started> {
  const status = await pollUntil(
    async () => {
      const failure = o.failed?.();
      if (failure) throw failure;
      const client = await ControlClient.tryConnect(paths.socketFile, 500);
      if (!client) return null;
      try {
        const s = await client.call<DaemonStatus>("status");
        // Another daemon on the same socket would be refused by ours; only ours counts.
        return s.pid === pid ? s : null;
      } finally {
        client.close();
      }
    },
    { timeoutMs: o.timeoutMs, intervalMs: 50, what: "the daemon to answer on its control socket" },
  );
  // The spec's readiness signal: /health answers over HTTP.
  await pollUntil(
    async () => {
      try {
        const res = await fetch(`${status.url}/health`, { signal: AbortSignal.timeout(1000) });
        return res.status === 200;
      } catch {
        return false;
      }
    },
    { timeoutMs: o.timeoutMs, intervalMs: 50, what: `${status.url}/health` },
  );
  const client = await ControlClient.connect(paths.socketFile);
  const { url } = await client.call<{ url: string }>("dashboard.url").finally(() => client.close());
  return { pid: status.pid, status, dashboardUrl: url };
}

/**
 * The one-line reason a daemon gave for not starting, from what it wrote on stderr: until it is
 * ready it logs there as JSON lines, and a failed start ends with `insightsd: <reason>`. A crash
 * of Node itself leaves an `Error: ...` line. Empty when stderr says nothing useful.
 */
export function startFailure(stderr: string, exitCode: number | null): string {
  const lines = stderr.split("\n").map((l) => l.trim()).filter(Boolean);
  const records: Array<Record<string, unknown>> = [];
  const plain: string[] = [];
  for (const line of lines) {
    if (line.startsWith("{")) {
      try {
        const value: unknown = JSON.parse(line);
        if (value && typeof value === "object" && !Array.isArray(value)) {
          records.push(value as Record<string, unknown>);
          continue;
        }
      } catch {
        // not a log record; keep it as text
      }
    }
    plain.push(line);
  }
  const own = plain.filter((l) => l.startsWith("insightsd: "));
  if (own.length) return (own[own.length - 1] as string).slice("insightsd: ".length);
  const logged = records.filter((r) => r.level === "error" || r.level === "fatal").pop();
  if (logged) return typeof logged.error === "string" ? logged.error : String(logged.msg);
  const thrown = plain.find((l) => /^[A-Za-z]*Error\b/.test(l));
  if (thrown) return thrown;
  if (exitCode !== null) return `insightsd exited with code ${exitCode}${plain.length ? `: ${plain[plain.length - 1]}` : ""}`;
  return "";
}

export type StopOutcome =
  | { result: "not-running"; cleaned: boolean }
  | { result: "stopped"; via: "control socket" | "SIGTERM"; pid: number }
  | { result: "killed"; pid: number };

interface StopTimeouts {
  controlMs: number;
  termMs: number;
  killMs: number;
}

// After SIGTERM the daemon drains for up to shutdownGraceSeconds (5 s) and then closes; give it that and as much again.
const DEFAULT_STOP_TIMEOUTS: StopTimeouts = { controlMs: 10_000, termMs: 10_000, killMs: 3_000 };

/** How a signal is sent (tests replace it to stand for a process SIGKILL cannot end at once). */
export type SendSignal = (pid: number, signal: NodeJS.Signals) => void;

const sendSignal: SendSignal = (pid, signal) => {
  try {
    process.kill(pid, signal);
  } catch (err) {
    // Gone between the check and the signal: what we wanted.
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
};

/**
 * Control-socket shutdown, then SIGTERM, then SIGKILL, each with its own deadline. Never says
 * "stopped" or "not running" while our daemon's process still lives: a daemon blocked in a system
 * call (the event loop stuck) answers neither the socket nor SIGTERM, and one that outlives
 * SIGKILL, or answers the socket with no pid file to name it, is a STOP_FAILED error.
 */
export async function stopDaemon(paths: Paths, timeouts: StopTimeouts = DEFAULT_STOP_TIMEOUTS, signal: SendSignal = sendSignal): Promise<StopOutcome> {
  const client = await ControlClient.tryConnect(paths.socketFile);
  let pid = readPidFile(paths.pidFile);
  let answered = false;
  if (client) {
    try {
      const answer = await client.call<{ pid: number }>("shutdown", { by: "insightsctl stop" });
      pid = answer.pid;
      answered = true;
    } catch {
      // fall through to signals
    } finally {
      client.close();
    }
    if (pid !== null && (await gone(pid, timeouts.controlMs))) return { result: "stopped", via: "control socket", pid };
  }
  if (pid === null || !isInsightsDaemon(pid)) {
    // Something holds the control socket (it accepted us) but did not answer, and no pid names it:
    // a daemon whose pid file is gone. It is not "not running", and it cannot be signalled.
    if (client && !answered) {
      throw new InsightsError("STOP_FAILED", `a process holds ${paths.socketFile} but does not answer, and ${paths.pidFile} names no running daemon; nothing was stopped`, {
        hint: `Find it with: fuser ${paths.socketFile} (or ss -xlp | grep control.sock), then kill it.`,
      });
    }
    const cleaned = removeLeftovers(paths, pid);
    return { result: "not-running", cleaned };
  }
  signal(pid, "SIGTERM");
  if (await gone(pid, timeouts.termMs)) return { result: "stopped", via: "SIGTERM", pid };
  signal(pid, "SIGKILL");
  if (!(await gone(pid, timeouts.killMs))) {
    throw new InsightsError("STOP_FAILED", `gateway-insights (pid ${pid}) is still running after SIGTERM and SIGKILL`, {
      pid,
      hint: `It may be stuck in the kernel (see: cat /proc/${pid}/stack). Run \`insightsctl stop\` again, or kill -9 ${pid}.`,
    });
  }
  // A killed daemon cannot remove its own files.
  removeLeftovers(paths, pid);
  return { result: "killed", pid };
}

async function gone(pid: number, timeoutMs: number): Promise<boolean> {
  try {
    await pollUntil(() => !isAlive(pid), { timeoutMs, intervalMs: 50, what: `pid ${pid} to exit` });
    return true;
  } catch {
    return false;
  }
}

/** Removes the pid file and socket of a daemon that is gone; true when something was removed. */
function removeLeftovers(paths: Paths, pid: number | null): boolean {
  const filePid = readPidFile(paths.pidFile);
  if (filePid !== null && filePid !== pid && isInsightsDaemon(filePid)) return false;
  const had = filePid !== null || existsSync(paths.socketFile);
  rmSync(paths.pidFile, { force: true });
  rmSync(paths.socketFile, { force: true });
  return had;
}
