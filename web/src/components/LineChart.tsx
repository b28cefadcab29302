// A line chart of percentages over time (a plan's used % per window), drawn as SVG at the
// container's pixel width like BarChart, with the same frame, tooltip and keyboard reading: one
// tab stop, the arrow keys (Home, End) move through the samples and a live region reads them.
// Dashed guides mark thresholds (80 % warns, 100 % is the limit).
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { t } from "../i18n/i18n";
import { fmtDateTime, fmtDay } from "../lib/format";
import { useWidth } from "../lib/use-width";

export interface LineSeries {
  /** Also the CSS class `series-<key>` that colours it. */
  key: string;
  label: string;
  /** One value per time (null: no figure then). */
  values: Array<number | null>;
}

export interface LineChartProps {
  /** Sample times, epoch ms, oldest first. */
  times: number[];
  series: LineSeries[];
  /** The x axis: [from, to], epoch ms. */
  domain: [number, number];
  /** The y axis runs from 0 to at least this. */
  yMin: number;
  thresholds?: Array<{ value: number; tone: "warn" | "err" }>;
  format: (n: number) => string;
  label: string;
  height?: number;
  testId?: string;
}

const M = { top: 10, right: 12, bottom: 24, left: 44 };
const DAY = 86_400_000;

export function LineChart(p: LineChartProps): JSX.Element {
  const [ref, width] = useWidth<HTMLDivElement>();
  const [active, setActive] = useState<number | null>(null);
  const height = p.height ?? 180;
  const n = p.times.length;
  const [from, to] = p.domain;
  const span = Math.max(1, to - from);
  const all = p.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  // Whole tens above the highest figure, never below yMin: 100 % stays the top unless it was passed.
  const max = Math.max(p.yMin, Math.ceil(Math.max(0, ...all) / 10) * 10);
  const plotW = Math.max(10, width - M.left - M.right);
  const plotH = height - M.top - M.bottom;
  const x = (ms: number): number => M.left + ((Math.min(to, Math.max(from, ms)) - from) / span) * plotW;
  const y = (v: number): number => M.top + plotH - (Math.max(0, v) / max) * plotH;

  // A tick at each local midnight inside the domain, thinned out to fit.
  const ticks: number[] = [];
  const first = new Date(from);
  first.setHours(24, 0, 0, 0);
  for (let d = first.getTime(); d <= to; d += DAY) ticks.push(d);
  const every = Math.max(1, Math.ceil(ticks.length / Math.max(1, Math.floor(plotW / 56))));

  const path = (values: Array<number | null>): string => {
    let d = "";
    let pen = false;
    values.forEach((v, i) => {
      if (v === null || !Number.isFinite(v)) {
        pen = false;
        return;
      }
      d += `${pen ? "L" : "M"}${x(p.times[i] as number).toFixed(1)},${y(v).toFixed(1)}`;
      pen = true;
    });
    return d;
  };

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
    if (n === 0) return;
    const rect = (e.currentTarget as SVGElement).getBoundingClientRect();
    const px = e.clientX - rect.left;
    // The sample nearest the pointer.
    let best = 0;
    for (let i = 1; i < n; i++) if (Math.abs(x(p.times[i] as number) - px) < Math.abs(x(p.times[best] as number) - px)) best = i;
    setActive(best);
  };

  const describe = (i: number): string =>
    `${fmtDateTime(p.times[i] as number)}: ` + p.series.map((s) => `${s.label} ${s.values[i] === null || s.values[i] === undefined ? "—" : p.format(s.values[i] as number)}`).join(", ");
  const activeX = active === null ? 0 : x(p.times[active] as number);
  const tipLeft = Math.min(Math.max(activeX, 90), width - 90);

  return (
    <div class="chart" ref={ref} data-testid={p.testId}>
      <div class="chart-frame" tabIndex={0} role="figure" aria-label={`${p.label}. ${t("chart.keyboardHintLine")}`} onKeyDown={onKey} onBlur={() => setActive(null)}>
        <svg width={width} height={height} onMouseMove={onMove} onMouseLeave={() => setActive(null)} aria-hidden="true" focusable="false">
          {[0, 0.5, 1].map((f) => (
            <g key={f}>
              <line class="grid-line" x1={M.left} x2={width - M.right} y1={Math.round(y(max * f)) + 0.5} y2={Math.round(y(max * f)) + 0.5} />
              <text class="axis-label" x={M.left - 8} y={y(max * f)} text-anchor="end" dominant-baseline="middle">
                {p.format(max * f)}
              </text>
            </g>
          ))}
          {(p.thresholds ?? []).map((th) => (
            <line key={th.value} class={`threshold tone-${th.tone}`} x1={M.left} x2={width - M.right} y1={Math.round(y(th.value)) + 0.5} y2={Math.round(y(th.value)) + 0.5} />
          ))}
          {ticks.map((d, i) =>
            i % every === 0 ? (
              <text key={d} class="axis-label" x={x(d)} y={height - 6} text-anchor="middle">
                {fmtDay(d)}
              </text>
            ) : null,
          )}
          {active !== null ? <line class="chart-cursor" x1={activeX} x2={activeX} y1={M.top} y2={M.top + plotH} /> : null}
          {p.series.map((s) => (
            <g key={s.key} class={`line-series series-${s.key}`}>
              <path class="line" d={path(s.values)} />
              {s.values.map((v, i) =>
                v === null || !Number.isFinite(v) ? null : <circle key={i} class={`line-dot${i === active ? " on" : ""}`} cx={x(p.times[i] as number)} cy={y(v)} r={i === active ? 4 : n > 60 ? 0 : 2.5} />,
              )}
            </g>
          ))}
        </svg>
        {n === 0 ? <p class="chart-empty">{t("chart.noSamples")}</p> : null}
        {active !== null ? (
          <div class="chart-tip" style={{ left: `${tipLeft}px` }} aria-hidden="true">
            <p class="tip-title">{fmtDateTime(p.times[active] as number)}</p>
            {p.series.map((s) => (
              <p key={s.key} class="tip-row">
                <span class={`swatch series-${s.key}`} />
                <span class="tip-label">{s.label}</span>
                <span class="num">{s.values[active] === null || s.values[active] === undefined ? "—" : p.format(s.values[active] as number)}</span>
              </p>
            ))}
          </div>
        ) : null}
        <p class="sr-only" aria-live="polite">
          {active !== null ? describe(active) : ""}
        </p>
      </div>
      <ul class="legend">
        {p.series.map((s) => (
          <li key={s.key}>
            <span class={`swatch series-${s.key}`} aria-hidden="true" />
            {s.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
