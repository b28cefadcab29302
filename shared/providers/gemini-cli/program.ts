// Which process is Gemini CLI (gemini-cli-format.md §1, §9): Node running the npm package's bundle,
// `node …/@google/gemini-cli/bundle/gemini.js` (both processes of a run, the relaunched child
// too), or started through npm's `gemini` link to it (the shebang makes argv[1] the link's path).
import { base, type ProgramMatch } from "../own-process.js";

const BUNDLE = /[/\\]bundle[/\\]gemini\.js$/;

/** The script a Node process runs (argv[1..3], past Node's own flags), when it is Gemini CLI's. */
export function scriptOf(id: { argv: string[] }): string | null {
  return id.argv.slice(1, 4).find((a) => BUNDLE.test(a) || base(a) === "gemini") ?? null;
}

export const isGeminiProgram: ProgramMatch = (id) => /^node(js)?$/.test(base(id.exe ?? id.argv[0])) && scriptOf(id) !== null;
