// `insightsctl usage` with no daemon running: the same providers, store and report as the
// daemon's, in this process. One pass over the sources brings the store up to date within the
// collect budget first; a first read that takes longer goes on in the background and whatever it
// committed counts (the report says `scanComplete: false`).
import type { Config } from "../shared/config/options.js";
import { withDeadline } from "../shared/ingest/collector.js";
import { LogHub } from "../shared/log/logger.js";
import { openData } from "../shared/open-data.js";
import type { Paths } from "../shared/paths.js";
import type { UsageReport, UsageReportParams } from "../shared/queries/usage-report.js";

export interface LocalUsage {
  report: UsageReport;
  /** The providers read. */
  providers: string[];
  demo: boolean;
  /** The pass over the sources ended within the budget (the process may exit cleanly). */
  settled: boolean;
  close(): Promise<void>;
}

export async function usageLocally(paths: Paths, config: Config, params: UsageReportParams): Promise<LocalUsage> {
  // The daemon's log is not ours to write.
  const hub = new LogHub({ console: "off" });
  const data = openData({ paths, config, env: process.env, logger: hub.logger, collector: { channels: false, updates: false } });
  const settled = (await withDeadline(data.collector.run("agents"), config.collectTimeoutSeconds * 1000)) === "done";
  return {
    report: data.model.usageReport(params),
    providers: data.collector.registry.readProviders().map((p) => p.name),
    demo: data.demo,
    settled,
    close: () => data.close(),
  };
}
