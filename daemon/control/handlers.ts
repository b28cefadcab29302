// What the control socket answers (`insightsctl status`, `stop`, `reload`, `alerts`, `usage`,
// `export`, `snapshot`, `logs`). It lives beside the server that speaks the protocol so the
// daemon's composition root only hands it the parts; every parameter here is hostile input and
// is checked before use (the server turns a thrown InsightsError into an error reply).
import type { StatuslineIntake } from "../statusline/intake.js";
import type { Clock } from "../../shared/base/clock.js";
import type { Config } from "../../shared/config/options.js";
import { effectiveHostName } from "../../shared/config/host-name.js";
import type { DaemonStatus } from "../../shared/control/protocol.js";
import { InsightsError } from "../../shared/base/errors.js";
import { withDeadline, type Collector } from "../../shared/ingest/collector.js";
import type { LogHub } from "../../shared/base/log/logger.js";
import { isLevel, levelRank, type Level } from "../../shared/base/log/record.js";
import { parseExportParams } from "../../shared/queries/export.js";
import type { ReadModel } from "../../shared/queries/read-model.js";
import { parseUsageParams } from "../../shared/queries/usage-params.js";
import { cliSnapshotParams } from "../../shared/snapshot/cli-params.js";
import { toSnapshotReply } from "../../shared/snapshot/reply.js";
import type { LogLevel } from "../../shared/providers/contract.js";
import type { Caller } from "../../shared/alerts/views.js";
import type { AlertService } from "../alerts/alert-service.js";
import { logMatches } from "../live/live-events.js";
import type { SnapshotService } from "../snapshot/service.js";
import type { CallHandler, StreamHandler } from "./server.js";

/** The daemon itself, asked at request time (it exists once every part is up). */
interface ControlDaemon {
  status(): DaemonStatus;
  baseUrl(): string;
  stop(reason: string): Promise<void>;
  reload(): { applied: string[]; needsRestart: string[] };
}

export interface ControlParts {
  daemon: () => ControlDaemon;
  /** The config as at start (the collect budget and week start do not change on reload). */
  config: Config;
  /** The config in force now (a reload replaces it). */
  current: () => Config;
  token: string;
  clock: Clock;
  hub: LogHub;
  collector: Collector;
  model: ReadModel;
  alerts: AlertService;
  snapshots: SnapshotService;
  intake: StatuslineIntake;
}

/** Who asks through the control socket: the daemon's own user (the socket is 0600). */
const CONTROL_CALLER: Caller = { auth: "control-socket", peer: "" };

export function controlHandlers(p: ControlParts): { calls: Record<string, CallHandler>; streams: Record<string, StreamHandler> } {
  return { calls: { ...daemonCalls(p), ...alertCalls(p), ...reportCalls(p) }, streams: logStreams(p) };
}

function daemonCalls({ daemon, token }: ControlParts): Record<string, CallHandler> {
  return {
    ping: () => ({ pong: true, pid: process.pid }),
    status: () => daemon().status(),
    "dashboard.url": () => ({ url: `${daemon().baseUrl()}/?token=${encodeURIComponent(token)}` }),
    shutdown: (params) => {
      const by = typeof params.by === "string" ? params.by : "control socket";
      setImmediate(() => void daemon().stop(`shutdown requested by ${by}`));
      return { stopping: true, pid: process.pid };
    },
    reload: () => daemon().reload(),
  };
}

function alertCalls({ alerts, clock }: ControlParts): Record<string, CallHandler> {
  return {
    "alerts.list": () => ({ active: alerts.activeAlerts(), rules: alerts.ruleViews(), channels: alerts.channelViews() }),
    "alerts.test": (params) => alerts.testChannel(requireString(params, "channel"), CONTROL_CALLER),
    "alerts.mute": (params) => {
      const rule = requireString(params, "rule");
      if (params.until === null) {
        // Whether there was a mute to end, so `alerts mute --off` can say what it did.
        const was = alerts.rule(rule);
        const wasMuted = was !== null && was.mutedUntil !== null && was.mutedUntil > clock.now();
        return { ...alerts.unmute(rule, CONTROL_CALLER), wasMuted };
      }
      return alerts.mute(rule, typeof params.until === "number" ? params.until : NaN, CONTROL_CALLER);
    },
  };
}

function reportCalls({ current, config, collector, model, snapshots, intake }: ControlParts): Record<string, CallHandler> {
  return {
    // `insightsctl usage`: as without a daemon, one pass over the sources within the collect
    // budget, then the report (shared/queries/usage-report.ts, docs/usage.md).
    usage: async (params) => {
      const p = parseUsageParams(params, model.timeZone, config.weekStart);
      await withDeadline(collector.run("agents"), config.collectTimeoutSeconds * 1000);
      return model.usageReport(p);
    },
    // `insightsctl export`: daily rows per source, model and project (shared/queries/export.ts, docs/fleet.md).
    export: async (params) => {
      const p = parseExportParams(params, "UTC");
      await withDeadline(collector.run("agents"), config.collectTimeoutSeconds * 1000);
      return model.exportReport(p, effectiveHostName(current()));
    },
    // `insightsctl statusline`: Claude Code's plan windows, after every message (docs/statusline.md).
    "statusline.report": (params) => intake.report(params),
    snapshot: async (params) => {
      const quick = params.quick === true;
      const p = cliSnapshotParams({ ...stringParams(params), quick });
      return toSnapshotReply(await snapshots.snapshot(p, { client: null, via: "cli" }, { quick }));
    },
  };
}

function logStreams({ hub, collector, model }: ControlParts): Record<string, StreamHandler> {
  return {
    // The gateway's log through the daemon (`insightsctl logs --gateway`): the stored tail, then live lines.
    "gateway.logs.follow": (params, emit, end) => {
      const level = typeof params.level === "string" ? params.level.toUpperCase() : "INFO";
      const backlog = typeof params.backlog === "number" ? Math.max(0, Math.min(1000, params.backlog)) : 50;
      if (backlog > 0) for (const e of model.gatewayLog(backlog, level)) emit(e);
      if (params.follow !== true) {
        end();
        return () => undefined;
      }
      return collector.onLogEntry((entry) => {
        const e = { time: new Date(entry.timeMs).toISOString(), level: entry.level, module: entry.module, message: entry.message, agentId: entry.agentId, sessionKey: entry.sessionKey };
        if (logMatches(e, { level: level as LogLevel })) emit(e);
      });
    },
    "logs.follow": (params, emit) => {
      const level: Level = isLevel(params.level) ? params.level : "trace";
      const backlog = typeof params.backlog === "number" ? Math.max(0, Math.min(1000, params.backlog)) : 0;
      for (const r of hub.recent(backlog, level)) emit(r);
      return hub.subscribe((r) => {
        if (levelRank(r.level) >= levelRank(level)) emit(r);
      });
    },
  };
}

function requireString(params: Record<string, unknown>, name: string): string {
  const v = params[name];
  if (typeof v !== "string" || v === "") throw new InsightsError("INVALID_PARAM", `${name}: a non-empty string`);
  return v;
}

/** The string-valued snapshot flags of a control request (anything else is left for the parser to refuse). */
function stringParams(params: Record<string, unknown>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const k of ["detail", "format", "range", "theme", "lang"]) {
    const v = params[k];
    if (v !== undefined && v !== null) out[k] = String(v);
  }
  return out;
}
