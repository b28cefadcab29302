// What the graphql and snapshot suites send to bench/load-child.ts (autocannon against the
// daemon) and get back. Types only.

export interface LoadInput {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  /** Request bodies, sent in turn from one counter shared by all connections; none for GET. */
  bodies: string[];
  connections: number;
  /** Seconds of load after the warm-up. */
  durationS: number;
  /** Seconds of load first, not counted (connections open, caches warm). */
  warmupS: number;
  /** Seconds before a request counts as timed out. */
  timeoutS: number;
  /** Read every response: error bodies' `code` and the X-Snapshot-Duration header (snapshot API). */
  inspect?: boolean;
}

export interface LoadResult {
  requests: number;
  durationS: number;
  /** Completed requests per second over the run (requests / duration). */
  perSecond: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Bodies handed out (how many requests were started, including ones cut at the end). */
  started: number;
  /** With `inspect`: error responses by their body's `code` ("503 QUEUE_FULL"). */
  errorCodes: Record<string, number>;
  /** With `inspect`: X-Snapshot-Duration of the 2xx responses (ms: collect + build + render, no queue wait). */
  serverMs: number[];
}
