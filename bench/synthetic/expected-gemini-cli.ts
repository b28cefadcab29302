// Independent totals of a Gemini CLI history, from the session files alone (not from the
// generator, nor from our reader), per UTC day, by the counting rule of
// /work/shared/gemini-cli-format.md §5:
//   - one response = one top-level `gemini` record id with a `tokens` object, counted once (the
//     record is written again with its toolCalls); `$set.messages` re-listings never count;
//   - input = input - cached + tool, cacheRead = cached, output = output + thoughts;
//   - its day is the UTC date of the record's timestamp (the first write's).
//
//   node --import tsx bench/synthetic/expected-gemini-cli.ts <GEMINI dir>
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { addDay, sortedDays, type Daily, type DayTotals } from "./daily.js";
import { jsonlFiles, readLines } from "./jsonl.js";

export interface GeminiCliCheck {
  daily: Daily;
  files: number;
  lines: number;
  responses: number;
  /** Lines that repeat a response already counted (tool rounds). */
  repeatedRecords: number;
  badLines: number;
}

type Json = Record<string, unknown>;
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

export async function checkGeminiCli(geminiDir: string): Promise<GeminiCliCheck> {
  const files = jsonlFiles(path.join(geminiDir, "tmp"));
  const days = new Map<string, DayTotals>();
  // Record ids are UUIDs, unique across sessions: one set for the whole history.
  const seen = new Set<string>();
  const out: GeminiCliCheck = { daily: [], files: files.length, lines: 0, responses: 0, repeatedRecords: 0, badLines: 0 };
  for (const file of files) {
    for await (const line of readLines(file)) {
      out.lines++;
      let o: Json;
      try {
        o = JSON.parse(line) as Json;
      } catch {
        out.badLines++;
        continue;
      }
      const t = o.tokens as Json | null | undefined;
      if (o.type !== "gemini" || typeof o.id !== "string" || !t || typeof t !== "object") continue;
      if (seen.has(o.id)) {
        out.repeatedRecords++;
        continue;
      }
      seen.add(o.id);
      out.responses++;
      addDay(days, String(o.timestamp).slice(0, 10), { input: num(t.input) - num(t.cached) + num(t.tool), output: num(t.output) + num(t.thoughts), cacheRead: num(t.cached), cacheWrite: 0 });
    }
  }
  out.daily = sortedDays(days);
  return out;
}

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: expected-gemini-cli.ts <GEMINI dir (…/.gemini)>");
  const c = await checkGeminiCli(dir);
  process.stdout.write(`${JSON.stringify({ ...c, daily: undefined, days: c.daily.length }, null, 2)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
