// `insightsctl export`: daily rollups per host, provider, source, model and project, for a fleet's
// spreadsheet or warehouse (docs/fleet.md "Export"). Built on usageCells (usage-cells.ts), so the
// figures are the usage report's. Each row is the whole of its key, (host, date, provider, source,
// model, project), as the store knows it when exported: merging exports replaces rows with the same
// key instead of adding them, so the same day exported twice (or a day still going on, exported
// again tomorrow) is never counted twice.
import { InsightsError } from "../base/errors.js";
import { providerOfSourceId, type ProviderName } from "../providers/contract.js";
import type { Store } from "../store/store.js";
import { dayKey } from "./time.js";
import { projectKey, usageCells } from "./usage-cells.js";
import { parseDay, parseProvider, parseTimeZone } from "./usage-params.js";
import type { UsageFigures } from "./usage-report.js";
import { add, zero, type Sums } from "./usage-figures.js";
import { figures } from "./usage-sums.js";

const EXPORT_SCHEMA_VERSION = 1;
/** The columns that make a row's identity, in order. */
export const EXPORT_KEY = ["host", "date", "provider", "source", "model", "project"] as const;
/** Every column, in order: the key, the zone of `date`, then the figures. */
export const EXPORT_COLUMNS = [
  ...EXPORT_KEY,
  "timeZone",
  "inputTokens",
  "outputTokens",
  "cacheWriteTokens",
  "cacheReadTokens",
  "reasoningTokens",
  "totalTokens",
  "responses",
  "unpricedResponses",
  "costUsd",
] as const;

export interface ExportParams {
  /** First and last day (inclusive, `YYYY-MM-DD` in timeZone); until null: up to today. */
  since: string;
  until: string | null;
  timeZone: string;
  provider: ProviderName | null;
}

/** The figures are the usage report's (docs/usage.md), without costComplete: unpricedResponses tells it. */
export interface ExportRow extends Omit<UsageFigures, "costComplete"> {
  host: string;
  /** `YYYY-MM-DD` in timeZone. */
  date: string;
  provider: ProviderName;
  /** `agent:main`, `claude-code:default`, `codex:default`. */
  source: string;
  model: string;
  /** The working directory; OpenClaw's agent by its source id; "(no project)" when none is known. */
  project: string;
  timeZone: string;
}

export interface ExportReport {
  schemaVersion: typeof EXPORT_SCHEMA_VERSION;
  host: string;
  timeZone: string;
  since: string;
  until: string | null;
  provider: ProviderName | null;
  currency: "USD";
  /** When the figures were read (ISO, UTC): of two rows with one key, the later export's is newer. */
  exportedAt: string;
  /** The bundled demo state was read: the figures are not anyone's usage. */
  demo: boolean;
  /** Every source had finished its first read of the transcripts. */
  scanComplete: boolean;
  key: typeof EXPORT_KEY;
  rows: ExportRow[];
}

const invalid = (message: string, param: string): InsightsError => new InsightsError("INVALID_PARAM", message, { param });
const PARAM_KEYS = new Set(["since", "until", "timeZone", "provider"]);

/** The control socket's `export` params and the CLI's flags, checked alike (INVALID_PARAM naming the flag). */
export function parseExportParams(raw: Record<string, unknown>, defaultZone: string): ExportParams {
  for (const k of Object.keys(raw)) if (!PARAM_KEYS.has(k)) throw invalid(`unknown export parameter ${JSON.stringify(k.slice(0, 40))}; known: ${[...PARAM_KEYS].join(", ")}`, k);
  const str = (k: string, flag: string): string | null => {
    const v = raw[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== "string") throw invalid(`${flag} must be a string`, flag);
    return v;
  };
  const since = str("since", "--since");
  if (since === null) throw invalid("--since is required: the first day to export, YYYY-MM-DD", "--since");
  const until = str("until", "--until");
  const zone = str("timeZone", "--timezone");
  const provider = str("provider", "--provider");
  const out: ExportParams = {
    since: parseDay(since, "--since"),
    until: until === null ? null : parseDay(until, "--until"),
    timeZone: parseTimeZone(zone ?? defaultZone),
    provider: provider === null ? null : parseProvider(provider),
  };
  if (out.until !== null && out.since > out.until) throw invalid(`--since ${out.since} is after --until ${out.until}`, "--since");
  return out;
}

interface ExportOptions {
  host: string;
  now: number;
  rawDays: number;
  demo: boolean;
  scanComplete: boolean;
}

const DAY = 86_400_000;

export function queryExport(store: Store, p: ExportParams, o: ExportOptions): ExportReport {
  // Wide enough for every instant of the days in any zone (UTC-12 to UTC+14); days are cut below.
  const from = Date.parse(`${p.since}T00:00:00Z`) - DAY;
  const to = p.until === null ? null : Date.parse(`${p.until}T00:00:00Z`) + 2 * DAY;
  const rows = new Map<string, { head: Omit<ExportRow, keyof UsageFigures>; sums: Sums }>();
  for (const c of usageCells(store, { now: o.now, rawDays: o.rawDays, provider: p.provider, from, to })) {
    const date = dayKey(c.at, p.timeZone);
    if (date < p.since || (p.until !== null && date > p.until)) continue;
    const provider = providerOfSourceId(c.sourceId);
    if (!provider) continue;
    const model = c.model || "unknown";
    const project = projectKey(c.sourceId, c.project);
    const key = JSON.stringify([date, c.sourceId, model, project]);
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { head: { host: o.host, date, provider, source: c.sourceId, model, project, timeZone: p.timeZone }, sums: zero() }));
    add(r.sums, c);
  }
  const out: ExportRow[] = [...rows.values()].map(({ head, sums }) => {
    // Cost last, as EXPORT_COLUMNS has it.
    const { costComplete: _complete, costUsd, ...tokens } = figures(sums);
    return { ...head, ...tokens, costUsd };
  });
  // A stable order, so two exports of the same data are the same text.
  out.sort((a, b) => cmp(a.date, b.date) || cmp(a.source, b.source) || cmp(a.model, b.model) || cmp(a.project, b.project));
  return {
    schemaVersion: EXPORT_SCHEMA_VERSION,
    host: o.host,
    timeZone: p.timeZone,
    since: p.since,
    until: p.until,
    provider: p.provider,
    currency: "USD",
    exportedAt: new Date(o.now).toISOString(),
    demo: o.demo,
    scanComplete: o.scanComplete,
    key: EXPORT_KEY,
    rows: out,
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A spreadsheet would run a cell starting with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** RFC 4180 CSV: a header of EXPORT_COLUMNS, one line per row, CRLF line ends. */
export function exportCsv(report: ExportReport): string {
  const lines = [EXPORT_COLUMNS.join(",")];
  for (const r of report.rows) lines.push(EXPORT_COLUMNS.map((c) => csvField(r[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}

function csvField(v: string | number): string {
  if (typeof v === "number") return String(v);
  // Text from provider files (project paths, model names) must not become a formula: a leading
  // quote makes a spreadsheet show it as text. Deterministic, so merge keys stay stable.
  const text = FORMULA_START.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
