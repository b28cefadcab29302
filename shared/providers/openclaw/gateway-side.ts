// OpenClaw's gateway capability (shared/providers/gateway-contract.ts): the state dir located and
// opened, its agents read by OpenClawProvider, and its gateway (probe, RPC, channels, updates,
// cron, the file log, restart and update) bound to the same last good read of the config, so the
// layers above get it all through one object and never import this folder.
import type { GatewayCapability, GatewayLocation, GatewaySide } from "../gateway-contract.js";
import { readCron } from "./gateway/cron.js";
import { resolveLogFile } from "./gateway/log-files.js";
import { readLogLines, type LogCursor } from "./gateway/log-follower.js";
import { classifyLogEntry, initialRestartState, parseLogLine, RestartTracker, type RestartTrackerState } from "./gateway/log-line.js";
import { GatewayMonitor } from "./gateway/monitor.js";
import { homeDir, locateOpenclaw, openclawLookedAt } from "./locate.js";
import { OpenClawProvider } from "./provider.js";

/** The gateway's tslog file log (exported for the log ingester's tests). */
export const openclawLogFormat: GatewaySide["log"] = {
  // The cursor and the tracker state are what follow and state() returned, stored as JSON and
  // handed back unchanged by the core (the contract's opaque JSON); null starts afresh.
  follow: (cursor, o) => readLogLines(cursor as LogCursor | null, o),
  parse: parseLogLine,
  restarts: (state) => {
    const tracker = new RestartTracker((state as RestartTrackerState | null) ?? initialRestartState());
    return { classify: (entry) => classifyLogEntry(entry, tracker), state: () => tracker.state() };
  },
};

function open(location: GatewayLocation, env: Record<string, string | undefined>): GatewaySide {
  const provider = new OpenClawProvider({ stateDir: location.dir, env });
  return {
    location,
    provider,
    monitor: ({ command, ...o }) =>
      new GatewayMonitor({ ...o, openclawDir: location.dir, demo: location.demo, openclaw: () => provider.state, ...(command ? { openclawCommand: command } : {}) }),
    readCron: (o) => readCron(location.dir, o),
    activeLogPath: (now) => resolveLogFile(now, { configuredFile: provider.state?.logFile ?? null }).path,
    log: openclawLogFormat,
    configuredDefaultAgent: () => markedDefault(provider.state?.config.agents),
  };
}

/** `default: true` in the config's agents.list. */
function markedDefault(agents: unknown): string | null {
  const list = (agents as { list?: unknown } | undefined)?.list;
  if (!Array.isArray(list)) return null;
  const marked = list.find((a): a is { id: string } => typeof a === "object" && a !== null && (a as { default?: unknown }).default === true && typeof (a as { id?: unknown }).id === "string");
  return marked?.id ?? null;
}

export const openclawGateway: GatewayCapability = {
  locate: locateOpenclaw,
  defaultLocation: (env) => ({ dir: homeDir(env), demo: false, origin: "home" }),
  lookedAt: openclawLookedAt,
  open,
  operations: {
    args: { restart: ["gateway", "restart"], update: ["update", "--yes"] },
    env: (location) => ({ OPENCLAW_STATE_DIR: location.dir }),
  },
};
