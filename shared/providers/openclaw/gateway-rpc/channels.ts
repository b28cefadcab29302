// One channels probe: `channels.status` + `health` over the gateway RPC, normalized into the flat
// list the API shows (provider, name, connected, latencyMs) plus a small health summary.
//
// Shapes (2026.9.6; ChannelsStatusResultSchema / ChannelAccountSnapshotSchema in the gateway):
//   channels.status -> {ts, channelOrder[], channelLabels{id:label}, channelMeta[], channels{id:summary},
//                       channelAccounts{id:[account]}, channelDefaultAccountId{id:accountId},
//                       statusIssues[{channel,accountId,kind,message,fix?}], partial?, warnings?[], eventLoop}
//   account          -> {accountId, name?, enabled?, configured?, linked?, running?, connected?,
//                       lastError?, healthState?, lastConnectedAt?, lastProbeAt?, probe?{ok, elapsedMs, error?}, ...}
//   health          -> {ok, ts, durationMs, plugins{loaded[],errors[],unavailable[]}, channels{id:{...account, accounts{}}},
//                       channelOrder, heartbeatSeconds, defaultAgentId, agents[{agentId,isDefault,sessions{count}}],
//                       sessions{count}, modelRuntime{degraded}, eventLoop{degraded,reasons,delayP99Ms}}
// Everything is read defensively: the account schema is open-ended by design, so unknown fields
// are ignored and a malformed entry is skipped with a warning.
import type { Clock } from "../../../base/clock.js";
import { systemClock } from "../../../base/clock.js";
import { SourceError, fail, ok } from "../../result.js";
import type { SourceErrorKind, SourceResult, SourceWarning } from "../../result.js";
import type { ChannelStatus } from "../../gateway-contract.js";
import type { HelloInfo, RpcReply } from "./rpc-client.js";

// The normalized status is the contract's (the system namespace shows it).
export type { ChannelStatus };

export interface HealthSummary {
  ok: boolean;
  ts: number | null;
  durationMs: number | null;
  defaultAgentId: string | null;
  heartbeatSeconds: number | null;
  agents: { agentId: string; isDefault: boolean; sessionCount: number | null }[];
  /** Sessions of the default agent (the gateway's top-level summary is not a fleet total). */
  sessionCount: number | null;
  pluginsLoaded: number;
  pluginErrors: number;
  pluginsUnavailable: number;
  eventLoopDegraded: boolean | null;
  eventLoopReasons: string[];
  eventLoopDelayP99Ms: number | null;
  modelRuntimeDegraded: boolean | null;
}

export interface ChannelsProbe {
  channels: ChannelStatus[];
  health: HealthSummary | null;
  /** Why `health` is null when the health call failed; channels are still valid. */
  healthError: { kind: SourceErrorKind; message: string } | null;
  serverVersion: string | null;
  /** channels.status round trip over the socket; null for the CLI path. */
  rpcLatencyMs: number | null;
  healthLatencyMs: number | null;
  /** The gateway said the status is partial (some channel timed out or failed). */
  partial: boolean;
  gatewayWarnings: string[];
  source: "rpc" | "cli";
  observedAt: number;
}

/** What probeChannels needs from a client; GatewayRpcClient satisfies it. */
export interface RpcCaller {
  call<T = unknown>(method: string, params?: unknown, opts?: { timeoutMs?: number }): Promise<SourceResult<RpcReply<T>>>;
  readonly hello: HelloInfo | null;
}

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function bool(v: unknown): boolean | null {
  return typeof v === "boolean" ? v : null;
}
function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}
function str(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v : null;
}
function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

// Gateway health verdicts that mean "up" for a channel that reports no transport flag
// (webhook-style channels have no socket to be connected).
const UP_STATES = new Set(["healthy", "busy"]);

function probeLatency(probe: unknown): { latencyMs: number | null; ok: boolean | null } {
  if (!isRecord(probe)) return { latencyMs: null, ok: null };
  // elapsedMs is what the gateway's shared probe runner stamps; latencyMs is accepted for
  // plugins that report their own.
  const latency = num(probe.elapsedMs) ?? num(probe.latencyMs);
  return { latencyMs: latency !== null && latency >= 0 ? latency : null, ok: bool(probe.ok) };
}

function deriveConnected(a: Json, probeOk: boolean | null): { connected: boolean; source: "reported" | "derived" } {
  const reported = bool(a.connected);
  if (reported !== null) return { connected: reported, source: "reported" };
  if (a.running === false || a.enabled === false || a.configured === false) return { connected: false, source: "derived" };
  const state = str(a.healthState);
  if (state !== null) return { connected: UP_STATES.has(state), source: "derived" };
  if (probeOk !== null) return { connected: probeOk, source: "derived" };
  return { connected: a.running === true && !str(a.lastError), source: "derived" };
}

function normalizeAccount(provider: string, label: string, a: Json, issues: string[]): ChannelStatus {
  const accountId = str(a.accountId) ?? "default";
  const { latencyMs, ok: probeOk } = probeLatency(a.probe);
  const { connected, source } = deriveConnected(a, probeOk);
  return {
    provider,
    name: str(a.name) ?? accountId,
    accountId,
    label,
    connected,
    connectedSource: source,
    running: bool(a.running),
    enabled: bool(a.enabled),
    configured: bool(a.configured),
    latencyMs,
    probeOk,
    lastError: str(a.lastError) ?? (isRecord(a.probe) ? str(a.probe.error) : null),
    healthState: str(a.healthState),
    lastConnectedAt: num(a.lastConnectedAt),
    lastProbeAt: num(a.lastProbeAt),
    issues,
  };
}

/** Flattens a channels.status payload into one row per channel account. */
export function normalizeChannelsStatus(payload: unknown, warnings: SourceWarning[] = [], where = "channels.status"): ChannelStatus[] {
  if (!isRecord(payload)) {
    warnings.push({ code: "UNKNOWN_FORMAT", message: "channels.status payload is not an object", where });
    return [];
  }
  const labels = isRecord(payload.channelLabels) ? payload.channelLabels : {};
  const accountsMap = isRecord(payload.channelAccounts) ? payload.channelAccounts : {};
  const summaries = isRecord(payload.channels) ? payload.channels : {};
  const defaults = isRecord(payload.channelDefaultAccountId) ? payload.channelDefaultAccountId : {};
  const issuesByAccount = new Map<string, string[]>();
  for (const issue of Array.isArray(payload.statusIssues) ? payload.statusIssues : []) {
    if (!isRecord(issue) || typeof issue.channel !== "string") continue;
    const key = `${issue.channel}\u0000${typeof issue.accountId === "string" ? issue.accountId : ""}`;
    const text = [str(issue.kind), str(issue.message)].filter(Boolean).join(": ");
    if (text) issuesByAccount.set(key, [...(issuesByAccount.get(key) ?? []), text]);
  }
  // channelOrder is the gateway's display order; ids only present in the maps come after it.
  const order = [...new Set([...strings(payload.channelOrder), ...Object.keys(accountsMap), ...Object.keys(summaries)])];
  const out: ChannelStatus[] = [];
  for (const provider of order) {
    const label = str(labels[provider]) ?? provider;
    const list = accountsMap[provider];
    const rows: Json[] = [];
    if (Array.isArray(list)) {
      list.forEach((entry, i) => {
        if (isRecord(entry) && str(entry.accountId)) rows.push(entry);
        else warnings.push({ code: "BAD_ROW", message: `channelAccounts.${provider}[${i}] is not an account snapshot; skipped`, where });
      });
    } else if (list !== undefined) {
      warnings.push({ code: "BAD_FIELD", message: `channelAccounts.${provider} is not a list; skipped`, where });
    }
    // A channel with no account snapshots (e.g. its plugin failed to load) still shows up, from
    // its channel-level summary, so a broken channel is visible rather than silently absent.
    if (rows.length === 0 && isRecord(summaries[provider])) {
      rows.push({ accountId: str(defaults[provider]) ?? "default", ...summaries[provider] });
    }
    for (const a of rows) {
      const accountId = str(a.accountId) ?? "default";
      out.push(normalizeAccount(provider, label, a, issuesByAccount.get(`${provider}\u0000${accountId}`) ?? []));
    }
  }
  return out;
}

/** Reduces a health payload to the facts the health checks use. */
export function normalizeHealth(payload: unknown, warnings: SourceWarning[] = [], where = "health"): HealthSummary | null {
  if (!isRecord(payload)) {
    warnings.push({ code: "UNKNOWN_FORMAT", message: "health payload is not an object", where });
    return null;
  }
  const plugins = isRecord(payload.plugins) ? payload.plugins : {};
  const loop = isRecord(payload.eventLoop) ? payload.eventLoop : {};
  const sessions = isRecord(payload.sessions) ? payload.sessions : {};
  const agents: HealthSummary["agents"] = [];
  for (const a of Array.isArray(payload.agents) ? payload.agents : []) {
    if (!isRecord(a) || !str(a.agentId)) {
      warnings.push({ code: "BAD_ROW", message: "health.agents entry without agentId; skipped", where });
      continue;
    }
    agents.push({ agentId: a.agentId as string, isDefault: a.isDefault === true, sessionCount: isRecord(a.sessions) ? num(a.sessions.count) : null });
  }
  return {
    ok: payload.ok === true,
    ts: num(payload.ts),
    durationMs: num(payload.durationMs),
    defaultAgentId: str(payload.defaultAgentId),
    heartbeatSeconds: num(payload.heartbeatSeconds),
    agents,
    sessionCount: num(sessions.count),
    pluginsLoaded: Array.isArray(plugins.loaded) ? plugins.loaded.length : 0,
    pluginErrors: Array.isArray(plugins.errors) ? plugins.errors.length : 0,
    pluginsUnavailable: Array.isArray(plugins.unavailable) ? plugins.unavailable.length : 0,
    eventLoopDegraded: bool(loop.degraded),
    eventLoopReasons: strings(loop.reasons),
    eventLoopDelayP99Ms: num(loop.delayP99Ms),
    modelRuntimeDegraded: isRecord(payload.modelRuntime) ? bool(payload.modelRuntime.degraded) : null,
  };
}

export interface ChannelsProbeOptions {
  /** Per-call timeout. */
  timeoutMs?: number;
  /**
   * Ask channels.status to run each account's live provider probe (a real request to Telegram,
   * Slack, ...). Off by default: a monitor polling every few seconds must not hammer provider
   * APIs; the runtime snapshot already says connected/running.
   */
  liveProbe?: boolean;
  clock?: Clock;
}

/** Builds the probe result from two raw payloads (shared by the RPC and CLI paths). */
export function buildChannelsProbe(
  input: {
    status: unknown;
    health: SourceResult<unknown>;
    serverVersion: string | null;
    rpcLatencyMs: number | null;
    healthLatencyMs: number | null;
    source: "rpc" | "cli";
    observedAt: number;
  },
  warnings: SourceWarning[],
): ChannelsProbe {
  const status = isRecord(input.status) ? input.status : {};
  return {
    channels: normalizeChannelsStatus(input.status, warnings),
    health: input.health.ok ? normalizeHealth(input.health.value, warnings) : null,
    healthError: input.health.ok ? null : { kind: input.health.error.kind, message: input.health.error.message },
    serverVersion: input.serverVersion,
    rpcLatencyMs: input.rpcLatencyMs,
    healthLatencyMs: input.healthLatencyMs,
    partial: status.partial === true,
    gatewayWarnings: strings(status.warnings),
    source: input.source,
    observedAt: input.observedAt,
  };
}

/**
 * One probe run over an (already open or lazily opened) client: channels.status and health in
 * parallel on the same socket. channels.status failing fails the probe; health failing only
 * empties `health` and says why.
 */
export async function probeChannels(client: RpcCaller, { timeoutMs = 10_000, liveProbe = false, clock = systemClock }: ChannelsProbeOptions = {}): Promise<SourceResult<ChannelsProbe>> {
  try {
    const observedAt = clock.now();
    const statusParams = liveProbe ? { probe: true, timeoutMs: Math.max(1, timeoutMs - 500) } : {};
    const [status, health] = await Promise.all([
      client.call("channels.status", statusParams, { timeoutMs }),
      client.call("health", {}, { timeoutMs }),
    ]);
    if (!status.ok) return fail(status.error, status.warnings);
    const warnings: SourceWarning[] = [];
    const value = buildChannelsProbe(
      {
        status: status.value.payload,
        health: health.ok ? ok(health.value.payload) : fail(health.error),
        serverVersion: client.hello?.serverVersion ?? null,
        rpcLatencyMs: status.value.latencyMs,
        healthLatencyMs: health.ok ? health.value.latencyMs : null,
        source: "rpc",
        observedAt,
      },
      warnings,
    );
    return ok(value, warnings);
  } catch (err) {
    return fail(new SourceError("corrupt", `channels probe: ${err instanceof Error ? err.message : String(err)}`, {}, { cause: err }));
  }
}
