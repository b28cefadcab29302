import { defineCommand } from "citty";
import { PROVIDER_WORDS } from "../../shared/providers/registry.js";
import { nearest, UsageError } from "../../shared/config/argv.js";
import { InsightsError } from "../../shared/base/errors.js";
import { parseTimeZone, parseUsageParams, USAGE_REPORTS, type UsageReportParams } from "../../shared/queries/usage-params.js";
import type { UsageReport } from "../../shared/queries/usage-report.js";
import { resolvePaths } from "../../shared/base/paths.js";
import { ControlClient } from "../control-client.js";
import { fail, note } from "../output.js";
import { forStdout } from "../stdio.js";
import { timeoutFlag } from "../timeout-flag.js";
import type { LocalUsage } from "../usage-local.js";

const HINT = "See `insightsctl usage --help` for what it accepts.";

/**
 * How long to wait for a running daemon's report: its pass over the sources is bounded by its own
 * collectTimeoutSeconds (at most 300, shared/config/options.ts), then the report. The CLI does not
 * load the config to learn a budget that is the daemon's anyway: the config's validation loads
 * most of the CLI's start-up time (zod, alert rules, price overrides) and a daemon already checked it.
 */
const DAEMON_REPORT_TIMEOUT_MS = (300 + 30) * 1000;

/** This machine's zone (TZ included); UTC, said on stderr, when it names none Intl knows (TZ=Mars/Olympus). */
function machineZone(): string {
  // TZ as the user set it (Asia/Kolkata), which Intl may resolve to an older alias (Asia/Calcutta).
  for (const zone of [process.env.TZ, Intl.DateTimeFormat().resolvedOptions().timeZone as string | undefined]) {
    try {
      if (zone) return parseTimeZone(zone);
    } catch {
      // the next, else said below
    }
  }
  note(`this machine's time zone${process.env.TZ !== undefined ? ` (TZ=${process.env.TZ})` : ""} is not one Intl knows; days are in UTC (pass --timezone)`);
  return "UTC";
}

/** The flags as the report's params (the control socket's names); a bad one is a usage error (exit 2). */
function paramsOf(args: Record<string, unknown>): UsageReportParams {
  const report = typeof args.report === "string" ? args.report : undefined;
  try {
    return parseUsageParams(
      {
        ...(report !== undefined ? { report } : {}),
        ...(typeof args.provider === "string" ? { provider: args.provider } : {}),
        ...(typeof args.since === "string" ? { since: args.since } : {}),
        ...(typeof args.until === "string" ? { until: args.until } : {}),
        ...(typeof args.timezone === "string" ? { timeZone: args.timezone } : {}),
        breakdown: args.breakdown === true,
        ...(typeof args["week-start"] === "string" ? { weekStart: args["week-start"] } : {}),
      },
      // The machine's zone, sent to the daemon too: its own may differ.
      typeof args.timezone === "string" ? "UTC" : machineZone(),
    );
  } catch (err) {
    if (!(err instanceof InsightsError) || err.code !== "INVALID_PARAM") throw err;
    const near = report !== undefined && err.details.param === "report" ? nearest(report, USAGE_REPORTS) : null;
    throw new UsageError(near ? `${err.message} (did you mean ${near}?)` : err.message, HINT, err.details);
  }
}

/** Writes and exits once it is written (a pipe may still hold it); a closed stdout ends quietly (cli/stdio.ts). */
function writeAndExit(text: string): void {
  process.stdout.write(text, () => process.exit(0));
}

export default defineCommand({
  meta: { name: "usage", description: "Tokens and cost by day, week, month, session, project or 5-hour block; asks the daemon, or reads the store in-process when none runs" },
  args: {
    report: { type: "positional", required: false, description: "daily (default), weekly, monthly, session, project or blocks (Claude's 5-hour billing blocks; Claude Code unless --provider names another)", valueHint: "report" },
    provider: { type: "string", description: `Only this provider: ${PROVIDER_WORDS}`, valueHint: "P" },
    since: { type: "string", alias: "s", description: "First day, YYYY-MM-DD or YYYYMMDD, in the time zone", valueHint: "day" },
    until: { type: "string", alias: "u", description: "Last day (inclusive), YYYY-MM-DD or YYYYMMDD", valueHint: "day" },
    timezone: { type: "string", alias: "z", description: "IANA time zone of the days (default this machine's)", valueHint: "tz" },
    json: { type: "boolean", alias: "j", description: "Print JSON (exact figures; stable shape, see docs/usage.md)" },
    breakdown: { type: "boolean", alias: "b", description: "One sub-row per model, with reasoning tokens" },
    "week-start": { type: "string", description: "weekly: the day weeks start on, monday to sunday (default the config's weekStart, monday)", valueHint: "day" },
    exact: { type: "boolean", alias: "e", description: "Every figure in full (1,574,828, not 1.6M); the table grows wider than 80 columns" },
    timeout: { type: "string", description: "No daemon running: give up the first read of the files after this many seconds (exit 4, nothing printed); default no limit", valueHint: "s" },
  },
  async run({ args }) {
    try {
      const params = paramsOf(args);
      const budgetMs = timeoutFlag(args.timeout, HINT);
      const paths = resolvePaths();
      const client = await ControlClient.tryConnect(paths.socketFile);
      let report: UsageReport;
      let local: LocalUsage | null = null;
      if (client) {
        try {
          // Without --week-start the daemon's config decides (its weekStart).
          const { weekStart, ...rest } = params;
          report = await client.call<UsageReport>("usage", { ...rest, ...(typeof args["week-start"] === "string" ? { weekStart } : {}) }, DAEMON_REPORT_TIMEOUT_MS);
        } catch (err) {
          if (err instanceof InsightsError && err.code === "UNKNOWN_METHOD") {
            throw new InsightsError("CONTROL_PROTOCOL", "the running daemon is an older version that has no usage report", { hint: "Restart it (`insightsctl restart`) to run this version." });
          }
          throw err;
        } finally {
          client.close();
        }
      } else {
        // In-process only: the validated config (a bad value stops here, naming the key) and the store.
        const [{ cliContext }, { usageLocally }] = await Promise.all([import("../context.js"), import("../usage-local.js")]);
        const config = cliContext().loaded.config;
        local = await usageLocally(paths, config, typeof args["week-start"] === "string" ? params : { ...params, weekStart: config.weekStart }, budgetMs);
        report = local.report;
        note(`gateway-insights is not running; read the store in-process from ${local.demo ? "the bundled demo state" : local.providers.join(", ") || "no provider"}`);
      }
      if (!report.scanComplete) note("the first read of the transcripts has not finished: the figures are partial (the rest is read in the background by the daemon, or on the next run)");
      const text = args.json ? `${JSON.stringify(report, null, 2)}\n` : `${(await import("../usage-table.js")).usageTable(report, { color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR, home: process.env.HOME ?? null, exact: args.exact === true }).map(forStdout).join("\n")}\n`;
      await local?.close();
      writeAndExit(text);
    } catch (err) {
      fail(err);
    }
  },
});
