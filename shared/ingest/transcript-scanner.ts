// Incremental transcript scanning: for each transcript whose change token moved, read the events
// after the stored cursor in bounded batches, add them to the transcript's lifetime totals, record
// a token_usage row per message, and move the cursor, with each batch's sums and its cursor in the
// same transaction (several batches share one: a group closes at 1000 events or 100 ms, then the
// loop yields). A crash between transactions loses nothing and counts nothing twice.
import type { Clock } from "../clock.js";
import type { AgentData, TranscriptBatch, TranscriptCursor, TranscriptRef } from "../sources/openclaw/agent-data.js";
import { emptyTotals, foldEvent, type SessionTotals } from "../sources/openclaw/session-record.js";
import type { ModelTable } from "../sources/openclaw/state-dir.js";
import type { SourceError, SourceWarning } from "../sources/result.js";
import type { Store } from "../store/store.js";

export interface ScanOptions {
  clock: Clock;
  /** Events per batch (one transaction each). */
  batchEvents?: number;
  /** Stop after this many batches per call so one huge backlog cannot hog the process; the next call goes on. */
  maxBatches?: number;
  models?: ModelTable;
}

export interface ScanResult {
  transcripts: number;
  /** Transcripts fully read after this call. */
  caughtUp: number;
  events: number;
  usageRows: number;
  warnings: SourceWarning[];
  errors: SourceError[];
  /** Everything listed was read to the end. */
  done: boolean;
}

interface TotalsRow {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  cost_usd: number;
  user_messages: number;
  assistant_messages: number;
  tool_calls: number;
  errors: number;
  first_activity: number | null;
  last_activity: number | null;
  first_event: number | null;
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Meta key (per agent) set once the transcripts summed before `first_event` existed have it (migration 6). */
export const FIRST_EVENT_BACKFILL = "first_event_backfilled:";

/** A commit group closes at this many events or this much time, whichever comes first. */
const GROUP_EVENTS = 1000;
const GROUP_MS = 100;

export class TranscriptScanner {
  private readonly stmts;

  constructor(
    private readonly store: Store,
    private readonly options: ScanOptions,
  ) {
    const db = store.db;
    this.stmts = {
      cursor: db.prepare<[string, string], { cursor_json: string; change_token: string | null }>("SELECT cursor_json, change_token FROM scan_cursors WHERE source = ? AND item = ?"),
      saveCursor: db.prepare(
        `INSERT INTO scan_cursors (source, item, cursor_json, change_token, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (source, item) DO UPDATE SET cursor_json = excluded.cursor_json, change_token = excluded.change_token, updated_at = excluded.updated_at`,
      ),
      totals: db.prepare<[string, string], TotalsRow>("SELECT * FROM transcript_totals WHERE agent_id = ? AND session_id = ?"),
      saveTotals: db.prepare(
        `INSERT INTO transcript_totals (agent_id, session_id, session_key, input, output, cache_read, cache_write, cost_usd,
           user_messages, assistant_messages, tool_calls, errors, first_activity, last_activity, first_event)
         VALUES (@agent, @session, @key, @input, @output, @cacheRead, @cacheWrite, @costUsd, @userMessages, @assistantMessages, @toolCalls, @errors, @firstActivity, @lastActivity, @firstEvent)
         ON CONFLICT (agent_id, session_id) DO UPDATE SET session_key = excluded.session_key, input = excluded.input, output = excluded.output,
           cache_read = excluded.cache_read, cache_write = excluded.cache_write, cost_usd = excluded.cost_usd, user_messages = excluded.user_messages,
           assistant_messages = excluded.assistant_messages, tool_calls = excluded.tool_calls, errors = excluded.errors,
           first_activity = excluded.first_activity, last_activity = excluded.last_activity, first_event = excluded.first_event`,
      ),
      forget: db.prepare("DELETE FROM transcript_totals WHERE agent_id = ? AND session_id = ?"),
      forgetUsage: db.prepare("DELETE FROM token_usage WHERE agent_id = ? AND session_id = ?"),
      forgetModels: db.prepare("DELETE FROM transcript_models WHERE agent_id = ? AND session_id = ?"),
      addModel: db.prepare(
        `INSERT INTO transcript_models (agent_id, session_id, model, provider, input, output, cache_read, cache_write, cost_usd, messages)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
         ON CONFLICT (agent_id, session_id, model, provider) DO UPDATE SET input = input + excluded.input, output = output + excluded.output,
           cache_read = cache_read + excluded.cache_read, cache_write = cache_write + excluded.cache_write,
           cost_usd = cost_usd + excluded.cost_usd, messages = messages + 1`,
      ),
      usage: db.prepare(
        `INSERT INTO token_usage (ts, role, agent_id, session_id, session_key, model, provider, input, output, cache_read, cache_write, cost_usd)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
  }

  /** One pass over one agent's transcripts. Never throws for bad data: it is in `warnings` / `errors`. */
  async scanAgent(agent: AgentData): Promise<ScanResult> {
    const result: ScanResult = { transcripts: 0, caughtUp: 0, events: 0, usageRows: 0, warnings: [], errors: [], done: true };
    const listed = agent.listTranscripts();
    result.warnings.push(...listed.warnings);
    if (!listed.ok) {
      result.errors.push(listed.error);
      result.done = false;
      return result;
    }
    result.transcripts = listed.value.length;
    // Before any new batch: a batch folded into a row without its first event would take its own.
    await this.backfillFirstEvents(agent, listed.value, result);
    const source = `agent:${agent.agentId}`;
    let batchesLeft = this.options.maxBatches ?? Infinity;
    // Batches wait here and are committed together: most transcripts are one small batch, and a
    // transaction (an fsync) per transcript made the first scan of a large state dir commit-bound.
    const pending: Array<{ ref: TranscriptRef; batch: TranscriptBatch }> = [];
    let pendingEvents = 0;
    let groupStarted = performance.now();
    const flush = async (): Promise<void> => {
      if (pending.length) {
        this.store.transaction(() => {
          for (const p of pending) this.commit(agent.agentId, source, p.ref, p.batch, result);
        });
        pending.length = 0;
        pendingEvents = 0;
      }
      // Bounded work between yields, off the request path: HTTP and the control socket breathe.
      await yieldToLoop();
      groupStarted = performance.now();
    };
    for (const ref of listed.value) {
      const stored = this.stmts.cursor.get(source, ref.sessionId);
      if (stored && stored.change_token === ref.changeToken) {
        result.caughtUp++;
        continue;
      }
      let cursor: TranscriptCursor | null = stored ? (JSON.parse(stored.cursor_json) as TranscriptCursor) : null;
      for (;;) {
        if (batchesLeft <= 0) {
          result.done = false;
          await flush();
          return result;
        }
        batchesLeft--;
        const read = agent.readTranscript(ref, cursor, this.options.batchEvents ?? 1000);
        result.warnings.push(...read.warnings);
        if (!read.ok) {
          result.errors.push(read.error);
          result.done = false;
          break;
        }
        const batch = read.value;
        pending.push({ ref, batch });
        pendingEvents += batch.events.length + 1;
        cursor = batch.cursor;
        if (pendingEvents >= GROUP_EVENTS || performance.now() - groupStarted >= GROUP_MS) await flush();
        if (batch.done) {
          result.caughtUp++;
          break;
        }
      }
    }
    await flush();
    return result;
  }

  /**
   * Transcripts summed by a version before `first_event` existed: reads the first event of each
   * (the `session` header) once, so lifetimeStats.createdAt covers them too. Transcripts no longer
   * listed keep NULL (the query falls back to their first message).
   */
  private async backfillFirstEvents(agent: AgentData, refs: readonly TranscriptRef[], result: ScanResult): Promise<void> {
    const key = FIRST_EVENT_BACKFILL + agent.agentId;
    if (this.store.getMeta(key) !== undefined) return;
    const db = this.store.db;
    const rows = db
      .prepare("SELECT session_id AS sessionId, first_activity AS firstActivity FROM transcript_totals WHERE agent_id = ? AND first_event IS NULL")
      .all(agent.agentId) as Array<{ sessionId: string; firstActivity: number | null }>;
    const byId = new Map(refs.map((r) => [r.sessionId, r]));
    const set = db.prepare("UPDATE transcript_totals SET first_event = ? WHERE agent_id = ? AND session_id = ? AND first_event IS NULL");
    let complete = true;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as (typeof rows)[number];
      const ref = byId.get(row.sessionId);
      if (!ref) continue;
      // Its warnings were counted when the transcript was first read; only the timestamp matters here.
      const read = agent.readTranscript(ref, null, 1);
      if (!read.ok) {
        result.errors.push(read.error);
        complete = false;
        continue;
      }
      const ts = read.value.events[0]?.ts ?? null;
      const first = ts === null ? row.firstActivity : row.firstActivity === null ? ts : Math.min(ts, row.firstActivity);
      if (first !== null) set.run(first, agent.agentId, row.sessionId);
      if (i % 200 === 199) await yieldToLoop();
    }
    if (complete) this.store.setMeta(key, String(this.options.clock.now()));
  }

  /** Adds one batch to its transcript's totals and usage rows and moves its cursor; run inside a transaction. */
  private commit(agentId: string, source: string, ref: TranscriptRef, batch: TranscriptBatch, result: ScanResult): void {
    const now = this.options.clock.now();
    if (batch.restarted) {
      // The transcript was truncated or replaced: what we summed for it no longer exists.
      this.stmts.forget.run(agentId, ref.sessionId);
      this.stmts.forgetUsage.run(agentId, ref.sessionId);
      this.stmts.forgetModels.run(agentId, ref.sessionId);
    }
    const row = batch.restarted ? undefined : this.stmts.totals.get(agentId, ref.sessionId);
    const totals = row ? fromRow(row) : emptyTotals();
    for (const event of batch.events) {
      const before = totals.costUsd;
      foldEvent(totals, event, this.options.models);
      if (event.kind === "assistant") {
        const u = event.usage;
        const cost = totals.costUsd - before;
        this.stmts.usage.run(event.ts ?? now, "assistant", agentId, ref.sessionId, ref.sessionKey, event.model ?? "", event.provider ?? "", u?.input ?? 0, u?.output ?? 0, u?.cacheRead ?? 0, u?.cacheWrite ?? 0, cost);
        this.stmts.addModel.run(agentId, ref.sessionId, event.model ?? "", event.provider ?? "", u?.input ?? 0, u?.output ?? 0, u?.cacheRead ?? 0, u?.cacheWrite ?? 0, cost);
        result.usageRows++;
      } else if (event.kind === "user") {
        this.stmts.usage.run(event.ts ?? now, "user", agentId, ref.sessionId, ref.sessionKey, "", "", 0, 0, 0, 0, 0);
        result.usageRows++;
      }
    }
    result.events += batch.events.length;
    this.stmts.saveTotals.run({ agent: agentId, session: ref.sessionId, key: ref.sessionKey, ...totals });
    this.stmts.saveCursor.run(source, ref.sessionId, JSON.stringify(batch.cursor), batch.done ? ref.changeToken : null, now);
  }
}

function fromRow(r: TotalsRow): SessionTotals {
  return {
    ...emptyTotals(),
    input: r.input,
    output: r.output,
    cacheRead: r.cache_read,
    cacheWrite: r.cache_write,
    costUsd: r.cost_usd,
    userMessages: r.user_messages,
    assistantMessages: r.assistant_messages,
    toolCalls: r.tool_calls,
    errors: r.errors,
    firstActivity: r.first_activity,
    lastActivity: r.last_activity,
    firstEvent: r.first_event,
  };
}
