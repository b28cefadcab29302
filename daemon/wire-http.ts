// The daemon's HTTP side: the API token and sign-in, the server and its guard, every route, the
// quiet collection that watches for requests, and the OTLP push of the /metrics figures. Apart from
// the composition root because auth and the interfaces change together and with nothing else.
import type { IncomingMessage } from "node:http";
import { systemClock, type Clock } from "../shared/base/clock.js";
import type { LoadedConfig } from "../shared/config/load.js";
import { OPTIONS, type Config } from "../shared/config/options.js";
import { effectiveHostName } from "../shared/config/host-name.js";
import { ConfigError } from "../shared/base/errors.js";
import type { Collector } from "../shared/ingest/collector.js";
import type { LogHub, Logger } from "../shared/base/log/logger.js";
import type { Paths } from "../shared/base/paths.js";
import type { ReadModel } from "../shared/queries/read-model.js";
import { VERSION } from "../shared/base/version.js";
import type { AlertService } from "./alerts/alert-service.js";
import { FailureLimiter } from "./auth/failure-limiter.js";
import { createAuthCheck, createAuthGuard, type AuthCheck } from "./auth/guard.js";
import { openSessionKeyRing } from "./auth/key-ring-file.js";
import { ensureToken } from "./auth/token.js";
import { tokensEqual } from "./auth/authenticate.js";
import type { StreamLimits } from "./graphql/stream-limits.js";
import { metricsDeps, mountRoutes } from "./http/mount-routes.js";
import { buildExposition } from "./http/routes/metrics.js";
import type { HealthBody } from "./http/routes/health.js";
import type { SessionRoutesOptions } from "./http/routes/session.js";
import { HttpServer } from "./http/server.js";
import type { LiveEvents } from "./live/live-events.js";
import type { OtlpPush } from "./metrics/otlp.js";
import type { GatewayOperations } from "./operations/gateway-operations.js";
import { QUIET_MS, QuietGc, type QuietGcOptions } from "./quiet-gc.js";
import type { SnapshotService } from "./snapshot/service.js";
import type { Cleanup } from "./wire-base.js";

const HOUR = 3_600_000;

/** The API token (made on first start); the scrape token must differ from it. */
export function apiToken(paths: Paths, loaded: LoadedConfig, log: Logger): string {
  const { config } = loaded;
  const { token, origin: tokenOrigin } = ensureToken(paths.tokenFile, config.token);
  if (tokenOrigin === "generated") log.info("generated a new API token", { file: paths.tokenFile });
  if (config.metricsToken !== null && tokensEqual(config.metricsToken, token)) {
    throw new ConfigError("metricsToken", "<hidden>", loaded.origins.metricsToken === "env" ? `env ${OPTIONS.metricsToken.env}` : paths.configFile, "a token other than the API token (the scrape token is read-only)");
  }
  if (config.metricsToken !== null && config.noAuth) log.warn("metricsToken is ignored in no-auth mode: /metrics answers loopback peers without a token");
  return token;
}

interface HttpAuth {
  http: HttpServer;
  session: SessionRoutesOptions;
  authCheck: AuthCheck;
  peerOf: (req: IncomingMessage) => string | undefined;
}

/** The server (not listening yet) behind its auth guard. */
export function createHttp(o: { config: Config; paths: Paths; token: string; clock: Clock; injectedClock?: Clock; peerOf?: HttpAuth["peerOf"]; hub: LogHub }): HttpAuth {
  const { config, hub } = o;
  // Auth runs on real time even in demo mode (whose clock replays the recording), so the saved
  // session keys' ages mean the same after a restart.
  const authClock = o.injectedClock ?? systemClock;
  const ring = openSessionKeyRing({
    file: o.paths.sessionKeysFile,
    token: o.token,
    now: authClock.now(),
    rotateMs: config.sessionRotateHours * HOUR,
    graceMs: config.sessionGraceHours * HOUR,
    logger: hub.logger.child("auth"),
  });
  const limiter = new FailureLimiter();
  const peerOf = o.peerOf ?? ((req: IncomingMessage) => req.socket.remoteAddress);
  const auth = { token: o.token, metricsToken: config.metricsToken, noAuth: config.noAuth, ring, limiter, clock: authClock, peerOf };
  const authCheck = createAuthCheck({ ...auth, logger: hub.logger.child("auth") });
  const http = new HttpServer({ host: config.host, port: config.port, logger: hub.logger.child("http"), clock: o.clock, guard: createAuthGuard(authCheck) });
  return { http, session: { ...auth, logger: hub.logger.child("auth") }, authCheck, peerOf };
}

interface ServeOptions extends HttpAuth {
  config: Config;
  current: () => Config;
  hub: LogHub;
  collector: Collector;
  model: ReadModel;
  live: LiveEvents;
  alerts: AlertService;
  operations: GatewayOperations;
  snapshots: SnapshotService;
  health: () => HealthBody;
  cleanup: Cleanup;
  graphqlLimits?: Partial<StreamLimits>;
  quietGc?: QuietGcOptions;
  otlpIntervalMs?: number;
}

export interface Serving {
  interfaces: { close(): Promise<void> };
  address: { host: string; port: number };
  quiet: QuietGc;
  otlp: OtlpPush | null;
}

/** Mounts every route, listens, and starts what watches the traffic and pushes the figures. */
export async function serveHttp(o: ServeOptions): Promise<Serving> {
  const { http, hub, cleanup } = o;
  const hostName = (): string => effectiveHostName(o.current());
  const { model, live, alerts, snapshots } = o;
  const interfaces = await mountRoutes({ http, model, live, alerts, operations: o.operations, snapshots, session: o.session, authCheck: o.authCheck, health: o.health, hostName, peerOf: o.peerOf, logger: hub.logger, ...(o.graphqlLimits ? { graphqlLimits: o.graphqlLimits } : {}) });
  cleanup.add(() => interfaces.close());
  const address = await http.listen();
  cleanup.add(() => http.close(0).then(() => undefined));
  // Memory back once nobody asks anything for a while (quiet-gc.ts says why).
  // Sources idle as long as the daemon hand back what they keep for their next change first.
  const quiet = new QuietGc({ release: () => o.collector.registry.releaseAtRest(o.quietGc?.quietMs ?? QUIET_MS), ...o.quietGc });
  http.raw.on("request", () => quiet.touch());
  http.raw.on("upgrade", () => quiet.touch());
  quiet.start();
  cleanup.add(() => quiet.stop());

  // The SDK is loaded only when a push is configured (docs/fleet.md "OTLP push").
  let otlp: OtlpPush | null = null;
  if (o.config.otlpEndpoint !== null) {
    const { startOtlpPush } = await import("./metrics/otlp.js");
    const deps = metricsDeps({ http, model, live, snapshots, alerts, hostName });
    otlp = startOtlpPush({
      endpoint: o.config.otlpEndpoint,
      intervalMs: o.otlpIntervalMs ?? o.config.otlpIntervalSeconds * 1000,
      hostName: effectiveHostName(o.config),
      version: VERSION,
      families: () => buildExposition(deps).families(),
      logger: hub.logger.child("otlp"),
    });
    const push = otlp;
    cleanup.add(async () => void (await push.stop()));
  }
  return { interfaces, address, quiet, otlp };
}
