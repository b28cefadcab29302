import * as fs from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { AgentDb } from "./agent-db.js";
import type { SessionNodeRow } from "./agent-db.js";
import { readJsonlTranscript, readSessionsJson } from "./legacy-files.js";
import { addTotals, emptyTotals, fallbackDisplayName, foldEvents, sessionFromLegacyEntry, sessionFromNode, sessionKind } from "./session-record.js";
import { modelTableOf } from "./state-dir.js";
import type { ModelInfo } from "./state-dir.js";
import { FILES_FIXTURE, SQLITE_FIXTURE, copyFixture, removeTempDirs } from "../../../test/helpers/openclaw-fixtures.js";
import { parseTranscriptEvent } from "./transcript-event.js";
import type { SourceWarning } from "../result.js";

test.after(removeTempDirs);

// any: raw fixture JSON and rows compared as plain data.
type Json = Record<string, any>;

function configOf(stateDir: string): Json {
  return JSON.parse(fs.readFileSync(path.join(stateDir, "openclaw.json"), "utf8")) as Json;
}

test("kind from key shape, created_via, chat type and parent", () => {
  assert.is(sessionKind("agent:main:main"), "direct");
  assert.is(sessionKind("agent:main:cron:9dfb"), "cron");
  assert.is(sessionKind("agent:main:cron:9dfb:run:ff47"), "cron");
  assert.is(sessionKind("agent:main:subagent:1234"), "subagent");
  assert.is(sessionKind("agent:main:telegram:group:-100"), "group");
  assert.is(sessionKind("agent:main:discord:channel:42"), "group");
  assert.is(sessionKind("agent:main:whatever", "spawn"), "subagent");
  assert.is(sessionKind("agent:main:whatever", "cron"), "cron");
  assert.is(sessionKind("agent:main:whatever", "channel", "group"), "group");
  assert.is(sessionKind("agent:main:whatever", "operator", "direct", "agent:main:main"), "subagent");
  assert.is(sessionKind("agent:main:cron:x", null, null, "agent:main:main"), "cron", "key shape first");
  assert.is(sessionKind("hook:7f3a"), "direct");
  assert.is(fallbackDisplayName("agent:main:cron:abc"), "cron:abc");
  assert.is(fallbackDisplayName("hook:7f3a"), "hook:7f3a");
});

test("SQLite era: one record per key with the fixture's columns", () => {
  const stateDir = copyFixture(SQLITE_FIXTURE);
  const dbPath = path.join(stateDir, "agents", "main", "agent", "openclaw-agent.sqlite");
  const config = configOf(stateDir);
  const models = modelTableOf(config);
  const sql = new Database(dbPath, { readonly: true });
  const nodes = sql.prepare("SELECT * FROM session_nodes ORDER BY session_key").all() as Json[];
  const windowsOf = (key: string) => sql.prepare("SELECT * FROM session_windows WHERE session_key = ? ORDER BY created_at, session_id").all(key) as Json[];
  const opened = AgentDb.open(dbPath);
  assert.ok(opened.ok);
  const db = opened.value;
  const n = db.sessionNodes();
  const w = db.sessionWindows();
  assert.ok(n.ok && w.ok);
  assert.is(n.value.length, nodes.length);
  const windowCfg = (config.models.providers.fakellm.models as Json[])[0]?.contextWindow as number;
  for (const want of nodes) {
    const node = n.value.find((x) => x.sessionKey === want.session_key) as SessionNodeRow;
    const wins = windowsOf(want.session_key);
    const rec = sessionFromNode("main", node, w.value.filter((x) => x.sessionKey === want.session_key), models);
    const entry = JSON.parse(want.entry_json) as Json;
    const current = wins.find((x) => x.session_id === want.current_session_id) as Json;
    assert.is(rec.key, want.session_key);
    assert.is(rec.agentId, "main");
    assert.equal(rec.sessionIds, wins.map((x) => x.session_id));
    assert.is(rec.currentSessionId, want.current_session_id);
    assert.is(rec.model, entry.model);
    assert.is(rec.modelProvider, entry.modelProvider);
    assert.is(rec.status, want.status ?? current.status);
    assert.is(rec.contextTokens, entry.totalTokens);
    assert.is(rec.contextWindow, windowCfg);
    assert.is(rec.updatedAt, want.updated_at);
    assert.is(rec.startedAt, Math.min(want.created_at, ...wins.map((x) => x.created_at)));
    assert.is(rec.label, want.label);
    assert.is(rec.displayName, want.display_name ?? want.label ?? fallbackDisplayName(want.session_key));
    assert.is(rec.createdVia, want.created_via);
    assert.is(rec.kind, want.session_key.includes(":cron:") ? "cron" : "direct");
    assert.is(rec.archived, want.archived_at !== null);
  }
  // Fixture facts the lead relies on: the cron node has no status of its own, its windows do.
  const cron = nodes.find((x) => x.session_key.includes(":cron:")) as Json;
  assert.is(cron.status, null);
  assert.ok(windowsOf(cron.session_key).length > 1);
  sql.close();
  db.close();
});

test("context window falls back to the entry when the model is not configured", () => {
  const node: SessionNodeRow = {
    sessionKey: "agent:main:subagent:1",
    currentSessionId: "s2",
    entry: { model: "unknown-model", contextTokens: 64000, totalTokens: 900, thinkingLevel: "high" },
    updatedAt: 10,
    status: "running",
    createdAt: 5,
    createdVia: "spawn",
    parentSessionKey: null,
    spawnedBy: "agent:main:main",
    label: "research",
    displayName: null,
    archivedAt: null,
    lastInteractionAt: null,
    lastActivityAt: 9,
  };
  const rec = sessionFromNode("main", node, [], new Map<string, ModelInfo>());
  assert.is(rec.contextWindow, 64000);
  assert.is(rec.contextTokens, 900);
  assert.is(rec.kind, "subagent");
  assert.is(rec.parentKey, "agent:main:main");
  assert.is(rec.displayName, "research");
  assert.is(rec.thinkingLevel, "high");
  assert.equal(rec.sessionIds, ["s2"], "the current id is listed even without its window row");
  const noEntry = sessionFromNode("main", { ...node, entry: null, sessionKey: "agent:main:telegram:group:7" }, [], new Map());
  assert.is(noEntry.model, null);
  assert.is(noEntry.contextWindow, null);
  assert.is(noEntry.channel, "telegram");

  // The entry's token figures go through the usage guard too: 1e308 / 1 would make usagePercent Infinity.
  const warnings: SourceWarning[] = [];
  const absurd = sessionFromNode("main", { ...node, entry: { ...node.entry, totalTokens: 1e308, contextTokens: -1 } }, [], new Map(), warnings);
  assert.is(absurd.contextTokens, null);
  assert.is(absurd.contextWindow, null);
  assert.equal(warnings.map((w) => `${w.code} ${w.where}`), [`BAD_FIELD session_nodes:${node.sessionKey}`, `BAD_FIELD session_nodes:${node.sessionKey}`]);
});

test("file era: records from sessions.json", () => {
  const stateDir = copyFixture(FILES_FIXTURE);
  const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
  const index = JSON.parse(fs.readFileSync(path.join(sessionsDir, "sessions.json"), "utf8")) as Json;
  const models = modelTableOf(configOf(stateDir));
  const r = readSessionsJson(sessionsDir);
  assert.ok(r.ok);
  for (const item of r.value) {
    const entry = index[item.key] as Json;
    const rec = sessionFromLegacyEntry("main", item, models);
    assert.is(rec.model, entry.model);
    assert.is(rec.status, entry.status ?? null);
    assert.equal(rec.sessionIds, [entry.sessionId]);
    assert.is(rec.contextTokens, entry.totalTokens);
    assert.is(rec.updatedAt, entry.updatedAt);
    assert.is(rec.label, entry.label ?? null);
    assert.is(rec.kind, item.key.includes(":cron:") ? "cron" : "direct");
    assert.is(rec.displayName, entry.label ?? fallbackDisplayName(item.key));
  }
});

test("folding SQLite transcripts gives the sums a plain SQL query gives", () => {
  const stateDir = copyFixture(SQLITE_FIXTURE);
  const dbPath = path.join(stateDir, "agents", "main", "agent", "openclaw-agent.sqlite");
  const sql = new Database(dbPath, { readonly: true });
  const expected = sql
    .prepare(
      `SELECT session_id,
         total(CASE WHEN json_extract(event_json,'$.message.role')='assistant' THEN json_extract(event_json,'$.message.usage.input') END) AS input,
         total(CASE WHEN json_extract(event_json,'$.message.role')='assistant' THEN json_extract(event_json,'$.message.usage.output') END) AS output,
         total(CASE WHEN json_extract(event_json,'$.message.role')='assistant' THEN json_extract(event_json,'$.message.usage.cacheRead') END) AS cacheRead,
         total(CASE WHEN json_extract(event_json,'$.message.role')='assistant' THEN json_extract(event_json,'$.message.usage.cacheWrite') END) AS cacheWrite,
         total(CASE WHEN json_extract(event_json,'$.message.role')='assistant' THEN json_extract(event_json,'$.message.usage.cost.total') END) AS cost,
         sum(json_extract(event_json,'$.message.role')='user') AS users,
         sum(json_extract(event_json,'$.message.role')='assistant') AS assistants
       FROM transcript_events GROUP BY session_id ORDER BY session_id`,
    )
    .all() as Json[];
  const rows = sql.prepare("SELECT session_id, event_json FROM transcript_events ORDER BY session_id, seq").all() as Json[];
  sql.close();
  const opened = AgentDb.open(dbPath);
  assert.ok(opened.ok);
  const lifetime = emptyTotals();
  for (const want of expected) {
    const batch = opened.value.transcriptEvents(want.session_id, -1, 10_000);
    assert.ok(batch.ok);
    const t = foldEvents(batch.value.events);
    assert.is(t.input, want.input);
    assert.is(t.output, want.output);
    assert.is(t.cacheRead, want.cacheRead);
    assert.is(t.cacheWrite, want.cacheWrite);
    assert.ok(Math.abs(t.costUsd - want.cost) < 1e-12, `${t.costUsd} vs ${want.cost}`);
    assert.is(t.userMessages, want.users);
    assert.is(t.assistantMessages, want.assistants);
    const stamps = rows
      .filter((r) => r.session_id === want.session_id)
      .map((r) => JSON.parse(r.event_json) as Json)
      .filter((o) => o.type === "message")
      .map((o) => Date.parse(o.timestamp));
    assert.is(t.firstActivity, Math.min(...stamps));
    assert.is(t.lastActivity, Math.max(...stamps));
    addTotals(lifetime, t);
  }
  assert.is(lifetime.input, expected.reduce((s, r) => s + r.input, 0));
  assert.is(lifetime.userMessages, expected.reduce((s, r) => s + r.users, 0));
  assert.ok(lifetime.input > 0 && lifetime.costUsd > 0);
  opened.value.close();
});

test("folding JSONL transcripts matches JSON.parse of each line", () => {
  const stateDir = copyFixture(FILES_FIXTURE);
  const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
  for (const name of fs.readdirSync(sessionsDir).filter((n) => /^[0-9a-f-]+\.jsonl$/.test(n))) {
    const file = path.join(sessionsDir, name);
    const objs = fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Json);
    const assistants = objs.filter((o) => o.message?.role === "assistant");
    const r = readJsonlTranscript(file, null);
    assert.ok(r.ok);
    const t = foldEvents(r.value.events);
    assert.is(t.input, assistants.reduce((s, o) => s + o.message.usage.input, 0));
    assert.is(t.output, assistants.reduce((s, o) => s + o.message.usage.output, 0));
    assert.is(t.cacheRead, assistants.reduce((s, o) => s + o.message.usage.cacheRead, 0));
    assert.ok(Math.abs(t.costUsd - assistants.reduce((s, o) => s + o.message.usage.cost.total, 0)) < 1e-12);
    assert.is(t.userMessages, objs.filter((o) => o.message?.role === "user").length);
    assert.is(t.assistantMessages, assistants.length);
  }
});

test("cost: recorded cost wins; a missing one is priced from the model table; errors and tool calls counted", () => {
  const stateDir = copyFixture(SQLITE_FIXTURE);
  const config = configOf(stateDir);
  const models = modelTableOf(config);
  const rates = (config.models.providers.fakellm.models as Json[])[0]?.cost as Json;
  const ev = (usage: Json, extra: Json = {}) =>
    parseTranscriptEvent(JSON.stringify({ type: "message", timestamp: "2026-11-21T22:00:00.000Z", message: { role: "assistant", provider: "fakellm", model: "fake-model", usage, ...extra } }));
  const recorded = ev({ input: 100, output: 10, cost: { total: 0.5 } });
  const unpriced = ev({ input: 1000, output: 100, cacheRead: 2000, cacheWrite: 10 });
  const failed = ev({ input: 0, output: 0 }, { stopReason: "error", errorMessage: "HTTP 500", content: [{ type: "toolCall", id: "c", name: "ls" }] });
  assert.ok(recorded && unpriced && failed);
  const priced = (1000 * rates.input + 100 * rates.output + 2000 * rates.cacheRead + 10 * rates.cacheWrite) / 1e6;
  const withTable = foldEvents([recorded, unpriced, failed], emptyTotals(), models);
  assert.ok(Math.abs(withTable.costUsd - (0.5 + priced)) < 1e-12, String(withTable.costUsd));
  assert.is(withTable.errors, 1);
  assert.is(withTable.toolCalls, 1);
  assert.is(withTable.assistantMessages, 3);
  assert.is(withTable.input, 1100);
  const withoutTable = foldEvents([recorded, unpriced]);
  assert.is(withoutTable.costUsd, 0.5);

  // An absurd price in the config cannot poison the sum either: the priced cost goes through the guard.
  const absurdTable = modelTableOf({ models: { providers: { fakellm: { models: [{ id: "fake-model", cost: { input: 1e308, output: 1, cacheRead: 0, cacheWrite: 0 } }] } } } });
  const pricedAbsurd = foldEvents([unpriced, unpriced], emptyTotals(), absurdTable);
  assert.is(pricedAbsurd.costUsd, 0);
  assert.is(pricedAbsurd.input, 2000);
});

test("firstEvent is the earliest event of any type (the session header); firstActivity the earliest message", () => {
  const header = parseTranscriptEvent('{"type":"session","id":"s","timestamp":"2026-11-21T22:00:00.000Z"}');
  const change = parseTranscriptEvent('{"type":"model_change","timestamp":"2026-11-21T22:00:01.000Z"}');
  const user = parseTranscriptEvent('{"type":"message","timestamp":"2026-11-21T22:00:02.000Z","message":{"role":"user","content":"hi"}}');
  assert.ok(header && change && user);
  const t = foldEvents([change, user, header]);
  assert.is(t.firstEvent, Date.parse("2026-11-21T22:00:00.000Z"));
  assert.is(t.firstActivity, Date.parse("2026-11-21T22:00:02.000Z"));
  assert.is(addTotals(emptyTotals(), t).firstEvent, t.firstEvent);
});

test.run();
