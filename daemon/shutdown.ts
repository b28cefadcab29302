// The daemon's stop: stop accepting, let in-flight work finish within the grace period, close
// everything in reverse start order. Apart from the composition root because the drain's order
// and its bounds are their own concern (each step says why it comes where it does).
import { errorMessage } from "../shared/base/errors.js";
import type { Collector } from "../shared/ingest/collector.js";
import type { Logger } from "../shared/base/log/logger.js";
import type { Store } from "../shared/store/store.js";
import type { AlertService } from "./alerts/alert-service.js";
import type { ControlServer } from "./control/server.js";
import type { HttpServer } from "./http/server.js";
import type { LiveEvents } from "./live/live-events.js";
import type { OtlpPush } from "./metrics/otlp.js";
import type { RenderPool } from "./snapshot/render-pool.js";

/** What is closed, in the order it is closed. */
export interface ShutdownParts {
  live: LiveEvents;
  alerts: AlertService;
  http: HttpServer;
  control: ControlServer;
  collector: Collector;
  otlp: OtlpPush | null;
  demo: { stop(): Promise<void> } | null;
  interfaces: { close(): Promise<void> };
  renderPool: RenderPool;
  store: Store;
}

/** Drains and closes the parts within `graceMs`; never throws (what fails is logged). */
export async function shutdown(p: ShutdownParts, graceMs: number, log: Logger): Promise<void> {
  const graceEnds = Date.now() + graceMs;
  // Ending the live streams first lets their HTTP responses finish instead of holding the drain.
  p.live.close();
  p.alerts.close();
  const [{ drained }] = await Promise.all([p.http.close(graceMs), p.control.close(), p.collector.stop()]);
  // A last push of the final figures, while the store is still open, within what is left of
  // the grace period: the SDK retries a Collector that is down for up to 10 s, which made every
  // stop and restart wait that long and end in the service manager's SIGTERM.
  if (p.otlp && !(await p.otlp.stop(Math.max(0, graceEnds - Date.now())))) {
    log.warn("the last OTLP push did not finish within the grace period and was abandoned", { graceMs });
  }
  await p.demo?.stop().catch((err: unknown) => log.warn("stopping the demo failed", { error: errorMessage(err) }));
  await p.interfaces.close().catch((err: unknown) => log.warn("closing GraphQL failed", { error: errorMessage(err) }));
  await p.renderPool.close();
  if (!drained) log.warn("in-flight requests did not finish within the grace period and were cut", { graceMs });
  try {
    p.store.close();
  } catch (err) {
    log.error("closing the store failed", { error: errorMessage(err) });
  }
}
