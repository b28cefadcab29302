// The result table, as Markdown so it reads in a terminal and pastes into docs/benchmarks.md.
import { verdict, type Row } from "./suite.js";

export interface SuiteRows {
  suite: string;
  rows: Row[];
}

/** 3 significant digits, no exponent: 1234 -> "1234", 12.345 -> "12.3", 0.01234 -> "0.0123". */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const abs = Math.abs(v);
  if (abs >= 100) return v.toFixed(0);
  if (abs >= 10) return v.toFixed(1);
  if (abs >= 1) return v.toFixed(2);
  return v.toPrecision(3);
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

export function renderTable(results: readonly SuiteRows[]): string {
  const header = ["suite", "measure", "value", "aim", "", "how"];
  const lines = [`| ${header.join(" | ")} |`, `|${header.map((_, i) => (i === 2 || i === 3 ? "---:" : "---")).join("|")}|`];
  for (const { suite, rows } of results) {
    for (const r of rows) {
      const aim = r.aim ? `${r.aim.op === "<=" ? "≤" : "≥"} ${formatNumber(r.aim.limit)} ${r.unit}` : "";
      lines.push(`| ${[suite, r.metric, `${formatNumber(r.value)} ${r.unit}`, aim, verdict(r), r.note ?? ""].map(cell).join(" | ")} |`);
    }
  }
  return lines.join("\n");
}
