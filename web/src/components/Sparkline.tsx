// A tiny trend line under a key number: the range's buckets, oldest left. Decorative (the tile
// states the figure in words), so it is hidden from assistive technology.
import type { JSX } from "preact";

export function Sparkline({ values, tone = "accent", height = 32 }: { values: Array<number | null>; tone?: string; height?: number }): JSX.Element {
  const w = 120;
  const h = height;
  const nums = values.map((v) => (v === null || !Number.isFinite(v) ? null : v));
  const max = Math.max(0, ...nums.map((v) => v ?? 0));
  const min = Math.min(0, ...nums.map((v) => v ?? 0));
  const span = max - min || 1;
  const step = nums.length > 1 ? w / (nums.length - 1) : w;
  const points: Array<[number, number]> = [];
  nums.forEach((v, i) => {
    if (v !== null) points.push([i * step, h - 2 - ((v - min) / span) * (h - 4)]);
  });
  const line = points.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)}`).join("");
  const first = points[0];
  const last = points.at(-1);
  const area = first && last ? `${line}L${last[0].toFixed(1)},${h}L${first[0].toFixed(1)},${h}Z` : "";
  return (
    <svg class={`sparkline tone-${tone}`} viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
      {area ? <path class="spark-area" d={area} /> : null}
      {line ? <path class="spark-line" d={line} vector-effect="non-scaling-stroke" /> : null}
    </svg>
  );
}
