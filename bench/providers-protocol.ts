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
