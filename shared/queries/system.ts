// The system namespace (spec: ProviderASystem): the gateway, its resources, its channels and the
// health checks of design §3, derived from the gateway monitor's latest snapshot, the sources'
// states and the store's health. Pure: the caller passes everything in. The verdict over the
// checks is health.ts's one rule; what the gateway is (up, down, demo, unknown) is `gatewayState`.
import type { AgentSnapshot } from "../ingest/agent-source.js";
import type { SystemSnapshot } from "../ingest/gateway-monitor.js";
import type { StoreHealth } from "../store/store.js";
import { healthOf, type Health, type HealthCheck, type CheckStatus } from "./health.js";
import { iso } from "./time.js";

export { overallHealth, type CheckStatus, type Health, type HealthCheck, type HealthLevel, type HealthVerdict } from "./health.js";

/**
 * What the gateway is, for its label: DEMO whenever the bundled demo state is served (whether or
 * not a demo gateway answers), UNKNOWN until the first probe has finished, else UP or DOWN by /healthz.
 */
export type GatewayState = "UP" | "DOWN" | "DEMO" | "UNKNOWN";

export function gatewayState(snapshot: Pick<SystemSnapshot, "demo" | "checkedAt" | "gateway">): GatewayState {
  if (snapshot.demo) return "DEMO";
  if (snapshot.checkedAt === null) return "UNKNOWN";
  return snapshot.gateway.running ? "UP" : "DOWN";
}

export interface GatewayInfo {
  /** See GatewayState: the one field a label (dashboard, card, CLI) reads. */
  state: GatewayState;
  running: boolean;
  /** OpenClaw's version. */
  version: string | null;
  /** gateway-insights' own version. */
  appVersion: string;
  /** Seconds since the gateway started; null while it is down. */
  uptime: number | null;
  pid: number | null;
  port: number | null;
  url: string | null;
  startedAt: string | null;
  updateAvailable: boolean | null;
  latestVersion: string | null;
  /** Round trip of the last /healthz probe. */
  latencyMs: number | null;
  checkedAt: string | null;
  error: string | null;
}

export interface ResourcesInfo {
  /** CPU % of the gateway's process tree (100 = one core). */
  cpu: number | null;
  /** Resident memory of the gateway's process tree. */
  memoryMB: number | null;
  /** Disk used by the OpenClaw state dir. */
  diskMB: number | null;
  /** Free space on the filesystem holding our state dir. */
  diskFreeMB: number | null;
  sampledAt: string | null;
}

export interface ChannelInfo {
  provider: string;
  name: string;
  connected: boolean;
  latencyMs: number | null;
  lastError: string | null;
}

export interface SystemView {
  demo: boolean;
  gateway: GatewayInfo;
  resources: ResourcesInfo;
  channels: ChannelInfo[];
  health: Health;
}

export interface SystemInputs {
  snapshot: SystemSnapshot;
  agents: readonly AgentSnapshot[];
  /** Why the state dir itself is unreadable, when it is. */
  openclawError: string | null;
  store: StoreHealth;
  appVersion: string;
}

/** Free-space thresholds of the `disk` check. */
export const DISK_WARN_PERCENT = 90;
export const DISK_FAIL_PERCENT = 97;
/** Event-loop p99 delay (readyz) at which the gateway is called slow. */
export const EVENT_LOOP_WARN_MS = 200;
export const EVENT_LOOP_FAIL_MS = 1000;

const check = (name: string, status: CheckStatus, message: string | null = null): HealthCheck => ({ name, status, message });
/** A check without its first reading yet: a WARN that makes the verdict STARTING (health.ts). */
const pending = (name: string, message: string): HealthCheck => ({ name, status: "WARN", message, pending: true });

export function healthChecks({ snapshot, agents, openclawError, store }: SystemInputs): HealthCheck[] {
  const { gateway: gw, channels, resources, demo } = snapshot;
  const checks: HealthCheck[] = [];
  const probed = snapshot.checkedAt !== null;

  // In demo mode a demo gateway may answer (then it is checked like any other); when none does,
  // that is the demo's nature, not an outage: a WARN, never a FAIL.
  if (!probed) checks.push(pending("gateway", "first probe running"));
  else if (gw.running) checks.push(check("gateway", "PASS", gw.latencyMs !== null ? `healthz answered in ${gw.latencyMs} ms` : null));
  else if (demo) checks.push(check("gateway", "WARN", "demo mode: no demo gateway answers"));
  else checks.push(check("gateway", "FAIL", gw.error ?? "the gateway does not answer /healthz"));

  if (probed && (!demo || gw.running)) {
    if (!gw.running) checks.push(check("ready", "FAIL", "the gateway is down"));
    else if (gw.ready === null) checks.push(check("ready", "WARN", "readyz did not answer"));
    else if (gw.ready) checks.push(check("ready", "PASS"));
    else checks.push(check("ready", "FAIL", gw.failing.length ? `failing: ${gw.failing.join(", ")}` : "readyz says not ready"));

    const delay = gw.eventLoopDelayMs;
    if (!gw.running || delay === null) checks.push(check("event-loop", "WARN", "no event-loop figures (readyz)"));
    else if (delay >= EVENT_LOOP_FAIL_MS) checks.push(check("event-loop", "FAIL", `p99 delay ${delay} ms`));
    else if (delay >= EVENT_LOOP_WARN_MS || gw.eventLoopDegraded) checks.push(check("event-loop", "WARN", `p99 delay ${delay} ms${gw.eventLoopDegraded ? ", reported degraded" : ""}`));
    else checks.push(check("event-loop", "PASS", `p99 delay ${delay} ms`));

    const list = channels.list;
    const down = list.filter((c) => !c.connected);
    if (channels.error && !list.length) checks.push(check("channels", gw.running ? "WARN" : "FAIL", `channel status unavailable: ${channels.error}`));
    else if (!list.length) checks.push(check("channels", "PASS", channels.checkedAt === null ? "not probed yet" : "no channels configured"));
    else if (down.length === list.length) checks.push(check("channels", "FAIL", `all ${list.length} channels disconnected`));
    else if (down.length) checks.push(check("channels", "WARN", `disconnected: ${down.map((c) => c.provider).join(", ")}`));
    else checks.push(check("channels", "PASS", `${list.length} connected`));
  }

  if (openclawError) checks.push(check("sources", "FAIL", openclawError));
  else {
    const bad = agents.filter((a) => a.state.status === "ERROR");
    const gone = agents.filter((a) => a.state.status === "DISCONNECTED");
    const starting = agents.filter((a) => a.state.status === "INITIALIZING");
    if (bad.length) checks.push(check("sources", "FAIL", bad.map((a) => `${a.id}: ${a.state.lastError ?? "error"}`).join("; ")));
    else if (gone.length) checks.push(check("sources", "WARN", `disconnected: ${gone.map((a) => a.id).join(", ")}`));
    else if (starting.length) checks.push(pending("sources", `first scan running: ${starting.map((a) => a.id).join(", ")}`));
    else if (!agents.length) checks.push(check("sources", "WARN", "no agents found"));
    else checks.push(check("sources", "PASS", `${agents.length} agent${agents.length === 1 ? "" : "s"} connected`));
  }

  const used = resources.diskUsedPercent;
  if (used === null) checks.push(pending("disk", "free space not measured yet"));
  else if (used >= DISK_FAIL_PERCENT) checks.push(check("disk", "FAIL", `${used}% used, ${resources.diskFreeMB} MB free`));
  else if (used >= DISK_WARN_PERCENT) checks.push(check("disk", "WARN", `${used}% used, ${resources.diskFreeMB} MB free`));
  else checks.push(check("disk", "PASS", `${resources.diskFreeMB} MB free`));

  checks.push(store.ok ? check("store", "PASS") : check("store", "FAIL", store.error ?? "the store does not answer"));
  return checks;
}

export function querySystem(inputs: SystemInputs): SystemView {
  const { snapshot, appVersion } = inputs;
  const gw = snapshot.gateway;
  const checks = healthChecks(inputs);
  return {
    demo: snapshot.demo,
    gateway: {
      state: gatewayState(snapshot),
      running: gw.running,
      version: gw.version,
      appVersion,
      uptime: gw.uptimeSeconds,
      pid: gw.pid,
      port: gw.port,
      url: gw.url,
      startedAt: iso(gw.startedAt),
      updateAvailable: gw.updateAvailable,
      latestVersion: gw.latestVersion,
      latencyMs: gw.latencyMs,
      checkedAt: iso(snapshot.checkedAt),
      error: gw.error,
    },
    resources: {
      cpu: snapshot.resources.cpuPercent,
      memoryMB: snapshot.resources.memoryMB,
      diskMB: snapshot.resources.diskMB,
      diskFreeMB: snapshot.resources.diskFreeMB,
      sampledAt: iso(snapshot.resources.sampledAt),
    },
    channels: snapshot.channels.list.map((c) => ({ provider: c.provider, name: c.name, connected: c.connected, latencyMs: c.latencyMs, lastError: c.lastError })),
    health: healthOf(checks),
  };
}
