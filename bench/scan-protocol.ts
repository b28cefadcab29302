// What bench/scan.ts sends to bench/scan-child.ts and gets back. Types only.
import type { MemoryPeaks, MemorySnapshot } from "./memory.js";
import type { Era } from "./synthetic/plan.js";

export interface BareInput {
  mode: "bare";
  era: Era;
  stateDir: string;
}

export interface BareResult {
  ms: number;
  /** UTF-8 bytes of event JSON read (after zstd decoding). */
  bytes: number;
  events: number;
  zstdRows: number;
  /** User and assistant messages among them. */
  messages: number;
  memory: MemorySnapshot;
}

export interface AppendTarget {
  era: Era;
  agentId: string;
  sessionKey: string;
  sessionId: string;
  /** A real assistant event of this era to clone. */
  assistantEventJson: string;
}

export interface RealInput {
  mode: "real";
  stateDir: string;
  storePath: string;
  /** The dataset's "now"; the child's clock starts there. */
  anchorNow: number;
  idleRefreshes: number;
  incremental: { reps: number; target: AppendTarget } | null;
  queryReps: number;
  /** Write CPU profiles of the scan and of the incremental refreshes here. */
  profileDir: string | null;
}

export interface RealResult {
  scan: {
    ms: number;
    refreshes: number;
    transcripts: number;
    sessions: number;
    usageRows: number;
    warnings: number;
    agentsReady: number;
    /** Longest event-loop block during the scan. */
    maxStallMs: number;
  };
  /** Right after the scan, before anything else ran. */
  afterScan: MemorySnapshot;
  /** Then after a full garbage collection (the child runs with --expose-gc). */
  afterGc: MemorySnapshot;
  /** Sampled during the scan. */
  scanPeaks: MemoryPeaks;
  /** Right after the modules were loaded: what the process costs before reading anything. */
  baseline: MemorySnapshot;
  idleRefreshMs: number[];
  /** Longest event-loop block during those idle refreshes. */
  idleMaxStallMs: number;
  incremental: {
    latencyMs: number[];
    refreshMs: number[];
    queryMs: number[];
    /** Refreshes it took until the event was visible (1 when the next refresh saw it). */
    refreshes: number[];
    /**
     * How each append was refreshed: `agent` (SQLite era: the agent's refresh, as its watch event
     * on the WAL starts it; only a full pass of the agent can read it), `hinted` (file era: the agent's refresh with the JSONL as a watch event names
     * it, as the daemon does). File era only, on alternate appends: `full`, the agent's full pass
     * on that same event (what the daemon did before it read named files alone), for comparison.
     */
    how: Array<"agent" | "hinted" | "full">;
    /** File era: the agent's refresh after sessions.json is rewritten (its own watch event), ms, one per append. */
    indexRefreshMs: number[];
  } | null;
  queries: {
    sessionsMs: number[];
    metricsMs: number[];
    perAgent: Record<string, { sessionsMs: number[]; metricsMs: number[] }>;
    sessionsReturned: number;
    rangeTokensK: number;
  } | null;
  profiles: string[];
  zstdBackend: string;
}
