// Small helpers for the real-CLI end-to-end tests: wait (with a deadline, on the daemon's own
// answers) until it shows what the files say, and read the card JSON and `insightsctl usage --json`.
import { execFile } from "node:child_process";
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

/** The parts of the card JSON (POST /api/snapshot, format json, schemaVersion 2) these tests read. */
export interface CardSummary {
  tokens: number | null;
  costUsd: number | null;
  unpricedResponses: number | null;
  turns: number | null;
  errors: number | null;
  warnings: number | null;
  totalSessions: number | null;
}

export interface CardTop {
  schemaVersion: number;
  providers: Array<{ provider: string; summary: CardSummary }>;
}

/** One provider's block summary from the card. */
export function cardSummary(card: CardTop, provider: string): CardSummary {
  const block = card.providers.find((p) => p.provider === provider);
  if (!block) throw new Error(`the card has no ${provider} block: ${card.providers.map((p) => p.provider).join(", ")}`);
  return block.summary;
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

/** The totals of `insightsctl usage --json` (docs/usage.md). */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  reasoningTokens: number;
  totalTokens: number;
  costUsd: number;
  unpricedResponses: number;
}

/** `insightsctl usage --json` against the running daemon (its env finds the daemon), parsed. */
export async function usageJson(d: Pick<TestDaemon, "env">): Promise<{ schemaVersion: number; totals: UsageTotals }> {
  const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ["--import", "tsx", join(ROOT, "cli", "main.ts"), "usage", "--json"], { env: { ...process.env, ...d.env }, timeout: 120_000, cwd: ROOT }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
  if (out.code !== 0) throw new Error(`insightsctl usage --json exited ${out.code}: ${out.stderr.slice(-600)}`);
  return JSON.parse(out.stdout) as { schemaVersion: number; totals: UsageTotals };
}

/** `insightsctl usage --json`'s totals equal what the files say (tokens exactly, cost within a micro-dollar). */
export function checkUsageTotals(t: UsageTotals, want: { input: number; output: number; cacheRead: number; cacheWrite: number; reasoning: number; cost: number }): void {
  const eq = (a: number, b: number, what: string): void => {
    if (a !== b) throw new Error(`insightsctl usage --json ${what}: ${a}, the files say ${b}`);
  };
  eq(t.inputTokens, want.input, "inputTokens");
  eq(t.outputTokens, want.output, "outputTokens");
  eq(t.cacheReadTokens, want.cacheRead, "cacheReadTokens");
  eq(t.cacheWriteTokens, want.cacheWrite, "cacheWriteTokens");
  eq(t.reasoningTokens, want.reasoning, "reasoningTokens");
  eq(t.totalTokens, want.input + want.output + want.cacheRead + want.cacheWrite, "totalTokens");
  if (Math.abs(t.costUsd - want.cost) > 1e-6) throw new Error(`insightsctl usage --json costUsd: ${t.costUsd}, the files say ${want.cost}`);
  eq(t.unpricedResponses, 0, "unpricedResponses");
}
