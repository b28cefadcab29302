// Plays OpenClaw's part in the incremental benchmark: appends one assistant message to a live
// transcript and touches the session the way the gateway does after a turn. SQLite era: a row in
// transcript_events plus the window's and node's timestamps, in one transaction. File era: a line
// appended to the JSONL, then sessions.json rewritten (temp file + rename) with the new updatedAt.
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { decodeZstd } from "../shared/providers/openclaw/zstd.js";
import type { AppendTarget } from "./scan-protocol.js";

type Json = Record<string, unknown>;

function asObject(v: unknown): Json {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};
}

export class Appender {
  private readonly template: Json;
  private readonly db: Database.Database | null = null;
  private seq = -1;
  private parentId: string | null = null;
  /** File era: the transcript appended to, and the index rewritten after it (the files a watch event names). */
  readonly jsonl: string;
  readonly sessionsJson: string;

  constructor(
    stateDir: string,
    private readonly target: AppendTarget,
    private readonly clock: { now(): number },
  ) {
    this.template = asObject(JSON.parse(target.assistantEventJson));
    const agentDir = path.join(stateDir, "agents", target.agentId);
    this.jsonl = path.join(agentDir, "sessions", `${target.sessionId}.jsonl`);
    this.sessionsJson = path.join(agentDir, "sessions", "sessions.json");
    if (target.era === "sqlite") {
      const db = new Database(path.join(agentDir, "agent", "openclaw-agent.sqlite"));
      db.pragma("busy_timeout = 5000");
      const last = db
        .prepare("SELECT seq, event_json, event_zstd FROM transcript_events WHERE session_id = ? ORDER BY seq DESC LIMIT 1")
        .get(target.sessionId) as { seq: number; event_json: string | null; event_zstd: Buffer | null } | undefined;
      if (!last) throw new Error(`transcript ${target.sessionId} has no events`);
      this.seq = last.seq;
      const text = last.event_json ?? (last.event_zstd ? decodeZstd(last.event_zstd).toString("utf8") : "{}");
      const id = asObject(JSON.parse(text)).id;
      this.parentId = typeof id === "string" ? id : null;
      this.db = db;
    } else {
      const lines = fs.readFileSync(this.jsonl, "utf8").trimEnd().split("\n");
      const id = asObject(JSON.parse(lines[lines.length - 1] ?? "{}")).id;
      this.parentId = typeof id === "string" ? id : null;
    }
  }

  private event(output: number, now: number): string {
    const m = asObject(this.template.message);
    const id = this.target.era === "sqlite" ? randomUUID() : randomUUID().slice(0, 8);
    const message: Json = {
      ...m,
      content: [{ type: "text", text: `incremental benchmark reply, ${output} output tokens` }],
      usage: { input: 10, output, cacheRead: 0, cacheWrite: 0, totalTokens: 10 + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "stop",
      timestamp: now,
    };
    const event = { ...this.template, id, parentId: this.parentId, timestamp: new Date(now).toISOString(), message };
    this.parentId = id;
    return JSON.stringify(event);
  }

  /** Appends one assistant message with `output` output tokens, then touches the session (appendLine + touchIndex). */
  append(output: number): void {
    this.appendLine(output);
    this.touchIndex();
  }

  /**
   * The message alone: SQLite era, the whole transaction (message and timestamps); file era, the
   * JSONL line only, so a benchmark can time what a watch event on the transcript costs apart from
   * the one on sessions.json that follows (touchIndex).
   */
  appendLine(output: number): void {
    const now = this.clock.now();
    const json = this.event(output, now);
    if (this.db) {
      const db = this.db;
      const { sessionId, sessionKey } = this.target;
      this.seq++;
      db.transaction(() => {
        db.prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?, ?, ?, ?, ?)").run(sessionId, this.seq, json, now, Buffer.byteLength(json));
        db.prepare("UPDATE session_windows SET updated_at = ?, transcript_updated_at = ? WHERE session_id = ?").run(now, now, sessionId);
        db.prepare("UPDATE session_nodes SET updated_at = ?, last_activity_at = ?, last_interaction_at = ? WHERE session_key = ?").run(now, now, now, sessionKey);
      })();
      return;
    }
    fs.appendFileSync(this.jsonl, `${json}\n`);
    this.lastNow = now;
  }

  private lastNow = 0;

  /** File era: sessions.json rewritten (temp file + rename) with the session's new updatedAt, as the gateway does after a turn. */
  touchIndex(): void {
    if (this.db) return;
    const now = this.lastNow || this.clock.now();
    const sessions = asObject(JSON.parse(fs.readFileSync(this.sessionsJson, "utf8")));
    const entry = asObject(sessions[this.target.sessionKey]);
    sessions[this.target.sessionKey] = { ...entry, updatedAt: now, lastActivityAt: now, lastInteractionAt: now };
    const tmp = `${this.sessionsJson}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(sessions, null, 2));
    fs.renameSync(tmp, this.sessionsJson);
  }

  close(): void {
    this.db?.close();
  }
}
