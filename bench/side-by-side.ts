// `npm run bench -- --baseline <checkout>`: every suite runs on the baseline's build and on ours,
// alternating, in one run; this pairs the two sides' rows by metric name and renders the table.
// A side ran a suite once per round: its figure for a metric is the median over its rounds, and
// every round's value is listed so the spread (the noise) stays in view beside the ratio.
import { median } from "./stats.js";
import type { Row } from "./suite.js";
import { formatNumber } from "./table.js";

export interface SideRuns {
  suite: string;
  /** One list of rows per round the baseline's run of the suite finished. */
  baseline: Row[][];
  /** The same for this checkout's build. */
  ours: Row[][];
}

export interface PairedRow {
  metric: string;
  /** Ours, or the baseline's when only it has the metric. */
  unit: string;
  /** The baseline's unit (differs from `unit` only with `unitMismatch`). */
  baselineUnit: string;
  /** Median over the side's rounds; null: that side has no such metric. */
  baseline: number | null;
  ours: number | null;
  /** ours / baseline; null when a side lacks it, the units differ or the baseline is 0. */
  ratio: number | null;
  /** Each round's value, per side, in the order they ran. */
  baselineValues: number[];
  oursValues: number[];
  /** Set when the sides name the metric alike but measure it in different units. */
  unitMismatch?: string;
}

/** The values of each metric, in order of first appearance. */
function collect(rounds: readonly Row[][]): Map<string, { unit: string; values: number[] }> {
  const out = new Map<string, { unit: string; values: number[] }>();
  for (const rows of rounds) {
    for (const r of rows) {
      const seen = out.get(r.metric);
      if (seen) seen.values.push(r.value);
      else out.set(r.metric, { unit: r.unit, values: [r.value] });
    }
  }
  return out;
}

/** Our metrics in our order, then those only the baseline has, in its order. */
export function pairRows(runs: Pick<SideRuns, "baseline" | "ours">): PairedRow[] {
  const base = collect(runs.baseline);
  const ours = collect(runs.ours);
  const names = [...ours.keys(), ...[...base.keys()].filter((k) => !ours.has(k))];
  return names.map((metric) => {
    const b = base.get(metric);
    const o = ours.get(metric);
    const bv = b ? median(b.values) : null;
    const ov = o ? median(o.values) : null;
    const mismatch = b && o && b.unit !== o.unit ? `baseline in ${b.unit}, ours in ${o.unit}` : undefined;
    const ratio = bv !== null && ov !== null && !mismatch && bv !== 0 && Number.isFinite(bv) && Number.isFinite(ov) ? ov / bv : null;
    return {
      metric,
      unit: (o ?? b)?.unit ?? "",
      baselineUnit: (b ?? o)?.unit ?? "",
      baseline: bv,
      ours: ov,
      ratio,
      baselineValues: b?.values ?? [],
      oursValues: o?.values ?? [],
      ...(mismatch ? { unitMismatch: mismatch } : {}),
    };
  });
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

function rounds(values: readonly number[]): string {
  return values.map(formatNumber).join(", ");
}

/** The side-by-side table (Markdown), one line per metric of each suite. */
export function renderSideBySide(results: readonly SideRuns[]): string {
  const header = ["suite", "measure", "baseline", "ours", "ours / baseline", "each round (baseline; ours)"];
  const lines = [`| ${header.join(" | ")} |`, `|${header.map((_, i) => (i >= 2 && i <= 4 ? "---:" : "---")).join("|")}|`];
  for (const s of results) {
    for (const p of pairRows(s)) {
      const value = (v: number | null, side: string, unit: string): string => (v === null ? `(${side} has none)` : `${formatNumber(v)} ${unit}`);
      const ratio = p.ratio === null ? (p.unitMismatch ?? "") : `${p.ratio.toFixed(2)}x`;
      const each = `${rounds(p.baselineValues) || "–"}; ${rounds(p.oursValues) || "–"}`;
      lines.push(`| ${[s.suite, p.metric, value(p.baseline, "baseline", p.baselineUnit), value(p.ours, "this checkout", p.unit), ratio, each].map(cell).join(" | ")} |`);
    }
  }
  return lines.join("\n");
}
