// Axis helpers for the hand-drawn charts.

/** A "nice" upper bound for an axis (1, 2, 2.5 or 5 times a power of ten) at or above `max`. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const pow = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * pow >= max) return m * pow;
  return 10 * pow;
}

/** Which of `count` x labels to print so they do not collide at `width` pixels. */
export function labelStep(count: number, width: number, labelPx = 44): number {
  const fit = Math.max(1, Math.floor(width / labelPx));
  return Math.max(1, Math.ceil(count / fit));
}
