// What the daemon says about itself: GET /health and the control socket's `status`. Apart from
// the composition root because both read every part the same way and change with the API's shape,
// not with how the parts are started.
import { hasCapability } from "../shared/providers/registry.js";
import type { Clock } from "../shared/base/clock.js";
import type { Config } from "../shared/config/options.js";
import type { DaemonStatus } from "../shared/control/protocol.js";
import { providerLookedAt } from "../shared/open-data.js";
import type { Paths } from "../shared/base/paths.js";
import { isGatewaySystem, type AnySystemView, type ReadModel } from "../shared/queries/read-model.js";
import type { GatewayState, HealthVerdict } from "../shared/queries/system.js";
import { INCIDENT_SHOWN_MS, type Store } from "../shared/store/store.js";
import { VERSION } from "../shared/base/version.js";
import type { HealthBody } from "./http/routes/health.js";

/** The parts the answers read, at the moment of asking. */
export interface StatusParts {
  model: ReadModel;
  store: Store;
  clock: Clock;
  config: Config;
  env: Record<string, string | undefined>;
  paths: Paths;
  demoMode: boolean;
  /** OpenClaw's state dir; null when OpenClaw is not read. */
  openclawDir: string | null;
  startedAt: number;
  address: { host: string; port: number };
}

const VERDICT_WORD: Record<HealthVerdict, HealthBody["status"]> = { STARTING: "starting", OK: "ok", DEGRADED: "degraded", UNHEALTHY: "unhealthy" };
const GATEWAY_WORD: Record<GatewayState, HealthBody["gateway"]> = { UP: "up", DOWN: "down", DEMO: "demo", UNKNOWN: "unknown" };

/** The URL the daemon answers on: a wildcard listen address is reached on loopback. */
export function baseUrl({ host, port }: { host: string; port: number }): string {
  const shown = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}`;
}

/**
 * GET /health. Its status is the one health verdict (shared/queries/health.ts) over the same
 * checks GraphQL `system.health` reports, so the two can never disagree.
 */
export function healthBody(p: StatusParts, systems: readonly AnySystemView[] = p.model.systems()): HealthBody {
  const overall = p.model.overallHealth(systems);
  const store = overall.checks.find((c) => c.name === "store");
  const openclaw = systems.find(isGatewaySystem);
  return {
    status: VERDICT_WORD[overall.verdict],
    version: VERSION,
    uptimeSeconds: Math.floor((p.clock.now() - p.startedAt) / 1000),
    demo: p.demoMode,
    gateway: openclaw ? GATEWAY_WORD[openclaw.gateway.state] : "none",
    providers: systems.map((s) => s.provider),
    store: store?.status === "FAIL" ? "error" : "ok",
    ...storeIncident(p),
    lookedAt: providerLookedAt(p.config, p.env),
  };
}

function storeIncident(p: StatusParts): Pick<HealthBody, "storeIncident"> {
  const inc = p.store.incident;
  if (!inc || (inc.state === "recovered" && p.clock.now() - inc.at >= INCIDENT_SHOWN_MS)) return {};
  return { storeIncident: { kind: inc.kind, state: inc.state, noticedAt: new Date(inc.at).toISOString(), lost: inc.lost !== null } };
}

/** The control socket's `status` (`insightsctl status`). */
export function daemonStatus(p: StatusParts): DaemonStatus {
  const { store, paths } = p;
  const storeHealth = store.health();
  const systems = p.model.systems();
  const overall = p.model.overallHealth(systems);
  const h = healthBody(p, systems);
  const gw = systems.find(isGatewaySystem)?.gateway ?? null;
  return {
    running: true,
    pid: process.pid,
    version: VERSION,
    startedAt: new Date(p.startedAt).toISOString(),
    uptimeSeconds: h.uptimeSeconds,
    url: baseUrl(p.address),
    demo: p.demoMode,
    health: h.status,
    openclawDir: p.openclawDir,
    stateDir: paths.stateDir,
    configFile: paths.configFile,
    socket: paths.socketFile,
    logFile: paths.logFile,
    auth: p.config.noAuth ? "none" : "token",
    gateway: {
      state: h.gateway,
      up: gw?.running ?? false,
      url: gw?.url ?? null,
      checkedAt: gw?.checkedAt ?? null,
      latencyMs: gw?.latencyMs ?? null,
      error: gw?.error ?? null,
      pid: gw?.pid ?? null,
      version: gw?.version ?? null,
    },
    healthLevel: overall.status,
    healthReasons: overall.reasons.map((c) => ({ name: c.name, status: c.status, message: c.message })),
    sources: p.model.sources().map((s) => ({ id: s.id, status: s.status, lastError: s.lastError })),
    providers: providerFigures(p.model, systems),
    store: { ok: storeHealth.ok, path: store.path, sizeBytes: store.sizeBytes(), schemaVersion: store.schemaVersion, error: storeHealth.error ?? null },
    lookedAt: h.lookedAt,
  };
}

function providerFigures(model: ReadModel, systems: readonly AnySystemView[]): DaemonStatus["providers"] {
  const allAgents = model.agents();
  return systems.map((sys) => {
    const agents = allAgents.filter((a) => a.provider === sys.provider);
    return {
      provider: sys.provider,
      health: VERDICT_WORD[sys.health.verdict],
      versions: isGatewaySystem(sys) ? (sys.gateway.version ? [sys.gateway.version] : []) : sys.versions,
      sources: agents.length,
      sessions: agents.reduce((n, a) => n + a.sessions.length, 0),
      liveSessions: agents.reduce((n, a) => n + a.live.length, 0),
      // The plan's windows where the provider records them, and why there are none when there are none.
      ...(!isGatewaySystem(sys) && hasCapability(sys.provider, "rateLimits")
        ? { rateLimits: sys.rateLimits, rateLimitsNote: sys.rateLimits.length ? null : (sys.health.checks.find((c) => c.name === "rate-limit")?.message ?? null) }
        : {}),
    };
  });
}
