// A bar chart over time buckets, stacked when there are several series (tokens by kind), drawn
// as SVG at the container's pixel width. One tab stop: arrow keys move through the buckets and
// the tooltip plus a live region read the values out; the mouse does the same by hovering.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { t } from "../i18n/i18n";
import { labelStep, niceMax } from "../lib/scale";
import { useWidth } from "../lib/use-width";

export interface ChartSeries {
  /** Also the CSS class `series-<key>` that colours it. */
  key: string;
  label: string;
  values: number[];
}

export interface BarChartProps {
  /** Axis labels, one per bucket (HH:MM). */
  labels: string[];
  /** Tooltip headings, one per bucket (e.g. "14:00 – 14:15"). */
  titles: string[];
  series: ChartSeries[];
  format: (n: number) => string;
  axisFormat?: (n: number) => string;
  /** Accessible name of the chart. */
  label: string;
  height?: number;
  testId?: string;
}

const M = { top: 10, right: 8, bottom: 24, left: 48 };

export function BarChart(p: BarChartProps): JSX.Element {
  const [ref, width] = useWidth<HTMLDivElement>();
  const [active, setActive] = useState<number | null>(null);
  const height = p.height ?? 200;
  const n = p.labels.length;
  const totals = p.labels.map((_, i) => p.series.reduce((s, ser) => s + (ser.values[i] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const plotW = Math.max(10, width - M.left - M.right);
  const plotH = height - M.top - M.bottom;
  const slot = n > 0 ? plotW / n : plotW;
  const gap = Math.min(6, Math.max(1, slot * 0.22));
  const y = (v: number): number => M.top + plotH - (v / max) * plotH;
  const axis = p.axisFormat ?? p.format;
  const step = labelStep(n, plotW);
  const empty = totals.every((v) => v === 0);

  const onKey = (e: KeyboardEvent): void => {
    if (n === 0) return;
    const cur = active ?? -1;
    let next: number | null = cur;
    if (e.key === "ArrowRight") next = Math.min(n - 1, cur + 1);
    else if (e.key === "ArrowLeft") next = cur < 0 ? n - 1 : Math.max(0, cur - 1);
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = n - 1;
    else if (e.key === "Escape") next = null;
    else return;
    e.preventDefault();
    setActive(next);
  };

  const onMove = (e: MouseEvent): void => {
    const rect = (e.currentTarget as SVGElement).getBoundingClientRect();
    const i = Math.floor((e.clientX - rect.left - M.left) / slot);
    setActive(i >= 0 && i < n ? i : null);
  };

  const describe = (i: number): string =>
    `${p.titles[i] ?? p.labels[i]}: ` + p.series.map((s) => `${s.label} ${p.format(s.values[i] ?? 0)}`).join(", ");

  const tipLeft = active === null ? 0 : Math.min(Math.max(M.left + slot * active + slot / 2, 90), width - 90);

  return (
    <div class="chart" ref={ref} data-testid={p.testId}>
      <div class="chart-frame" tabIndex={0} role="figure" aria-label={`${p.label}. ${t("chart.keyboardHint")}`} onKeyDown={onKey} onBlur={() => setActive(null)}>
        <svg width={width} height={height} onMouseMove={onMove} onMouseLeave={() => setActive(null)} aria-hidden="true" focusable="false">
          {[0, 0.5, 1].map((f) => (
            <g key={f}>
              <line class="grid-line" x1={M.left} x2={width - M.right} y1={Math.round(y(max * f)) + 0.5} y2={Math.round(y(max * f)) + 0.5} />
              {/* An empty chart has no scale to tell: its axis says 0 and nothing else (it read "1, 1, 0"). */}
              {empty && f > 0 ? null : (
                <text class="axis-label" x={M.left - 8} y={y(max * f)} text-anchor="end" dominant-baseline="middle">
                  {axis(max * f)}
                </text>
              )}
            </g>
          ))}
          {active !== null ? <rect class="chart-hover" x={M.left + slot * active} y={M.top} width={slot} height={plotH} rx={3} /> : null}
          {p.labels.map((label, i) => {
            let base = 0;
            const x = M.left + slot * i + gap / 2;
            const w = Math.max(1, slot - gap);
            return (
              <g key={i}>
                {p.series.map((s) => {
                  const v = s.values[i] ?? 0;
                  if (v <= 0) return null;
                  const top = y(base + v);
                  const bottom = y(base);
                  base += v;
                  return <rect key={s.key} class={`bar series-${s.key}`} x={x} y={top} width={w} height={Math.max(1, bottom - top)} rx={Math.min(2, w / 4)} />;
                })}
                {i % step === 0 ? (
                  <text class="axis-label" x={x + w / 2} y={height - 6} text-anchor="middle">
                    {label}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
        {empty ? <p class="chart-empty">{t("chart.noActivity")}</p> : null}
        {active !== null ? (
          <div class="chart-tip" style={{ left: `${tipLeft}px` }} aria-hidden="true">
            <p class="tip-title">{p.titles[active] ?? p.labels[active]}</p>
            {p.series.map((s) => (
              <p key={s.key} class="tip-row">
                <span class={`swatch series-${s.key}`} />
                <span class="tip-label">{s.label}</span>
                <span class="num">{p.format(s.values[active] ?? 0)}</span>
              </p>
            ))}
            {p.series.length > 1 ? (
              <p class="tip-row tip-total">
                <span class="tip-label">{t("chart.total")}</span>
                <span class="num">{p.format(totals[active] ?? 0)}</span>
              </p>
            ) : null}
          </div>
        ) : null}
        <p class="sr-only" aria-live="polite">
          {active !== null ? describe(active) : ""}
        </p>
      </div>
      {p.series.length > 1 ? (
        <ul class="legend">
          {p.series.map((s) => (
            <li key={s.key}>
              <span class={`swatch series-${s.key}`} aria-hidden="true" />
              {s.label}
              <span class="num muted">{p.format(s.values.reduce((a, b) => a + b, 0))}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
