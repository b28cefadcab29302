import fs from "node:fs";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { RestartTracker, classifyLogEntry, moduleFromDescriptor, parseLogLine, startMarker } from "./log-line.js";
import type { GatewayLogEntry, LogEventType } from "./log-line.js";
import { FIXTURES_DIR } from "../../../../test/helpers/openclaw-fixtures.js";

const LOGS = {
  "2026.9.6": path.join(FIXTURES_DIR, "openclaw-2026.9.6", "logs", "openclaw-2026-11-21.log"),
  "2026.7.1": path.join(FIXTURES_DIR, "openclaw-2026.7.1", "logs", "openclaw-2026-11-21.log"),
};

function fixtureLines(file: string): string[] {
  return fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "");
}

/** The raw fields of a fixture line that the checks compare against. */
interface RawLine {
  "0"?: unknown;
  _meta: { logLevelName: string };
  time: string;
  message: string;
  agent_id?: string;
  session_id?: string;
}

/** Plain reading of the fixture, independent of the parser: what we expect it to find. */
function expected(file: string) {
  const raw = fixtureLines(file).map((l) => JSON.parse(l) as RawLine);
  const count = (lv: string) => raw.filter((o) => o._meta.logLevelName === lv).length;
  const gatewayMsgs = raw.filter((o) => o["0"] === '{"subsystem":"gateway"}').map((o) => String(o.message));
  return {
    raw,
    errors: count("ERROR") + count("FATAL"),
    warnings: count("WARN"),
    listening: gatewayMsgs.filter((m) => m.startsWith("http server listening")).length,
    ready: gatewayMsgs.filter((m) => m === "gateway ready").length,
  };
}

function classifyAll(lines: string[]) {
  const tracker = new RestartTracker();
  const events: { type: LogEventType; entry: GatewayLogEntry }[] = [];
  const entries: GatewayLogEntry[] = [];
  let warnings = 0;
  lines.forEach((line, i) => {
    const r = parseLogLine(line, `log:${i + 1}`);
    if (!r.ok) {
      warnings++;
      return;
    }
    entries.push(r.entry);
    const type = classifyLogEntry(r.entry, tracker);
    if (type) events.push({ type, entry: r.entry });
  });
  return { entries, events, warnings };
}

for (const [version, file] of Object.entries(LOGS)) {
  test(`${version} fixture: every line parses, levels and restarts match a plain reading`, () => {
    const exp = expected(file);
    const { entries, events, warnings } = classifyAll(fixtureLines(file));
    assert.is(warnings, 0);
    assert.is(entries.length, exp.raw.length);
    assert.is(events.filter((e) => e.type === "error").length, exp.errors);
    assert.is(events.filter((e) => e.type === "warning").length, exp.warnings);
    // Each start logs both markers; the fixture has one start, counted once.
    assert.ok(exp.listening >= 1 && exp.ready >= 1, "fixture has both start markers");
    const restarts = events.filter((e) => e.type === "restart");
    assert.is(restarts.length, exp.listening);
    assert.ok(restarts[0]!.entry.message.startsWith("http server listening"));
    // Same level/time/message as the raw JSON for every line.
    entries.forEach((e, i) => {
      const o = exp.raw[i]!;
      assert.is(e.level, o._meta.logLevelName);
      assert.is(e.time, o.time);
      assert.is(e.message, o.message);
      assert.is(e.agentId, o.agent_id ?? null);
      assert.is(e.sessionKey, o.session_id ?? null);
    });
  });

  test(`${version} fixture twice in a row: two starts -> two restarts`, () => {
    const lines = fixtureLines(file);
    const { events } = classifyAll([...lines, ...lines]);
    assert.is(events.filter((e) => e.type === "restart").length, 2 * expected(file).listening);
  });
}

test("module comes from key 0 (subsystem or module), else _meta.name", () => {
  const lines = fixtureLines(LOGS["2026.9.6"]);
  const modules = new Set(lines.map((l, i) => {
    const r = parseLogLine(l, String(i));
    return r.ok ? r.entry.module : "?";
  }));
  for (const m of ["gateway", "gateway/ws", "session-sqlite", "cron", "openclaw"]) assert.ok(modules.has(m), m);
  assert.is(moduleFromDescriptor('{"module":"cron","storeKey":"/x/jobs.json"}'), "cron");
  assert.is(moduleFromDescriptor('{"subsystem":"gateway/ws"}'), "gateway/ws");
  assert.is(moduleFromDescriptor("Config valid: /x"), null);
  assert.is(moduleFromDescriptor({ message: "x" }), null);
});

test("agent id and session key come from agent_id / session_id", () => {
  const lines = fixtureLines(LOGS["2026.9.6"]);
  const raw = lines.find((l) => (JSON.parse(l) as { agent_id?: string }).agent_id)!;
  const o = JSON.parse(raw) as { agent_id: string; session_id: string };
  const r = parseLogLine(raw, "x");
  assert.ok(r.ok);
  if (r.ok) {
    assert.is(r.entry.agentId, o.agent_id);
    assert.is(r.entry.sessionKey, o.session_id);
  }
});

test("message falls back to the joined string arguments; level falls back to logLevelId", () => {
  const line = JSON.stringify({
    "0": '{"subsystem":"plugins"}',
    "1": "first",
    "2": { detail: 1 },
    "3": "second",
    _meta: { logLevelId: 5 },
    time: "2026-11-21T22:47:27.148+00:00",
  });
  const r = parseLogLine(line, "x");
  assert.ok(r.ok);
  if (r.ok) {
    assert.is(r.entry.message, "first second");
    assert.is(r.entry.level, "ERROR");
    assert.is(r.entry.module, "plugins");
    assert.is(r.entry.timeMs, Date.UTC(2026, 10, 21, 22, 47, 27, 148));
  }
});

test("bad lines are warnings, never throws", () => {
  const cases = ["not json at all", "{\"0\":", "[1,2]", "\"str\"", JSON.stringify({ message: "x", time: "2026-11-21T00:00:00Z" }), JSON.stringify({ message: "x", _meta: { logLevelName: "INFO" }, time: "nope" }), "   "];
  for (const c of cases) {
    const r = parseLogLine(c, "f.log:7");
    assert.is(r.ok, false, c);
    if (!r.ok) assert.is(r.warning.where, "f.log:7");
  }
});

function gw(message: string, module = "gateway"): GatewayLogEntry {
  return { time: "2026-11-21T00:00:00Z", timeMs: 0, level: "INFO", module, message, agentId: null, sessionKey: null, channel: null, traceId: null };
}

test("restart tracker: one per start, state survives a split between reads, in-process restart counts", () => {
  const t = new RestartTracker();
  assert.is(t.observe(gw("loading configuration…")), false);
  assert.is(t.observe(gw("http server listening (14 plugins; 5.2s)")), true);
  // A follower stops here and persists the state; a new tracker continues from it.
  const t2 = new RestartTracker(JSON.parse(JSON.stringify(t.state())));
  assert.is(t2.observe(gw("gateway ready")), false);
  // No boot line in between, but a second "listening" is a new start.
  assert.is(t2.observe(gw("http server listening (14 plugins; 1.0s)")), true);
  assert.is(t2.observe(gw("gateway ready")), false);
  // A start that only says "ready" (no listening line) still counts once.
  assert.is(t2.observe(gw("shutdown completed cleanly in 242ms", "gateway/shutdown")), false);
  assert.is(t2.observe(gw("gateway ready")), true);
  assert.is(startMarker(gw("gateway ready", "gateway/ws")), null);
  assert.is(startMarker(gw("gateway ready soon", "gateway")), "ready");
});

test.run();
