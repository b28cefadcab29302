#!/usr/bin/env node
// insightsctl's commands as ES modules. The installed bin is dist/cli/insightsctl.cjs (cli/bin.ts),
// which runs the status line from its CommonJS bundle and imports this file for everything else;
// this file still takes the status line itself when run directly (a status line installed by an
// earlier version names it), straight to its own small module: citty and the command tree would
// cost it more than its own work (docs/benchmarks.md). The status line's --help, install and
// uninstall go through cli/app.ts.
import { guardOutput } from "./stdio.js";
import { isFastStatusline } from "./statusline/fast.js";

const argv = process.argv.slice(2);
if (isFastStatusline(argv)) void import("./statusline/main.js").then((m) => m.main(argv.slice(1)));
else {
  guardOutput();
  void import("./app.js").then((m) => m.runCli(argv));
}
