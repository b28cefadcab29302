// Gateway file-log lines in the shape OpenClaw's tslog writes them (openclaw-formats.md §4, and
// the recorded shared/demo/openclaw-state/logs/gateway.log): numbered arguments, `_meta`, `time`
// with an offset, the flattened `message`, and the agent/session fields that tie a line to a
// session. The demo generator and the live replay both write through `logLine`.
import { hex, type Random } from "../../../base/random.js";

type DemoLogLevel = "DEBUG" | "INFO" | "WARN" | "ERROR";

const LEVEL_ID: Record<DemoLogLevel, number> = { DEBUG: 2, INFO: 3, WARN: 4, ERROR: 5 };

interface LogLineInput {
  ts: number;
  level: DemoLogLevel;
  /** `{"subsystem": …}` or, for cron, `{"module": "cron", …}`: the descriptor tslog puts in argument 0. */
  subsystem?: string;
  module?: { module: string; storeKey?: string };
  text: string;
  /** A structured argument: after the text (tslog appends it to `message` as JSON), or before it (then `message` is the text alone). */
  detail?: Record<string, unknown>;
  detailFirst?: boolean;
  agentId?: string;
  /** The session key (the gateway writes it under `session_id`). */
  sessionKey?: string;
  /** Trace ids of the run the line belongs to. */
  trace?: { traceId: string; spanId: string; parentSpanId?: string };
  hostname?: string;
}

/** A trace of one run: the ids every line of that run shares. */
function newTrace(random: Random): { traceId: string; spanId: string } {
  return { traceId: hex(random, 32), spanId: hex(random, 16) };
}

/** One JSON line (no newline). */
export function logLine(l: LogLineInput): string {
  const descriptor = JSON.stringify(l.module ? l.module : { subsystem: l.subsystem ?? "gateway" });
  const host = l.hostname ?? "demo-host";
  const time = new Date(l.ts).toISOString();
  const o: Record<string, unknown> = { "0": descriptor };
  if (l.detail && l.detailFirst) Object.assign(o, { "1": l.detail, "2": l.text });
  else if (l.detail) Object.assign(o, { "1": l.text, "2": l.detail });
  else o["1"] = l.text;
  o._meta = {
    runtime: "node",
    runtimeVersion: "24.21.0",
    hostname: host,
    date: time,
    logLevelId: LEVEL_ID[l.level],
    logLevelName: l.level,
    name: descriptor,
    parentNames: ["openclaw"],
  };
  o.time = time.replace("Z", "+00:00");
  o.hostname = host;
  o.message = l.detail && !l.detailFirst ? `${l.text} ${JSON.stringify(l.detail)}` : l.text;
  if (l.agentId) o.agent_id = l.agentId;
  if (l.sessionKey) o.session_id = l.sessionKey;
  if (l.trace) {
    o.traceId = l.trace.traceId;
    o.spanId = l.trace.spanId;
    if (l.trace.parentSpanId) o.parentSpanId = l.trace.parentSpanId;
    o.traceFlags = "01";
  }
  return JSON.stringify(o);
}

interface RunLines {
  /** When the gateway accepted the run, and when it ended. */
  startedAt: number;
  endedAt: number;
  runId: string;
  sessionId: string;
  sessionKey: string;
  agentId: string;
  stopReason: string;
  /** A cron run ends by arming the scheduler's timer for the next one. */
  cron?: { storeKey: string; nextAt: number };
  random: Random;
}

/** The lines a real gateway writes for one agent run (the recorded sequence, INFO and DEBUG). */
export function runLogLines(r: RunLines): { ts: number; line: string }[] {
  const trace = newTrace(r.random);
  const inner = { ...trace, spanId: hex(r.random, 16), parentSpanId: trace.spanId };
  const who = { agentId: r.agentId, sessionKey: r.sessionKey };
  const span = r.endedAt - r.startedAt;
  const at = (f: number): number => Math.round(r.startedAt + span * f);
  const out: { ts: number; line: string }[] = [];
  const add = (ts: number, l: Omit<LogLineInput, "ts">): void => {
    out.push({ ts, line: logLine({ ts, ...l }) });
  };
  if (!r.cron) add(at(0), { level: "INFO", subsystem: "gateway/ws", text: `⇄ res ✓ agent ${Math.max(40, Math.round(span / 10))}ms runId=${r.runId} conn=${hex(r.random, 8)}…${hex(r.random, 4)} id=2:${hex(r.random, 8)}-${hex(r.random, 1)}…${hex(r.random, 4)}`, trace });
  add(at(0.05), { level: "DEBUG", subsystem: "agent/embedded", text: `embedded run start: runId=${r.runId} sessionId=${r.sessionId} provider=anthropic model=claude-sonnet-4-5 thinking=off messageChannel=unknown`, ...who, trace: inner });
  add(at(0.1), { level: "INFO", subsystem: "agent/embedded", text: "tool-search: cataloged 53 tools behind compact prompt surface", trace: inner });
  add(at(0.3), {
    level: "DEBUG",
    subsystem: "provider-transport-fetch",
    text: "[model-fetch] start provider=anthropic api=anthropic-messages model=claude-sonnet-4-5 method=POST url=https://api.anthropic.com/v1/messages timeoutMs=undefined proxy=none policy=default",
    trace: inner,
  });
  add(at(0.9), { level: "DEBUG", subsystem: "agent/embedded", text: `embedded run done: runId=${r.runId} sessionId=${r.sessionId} durationMs=${span} aborted=false`, ...who, trace: inner });
  if (r.cron) {
    const delayMs = Math.max(0, r.cron.nextAt - at(1));
    add(at(1), {
      level: "DEBUG",
      module: { module: "cron", storeKey: r.cron.storeKey },
      text: "cron: timer armed",
      detail: { nextAt: r.cron.nextAt, nextAtIso: new Date(r.cron.nextAt).toISOString().replace("Z", "+00:00"), delayMs, clamped: false },
      detailFirst: true,
    });
  } else {
    add(at(1), { level: "INFO", subsystem: "agents/agent-command", text: `[agent] run ${r.runId} ended with stopReason=${r.stopReason}`, trace });
  }
  return out;
}
