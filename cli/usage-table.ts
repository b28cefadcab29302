// The table `insightsctl usage` prints (docs/usage.md): at most 80 columns whatever the figures,
// big numbers abbreviated (1.57M, 34.5k, by the rule of shared/i18n/numbers.ts; the JSON keeps them
// exact, and so does --exact, which lets the table grow wider), one line of who and which models
// under each row (or one sub-row per model with --breakdown, which adds reasoning), one sub-row per
// provider in the calendar reports when more than one is read, a totals row, and a footnote when
// some responses have no known price (never shown as $0). The blocks report adds the active
// block's burn rate and projection.
import { formatCompact, formatUsd } from "../shared/i18n/numbers.js";
import { clockLabel, dayKey } from "../shared/queries/time.js";
import type { UsageFigures, UsageReport, UsageRow } from "../shared/queries/usage-report.js";
import { displayName } from "../shared/providers/registry.js";

const TABLE_WIDTH = 80;

interface TableOptions {
  /** Bold headings and dim detail lines (a terminal without NO_COLOR). */
  color: boolean;
  width?: number;
  /** This user's home: paths under it are shown as `~/…` (the JSON keeps them whole). */
  home?: string | null;
  /** Every figure in full (1,574,828 and $1234.57), the table as wide as they need. */
  exact?: boolean;
}


/** A count in full, with thousands separators. */
const exactNumber = (n: number): string => Math.round(n).toLocaleString("en-US");
/** USD to the cent in full; a cent's fraction is "<$0.01", not $0.00. */
const exactMoney = (n: number): string => (n > 0 && n < 0.005 ? "<$0.01" : `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);

/** A count by the rule the dashboard and the card use (shared/i18n/numbers.ts): 999, 1.23k, 34.5k, 1.57M. */
export function compactNumber(n: number): string {
  return formatCompact(n, "en");
}

/** USD by the shared rule, at most 8 characters: $0.0031, $0.42, $1,234, $1.57M. */
export function money(n: number): string {
  return formatUsd(n, "en");
}

/** The cost cell: "unpriced" when no response of the row has a price, a marked partial figure when some lack one. */
export function costCell(f: UsageFigures, exact = false): string {
  if (f.unpricedResponses > 0 && f.unpricedResponses >= f.responses) return "unpriced";
  return (exact ? exactMoney : money)(f.costUsd) + (f.costComplete ? "" : "*");
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

const KEY_HEADER = { daily: "Date", weekly: "Week of", monthly: "Month", session: "Session", project: "Project", blocks: "Block start" } as const;
const TITLE = { daily: "by day", weekly: "by week", monthly: "by month", session: "by session", project: "by project", blocks: "by 5-hour block" } as const;

interface Line {
  kind: "row" | "sub" | "total";
  key: string;
  cells: string[];
  detail: string | null;
}

function numericCells(f: UsageFigures, reasoning: boolean, exact: boolean): string[] {
  const n = exact ? exactNumber : compactNumber;
  return [
    n(f.inputTokens),
    n(f.outputTokens),
    ...(reasoning ? [n(f.reasoningTokens)] : []),
    n(f.cacheWriteTokens),
    n(f.cacheReadTokens),
    n(f.totalTokens),
    costCell(f, exact),
  ];
}

/** Whether the calendar rows are split per provider: more than one was read and none was asked for. */
// With --breakdown the sub-rows are models; provider sub-rows beside them would read as one list.
const splitByProvider = (r: UsageReport): boolean => r.provider === null && r.totals.providers.length > 1 && r.rows.some((x) => x.byProvider) && !r.rows.some((x) => x.breakdown);

/** A block's start as a person reads it, in the report's zone: `11-23 21:00`. */
const blockLabel = (row: UsageRow, zone: string): string => (row.block?.gap ? "(gap)" : (when(row.block?.start, zone) ?? row.key));

function hours(ms: number): string {
  const m = Math.round(ms / 60_000);
  return m >= 60 ? `${Math.floor(m / 60)}h${m % 60 ? ` ${m % 60}m` : ""}` : `${m}m`;
}

/** The lines under a block: the gap's length; a block's end; the active one's pace and projection, an estimate. */
function blockDetail(row: UsageRow, zone: string, exact: boolean): string[] {
  const b = row.block;
  if (!b) return [];
  if (b.gap) return [`no activity for ${hours(Date.parse(b.end) - Date.parse(b.start))}`];
  const end = clockLabel(Date.parse(b.end), zone);
  if (!b.active) return [];
  const out = [`ACTIVE until ${end}`];
  const n = exact ? exactNumber : compactNumber;
  const m = exact ? exactMoney : money;
  if (b.burnRate) out.push(`burn rate ${n(b.burnRate.tokensPerMinute)} tokens/min, ${m(b.burnRate.costPerHour)}/h`);
  if (b.projection) out.push(`projected by ${end} (estimate): ${n(b.projection.totalTokens)} tokens, ${m(b.projection.costUsd)}`);
  return out;
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
  } else if (r.provider === null && !splitByProvider(r)) {
    parts.push(row.providers.join(", "));
  }
  if (row.block?.gap) return null;
  if (!r.rows.some((x) => x.breakdown)) parts.push(row.models.map(label).join(", "));
  const text = parts.filter(Boolean).join(" · ");
  return text || null;
}

function title(r: UsageReport): string {
  const range = r.since && r.until ? (r.since === r.until ? r.since : `${r.since} to ${r.until}`) : r.since ? `from ${r.since}` : r.until ? `until ${r.until}` : "all recorded";
  const week = r.report === "weekly" && r.weekStart ? `weeks from ${r.weekStart[0]?.toUpperCase()}${r.weekStart.slice(1)}` : null;
  return [`Usage ${TITLE[r.report]}`, r.provider, week, range, r.timeZone, r.demo ? "demo data" : null].filter(Boolean).join(", ");
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
  const exact = o.exact === true;
  // --exact: the figures decide the width, not the terminal.
  const width = exact ? Number.POSITIVE_INFINITY : (o.width ?? TABLE_WIDTH);
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
  const split = splitByProvider(r);
  for (const row of r.rows) {
    const key = r.report === "session" ? sessionLabel(row) : r.report === "project" ? tilde(row.key, o.home) : r.report === "blocks" ? blockLabel(row, r.timeZone) : row.key;
    const details = [detailOf(row, r, o.home, label), ...blockDetail(row, r.timeZone, exact)].filter((x): x is string => !!x);
    lines.push({ kind: "row", key, cells: numericCells(row, reasoning, exact), detail: details.join("\n") || null });
    if (split) for (const p of row.byProvider ?? []) lines.push({ kind: "sub", key: `  ${displayName(p.provider)}`, cells: numericCells(p, reasoning, exact), detail: null });
    for (const b of row.breakdown ?? []) lines.push({ kind: "sub", key: `  ${label(b.model)}`, cells: numericCells(b, reasoning, exact), detail: null });
  }
  lines.push({ kind: "total", key: "Total", cells: numericCells(r.totals, reasoning, exact), detail: null });

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
    for (const d of l.detail?.split("\n") ?? []) out.push(dim(cutEnd(`  ${d}`, width)));
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
