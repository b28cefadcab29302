#!/usr/bin/env node
// insightsctl: controls the daemon over its Unix socket. The status line (`insightsctl
// statusline`, run by Claude Code after every message) goes straight to its own small module:
// loading citty and the command tree would cost it more than its own work (docs/benchmarks.md).
// Everything else, and the status line's --help, install and uninstall, goes through cli/app.ts.
import { guardOutput } from "./stdio.js";

const argv = process.argv.slice(2);
const SLOW_WORDS = new Set(["install", "uninstall", "--uninstall", "--help", "-h"]);
const statusline = argv[0] === "statusline" && !argv.some((a) => SLOW_WORDS.has(a));
guardOutput(statusline);
if (statusline) void import("./statusline/run.js").then((m) => m.runStatusline(argv.slice(1)));
else void import("./app.js").then((m) => m.runCli(argv));
