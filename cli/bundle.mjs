// `npm run build`, after tsc (run from the checkout's root): the CLI's CommonJS files (cli/bin.ts). dist/cli/insightsctl.cjs is
// the `insightsctl` bin; dist/cli/statusline.cjs is the status line with every module it uses, in
// one file, so that Claude Code's call after every message reads one file and starts no ESM
// loader (docs/benchmarks.md, "Statusline"); dist/cli/usage.cjs the same for `usage --json`
// against a running daemon (cli/usage-fast.ts). The bin's own loads stay as they are written.
import { buildSync } from "esbuild";
import { chmodSync } from "node:fs";

const common = { bundle: true, format: "cjs", platform: "node", target: "node20", logLevel: "warning", legalComments: "none" };
buildSync({ ...common, entryPoints: ["cli/statusline/main.ts"], outfile: "dist/cli/statusline.cjs" });
buildSync({ ...common, entryPoints: ["cli/usage-fast.ts"], outfile: "dist/cli/usage.cjs" });
buildSync({ ...common, entryPoints: ["cli/bin.ts"], outfile: "dist/cli/insightsctl.cjs", external: ["./statusline.cjs", "./usage.cjs", "./main.js"] });
chmodSync("dist/cli/insightsctl.cjs", 0o755);
