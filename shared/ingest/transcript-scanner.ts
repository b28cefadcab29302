// Incremental transcript scanning for every provider: for each transcript whose change token
// moved, read the normalized events after the stored cursor in bounded batches, add them to the
// transcript's lifetime totals, record a token_usage row per prompt and per billable response,
// keep what the transcript says about its session, and move the cursor, with each batch's sums
// and its cursor in the same transaction (several batches share one: a group closes at 1000
// events or SLICE_MS, then the loop yields). A crash between transactions loses nothing and counts
// nothing twice; a response written on several lines (or in several files) is counted once by its
// key, kept in the store across restarts.
import type { Clock } from "../base/clock.js";
import { RateLimitWriter } from "./rate-limit-writer.js";
import type { ActivityBatch, ProviderName, RateLimitSnapshot, ResponseEvent, SessionPatch, SourceReader, TranscriptRef } from "../providers/contract.js";
import type { SourceError, SourceWarning } from "../providers/result.js";
import type { Store } from "../store/store.js";
import { emptyTotals, touch, type TranscriptTotals } from "./fold.js";
import type { UnreadableFiles } from "./unreadable-files.js";

/**
 * What one scan reads. `only`: these transcripts (the files a watch event named, as the reader's
 * transcriptsAt gave them) instead of the reader's whole listing; everything else (change tokens,
 * cursors, de-dup) is as in a full scan, so the figures end up the same. `ScanResult.transcripts` is
 * then the count of `only`, not the source's.
 */
interface ScanScope {
  only?: readonly TranscriptRef[];
}

/** The source being scanned: its id, its provider and how to price a response with no recorded cost. */
interface ScanTarget {
  id: string;
  provider: ProviderName;
  reader: SourceReader;
  /** USD for a response whose cost the provider did not record; null when no price is known. */
  price(response: ResponseEvent): number | null;
}

interface ScanOptions {
  clock: Clock;
  /** Events per batch. */
  batchEvents?: number;
  /** Stop after this many batches per call so one huge backlog cannot hog the process; the next call goes on. */
  maxBatches?: number;
  /**
   * Called whenever a scan writes figures a query reads (a transcript's events, a transcript read
   * again from its start, a new transcript's row, a backfilled first event), inside the write's
   * transaction: caches of answers about the source compare a count of these calls, so an answer
   * made before the write is never served after it, even in the middle of a long scan (a write
   * that is rolled back calls it too: one needless miss, never a stale answer). `keys`: the
   * sessions whose per-session totals the write may have changed (a transcript's key, and its old
   * key when the transcript moved to another).
   */
  onWrite?: (keys: readonly string[]) => void;
  /**
   * The source's transcripts that failed to read (kept across scans by its owner): one failing
   * often enough is skipped until it changes, instead of failing every pass (unreadable-files.ts).
   */
  unreadable?: UnreadableFiles;
  /**
   * How far a full pass got: transcripts caught up (read to the end, unchanged, or skipped as
   * unreadable) of those listed. Called after the listing and after each group, never inside a
   * transaction; the CLI's first read draws its progress bar from it.
   */
  onProgress?: (p: ScanProgress) => void;
  /**
   * The work between two turns of the event loop: a group closes once this much time has passed
   * since it began (checked after each batch). `now` is a monotonic clock in ms (default
   * performance.now; tests inject one). Default SLICE_MS.
   */
  slice?: { ms?: number; now?: () => number };
}

export interface ScanProgress {
  caughtUp: number;
  listed: number;
}

export interface ScanResult {
  transcripts: number;
  /** Transcripts fully read after this call. */
  caughtUp: number;
  events: number;
  usageRows: number;
  warnings: SourceWarning[];
  /** Reads that failed and will be tried again next pass. */
  errors: SourceError[];
  /** Reads that failed once too often: the file is skipped until it changes (ScanOptions.unreadable). */
  skipped: Array<{ ref: TranscriptRef; error: SourceError; warn: boolean }>;
  /** Failed reads (in `errors`) worth a warning now: at most one per file per while. */
  warnErrors: SourceError[];
  /** Everything listed was read to the end. */
  done: boolean;
  /**
   * Session keys whose stored facts may have changed: new events, a transcript read again from the
   * start, or a transcript new to the store (its session lists one more file).
   */
  sessions: Set<string>;
}

interface TotalsRow {
  session_key: string | null;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  reasoning: number;
  cost_usd: number;
  unpriced: number;
  user_messages: number;
  assistant_messages: number;
  tool_calls: number;
  tool_errors: number;
  errors: number;
  first_activity: number | null;
  last_activity: number | null;
  first_event: number | null;
}

/** A transcript's lifetime sums for one model (transcript_models), as one batch leaves them. */
interface ModelSums {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  costUsd: number;
  unpriced: number;
  messages: number;
}

/** What one batch says about its session, merged before one write. */
interface SessionFacts {
  patch: SessionPatch;
  hasGitBranch: boolean;
  /** 1 after an error incident, 0 after a good response, null when neither happened. */
  failed: 0 | 1 | null;
}

/** The log level an incident is stored at (log_events.level, as the gateway log's are). */
const LEVEL = { error: "error", warning: "warn", info: "info" } as const;

/**
 * A whole turn of the event loop, timers and I/O: two hops through setImmediate. One hop from a
 * timer callback (the collector's poll) ran the next group in the same turn, before any timer.
 */
export const yieldToLoop = async (): Promise<void> => {
  for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** Meta key (per source) set once the transcripts summed before `first_event` existed have it (migration 6). */
export const FIRST_EVENT_BACKFILL = "first_event_backfilled:";

/**
 * May a scan of `sourceId` read only some transcripts (ScanScope.only)? Not before the one-time
 * first-event backfill is done: it needs every listed transcript, and a batch folded into a row
 * it has not reached yet would take that batch's first event as the transcript's.
 */
export function mayScanOnly(store: Store, sourceId: string): boolean {
  return store.getMeta(FIRST_EVENT_BACKFILL + sourceId) !== undefined;
}

/** Thrown inside a re-read's savepoint to roll it back (TranscriptScanner.reread). */
class RereadAbandoned extends Error {}

/** A commit group closes at this many events or after SLICE_MS, whichever comes first. */
const GROUP_EVENTS = 1000;
/**
 * Beside a CPU-bound process on 2 cores the scheduler stretches a slice of our work several times
 * over (waiting for a core between its time slices): at 25 ms the loop stalled 200-400 ms, each
 * stall holding 11-38 ms of our own CPU. A shorter slice is preempted less often.
 */
export const SLICE_MS = 10;

export class TranscriptScanner {
  private readonly stmts;
  private readonly rateLimitWriter: RateLimitWriter;

  constructor(
    private readonly store: Store,
    private readonly options: ScanOptions,
  ) {
    const db = store.db;
    this.rateLimitWriter = new RateLimitWriter(db);
    this.stmts = {
      cursor: db.prepare<[string, string], { cursor_json: string; change_token: string | null }>("SELECT cursor_json, change_token FROM scan_cursors WHERE source = ? AND item = ?"),
      // Every transcript's change token in one read: a point query per transcript cost ~5 µs each,
      // every pass, for every transcript of the install (10,000 files: 50 ms of each poll).
      tokens: db.prepare<[string], { item: string; change_token: string | null }>("SELECT item, change_token FROM scan_cursors WHERE source = ?"),
      saveCursor: db.prepare(
        `INSERT INTO scan_cursors (source, item, cursor_json, change_token, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (source, item) DO UPDATE SET cursor_json = excluded.cursor_json, change_token = excluded.change_token, updated_at = excluded.updated_at`,
      ),
      totals: db.prepare<[string, string], TotalsRow>("SELECT * FROM transcript_totals WHERE source_id = ? AND session_id = ?"),
      saveTotals: db.prepare(
        `INSERT INTO transcript_totals (source_id, session_id, session_key, input, output, cache_read, cache_write, reasoning, cost_usd, unpriced,
           user_messages, assistant_messages, tool_calls, tool_errors, errors, first_activity, last_activity, first_event)
         VALUES (@source, @session, @key, @input, @output, @cacheRead, @cacheWrite, @reasoning, @costUsd, @unpriced,
           @userMessages, @assistantMessages, @toolCalls, @toolErrors, @errors, @firstActivity, @lastActivity, @firstEvent)
         ON CONFLICT (source_id, session_id) DO UPDATE SET session_key = excluded.session_key, input = excluded.input, output = excluded.output,
           cache_read = excluded.cache_read, cache_write = excluded.cache_write, reasoning = excluded.reasoning, cost_usd = excluded.cost_usd,
           unpriced = excluded.unpriced, user_messages = excluded.user_messages, assistant_messages = excluded.assistant_messages,
           tool_calls = excluded.tool_calls, tool_errors = excluded.tool_errors, errors = excluded.errors,
           first_activity = excluded.first_activity, last_activity = excluded.last_activity, first_event = excluded.first_event`,
      ),
      forget: db.prepare("DELETE FROM transcript_totals WHERE source_id = ? AND session_id = ?"),
      forgetUsage: db.prepare("DELETE FROM token_usage WHERE source_id = ? AND session_id = ?"),
      forgetModels: db.prepare("DELETE FROM transcript_models WHERE source_id = ? AND session_id = ?"),
      forgetKeys: db.prepare("DELETE FROM response_keys WHERE source_id = ? AND session_id = ?"),
      forgetIncidents: db.prepare("DELETE FROM log_events WHERE source_id = ? AND session_key = ? AND provider = ?"),
      incidentCounts: db.prepare<[string, string, string], { type: string; n: number }>(
        "SELECT type, count(*) AS n FROM log_events WHERE source_id = ? AND session_key = ? AND provider = ? AND type IS NOT NULL GROUP BY type",
      ),
      uncount: db.prepare("UPDATE event_totals SET count = max(0, count - ?) WHERE provider = ? AND type = ?"),
      claimKey: db.prepare("INSERT OR IGNORE INTO response_keys (source_id, response_key, session_id) VALUES (?, ?, ?)"),
      model: db.prepare<[string, string, string, string], ModelSums>(
        `SELECT input, output, cache_read AS cacheRead, cache_write AS cacheWrite, reasoning, cost_usd AS costUsd, unpriced, messages
         FROM transcript_models WHERE source_id = ? AND session_id = ? AND model = ? AND provider = ?`,
      ),
      saveModel: db.prepare(
        `INSERT INTO transcript_models (source_id, session_id, model, provider, input, output, cache_read, cache_write, reasoning, cost_usd, unpriced, messages)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (source_id, session_id, model, provider) DO UPDATE SET input = excluded.input, output = excluded.output,
           cache_read = excluded.cache_read, cache_write = excluded.cache_write, reasoning = excluded.reasoning,
           cost_usd = excluded.cost_usd, unpriced = excluded.unpriced, messages = excluded.messages`,
      ),
      usage: db.prepare(
        `INSERT INTO token_usage (ts, role, source_id, session_id, session_key, model, provider, input, output, cache_read, cache_write, reasoning, cost_usd, unpriced)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      incident: db.prepare(
        "INSERT INTO log_events (ts, level, type, module, message, agent_id, session_key, source_id, provider) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?)",
      ),
      countIncident: db.prepare("INSERT INTO event_totals (provider, type, count) VALUES (?, ?, 1) ON CONFLICT (provider, type) DO UPDATE SET count = count + 1"),
      session: db.prepare(
        `INSERT INTO session_meta (source_id, session_key, parent_key, title, first_prompt, project, git_branch, model, cli_version, origin,
           context_tokens, context_window, thinking_level, started_at, last_activity, failed)
         VALUES (@source, @key, @parent, @title, @firstPrompt, @project, @gitBranch, @model, @cliVersion, @origin,
           @contextTokens, @contextWindow, @thinkingLevel, @startedAt, @lastActivity, coalesce(@failed, 0))
         ON CONFLICT (source_id, session_key) DO UPDATE SET
           parent_key = coalesce(excluded.parent_key, parent_key),
           title = coalesce(excluded.title, title),
           first_prompt = coalesce(first_prompt, excluded.first_prompt),
           project = coalesce(excluded.project, project),
           git_branch = CASE WHEN @hasGitBranch THEN excluded.git_branch ELSE git_branch END,
           model = coalesce(excluded.model, model),
           cli_version = coalesce(excluded.cli_version, cli_version),
           origin = coalesce(origin, excluded.origin),
           context_tokens = coalesce(excluded.context_tokens, context_tokens),
           context_window = coalesce(excluded.context_window, context_window),
           thinking_level = coalesce(excluded.thinking_level, thinking_level),
           started_at = CASE WHEN started_at IS NULL OR excluded.started_at < started_at THEN excluded.started_at ELSE started_at END,
           last_activity = CASE WHEN last_activity IS NULL OR excluded.last_activity > last_activity THEN excluded.last_activity ELSE last_activity END,
           failed = coalesce(@failed, failed)`,
      ),
    };
  }


  /** One pass over one source's transcripts. Never throws for bad data: it is in `warnings` / `errors`. */
  async scan(target: ScanTarget, scope: ScanScope = {}): Promise<ScanResult> {
    const result: ScanResult = { transcripts: 0, caughtUp: 0, events: 0, usageRows: 0, warnings: [], errors: [], skipped: [], warnErrors: [], done: true, sessions: new Set() };
    const only = scope.only && mayScanOnly(this.store, target.id) ? scope.only : null;
    let refs: readonly TranscriptRef[];
    const tokens = new Map<string, string | null>();
    if (only) {
      refs = only;
      result.transcripts = only.length;
      // A point query each: reading every token of the source is what a partial pass saves.
      for (const r of only) {
        const row = this.stmts.cursor.get(target.id, r.id);
        if (row) tokens.set(r.id, row.change_token);
      }
    } else {
      // Paced when the reader can: a stat per file, 20,000 files, was 200 ms of the loop at once.
      const listed = target.reader.listTranscriptsPaced ? await target.reader.listTranscriptsPaced(yieldToLoop) : target.reader.listTranscripts();
      result.warnings.push(...listed.warnings);
      if (!listed.ok) {
        result.errors.push(listed.error);
        result.done = false;
        return result;
      }
      refs = listed.value;
      result.transcripts = listed.value.length;
      const unreadable = this.options.unreadable;
      if (unreadable?.size) unreadable.retain(new Set(refs.map((r) => r.id)));
      // Before any new batch: a batch folded into a row without its first event would take its own.
      await this.backfillFirstEvents(target, listed.value, result);
      for (const r of this.stmts.tokens.all(target.id)) tokens.set(r.item, r.change_token);
      this.options.onProgress?.({ caughtUp: 0, listed: refs.length });
      // A turn of the loop between the listing's last stretch and the first group.
      await yieldToLoop();
    }
    let batchesLeft = this.options.maxBatches ?? Infinity;
    const limit = this.options.batchEvents ?? 1000;
    let next = 0;
    /** The next transcript with something new, and where to read it from; null when none is left. */
    const nextToRead = (): { ref: TranscriptRef; cursor: unknown } | null => {
      while (next < refs.length) {
        const ref = refs[next++] as TranscriptRef;
        const token = tokens.get(ref.id);
        if ((token !== undefined && token === ref.changeToken) || this.options.unreadable?.isSkipped(ref)) {
          result.caughtUp++;
          continue;
        }
        const stored = token === undefined ? undefined : this.stmts.cursor.get(target.id, ref.id);
        return { ref, cursor: stored ? (JSON.parse(stored.cursor_json) as unknown) : null };
      }
      return null;
    };
    let reading = nextToRead();
    let outOfBatches = false;
    const now = this.options.slice?.now ?? (() => performance.now());
    const sliceMs = this.options.slice?.ms ?? SLICE_MS;
    // Groups: transcripts share one transaction until GROUP_EVENTS events or the slice's time (a
    // transaction, an fsync, per transcript made a first scan commit-bound), then the loop yields.
    // Each batch is written as soon as it is read, inside the group's transaction, rather than
    // kept until the group ends: held that long, its events outlived the young generation and
    // filled the old one (a first scan's heap peaked at 130 MB instead of 50).
    while (reading && !outOfBatches) {
      this.store.transaction(() => {
        const started = now();
        let events = 0;
        while (reading) {
          if (batchesLeft <= 0) {
            result.done = false;
            outOfBatches = true;
            return;
          }
          batchesLeft--;
          const read = target.reader.readTranscript(reading.ref, reading.cursor, limit);
          result.warnings.push(...read.warnings);
          if (!read.ok) {
            this.failedRead(reading.ref, read.error, result);
            reading = nextToRead();
          } else if (read.value.restarted && !read.value.done) {
            this.options.unreadable?.succeeded(reading.ref);
            events += this.reread(target, reading.ref, read.value, limit, result, () => batchesLeft--);
            reading = nextToRead();
          } else {
            const batch = read.value;
            this.options.unreadable?.succeeded(reading.ref);
            this.commit(target, reading.ref, batch, result);
            events += batch.events.length + 1;
            reading.cursor = batch.cursor;
            if (batch.done) {
              result.caughtUp++;
              reading = nextToRead();
            }
          }
          if (events >= GROUP_EVENTS || now() - started >= sliceMs) return;
        }
        // Sums and cursors together: a commit a power loss undoes is read again (store.ts).
      }, { rederivable: true });
      if (!only) this.options.onProgress?.({ caughtUp: result.caughtUp, listed: refs.length });
      // Bounded work between yields, off the request path: HTTP and the control socket breathe.
      await yieldToLoop();
    }
    // Unchanged transcripts after the last group are counted only once nextToRead passed them.
    if (!only) this.options.onProgress?.({ caughtUp: result.caughtUp, listed: refs.length });
    return result;
  }

  /**
   * A transcript read again from its start (truncated or replaced) forgets what was summed for it
   * and sums it anew: all of that commits at once (a savepoint inside the group's transaction), or
   * a reader in between (a Prometheus scrape) would see lifetime counters go down and count a
   * reset. It is read to its end whatever the group's limits and the batch budget. A read that
   * fails half-way rolls the whole re-read back: the old figures stand, and the next pass (its
   * cursor unchanged) starts the re-read again. Returns the events written (0 when rolled back).
   */
  private reread(target: ScanTarget, ref: TranscriptRef, first: ActivityBatch, limit: number, result: ScanResult, spend: () => void): number {
    const before = { events: result.events, usageRows: result.usageRows };
    let written = 0;
    try {
      // Nested in the group's transaction: better-sqlite3 makes it a savepoint.
      this.store.db.transaction(() => {
        let batch = first;
        for (;;) {
          this.commit(target, ref, batch, result);
          written += batch.events.length + 1;
          if (batch.done) break;
          spend();
          const read = target.reader.readTranscript(ref, batch.cursor, limit);
          result.warnings.push(...read.warnings);
          if (!read.ok) {
            this.failedRead(ref, read.error, result);
            throw new RereadAbandoned();
          }
          batch = read.value;
        }
      })();
    } catch (err) {
      if (!(err instanceof RereadAbandoned)) throw err;
      result.events = before.events;
      result.usageRows = before.usageRows;
      return 0;
    }
    result.caughtUp++;
    return written;
  }

  /**
   * Transcripts summed by a version before `first_event` existed (store migration 6): reads the
   * first event of each once, so lifetimeStats.createdAt covers them too. Transcripts no longer
   * listed keep NULL (the query falls back to their first message).
   */
  private async backfillFirstEvents(target: ScanTarget, refs: readonly TranscriptRef[], result: ScanResult): Promise<void> {
    const key = FIRST_EVENT_BACKFILL + target.id;
    if (this.store.getMeta(key) !== undefined) return;
    const db = this.store.db;
    const rows = db
      .prepare("SELECT session_id AS sessionId, session_key AS sessionKey, first_activity AS firstActivity FROM transcript_totals WHERE source_id = ? AND first_event IS NULL")
      .all(target.id) as Array<{ sessionId: string; sessionKey: string | null; firstActivity: number | null }>;
    const byId = new Map(refs.map((r) => [r.id, r]));
    const set = db.prepare("UPDATE transcript_totals SET first_event = ? WHERE source_id = ? AND session_id = ? AND first_event IS NULL");
    let complete = true;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as (typeof rows)[number];
      const ref = byId.get(row.sessionId);
      if (!ref || this.options.unreadable?.isSkipped(ref)) continue;
      // Its warnings were counted when the transcript was first read; only the timestamp matters here.
      const read = target.reader.readTranscript(ref, null, 1);
      if (!read.ok) {
        // A file skipped as unreadable keeps NULL (the query falls back to its first message).
        if (!this.failedRead(ref, read.error, result)) complete = false;
        continue;
      }
      const ts = read.value.events[0]?.ts ?? null;
      const first = ts === null ? row.firstActivity : row.firstActivity === null ? ts : Math.min(ts, row.firstActivity);
      if (first !== null && set.run(first, target.id, row.sessionId).changes > 0) this.options.onWrite?.(row.sessionKey === null ? [] : [row.sessionKey]);
      if (i % 200 === 199) await yieldToLoop();
    }
    if (complete) this.store.setMeta(key, String(this.options.clock.now()));
  }

  /**
   * A failed read: counted against the file (ScanOptions.unreadable). Until it is skipped it is an
   * error and the pass is not done (the next one tries again); once skipped it holds nothing back.
   * True when it is skipped now.
   */
  private failedRead(ref: TranscriptRef, error: SourceError, result: ScanResult): boolean {
    const unreadable = this.options.unreadable;
    if (!unreadable) {
      result.errors.push(error);
      result.warnErrors.push(error);
      result.done = false;
      return false;
    }
    const f = unreadable.failed(ref, error, this.options.clock.now());
    if (f.skipped) {
      result.skipped.push({ ref, error, warn: f.warn });
      return true;
    }
    result.errors.push(error);
    if (f.warn) result.warnErrors.push(error);
    result.done = false;
    return false;
  }

  /** Adds one batch to its transcript's figures and moves its cursor; run inside a transaction. */
  private commit(target: ScanTarget, ref: TranscriptRef, batch: ActivityBatch, result: ScanResult): void {
    const s = this.stmts;
    const source = target.id;
    const now = this.options.clock.now();
    const stored = s.totals.get(source, ref.id);
    if (batch.restarted) this.forget(target, ref);
    const row = batch.restarted ? undefined : stored;
    const totals = row ? fromRow(row) : emptyTotals();
    const facts: SessionFacts = { patch: {}, hasGitBranch: false, failed: null };
    // Per model, one write per batch instead of an upsert per response (see addToModel).
    const models = new Map<string, { model: string; vendor: string; sums: ModelSums }>();
    const key = ref.sessionKey;
    // A line without a time of its own (contract: ts null) is dated at the line before it, so its
    // usage lands on the day it happened rather than on the day it was read; with nothing before
    // it in the transcript, at the transcript's latest activity, else now.
    let last = totals.lastActivity;
    for (const event of batch.events) {
      touch(totals, event);
      if (event.ts !== null) last = event.ts;
      const at = event.ts ?? last ?? now;
      switch (event.kind) {
        case "meta":
          mergePatch(facts, event.patch);
          break;
        case "prompt":
          totals.userMessages++;
          s.usage.run(at, "user", source, ref.id, key, "", "", 0, 0, 0, 0, 0, 0, 0);
          result.usageRows++;
          break;
        case "response":
          this.response(target, ref, event, totals, facts, models, result, at);
          break;
        case "toolResult":
          if (event.isError) totals.toolErrors++;
          break;
        case "incident":
          if (event.type === "error") {
            totals.errors++;
            facts.failed = 1;
          }
          s.incident.run(at, LEVEL[event.type], event.type === "info" ? null : event.type, `${target.provider}/${event.code}`, event.message, key, source, target.provider);
          if (event.type !== "info") s.countIncident.run(target.provider, event.type);
          break;
        case "rateLimits":
          this.rateLimits(source, at, event.snapshot, now, ref.id, result);
          break;
      }
    }
    result.events += batch.events.length;
    // A restart with no events left (a transcript truncated to nothing) still forgot its figures;
    // a transcript now under another key moves its figures from the old key's totals.
    const oldKey = stored?.session_key ?? null;
    if (batch.events.length || batch.restarted || row === undefined || oldKey !== key) {
      this.options.onWrite?.([...new Set([key, oldKey].filter((k): k is string => k !== null))]);
    }
    if (key && (batch.events.length || batch.restarted || row === undefined)) result.sessions.add(key);
    for (const m of models.values()) {
      const x = m.sums;
      s.saveModel.run(source, ref.id, m.model, m.vendor, x.input, x.output, x.cacheRead, x.cacheWrite, x.reasoning, x.costUsd, x.unpriced, x.messages);
    }
    s.saveTotals.run({ source, session: ref.id, key, ...totals });
    if (key && (batch.events.length || batch.restarted)) this.saveSession(source, key, ref.parentKey, facts, totals);
    s.saveCursor.run(source, ref.id, JSON.stringify(batch.cursor), batch.done ? ref.changeToken : null, now);
  }

  /** `at`: the response's time, or the estimate for a line without one (see commit). */
  private response(
    target: ScanTarget,
    ref: TranscriptRef,
    e: ResponseEvent,
    totals: TranscriptTotals,
    facts: SessionFacts,
    models: Map<string, { model: string; vendor: string; sums: ModelSums }>,
    result: ScanResult,
    at: number,
  ): void {
    totals.toolCalls += e.toolCalls;
    // Another line (or file) of a response already counted: only its tool calls are new.
    if (e.key !== null && this.stmts.claimKey.run(target.id, e.key, ref.id).changes === 0) return;
    totals.assistantMessages++;
    if (e.error !== null) totals.errors++;
    else facts.failed = 0;
    if (e.model) facts.patch.model = e.model;
    const u = e.usage;
    // Priced at the rate in force when it was made (the estimate too), never at the reading's time.
    const cost = u ? (e.costUsd ?? target.price(e.ts === null ? { ...e, ts: at } : e)) : (e.costUsd ?? 0);
    const unpriced = cost === null ? 1 : 0;
    if (u) {
      totals.input += u.input;
      totals.output += u.output;
      totals.cacheRead += u.cacheRead;
      totals.cacheWrite += u.cacheWrite;
      totals.reasoning += u.reasoning;
    }
    totals.costUsd += cost ?? 0;
    totals.unpriced += unpriced;
    const model = e.model ?? "";
    const vendor = e.modelProvider ?? "";
    this.stmts.usage.run(at, "assistant", target.id, ref.id, ref.sessionKey, model, vendor, u?.input ?? 0, u?.output ?? 0, u?.cacheRead ?? 0, u?.cacheWrite ?? 0, u?.reasoning ?? 0, cost ?? 0, unpriced);
    const slot = `${model}\u0000${vendor}`;
    let m = models.get(slot);
    if (!m) {
      // Starts from the stored sums, so each response is added to them in the order an upsert per
      // response added it: the same floating-point sums to the last bit.
      m = { model, vendor, sums: this.stmts.model.get(target.id, ref.id, model, vendor) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, costUsd: 0, unpriced: 0, messages: 0 } };
      models.set(slot, m);
    }
    const x = m.sums;
    x.input += u?.input ?? 0;
    x.output += u?.output ?? 0;
    x.cacheRead += u?.cacheRead ?? 0;
    x.cacheWrite += u?.cacheWrite ?? 0;
    x.reasoning += u?.reasoning ?? 0;
    x.costUsd += cost ?? 0;
    x.unpriced += unpriced;
    x.messages++;
    result.usageRows++;
  }

  /** The transcript was truncated or replaced: what was summed for it no longer exists. */
  private forget(target: ScanTarget, ref: TranscriptRef): void {
    const s = this.stmts;
    s.forget.run(target.id, ref.id);
    s.forgetUsage.run(target.id, ref.id);
    s.forgetModels.run(target.id, ref.id);
    s.forgetKeys.run(target.id, ref.id);
    if (ref.sessionKey) {
      for (const c of s.incidentCounts.all(target.id, ref.sessionKey, target.provider)) s.uncount.run(c.n, target.provider, c.type);
      s.forgetIncidents.run(target.id, ref.sessionKey, target.provider);
    }
  }

  private saveSession(source: string, key: string, parentKey: string | null, facts: SessionFacts, totals: TranscriptTotals): void {
    const p = facts.patch;
    this.stmts.session.run({
      source,
      key,
      parent: parentKey,
      title: p.title ?? null,
      firstPrompt: p.firstPrompt ?? null,
      project: p.project ?? null,
      gitBranch: p.gitBranch ?? null,
      hasGitBranch: facts.hasGitBranch ? 1 : 0,
      model: p.model ?? null,
      cliVersion: p.cliVersion ?? null,
      origin: p.origin ?? null,
      contextTokens: p.contextTokens ?? null,
      contextWindow: p.contextWindow ?? null,
      thinkingLevel: p.thinkingLevel ?? null,
      startedAt: totals.firstActivity,
      lastActivity: totals.lastActivity,
      failed: facts.failed,
    });
  }

  private rateLimits(source: string, ts: number, snap: RateLimitSnapshot, now: number, where: string, result: ScanResult): void {
    // Refused readings are warned about (the caller logs a few per pass) and never stored.
    const { refused } = this.rateLimitWriter.record(source, ts, snap, now);
    if (refused !== null) result.warnings.push({ code: "BAD_FIELD", message: `impossible rate-limit reading refused: ${refused}`, where });
  }
}

/** Later facts win, except the first prompt; a git branch may be set to null (not a repository). */
function mergePatch(facts: SessionFacts, patch: SessionPatch): void {
  const { firstPrompt, gitBranch, ...rest } = patch;
  if (firstPrompt !== undefined && facts.patch.firstPrompt === undefined) facts.patch.firstPrompt = firstPrompt;
  if (gitBranch !== undefined) {
    facts.patch.gitBranch = gitBranch;
    facts.hasGitBranch = true;
  }
  Object.assign(facts.patch, rest);
}

function fromRow(r: TotalsRow): TranscriptTotals {
  return {
    input: r.input,
    output: r.output,
    cacheRead: r.cache_read,
    cacheWrite: r.cache_write,
    reasoning: r.reasoning,
    costUsd: r.cost_usd,
    unpriced: r.unpriced,
    userMessages: r.user_messages,
    assistantMessages: r.assistant_messages,
    toolCalls: r.tool_calls,
    toolErrors: r.tool_errors,
    errors: r.errors,
    firstActivity: r.first_activity,
    lastActivity: r.last_activity,
    firstEvent: r.first_event,
  };
}
