// Runs the built bins (dist/) against a throwaway HOME and XDG dirs, as a user would.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CTL = join(ROOT, "dist", "cli", "insightsctl.cjs");
export const DAEMON = join(ROOT, "dist", "daemon", "main.js");

export interface Sandbox {
  dir: string;
  env: Record<string, string>;
  port: number;
  stateDir: string;
  runtimeDir: string;
  cleanup(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** A fresh HOME/XDG tree (short paths: the socket path must fit in 107 bytes) and a free port. */
export async function sandbox(extraEnv: Record<string, string> = {}): Promise<Sandbox> {
  const dir = mkdtempSync(join(tmpdir(), "gi-"));
  const port = await freePort();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("INSIGHTS_") || k.startsWith("OPENCLAW_") || k.startsWith("XDG_")) continue;
    env[k] = v;
  }
  Object.assign(env, {
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_STATE_HOME: join(dir, "state"),
    XDG_RUNTIME_DIR: join(dir, "run"),
    INSIGHTS_PORT: String(port),
    NO_COLOR: "1",
    ...extraEnv,
  });
  const box: Sandbox = {
    dir,
    env,
    port,
    stateDir: join(dir, "state", "gateway-insights"),
    runtimeDir: join(dir, "run", "gateway-insights"),
    cleanup: async () => {
      await ctl(box, ["stop"]).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return box;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function ctl(box: Sandbox, args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CTL, ...args], { env: { ...box.env, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A long-running CLI process (logs -f) whose output is collected as it comes. */
export function ctlSpawn(box: Sandbox, args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [CTL, ...args], { env: box.env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

/** Resolves with the exit code (null when killed by a signal) once the child has exited; rejects after the deadline. */
export async function exitOf(child: ChildProcess, timeoutMs = 30_000): Promise<number | null> {
  const { pollUntil } = await import("../../shared/base/clock.js");
  await pollUntil(() => child.exitCode !== null || child.signalCode !== null, { timeoutMs, intervalMs: 50, what: `pid ${child.pid} to exit` });
  return child.exitCode;
}
