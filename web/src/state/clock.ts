// The daemon's "now". Relative times ("5 minutes ago") must be measured against the clock the
// daemon stamps its data with, which is not always the browser's: the demo replays a recording
// at its own time, and a remote host's clock may drift. The offset is learnt from the API.
import { computed, signal } from "@preact/signals";

const serverOffset = signal(0);
/** Browser time, refreshed every 15 s so relative labels age without a refetch. */
export const tick = signal(Date.now());
export const serverNow = computed(() => tick.value + serverOffset.value);

/** The daemon's "now" read from the browser's clock at this instant (not only every 15 s, as serverNow). */
export function daemonNow(): number {
  return Date.now() + serverOffset.value;
}

/** Records a daemon timestamp known to be "now" on the daemon (± a second). */
export function observeServerNow(daemonMs: number): void {
  if (!Number.isFinite(daemonMs)) return;
  const offset = daemonMs - Date.now();
  // Ignore sub-second jitter so relative labels do not flicker between refetches.
  if (Math.abs(offset - serverOffset.value) > 1500) serverOffset.value = offset;
}

window.setInterval(() => (tick.value = Date.now()), 15_000);
