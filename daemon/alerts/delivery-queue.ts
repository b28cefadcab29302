// Delivers notifications without ever holding up evaluation or ingestion: `enqueue` only pushes
// onto the channel's own queue and returns. Each channel sends one notification at a time, in
// order, each try bounded by the channel's timeout, retried with exponential backoff; a channel
// that hangs or refuses holds up only itself. At most `maxInFlight` deliveries run at once across
// all channels (a rule firing to 200 channels must not start 200 requests or hooks at once); the
// rest wait their turn. Queues are bounded: past the bound a notification is dropped and counted,
// never kept in a growing list.
import type { NotificationInput } from "../../shared/alerts/format.js";
import type { AlertChannel } from "../../shared/alerts/rules.js";
import { InsightsError } from "../../shared/base/errors.js";
import { createTransport, type Resolve, type SendOutcome, type Transport } from "./transports.js";
import type { TargetPolicy } from "./target-policy.js";

interface DeliveryJob {
  channel: AlertChannel;
  notification: NotificationInput;
  /** The alert event it belongs to (null for a test). */
  eventId: number | null;
}

export interface DeliveryResult {
  channelId: string;
  eventId: number | null;
  outcome: "sent" | "failed" | "dropped";
  attempts: number;
  error: string | null;
}

export interface DeliveryQueueOptions {
  transport?: Transport;
  /** Tries per notification (default 3). */
  tries?: number;
  /** Wait before the second try; doubles for each further one (default 2 s). */
  backoffMs?: number;
  /** Notifications one channel may have waiting (default 50). */
  maxPerChannel?: number;
  /** Notifications all channels may have waiting (default 500). */
  maxTotal?: number;
  /** Deliveries sending at once across all channels (default 4); tests of a channel have as many again. */
  maxInFlight?: number;
  /** The outbound policy for channels made through the API (default: strict). */
  policy?: () => TargetPolicy;
  /** How host names are resolved on delivery (default: the system's). */
  resolve?: Resolve;
  /** Told of every finished delivery (the store records it; counters count it). */
  onResult?: (job: DeliveryJob, r: DeliveryResult) => void;
}

interface Entry {
  job: DeliveryJob;
  resolve: (r: DeliveryResult) => void;
}

export class DeliveryQueue {
  private readonly queues = new Map<string, Entry[]>();
  private readonly busy = new Set<string>();
  /** Channels with a test being sent. */
  private readonly testing = new Set<string>();
  private readonly abort = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();
  private waiting = 0;
  private closed = false;
  readonly counts = { sent: 0, failed: 0, dropped: 0, retries: 0 };
  private readonly transport: Transport;
  private readonly tries: number;
  private readonly backoffMs: number;
  private readonly maxPerChannel: number;
  private readonly maxTotal: number;
  private readonly maxInFlight: number;

  constructor(private readonly o: DeliveryQueueOptions = {}) {
    this.transport = o.transport ?? createTransport({ ...(o.policy ? { policy: o.policy } : {}), ...(o.resolve ? { resolve: o.resolve } : {}) });
    this.maxInFlight = Math.max(1, o.maxInFlight ?? 4);
    this.tries = Math.max(1, o.tries ?? 3);
    this.backoffMs = o.backoffMs ?? 2000;
    this.maxPerChannel = o.maxPerChannel ?? 50;
    this.maxTotal = o.maxTotal ?? 500;
  }

  /** Notifications waiting or being sent. */
  get pending(): number {
    return this.waiting + this.busy.size;
  }

  /** Queues a delivery; resolves when it is done (sent, failed after every try, or dropped). Never throws. */
  enqueue(job: DeliveryJob): Promise<DeliveryResult> {
    const q = this.queues.get(job.channel.id) ?? [];
    if (this.closed || q.length >= this.maxPerChannel || this.waiting >= this.maxTotal) {
      const why = this.closed ? "the daemon is stopping" : q.length >= this.maxPerChannel ? `channel ${job.channel.id} has ${q.length} notifications waiting` : `${this.waiting} notifications are waiting`;
      return Promise.resolve(this.finish(job, { channelId: job.channel.id, eventId: job.eventId, outcome: "dropped", attempts: 0, error: `dropped: ${why}` }));
    }
    return new Promise((resolve) => {
      q.push({ job, resolve });
      this.queues.set(job.channel.id, q);
      this.waiting++;
      this.pump();
    });
  }

  /**
   * A test: one try now, bounded by the channel's timeout, beside the channel's queue (a test must
   * not wait behind a backlog nor be retried for minutes). One test per channel at a time, and at
   * most `maxInFlight` at once; beyond, OPERATION_IN_PROGRESS at once.
   */
  /** Throws OPERATION_IN_PROGRESS when a test of the channel could not start now. */
  checkTest(id: string): void {
    if (this.testing.has(id)) throw new InsightsError("OPERATION_IN_PROGRESS", `a test of channel ${id} is being sent; wait for its outcome`);
    if (this.testing.size >= this.maxInFlight) throw new InsightsError("OPERATION_IN_PROGRESS", `${this.testing.size} channel tests are being sent; try again when one has finished`);
  }

  async sendOnce(job: DeliveryJob): Promise<DeliveryResult> {
    const id = job.channel.id;
    if (this.closed) return this.finish(job, { channelId: id, eventId: job.eventId, outcome: "dropped", attempts: 0, error: "dropped: the daemon is stopping" });
    this.checkTest(id);
    this.testing.add(id);
    try {
      return this.finish(job, await this.deliver(job, 1));
    } finally {
      this.testing.delete(id);
    }
  }

  /** Stops sending: in-flight requests are aborted, waiting ones dropped. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const [id, q] of this.queues) {
      for (const e of q.splice(0)) {
        this.waiting--;
        e.resolve(this.finish(e.job, { channelId: id, eventId: e.job.eventId, outcome: "dropped", attempts: 0, error: "dropped: the daemon is stopping" }));
      }
    }
  }

  /** Starts the next waiting delivery of each idle channel, oldest channel first, while slots are free. */
  private pump(): void {
    for (const [channelId, q] of this.queues) {
      if (this.closed || this.busy.size >= this.maxInFlight) return;
      if (this.busy.has(channelId)) continue;
      const entry = q.shift();
      // A channel goes to the back once served, so that one busy channel cannot starve the others.
      this.queues.delete(channelId);
      if (!entry) continue;
      if (q.length) this.queues.set(channelId, q);
      this.waiting--;
      this.busy.add(channelId);
      void this.deliver(entry.job, this.tries).then((r) => {
        this.busy.delete(channelId);
        entry.resolve(this.finish(entry.job, r));
        this.pump();
      });
    }
  }

  private async deliver(job: DeliveryJob, tries: number): Promise<DeliveryResult> {
    let last: SendOutcome = { ok: false, retry: false, error: "not sent" };
    let attempts = 0;
    for (let i = 0; i < tries && !this.closed; i++) {
      if (i > 0) {
        this.counts.retries++;
        await this.sleep(this.backoffMs * 2 ** (i - 1));
        if (this.closed) break;
      }
      attempts++;
      try {
        last = await this.transport(job.channel, job.notification, this.abort.signal);
      } catch (err) {
        // A transport must not throw; if one does, it is a failed try like any other.
        last = { ok: false, retry: true, error: err instanceof Error ? err.message : String(err) };
      }
      if (last.ok || !last.retry) break;
    }
    return { channelId: job.channel.id, eventId: job.eventId, outcome: last.ok ? "sent" : "failed", attempts, error: last.ok ? null : last.error };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const onAbort = (): void => resolve();
      const t = setTimeout(() => {
        this.timers.delete(t);
        this.abort.signal.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      this.timers.add(t);
      this.abort.signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  private finish(job: DeliveryJob, r: DeliveryResult): DeliveryResult {
    this.counts[r.outcome === "sent" ? "sent" : r.outcome === "failed" ? "failed" : "dropped"]++;
    try {
      this.o.onResult?.(job, r);
    } catch {
      // recording a result must not break delivery
    }
    return r;
  }
}
