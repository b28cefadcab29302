// The daemon's "now" for a countdown to `target`, re-read each time the shown minute changes (a
// timer aligned to the remaining time, not to the wall clock's minutes), so "resets in 2h 14m"
// ticks down without a refetch. The browser's clock, corrected by the daemon's offset
// (state/clock.ts), so a demo or a remote host with a skewed clock counts the same time.
import { useEffect, useState } from "preact/hooks";
import { daemonNow } from "../state/clock";

export function useCountdownNow(target: number | null): number {
  const [now, setNow] = useState(daemonNow);
  useEffect(() => {
    let timer: number | undefined;
    const arm = (): void => {
      const n = daemonNow();
      setNow(n);
      if (target === null || !Number.isFinite(target) || target <= n) return;
      // Just past the next whole minute of the time left; at most a minute away.
      timer = window.setTimeout(arm, Math.min(60_000, ((target - n) % 60_000) + 25));
    };
    arm();
    return () => window.clearTimeout(timer);
  }, [target]);
  return now;
}
