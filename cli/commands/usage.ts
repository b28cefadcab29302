import { defineCommand } from "citty";
import { PROVIDER_WORDS } from "../../shared/providers/registry.js";
import { nearest, UsageError } from "../../shared/config/argv.js";
import { InsightsError } from "../../shared/base/errors.js";
import { askDaemon, PARTIAL_NOTE, rawParamsOf } from "../usage-daemon.js";
import { parseUsageParams, USAGE_REPORTS, type UsageReportParams } from "../../shared/queries/usage-params.js";
import { machineZone, machineZoneName } from "../machine-zone.js";
import type { UsageReport } from "../../shared/queries/usage-report.js";
import { resolvePaths } from "../../shared/base/paths.js";
import { ControlClient } from "../control-client.js";
import { fail, note } from "../output.js";
import { forStdout } from "../stdio.js";
import { timeoutFlag } from "../timeout-flag.js";
import type { LocalUsage } from "../usage-local.js";

const HINT = "See `insightsctl usage --help` for what it accepts.";

/**
 * The flags as the report's params; a bad one is a usage error (exit 2). `zone` null: every value
 * checked here, the machine's zone by Intl (cli/machine-zone.ts). A zone given: it is taken unchecked,
 * for a daemon to check (see the run below).
 */
function paramsOf(args: Record<string, unknown>, zone: string | null = null): UsageReportParams {
  const report = typeof args.report === "string" ? args.report : undefined;
  try {
    // The machine's zone, sent to the daemon too: its own may differ.
    if (zone !== null) return parseUsageParams(rawParamsOf(args), zone, "monday", (z) => z);
    return parseUsageParams(rawParamsOf(args), typeof args.timezone === "string" ? "UTC" : machineZone());
  } catch (err) {
    if (!(err instanceof InsightsError) || err.code !== "INVALID_PARAM") throw err;
    const near = report !== undefined && err.details.param === "report" ? nearest(report, USAGE_REPORTS) : null;
    throw new UsageError(near ? `${err.message} (did you mean ${near}?)` : err.message, HINT, err.details);
  }
}

/**
 * Asks the daemon with `unchecked` (every flag checked but the zone: the flag's, else the machine's
 * by name; null when there is no name), the zone left to its check. When the daemon refuses the
 * params, they are checked here in full, which says what is wrong as a usage error, or (a TZ that
 * names no zone) settles on UTC, and the daemon is asked again.
 */
async function reportFromDaemon(client: ControlClient, args: Record<string, unknown>, unchecked: UsageReportParams | null): Promise<UsageReport> {
  if (unchecked !== null) {
    try {
      return await askDaemon(client, unchecked, args);
    } catch (err) {
      if (!(err instanceof InsightsError) || err.code !== "INVALID_PARAM") throw err;
    }
  }
  return askDaemon(client, paramsOf(args), args);
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
      // Every flag but the zone checked before anything is asked or read (the zone: see reportFromDaemon).
      const zone = typeof args.timezone === "string" ? args.timezone : machineZoneName();
      const unchecked = paramsOf(args, zone ?? "UTC");
      const budgetMs = timeoutFlag(args.timeout, HINT);
      const paths = resolvePaths();
      const client = await ControlClient.tryConnect(paths.socketFile);
      let report: UsageReport;
      let local: LocalUsage | null = null;
      if (client) {
        try {
          report = await reportFromDaemon(client, args, zone === null ? null : unchecked);
        } finally {
          client.close();
        }
      } else {
        const params = paramsOf(args);
        // In-process only: the validated config (a bad value stops here, naming the key) and the store.
        const [{ cliContext }, { usageLocally }] = await Promise.all([import("../context.js"), import("../usage-local.js")]);
        const config = cliContext().loaded.config;
        local = await usageLocally(paths, config, typeof args["week-start"] === "string" ? params : { ...params, weekStart: config.weekStart }, budgetMs);
        report = local.report;
        note(`gateway-insights is not running; read the store in-process from ${local.demo ? "the bundled demo state" : local.providers.join(", ") || "no provider"}`);
      }
      if (!report.scanComplete) note(PARTIAL_NOTE);
      const text = args.json ? `${JSON.stringify(report, null, 2)}\n` : `${(await import("../usage-table.js")).usageTable(report, { color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR, home: process.env.HOME ?? null, exact: args.exact === true }).map(forStdout).join("\n")}\n`;
      await local?.close();
      writeAndExit(text);
    } catch (err) {
      fail(err);
    }
  },
});
