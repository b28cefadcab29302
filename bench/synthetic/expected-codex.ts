// Independent totals of a Codex history, from the rollout files alone (not from the generator),
// per UTC day, by the counting rules of /work/shared/codex-format.md §5:
//   - one `token_usage_record` per model response: counted once per response_id;
//   - input = input_tokens - cached_input_tokens (input includes cached), cacheRead = cached,
//     output = output_tokens (reasoning included), cacheWrite = cache_write_input_tokens;
//   - its day is the UTC date of the record line.
// It also recomputes the totals the other way the doc allows, from the growth of
// token_count.info.total_token_usage (ccusage's way; duplicates and `info: null` add nothing),
// and checks that the two agree per file: the last total of each rollout equals the sum of its records.
//
//   node --import tsx bench/synthetic/expected-codex.ts <CODEX_HOME>
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { addDay, sortedDays, sumDaily, type Daily, type DayTotals } from "./daily.js";
import { jsonlFiles, readLines } from "./jsonl.js";

export interface CodexCheck {
  /** By token_usage_record (the primary rule). */
  daily: Daily;
  /** By deltas of token_count totals, dated by the token_count line. */
  dailyByTokenCount: Daily;
  files: number;
  lines: number;
  records: number;
  repeatedRecords: number;
  tokenCountLines: number;
  /** token_count lines whose total did not grow (Codex's repeats). */
  unchangedTokenCounts: number;
  nullInfoTokenCounts: number;
  /** Files whose last token_count total differs from the sum of their records, or whose total went down. */
  inconsistentFiles: string[];
  badLines: number;
}

type Json = Record<string, unknown>;
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

interface Totals {
  input: number;
  cached: number;
  output: number;
  cacheWrite: number;
}
const totalsOf = (u: unknown): Totals => {
  const o = (u ?? {}) as Json;
  return { input: num(o.input_tokens), cached: num(o.cached_input_tokens), output: num(o.output_tokens), cacheWrite: num(o.cache_write_input_tokens) };
};
const asDay = (t: Totals): Omit<DayTotals, "date"> => ({ input: t.input - t.cached, output: t.output, cacheRead: t.cached, cacheWrite: t.cacheWrite });

export async function checkCodex(codexHome: string): Promise<CodexCheck> {
  const files = jsonlFiles(path.join(codexHome, "sessions"));
  const seen = new Set<string>();
  const days = new Map<string, DayTotals>();
  const daysTc = new Map<string, DayTotals>();
  const r = { files: files.length, lines: 0, records: 0, repeatedRecords: 0, tokenCountLines: 0, unchangedTokenCounts: 0, nullInfoTokenCounts: 0, badLines: 0 };
  const inconsistentFiles: string[] = [];
  for (const file of files) {
    const fileSum: Totals = { input: 0, cached: 0, output: 0, cacheWrite: 0 };
    let prev: Totals = { input: 0, cached: 0, output: 0, cacheWrite: 0 };
    let wentDown = false;
    for await (const line of readLines(file)) {
      r.lines++;
      const isRecord = line.includes('"token_usage_record"');
      if (!isRecord && !line.includes('"token_count"')) continue;
      let o: Json;
      try {
        o = JSON.parse(line) as Json;
      } catch {
        r.badLines++;
        continue;
      }
      const payload = (o.payload ?? {}) as Json;
      const date = String(o.timestamp).slice(0, 10);
      if (o.type === "token_usage_record") {
        const id = String(payload.response_id);
        if (seen.has(id)) {
          r.repeatedRecords++;
          continue;
        }
        seen.add(id);
        r.records++;
        const u = totalsOf(payload.usage);
        for (const k of Object.keys(u) as (keyof Totals)[]) fileSum[k] += u[k];
        addDay(days, date, asDay(u));
      } else if (o.type === "event_msg" && payload.type === "token_count") {
        r.tokenCountLines++;
        if (payload.info === null || payload.info === undefined) {
          r.nullInfoTokenCounts++;
          continue;
        }
        const total = totalsOf(((payload.info ?? {}) as Json).total_token_usage);
        const grew = total.input + total.output > prev.input + prev.output;
        if (!grew) {
          if (total.input + total.output < prev.input + prev.output) wentDown = true;
          r.unchangedTokenCounts++;
          continue;
        }
        addDay(daysTc, date, asDay({ input: total.input - prev.input, cached: total.cached - prev.cached, output: total.output - prev.output, cacheWrite: total.cacheWrite - prev.cacheWrite }));
        prev = total;
      }
    }
    const same = (Object.keys(fileSum) as (keyof Totals)[]).every((k) => fileSum[k] === prev[k]);
    if (!same || wentDown) inconsistentFiles.push(path.relative(codexHome, file));
  }
  return { daily: sortedDays(days), dailyByTokenCount: sortedDays(daysTc), inconsistentFiles, ...r };
}

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: expected-codex.ts <CODEX_HOME>");
  const c = await checkCodex(dir);
  const { daily, dailyByTokenCount, ...rest } = c;
  process.stdout.write(`${JSON.stringify({ ...rest, days: daily.length, totals: sumDaily(daily), totalsByTokenCount: sumDaily(dailyByTokenCount), daily }, null, 2)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
