// A daemon reading all three providers from their recorded fixtures: OpenClaw (a state dir copy),
// Claude Code (a HOME copy with `.claude/`) and Codex (a HOME copy with `.codex/`), with the clock
// set shortly after the Claude Code and Codex recordings (2026-11-23 21:19 and 21:28 UTC) so their
// usage falls inside every range from six hours up. Plus the expected figures, computed from the
// fixture files (never by the code under test).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pollUntil, shiftedClock, systemClock, type Clock } from "../../shared/base/clock.js";
import { copyClaudeHome, expectedUsage, rawLines as claudeLines } from "./claude-code-fixture.js";
import { copyCodexHome, mapped, rawLines as codexLines, recordSums, rolloutFiles } from "./codex-fixture.js";
import { FILES_FIXTURE } from "./openclaw-fixtures.js";
import { gqlData, startDaemon, type StartOptions, type TestDaemon } from "./daemon.js";

/** Twenty minutes after the last Codex turn of its fixture. */
export const ALL_PROVIDERS_NOW = Date.parse("2026-11-23T21:50:00.000Z");

export interface AllProviders extends TestDaemon {
  claudeDir: string;
  codexDir: string;
  /** The installs' source ids (named after the configured dirs: `claude-code:claude`, `codex:codex`). */
  claudeSource: string;
  codexSource: string;
  clock: Clock;
}

/** `fixture`: the OpenClaw state dir to copy (default the file-era one, which `addSubAgentSessions` can add to). */
export async function startAllProviders(o: { fixture?: string; now?: number; env?: Record<string, string>; daemon?: StartOptions["daemon"] } = {}): Promise<AllProviders> {
  const { claudeDir } = copyClaudeHome();
  const { codexDir } = copyCodexHome();
  const clock = shiftedClock(systemClock, o.now ?? ALL_PROVIDERS_NOW);
  const d = await startDaemon({
    fixture: o.fixture ?? FILES_FIXTURE,
    clock,
    env: { INSIGHTS_CLAUDE_CODE_DIRS: claudeDir, INSIGHTS_CODEX_DIRS: codexDir, ...o.env },
    ...(o.daemon ? { daemon: o.daemon } : {}),
  });
  try {
    // The installs register while their first scan runs; wait until every source has been read once.
    const sources = await pollUntil(
      async () => {
        const { sources } = await gqlData<{ sources: Array<{ id: string; status: string; attributes: { provider: string } }> }>(d, `{ sources(filter: { category: AGENT }) { id status attributes { provider } } }`);
        return sources.length === 3 && sources.every((s) => s.status === "CONNECTED") ? sources : null;
      },
      { what: "three connected sources", timeoutMs: 90_000 },
    );
    const idOf = (p: string): string => sources.find((s) => s.attributes.provider === p)?.id as string;
    return { ...d, claudeDir, codexDir, clock, claudeSource: idOf("PROVIDER_B"), codexSource: idOf("PROVIDER_C") };
  } catch (err) {
    await d.stop();
    throw err;
  }
}

export interface ProjectTokens {
  sessions: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const zero = (): ProjectTokens => ({ sessions: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

/** Claude Code: every transcript (sub-agents included) by the `cwd` its lines carry; usage de-duplicated per response. */
export function claudeProjects(claudeDir: string): Map<string, ProjectTokens> {
  const out = new Map<string, ProjectTokens>();
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".jsonl") ? [join(dir, e.name)] : []));
  for (const file of walk(join(claudeDir, "projects"))) {
    const lines = claudeLines(file);
    const cwd = lines.find((l) => typeof l.cwd === "string")?.cwd as string;
    const p = out.get(cwd) ?? zero();
    const { sums } = expectedUsage(lines);
    p.sessions += 1;
    p.input += sums.input;
    p.output += sums.output;
    p.cacheRead += sums.cacheRead;
    p.cacheWrite += sums.cacheWrite;
    out.set(cwd, p);
  }
  return out;
}

/** Codex: every rollout by its session_meta `cwd`; usage summed once per response. */
export function codexProjects(codexDir: string): Map<string, ProjectTokens> {
  const out = new Map<string, ProjectTokens>();
  for (const rel of rolloutFiles(codexDir)) {
    const lines = codexLines(join(codexDir, rel));
    const cwd = (lines[0] as { payload: { cwd: string } }).payload.cwd;
    const p = out.get(cwd) ?? zero();
    const m = mapped(recordSums(lines).sums);
    p.sessions += 1;
    p.input += m.input;
    p.output += m.output;
    p.cacheRead += m.cacheRead;
    p.cacheWrite += m.cacheWrite;
    out.set(cwd, p);
  }
  return out;
}
