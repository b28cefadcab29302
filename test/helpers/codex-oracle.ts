// Codex's counting rules (codex-format.md §4, §5, §7) done by hand on a rollout's raw lines, for
// tests that compare what the core shows with what the files say: one response per response_id of
// a token_usage_record, mapped to the shared vocabulary (input without the cached part), under the
// model of its turn's turn_context; prompts by task_started; tool calls by function_call items; a
// failed turn's task_complete.error an error, or a warning for a usage limit (429). The cost oracle
// is the pricing module's priceUsage on each mapped usage (tokens are the key check).
import * as path from "node:path";
import { priceUsage } from "../../shared/pricing/pricer.js";
import { isEvent, rawLines, rolloutFiles, type RawLine } from "./codex-fixture.js";
import { addFigures, zeroFigures, type Figures } from "./figures.js";

export type { RawLine };

/** A rollout's figures, or a session's: the conformance kit's Figures. */
export type Sums = Figures;
export { addFigures as add, zeroFigures as zero };

/** `task_complete.error` codes that mean the plan's limit (a 429): a warning (design §9). */
export const LIMIT_CODES = new Set(["usage_limit_exceeded", "usage_limit_reached", "rate_limit_exceeded"]);

export interface Response {
  key: string;
  model: string;
  ts: number;
  mapped: { input: number; output: number; cacheRead: number; cacheWrite: number; reasoning: number };
}

/** Responses of one rollout (one per response_id, §5), each with the model of its turn's turn_context. */
export function responsesOf(lines: RawLine[]): Response[] {
  const turnModel = new Map<string, string>();
  const out: Response[] = [];
  const seen = new Set<string>();
  for (const l of lines) {
    if (l.type === "turn_context") turnModel.set(l.payload.turn_id, l.payload.model);
    if (l.type !== "token_usage_record" || seen.has(l.payload.response_id)) continue;
    seen.add(l.payload.response_id);
    const u = l.payload.usage;
    out.push({
      key: l.payload.response_id,
      model: turnModel.get(l.payload.turn_id) as string,
      ts: Date.parse(l.timestamp),
      mapped: { input: u.input_tokens - u.cached_input_tokens, output: u.output_tokens, cacheRead: u.cached_input_tokens, cacheWrite: u.cache_write_input_tokens ?? 0, reasoning: u.reasoning_output_tokens ?? 0 },
    });
  }
  return out;
}

export function oracleCost(r: Response): number | null {
  const p = priceUsage(r.model, { inputTokens: r.mapped.input, cacheReadTokens: r.mapped.cacheRead, cacheWrite5mTokens: r.mapped.cacheWrite, cacheWrite1hTokens: 0, outputTokens: r.mapped.output }, { at: r.ts });
  return "unpriced" in p ? null : p.costUsd;
}

/** One rollout's figures; `seen` (response ids) spans files. */
export function fileSums(lines: RawLine[], seen: Set<string>): Sums {
  const s = zeroFigures();
  for (const l of lines) {
    if (isEvent(l, "task_started")) s.prompts++;
    if (l.type === "response_item" && ["function_call", "custom_tool_call", "local_shell_call", "web_search_call"].includes(l.payload.type)) s.toolCalls++;
    if (isEvent(l, "task_complete") && l.payload.error) {
      if (LIMIT_CODES.has(l.payload.error.codex_error_info)) s.warnings++;
      else s.errors++;
    }
  }
  for (const r of responsesOf(lines)) {
    if (seen.has(r.key)) continue;
    seen.add(r.key);
    s.responses++;
    s.input += r.mapped.input;
    s.output += r.mapped.output;
    s.cacheRead += r.mapped.cacheRead;
    s.cacheWrite += r.mapped.cacheWrite;
    s.reasoning += r.mapped.reasoning;
    const c = oracleCost(r);
    if (c === null) s.unpriced++;
    else s.cost += c;
  }
  return s;
}

export interface Rollout {
  rel: string;
  file: string;
  key: string;
  lines: RawLine[];
}

export function rollouts(codexDir: string): Rollout[] {
  return rolloutFiles(codexDir).map((rel) => {
    const file = path.join(codexDir, rel);
    const lines = rawLines(file);
    return { rel, file, key: (lines[0] as RawLine).payload.id as string, lines };
  });
}

/** Per session and in total, files in session-id order (the order the core lists them: the first owns a shared response). */
export function expected(rs: Rollout[]): { bySession: Map<string, Sums>; total: Sums } {
  const seen = new Set<string>();
  const bySession = new Map<string, Sums>();
  const total = zeroFigures();
  for (const r of [...rs].sort((a, b) => (a.key < b.key ? -1 : 1))) {
    const s = fileSums(r.lines, seen);
    bySession.set(r.key, addFigures(bySession.get(r.key) ?? zeroFigures(), s));
    addFigures(total, s);
  }
  return { bySession, total };
}

