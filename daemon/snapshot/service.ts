// The daemon's snapshot service, shared by POST /api/snapshot, the MCP tool and the control
// socket: the rate limits, the render queue, the total timeout, and the counters that /metrics
// and the dashboard namespace show.
//
// Budgets: REST callers hold the token and are counted per peer address. MCP callers need no
// token, only a loopback address, and any local process can pick among 127.0.0.0/8: so all of MCP
// shares one budget of its own, each MCP client (agent program) has at most half of it, so one
// agent cannot spend every other agent's, and MCP has at most MCP_MAX_IN_FLIGHT card in the
// render queue at a time. Agents call several tools from one reply at once (Claude Code and Codex
// do): identical calls share one card, different ones wait in MCP's own line (at most
// MCP_MAX_WAITING, each at most the queue wait), and only a call that finds the line full is
// refused, without spending any budget. Whatever arrives over /mcp, a token holder's REST
// requests keep their own rate budget and find the render queue with room.
import type { Clock } from "../../shared/base/clock.js";
import { InsightsError } from "../../shared/base/errors.js";
import type { Collector } from "../../shared/ingest/collector.js";
import type { Logger } from "../../shared/base/log/logger.js";
import type { ReadModel } from "../../shared/queries/read-model.js";
import type { CardModel } from "../../shared/snapshot/card-model.js";
import type { SnapshotParams } from "../../shared/snapshot/params.js";
import { produceSnapshot, type RefreshJob, type SnapshotResult } from "../../shared/snapshot/pipeline.js";
import { renderPages, type CardImageFormat } from "../../shared/snapshot/render.js";
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
  /** Draws the card as PNG pages (the daemon's render workers); default: in this process. */
  renderPages?: (model: CardModel, maxHeightPx: number) => Promise<Buffer[]>;
  /** Test seam: a source refresh that hangs. */
  refresh?: (job: RefreshJob) => Promise<void>;
}

interface SnapshotCaller {
  /** Who is counted against the rate limit: the peer address; null for the local CLI (the socket is its permission). */
  client: string | null;
  via: "rest" | "mcp" | "cli";
  /** MCP: the session the call belongs to (mount.ts hands one out at initialize); null when none is known. */
  session?: string | null;
}

interface SnapshotRunOptions {
  /** `--quick` (design §8). */
  quick?: boolean;
  /** PNG as pages no taller than this many pixels (for a model's eyes, MCP); absent: one image. */
  pageHeightPx?: number;
}

/** `--quick` (design §8): what is already collected, no refresh, compact PNG. */
const QUICK_COLLECT_MS = 1000;

/** Cards MCP callers may have in the render queue (queued or rendering) at once. */
const MCP_MAX_IN_FLIGHT = 1;

/**
 * Different MCP calls that may wait for their turn behind it: a reply's parallel calls (Claude
 * Code and Codex run them together; three formats is common) with room for a second agent.
 * Identical calls share one card and take no place.
 */
const MCP_MAX_WAITING = 4;

/** The rate budgets a caller is counted against, each with its size; none for the local CLI (the socket is its permission). */
function budgetsOf(caller: SnapshotCaller, perMinute: number): Array<{ key: string; perMinute: number; who: string }> {
  if (caller.client === null) return [];
  if (caller.via !== "mcp") return [{ key: `${caller.via} ${peerKey(caller.client)}`, perMinute, who: "from this client" }];
  const all = { key: "mcp", perMinute, who: "over MCP (all MCP callers together)" };
  if (!caller.session) return [all];
  return [all, { key: `mcp ${caller.session}`, perMinute: Math.max(1, Math.floor(perMinute / 2)), who: "from this MCP client (half of MCP's budget)" }];
}

export class SnapshotService {
  private readonly queue: RenderQueue;
  private readonly limiter: RateLimiter;
  private readonly outcomes = new Map<string, { format: string; outcome: string; count: number; seconds: number }>();
  /** MCP's own line in front of the render queue: its calls take their turn there, identical ones merged. */
  private readonly mcpLine: RenderQueue;

  constructor(private readonly o: SnapshotServiceOptions) {
    this.queue = new RenderQueue({ concurrency: o.concurrency, maxQueue: o.maxQueue, queueWaitMs: o.queueWaitMs });
    this.mcpLine = new RenderQueue({ concurrency: MCP_MAX_IN_FLIGHT, maxQueue: MCP_MAX_WAITING, queueWaitMs: o.queueWaitMs });
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

  async snapshot(params: SnapshotParams, caller: SnapshotCaller, options: SnapshotRunOptions = {}): Promise<SnapshotResult> {
    const started = this.o.clock.now();
    const key = JSON.stringify([params, options.quick === true, options.pageHeightPx ?? null]);
    // Every check before anything is counted: a refused call spends no budget.
    const budgets = budgetsOf(caller, this.o.ratePerMinute);
    for (const b of budgets) {
      const wait = this.limiter.wait(b.key, started, b.perMinute);
      if (wait > 0) throw new InsightsError("RATE_LIMITED", `more than ${b.perMinute} snapshots a minute ${b.who}; try again in ${wait} s`, { retryAfterSeconds: wait });
    }
    if (caller.via === "mcp" && !this.mcpLine.has(key)) {
      const line = this.mcpLine.stats();
      if (line.active >= line.concurrency && line.queued >= line.maxQueue) {
        this.count(params.format, "queue_full", 0);
        throw new InsightsError("QUEUE_FULL", `${MCP_MAX_WAITING} different MCP snapshots are waiting already; try again shortly`, { retryAfterSeconds: 1 });
      }
    }
    for (const b of budgets) this.limiter.record(b.key, started);
    try {
      if (caller.via !== "mcp") return await this.produce(key, params, caller, options, started);
      return await this.mcpLine.run(key, () => this.produce(key, params, caller, options, started));
    } catch (err) {
      // Refused by a queue after all (full, or no turn in time): not spent either.
      if (err instanceof InsightsError && (err.code === "QUEUE_FULL" || err.code === "QUEUE_TIMEOUT")) for (const b of budgets) this.limiter.release(b.key, started);
      throw err;
    }
  }

  private async produce(key: string, params: SnapshotParams, caller: SnapshotCaller, options: SnapshotRunOptions, started: number): Promise<SnapshotResult> {
    const { clock } = this.o;
    const quick = options.quick === true;
    const pageHeight = options.pageHeightPx;
    const job = (): Promise<SnapshotResult> => {
      if (params.format !== "json") this.o.prepareRender?.();
      return produceSnapshot(params, {
        model: this.o.model,
        clock,
        ...(quick ? {} : { refresh: this.o.refresh ?? ((j: RefreshJob) => this.o.collector.run(j)) }),
        collectTimeoutMs: quick ? QUICK_COLLECT_MS : this.o.collectTimeoutMs,
        maxBytes: this.o.maxBytes,
        ...(this.o.render ? { render: this.o.render } : {}),
        ...(pageHeight === undefined ? {} : { pages: (m: CardModel) => (this.o.renderPages ?? renderPages)(m, pageHeight) }),
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
