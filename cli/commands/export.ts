// `insightsctl export --since D [--until D] [--json|--csv]`: daily rows per host, provider,
// source, model and project (shared/queries/export.ts), for merging several machines' usage
// (docs/fleet.md "Export"). Asks the daemon, or reads the store in-process like `usage`.
import { defineCommand } from "citty";
import { PROVIDER_WORDS } from "../../shared/providers/registry.js";
import { UsageError } from "../../shared/config/argv.js";
import { effectiveHostName } from "../../shared/config/host-name.js";
import { InsightsError } from "../../shared/base/errors.js";
import { exportCsv, parseExportParams, type ExportParams, type ExportReport } from "../../shared/queries/export.js";
import { cliContext } from "../context.js";
import { ControlClient } from "../control-client.js";
import { fail, note } from "../output.js";
import { timeoutFlag } from "../timeout-flag.js";

const HINT = "See `insightsctl export --help` for what it accepts.";

function paramsOf(args: Record<string, unknown>): ExportParams {
  try {
    return parseExportParams(
      {
        ...(typeof args.since === "string" ? { since: args.since } : {}),
        ...(typeof args.until === "string" ? { until: args.until } : {}),
        ...(typeof args.timezone === "string" ? { timeZone: args.timezone } : {}),
        ...(typeof args.provider === "string" ? { provider: args.provider } : {}),
      },
      // UTC unless asked: rows of several machines merge only when their days are the same days.
      "UTC",
    );
  } catch (err) {
    if (err instanceof InsightsError && err.code === "INVALID_PARAM") throw new UsageError(err.message, HINT, err.details);
    throw err;
  }
}

export default defineCommand({
  meta: { name: "export", description: "Daily usage rows per host, provider, source, model and project, as JSON or CSV, to merge several machines' exports" },
  args: {
    since: { type: "string", alias: "s", description: "First day, YYYY-MM-DD or YYYYMMDD (required)", valueHint: "day" },
    until: { type: "string", alias: "u", description: "Last day (inclusive); default today", valueHint: "day" },
    timezone: { type: "string", alias: "z", description: "IANA time zone of the days (default UTC, so hosts' days line up)", valueHint: "tz" },
    provider: { type: "string", description: `Only this provider: ${PROVIDER_WORDS}`, valueHint: "P" },
    json: { type: "boolean", alias: "j", description: "JSON (the default): the rows with the export's host, zone and time" },
    csv: { type: "boolean", description: "CSV with a header line (the same columns as the JSON rows)" },
    timeout: { type: "string", description: "No daemon running: give up the first read of the files after this many seconds (exit 4, nothing printed); default no limit", valueHint: "s" },
  },
  async run({ args }) {
    try {
      if (args.json === true && args.csv === true) throw new UsageError("--json and --csv exclude each other", HINT);
      const params = paramsOf(args);
      const budgetMs = timeoutFlag(args.timeout, HINT);
      const { paths, loaded } = cliContext();
      const client = await ControlClient.tryConnect(paths.socketFile);
      let report: ExportReport;
      if (client) {
        try {
          report = await client.call<ExportReport>("export", { ...params }, (loaded.config.collectTimeoutSeconds + 30) * 1000);
        } catch (err) {
          if (err instanceof InsightsError && err.code === "UNKNOWN_METHOD") {
            throw new InsightsError("CONTROL_PROTOCOL", "the running daemon is an older version that has no export", { hint: "Restart it (`insightsctl restart`) to run this version." });
          }
          throw err;
        } finally {
          client.close();
        }
      } else {
        const [{ firstRead }, { LogHub }, { openData }, { systemClock }] = await Promise.all([import("../first-read.js"), import("../../shared/base/log/logger.js"), import("../../shared/open-data.js"), import("../../shared/base/clock.js")]);
        // The daemon's log is not ours to write.
        const hub = new LogHub({ console: "off" });
        // The files are read to the end first: whole rows, or READ_INCOMPLETE and nothing printed.
        const read = firstRead({ budgetMs, clock: systemClock, stream: process.stderr });
        const data = openData({ paths, config: loaded.config, env: process.env, logger: hub.logger, collector: { channels: false, updates: false, scanProgress: read.tally.record } });
        await read.run(data.collector);
        report = data.model.exportReport(params, effectiveHostName(loaded.config));
        note(`gateway-insights is not running; read the store in-process from ${data.demo ? "the bundled demo state" : data.collector.registry.readProviders().map((p) => p.name).join(", ") || "no provider"}`);
        await data.close();
      }
      if (!report.scanComplete) note("the first read of the transcripts has not finished: the figures are partial; export again later (rows with the same key replace these)");
      const text = args.csv === true ? exportCsv(report) : `${JSON.stringify(report, null, 2)}\n`;
      process.stdout.write(text, () => process.exit(0));
    } catch (err) {
      fail(err);
    }
  },
});
