// Small helpers for the real-CLI end-to-end tests: wait (with a deadline, on the daemon's own
// answers) until it shows what the files say, and read the card JSON and `insightsctl usage --json`.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./cli.js";
import type { TestDaemon } from "./daemon.js";

/** Generous: a loaded 2-core machine runs the CLI, its fake API and the daemon at once. */
export const SETTLE_MS = 180_000;

/**
 * Asks `read` until `mismatch` finds nothing wrong (null), and returns that answer. At the deadline
 * it fails with the last mismatch, so a wrong number reads as such rather than as a timeout.
 */
export async function settle<T>(what: string, read: () => Promise<T>, mismatch: (v: T) => string | null, timeoutMs = SETTLE_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  for (;;) {
    try {
      const v = await read();
      const why = mismatch(v);
      if (why === null) return v;
      last = why;
    } catch (err) {
      last = `request failed: ${(err as Error).message}`;
    }
    if (Date.now() > deadline) throw new Error(`${what}: the daemon did not show it within ${timeoutMs} ms; last: ${last}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The stable top of the card JSON (POST /api/snapshot, format json); its other parts may change shape. */
export interface CardTop {
  schemaVersion?: number;
  summary?: { tokens?: number | null; costUsd?: number | null; turns?: number | null; errors?: number | null; warnings?: number | null; totalSessions?: number | null };
}

export async function snapshotJson(d: Pick<TestDaemon, "url" | "token">): Promise<CardTop> {
  const res = await fetch(`${d.url}/api/snapshot`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${d.token}` },
    body: JSON.stringify({ format: "json", range: "24h" }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`/api/snapshot answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as CardTop;
}

const USAGE_COMMAND = join(ROOT, "cli", "commands", "usage.ts");

/**
 * `insightsctl usage --json` against the running daemon (its env finds the daemon), parsed; null
 * while the command does not exist in this checkout (it is being added on another branch).
 */
export async function usageJson(d: Pick<TestDaemon, "env">): Promise<Record<string, unknown> | null> {
  if (!existsSync(USAGE_COMMAND)) {
    console.log("insightsctl usage: not in this checkout yet; its checks were not run");
    return null;
  }
  const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ["--import", "tsx", join(ROOT, "cli", "main.ts"), "usage", "--json"], { env: { ...process.env, ...d.env }, timeout: 120_000, cwd: ROOT }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
  if (out.code !== 0) throw new Error(`insightsctl usage --json exited ${out.code}: ${out.stderr.slice(-600)}`);
  return JSON.parse(out.stdout) as Record<string, unknown>;
}
