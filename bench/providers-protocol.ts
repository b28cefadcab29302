// What bench/providers.ts sends to bench/providers-child.ts and gets back. Types only.
import type { MemoryPeaks, MemorySnapshot } from "./memory.js";
import type { ClaudeCodeCheck } from "./synthetic/expected-claude-code.js";
import type { CodexCheck } from "./synthetic/expected-codex.js";
import type { GeminiCliCheck } from "./synthetic/expected-gemini-cli.js";
import type { ProviderKind } from "./synthetic/provider-common.js";

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
  /** CPU time (user + system, all threads) of the read, ms. */
  cpuMs: number;
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
  kind: ProviderKind;
  /** CLAUDE_CONFIG_DIR, CODEX_HOME or the .gemini dir. */
  root: string;
}

export type CheckResult = { kind: "claude-code"; check: ClaudeCodeCheck; ms: number } | { kind: "codex"; check: CodexCheck; ms: number } | { kind: "gemini-cli"; check: GeminiCliCheck; ms: number };

/** A stretch when the event loop ran no timer: µs on the monotonic clock a CPU profile uses (process.hrtime). */
export interface StallWindow {
  startUs: number;
  endUs: number;
  /** CPU time of the main thread in it (null where /proc has no schedstat). */
  cpuMs: number | null;
  /** Time it was runnable but waited for a core (null likewise); the rest of the stretch it was blocked (I/O). */
  waitMs: number | null;
}

/** Our first scan of a provider history: bench/providers-scan-child.ts. */
export interface ScanInput {
  mode: "scan";
  kind: ProviderKind;
  /** CLAUDE_CONFIG_DIR, CODEX_HOME or the .gemini dir: the provider reads exactly this dir. */
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
  /**
   * After the idle refreshes: `reps` pairs of one response line appended to `file` (a transcript
   * under `root` that is a copy of its own, never the dataset's), each refreshed the daemon's way
   * (the source's refresh with the file a watch event names) or by a full pass of the source (the
   * way before), alternating.
   */
  incremental?: { file: string; reps: number } | null;
}

/** One appended line: its refresh until the response is visible in findSession. */
export interface IncrementalRun {
  how: "hinted" | "full";
  /** Append on disk -> visible in the query, ms (refresh + query). */
  ms: number;
  refreshMs: number;
  refreshCpuMs: number;
  queryMs: number;
}

export interface ScanResult {
  /** Fresh store to every source's firstPassDone, ms. */
  ms: number;
  /** CPU time (user + system, all threads) of the process meanwhile, ms. */
  cpuMs: number;
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
  /**
   * The most CPU time the main thread spent between two ticks of that timer, ms: the longest
   * stall our own work makes on an idle machine (the wall figures add waiting for a core). Null
   * without /proc/thread-self/schedstat.
   */
  maxStallCpuMs: number | null;
  baseline: MemorySnapshot;
  afterScan: MemorySnapshot;
  /** Sampled every 20 ms (at event-loop turns) during the scan. */
  scanPeaks: MemoryPeaks;
  /** The kernel's peak RSS of the process (VmHWM) right after the scan, MB. */
  hwmMb: number | null;
  idleRefreshMs: number[];
  idleRefreshCpuMs: number[];
  storeBytes: number;
  profiles: string[];
  /** The longest stretches without timers (at most 10, > 50 ms). */
  stallWindows: StallWindow[];
  /** ScanInput.incremental's runs, in order; null when not asked. */
  incremental: IncrementalRun[] | null;
}
