// What a plan's rate-limit reading can be. Every reading passes here before it is stored (the
// transcript scanner), so one refused here is never "current" and never fires an alert: the last
// possible reading stays in force. A rollout is written by whatever runs as the user, so a line
// can carry 999 % with a reset in year 5138 (a critical alert that would never age out).
import type { RateLimitSnapshot, RateLimitWindow } from "../providers/contract.js";

/**
 * Highest used % taken as real. Codex writes 100.0 on a 429 (codex-format.md §8); the server may
 * count a few requests already in flight past the limit, so a little above 100 is possible, while
 * anything past 105 says the reading is not a percentage of the window at all.
 */
export const MAX_USED_PERCENT = 105;
/** Longest window taken as real: Codex's are 5 h and 7 days; a month leaves room for other plans. */
export const MAX_WINDOW_MINUTES = 31 * 24 * 60;
/** Clock difference allowed between the reading's time (the client's) and its reset (the server's). */
export const CLOCK_SKEW_MS = 5 * 60_000;

const MINUTE = 60_000;

function windowProblem(w: RateLimitWindow, name: string, readAt: number): string | null {
  const used = w.usedPercent;
  if (!Number.isFinite(used) || used < 0 || used > MAX_USED_PERCENT) return `${name} used ${used} % is not between 0 and ${MAX_USED_PERCENT} %`;
  const minutes = w.windowMinutes;
  if (minutes !== null && (!Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_WINDOW_MINUTES)) return `${name} window of ${minutes} minutes is not between 1 minute and ${MAX_WINDOW_MINUTES / 1440} days`;
  const resets = w.resetsAt;
  if (resets !== null) {
    // A window resets at most its own length after the reading (the longest window when unknown).
    const latest = readAt + (minutes ?? MAX_WINDOW_MINUTES) * MINUTE + CLOCK_SKEW_MS;
    if (!Number.isFinite(resets) || resets > latest) return `${name} resets at ${Number.isFinite(resets) && Math.abs(resets) < 8.64e15 ? new Date(resets).toISOString() : resets}, beyond its ${minutes ?? MAX_WINDOW_MINUTES} minute window from the reading`;
  }
  return null;
}

/** Why a reading taken at `readAt` cannot be real (null: it can); `now` bounds readings dated in the future. */
export function impossibleRateLimit(snap: RateLimitSnapshot, readAt: number, now: number): string | null {
  if (!Number.isFinite(readAt) || readAt > now + CLOCK_SKEW_MS) return `the reading is dated ${Number.isFinite(readAt) && Math.abs(readAt) < 8.64e15 ? new Date(readAt).toISOString() : readAt}, in the future`;
  for (const [w, name] of [
    [snap.primary, "primary"],
    [snap.secondary, "secondary"],
  ] as const) {
    const problem = w ? windowProblem(w, name, readAt) : null;
    if (problem) return problem;
  }
  return null;
}
