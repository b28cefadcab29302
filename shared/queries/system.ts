// The system namespace (spec: ProviderASystem): the gateway, its resources, its channels and the
// health checks of design §3, derived from the gateway monitor's latest snapshot, the sources'
// states and the store's health. Pure: the caller passes everything in. The verdict over the
// checks is health.ts's one rule; what the gateway is (up, down, demo, unknown) is `gatewayState`.
import type { AgentSnapshot } from "../ingest/agent-source.js";
import type { SystemSnapshot } from "../providers/contract.js";
import type { FilesystemSpace } from "../base/disk-usage.js";
import type { SourceResult } from "../providers/result.js";
import type { StoreHealth } from "../store/store.js";
import { gatewayErrorMessage } from "../i18n/gateway-text.js";
import { list as listOf, millis, msg, plainText, sizeMB, type Message } from "../i18n/message.js";
import { healthOf, type CheckStatus, type Health, type HealthCheck } from "./health.js";
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

interface GatewayInfo {
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

interface ResourcesInfo {
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

interface ChannelInfo {
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
  /**
   * Free space of the store's filesystem measured now (the `disk` check); without it the
   * monitor's periodic sample is used, which can be minutes old.
   */
  disk?: SourceResult<FilesystemSpace>;
  appVersion: string;
}

/** Free-space thresholds of the `disk` check. */
const DISK_WARN_PERCENT = 90;
const DISK_FAIL_PERCENT = 97;
/** Event-loop p99 delay (readyz) at which the gateway is called slow. */
const EVENT_LOOP_WARN_MS = 200;
const EVENT_LOOP_FAIL_MS = 1000;

// Messages come from the catalog only (shared/i18n/catalog.ts), so every one can be localized.
export const check = (name: string, status: CheckStatus, text: Message | null = null): HealthCheck => ({ name, status, message: text && plainText(text), text });
/** A check without its first reading yet: a WARN that makes the verdict STARTING (health.ts). */
const pending = (name: string, text: Message): HealthCheck => ({ name, status: "WARN", message: plainText(text), text, pending: true });

export function healthChecks(inputs: SystemInputs): HealthCheck[] {
  const { snapshot, agents, openclawError, store } = inputs;
  const { gateway: gw, channels, resources, demo } = snapshot;
  const checks: HealthCheck[] = [];
  const probed = snapshot.checkedAt !== null;

  // In demo mode a demo gateway may answer (then it is checked like any other); when none does,
  // that is the demo's nature, not an outage: a WARN, never a FAIL.
  if (!probed) checks.push(pending("gateway", msg("health.gateway.firstProbe")));
  else if (gw.running) checks.push(check("gateway", "PASS", gw.latencyMs !== null ? msg("health.gateway.answered", { latency: millis(gw.latencyMs) }) : null));
  else if (demo) checks.push(check("gateway", "WARN", msg("health.gateway.demoNone")));
  else checks.push(check("gateway", "FAIL", gw.error !== null ? (gatewayErrorMessage(gw.error) ?? msg("health.gateway.error", { error: gw.error })) : msg("health.gateway.noAnswer")));

  if (probed && (!demo || gw.running)) {
    if (!gw.running) checks.push(check("ready", "FAIL", msg("health.ready.down")));
    else if (gw.ready === null) checks.push(check("ready", "WARN", msg("health.ready.noAnswer")));
    else if (gw.ready) checks.push(check("ready", "PASS"));
    else checks.push(check("ready", "FAIL", gw.failing.length ? msg("health.ready.failing", { checks: listOf(gw.failing) }) : msg("health.ready.notReady")));

    const delay = gw.eventLoopDelayMs;
    if (!gw.running || delay === null) checks.push(check("event-loop", "WARN", msg("health.eventLoop.unknown")));
    else if (delay >= EVENT_LOOP_FAIL_MS) checks.push(check("event-loop", "FAIL", msg("health.eventLoop.delay", { delay: millis(delay) })));
    else if (delay >= EVENT_LOOP_WARN_MS || gw.eventLoopDegraded) checks.push(check("event-loop", "WARN", msg(gw.eventLoopDegraded ? "health.eventLoop.delayDegraded" : "health.eventLoop.delay", { delay: millis(delay) })));
    else checks.push(check("event-loop", "PASS", msg("health.eventLoop.delay", { delay: millis(delay) })));

    const list = channels.list;
    const down = list.filter((c) => !c.connected);
    if (channels.error && !list.length) checks.push(check("channels", gw.running ? "WARN" : "FAIL", msg("health.channels.unavailable", { error: channels.error })));
    // Not asked yet is no reading, not a pass: pending like the gateway's first probe (a probe
    // always ends with checkedAt set, answered or failed, so this does not last). A one-off CLI
    // command that never probes channels has no channels check at all.
    else if (channels.off && channels.checkedAt === null) {
      // no check: nothing was asked
    } else if (channels.checkedAt === null) checks.push(pending("channels", msg("health.channels.notProbed")));
    else if (!list.length) checks.push(check("channels", "PASS", msg("health.channels.none")));
    else if (down.length === list.length) checks.push(check("channels", "FAIL", msg("health.channels.allDown", { n: list.length })));
    else if (down.length) checks.push(check("channels", "WARN", msg("health.channels.someDown", { channels: listOf(down.map((c) => c.provider)) })));
    else checks.push(check("channels", "PASS", msg("health.channels.connected", { n: list.length })));
  }

  checks.push(sourcesCheck(agents, openclawError));
  const detection = detectionCheck(agents);
  if (detection) checks.push(detection);
  checks.push(diskCheck(inputs.disk, resources));
  checks.push(storeCheck(store));
  return checks;
}

/**
 * The `sources` check of one provider: its sources' states, or why its data cannot be read at all.
 * OpenClaw's sources are agents; the other providers' are installs (config dirs).
 */
export function sourcesCheck(agents: readonly AgentSnapshot[], providerError: string | null, noun: "agents" | "installs" = "agents"): HealthCheck {
  if (providerError) return check("sources", "FAIL", msg("health.sources.stateDir", { error: providerError }));
  const bad = agents.filter((a) => a.state.status === "ERROR");
  const gone = agents.filter((a) => a.state.status === "DISCONNECTED");
  const starting = agents.filter((a) => a.state.status === "INITIALIZING");
  if (bad.length) return check("sources", "FAIL", msg("health.sources.failed", { errors: listOf(bad.map((a) => msg("health.sources.agentError", { id: a.id, error: a.state.lastError ?? msg("health.sources.unknownError") })), "semicolon") }));
  if (gone.length) return check("sources", "WARN", msg("health.sources.disconnected", { ids: listOf(gone.map((a) => a.id)) }));
  if (starting.length) return pending("sources", msg("health.sources.scanning", { ids: listOf(starting.map((a) => a.id)) }));
  // A transcript skipped as unreadable (a FIFO, EIO): the source reads on, but its figures miss that file.
  const skipped = agents.filter((a) => a.skippedFiles?.length);
  if (skipped.length) {
    const files = skipped.map((a) => msg("health.sources.agentError", { id: a.id, error: listOf((a.skippedFiles ?? []).map((f) => f.path)) }));
    return check("sources", "WARN", msg("health.sources.skipped", { files: listOf(files, "semicolon") }));
  }
  if (!agents.length) return check("sources", "WARN", msg(noun === "agents" ? "health.sources.none" : "health.sources.noInstalls"));
  return check("sources", "PASS", msg(noun === "agents" ? "health.sources.connected" : "health.sources.installsConnected", { n: agents.length }));
}

/**
 * The `detection` check of one provider: whether its sources' files are watched (a change is seen
 * at once) or polled only, and why. A gone source is left out (nothing to watch there); null when
 * nothing watches at all (no daemon running the collector).
 */
export function detectionCheck(agents: readonly AgentSnapshot[]): HealthCheck | null {
  const present = agents.filter((a) => a.detection && a.state.status !== "DISCONNECTED");
  if (!present.length) return null;
  const polling = present.filter((a) => a.detection?.mode === "polling");
  if (polling.length) return check("detection", "WARN", msg("health.detection.polling", { sources: listOf(polling.map((a) => msg("health.sources.agentError", { id: a.id, error: a.detection?.reason ?? "" })), "semicolon") }));
  return check("detection", "PASS", msg("health.detection.watching", { n: present.length }));
}

export function storeCheck(store: StoreHealth): HealthCheck {
  if (store.ok && store.warning !== undefined) return check("store", "WARN", msg("health.store.error", { error: store.warning }));
  return store.ok ? check("store", "PASS") : check("store", "FAIL", store.error !== undefined ? msg("health.store.error", { error: store.error }) : msg("health.store.noAnswer"));
}

const mb = (bytes: number): number => Math.round((bytes / (1024 * 1024)) * 10) / 10;

/** Free space now when measured now, else the last sample. */
function diskFigures(disk: SourceResult<FilesystemSpace> | undefined, resources: Pick<SystemSnapshot["resources"], "diskUsedPercent" | "diskFreeMB">): { usedPercent: number | null; freeMB: number | null; error: string | null } {
  if (disk?.ok) return { usedPercent: Math.round(disk.value.usedPercent * 10) / 10, freeMB: mb(disk.value.availableBytes), error: null };
  if (disk && !disk.ok) return { usedPercent: null, freeMB: null, error: disk.error.message };
  return { usedPercent: resources.diskUsedPercent, freeMB: resources.diskFreeMB, error: null };
}

export function diskCheck(disk: SourceResult<FilesystemSpace> | undefined, resources: Pick<SystemSnapshot["resources"], "diskUsedPercent" | "diskFreeMB">): HealthCheck {
  const { usedPercent: used, freeMB, error } = diskFigures(disk, resources);
  if (error) return check("disk", "WARN", msg("health.disk.failed", { error }));
  if (used === null) return pending("disk", msg("health.disk.unmeasured"));
  if (used >= DISK_FAIL_PERCENT || freeMB === 0) return check("disk", "FAIL", msg("health.disk.low", { used, free: sizeMB(freeMB) }));
  if (used >= DISK_WARN_PERCENT) return check("disk", "WARN", msg("health.disk.low", { used, free: sizeMB(freeMB) }));
  return check("disk", "PASS", msg("health.disk.free", { free: sizeMB(freeMB) }));
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
      diskFreeMB: diskFigures(inputs.disk, snapshot.resources).freeMB,
      sampledAt: iso(snapshot.resources.sampledAt),
    },
    channels: snapshot.channels.list.map((c) => ({ provider: c.provider, name: c.name, connected: c.connected, latencyMs: c.latencyMs, lastError: c.lastError })),
    health: healthOf(checks),
  };
}
