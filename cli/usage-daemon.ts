// `insightsctl usage` against a running daemon: the flags as the control socket's params and the
// call itself. Shared by the command (cli/commands/usage.ts) and its lean path (cli/usage-fast.ts),
// and free of citty, the config and the store, so the lean path's bundle stays small.
import { InsightsError } from "../shared/base/errors.js";
import type { UsageReportParams } from "../shared/queries/usage-params.js";
import type { UsageReport } from "../shared/queries/usage-report.js";
import type { ControlClient } from "./control-client.js";

/**
 * How long to wait for a running daemon's report: its pass over the sources is bounded by its own
 * collectTimeoutSeconds (at most 300, shared/config/options.ts), then the report. The CLI does not
 * load the config to learn a budget that is the daemon's anyway: the config's validation loads
 * most of the CLI's start-up time (zod, alert rules, price overrides) and a daemon already checked it.
 */
const DAEMON_REPORT_TIMEOUT_MS = (300 + 30) * 1000;

/** Said on stderr above a report whose first read is not done. */
export const PARTIAL_NOTE = "the first read of the transcripts has not finished: the figures are partial (the rest is read in the background by the daemon, or on the next run)";

/** The flags as the report's params (the control socket's names) before any of them is checked. */
export function rawParamsOf(args: Record<string, unknown>): Record<string, unknown> {
  return {
    ...(typeof args.report === "string" ? { report: args.report } : {}),
    ...(typeof args.provider === "string" ? { provider: args.provider } : {}),
    ...(typeof args.since === "string" ? { since: args.since } : {}),
    ...(typeof args.until === "string" ? { until: args.until } : {}),
    ...(typeof args.timezone === "string" ? { timeZone: args.timezone } : {}),
    breakdown: args.breakdown === true,
    ...(typeof args["week-start"] === "string" ? { weekStart: args["week-start"] } : {}),
  };
}

/** The report from a running daemon; without --week-start its config decides (its weekStart). */
export async function askDaemon(client: ControlClient, params: UsageReportParams, args: Record<string, unknown>): Promise<UsageReport> {
  const { weekStart, ...rest } = params;
  try {
    return await client.call<UsageReport>("usage", { ...rest, ...(typeof args["week-start"] === "string" ? { weekStart } : {}) }, DAEMON_REPORT_TIMEOUT_MS);
  } catch (err) {
    if (err instanceof InsightsError && err.code === "UNKNOWN_METHOD") {
      throw new InsightsError("CONTROL_PROTOCOL", "the running daemon is an older version that has no usage report", { hint: "Restart it (`insightsctl restart`) to run this version." });
    }
    throw err;
  }
}
