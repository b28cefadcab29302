// Test helper: the real Codex 0.169.0 fixture copied into a fresh temp dir used as HOME, and a
// small parse of its rollouts that is independent of the reader (expected values come from the
// fixture's own lines, never from the code under test).
import * as fs from "node:fs";
import * as path from "node:path";
import type { Install } from "../../shared/providers/contract.js";
import { copyFixture, rawLines, type RawLine } from "./openclaw-fixtures.js";

export { makeTempDir, rawLines, removeTempDirs, type RawLine } from "./openclaw-fixtures.js";

/** Real state written by codex-cli 0.169.0 (fixtures/codex-0.169.0/README.md lists the scenario). */
export const CODEX_FIXTURE = "codex-0.169.0";

/** A writable copy of the fixture: `home` holds `.codex/`. */
export function copyCodexHome(): { home: string; codexDir: string } {
  const home = copyFixture(CODEX_FIXTURE);
  return { home, codexDir: path.join(home, ".codex") };
}

export function installOf(dir: string, name = "default"): Install {
  return { provider: "codex", id: `codex:${name}`, localId: name, name, tags: ["codex", name], dir };
}


export function writeLines(file: string, lines: RawLine[]): void {
  fs.writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}

/** Every rollout under `<codexDir>/sessions`, relative to codexDir with `/`, sorted. */
export function rolloutFiles(codexDir: string, top = "sessions"): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    if (!fs.existsSync(path.join(codexDir, rel))) return;
    for (const d of fs.readdirSync(path.join(codexDir, rel), { withFileTypes: true })) {
      const r = `${rel}/${d.name}`;
      if (d.isDirectory()) walk(r);
      else if (/^rollout-.*\.jsonl$/.test(d.name)) out.push(r);
    }
  };
  walk(top);
  return out.sort();
}

/** The session id of a rollout, as its first line says. */
export function sessionIdOf(file: string): string {
  return (rawLines(file)[0] as RawLine).payload.id;
}

/** Raw Codex usage fields, summed. */
export interface RawSums {
  input_tokens: number;
  cached_input_tokens: number;
  cache_write_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
}

export const zeroRaw = (): RawSums => ({ input_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 });

/** The format doc's rule §5 done by hand: `token_usage_record.usage` summed once per response_id. */
export function recordSums(lines: RawLine[]): { sums: RawSums; responses: number } {
  const seen = new Set<string>();
  const sums = zeroRaw();
  for (const l of lines) {
    if (l.type !== "token_usage_record" || seen.has(l.payload.response_id)) continue;
    seen.add(l.payload.response_id);
    for (const k of Object.keys(sums) as Array<keyof RawSums>) sums[k] += l.payload.usage[k] ?? 0;
  }
  return { sums, responses: seen.size };
}

/** The last `token_count.info.total_token_usage` of a file (zeros when there is none). */
export function lastTotal(lines: RawLine[]): RawSums {
  const counts = lines.filter((l) => l.type === "event_msg" && l.payload.type === "token_count" && l.payload.info);
  const last = counts[counts.length - 1];
  return last ? { ...zeroRaw(), ...last.payload.info.total_token_usage } : zeroRaw();
}

/** Raw sums in the shared vocabulary (design §9): input without the cached part. */
export function mapped(raw: RawSums): { input: number; cacheRead: number; cacheWrite: number; output: number; reasoning: number } {
  return { input: raw.input_tokens - raw.cached_input_tokens, cacheRead: raw.cached_input_tokens, cacheWrite: raw.cache_write_input_tokens, output: raw.output_tokens, reasoning: raw.reasoning_output_tokens };
}

/** Line helpers for building test rollouts. */
export const isEvent = (l: RawLine, sub: string): boolean => l.type === "event_msg" && l.payload.type === sub;
