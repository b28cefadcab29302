// Every HTTP interface of the daemon on one server (design §1 "interfaces"): /health, the
// browser sign-in and session endpoints, GraphQL, /metrics, the snapshot REST endpoint and MCP.
// Each route says its auth rule; the server's guard applies it before the handler runs.
import type { IncomingMessage } from "node:http";
import type { Logger } from "../../shared/base/log/logger.js";
import type { ReadModel } from "../../shared/queries/read-model.js";
import type { AuthCheck } from "../auth/guard.js";
import { mountGraphQL } from "../graphql/mount.js";
import type { StreamLimits } from "../graphql/stream-limits.js";
import type { LiveEvents } from "../live/live-events.js";
import type { AlertService } from "../alerts/alert-service.js";
import { mountMcp } from "../mcp/mount.js";
import type { GatewayOperations } from "../operations/gateway-operations.js";
import type { SnapshotService } from "../snapshot/service.js";
import { healthRoute, type HealthBody } from "./routes/health.js";
import { metricsRoute, type MetricsRouteDeps } from "./routes/metrics.js";
import { logoutRoute, sessionInfoRoute, signInRoute, type SessionRoutesOptions } from "./routes/session.js";
import { MAX_SNAPSHOT_BODY_BYTES, snapshotRoute } from "./routes/snapshot.js";
import type { HttpServer } from "./server.js";
import { WebAssets } from "../web/assets.js";
import { assetRoute, dashboardPage } from "../web/routes.js";

interface RoutesOptions {
  http: HttpServer;
  model: ReadModel;
  live: LiveEvents;
  alerts: AlertService;
  operations: GatewayOperations;
  snapshots: SnapshotService;
  session: SessionRoutesOptions;
  authCheck: AuthCheck;
  health: () => HealthBody;
  peerOf: (req: IncomingMessage) => string | undefined;
  logger: Logger;
  /** This machine's name in insights_build_info (config hostName, default the hostname). */
  hostName: () => string;
  /** Overrides of the GraphQL live-operation caps (tests). */
  graphqlLimits?: Partial<StreamLimits>;
}

/** Registers the routes; resolves with what must be closed on stop. */
export async function mountRoutes(o: RoutesOptions): Promise<{ close(): Promise<void> }> {
  const { http } = o;
  http.route("GET", "/health", healthRoute(o.health), { publicPath: true });
  const web = new WebAssets();
  http.route("GET", "/", signInRoute(o.session, dashboardPage(web)), { publicPath: true });
  http.routePrefix("GET", "/assets/", assetRoute(web), { publicPath: true });
  http.route("GET", "/api/session", sessionInfoRoute(o.session));
  http.route("POST", "/api/logout", logoutRoute());
  http.route("POST", "/api/snapshot", snapshotRoute(o.snapshots, o.peerOf), { maxBodyBytes: MAX_SNAPSHOT_BODY_BYTES });
  // The one route the read-only metrics token opens (daemon/auth/guard.ts).
  http.route("GET", "/metrics", metricsRoute(metricsDeps(o)), { metricsScope: true });
  mountMcp(http, o.snapshots, o.logger.child("mcp"), o.peerOf);
  return mountGraphQL({ http, model: o.model, live: o.live, alerts: o.alerts, operations: o.operations, logger: o.logger.child("graphql"), authCheck: o.authCheck, ...(o.graphqlLimits ? { limits: o.graphqlLimits } : {}) });
}

/** What GET /metrics (and the OTLP push, which sends the same figures) reads. */
export function metricsDeps(o: Pick<RoutesOptions, "http" | "model" | "live" | "snapshots" | "alerts" | "hostName">): MetricsRouteDeps {
  return {
    model: o.model,
    http: o.http,
    live: () => ({ ...o.live.subscribers, dropped: o.live.dropped }),
    renders: () => o.snapshots.renderStats(),
    alerts: o.alerts,
    hostName: o.hostName,
  };
}
