// HOOK POINTS for the providers suite (bench/providers.ts): where our own Claude Code and Codex
// readers get measured next to the bare read and ccusage, on the same synthetic history, in the
// same run. Both return null until the readers exist; the suite then says "not wired" and
// measures the rest. Each hook gets the dataset and must not modify it (copy it first if the code
// under test writes beside the files).
//
// INTEGRATOR: fill in the two functions below. The suite does the rest: MB/s, the ratios to the
// bare read and to ccusage, and the "equal totals" check of `ourUsageDaily` against ccusage and
// against the independent checker (bench/synthetic/expected-*.ts), day by day, to the token.
import type { Daily } from "./synthetic/daily.js";
import type { ProviderDataset, ProviderKind } from "./synthetic/provider-common.js";

export interface HookInput {
  kind: ProviderKind;
  dataset: ProviderDataset;
  /** The dir the provider's tools read: CLAUDE_CONFIG_DIR (…/home/.claude) or CODEX_HOME (…/home/.codex). */
  root: string;
  /** HOME for a process that should find the data in its default place (~/.claude, ~/.codex). */
  home: string;
  /** JSONL bytes in the dataset (manifest.bytes), for MB/s. */
  bytes: number;
  log(message: string): void;
}

export interface FirstScanResult {
  /** Fresh store to "every file read and summed", ms. */
  ms: number;
  /** Peak RSS of the process that scanned, MB, if measured (bench/memory.ts, bench/proc.ts). */
  peakRssMb?: number;
  /** Anything worth printing beside the figure ("12034 usage rows, 0 warnings"). */
  note?: string;
}

export interface UsageDailyResult {
  /** Wall time of one `insightsctl usage daily --json` against a daemon that has finished its first scan. */
  ms: number;
  /** Its output as per-UTC-day totals (input without cached input; see bench/synthetic/daily.ts). */
  daily: Daily;
  note?: string;
}

/**
 * INTEGRATOR HOOK 1: "our first scan". Run the provider reader on `input.root` with a fresh store,
 * in its own child process (bench/child.ts `runChild`, as bench/scan-child.ts does for OpenClaw),
 * until every file is read, and return the time (and memory).
 */
export async function ourFirstScan(input: HookInput): Promise<FirstScanResult | null> {
  void input;
  return null;
}

/**
 * INTEGRATOR HOOK 2: "`insightsctl usage daily --json` on a warm daemon". Start a daemon on the
 * dataset (bench/daemon.ts `startDaemon` with HOME = `input.home`, or the provider dirs passed
 * by flag/env), wait for its first scan, then time one `node dist/cli/main.js usage daily --json`
 * (days in UTC) and map its output to `Daily`. Stop the daemon before returning.
 */
export async function ourUsageDaily(input: HookInput): Promise<UsageDailyResult | null> {
  void input;
  return null;
}
