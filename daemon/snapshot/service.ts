// The daemon's snapshot service, shared by POST /api/snapshot, the MCP tool and the control
// socket: the rate limits, the render queue, the total timeout, and the counters that /metrics
// and the dashboard namespace show.
//
// Budgets: REST callers hold the token and are counted per peer address. MCP callers need no
// token, only a loopback address, and any local process can pick among 127.0.0.0/8: so all of MCP
// shares one budget of its own, and holds at most MCP_MAX_IN_FLIGHT renders at a time. Whatever
// arrives over /mcp, a token holder's REST requests keep their own rate budget and find the render
// queue with room.
import type { Clock } from "../../shared/clock.js";
import { InsightsError } from "../../shared/errors.js";
import type { Collector } from "../../shared/ingest/collector.js";
import type { Logger } from "../../shared/log/logger.js";
import type { ReadModel } from "../../shared/queries/read-model.js";
import type { CardModel } from "../../shared/snapshot/card-model.js";
import type { SnapshotParams } from "../../shared/snapshot/params.js";
import { produceSnapshot, type RefreshJob, type SnapshotResult } from "../../shared/snapshot/pipeline.js";
import type { CardImageFormat } from "../../shared/snapshot/render.js";
import { peerKey } from "../auth/ip.js";
import { RateLimiter } from "./rate-limiter.js";
import { RenderQueue } from "./render-queue.js";

export interface SnapshotServiceOptions {
  model: ReadModel;
  collector: Collector;
  clock: Clock;
  logger: Logger;
  concurrency: number;
  maxQueue: number;
  queueWaitMs: number;
  collectTimeoutMs: number;
  totalTimeoutMs: number;
  ratePerMinute: number;
  maxBytes: number;
  /** Draws a card (the daemon's render workers); tests pass one that fails or waits. */
  render?: (model: CardModel, format: CardImageFormat) => Promise<Buffer>;
  /** An image is on its way: start a renderer now so its start-up overlaps collecting the data (RenderPool.prepare). */
  prepareRender?: () => void;
  /** Test seam: a source refresh that hangs. */
  refresh?: (job: RefreshJob) => Promise<void>;
}

export interface SnapshotCaller {
  /** Who is counted against the rate limit: the peer address; null for the local CLI (the socket is its permission). */
  client: string | null;
  via: "rest" | "mcp" | "cli";
}

/** `--quick` (design §8): what is already collected, no refresh, compact PNG. */
export const QUICK_COLLECT_MS = 1000;

/** Snapshots MCP callers may have queued or rendering at once (an agent calls one tool at a time). */
export const MCP_MAX_IN_FLIGHT = 1;

/** The rate budget a caller is counted against; null for the local CLI (the socket is its permission). */
function budgetOf(caller: SnapshotCaller): string | null {
  if (caller.client === null) return null;
  return caller.via === "mcp" ? "mcp" : `${caller.via} ${peerKey(caller.client)}`;
}

export class SnapshotService {
  private readonly queue: RenderQueue;
  private readonly limiter: RateLimiter;
  private readonly outcomes = new Map<string, { format: string; outcome: string; count: number; seconds: number }>();
  private mcpInFlight = 0;

  constructor(private readonly o: SnapshotServiceOptions) {
    this.queue = new RenderQueue({ concurrency: o.concurrency, maxQueue: o.maxQueue, queueWaitMs: o.queueWaitMs });
    this.limiter = new RateLimiter(o.ratePerMinute);
  }

  queueStats(): { active: number; queued: number; concurrency: number; maxQueue: number; rendersTotal: number; failuresTotal: number } {
    const all = [...this.outcomes.values()];
    return {
      ...this.queue.stats(),
      rendersTotal: all.filter((r) => r.outcome === "ok").reduce((n, r) => n + r.count, 0),
      failuresTotal: all.filter((r) => r.outcome !== "ok").reduce((n, r) => n + r.count, 0),
    };
  }

  renderStats(): { byOutcome: Array<{ format: string; outcome: string; count: number; seconds: number }>; queued: number; active: number } {
    const q = this.queue.stats();
    return { byOutcome: [...this.outcomes.values()].map((r) => ({ ...r })), queued: q.queued, active: q.active };
  }

  async snapshot(params: SnapshotParams, caller: SnapshotCaller, options: { quick?: boolean } = {}): Promise<SnapshotResult> {
    const started = this.o.clock.now();
    const budget = budgetOf(caller);
    if (budget !== null) {
      const wait = this.limiter.take(budget, started);
      if (wait > 0) {
        const who = caller.via === "mcp" ? "over MCP (all MCP callers together)" : "from this client";
        throw new InsightsError("RATE_LIMITED", `more than ${this.o.ratePerMinute} snapshots a minute ${who}; try again in ${wait} s`, { retryAfterSeconds: wait });
      }
    }
    if (caller.via !== "mcp") return this.produce(params, caller, options, started);
    if (this.mcpInFlight >= MCP_MAX_IN_FLIGHT) {
      this.count(params.format, "queue_full", 0);
      throw new InsightsError("QUEUE_FULL", `an MCP snapshot is already being made; MCP callers get ${MCP_MAX_IN_FLIGHT} at a time; try again shortly`, { retryAfterSeconds: 1 });
    }
    this.mcpInFlight++;
    try {
      return await this.produce(params, caller, options, started);
    } finally {
      this.mcpInFlight--;
    }
  }

  private async produce(params: SnapshotParams, caller: SnapshotCaller, options: { quick?: boolean }, started: number): Promise<SnapshotResult> {
    const { clock } = this.o;
    const quick = options.quick === true;
    const key = JSON.stringify([params, quick]);
    const job = (): Promise<SnapshotResult> => {
      if (params.format !== "json") this.o.prepareRender?.();
      return produceSnapshot(params, {
        model: this.o.model,
        clock,
        ...(quick ? {} : { refresh: this.o.refresh ?? ((j: RefreshJob) => this.o.collector.run(j)) }),
        collectTimeoutMs: quick ? QUICK_COLLECT_MS : this.o.collectTimeoutMs,
        maxBytes: this.o.maxBytes,
        ...(this.o.render ? { render: this.o.render } : {}),
      });
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        this.queue.run(key, job),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new InsightsError("TOTAL_TIMEOUT", `the snapshot took longer than ${Math.round(this.o.totalTimeoutMs / 1000)} s`, { retryAfterSeconds: 5 })),
            this.o.totalTimeoutMs,
          );
        }),
      ]);
      this.count(params.format, "ok", clock.now() - started);
      if (result.params.detail !== params.detail) this.o.logger.info("snapshot detail lowered to fit the size limit", { requested: params.detail, used: result.params.detail, maxBytes: this.o.maxBytes });
      return result;
    } catch (err) {
      const code = err instanceof InsightsError ? err.code : "RENDER_FAILED";
      this.count(params.format, code.toLowerCase(), clock.now() - started);
      if (code === "RENDER_FAILED") this.o.logger.error("snapshot render failed", { via: caller.via, error: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private count(format: string, outcome: string, ms: number): void {
    const key = `${format} ${outcome}`;
    const r = this.outcomes.get(key) ?? { format, outcome, count: 0, seconds: 0 };
    r.count++;
    r.seconds += ms / 1000;
    this.outcomes.set(key, r);
  }
}
