// The Claude Code format doc's counting rules done by hand on a transcript's raw lines (format doc
// §3, §4, §6), for tests that compare what the core shows with what the files say: one response per
// distinct (message.id, requestId) of a non-synthetic assistant line, usage from its first line,
// cost at the list prices of §4; prompts by §3; tool calls by tool_use block; an error per
// synthetic API-error line; a warning per retried attempt. Independent of the code under test.
import * as path from "node:path";
import * as assert from "uvu/assert";
import { expectedPrompts, rawLines, transcriptFiles, type RawLine } from "./claude-code-fixture.js";
import type { Figures } from "./figures.js";

export type { RawLine };

/** List prices per million tokens from format doc §4: input, output, 5 m cache write, cache read. */
export const LIST_PRICES: Record<string, { input: number; output: number; cacheWrite5m: number; cacheRead: number }> = {
  "claude-sonnet-4-5": { input: 3, output: 15, cacheWrite5m: 3.75, cacheRead: 0.3 },
  "claude-haiku-4-5": { input: 1, output: 5, cacheWrite5m: 1.25, cacheRead: 0.1 },
  "claude-opus-4-5": { input: 5, output: 25, cacheWrite5m: 6.25, cacheRead: 0.5 },
};

/** A transcript's figures, or a session's: the kit's Figures, less `unpriced` (every fixture model has a list price). */
export type Sums = Omit<Figures, "unpriced">;

export const zero = (): Sums => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, cost: 0, responses: 0, toolCalls: 0, prompts: 0, errors: 0, warnings: 0 });

export function add(a: Sums, b: Sums): Sums {
  for (const k of Object.keys(a) as Array<keyof Sums>) a[k] += b[k];
  return a;
}

/** USD of one response at the list price of its model (the fixture has no 1 h cache writes and no long-context request). */
export function listCost(model: string, u: RawLine): number {
  const p = LIST_PRICES[model.replace(/-\d{8}$/, "")];
  if (!p) throw new Error(`no list price for ${model} in format doc §4`);
  assert.is(u.cache_creation?.ephemeral_1h_input_tokens ?? 0, 0, "the fixture has 1 h cache writes: the list price table does not cover them");
  assert.ok(u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens <= 200_000, "a long-context request: the list price table does not cover it");
  return (u.input_tokens * p.input + u.output_tokens * p.output + u.cache_creation_input_tokens * p.cacheWrite5m + u.cache_read_input_tokens * p.cacheRead) / 1e6;
}

/**
 * One transcript's figures by the format doc: a response per distinct (message.id, requestId) of a
 * non-synthetic assistant line, its usage from its first line; tool calls by tool_use block; an
 * error per synthetic API-error line; a warning per retried attempt. `seen` spans files.
 */
export function fileSums(lines: RawLine[], subagent: boolean, seen: Set<string>): Sums {
  const s = zero();
  s.prompts = expectedPrompts(lines, subagent);
  for (const l of lines) {
    if (l.type === "system" && l.subtype === "api_error") s.warnings++;
    if (l.type !== "assistant") continue;
    if (l.message.model === "<synthetic>") {
      if (l.isApiErrorMessage) s.errors++;
      continue;
    }
    s.toolCalls += (l.message.content ?? []).filter((b: RawLine) => b.type === "tool_use").length;
    const key = `${l.message.id}|${l.requestId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const u = l.message.usage;
    s.responses++;
    s.input += u.input_tokens;
    s.output += u.output_tokens;
    s.cacheRead += u.cache_read_input_tokens;
    s.cacheWrite += u.cache_creation_input_tokens;
    s.reasoning += u.output_tokens_details?.thinking_tokens ?? 0;
    s.cost += listCost(l.message.model, u);
  }
  return s;
}

export interface Transcript {
  rel: string;
  file: string;
  key: string;
  parentKey: string | null;
  subagent: boolean;
  lines: RawLine[];
}

/** Every transcript of the copy, with the session key design §9 gives it. */
export function transcripts(claudeDir: string): Transcript[] {
  return transcriptFiles(claudeDir).map((rel) => {
    const sub = /^projects\/[^/]+\/([^/]+)\/subagents\/agent-([^/]+)\.jsonl$/.exec(rel);
    const main = /^projects\/[^/]+\/([^/]+)\.jsonl$/.exec(rel);
    const key = sub ? `${sub[1]}:subagent:${sub[2]}` : (main?.[1] as string);
    return { rel, file: path.join(claudeDir, rel), key, parentKey: sub ? (sub[1] as string) : null, subagent: sub !== null, lines: rawLines(path.join(claudeDir, rel)) };
  });
}

/** Per session key and in total, reading the files in the order given (the first file holding a response owns it). */
export function expected(ts: Transcript[]): { bySession: Map<string, Sums>; total: Sums } {
  const seen = new Set<string>();
  const bySession = new Map<string, Sums>();
  const total = zero();
  for (const t of ts) {
    const s = fileSums(t.lines, t.subagent, seen);
    bySession.set(t.key, add(bySession.get(t.key) ?? zero(), s));
    add(total, s);
  }
  return { bySession, total };
}

export const sessionIdOf = (prefix: string, ts: Transcript[]): Transcript => {
  const t = ts.find((x) => !x.subagent && x.key.startsWith(prefix));
  if (!t) throw new Error(`no session ${prefix} in the fixture`);
  return t;
};

