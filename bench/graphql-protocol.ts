// What bench/graphql.ts sends to bench/fanout-child.ts and gets back. Types only.
import type { AppendTarget } from "./scan-protocol.js";

export interface FanoutInput {
  /** The daemon's base URL and API token. */
  url: string;
  token: string;
  /** SSE subscriptions to `dataChanged` to hold open. */
  clients: number;
  /** Measured appends (after one uncounted one that proves every subscription is live). */
  reps: number;
  /** The state dir the daemon reads (the work copy) and where to append. */
  stateDir: string;
  target: AppendTarget;
  /** The source id the append changes: `agent:<agentId>`. */
  source: string;
  /** The daemon's poll interval (the collector scans agents every 2 s); appends are spread over it. */
  pollMs: number;
  /** Longest wait for every client to see one append. */
  timeoutMs: number;
  /**
   * The load's query (`sessions` + `metrics` of `source`), sent once each append reached every
   * client and once more right after: the first answer after a change, and a repeat.
   */
  query: { body: string; sessionKey: string };
}

/** The query sent after a change reached the clients. */
export interface AfterChange {
  /** Round trip of the first query after the signal (the daemon's answers for the source were dropped). */
  firstMs: number;
  /** Round trip of the same query right after it. */
  repeatMs: number;
  /** The first answer showed the appended tokens (`sessionKey`'s totalTokens grew by the append). */
  fresh: boolean;
}

export interface FanoutRep {
  /** Epoch ms (sub-ms precision) when the append was committed. */
  appendedAt: number;
  /** The daemon's `DataChange.ts` (epoch ms, its clock) minus appendedAt: poll wait + refresh. */
  detectionMs: number;
  /** Per client, receipt minus appendedAt, in client order. */
  latencyMs: number[];
  /** First receipt minus the daemon's ts: from the signal to the first client. */
  firstAfterSignalMs: number;
  /** Last receipt minus first receipt: the fan-out over all clients. */
  spreadMs: number;
  afterChange: AfterChange;
}

export interface FanoutResult {
  clients: number;
  /** ms from the first subscription request to all responses streaming. */
  connectMs: number;
  reps: FanoutRep[];
  /** dataChanged signals received for other sources, or for the target outside a measurement. */
  otherSignals: Record<string, number>;
  /** Subscriptions that ended before the run did. */
  dropped: number;
}
