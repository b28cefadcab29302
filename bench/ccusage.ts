// ccusage (npm `ccusage`, pinned to 20.0.24) on a Claude Code or Codex history:
// its wall time, CPU time, peak RSS and its per-day totals, in the shape of bench/synthetic/daily.ts.
//
//   node --import tsx bench/ccusage.ts claude-code <CLAUDE_CONFIG_DIR> [--single-thread] [--compare]
//   node --import tsx bench/ccusage.ts codex <CODEX_HOME> [--compare]
//
// --compare also runs the independent checker (bench/synthetic/expected-*.ts) on the same dir and
// prints the days where the two disagree (exit code 2 if any).
//
// What runs: `ccusage claude daily --json --offline -z UTC` with CLAUDE_CONFIG_DIR, or
// `ccusage codex daily --json --offline -z UTC` with CODEX_HOME, HOME pointed at an empty dir (so
// nothing of the real user's is read) and days in UTC like the checkers. (In ccusage 20 the bare
// `ccusage daily` is the all-agents report; `claude daily` is the Claude Code one.)
//
// ccusage 20 is a native binary in a platform package (@ccusage/ccusage-<os>-<arch>). 20.0.26, the
// latest, has no linux-x64 package on the registry ("native binary is not available"); 20.0.24
// has one. The registry has no 20.0.24 package for macOS or Windows, so elsewhere this reports
// ccusage as unavailable instead of failing.
//
// It is not a devDependency: its lock entry would name those missing platform packages and
// `npm ci` refuses a lock that cannot be satisfied. The bench installs it on first use into
// .tmp/bench/ccusage/ (npm install --prefix, no lock file), where optional platform packages the
// registry lacks are skipped. We run the binary directly (the npm `ccusage` bin is
// a Node launcher that spawns it): the figures are ccusage's own, without a Node start-up.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { BENCH_TMP, REPO_ROOT } from "./paths.js";
import { describeDiff, describeTotals, diffDaily, sumDaily, type Daily } from "./synthetic/daily.js";
import { checkClaudeCode } from "./synthetic/expected-claude-code.js";
import { checkCodex } from "./synthetic/expected-codex.js";
import { runTimed } from "./timed-process.js";

export type CcusageKind = "claude-code" | "codex";

export interface CcusageResult {
  command: string;
  version: string;
  ms: number;
  /** User + system CPU time; above `ms` when ccusage used several threads. */
  cpuMs: number;
  peakRssMb: number;
  /** How CPU and peak RSS were measured. */
  measuredBy: string;
  daily: Daily;
}

/** ccusage cannot run here (no native package for this platform, or not installed). */
export class CcusageUnavailable extends Error {}

export const CCUSAGE_VERSION = "20.0.24";
const CCUSAGE_PREFIX = path.join(BENCH_TMP, "ccusage", CCUSAGE_VERSION);

export function locateCcusage(): { bin: string; version: string } {
  const modules = path.join(CCUSAGE_PREFIX, "node_modules");
  const pkg = path.join(modules, "ccusage", "package.json");
  if (!fs.existsSync(pkg)) installCcusage();
  const version = String((JSON.parse(fs.readFileSync(pkg, "utf8")) as { version?: unknown }).version);
  const bin = path.join(modules, "@ccusage", `ccusage-${process.platform}-${process.arch}`, "bin", process.platform === "win32" ? "ccusage.exe" : "ccusage");
  if (!fs.existsSync(bin)) throw new CcusageUnavailable(`ccusage ${version} has no native binary for ${process.platform}-${process.arch} installed (${path.relative(REPO_ROOT, bin)})`);
  return { bin: executable(bin, version), version };
}

function installCcusage(): void {
  fs.mkdirSync(CCUSAGE_PREFIX, { recursive: true });
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const run = spawnSync(npm, ["install", "--prefix", CCUSAGE_PREFIX, "--no-audit", "--no-fund", "--no-package-lock", "--no-save", `ccusage@${CCUSAGE_VERSION}`], { encoding: "utf8" });
  if (run.status !== 0) throw new CcusageUnavailable(`npm install ccusage@${CCUSAGE_VERSION} failed: ${(run.stderr || run.error?.message || "").trim().split("\n").pop() ?? ""}`);
}

/**
 * The binary as something we can exec. An install can leave it without its execute bit (npm's
 * launcher chmods it on first use); rather than change node_modules, a copy with the bit set is
 * kept under .tmp/bench/ccusage-bin/<version>/.
 */
function executable(bin: string, version: string): string {
  if (process.platform === "win32") return bin;
  try {
    fs.accessSync(bin, fs.constants.X_OK);
    return bin;
  } catch {
    // not executable by us: use a copy
  }
  const copy = path.join(BENCH_TMP, "ccusage-bin", version, path.basename(bin));
  const size = fs.statSync(bin).size;
  if (!fs.existsSync(copy) || fs.statSync(copy).size !== size) {
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    const tmp = `${copy}.${process.pid}`;
    fs.copyFileSync(bin, tmp);
    fs.chmodSync(tmp, 0o755);
    fs.renameSync(tmp, copy);
  }
  return copy;
}

export function ccusageArgs(kind: CcusageKind, singleThread = false): string[] {
  const args = [kind === "claude-code" ? "claude" : "codex", "daily", "--json", "--offline", "-z", "UTC"];
  if (singleThread) {
    if (kind !== "claude-code") throw new RangeError("ccusage codex daily has no --single-thread");
    args.push("--single-thread");
  }
  return args;
}

interface CcusageDay {
  date?: unknown;
  inputTokens?: unknown;
  outputTokens?: unknown;
  cacheReadTokens?: unknown;
  cacheCreationTokens?: unknown;
}

/**
 * ccusage's `daily` JSON as per-day totals. Both reports use the same names; for Codex its
 * `inputTokens` is already input minus cached input (format doc §12), as in DayTotals.
 */
export function dailyFromCcusage(json: unknown): Daily {
  const days = (json as { daily?: unknown }).daily;
  if (!Array.isArray(days)) throw new Error("ccusage output has no `daily` array");
  const n = (v: unknown, what: string): number => {
    if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`ccusage output: ${what} is not a number`);
    return v;
  };
  return (days as CcusageDay[]).map((d) => {
    if (typeof d.date !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(d.date)) throw new Error(`ccusage output: unexpected date ${JSON.stringify(d.date)}`);
    return {
      date: d.date,
      input: n(d.inputTokens, "inputTokens"),
      output: n(d.outputTokens, "outputTokens"),
      cacheRead: n(d.cacheReadTokens, "cacheReadTokens"),
      cacheWrite: n(d.cacheCreationTokens ?? 0, "cacheCreationTokens"),
    };
  });
}

/** Runs ccusage once on `root` (CLAUDE_CONFIG_DIR or CODEX_HOME). */
export async function runCcusage(kind: CcusageKind, root: string, opts: { singleThread?: boolean } = {}): Promise<CcusageResult> {
  const { bin, version } = locateCcusage();
  const args = ccusageArgs(kind, opts.singleThread);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "gi-ccusage-home-"));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, NO_COLOR: "1", TZ: "UTC", [kind === "claude-code" ? "CLAUDE_CONFIG_DIR" : "CODEX_HOME"]: root };
  try {
    const r = await runTimed(bin, args, env);
    if (r.code !== 0) throw new Error(`ccusage ${args.join(" ")} exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
    const daily = dailyFromCcusage(JSON.parse(r.stdout.toString("utf8")));
    return { command: `ccusage ${args.join(" ")}`, version, ms: r.ms, cpuMs: r.cpuMs, peakRssMb: r.peakRssMb, measuredBy: r.measuredBy, daily };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const [kind, root, ...flags] = process.argv.slice(2);
  if ((kind !== "claude-code" && kind !== "codex") || !root) throw new Error("usage: ccusage.ts claude-code|codex <CLAUDE_CONFIG_DIR|CODEX_HOME> [--single-thread] [--compare]");
  const dir = path.resolve(root);
  const r = await runCcusage(kind, dir, { singleThread: flags.includes("--single-thread") });
  process.stdout.write(
    `${r.command} (ccusage ${r.version}): ${(r.ms / 1000).toFixed(2)} s wall, ${(r.cpuMs / 1000).toFixed(2)} s CPU, peak RSS ${r.peakRssMb} MB (${r.measuredBy})\n` +
      `${r.daily.length} days; totals: ${describeTotals(sumDaily(r.daily))}\n`,
  );
  if (!flags.includes("--compare")) return 0;
  const expected = kind === "claude-code" ? (await checkClaudeCode(dir)).daily : (await checkCodex(dir)).daily;
  const diff = diffDaily(expected, r.daily);
  process.stdout.write(diff.length ? `${describeDiff(diff, expected.length, ["checker", "ccusage"])}\n` : `checker: ${expected.length} days, equal to ccusage's to the token\n`);
  return diff.length ? 2 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
