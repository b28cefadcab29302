// Expected values straight from the fixture files, computed without the code under test: the
// agent DB is read with plain SQL (zstd rows decoded with fzstd), the file era with JSON.parse of
// sessions.json and the JSONL lines, the gateway log line by line. Tests compare what gateway-
// insights reports with these numbers.
import Database from "better-sqlite3";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decompress } from "fzstd";

type Json = Record<string, unknown>;

/** Both fixture recordings end before this instant (UTC); their log files are dated that day. */
export const FIXTURE_NOW = Date.parse("2026-11-21T23:20:00.000Z");

export interface FixtureTranscript {
  sessionId: string;
  sessionKey: string | null;
  /** Every event object in order. */
  events: Json[];
  /** Bytes of the transcript as stored (JSONL file size, or the sum of the rows' UTF-8 JSON plus newlines). */
  bytes: number;
}

/** Every transcript (session window) of one agent, in either storage era. */
export function fixtureTranscripts(stateDir: string, agentId = "main"): FixtureTranscript[] {
  const dbPath = join(stateDir, "agents", agentId, "agent", "openclaw-agent.sqlite");
  if (existsSync(dbPath)) {
    const db = new Database(dbPath, { readonly: true });
    try {
      const keys = new Map((db.prepare("SELECT session_id, session_key FROM session_windows").all() as Array<{ session_id: string; session_key: string }>).map((r) => [r.session_id, r.session_key]));
      const rows = db.prepare("SELECT session_id, seq, event_json, event_zstd FROM transcript_events ORDER BY session_id, seq").all() as Array<{ session_id: string; event_json: string | null; event_zstd: Buffer | null }>;
      const out = new Map<string, FixtureTranscript>();
      for (const r of rows) {
        const text = r.event_json ?? Buffer.from(decompress(new Uint8Array(r.event_zstd as Buffer))).toString("utf8");
        let t = out.get(r.session_id);
        if (!t) out.set(r.session_id, (t = { sessionId: r.session_id, sessionKey: keys.get(r.session_id) ?? null, events: [], bytes: 0 }));
        t.events.push(JSON.parse(text) as Json);
        t.bytes += Buffer.byteLength(text) + 1;
      }
      return [...out.values()];
    } finally {
      db.close();
    }
  }
  const dir = join(stateDir, "agents", agentId, "sessions");
  const index = JSON.parse(readFileSync(join(dir, "sessions.json"), "utf8")) as Record<string, { sessionId?: string }>;
  const keyOf = new Map(Object.entries(index).map(([key, e]) => [e.sessionId, key]));
  return readdirSync(dir)
    .filter((n) => /^[0-9a-f-]{36}\.jsonl$/.test(n))
    .map((n) => {
      const sessionId = n.slice(0, -".jsonl".length);
      const text = readFileSync(join(dir, n), "utf8");
      return {
        sessionId,
        sessionKey: keyOf.get(sessionId) ?? null,
        events: text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Json),
        bytes: Buffer.byteLength(text),
      };
    });
}

export interface ExpectedTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
  costUsd: number;
  userMessages: number;
  assistantMessages: number;
  /** user + assistant + toolResult messages. */
  messages: number;
  firstActivity: number | null;
  /** Earliest `timestamp` of any event (the `session` header comes before the first message). */
  firstEvent: number | null;
}

const message = (e: Json): Json | null => (e.type === "message" && typeof e.message === "object" && e.message !== null ? (e.message as Json) : null);
const n = (v: unknown): number => (typeof v === "number" ? v : 0);

/** Sums `usage` over assistant messages and counts messages, for the events `keep` accepts (by their `timestamp`). */
export function expectedTotals(transcripts: readonly FixtureTranscript[], keep: (tsMs: number) => boolean = () => true): ExpectedTotals {
  const t: ExpectedTotals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, costUsd: 0, userMessages: 0, assistantMessages: 0, messages: 0, firstActivity: null, firstEvent: null };
  for (const tr of transcripts) {
    for (const e of tr.events) {
      const at = Date.parse(String(e.timestamp));
      if (!Number.isNaN(at) && keep(at)) t.firstEvent = t.firstEvent === null ? at : Math.min(t.firstEvent, at);
      const m = message(e);
      if (!m) continue;
      const ts = Date.parse(String(e.timestamp));
      if (!keep(ts)) continue;
      if (m.role === "user" || m.role === "assistant" || m.role === "toolResult") {
        t.messages++;
        t.firstActivity = t.firstActivity === null ? ts : Math.min(t.firstActivity, ts);
      }
      if (m.role === "user") t.userMessages++;
      if (m.role !== "assistant") continue;
      t.assistantMessages++;
      const u = (m.usage ?? {}) as Json;
      t.input += n(u.input);
      t.output += n(u.output);
      t.cacheRead += n(u.cacheRead);
      t.cacheWrite += n(u.cacheWrite);
      t.costUsd += n((u.cost as Json | undefined)?.total);
    }
  }
  t.total = t.input + t.output + t.cacheRead + t.cacheWrite;
  return t;
}

/** Transcripts grouped by session key. */
export function byKey(transcripts: readonly FixtureTranscript[]): Map<string, FixtureTranscript[]> {
  const out = new Map<string, FixtureTranscript[]>();
  for (const t of transcripts) {
    if (!t.sessionKey) continue;
    out.set(t.sessionKey, [...(out.get(t.sessionKey) ?? []), t]);
  }
  return out;
}

export interface ExpectedLog {
  lines: number;
  error: number;
  warning: number;
  /** Gateway starts: one `http server listening` line of subsystem `gateway` each. */
  restart: number;
  /** Times (ms) of every line at INFO and above, newest last. */
  storedTimes: number[];
}

export function expectedLog(text: string): ExpectedLog {
  const out: ExpectedLog = { lines: 0, error: 0, warning: 0, restart: 0, storedTimes: [] };
  for (const line of text.split("\n").filter(Boolean)) {
    const o = JSON.parse(line) as { _meta: { logLevelName: string }; message?: string; time?: string; "0"?: string };
    out.lines++;
    const level = o._meta.logLevelName;
    const restart = o["0"] === '{"subsystem":"gateway"}' && String(o.message).startsWith("http server listening");
    if (restart) out.restart++;
    else if (level === "ERROR" || level === "FATAL") out.error++;
    else if (level === "WARN") out.warning++;
    if (["INFO", "WARN", "ERROR", "FATAL"].includes(level)) out.storedTimes.push(Date.parse(String(o.time)));
  }
  return out;
}

/** Cron jobs as the state DB stores them: id, name, agent id, enabled, and the next run the gateway scheduled (state_json). */
export function fixtureCronJobs(stateDir: string): Array<{ id: string; name: string; agentId: string | null; enabled: boolean; nextRunAtMs: number | null }> {
  const db = new Database(join(stateDir, "state", "openclaw.sqlite"), { readonly: true });
  try {
    return (db.prepare("SELECT job_id, job_json, state_json FROM cron_jobs").all() as Array<{ job_id: string; job_json: string; state_json: string | null }>).map((r) => {
      const j = JSON.parse(r.job_json) as Json;
      const state = (r.state_json ? JSON.parse(r.state_json) : {}) as Json;
      const next = typeof state.nextRunAtMs === "number" ? state.nextRunAtMs : null;
      return { id: r.job_id, name: String(j.name), agentId: typeof j.agentId === "string" ? j.agentId : null, enabled: j.enabled !== false, nextRunAtMs: next };
    });
  } finally {
    db.close();
  }
}
