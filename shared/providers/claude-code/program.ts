// Which process is Claude Code's own program (shared/providers/own-process.ts checks the owner), so
// a sessions/<pid>.json naming another program's pid is not shown as a live session.
import { base, type ProgramMatch } from "../own-process.js";

const CLAUDE_NAMES = new Set(["claude", "claude.exe"]);

/** Claude Code: started as `claude` (native binary, installer's link), or Node running its npm `cli.js`. */
export const isClaudeCodeProgram: ProgramMatch = (id) => {
  if (CLAUDE_NAMES.has(id.comm) || CLAUDE_NAMES.has(base(id.exe ?? undefined)) || CLAUDE_NAMES.has(base(id.argv[0]))) return true;
  // The native installer's versions dir: exe resolves to `.../claude/versions/<version>`.
  if (id.exe !== null && /\/claude\/versions\/[^/]+$/.test(id.exe)) return true;
  // npm releases before the native binary: `node .../@anthropic-ai/claude-code/cli.js`.
  return /^node(js)?$/.test(base(id.exe ?? id.argv[0])) && id.argv.slice(1, 4).some((a) => /[/\\]@anthropic-ai[/\\]claude-code[/\\]cli\.m?js$/.test(a));
};
