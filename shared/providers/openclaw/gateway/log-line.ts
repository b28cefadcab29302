// One line of the gateway's tslog JSON-lines file log -> a typed entry, and entries -> events
// (error / warning / restart). Format: openclaw-formats.md §4 and §10.
import { LOG_LEVELS, type LogLevel } from "../../contract.js";
import type { GatewayLogEntry, GatewayLogEventType as LogEventType, ParsedLogLine as ParsedLine } from "../../gateway-contract.js";

// The levels are the contract's (every provider's log speaks them); re-exported for the gateway side.
export { LOG_LEVELS, type LogLevel };
// The entry and its event types are the contract's (the log ingester stores them).
export type { GatewayLogEntry, ParsedLine, LogEventType };


// tslog's numeric level ids; 0 is "SILLY", which we fold into TRACE.
const LEVEL_BY_ID: Record<number, LogLevel> = { 0: "TRACE", 1: "TRACE", 2: "DEBUG", 3: "INFO", 4: "WARN", 5: "ERROR", 6: "FATAL" };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

/** `{"subsystem":"gateway/ws"}` -> "gateway/ws"; `{"module":"cron",…}` -> "cron"; anything else -> null. */
export function moduleFromDescriptor(v: unknown): string | null {
  if (typeof v !== "string" || !v.startsWith("{")) return null;
  try {
    const d: unknown = JSON.parse(v);
    if (!isRecord(d)) return null;
    return str(d.subsystem) ?? str(d.module);
  } catch {
    return null;
  }
}

function levelOf(meta: Record<string, unknown>): LogLevel | null {
  const name = typeof meta.logLevelName === "string" ? meta.logLevelName.toUpperCase() : null;
  if (name === "SILLY") return "TRACE";
  if (name && (LOG_LEVELS as readonly string[]).includes(name)) return name as LogLevel;
  if (typeof meta.logLevelId === "number") return LEVEL_BY_ID[meta.logLevelId] ?? null;
  return null;
}

/** The numbered arguments ("0", "1", …) in order. */
function positionalArgs(o: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; String(i) in o; i++) out.push(o[String(i)]);
  return out;
}

/**
 * Parses one line. `where` names the file and line (or byte offset) for the warning.
 * Never throws: a non-JSON line or one without level/time comes back as a warning.
 */
export function parseLogLine(line: string, where: string): ParsedLine {
  const text = line.trim();
  if (text === "") return { ok: false, warning: { code: "BAD_JSON", message: "empty line", where } };
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    return { ok: false, warning: { code: "BAD_JSON", message: `not JSON: ${text.slice(0, 80)}`, where } };
  }
  if (!isRecord(o)) return { ok: false, warning: { code: "BAD_JSON", message: "log line is not a JSON object", where } };
  const meta = isRecord(o._meta) ? o._meta : {};
  const level = levelOf(meta);
  if (!level) return { ok: false, warning: { code: "BAD_FIELD", message: "log line has no _meta.logLevelName", where } };
  const time = str(o.time) ?? str(meta.date);
  const timeMs = time ? Date.parse(time) : NaN;
  if (!time || Number.isNaN(timeMs)) return { ok: false, warning: { code: "BAD_FIELD", message: "log line has no valid time", where } };

  const args = positionalArgs(o);
  const fromArg0 = moduleFromDescriptor(args[0]);
  const module = fromArg0 ?? moduleFromDescriptor(meta.name) ?? str(meta.name) ?? "unknown";

  let message = typeof o.message === "string" ? o.message : "";
  if (!message) {
    // Older or hand-written lines: join the text arguments, leaving out the subsystem descriptor.
    const parts = (fromArg0 ? args.slice(1) : args).filter((a): a is string => typeof a === "string" && a.trim() !== "");
    message = parts.join(" ");
  }

  return {
    ok: true,
    entry: {
      time,
      timeMs,
      level,
      module,
      message,
      agentId: str(o.agent_id),
      sessionKey: str(o.session_id),
      channel: str(o.channel),
      traceId: str(o.traceId),
    },
  };
}


/** error for ERROR/FATAL, warning for WARN, else null. Restarts need state: see RestartTracker. */
export function levelEventType(level: LogLevel): "error" | "warning" | null {
  if (level === "ERROR" || level === "FATAL") return "error";
  if (level === "WARN") return "warning";
  return null;
}

/** What a `gateway` subsystem line says about the gateway's start-up, if anything. */
export type StartMarker = "boot" | "listening" | "ready" | "shutdown";

export function startMarker(entry: GatewayLogEntry): StartMarker | null {
  if (entry.module === "gateway/shutdown") return "shutdown";
  if (entry.module !== "gateway") return null;
  const m = entry.message.trim();
  if (m.startsWith("http server listening")) return "listening";
  if (m === "gateway ready" || m.startsWith("gateway ready ")) return "ready";
  if (m.startsWith("loading configuration")) return "boot";
  if (m.startsWith("received SIG") || m.startsWith("signal SIG")) return "shutdown";
  return null;
}

/** Persistable restart-detection state (plain JSON, stored with the follower's cursor). */
export interface RestartTrackerState {
  seenListening: boolean;
  seenReady: boolean;
}

export const initialRestartState = (): RestartTrackerState => ({ seenListening: false, seenReady: false });

/**
 * Counts one restart per gateway start. Both 2026.9.6 and 2026.7.1 log `http server listening (…)` and then
 * `gateway ready` in the same start; the first of the two counts, the second does not. A boot or shutdown
 * line opens a new start. When no such line separates two starts (e.g. an in-process restart), seeing the
 * same marker a second time also counts, since each start logs each marker once.
 */
export class RestartTracker {
  private s: RestartTrackerState;

  constructor(state: RestartTrackerState = initialRestartState()) {
    this.s = { ...state };
  }

  /** True when this entry is the line that marks a new gateway start. */
  observe(entry: GatewayLogEntry): boolean {
    const marker = startMarker(entry);
    if (marker === "boot" || marker === "shutdown") {
      this.s = initialRestartState();
      return false;
    }
    if (marker !== "listening" && marker !== "ready") return false;
    const key = marker === "listening" ? "seenListening" : "seenReady";
    const counted = this.s.seenListening || this.s.seenReady;
    if (!counted || this.s[key]) {
      this.s = initialRestartState();
      this.s[key] = true;
      return true;
    }
    this.s[key] = true;
    return false;
  }

  state(): RestartTrackerState {
    return { ...this.s };
  }
}

/** An entry's event type; restarts are decided by the (stateful) tracker. */
export function classifyLogEntry(entry: GatewayLogEntry, tracker: RestartTracker): LogEventType | null {
  if (tracker.observe(entry)) return "restart";
  return levelEventType(entry.level);
}
