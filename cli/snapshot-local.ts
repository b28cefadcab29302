// `insightsctl snapshot` with no daemon running: the same sources, store and renderer, in this
// process, for one card. The providers' files are read to the end first (cli/first-read.ts), so
// the card's figures are whole; --quick draws from what the store already holds.
import { systemClock } from "../shared/base/clock.js";
import type { Config } from "../shared/config/options.js";
import { startDemoRuntime } from "../shared/demo-replay/runtime.js";
import { LogHub } from "../shared/base/log/logger.js";
import { openData } from "../shared/open-data.js";
import type { Paths } from "../shared/base/paths.js";
import type { SnapshotParams } from "../shared/snapshot/params.js";
import { produceSnapshot, type SnapshotResult } from "../shared/snapshot/pipeline.js";
import { firstRead } from "./first-read.js";

/** `budgetMs`: the user's --timeout for the first read, or null for none. */
export async function renderLocally(paths: Paths, config: Config, params: SnapshotParams, quick: boolean, budgetMs: number | null): Promise<{ result: SnapshotResult; providers: string[]; demo: boolean }> {
  // The daemon's log is not ours to write; problems surface as degraded sources on the card.
  const hub = new LogHub({ console: "off" });
  const read = firstRead({ budgetMs, clock: systemClock, stream: process.stderr });
  const data = openData({ paths, config, env: process.env, logger: hub.logger, collector: { channels: false, scanProgress: read.tally.record } });
  if (!quick) await read.run(data.collector);
  const { location } = data;
  // The demo's gateway answers for this one card (no replay: nothing runs long enough to see it).
  const demo = location?.demo && location.installed ? await startDemoRuntime({ stateDir: location.dir, installed: location.installed, clock: data.clock, logger: hub.logger, replay: false }) : null;
  let result: SnapshotResult;
  try {
    result = await produceSnapshot(params, {
      model: data.model,
      clock: data.clock,
      refresh: (job) => data.collector.run(job),
      collectTimeoutMs: quick ? 1000 : config.collectTimeoutSeconds * 1000,
      maxBytes: config.snapshotMaxBytes,
    });
  } finally {
    await demo?.stop();
  }
  // --quick: a first scan of a large state dir may still run; what it committed is kept, the
  // rest waits for the next run (the store is crash-safe), so the CLI does not wait for it.
  return { result, providers: data.collector.registry.readProviders().map((p) => p.name), demo: data.demo };
}
