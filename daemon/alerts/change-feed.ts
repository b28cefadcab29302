// The alertChanged subscription: every subscriber gets each change, and one that falls behind is
// dropped rather than holding memory (or the others) back.
import type { Clock } from "../../shared/base/clock.js";
import type { Logger } from "../../shared/base/log/logger.js";
import type { AlertChange } from "../../shared/alerts/views.js";
import { BoundedChannel } from "../live/bounded-channel.js";

const MAX_SUBSCRIBER_BACKLOG = 1000;

export class AlertChangeFeed {
  private readonly subscribers = new Set<BoundedChannel<AlertChange>>();

  constructor(private readonly o: { clock: Clock; logger: Logger }) {}

  subscribe(): AsyncIterableIterator<AlertChange> {
    const ch: BoundedChannel<AlertChange> = new BoundedChannel({
      capacity: MAX_SUBSCRIBER_BACKLOG,
      onOverflow: () => this.o.logger.warn("dropped an alertChanged subscriber that fell behind"),
      onClose: () => this.subscribers.delete(ch),
    });
    this.subscribers.add(ch);
    return ch;
  }

  emit(c: Omit<AlertChange, "ts">): void {
    const change = { ...c, ts: this.o.clock.now() };
    for (const ch of this.subscribers) ch.push(change);
  }

  close(): void {
    for (const ch of this.subscribers) ch.close();
  }
}
