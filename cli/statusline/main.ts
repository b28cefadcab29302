// The status line as a whole program: what the bin (cli/bin.ts) runs for `insightsctl statusline`.
// Built twice: by tsc (dist/cli/statusline/main.js, for cli/main.ts) and by esbuild into one
// CommonJS file (dist/cli/statusline.cjs, cli/bundle.mjs), which the bin requires so that
// the call Claude Code makes after every message loads one file and never starts Node's ESM
// loader (docs/benchmarks.md, "Statusline").
import { runStatusline } from "./run.js";

export function main(argv: readonly string[]): void {
  // No guardOutput: the status line writes its one line to the descriptor itself (run.ts, `done`).
  void runStatusline(argv);
}
