// The geometry of the plan gauges (RateLimitsPanel): a half circle from 180° (left) over the top to
// 0° (right). Kept apart from the component so its arcs can be checked without a page.

/** Radius and centre in the gauge's viewBox (0 0 160 92). */
export const GAUGE = { r: 64, cx: 80, cy: 80 } as const;

/** The point at `f` (0..1) of the way along the half circle of radius `r`. */
export function gaugePoint(f: number, r: number = GAUGE.r): [number, number] {
  return [GAUGE.cx - r * Math.cos(Math.PI * f), GAUGE.cy - r * Math.sin(Math.PI * f)];
}

/**
 * The SVG path from the left end to `f` (clamped to 0..1). The large-arc flag is always 0: the arc
 * never sweeps more than 180°, and with the flag set above 50 % the renderer took the other arc
 * through the same two points, the long way round below the dial. Sweep 1 is clockwise on screen:
 * up over the top.
 */
export function gaugeArc(f: number): string {
  const [x, y] = gaugePoint(Math.max(0, Math.min(1, f)));
  return `M${GAUGE.cx - GAUGE.r},${GAUGE.cy} A${GAUGE.r},${GAUGE.r} 0 0 1 ${x.toFixed(2)},${y.toFixed(2)}`;
}
