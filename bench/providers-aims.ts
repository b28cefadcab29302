// Issue 23's first-read aims, measured inside the providers suite (bench/providers.ts) next to
// ccusage in the same run: the floor of a warm `cat` of the same files, a user's very first
// `insightsctl usage daily --json` with no daemon and an empty store, and a CPU-bound process
// to run beside our first scan (the stall aim holds on a machine that is busy, not only on an
// idle one).
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { cliMain } from "./build.js";
import { BENCH_TMP } from "./paths.js";
import { dailyFromUsage, providerEnv, type HookInput, type UsageDailyRun } from "./providers-hooks.js";
import { runTimed } from "./timed-process.js";

/** `cat` of every .jsonl file under `tree` to /dev/null (the page cache is warm): the floor of any reader, ms. */
export async function warmCatMs(tree: string): Promise<number> {
  const r = await runTimed("/bin/sh", ["-c", 'find "$1" -name "*.jsonl" -type f -print0 | xargs -0 cat > /dev/null', "sh", tree], { PATH: process.env.PATH ?? "/usr/bin:/bin" });
  if (r.code !== 0) throw new Error(`cat of ${tree} exited ${r.code}: ${r.stderr.trim()}`);
  return r.ms;
}

/**
 * `insightsctl usage daily --json` with no daemon running and a fresh state dir: the CLI reads the
 * whole history itself before it prints (cli/first-read.ts). Its rows must be complete
 * (scanComplete) and it must exit 0; the caller compares its days with the checker's.
 */
export async function noDaemonUsage(input: HookInput): Promise<UsageDailyRun> {
  const dir = path.join(BENCH_TMP, `providers-nodaemon-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  const dirs = { HOME: path.join(dir, "home"), XDG_CONFIG_HOME: path.join(dir, "config"), XDG_STATE_HOME: path.join(dir, "state"), XDG_RUNTIME_DIR: path.join(dir, "run") };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...dirs, NO_COLOR: "1", INSIGHTS_OPENCLAW: "off" };
  Object.assign(env, providerEnv(input.kind, input.root));
  try {
    const r = await runTimed(process.execPath, [cliMain(input.build), "usage", "daily", "--json", "--provider", input.kind, "-z", "UTC"], env);
    if (r.code !== 0) throw new Error(`insightsctl usage (no daemon) exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
    const { daily, responses } = dailyFromUsage(JSON.parse(r.stdout.toString("utf8")));
    return { ms: r.ms, cpuMs: r.cpuMs, peakRssMb: r.peakRssMb, measuredBy: r.measuredBy, daily, responses };
  } finally {
    if (!input.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `work` with a CPU-bound process (`node -e 'for(;;){}'`) beside it, stopped after. */
export async function besideSpinner<T>(work: () => Promise<T>): Promise<T> {
  const spinner: ChildProcess = spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" });
  try {
    return await work();
  } finally {
    spinner.kill("SIGKILL");
    await new Promise<void>((resolve) => (spinner.exitCode !== null || spinner.signalCode !== null ? resolve() : spinner.once("exit", () => resolve())));
  }
}
