// `insightsctl usage ... --json` against a running daemon, the lean way: the bin (cli/bin.ts)
// requires this as one CommonJS bundle (dist/cli/usage.cjs, cli/bundle.mjs), so the call
// scripts repeat neither starts Node's ESM loader nor loads citty's command tree. It takes only
// the plain case: every flag plainly one of usage's, given once, --json, a zone named without Intl,
// a daemon that answers. Anything else (help, an unknown or odd flag, a bad value, no daemon, a
// zone the daemon refuses) goes to the full command (`fallback`), which says what is wrong exactly
// as it always did: this path never judges a flag itself.
import { InsightsError } from "../shared/base/errors.js";
import { resolvePaths } from "../shared/base/paths.js";
import { parseUsageParams, type UsageReportParams } from "../shared/queries/usage-params.js";
import { ControlClient } from "./control-client.js";
import { machineZoneName } from "./machine-zone.js";
import { fail } from "./output.js";
import { guardOutput } from "./stdio.js";
import { timeoutFlag } from "./timeout-flag.js";
import { askDaemon, PARTIAL_NOTE, rawParamsOf } from "./usage-daemon.js";

/** usage's switches and valued flags (cli/commands/usage.ts), by every spelling citty takes for them here. */
const SWITCHES = new Map([["--json", "json"], ["-j", "json"], ["--breakdown", "breakdown"], ["-b", "breakdown"], ["--exact", "exact"], ["-e", "exact"]]);
const VALUED = new Map([["--provider", "provider"], ["--since", "since"], ["-s", "since"], ["--until", "until"], ["-u", "until"], ["--timezone", "timezone"], ["-z", "timezone"], ["--week-start", "week-start"], ["--timeout", "timeout"]]);

/** The arguments after `usage` as the command's args, when each is plainly one of them, once, and --json is among them; else null. */
export function leanArgs(argv: readonly string[]): Record<string, unknown> | null {
  const args: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    let name: string | undefined;
    let value: string | true | undefined;
    if (eq < 0 && SWITCHES.has(flag)) [name, value] = [SWITCHES.get(flag), true];
    else if (VALUED.has(flag)) [name, value] = [VALUED.get(flag), eq > 0 ? a.slice(eq + 1) : argv[++i]];
    else if (!a.startsWith("-")) [name, value] = ["report", a];
    // A value that looks like a flag, a second positional or a repeated flag: citty's reading decides.
    if (name === undefined || value === undefined || (typeof value === "string" && value.startsWith("-")) || name in args) return null;
    args[name] = value;
  }
  return args.json === true ? args : null;
}

/** Prints the daemon's report as `usage --json` does, or hands the call to `fallback` (the full command). */
export async function runUsageLean(argv: readonly string[], fallback: () => void): Promise<void> {
  const args = leanArgs(argv);
  const zone = args === null ? null : typeof args.timezone === "string" ? args.timezone : machineZoneName();
  if (args === null || zone === null) return fallback();
  let client: ControlClient | null;
  let unchecked: UsageReportParams;
  try {
    // The full command's checks, in its order; a value they refuse is the full command's to say.
    unchecked = parseUsageParams(rawParamsOf(args), zone, "monday", (z) => z);
    timeoutFlag(args.timeout, "");
    client = await ControlClient.tryConnect(resolvePaths().socketFile);
  } catch {
    return fallback();
  }
  if (!client) return fallback();
  try {
    const report = await askDaemon(client, unchecked, args);
    guardOutput();
    if (!report.scanComplete) process.stderr.write(`${PARTIAL_NOTE}\n`);
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`, () => process.exit(0));
  } catch (err) {
    // The daemon refused the params (a zone it does not know): the full command checks them itself.
    if (err instanceof InsightsError && err.code === "INVALID_PARAM") return fallback();
    guardOutput();
    fail(err);
  } finally {
    client.close();
  }
}
