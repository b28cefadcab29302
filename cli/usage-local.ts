// `insightsctl usage` with no daemon running: the same providers, store and report as the
// daemon's, in this process. The providers' files are read to the end first (cli/first-read.ts):
// the report is whole, or the command fails with READ_INCOMPLETE and prints nothing.
import { systemClock } from "../shared/base/clock.js";
import type { Config } from "../shared/config/options.js";
import { LogHub } from "../shared/base/log/logger.js";
import { openData } from "../shared/open-data.js";
import type { Paths } from "../shared/base/paths.js";
import type { UsageReportParams } from "../shared/queries/usage-params.js";
import type { UsageReport } from "../shared/queries/usage-report.js";
import { firstRead } from "./first-read.js";

export interface LocalUsage {
  report: UsageReport;
  /** The providers read. */
  providers: string[];
  demo: boolean;
  close(): Promise<void>;
}

/** `budgetMs`: the user's --timeout, or null to read to the end however long it takes. */
export async function usageLocally(paths: Paths, config: Config, params: UsageReportParams, budgetMs: number | null): Promise<LocalUsage> {
  // The daemon's log is not ours to write.
  const hub = new LogHub({ console: "off" });
  const read = firstRead({ budgetMs, clock: systemClock, stream: process.stderr });
  const data = openData({ paths, config, env: process.env, logger: hub.logger, collector: { channels: false, updates: false, scanProgress: read.tally.record } });
  await read.run(data.collector);
  return {
    report: data.model.usageReport(params),
    providers: data.collector.registry.readProviders().map((p) => p.name),
    demo: data.demo,
    close: () => data.close(),
  };
}
