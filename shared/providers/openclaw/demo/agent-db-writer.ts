// Writes to an OpenClaw 2026.9.6 agent database the way the gateway does for a run: transcript
// rows (`transcript_events` + `transcript_event_identities`), the session window's and the session
// node's bookkeeping, and the node's `entry_json` with the latest run's figures. Only the demo
// uses this, on its own copy: gateway-insights never writes to a real gateway's state.
import type Database from "better-sqlite3";
import { latestRunFields, type TokenCounts } from "./events.js";

type Json = Record<string, unknown>;

/** Appends events to one transcript, chaining `parentId` and numbering `seq` as the gateway does. */
export class TranscriptAppender {
  private seq: number;
  private last: string | null;
  private readonly insertEvent;
  private readonly insertIdentity;

  constructor(
    db: Database.Database,
    readonly sessionId: string,
  ) {
    const row = db.prepare("SELECT seq, event_json FROM transcript_events WHERE session_id = ? ORDER BY seq DESC LIMIT 1").get(sessionId) as { seq: number; event_json: string | null } | undefined;
    this.seq = row ? row.seq : -1;
    this.last = row?.event_json ? idOf(row.event_json) : null;
    this.insertEvent = db.prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes, navigation_json) VALUES (?, ?, ?, ?, NULL, ?, NULL)");
    this.insertIdentity = db.prepare(
      "INSERT INTO transcript_event_identities (session_id, event_id, seq, event_type, parent_id, message_idempotency_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
  }

  /** The id of the last event: the parent of the next one. */
  get lastId(): string | null {
    return this.last;
  }

  get nextSeq(): number {
    return this.seq + 1;
  }

  append(event: Json, createdAt: number): void {
    const text = JSON.stringify(event);
    this.seq++;
    this.insertEvent.run(this.sessionId, this.seq, text, createdAt, Buffer.byteLength(text));
    const id = typeof event.id === "string" ? event.id : null;
    if (id) {
      const message = typeof event.message === "object" && event.message !== null ? (event.message as Json) : null;
      const key = typeof message?.idempotencyKey === "string" ? message.idempotencyKey : null;
      this.insertIdentity.run(this.sessionId, id, this.seq, typeof event.type === "string" ? event.type : null, typeof event.parentId === "string" ? event.parentId : null, key, createdAt);
      this.last = id;
    }
  }
}

function idOf(eventJson: string): string | null {
  try {
    const v = JSON.parse(eventJson) as Json;
    return typeof v.id === "string" ? v.id : null;
  } catch {
    return null;
  }
}

interface RunRecord {
  sessionKey: string;
  sessionId: string;
  runId: string;
  startedAt: number;
  endedAt: number;
  /** The run's last assistant message (the entry keeps the latest run's figures, not a sum). */
  tokens: TokenCounts;
  status?: "done" | "failed";
  /** A user sent something in this run (announce runs have no user turn). */
  interactive?: boolean;
}

/** After a run: the window's and the node's times, status and the entry's latest-run fields. */
export function recordRun(db: Database.Database, r: RunRecord): void {
  const status = r.status ?? "done";
  db.prepare("UPDATE session_windows SET updated_at = ?, transcript_updated_at = ?, transcript_observed_at = ?, ended_at = ?, status = ? WHERE session_id = ?").run(
    r.endedAt,
    r.endedAt,
    r.endedAt,
    r.endedAt,
    status,
    r.sessionId,
  );
  const node = db.prepare("SELECT entry_json, created_via FROM session_nodes WHERE session_key = ?").get(r.sessionKey) as { entry_json: string; created_via: string | null } | undefined;
  if (!node) return;
  const entry = JSON.parse(node.entry_json) as Json;
  Object.assign(entry, {
    updatedAt: r.endedAt,
    ...(r.interactive !== false ? { lastInteractionAt: r.startedAt } : {}),
    lastActivityAt: r.endedAt,
    status,
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    runtimeMs: r.endedAt - r.startedAt,
    abortedLastRun: false,
    lastRunId: r.runId,
    activeWriterRunId: r.runId,
    ...latestRunFields(r.tokens),
  });
  // Cron nodes keep no run status on the node (the recording has NULL there).
  const nodeStatus = node.created_via === "cron" ? null : status;
  db.prepare("UPDATE session_nodes SET entry_json = ?, updated_at = ?, status = ?, last_interaction_at = coalesce(?, last_interaction_at), last_activity_at = ? WHERE session_key = ?").run(
    JSON.stringify(entry),
    r.endedAt,
    nodeStatus,
    r.interactive !== false ? r.startedAt : null,
    node.created_via === "cron" ? null : r.endedAt,
    r.sessionKey,
  );
}

/** A copy of a row with some columns replaced, ready for `insertRow`. */
export function withColumns(row: Json, changes: Json): Json {
  return { ...row, ...changes };
}

/** Inserts a row given as {column: value} (column names come from the table's own rows, not from input). */
export function insertRow(db: Database.Database, table: string, row: Json): void {
  const cols = Object.keys(row);
  const q = (n: string): string => `"${n.replace(/"/g, '""')}"`;
  db.prepare(`INSERT INTO ${q(table)} (${cols.map(q).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`).run(...cols.map((c) => row[c] as never));
}

interface NewWindow {
  sessionKey: string;
  sessionId: string;
  at: number;
  /** The window this one follows under the same key (a rollover), if any. */
  previousSessionId?: string | null;
  reason?: "rollover" | "reset" | null;
}

/**
 * Opens a new session window (a new sessionId) under an existing key, shaped like the key's
 * newest window, and points the node at it, as the gateway does for each isolated cron run or
 * a rollover.
 */
export function startWindow(db: Database.Database, w: NewWindow): void {
  const template = db.prepare("SELECT * FROM session_windows WHERE session_key = ? ORDER BY created_at DESC, session_id DESC LIMIT 1").get(w.sessionKey) as Json | undefined;
  if (!template) throw new Error(`no window to copy under ${w.sessionKey}`);
  insertRow(
    db,
    "session_windows",
    withColumns(template, {
      session_id: w.sessionId,
      previous_session_id: w.previousSessionId ?? null,
      reason: w.reason ?? null,
      created_at: w.at,
      updated_at: w.at,
      transcript_updated_at: w.at,
      transcript_observed_at: w.at,
      started_at: w.at,
      ended_at: null,
      status: "running",
    }),
  );
  const node = db.prepare("SELECT entry_json FROM session_nodes WHERE session_key = ?").get(w.sessionKey) as { entry_json: string };
  const entry = JSON.parse(node.entry_json) as Json;
  Object.assign(entry, { sessionId: w.sessionId, sessionStartedAt: w.at, updatedAt: w.at });
  db.prepare("UPDATE session_nodes SET current_session_id = ?, entry_json = ?, updated_at = ? WHERE session_key = ?").run(w.sessionId, JSON.stringify(entry), w.at, w.sessionKey);
}

/** Deletes all but the newest `keep` windows of a key (their events go with them: ON DELETE CASCADE). */
export function pruneWindows(db: Database.Database, sessionKey: string, keep: number): number {
  const old = db
    .prepare("SELECT session_id FROM session_windows WHERE session_key = ? ORDER BY created_at DESC, session_id DESC LIMIT -1 OFFSET ?")
    .all(sessionKey, keep) as { session_id: string }[];
  const del = db.prepare("DELETE FROM session_windows WHERE session_id = ?");
  for (const r of old) del.run(r.session_id);
  return old.length;
}
