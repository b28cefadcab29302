// Which calls of `insightsctl statusline` take the fast path (the status line itself, run by Claude
// Code after every message): all but --help, install and uninstall, which go through citty's
// command tree (cli/commands/statusline.ts). Read by the bin (cli/bin.ts) and by cli/main.ts.

const SLOW_WORDS = new Set(["install", "uninstall", "--uninstall", "--help", "-h"]);

export function isFastStatusline(argv: readonly string[]): boolean {
  return argv[0] === "statusline" && !argv.some((a) => SLOW_WORDS.has(a));
}
