#!/usr/bin/env node
// The `insightsctl` bin, built by build/bundle-cli.mjs into dist/cli/insightsctl.cjs (not by tsc).
// CommonJS on purpose: Node runs a .cjs main without starting its ESM loader, which costs the
// status line (run by Claude Code after every message) more than its own work. So the status
// line is one require of its bundle (dist/cli/statusline.cjs); every other command imports
// dist/cli/main.js, as before.
import { isFastStatusline } from "./statusline/fast.js";

const argv = process.argv.slice(2);
// Not resolved by esbuild: the bundle is a file beside this one in dist/, not a source module.
if (isFastStatusline(argv)) (require("./statusline.cjs") as typeof import("./statusline/main.js")).main(argv.slice(1));
else void import("./main.js");
