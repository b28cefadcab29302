// Writes one agent's `openclaw-agent.sqlite` the way OpenClaw 2026.9.6 lays it out: the fixture's
// own schema (replayed from its sqlite_master, never hand-written DDL), its schema_meta, then
// session_nodes / session_windows / transcript_events rows cloned from the fixture's rows. Rows of
// >= 1 KiB are zstd-compressed by OpenClaw's rule (§10 of the formats doc). Sessions are queued
// until a batch of rows is worth one call to the compressor, then inserted in one transaction.
import Database from "better-sqlite3";
import * as fs from "node:fs";
import * as path from "node:path";
import { sessionEntry, sessionTimes } from "./entry.js";
import type { GeneratedEvent, GeneratedWindow } from "./events.js";
import type { SessionPlan } from "./plan.js";
import type { Json, SqliteTemplates } from "./templates.js";
import { isJson } from "./templates.js";
import type { Compressor } from "./zstd-batch.js";

export interface AgentStats {
  sessions: number;
  windows: number;
  events: number;
  /** UTF-8 bytes of event JSON. */
  eventBytes: number;
  /** Rows that met the size and content conditions for compression. */
  candidateRows: number;
  compressedRows: number;
  /** UTF-8 bytes of event JSON in compressed rows. */
  compressedRowBytes: number;
}

export function emptyStats(): AgentStats {
  return { sessions: 0, windows: 0, events: 0, eventBytes: 0, candidateRows: 0, compressedRows: 0, compressedRowBytes: 0 };
}

const MIN_COMPRESS_BYTES = 1024;
const MAX_COMPRESS_BYTES = 4 * 1024 * 1024;
const FLUSH_ROWS = 4000;
const FLUSH_BYTES = 32 * 1024 * 1024;

/** OpenClaw's rule (§10): compress when zstd plus navigation_json saves at least max(64 B, 10 %). */
export function keepsCompressed(rawBytes: number, zstdBytes: number, navigationBytes: number): boolean {
  return rawBytes - (zstdBytes + navigationBytes) >= Math.max(64, rawBytes * 0.1);
}

/** Size and content conditions (§10): >= 1 KiB and <= 4 MiB, no `\u` escape or NUL, not the header. */
export function compressionCandidate(e: GeneratedEvent): boolean {
  return e.bytes >= MIN_COMPRESS_BYTES && e.bytes <= MAX_COMPRESS_BYTES && e.obj.type !== "session" && !e.json.includes("\\u") && !e.json.includes("\0");
}

/**
 * navigation_json of a compressed row. The fixtures hold no compressed row, so the shape comes from
 * the table's CHECK constraint (version 1; report.kind; navigation, reset, model objects; the three
 * byte counts). Its size (~0.5 KB) is set so that the rule above leaves the fixture's 1.4 KB rows
 * uncompressed, as OpenClaw did ("~1.5 KB rows are not" compressed, §10).
 */
export function navigationJson(e: GeneratedEvent): string {
  const m = isJson(e.obj.message) ? e.obj.message : {};
  const usage = isJson(m.usage) ? m.usage : null;
  const content = Array.isArray(m.content) ? m.content : [];
  const blocks = content.filter(isJson).map((b) => ({ type: b.type, bytes: JSON.stringify(b).length }));
  const nav = {
    version: 1,
    report: { kind: "canonical", entryId: e.obj.id, entryType: e.obj.type, role: m.role ?? null, reasons: [] },
    navigation: { id: e.obj.id, parentId: e.obj.parentId ?? null, type: e.obj.type, role: m.role ?? null, timestamp: e.obj.timestamp, branch: "main", checkpoint: false },
    reset: { kind: "none", firstKeptEntryId: null },
    model: {
      role: m.role ?? null,
      provider: m.provider ?? null,
      model: m.model ?? null,
      stopReason: m.stopReason ?? null,
      blocks,
      usage: usage ? { input: usage.input, output: usage.output, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite, totalTokens: usage.totalTokens } : null,
      toolCallId: m.toolCallId ?? null,
      toolName: m.toolName ?? null,
    },
    modelBytes: e.bytes,
    modelWithoutCheckpointBytes: e.bytes,
    withoutCustomDataBytes: e.bytes,
  };
  return JSON.stringify(nav);
}

interface PendingRow {
  sessionId: string;
  seq: number;
  event: GeneratedEvent;
  navigation: string | null;
}

interface PendingSession {
  node: Json;
  windows: Json[];
  rows: PendingRow[];
}

export class SqliteAgentWriter {
  readonly stats = emptyStats();
  private readonly db: Database.Database;
  private readonly insertNode: Database.Statement;
  private readonly insertWindow: Database.Statement;
  private readonly insertEvent: Database.Statement;
  private pending: PendingSession[] = [];
  private pendingCandidates = 0;
  private pendingBytes = 0;

  constructor(
    dbPath: string,
    private readonly t: SqliteTemplates,
    agentId: string,
    now: number,
    private readonly compressor: Compressor,
  ) {
    fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    const db = new Database(dbPath);
    this.db = db;
    db.pragma(`page_size = ${t.pageSize}`);
    db.pragma("journal_mode = WAL");
    // A build that dies is thrown away (the cache only keeps finished dirs), so skip the fsyncs.
    db.pragma("synchronous = OFF");
    db.transaction(() => {
      for (const entry of t.schema) db.exec(entry.sql);
      db.pragma(`user_version = ${t.userVersion}`);
      db.pragma(`application_id = ${t.applicationId}`);
      for (const row of t.schemaMeta) {
        const meta = { ...row, agent_id: agentId, created_at: now, updated_at: now };
        db.prepare(`INSERT INTO schema_meta (${Object.keys(meta).join(", ")}) VALUES (${Object.keys(meta).map((k) => `@${k}`).join(", ")})`).run(meta);
      }
    })();
    const insertFor = (table: string, row: Json): Database.Statement =>
      db.prepare(`INSERT INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.keys(row).map((k) => `@${k}`).join(", ")})`);
    this.insertNode = insertFor("session_nodes", t.nodes.main);
    this.insertWindow = insertFor("session_windows", t.windows.main);
    this.insertEvent = db.prepare(
      "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes, navigation_json) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
  }

  addSession(s: SessionPlan, windows: GeneratedWindow[]): void {
    const cron = s.kind === "cron" || s.kind === "cron-failed";
    const times = sessionTimes(windows);
    const last = windows[windows.length - 1] as GeneratedWindow;
    const nodeTpl = cron ? this.t.nodes.cron : this.t.nodes.main;
    const entryTpl = JSON.parse(String(nodeTpl.entry_json)) as Json;
    const node: Json = {
      ...this.t.nodes.main, // the column set of the insert statement
      ...nodeTpl,
      session_key: s.key,
      current_session_id: last.plan.sessionId,
      entry_json: JSON.stringify(sessionEntry(entryTpl, s, windows)),
      updated_at: times.lastMs,
      // §10: a cron job's key keeps status NULL; its failed run keys say "failed".
      status: s.kind === "cron" ? null : times.status,
      created_at: times.createdAt,
      created_via: s.createdVia,
      parent_session_key: s.parentKey,
      spawned_by: s.parentKey,
      label: s.label,
      display_name: null,
      last_interaction_at: last.lastRun?.startedAt ?? times.lastMs,
      last_activity_at: times.lastMs,
      archived_at: null,
    };
    const windowRows = windows.map((w, i): Json => {
      const tpl = cron ? this.t.windows.cron : this.t.windows.main;
      return {
        ...this.t.windows.main,
        ...tpl,
        session_id: w.plan.sessionId,
        session_key: s.key,
        previous_session_id: i > 0 ? (windows[i - 1] as GeneratedWindow).plan.sessionId : null,
        reason: w.plan.reason,
        session_scope: s.chatType === "direct" ? "conversation" : s.chatType,
        created_at: w.firstMs,
        updated_at: w.lastMs,
        transcript_updated_at: w.lastMs,
        transcript_observed_at: w.lastMs,
        started_at: w.lastRun?.startedAt ?? w.firstMs,
        ended_at: w.lastRun?.endedAt ?? w.lastMs,
        status: w.lastRun?.failed ? "failed" : "done",
        chat_type: s.chatType === "direct" ? null : s.chatType,
        channel: s.channel,
        model_provider: s.model.provider,
        model: s.model.id,
        parent_session_key: s.parentKey,
        spawned_by: s.parentKey,
        display_name: cron ? `Automation: ${s.jobName}` : null,
      };
    });
    const rows: PendingRow[] = [];
    for (const w of windows) {
      w.events.forEach((event, seq) => {
        const candidate = compressionCandidate(event);
        rows.push({ sessionId: w.plan.sessionId, seq, event, navigation: candidate ? navigationJson(event) : null });
        if (candidate) this.pendingCandidates++;
        this.pendingBytes += event.bytes;
      });
    }
    this.pending.push({ node, windows: windowRows, rows });
    this.stats.sessions++;
    this.stats.windows += windows.length;
    if (this.pendingCandidates >= FLUSH_ROWS || this.pendingBytes >= FLUSH_BYTES) this.flush();
  }

  private flush(): void {
    const candidates = this.pending.flatMap((p) => p.rows.filter((r) => r.navigation !== null));
    const frames = this.compressor.compress(candidates.map((r) => Buffer.from(r.event.json)));
    const zstdOf = new Map<PendingRow, Buffer>();
    candidates.forEach((r, i) => {
      const c = frames[i];
      if (c && keepsCompressed(r.event.bytes, c.decisionBytes, Buffer.byteLength(r.navigation as string))) zstdOf.set(r, c.frame);
    });
    const st = this.stats;
    this.db.transaction(() => {
      for (const p of this.pending) {
        this.insertNode.run(p.node);
        for (const w of p.windows) this.insertWindow.run(w);
        for (const r of p.rows) {
          const frame = zstdOf.get(r);
          if (frame) this.insertEvent.run(r.sessionId, r.seq, null, r.event.ms, frame, r.event.bytes, r.navigation);
          else this.insertEvent.run(r.sessionId, r.seq, r.event.json, r.event.ms, null, r.event.bytes, null);
          st.events++;
          st.eventBytes += r.event.bytes;
          if (r.navigation !== null) st.candidateRows++;
          if (frame) {
            st.compressedRows++;
            st.compressedRowBytes += r.event.bytes;
          }
        }
      }
    })();
    this.pending = [];
    this.pendingCandidates = 0;
    this.pendingBytes = 0;
  }

  /** Writes what is queued, folds the WAL into the file and closes it. */
  finish(): AgentStats {
    this.flush();
    this.db.pragma("wal_checkpoint(TRUNCATE)");
    this.db.close();
    return this.stats;
  }
}
