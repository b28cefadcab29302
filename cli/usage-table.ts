// The table `insightsctl usage` prints (docs/usage.md): at most 80 columns whatever the figures,
// big numbers abbreviated (1.57M, 34.5k, by the rule of shared/i18n/numbers.ts; the JSON keeps them exact), one line of who and which
// models under each row (or one sub-row per model with --breakdown, which adds reasoning), a
// totals row, and a footnote when some responses have no known price (never shown as $0).
import { formatCompact, formatUsd } from "../shared/i18n/numbers.js";
import { clockLabel, dayKey } from "../shared/queries/time.js";
import type { UsageFigures, UsageReport, UsageRow } from "../shared/queries/usage-report.js";

export const TABLE_WIDTH = 80;

export interface TableOptions {
  /** Bold headings and dim detail lines (a terminal without NO_COLOR). */
  color: boolean;
  width?: number;
  /** This user's home: paths under it are shown as `~/…` (the JSON keeps them whole). */
  home?: string | null;
}

/** A count by the rule the dashboard and the card use (shared/i18n/numbers.ts): 999, 1.23k, 34.5k, 1.57M. */
export function compactNumber(n: number): string {
  return formatCompact(n, "en");
}

/** USD by the shared rule, at most 8 characters: $0.0031, $0.42, $1,234, $1.57M. */
export function money(n: number): string {
  return formatUsd(n, "en");
}

/** The cost cell: "unpriced" when no response of the row has a price, a marked partial figure when some lack one. */
export function costCell(f: UsageFigures): string {
  if (f.unpricedResponses > 0 && f.unpricedResponses >= f.responses) return "unpriced";
  return money(f.costUsd) + (f.costComplete ? "" : "*");
}

/** A model as a table shows it: without the vendor's `claude-` and a trailing date stamp. */
export function shortModel(model: string): string {
  return model.replace(/^claude-/, "").replace(/-\d{8}$/, "");
}

/**
 * The label of each model in one table, unique within it: the short form, unless two models would
 * share it (OpenClaw's `claude-sonnet-4-5` and Claude Code's `claude-sonnet-4-5-20250929` both read
 * "sonnet-4-5"); those keep their date stamp, and if that still does not tell them apart, their full id.
 */
export function modelLabels(models: Iterable<string>): Map<string, string> {
  const ids = [...new Set(models)];
  const steps: Array<(m: string) => string> = [shortModel, (m) => m.replace(/^claude-/, ""), (m) => m];
  const labels = new Map<string, string>();
  for (const id of ids) {
    // The shortest form no other model of the table shares.
    for (const step of steps) {
      const label = step(id);
      labels.set(id, label);
      if (!ids.some((other) => other !== id && step(other) === label)) break;
    }
  }
  return labels;
}

const cutEnd = (s: string, w: number): string => (s.length <= w ? s : w <= 1 ? s.slice(0, w) : `${s.slice(0, w - 1)}…`);
const cutStart = (s: string, w: number): string => (s.length <= w ? s : w <= 1 ? s.slice(-w) : `…${s.slice(-(w - 1))}`);
/** Both ends kept: session ids that share a time-based prefix (Codex's) differ at the end. */
const cutMiddle = (s: string, w: number): string => {
  if (s.length <= w) return s;
  if (w <= 3) return cutEnd(s, w);
  const head = Math.ceil((w - 1) / 2);
  return `${s.slice(0, head)}…${s.slice(s.length - (w - 1 - head))}`;
};

function tilde(path: string, home: string | null | undefined): string {
  if (!home || home === "/") return path;
  const h = home.endsWith("/") ? home.slice(0, -1) : home;
  return path === h ? "~" : path.startsWith(`${h}/`) ? `~${path.slice(h.length)}` : path;
}

const KEY_HEADER = { daily: "Date", monthly: "Month", session: "Session", project: "Project" } as const;
const TITLE = { daily: "by day", monthly: "by month", session: "by session", project: "by project" } as const;

interface Line {
  kind: "row" | "sub" | "total";
  key: string;
  cells: string[];
  detail: string | null;
}

function numericCells(f: UsageFigures, reasoning: boolean): string[] {
  return [
    compactNumber(f.inputTokens),
    compactNumber(f.outputTokens),
    ...(reasoning ? [compactNumber(f.reasoningTokens)] : []),
    compactNumber(f.cacheWriteTokens),
    compactNumber(f.cacheReadTokens),
    compactNumber(f.totalTokens),
    costCell(f),
  ];
}

/** A session key as a person reads it: OpenClaw's without its `agent:<id>:` prefix. */
function sessionLabel(row: UsageRow): string {
  const m = /^agent:[^:]+:(.+)$/.exec(row.key);
  return m?.[1] ?? row.key;
}

function when(iso: string | null | undefined, zone: string): string | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return `${dayKey(ms, zone).slice(5)} ${clockLabel(ms, zone)}`;
}

function detailOf(row: UsageRow, r: UsageReport, home: string | null | undefined, label: (model: string) => string): string | null {
  const parts: string[] = [];
  if (r.report === "session") {
    parts.push(row.providers.join(", "));
    // OpenClaw sessions have no working directory: their agent says where they ran.
    parts.push(row.project ? tilde(row.project, home) : row.sources.join(", "));
    const started = when(row.startedAt, r.timeZone);
    const last = when(row.lastActivityAt, r.timeZone);
    if (started || last) parts.push(started === last || !started ? (last ?? "") : `${started} → ${last ?? "?"}`);
    if (row.subagents) parts.push(`+${row.subagents} sub-agent${row.subagents === 1 ? "" : "s"}`);
  } else if (r.provider === null) {
    parts.push(row.providers.join(", "));
  }
  if (!r.rows.some((x) => x.breakdown)) parts.push(row.models.map(label).join(", "));
  const text = parts.filter(Boolean).join(" · ");
  return text || null;
}

function title(r: UsageReport): string {
  const range = r.since && r.until ? (r.since === r.until ? r.since : `${r.since} to ${r.until}`) : r.since ? `from ${r.since}` : r.until ? `until ${r.until}` : "all recorded";
  return [`Usage ${TITLE[r.report]}`, r.provider, range, r.timeZone, r.demo ? "demo data" : null].filter(Boolean).join(", ");
}

/** Wraps words to `width`, continuation lines indented by two spaces. */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= width || !line) line = next;
    else {
      out.push(line);
      line = `  ${word}`;
    }
  }
  if (line) out.push(line);
  return out.map((l) => cutEnd(l, width));
}

export function usageTable(r: UsageReport, o: TableOptions): string[] {
  const width = o.width ?? TABLE_WIDTH;
  const bold = (s: string): string => (o.color ? `\x1b[1m${s}\x1b[22m` : s);
  const dim = (s: string): string => (o.color ? `\x1b[2m${s}\x1b[22m` : s);
  const out = wrap(title(r), width).map(bold);
  if (r.rows.length === 0) {
    out.push("No usage recorded in this range.");
    return out;
  }
  const reasoning = r.rows.some((x) => x.breakdown);
  const headers = ["Input", "Output", ...(reasoning ? ["Reasoning"] : []), "Cache W", "Cache R", "Total", "Cost"];
  const labels = modelLabels(r.rows.flatMap((row) => [...row.models, ...(row.breakdown ?? []).map((b) => b.model)]));
  const label = (model: string): string => labels.get(model) ?? model;
  const lines: Line[] = [];
  for (const row of r.rows) {
    const key = r.report === "session" ? sessionLabel(row) : r.report === "project" ? tilde(row.key, o.home) : row.key;
    lines.push({ kind: "row", key, cells: numericCells(row, reasoning), detail: detailOf(row, r, o.home, label) });
    for (const b of row.breakdown ?? []) lines.push({ kind: "sub", key: `  ${label(b.model)}`, cells: numericCells(b, reasoning), detail: null });
  }
  lines.push({ kind: "total", key: "Total", cells: numericCells(r.totals, reasoning), detail: null });

  const widths = headers.map((h, i) => Math.max(h.length, ...lines.map((l) => (l.cells[i] as string).length)));
  const numeric = widths.reduce((a, b) => a + b, 0);
  const keyNatural = Math.max(KEY_HEADER[r.report].length, ...lines.map((l) => l.key.length));
  // Two spaces between columns when everything fits, else one; then the key column gives way.
  const gap = keyNatural + numeric + 2 * headers.length <= width ? 2 : 1;
  const keyWidth = Math.max(4, Math.min(keyNatural, width - numeric - gap * headers.length));
  const pad = " ".repeat(gap);
  // Projects are paths: their end names them. Session ids keep both ends. Anything else: its start.
  const cut = r.report === "project" ? cutStart : r.report === "session" ? cutMiddle : cutEnd;
  const fitKey = (l: Line): string => (l.kind === "row" ? cut : cutEnd)(l.key, keyWidth).padEnd(keyWidth);
  const format = (key: string, cells: readonly string[]): string => key + cells.map((c, i) => pad + c.padStart(widths[i] as number)).join("");
  const tableWidth = keyWidth + numeric + gap * headers.length;
  const rule = "-".repeat(tableWidth);

  out.push(bold(format(KEY_HEADER[r.report].padEnd(keyWidth), headers)), rule);
  for (const l of lines) {
    if (l.kind === "total") out.push(rule);
    const text = format(fitKey(l), l.cells);
    out.push(l.kind === "total" ? bold(text) : l.kind === "sub" ? dim(text) : text);
    if (l.detail) out.push(dim(cutEnd(`  ${l.detail}`, width)));
  }
  if (!r.totals.costComplete) {
    const n = r.totals.unpricedResponses;
    out.push(
      "",
      ...wrap(
        `* Partial cost: ${n} response${n === 1 ? "" : "s"} of ${r.totals.unpricedModels.join(", ")} ha${n === 1 ? "s" : "ve"} no known price; their tokens count, their cost does not. Set a price in the config's \`prices\` (docs/pricing.md).`,
        width,
      ),
    );
  }
  return out;
}
