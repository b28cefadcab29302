// A horizontal usage bar (context window fill). Colour steps at 70 % and 90 %, where a context
// window starts to matter for the operator.
import type { JSX } from "preact";
import { fmtPercent } from "../lib/format";

export function Meter({ percent, label }: { percent: number | null; label: string }): JSX.Element {
  if (percent === null || !Number.isFinite(percent)) return <span class="muted">—</span>;
  const p = Math.max(0, Math.min(100, percent));
  const tone = p >= 90 ? "err" : p >= 70 ? "warn" : "ok";
  return (
    <span class="meter" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(p * 10) / 10}>
      <span class={`meter-track tone-${tone}`}>
        <span class="meter-fill" style={{ width: `${Math.max(p, p > 0 ? 2 : 0)}%` }} />
      </span>
      <span class="meter-value num">{fmtPercent(percent)}</span>
    </span>
  );
}
