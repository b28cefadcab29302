// What the interfaces serve beyond the read model: the live event fan-out, alerting, the
// gateway's operations, and the card's render pool and snapshot service. Apart from the
// composition root because each is fed by the collector's changes and configured from the config
// alone; the HTTP routes and the control socket only call them.
import type { Config } from "../shared/config/options.js";
import type { LogHub } from "../shared/base/log/logger.js";
import type { OpenData } from "../shared/open-data.js";
import { GATEWAY } from "../shared/providers/modules.js";
import { AlertService } from "./alerts/alert-service.js";
import type { DeliveryQueueOptions } from "./alerts/delivery-queue.js";
import { readModelInputs } from "./alerts/read-model-inputs.js";
import { LiveEvents } from "./live/live-events.js";
import { GatewayOperations } from "./operations/gateway-operations.js";
import { RenderPool } from "./snapshot/render-pool.js";
import { StatuslineIntake } from "./statusline/intake.js";
import { SnapshotService, type SnapshotServiceOptions } from "./snapshot/service.js";
import type { Cleanup } from "./wire-base.js";

interface ServicesOptions {
  data: OpenData;
  config: Config;
  current: () => Config;
  hub: LogHub;
  cleanup: Cleanup;
  alertDelivery?: DeliveryQueueOptions;
  alertDebounceMs?: number;
  snapshotSeams?: Pick<SnapshotServiceOptions, "refresh" | "render">;
}

interface Services {
  live: LiveEvents;
  alerts: AlertService;
  operations: GatewayOperations;
  renderPool: RenderPool;
  snapshots: SnapshotService;
  intake: StatuslineIntake;
}

export function startServices(o: ServicesOptions): Services {
  const { data, config, current, hub } = o;
  const { clock, collector, model, store, location } = data;
  const live = new LiveEvents({ clock, logger: hub.logger.child("live") });
  collector.onChange((source) => live.changed(source));
  const alerts = new AlertService({
    store,
    clock,
    logger: hub.logger.child("alerts"),
    config: () => current().alerts,
    defaultTimeZone: model.timeZone,
    inputs: (now, timeZone) => readModelInputs(model, store, { now, timeZone, rawDays: current().retentionRawDays }),
    ...(o.alertDelivery ? { delivery: o.alertDelivery } : {}),
    ...(o.alertDebounceMs !== undefined ? { debounceMs: o.alertDebounceMs } : {}),
  });
  o.cleanup.add(() => alerts.close());
  // Every change re-evaluates the rules (debounced); evaluation only reads, delivery is queued.
  collector.onChange(() => alerts.changed());
  collector.onLogEntry((entry) => live.log(entry));
  const operations = new GatewayOperations({
    clock,
    logger: hub.logger.child("operations"),
    command: () => current().openclawCommand,
    args: GATEWAY?.operations.args ?? { restart: [], update: [] },
    env: () => ({ ...process.env, ...(location && GATEWAY ? GATEWAY.operations.env(location) : {}) }),
    refuse: () => (!location || !GATEWAY ? "OpenClaw is not read here: there is no gateway to control" : location.demo ? "demo mode: there is no gateway to control" : null),
    onFinished: (name) => {
      if (name === "update") void collector.gateway?.recheckUpdates();
    },
  });
  const renderPool = new RenderPool({
    size: config.renderConcurrency,
    logger: hub.logger.child("render"),
    idleMs: config.renderIdleSeconds * 1000,
    renderTimeoutMs: config.totalTimeoutSeconds * 1000,
  });
  o.cleanup.add(() => renderPool.close());
  const snapshots = new SnapshotService({
    model,
    collector,
    clock,
    logger: hub.logger.child("snapshot"),
    concurrency: config.renderConcurrency,
    maxQueue: config.renderQueueMax,
    queueWaitMs: config.renderQueueWaitSeconds * 1000,
    collectTimeoutMs: config.collectTimeoutSeconds * 1000,
    totalTimeoutMs: config.totalTimeoutSeconds * 1000,
    ratePerMinute: config.snapshotRateLimitPerMinute,
    maxBytes: config.snapshotMaxBytes,
    render: (card, format) => renderPool.render(card, format),
    renderPages: (card, maxHeightPx) => renderPool.renderPages(card, maxHeightPx),
    // A test's own renderer needs no worker warming beside it.
    ...(o.snapshotSeams?.render ? {} : { prepareRender: () => renderPool.prepare() }),
    ...o.snapshotSeams,
  });
  // Claude Code's plan windows, handed over by `insightsctl statusline` (daemon/statusline/intake.ts).
  const intake = new StatuslineIntake({
    store,
    model,
    clock,
    logger: hub.logger.child("statusline"),
    countWarning: (source, w) => collector.registry.source(source)?.countWarnings([w]),
    changed: (source) => {
      live.changed(source);
      alerts.changed();
    },
  });
  return { live, alerts, operations, renderPool, snapshots, intake };
}
