// The daemon's periodic chores that are not part of any request: retention (hourly) and the look
// for provider data that appeared since the start (every few seconds). Apart from the composition
// root because they own timers that must end with the daemon, and retention also runs on reload.
import type { Clock } from "../shared/base/clock.js";
import type { Config } from "../shared/config/options.js";
import { errorMessage } from "../shared/base/errors.js";
import type { Logger } from "../shared/base/log/logger.js";
import type { ReadModel } from "../shared/queries/read-model.js";
import { runRetention } from "../shared/store/retention.js";
import type { Store } from "../shared/store/store.js";
import type { AlertService } from "./alerts/alert-service.js";

const HOUR = 3_600_000;

interface UpkeepOptions {
  store: Store;
  model: ReadModel;
  alerts: AlertService;
  clock: Clock;
  config: () => Config;
  log: Logger;
  /** Why the daemon must start anew on data that appeared (open-data.ts restartReason), or null. */
  restartReason: () => string | null;
  /** Called once with that reason; the daemon stops to start again. */
  onRestart: (reason: string) => void;
  discoveryMs: number;
}

export class Upkeep {
  private retentionTimer: NodeJS.Timeout | null = null;
  private discoveryTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly o: UpkeepOptions) {}

  start(): void {
    this.runRetentionNow();
    this.retentionTimer = setInterval(() => this.runRetentionNow(), HOUR);
    this.retentionTimer.unref();
    this.scheduleDiscovery();
  }

  stop(): void {
    this.stopped = true;
    if (this.retentionTimer) clearInterval(this.retentionTimer);
    if (this.discoveryTimer) clearInterval(this.discoveryTimer);
  }

  /**
   * Every few seconds, a stat of each provider's candidate dirs: real data that appeared beside the
   * demo, or an OpenClaw state dir where OpenClaw was not read, stops this daemon to start anew on
   * it (run.ts), as a start would have chosen. New Claude Code and Codex installs need no restart.
   */
  private scheduleDiscovery(): void {
    const check = (): void => {
      if (this.stopped) return;
      let reason: string | null;
      try {
        reason = this.o.restartReason();
      } catch (err) {
        this.o.log.warn("looking for new provider data failed", { error: errorMessage(err) });
        return;
      }
      if (!reason) return;
      this.o.log.info("new provider data: starting again to read it", { reason });
      this.o.onRestart(reason);
    };
    this.discoveryTimer = setInterval(check, this.o.discoveryMs);
    this.discoveryTimer.unref();
  }

  runRetentionNow(): void {
    const config = this.o.config();
    try {
      const r = runRetention(this.o.store, { rawDays: config.retentionRawDays, rollupDays: config.retentionRollupDays }, this.o.clock.now());
      // Rows moved from raw to hourly and were pruned without any source reporting a change.
      this.o.model.storeRewritten();
      // Alert history lives as long as the hourly rollups.
      Object.assign(r.deleted, this.o.alerts.prune(config.retentionRollupDays));
      const deleted = Object.values(r.deleted).reduce((a, b) => a + b, 0);
      if (deleted > 0) this.o.log.info("retention removed old rows", r.deleted);
    } catch (err) {
      this.o.log.error("retention job failed", { error: errorMessage(err) });
    }
  }
}
