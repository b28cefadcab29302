// Independent totals of a Claude Code history, from the files alone (not from the generator):
// per UTC day, input / output / cache read / cache write, by the counting rules of
// /work/shared/claude-code-format.md §4-§6:
//   - a billable response is an `assistant` line whose message.model is not "<synthetic>";
//   - it is counted once per (message.id, requestId), whatever the number of lines (one per
//     content block, each repeating the full usage), across all files, sub-agents included;
//   - its day is the UTC date of the first of its lines met (files in path order, lines in file order).
// So the integrator can assert that `insightsctl usage daily --json` and ccusage agree with it.
//
//   node --import tsx bench/synthetic/expected-claude-code.ts <CLAUDE_CONFIG_DIR>
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { addDay, sortedDays, sumDaily, type Daily, type DayTotals } from "./daily.js";
import { jsonlFiles, readLines } from "./jsonl.js";

export interface ClaudeCodeCheck {
  daily: Daily;
  files: number;
  lines: number;
  assistantLines: number;
  /** Distinct (message.id, requestId) keys with a real model. */
  responses: number;
  /** Assistant lines that repeat a key already counted (extra content blocks). */
  repeatedLines: number;
  syntheticLines: number;
  /** Lines that are not JSON (a partly written last line, say). */
  badLines: number;
  perModel: Record<string, Omit<DayTotals, "date">>;
}

type Json = Record<string, unknown>;
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

export async function checkClaudeCode(configDir: string): Promise<ClaudeCodeCheck> {
  const files = jsonlFiles(path.join(configDir, "projects"));
  const seen = new Set<string>();
  const days = new Map<string, DayTotals>();
  const perModel: ClaudeCodeCheck["perModel"] = {};
  const r = { files: files.length, lines: 0, assistantLines: 0, responses: 0, repeatedLines: 0, syntheticLines: 0, badLines: 0 };
  for (const file of files) {
    for await (const line of readLines(file)) {
      r.lines++;
      // Every assistant line has this exact text (compact JSON); anything else is skipped unparsed.
      if (!line.includes('"type":"assistant"')) continue;
      let o: Json;
      try {
        o = JSON.parse(line) as Json;
      } catch {
        r.badLines++;
        continue;
      }
      if (o.type !== "assistant") continue;
      r.assistantLines++;
      const message = (o.message ?? {}) as Json;
      if (message.model === "<synthetic>") {
        r.syntheticLines++;
        continue;
      }
      const key = `${String(message.id)}\u0000${String(o.requestId)}`;
      if (seen.has(key)) {
        r.repeatedLines++;
        continue;
      }
      seen.add(key);
      r.responses++;
      const u = (message.usage ?? {}) as Json;
      const t = { input: num(u.input_tokens), output: num(u.output_tokens), cacheRead: num(u.cache_read_input_tokens), cacheWrite: num(u.cache_creation_input_tokens) };
      addDay(days, String(o.timestamp).slice(0, 10), t);
      const m = (perModel[String(message.model)] ??= { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
      m.input += t.input;
      m.output += t.output;
      m.cacheRead += t.cacheRead;
      m.cacheWrite += t.cacheWrite;
    }
  }
  return { daily: sortedDays(days), perModel, ...r };
}

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: expected-claude-code.ts <CLAUDE_CONFIG_DIR>");
  const c = await checkClaudeCode(dir);
  const { daily, ...rest } = c;
  process.stdout.write(`${JSON.stringify({ ...rest, days: daily.length, totals: sumDaily(daily), daily }, null, 2)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
