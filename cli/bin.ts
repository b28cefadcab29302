#!/usr/bin/env node
// The `insightsctl` bin, built by cli/bundle.mjs into dist/cli/insightsctl.cjs (not by tsc).
// CommonJS on purpose: Node runs a .cjs main without starting its ESM loader, which costs the
// status line (run by Claude Code after every message) more than its own work. So the status
// line is one require of its bundle (dist/cli/statusline.cjs), and `usage --json` tries its lean
// bundle (dist/cli/usage.cjs, a running daemon's answer) first; every other command, and any
// call the lean path does not take, imports dist/cli/main.js.
import { isFastStatusline } from "./statusline/fast.js";

const argv = process.argv.slice(2);
const full = (): void => void import("./main.js");
// Not resolved by esbuild: the bundles are files beside this one in dist/, not source modules.
if (isFastStatusline(argv)) (require("./statusline.cjs") as typeof import("./statusline/main.js")).main(argv.slice(1));
else if (argv[0] === "usage" && (argv.includes("--json") || argv.includes("-j"))) void (require("./usage.cjs") as typeof import("./usage-fast.js")).runUsageLean(argv.slice(1), full);
else full();
