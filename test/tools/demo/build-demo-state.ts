// Builds shared/demo/ from the real OpenClaw 2026.9.6 recording in the reference fixtures: the
// state dir (openclaw-state/), the gateway's recorded answers (gateway/) and the manifest
// (demo-state.json). Run by hand when the recording or the demo content changes, never at start:
//
//   node --import tsx test/tools/demo/build-demo-state.ts [--fixtures DIR] [--out DIR]
//
// The recording was made against a fake model, so its transcripts say "FAKE-LLM reply #3" and its
// model is "fakellm/fake-model". This script keeps everything that is OpenClaw's format (the
// databases, their schemas and row shapes, ids, the timeline, the log's lines) and replaces the
// content: the messages become a short support conversation, a ticket-triage cron job and a
// research sub-agent (shared/providers/openclaw/demo/content.ts), with realistic token counts whose
// costs are computed per message as OpenClaw does; the model becomes a real catalog model at its
// list price. Rows OpenClaw derives from the transcripts (identities, the search index, active
// events) are rebuilt; per-run traces and usage caches, which held the fake model's text, are
// dropped (OpenClaw recreates them). It ends by checking that no fake-model text is left anywhere.
// Its choices come from a fixed seed, so a rerun gives the same demo.
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import type { RecordedManifest as DemoManifest } from "../../helpers/demo-bundle.js";
import { between, base62, seededRandom, uuid, type Random } from "../../../shared/base/random.js";
import { insertRow, recordRun, TranscriptAppender, withColumns } from "../../../shared/providers/openclaw/demo/agent-db-writer.js";
import {
  CRON_JOB_MESSAGE,
  CRON_JOB_NAME,
  CRON_PREAMBLE,
  DEMO_AGENT_NAME,
  MAIN_SESSION_NAME,
  RESEARCH_QUERY,
  RESEARCH_RESULTS,
  RESEARCH_SUMMARY,
  RESEARCH_TASK,
  SPAWN_ANSWER,
  SPAWN_FOLLOW_UP,
  SPAWN_QUESTION,
  SUBAGENT_LABEL,
  SUPPORT_EXCHANGES,
  cronDigest,
  turnTokens,
} from "../../../shared/providers/openclaw/demo/content.js";
import {
  DEMO_MODEL,
  assistantMessage,
  latestRunFields,
  modelChange,
  modelSnapshot,
  sessionHeader,
  thinkingLevelChange,
  toolResultMessage,
  userMessage,
  type TokenCounts,
} from "../../../shared/providers/openclaw/demo/events.js";
import { logLine, runLogLines } from "../../../shared/providers/openclaw/demo/log-lines.js";

type Json = Record<string, unknown>;

const SEED = 20261121;
const RECORDING = "openclaw-2026.9.6";
const GATEWAY_ANSWERS = "gateway-responses-2026.9.6";
const DEMO_GATEWAY_TOKEN = "demo-gateway-token-not-a-secret-000000000";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "..", "..", "..");

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function defaultFixtures(): string {
  const candidates = [process.env.GI_FIXTURES_DIR, join(repoRoot, "..", "shared", "fixtures"), "/work/shared/fixtures"].filter((d): d is string => !!d);
  const found = candidates.find((d) => existsSync(join(d, RECORDING)));
  if (!found) throw new Error(`the recording ${RECORDING} was not found; pass --fixtures DIR`);
  return found;
}

/** Text replacements applied to every TEXT value, log line and answer file (longest first). */
class Replacements {
  private pairs: [string, string][] = [];

  add(from: string, to: string): void {
    if (from === to || from === "") return;
    // The same text also sits JSON-escaped inside JSON strings (and once more inside JSON-in-JSON).
    const once = JSON.stringify(from).slice(1, -1);
    const twice = JSON.stringify(once).slice(1, -1);
    const onceTo = JSON.stringify(to).slice(1, -1);
    const twiceTo = JSON.stringify(onceTo).slice(1, -1);
    this.pairs.push([twice, twiceTo], [once, onceTo], [from, to]);
  }

  apply(text: string): string {
    let out = text;
    for (const [from, to] of [...this.pairs].sort((a, b) => b[0].length - a[0].length)) out = out.split(from).join(to);
    return out;
  }
}

/** The names the fake-model recording used, and what the demo calls them. */
function nameReplacements(r: Replacements, jobId: string): void {
  r.add("http://127.0.0.1:18999/v1/chat/completions", "https://api.anthropic.com/v1/messages");
  r.add("http://127.0.0.1:18999/v1", "https://api.anthropic.com");
  r.add("fakellm/fake-model", `${DEMO_MODEL.provider}/${DEMO_MODEL.model}`);
  r.add("Fake Model", DEMO_MODEL.name);
  r.add("fake-model", DEMO_MODEL.model);
  r.add("fakellm", DEMO_MODEL.provider);
  r.add("openai-completions", DEMO_MODEL.api);
  r.add("endpoint=local route=local policy=none", "endpoint=default route=default policy=default");
  r.add("fake-local", "not-used-by-the-demo");
  r.add("fixture-gateway-token-0123456789abcdefghij", DEMO_GATEWAY_TOKEN);
  r.add(`[cron:${jobId} probe-every-2m]`, `[cron:${jobId} ${CRON_JOB_NAME}]`);
  r.add("probe-every-2m", CRON_JOB_NAME);
  r.add("cron probe ping", CRON_JOB_MESSAGE);
}

/** Runs `fn` over every TEXT value of every ordinary table (virtual FTS tables are rebuilt separately). */
function rewriteTextColumns(db: Database.Database, fn: (s: string) => string): void {
  db.function("gi_rewrite", { deterministic: true }, (v: unknown) => (typeof v === "string" ? fn(v) : (v as never)));
  const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string | null }[];
  const virtual = tables.filter((t) => /^\s*CREATE\s+VIRTUAL/i.test(t.sql ?? "")).map((t) => t.name);
  for (const t of tables) {
    if (virtual.includes(t.name) || virtual.some((v) => t.name.startsWith(`${v}_`))) continue;
    for (const c of db.prepare(`PRAGMA table_xinfo("${t.name}")`).all() as { name: string; hidden: number }[]) {
      if (c.hidden !== 0) continue;
      db.prepare(`UPDATE "${t.name}" SET "${c.name}" = gi_rewrite("${c.name}") WHERE typeof("${c.name}") = 'text' AND gi_rewrite("${c.name}") IS NOT "${c.name}"`).run();
    }
  }
}

interface EventRow {
  session_id: string;
  seq: number;
  event_json: string;
  created_at: number;
}

interface LogOut {
  ts: number;
  line: string;
}

const responseId = (random: Random): string => `msg_01${base62(random, 22)}`;

/** Rewrites the recorded transcripts and adds the demo's own runs; returns the log lines of the added runs. */
function rewriteAgentDb(file: string, random: Random, r: Replacements): { log: LogOut[]; lastActivity: number } {
  const db = new Database(file);
  const log: LogOut[] = [];
  try {
    const windows = db.prepare("SELECT * FROM session_windows ORDER BY created_at, session_id").all() as Json[];
    const main = windows.find((w) => w.session_key === "agent:main:main");
    const cronWindows = windows.filter((w) => String(w.session_key).startsWith("agent:main:cron:"));
    if (!main || cronWindows.length === 0) throw new Error("the recording does not have the expected main and cron sessions");
    const cronKey = String(cronWindows[0]!.session_key);
    const jobId = cronKey.split(":")[3] as string;
    nameReplacements(r, jobId);
    const events = db.prepare("SELECT session_id, seq, event_json, created_at FROM transcript_events WHERE event_json IS NOT NULL ORDER BY session_id, seq").all() as EventRow[];
    const update = db.prepare("UPDATE transcript_events SET event_json = ?, event_utf8_bytes = ? WHERE session_id = ? AND seq = ?");
    const lastTokens = new Map<string, TokenCounts>();

    db.transaction(() => {
      // 1. The recorded messages get demo text and realistic usage; ids, times and shapes stay.
      const cronOrder = new Map(cronWindows.map((w, i) => [String(w.session_id), i]));
      for (const row of events) {
        const e = JSON.parse(row.event_json) as Json;
        const m = e.message as Json | undefined;
        if (e.type !== "message" || !m) continue;
        const isMain = row.session_id === main.session_id;
        const cronIndex = cronOrder.get(row.session_id);
        if (m.role === "user") {
          const text = isMain ? SUPPORT_EXCHANGES[0]!.question : `[cron:${jobId} ${CRON_JOB_NAME}] ${CRON_JOB_MESSAGE}\n\n${CRON_PREAMBLE}`;
          r.add(String(m.content), text);
          m.content = text;
          if (typeof m.provenance === "object" && m.provenance) (m.provenance as Json).sourcePromptPrefix = `[cron:${jobId} ${CRON_JOB_NAME}]`;
        } else if (m.role === "assistant") {
          const answer = isMain ? SUPPORT_EXCHANGES[0]!.answer : cronDigest(random);
          const blocks = m.content as Json[];
          const old = blocks.map((b) => String(b.text ?? "")).join("");
          r.add(old, answer);
          // Isolated cron runs two minutes apart read the cached system prompt the first one wrote.
          const tokens = turnTokens(random, { firstInSession: isMain || cronIndex === 0, priorTurns: 0, answer });
          const rebuilt = assistantMessage({
            id: String(e.id),
            parentId: String(e.parentId),
            ts: Date.parse(String(e.timestamp)),
            content: [{ type: "text", text: answer }],
            tokens,
            stopReason: "stop",
            responseId: responseId(random),
            runId: String((m.__openclaw as Json | undefined)?.runId ?? uuid(random)),
          });
          // Keep the recorded message timestamp (it is when the model answered).
          (rebuilt.message as Json).timestamp = m.timestamp;
          Object.assign(e, rebuilt);
          r.add(String(m.responseId), String((rebuilt.message as Json).responseId));
          lastTokens.set(row.session_id, tokens);
        }
        const text = JSON.stringify(e);
        update.run(text, Buffer.byteLength(text), row.session_id, row.seq);
      }

      // 2. The cron node keeps its latest run's figures.
      const lastCron = cronWindows[cronWindows.length - 1]!;
      const cronTokens = lastTokens.get(String(lastCron.session_id));
      if (cronTokens) setEntryFields(db, cronKey, latestRunFields(cronTokens));

      // 3. More runs in the support inbox, one of which spawns a research sub-agent.
      const mainKey = "agent:main:main";
      const t0 = Number(main.ended_at);
      const app = new TranscriptAppender(db, String(main.session_id));
      let turns = 1;
      const run = (at: number, ex: { question: string | null; answer: string }, extra?: (a: TranscriptAppender, ts: number, runId: string) => number): void => {
        const runId = uuid(random);
        let ts = at;
        if (ex.question !== null) {
          app.append(userMessage({ id: uuid(random), parentId: app.lastId, ts, sentAt: ts - between(random, 150, 400), text: ex.question, runId }), ts);
        }
        if (extra) ts = extra(app, ts, runId);
        ts += between(random, 2500, 6500);
        const tokens = turnTokens(random, { firstInSession: false, priorTurns: turns, answer: ex.answer });
        app.append(
          assistantMessage({ id: uuid(random), parentId: app.lastId as string, ts, content: [{ type: "text", text: ex.answer }], tokens, stopReason: "stop", responseId: responseId(random), runId }),
          ts + 20,
        );
        turns++;
        recordRun(db, { sessionKey: mainKey, sessionId: String(main.session_id), runId, startedAt: at, endedAt: ts + 60, tokens, interactive: ex.question !== null });
        log.push(...runLogLines({ startedAt: at - 300, endedAt: ts + 50, runId, sessionId: String(main.session_id), sessionKey: mainKey, agentId: "main", stopReason: "stop", random }));
      };
      const minute = 60_000;
      run(t0 + 2.5 * minute, SUPPORT_EXCHANGES[1]!);
      // A retried model call before the next answer: the warning a busy provider causes.
      const retryAt = t0 + 5 * minute;
      log.push({
        ts: retryAt + 1200,
        line: logLine({ ts: retryAt + 1200, level: "WARN", subsystem: "provider-transport-fetch", text: "[model-fetch] provider=anthropic model=claude-sonnet-4-5 status=529 overloaded_error; retrying in 2000ms (attempt 1/4)" }),
      });
      run(retryAt, SUPPORT_EXCHANGES[2]!);

      const subKey = `agent:main:subagent:${uuid(random)}`;
      const subId = uuid(random);
      const spawnAt = t0 + 9.5 * minute;
      let subDone = 0;
      run(spawnAt, { question: SPAWN_QUESTION, answer: SPAWN_ANSWER }, (a, ts, runId) => {
        const callId = `toolu_01${base62(random, 22)}`;
        const tokens = turnTokens(random, { firstInSession: false, priorTurns: turns, answer: RESEARCH_TASK });
        ts += between(random, 2500, 4000);
        a.append(
          assistantMessage({
            id: uuid(random),
            parentId: a.lastId as string,
            ts,
            content: [{ type: "toolCall", id: callId, name: "sessions_spawn", arguments: { task: RESEARCH_TASK, label: SUBAGENT_LABEL } }],
            tokens,
            stopReason: "toolUse",
            responseId: responseId(random),
            runId,
          }),
          ts + 20,
        );
        const subStart = ts + 400;
        subDone = spawnSubagent(db, random, { key: subKey, sessionId: subId, parentKey: mainKey, mainWindow: main, at: subStart, log });
        ts += 700;
        a.append(toolResultMessage({ id: uuid(random), parentId: a.lastId as string, ts, toolCallId: callId, toolName: "sessions_spawn", text: JSON.stringify({ status: "accepted", childSessionKey: subKey, runId: uuid(random) }) }), ts + 10);
        return ts;
      });
      // The announce run: the sub-agent's result comes back to the parent without a user message.
      run(subDone + 8000, { question: null, answer: SPAWN_FOLLOW_UP });
      run(t0 + 14 * minute, SUPPORT_EXCHANGES[3]!);
      run(t0 + 18.5 * minute, SUPPORT_EXCHANGES[4]!);

      db.prepare("UPDATE session_nodes SET display_name = ? WHERE session_key = ?").run(MAIN_SESSION_NAME, mainKey);
      setEntryFields(db, mainKey, { displayName: MAIN_SESSION_NAME });
      for (const key of [mainKey, cronKey, subKey]) setEntryFields(db, key, { contextTokens: DEMO_MODEL.contextWindow });

      // 4. What OpenClaw derives from transcripts, rebuilt from the rows as they are now.
      rebuildDerived(db, random);
      rewriteTextColumns(db, (s) => r.apply(s));
    })();
    const lastActivity = (db.prepare("SELECT max(created_at) AS t FROM transcript_events").get() as { t: number }).t;
    db.exec("VACUUM");
    return { log, lastActivity };
  } finally {
    db.close();
  }
}

function setEntryFields(db: Database.Database, key: string, fields: Json): void {
  const row = db.prepare("SELECT entry_json FROM session_nodes WHERE session_key = ?").get(key) as { entry_json: string } | undefined;
  if (!row) return;
  const entry = { ...(JSON.parse(row.entry_json) as Json), ...fields };
  db.prepare("UPDATE session_nodes SET entry_json = ? WHERE session_key = ?").run(JSON.stringify(entry), key);
}

/** A research sub-agent: its own key, node and window, spawned by the inbox session. Returns when it finished. */
function spawnSubagent(db: Database.Database, random: Random, o: { key: string; sessionId: string; parentKey: string; mainWindow: Json; at: number; log: LogOut[] }): number {
  const parent = db.prepare("SELECT * FROM session_nodes WHERE session_key = ?").get(o.parentKey) as Json;
  const parentEntry = JSON.parse(String(parent.entry_json)) as Json;
  const entry: Json = {
    ...parentEntry,
    sessionId: o.sessionId,
    createdVia: "spawn",
    createdAt: o.at,
    sessionStartedAt: o.at,
    updatedAt: o.at,
    label: SUBAGENT_LABEL,
    spawnedBy: o.parentKey,
    parentSessionKey: o.parentKey,
    delivery: { kind: "none" },
  };
  delete entry.displayName;
  insertRow(
    db,
    "session_nodes",
    withColumns(parent, {
      session_key: o.key,
      current_session_id: o.sessionId,
      entry_json: JSON.stringify(entry),
      updated_at: o.at,
      status: "running",
      created_at: o.at,
      created_via: "spawn",
      created_actor_type: "agent",
      created_actor_id: "main",
      parent_session_key: o.parentKey,
      spawned_by: o.parentKey,
      label: SUBAGENT_LABEL,
      display_name: null,
      last_interaction_at: o.at,
      last_activity_at: o.at,
    }),
  );
  insertRow(
    db,
    "session_windows",
    withColumns(o.mainWindow, {
      session_id: o.sessionId,
      session_key: o.key,
      created_at: o.at,
      updated_at: o.at,
      transcript_updated_at: o.at,
      transcript_observed_at: o.at,
      started_at: o.at,
      ended_at: null,
      status: "running",
      parent_session_key: o.parentKey,
      spawned_by: o.parentKey,
      display_name: null,
    }),
  );
  const a = new TranscriptAppender(db, o.sessionId);
  const runId = uuid(random);
  let ts = o.at + 30;
  a.append(sessionHeader(o.sessionId, ts, "/home/op/.openclaw/workspace"), ts);
  ts += 5;
  a.append(modelChange(uuid(random), null, ts), ts);
  ts += 900;
  a.append(thinkingLevelChange(uuid(random), a.lastId as string, ts), ts);
  ts += 30;
  a.append(modelSnapshot(uuid(random), a.lastId as string, ts), ts);
  ts += 50;
  a.append(
    userMessage({ id: uuid(random), parentId: a.lastId, ts, sentAt: o.at, text: RESEARCH_TASK, runId, provenance: { kind: "internal_system", sourceTool: "sessions_spawn", sourceSessionKey: o.parentKey } }),
    ts,
  );
  const callId = `toolu_01${base62(random, 22)}`;
  ts += between(random, 2500, 4500);
  const first = turnTokens(random, { firstInSession: true, priorTurns: 0, answer: RESEARCH_QUERY });
  a.append(
    assistantMessage({ id: uuid(random), parentId: a.lastId as string, ts, content: [{ type: "toolCall", id: callId, name: "web_search", arguments: { query: RESEARCH_QUERY, count: 5 } }], tokens: first, stopReason: "toolUse", responseId: responseId(random), runId }),
    ts + 20,
  );
  ts += between(random, 1500, 3000);
  a.append(toolResultMessage({ id: uuid(random), parentId: a.lastId as string, ts, toolCallId: callId, toolName: "web_search", text: RESEARCH_RESULTS }), ts + 10);
  ts += between(random, 5000, 9000);
  const final = turnTokens(random, { firstInSession: false, priorTurns: 1, answer: RESEARCH_SUMMARY });
  a.append(assistantMessage({ id: uuid(random), parentId: a.lastId as string, ts, content: [{ type: "text", text: RESEARCH_SUMMARY }], tokens: final, stopReason: "stop", responseId: responseId(random), runId }), ts + 20);
  const end = ts + 80;
  recordRun(db, { sessionKey: o.key, sessionId: o.sessionId, runId, startedAt: o.at, endedAt: end, tokens: final });
  o.log.push(...runLogLines({ startedAt: o.at, endedAt: end, runId, sessionId: o.sessionId, sessionKey: o.key, agentId: "main", stopReason: "stop", random }));
  return end;
}

/** Identities, the transcript search index, active events and index state, from the transcript rows. */
function rebuildDerived(db: Database.Database, random: Random): void {
  db.exec(`DELETE FROM trajectory_runtime_events; DELETE FROM cache_entries; DELETE FROM session_transcript_fts_rows;
    DELETE FROM session_transcript_fts; DELETE FROM session_transcript_active_events; DELETE FROM session_transcript_index_state;
    DELETE FROM transcript_event_identities;`);
  const windows = db.prepare("SELECT session_id FROM session_windows ORDER BY created_at").all() as { session_id: string }[];
  const identity = db.prepare("INSERT INTO transcript_event_identities (session_id, event_id, seq, event_type, parent_id, message_idempotency_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
  const active = db.prepare("INSERT INTO session_transcript_active_events (session_id, active_position, event_seq, message_position, context_eligible) VALUES (?, ?, ?, ?, 1)");
  const ftsRow = db.prepare("INSERT INTO session_transcript_fts_rows (session_id, message_id) VALUES (?, ?)");
  const fts = db.prepare("INSERT INTO session_transcript_fts (rowid, text, session_id, message_id, role, timestamp) VALUES (?, ?, ?, ?, ?, ?)");
  const state = db.prepare(
    "INSERT INTO session_transcript_index_state (session_id, indexed_seq, leaf_event_id, needs_rebuild, active_event_count, active_message_count, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?)",
  );
  const watermark = db.prepare("INSERT OR IGNORE INTO transcript_rewrite_watermarks (session_id, generation, updated_at) VALUES (?, ?, ?)");
  for (const { session_id: sid } of windows) {
    const rows = db.prepare("SELECT seq, event_json, created_at FROM transcript_events WHERE session_id = ? ORDER BY seq").all(sid) as { seq: number; event_json: string; created_at: number }[];
    let position = 0;
    let messages = 0;
    let leaf: string | null = null;
    for (const row of rows) {
      const e = JSON.parse(row.event_json) as Json;
      const m = e.message as Json | undefined;
      const id = e.type === "session" ? sid : String(e.id);
      identity.run(sid, id, row.seq, String(e.type), typeof e.parentId === "string" ? e.parentId : null, typeof m?.idempotencyKey === "string" ? m.idempotencyKey : null, row.created_at);
      if (e.type === "session") continue;
      const isMessage = e.type === "message";
      active.run(sid, position++, row.seq, isMessage ? messages : null);
      if (isMessage && m && (m.role === "user" || m.role === "assistant")) {
        const text = typeof m.content === "string" ? m.content : (m.content as Json[]).map((b) => (typeof b.text === "string" ? b.text : "")).join("");
        if (text) {
          const rowid = Number(ftsRow.run(sid, String(e.id)).lastInsertRowid);
          fts.run(rowid, text, sid, String(e.id), String(m.role), Date.parse(String(e.timestamp)));
        }
      }
      if (isMessage) messages++;
      leaf = String(e.id);
    }
    const last = rows[rows.length - 1];
    if (last) {
      state.run(sid, last.seq, leaf, position, messages, last.created_at);
      watermark.run(sid, base62(random, 32).toLowerCase(), last.created_at);
    }
  }
}

function rewriteStateDb(file: string, r: Replacements): void {
  const db = new Database(file);
  try {
    db.transaction(() => {
      rewriteTextColumns(db, (s) => r.apply(s));
      // The demo's gateway is running: its boot has no stop recorded yet.
      db.prepare("UPDATE gateway_boot_lifecycle SET completed_at_ms = NULL, outcome = NULL, reason = NULL").run();
    })();
    db.exec("VACUUM");
  } finally {
    db.close();
  }
}

/** The recorded log with demo names, without the fake model's console echo and the final shutdown, plus the added runs' lines. */
function rewriteLog(file: string, r: Replacements, added: LogOut[]): { first: number; last: number } {
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "");
  const stop = lines.findIndex((l) => l.includes("signal SIGTERM received") || l.includes("admission closed: stop (SIGTERM)"));
  const kept = (stop >= 0 ? lines.slice(0, stop) : lines).filter((l) => !l.includes("FAKE-LLM"));
  const timed: LogOut[] = kept.map((l) => ({ ts: Date.parse(String((JSON.parse(l) as Json).time)), line: r.apply(l) }));
  const all = [...timed, ...added].sort((a, b) => a.ts - b.ts);
  writeFileSync(file, all.map((l) => l.line).join("\n") + "\n");
  return { first: all[0]!.ts, last: all[all.length - 1]!.ts };
}

function demoConfig(): Json {
  return {
    gateway: { mode: "local", port: 18789, bind: "loopback", auth: { mode: "token", token: DEMO_GATEWAY_TOKEN } },
    logging: { level: "debug", file: "./logs/gateway.log" },
    agents: {
      ownership: "explicit",
      defaults: { model: { primary: `${DEMO_MODEL.provider}/${DEMO_MODEL.model}` }, workspace: "./workspace" },
      entries: { main: { name: DEMO_AGENT_NAME, workspace: "./workspace" } },
    },
    models: {
      mode: "merge",
      providers: {
        [DEMO_MODEL.provider]: {
          baseUrl: "https://api.anthropic.com",
          api: DEMO_MODEL.api,
          models: [
            { id: DEMO_MODEL.model, name: DEMO_MODEL.name, reasoning: false, input: ["text"], cost: DEMO_MODEL.rates, contextWindow: DEMO_MODEL.contextWindow, maxTokens: DEMO_MODEL.maxTokens },
          ],
        },
      },
    },
  };
}

/** The recorded answers the demo gateway serves, with demo names and two demo channel accounts (the recording had no channels). */
function writeGatewayAnswers(fixtures: string, out: string, r: Replacements): void {
  mkdirSync(out, { recursive: true });
  const read = (file: string): Json => JSON.parse(r.apply(readFileSync(join(fixtures, GATEWAY_ANSWERS, file), "utf8"))) as Json;
  const write = (file: string, v: unknown): void => writeFileSync(join(out, file), JSON.stringify(v, null, 1) + "\n");
  const accounts = {
    telegram: [{ accountId: "default", name: "Demo support bot", enabled: true, configured: true, linked: true, running: true, connected: true, healthState: "healthy", probe: { ok: true, elapsedMs: 182 } }],
    slack: [{ accountId: "acme-demo", name: "Demo workspace", enabled: true, configured: true, running: true, connected: true, healthState: "healthy", probe: { ok: true, elapsedMs: 96 } }],
  };
  const order = ["telegram", "slack"];
  const labels = { telegram: "Telegram", slack: "Slack" };
  const channels = Object.fromEntries(order.map((id) => [id, { configured: true, running: true, connected: true }]));
  write("healthz.json", read("healthz.json"));
  write("readyz.json", read("readyz.json"));
  write("status.json", read("call-status.json"));
  write("channels.status.json", { ...read("call-channels.status.json"), channelOrder: order, channelLabels: labels, channels, channelAccounts: accounts, channelDefaultAccountId: { telegram: "default", slack: "acme-demo" } });
  const health = read("health.json");
  write("health.json", { ...health, channels: Object.fromEntries(order.map((id) => [id, { ...channels[id], accounts: { [accounts[id as keyof typeof accounts][0]!.accountId]: accounts[id as keyof typeof accounts][0] } }])), channelOrder: order, channelLabels: labels });
  const hello = JSON.parse(readFileSync(join(repoRoot, "shared", "sources", "gateway-rpc", "testdata", "hello-2026.9.6.json"), "utf8")) as Json;
  delete hello.note;
  write("hello.json", hello);
}

/** Fails the build when any text of the fake-model recording is left. */
function assertClean(dir: string): void {
  const bad = /FAKE-LLM|fakellm|fake-model|chatcmpl-fake|@@[A-Z]+@@|hi from probe|probe-every|cron probe ping|fixture-gateway-token|END_OPENCLAW_INTERNAL_CONTEXT/;
  const check = (where: string, text: string): void => {
    const m = bad.exec(text);
    if (m) throw new Error(`${where} still holds "${m[0]}"`);
  };
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".sqlite")) {
        const db = new Database(p, { readonly: true });
        try {
          for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]) {
            for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Json[]) check(`${p} ${name}`, JSON.stringify(row));
          }
        } finally {
          db.close();
        }
        // Freed pages can keep old text; VACUUM should have dropped them.
        check(p, readFileSync(p).toString("latin1"));
      } else check(p, readFileSync(p, "utf8"));
    }
  };
  walk(dir);
}

/** Opening a WAL database (even read-only) leaves -wal/-shm files; the bundle ships without them. */
function removeSqliteSidecars(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) removeSqliteSidecars(p);
    else if (/\.sqlite-(wal|shm)$/.test(e.name)) rmSync(p);
  }
}

function main(): void {
  const fixtures = arg("--fixtures") ?? defaultFixtures();
  const out = resolve(arg("--out") ?? join(repoRoot, "shared", "demo"));
  const work = mkdtempSync(join(tmpdir(), "gi-demo-build-"));
  try {
    const state = join(work, "openclaw-state");
    cpSync(join(fixtures, RECORDING), state, { recursive: true });
    const chmodTree = (p: string): void => {
      for (const e of readdirSync(p, { withFileTypes: true })) {
        const q = join(p, e.name);
        chmodSync(q, e.isDirectory() ? 0o755 : 0o644);
        if (e.isDirectory()) chmodTree(q);
      }
    };
    chmodTree(state);
    // OpenClaw re-dates a dated log name to today, so the recorded openclaw-2026-11-21.log would never be "today's".
    const logs = join(state, "logs");
    const dated = readdirSync(logs).find((n) => n.endsWith(".log"));
    if (!dated) throw new Error("the recording has no log file");
    renameSync(join(logs, dated), join(logs, "gateway.log"));
    writeFileSync(join(state, "openclaw.json"), JSON.stringify(demoConfig(), null, 2) + "\n");

    const random = seededRandom(SEED);
    const r = new Replacements();
    const agent = rewriteAgentDb(join(state, "agents", "main", "agent", "openclaw-agent.sqlite"), random, r);
    rewriteStateDb(join(state, "state", "openclaw.sqlite"), r);
    const span = rewriteLog(join(logs, "gateway.log"), r, agent.log);
    const lockDir = join(state, "tmp");
    const lockFile = readdirSync(lockDir, { recursive: true, withFileTypes: true }).find((e) => e.isFile() && e.name.endsWith(".lock"));
    if (!lockFile) throw new Error("the recording has no gateway lock file");
    const lock = JSON.parse(readFileSync(join(lockFile.parentPath, lockFile.name), "utf8")) as { createdAt: string };
    assertClean(state);
    removeSqliteSidecars(state);

    // The Claude Code and Codex entries belong to their own generators (build-claude-code-demo.ts, build-codex-demo.ts): kept.
    const previous = existsSync(join(out, "demo-state.json")) ? (JSON.parse(readFileSync(join(out, "demo-state.json"), "utf8")) as Partial<DemoManifest>) : {};
    const manifest: DemoManifest = {
      ...previous,
      openclaw: {
        dir: "openclaw-state",
        recordedFrom: span.first,
        // The demo's "now": a moment after the last thing that happened.
        recordedUntil: Math.max(span.last, agent.lastActivity) + 5_000,
        gatewayStartedAt: Date.parse(lock.createdAt),
      },
    };
    writeGatewayAnswers(fixtures, join(work, "gateway"), r);
    assertClean(join(work, "gateway"));

    rmSync(join(out, "openclaw-state"), { recursive: true, force: true });
    rmSync(join(out, "gateway"), { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    renameSync(state, join(out, "openclaw-state"));
    renameSync(join(work, "gateway"), join(out, "gateway"));
    writeFileSync(join(out, "demo-state.json"), JSON.stringify(manifest, null, 2) + "\n");
    process.stdout.write(`demo state written to ${out} (recording ${new Date(manifest.openclaw.recordedFrom).toISOString()} .. ${new Date(manifest.openclaw.recordedUntil).toISOString()})\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
