// What bench/providers.ts sends to bench/providers-child.ts and gets back. Types only.
import type { MemoryPeaks, MemorySnapshot } from "./memory.js";
import type { ClaudeCodeCheck } from "./synthetic/expected-claude-code.js";
import type { CodexCheck } from "./synthetic/expected-codex.js";

export interface BareInput {
  mode: "bare";
  /** The transcript tree: <CLAUDE_CONFIG_DIR>/projects or <CODEX_HOME>/sessions. */
  dir: string;
  /** Parse only lines containing this text (null: every line). */
  filter: string | null;
  /**
   * strings: chunks decoded to strings, split into lines, each tested and parsed;
   * bytes: the marker is searched in the raw chunks and only its lines are decoded and parsed
   * (needs `filter`; `lines` is then not counted).
   */
  how: "strings" | "bytes";
}

export interface BareResult {
  ms: number;
  bytes: number;
  files: number;
  lines: number;
  parsed: number;
  /** Before reading anything. */
  baseline: MemorySnapshot;
  memory: MemorySnapshot;
  peaks: MemoryPeaks;
}

export interface CheckInput {
  mode: "check";
  kind: "claude-code" | "codex";
  /** CLAUDE_CONFIG_DIR or CODEX_HOME. */
  root: string;
}

export type CheckResult = { kind: "claude-code"; check: ClaudeCodeCheck; ms: number } | { kind: "codex"; check: CodexCheck; ms: number };

/** Our first scan of a provider history: bench/providers-scan-child.ts. */
export interface ScanInput {
  mode: "scan";
  kind: "claude-code" | "codex";
  /** CLAUDE_CONFIG_DIR or CODEX_HOME: the provider reads exactly this dir. */
  root: string;
  /** HOME the provider sees (nothing is read from it when `root` is given). */
  home: string;
  /** A path for a fresh store (removed first). */
  storePath: string;
  /** The dataset's "now"; the child's clock starts there. */
  anchorNow: number;
  /** Refreshes with nothing new to time after the scan. */
  idleRefreshes: number;
  /** CPU-profile the scan into this dir (a run not used for the figures). */
  profileDir: string | null;
}

export interface ScanResult {
  /** Fresh store to every source's firstPassDone, ms. */
  ms: number;
  refreshes: number;
  sources: number;
  firstPassDone: boolean;
  transcripts: number;
  usageRows: number;
  warnings: number;
  /** Longest event-loop block during the scan (monitorEventLoopDelay max), ms. */
  maxStallMs: number;
  /** The same from a 10 ms setInterval probe: the largest gap beyond its period. */
  maxTimerDriftMs: number;
  baseline: MemorySnapshot;
  afterScan: MemorySnapshot;
  /** Sampled every 20 ms (at event-loop turns) during the scan. */
  scanPeaks: MemoryPeaks;
  /** The kernel's peak RSS of the process (VmHWM) right after the scan, MB. */
  hwmMb: number | null;
  idleRefreshMs: number[];
  storeBytes: number;
  profiles: string[];
}
