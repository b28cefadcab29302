// The last 24 hours of gateway events in hourly columns: errors, warnings and restarts stacked,
// height on a square-root scale so one busy hour does not flatten the rest. Each hour is a
// button (roving tab index: one tab stop, arrow keys move) that filters the list to that hour.
import type { JSX } from "preact";
import { useRef } from "preact/hooks";
import type { DensityBucket } from "../api/types";
import { t, tn } from "../i18n/i18n";
import { fmtClock } from "../lib/format";

export function DensityStrip({ buckets, selected, onSelect }: { buckets: DensityBucket[]; selected: number | null; onSelect: (epochStart: number | null) => void }): JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  const max = Math.max(1, ...buckets.map((b) => b.errorCount + b.warningCount + b.restartCount));
  const scale = (v: number): number => (v <= 0 ? 0 : Math.max(8, (Math.sqrt(v) / Math.sqrt(max)) * 100));
  const focusIndex = Math.max(0, selected === null ? buckets.length - 1 : buckets.findIndex((b) => b.epochStart === selected));

  const describe = (b: DensityBucket): string => {
    const range = `${fmtClock(b.epochStart * 1000, false)}–${fmtClock((b.epochStart + 3600) * 1000, false)}`;
    const parts = [tn("count.errors", b.errorCount), tn("count.warnings", b.warningCount), tn("count.restarts", b.restartCount)];
    return `${range}: ${parts.join(", ")}`;
  };

  const onKey = (e: KeyboardEvent, i: number): void => {
    const next = e.key === "ArrowRight" ? i + 1 : e.key === "ArrowLeft" ? i - 1 : e.key === "Home" ? 0 : e.key === "End" ? buckets.length - 1 : null;
    if (next === null) return;
    e.preventDefault();
    const buttons = ref.current?.querySelectorAll<HTMLButtonElement>("button.density-col");
    buttons?.[Math.max(0, Math.min(buckets.length - 1, next))]?.focus();
  };

  return (
    <div class={`density${selected !== null ? " has-selection" : ""}`} ref={ref} role="toolbar" aria-label={t("events.densityLabel")} data-testid="density-strip">
      <div class="density-cols">
        {buckets.map((b, i) => {
          const total = b.errorCount + b.warningCount + b.restartCount;
          const h = scale(total);
          const isSel = selected === b.epochStart;
          return (
            <button
              type="button"
              key={b.epochStart}
              class={`density-col${isSel ? " selected" : ""}${total === 0 ? " quiet" : ""}`}
              tabIndex={i === focusIndex ? 0 : -1}
              aria-pressed={isSel}
              aria-label={describe(b)}
              title={describe(b)}
              onClick={() => onSelect(isSel ? null : b.epochStart)}
              onKeyDown={(e) => onKey(e, i)}
            >
              <span class="density-bar" style={{ height: `${h}%` }}>
                {total > 0 ? (
                  <>
                    <span class="seg series-restart" style={{ flexGrow: String(b.restartCount) }} />
                    <span class="seg series-warning" style={{ flexGrow: String(b.warningCount) }} />
                    <span class="seg series-error" style={{ flexGrow: String(b.errorCount) }} />
                  </>
                ) : null}
              </span>
            </button>
          );
        })}
      </div>
      <div class="density-axis" aria-hidden="true">
        {buckets.map((b, i) => (
          <span key={b.epochStart}>{i % 3 === 0 ? fmtClock(b.epochStart * 1000, false) : ""}</span>
        ))}
      </div>
    </div>
  );
}
