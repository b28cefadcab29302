// When a rate-limit window would be used up at the burn rate of the last 30 minutes, and whether
// that is before it resets (issue 22 item 4): what the card, the API and the "projected full
// before reset" alert warn with. Generic over providers: it reads only stored samples of one
// window. Pure: the caller passes the samples and the clock's `now`.
import { HOUR, MINUTE } from "./time.js";

/** How far back the burn rate looks. */
export const PROJECTION_LOOKBACK_MS = 30 * MINUTE;
/** Readings closer together than this say too little about a rate (two readings a second apart). */
export const PROJECTION_MIN_SPAN_MS = 5 * MINUTE;
/**
 * A reset time that moves by more than this is a new window. Codex's rollouts give the reset as
 * seconds from the line's time, so the same window's reset moves by a second or so between lines.
 */
const RESET_JITTER_MS = MINUTE;

/**
 * - PROJECTED: the window fills at the rate shown (`fullAt`; `beforeReset` when the reset is known).
 * - TOO_FEW_SAMPLES: under two readings in the last 30 minutes, or spanning under 5 minutes.
 * - WINDOW_RESET: the window reset within the last 30 minutes (or since the newest reading) and too
 *   few readings came after it.
 * - NOT_RISING: the use is flat or falls: it does not fill at this rate.
 * - FULL: already at 100 % or more.
 */
export type ProjectionStatus = "PROJECTED" | "TOO_FEW_SAMPLES" | "WINDOW_RESET" | "NOT_RISING" | "FULL";

/** One stored reading of one window. */
export interface WindowSample {
  ts: number;
  usedPercent: number;
  resetsAt: number | null;
}

export interface WindowProjection {
  status: ProjectionStatus;
  /** Percentage points of the window used per hour, over the readings counted; null without two of them. */
  burnPercentPerHour: number | null;
  /** When the window reaches 100 % at that rate (epoch ms); null unless PROJECTED. */
  fullAt: number | null;
  /** The reset the projection is against (the newest reading's); null when not known. */
  resetsAt: number | null;
  /** Whether it fills before `resetsAt`; null unless PROJECTED with a known reset. */
  beforeReset: boolean | null;
  /** The used % at `resetsAt` at that rate (may pass 100); null unless PROJECTED with a known reset. */
  usedPercentAtReset: number | null;
  /** The readings the rate is drawn from (those since the last reset within the look-back). */
  samples: number;
}

/** Whether `cur` is in a newer window than `prev`. */
function resetBetween(prev: WindowSample, cur: WindowSample): boolean {
  if (prev.resetsAt !== null && cur.ts >= prev.resetsAt) return true;
  if (prev.resetsAt !== null && cur.resetsAt !== null) return cur.resetsAt - prev.resetsAt > RESET_JITTER_MS;
  // Without reset times, only a drop in use tells a new window.
  return cur.usedPercent < prev.usedPercent;
}

/**
 * The projection of one window from its readings (any order; those outside the last 30 minutes
 * before `now` are ignored). The rate is the rise from the first to the last reading since the
 * window's last reset, over the time between them.
 */
export function projectWindow(samples: readonly WindowSample[], now: number): WindowProjection {
  const recent = samples.filter((s) => s.ts <= now && s.ts > now - PROJECTION_LOOKBACK_MS && Number.isFinite(s.usedPercent)).sort((a, b) => a.ts - b.ts);
  const none = (status: ProjectionStatus, burn: number | null = null, n = 0): WindowProjection => ({
    status,
    burnPercentPerHour: burn,
    fullAt: null,
    resetsAt: recent.at(-1)?.resetsAt ?? null,
    beforeReset: null,
    usedPercentAtReset: null,
    samples: n,
  });
  if (!recent.length) return none("TOO_FEW_SAMPLES");
  let start = 0;
  for (let i = 1; i < recent.length; i++) if (resetBetween(recent[i - 1] as WindowSample, recent[i] as WindowSample)) start = i;
  const last = recent.at(-1) as WindowSample;
  if (last.usedPercent >= 100) return none("FULL", null, recent.length - start);
  // The newest reading's window has ended since: nothing is known of the new one.
  if (last.resetsAt !== null && last.resetsAt <= now) return none("WINDOW_RESET");
  const first = recent[start] as WindowSample;
  const n = recent.length - start;
  if (n < 2 || last.ts - first.ts < PROJECTION_MIN_SPAN_MS) return none(start > 0 ? "WINDOW_RESET" : "TOO_FEW_SAMPLES", null, n);
  const perMs = (last.usedPercent - first.usedPercent) / (last.ts - first.ts);
  const burn = perMs * HOUR;
  if (perMs <= 0) return none("NOT_RISING", burn, n);
  const fullAt = last.ts + (100 - last.usedPercent) / perMs;
  const resetsAt = last.resetsAt;
  return {
    status: "PROJECTED",
    burnPercentPerHour: burn,
    fullAt,
    resetsAt,
    beforeReset: resetsAt === null ? null : fullAt < resetsAt,
    usedPercentAtReset: resetsAt === null ? null : last.usedPercent + perMs * (resetsAt - last.ts),
    samples: n,
  };
}
