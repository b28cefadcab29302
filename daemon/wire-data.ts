// The daemon's data: the store, the providers' readers, the collector and the read model
// (shared/open-data.ts), and in demo mode the demo gateway and its replay. Apart from the
// composition root because what is read, and from where, is decided here once per start.
import type { StatuslineIntake } from "./statusline/intake.js";
import type { Clock } from "../shared/base/clock.js";
import type { Config } from "../shared/config/options.js";
import { startDemoRuntime, type DemoRuntime, type DemoRuntimeOptions } from "../shared/demo-replay/runtime.js";
import type { LogHub } from "../shared/base/log/logger.js";
import { openData, type OpenData, type OpenDataOptions } from "../shared/open-data.js";
import type { Paths } from "../shared/base/paths.js";
import type { AlertService } from "./alerts/alert-service.js";
import { activeAlertFigures } from "./alerts/figures.js";
import type { HttpServer } from "./http/server.js";
import type { SnapshotService } from "./snapshot/service.js";
import type { Cleanup } from "./wire-base.js";
import { displayNames } from "../shared/providers/registry.js";

/** Parts made after the data, which the data's figures read at request time (unset until they exist). */
export interface LateParts {
  intake?: StatuslineIntake;
  daemon?: { readonly config: Config; baseUrl(): string };
  http?: HttpServer;
  snapshots?: SnapshotService;
  alerts?: AlertService;
}

interface DataOptions {
  paths: Paths;
  config: Config;
  env: Record<string, string | undefined>;
  hub: LogHub;
  clock?: Clock;
  /** Collector seams and pace overrides (tests); a zero pace means the default. */
  seams: Pick<NonNullable<OpenDataOptions["collector"]>, "scanMs" | "logMs" | "cronMs" | "probeHttp" | "channels" | "updates">;
  demoReplay?: Pick<DemoRuntimeOptions, "timers" | "random">;
  late: LateParts;
  cleanup: Cleanup;
}

export async function openDaemonData(o: DataOptions): Promise<{ data: OpenData; demo: DemoRuntime | null }> {
  const { config, late, hub } = o;
  const data = openData({
    paths: o.paths,
    config,
    current: () => late.daemon?.config ?? config,
    env: o.env,
    logger: hub.logger,
    ...(o.clock ? { clock: o.clock } : {}),
    collector: collectorSeams(o.seams),
    daemon: () => ({
      authMode: (late.daemon?.config.noAuth ?? config.noAuth) ? "none" : "token",
      url: late.daemon?.baseUrl() ?? null,
      requestsTotal: late.http?.requestsTotal ?? 0,
      renderQueue: late.snapshots?.queueStats() ?? null,
    }),
    // The status card shows the alerts firing now; the service starts after the data.
    alerts: () => (late.alerts ? activeAlertFigures(late.alerts, data.clock.now()) : []),
    // Claude Code's plan windows without a reading: why (no status line, an API-key login).
    rateLimitsMissing: (_provider, ids) => late.intake?.missing(ids) ?? null,
  });
  o.cleanup.add(() => data.close());
  const { location, clock } = data;
  if (data.demo) hub.logger.child("daemon").info(`no provider's data found (${displayNames("or")}); serving the bundled demo state`, { dir: location?.dir });
  const demo =
    location?.demo && location.installed
      ? await startDemoRuntime({ stateDir: location.dir, installed: location.installed, clock, logger: hub.logger, replay: true, ...o.demoReplay })
      : null;
  if (demo) o.cleanup.add(() => demo.stop());
  return { data, demo };
}

function collectorSeams(s: DataOptions["seams"]): NonNullable<OpenDataOptions["collector"]> {
  return {
    ...(s.scanMs ? { scanMs: s.scanMs } : {}),
    ...(s.logMs ? { logMs: s.logMs } : {}),
    ...(s.cronMs ? { cronMs: s.cronMs } : {}),
    ...(s.probeHttp ? { probeHttp: s.probeHttp } : {}),
    ...(s.channels !== undefined ? { channels: s.channels } : {}),
    ...(s.updates !== undefined ? { updates: s.updates } : {}),
  };
}
