// Whether the page is live: the event stream's state, whether the daemon answers at all, and
// when data last arrived. The banner (components/ConnectionBanner) is derived from these.
import { signal } from "@preact/signals";

export type StreamState = "connecting" | "live" | "down";

export const stream = signal<StreamState>("connecting");
/** False after a request failed at the network level, true again after any answer. */
export const reachable = signal(true);
/** Browser time of the last successful data fetch (for "data as of HH:MM"). */
export const lastDataAt = signal<number | null>(null);

export function markReachable(): void {
  if (!reachable.value) reachable.value = true;
}

export function markUnreachable(): void {
  if (reachable.value) reachable.value = false;
}

export function markData(): void {
  lastDataAt.value = Date.now();
  markReachable();
}
