// Test helper: the real Claude Code 2.1.330 fixture copied into a fresh temp dir used as HOME, and
// a small parse of its files that is independent of the reader (expected values come from the
// fixture's own lines, never from the code under test).
import * as fs from "node:fs";
import * as path from "node:path";
import type { Install } from "../../shared/providers/contract.js";
import { copyFixture, type RawLine } from "./openclaw-fixtures.js";

export { makeTempDir, rawLines, removeTempDirs, type RawLine } from "./openclaw-fixtures.js";

/** Real state written by Claude Code 2.1.330 (fixtures/claude-code-2.1.330/README.md lists the scenario). */
export const CLAUDE_FIXTURE = "claude-code-2.1.330";

/** A writable copy of the fixture: `home` holds `.claude/` and `.claude.json`. */
export function copyClaudeHome(): { home: string; claudeDir: string } {
  const home = copyFixture(CLAUDE_FIXTURE);
  return { home, claudeDir: path.join(home, ".claude") };
}

export function installOf(dir: string, name = "default"): Install {
  return { provider: "claude-code", id: `claude-code:${name}`, localId: name, name, tags: ["claude-code", name], dir };
}


/** Every transcript file under `<claudeDir>/projects`, relative to claudeDir with `/`. */
/** Every file and dir under `dir` dated `when` (files first, then their dir). */
export function dateTree(dir: string, when: Date): void {
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) dateTree(p, when);
    else fs.utimesSync(p, when, when);
  }
  fs.utimesSync(dir, when, when);
}

export function transcriptFiles(claudeDir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const d of fs.readdirSync(path.join(claudeDir, rel), { withFileTypes: true })) {
      const r = `${rel}/${d.name}`;
      if (d.isDirectory()) walk(r);
      else if (d.name.endsWith(".jsonl")) out.push(r);
    }
  };
  walk("projects");
  return out.sort();
}

export interface UsageSums {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h: number;
  reasoning: number;
}

export const zeroSums = (): UsageSums => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 });

/**
 * The format doc's rule done by hand: billable = assistant lines whose model is not `<synthetic>`,
 * one usage per distinct (message.id, requestId), taken from its first line.
 */
export function expectedUsage(lines: RawLine[]): { sums: UsageSums; responses: number; toolUseIds: Set<string> } {
  const seen = new Set<string>();
  const sums = zeroSums();
  const toolUseIds = new Set<string>();
  for (const l of lines) {
    if (l.type !== "assistant" || l.message?.model === "<synthetic>") continue;
    for (const b of l.message.content ?? []) if (b.type === "tool_use") toolUseIds.add(b.id);
    const key = `${l.message.id}|${l.requestId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const u = l.message.usage;
    sums.input += u.input_tokens;
    sums.output += u.output_tokens;
    sums.cacheRead += u.cache_read_input_tokens;
    sums.cacheWrite += u.cache_creation_input_tokens;
    sums.cacheWrite1h += u.cache_creation?.ephemeral_1h_input_tokens ?? 0;
    sums.reasoning += u.output_tokens_details?.thinking_tokens ?? 0;
  }
  return { sums, responses: seen.size, toolUseIds };
}

/** User prompts by the format doc §3 rule (a sub-agent file's sidechain task prompt counts). */
export function expectedPrompts(lines: RawLine[], subagent: boolean): number {
  return lines.filter((l) => {
    if (l.type !== "user" || l.isMeta || l.isCompactSummary || (!subagent && l.isSidechain)) return false;
    const c = l.message?.content;
    if (Array.isArray(c) && c.some((b: RawLine) => b.type === "tool_result")) return false;
    const t = typeof c === "string" ? c : Array.isArray(c) ? c.filter((b: RawLine) => b.type === "text").map((b: RawLine) => b.text).join("") : "";
    return !t.startsWith("<local-command-stdout>") && !t.startsWith("<local-command-caveat>") && !t.startsWith("<task-notification>");
  }).length;
}
