// Token totals per UTC day: what the generators record, what the independent checkers recompute
// from the files, and what ccusage (or `insightsctl usage daily --json`) prints, in one shape so
// they can be compared to the token.

/** One day's tokens. `input` never includes cached input (Codex: input - cached). */
export interface DayTotals {
  /** YYYY-MM-DD, UTC. */
  date: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export type Daily = DayTotals[];

const FIELDS = ["input", "output", "cacheRead", "cacheWrite"] as const;

/** Adds to a per-day map (created on first use). */
export function addDay(days: Map<string, DayTotals>, date: string, t: Omit<DayTotals, "date">): void {
  let d = days.get(date);
  if (!d) {
    d = { date, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    days.set(date, d);
  }
  for (const f of FIELDS) d[f] += t[f];
}

export function sortedDays(days: Map<string, DayTotals>): Daily {
  return [...days.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

export function sumDaily(daily: Daily): Omit<DayTotals, "date"> {
  const t = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const d of daily) for (const f of FIELDS) t[f] += d[f];
  return t;
}

/** Days where the two disagree (a missing day counts as zeros); empty when they agree to the token. */
export function diffDaily(a: Daily, b: Daily): Array<{ date: string; a: DayTotals | null; b: DayTotals | null }> {
  const am = new Map(a.map((d) => [d.date, d]));
  const bm = new Map(b.map((d) => [d.date, d]));
  const dates = [...new Set([...am.keys(), ...bm.keys()])].sort();
  const out: Array<{ date: string; a: DayTotals | null; b: DayTotals | null }> = [];
  for (const date of dates) {
    const x = am.get(date) ?? null;
    const y = bm.get(date) ?? null;
    const zero = (d: DayTotals | null, f: (typeof FIELDS)[number]): number => (d ? d[f] : 0);
    if (FIELDS.some((f) => zero(x, f) !== zero(y, f))) out.push({ date, a: x, b: y });
  }
  return out;
}

export function describeTotals(t: Omit<DayTotals, "date">): string {
  return `input ${t.input}, output ${t.output}, cacheRead ${t.cacheRead}, cacheWrite ${t.cacheWrite}`;
}

/** "2 of 61 days differ; first 2026-10-02: input 5 vs 7, ..." or "". */
export function describeDiff(diff: ReturnType<typeof diffDaily>, days: number, names: [string, string]): string {
  if (diff.length === 0) return "";
  const first = diff[0] as (typeof diff)[number];
  const parts = FIELDS.filter((f) => (first.a?.[f] ?? 0) !== (first.b?.[f] ?? 0)).map((f) => `${f} ${first.a?.[f] ?? 0} (${names[0]}) vs ${first.b?.[f] ?? 0} (${names[1]})`);
  return `${diff.length} of ${days} days differ; first ${first.date}: ${parts.join(", ")}`;
}
