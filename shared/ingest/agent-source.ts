// One AGENT source (design §3, §9): one install of a provider (an OpenClaw agent, a Claude Code
// or Codex config dir). Each refresh lists its sessions, scans new transcript events into the
// store and moves the SourceStatus machine. The reader is reopened when the install's backing
// store is replaced, and dropped when it disappears (DISCONNECTED) or breaks (ERROR). Nothing
// here knows a provider's format: the provider adapter does (shared/providers/<provider>/).
import type { Clock } from "../base/clock.js";
import type { Logger } from "../base/log/logger.js";
import type { Install, LiveSession, Provider, ProviderName, SessionRecord, SourceReader, TranscriptRef, WatchTarget } from "../providers/contract.js";
import { ProcessTreeSampler } from "../base/proc-stats.js";
import { SourceError } from "../providers/result.js";
import type { Store } from "../store/store.js";
import type { ChangeHint, DetectionState } from "./change-watch.js";
import { StatusMachine, type StatusState } from "./source-status.js";
import { StoredSessionIndex } from "./stored-sessions.js";
import { mayScanOnly, TranscriptScanner, yieldToLoop, type ScanProgress, type ScanResult } from "./transcript-scanner.js";
import { UnreadableFiles, type SkippedFile } from "./unreadable-files.js";
import { WriteLog } from "./write-log.js";

export interface AgentSnapshot {
  /** `agent:<agentId>`, `claude-code:<name>`, `codex:<name>`. */
  id: string;
  provider: ProviderName;
  /** The id within its provider (OpenClaw's agent id, an install name). */
  agentId: string;
  name: string;
  tags: readonly string[];
  dir: string;
  state: StatusState;
  sessions: readonly SessionRecord[];
  /** The provider's processes running now, with their CPU and memory. */
  live: readonly LiveProcess[];
  appVersion: string | null;
  /** The first full transcript scan of this process has ended. */
  firstPassDone: boolean;
  /** Transcripts on disk at the last scan. */
  transcripts: number;
  /** Bad lines, rows or fields skipped and counted since start. */
  warnings: number;
  /** Transcripts skipped because they could not be read (until they change); health names them. */
  skippedFiles?: readonly SkippedFile[];
  /** How changes are noticed (watched, or polled only and why); absent when nothing watches (no daemon). */
  detection?: DetectionState;
}

/** A provider's own log is kept from INFO up, as the gateway's is. */
const STORED_LOG_LEVELS = new Set(["INFO", "WARN", "ERROR", "FATAL"]);
const LOG_BATCHES_PER_PASS = 5;
const NOTHING_CHANGED: ReadonlySet<string> = new Set();

interface LiveProcess extends LiveSession {
  /** CPU of the process tree, percent of one core; null until two samples 500 ms apart exist. */
  cpuPercent: number | null;
  memoryMB: number | null;
}

export interface AgentSourceDeps {
  provider: Provider;
  store: Store;
  clock: Clock;
  logger: Logger;
  batchEvents?: number;
  maxBatches?: number;
  /** How far each full pass over this source's transcripts got (TranscriptScanner's onProgress). */
  scanProgress?: (sourceId: string, p: ScanProgress) => void;
}

/** The fields whose change is announced: key, times, status, number of windows, in the same order. */
function sameListing(a: readonly SessionRecord[], b: readonly SessionRecord[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as SessionRecord;
    const y = b[i] as SessionRecord;
    if (x === y) continue;
    if (x.key !== y.key || x.updatedAt !== y.updatedAt || x.lastActivityAt !== y.lastActivityAt || x.status !== y.status || x.sessionIds.length !== y.sessionIds.length) return false;
  }
  return true;
}

export class AgentSource {
  private reader: SourceReader | null = null;
  private identity: string | null = null;
  private readonly status: StatusMachine;
  private sessions: readonly SessionRecord[] = [];
  private live: readonly LiveProcess[] = [];
  /** One sampler per live pid: CPU % needs the previous sample of the same process. */
  private readonly samplers = new Map<number, ProcessTreeSampler>();
  /** The reader's change stamp at the last complete pass; "" forces the next one. */
  private stamp = "";
  /** The reader's caches were handed back since the last full pass (releaseMemory). */
  private released = false;
  /** ...and at rest too (releaseAtRest) since the last scan. */
  private releasedAtRest = false;
  /** When a refresh last found something new. */
  private lastChangeAt = 0;
  /** Passes under way (refresh, refreshLive): their reader's caches are in use. */
  private running = 0;
  /** The last pass stopped early (batch budget) or hit an unreadable transcript: go on next time. */
  private rescan = false;
  private appVersion: string | null = null;
  private firstPassDone = false;
  private transcripts = 0;
  private warnings = 0;
  /** Writes of this source's rows so far, and the sessions the latest touched (see `writes`). */
  private readonly writeLog = new WriteLog();
  /** Sessions from our store, for providers without a session index of their own; made on first use. */
  private stored: StoredSessionIndex | null = null;
  /** Transcripts whose reads keep failing: retried a few times, then skipped until they change. */
  private readonly unreadable = new UnreadableFiles();
  /** Set by the collector's change watcher. */
  detection: DetectionState | null = null;

  constructor(
    private install: Install,
    private readonly deps: AgentSourceDeps,
  ) {
    this.status = new StatusMachine(deps.clock.now(), (next, prev) =>
      deps.logger[next.status === "CONNECTED" || next.status === "INITIALIZING" ? "info" : "warn"]("source status changed", {
        source: this.id,
        from: prev.status,
        to: next.status,
        ...(next.lastError ? { error: next.lastError } : {}),
      }),
    );
  }

  get id(): string {
    return this.install.id;
  }

  get provider(): ProviderName {
    return this.install.provider;
  }

  updateInstall(install: Install): void {
    this.install = install;
  }

  snapshot(): AgentSnapshot {
    const i = this.install;
    return {
      id: i.id,
      provider: i.provider,
      agentId: i.localId,
      name: i.name,
      tags: i.tags,
      dir: i.dir,
      state: this.status.current,
      sessions: this.sessions,
      live: this.live,
      appVersion: this.appVersion,
      firstPassDone: this.firstPassDone,
      transcripts: this.transcripts,
      warnings: this.warnings,
      skippedFiles: this.unreadable.skipped(),
      ...(this.detection ? { detection: this.detection } : {}),
    };
  }

  /** Where the provider says this install's data changes (none when it does not say). */
  watchTargets(): WatchTarget[] {
    return this.deps.provider.watchTargets?.(this.install) ?? [];
  }

  /**
   * Caught up: the first scan is done, the last pass read everything (no batch budget or
   * unreadable transcript left for next time) and the source is CONNECTED. Only such a source may
   * sit out a poll pass while its files are watched.
   */
  get settled(): boolean {
    return this.firstPassDone && !this.rescan && this.status.current.status === "CONNECTED";
  }

  /** The open reader, for transcript reads on request; null while disconnected. */
  openReader(): SourceReader | null {
    return this.reader;
  }

  /**
   * How many times this source's rows were written (a scan's transcript figures, the provider's
   * log). Goes up inside the write's transaction, before any reader can see the rows: the read
   * model keeps an answer only while this count is the one it was made at, so an answer is never
   * older than the store, even in the middle of a long scan, before the change is announced.
   */
  get writes(): number {
    return this.writeLog.writes;
  }

  /**
   * The sessions whose totals the writes after `writes` (a count read earlier) may have changed,
   * or null when not known (too far back, or a write that did not say): then all may have.
   */
  keysWrittenSince(writes: number): ReadonlySet<string> | null {
    return this.writeLog.keysSince(writes);
  }

  /** Marks the source gone (its install vanished). */
  gone(error: SourceError): boolean {
    this.close();
    const before = this.status.current;
    this.status.failed(error, this.deps.clock.now());
    return before !== this.status.current;
  }

  /**
   * One refresh; true when anything a reader could see changed. Never throws. With a hint (the
   * files a watch event named), a settled source reads just those when its reader can tell which
   * transcripts they are (SourceReader.transcriptsAt); otherwise, and always without a hint, it
   * makes a full pass.
   */
  async refresh(hint: ChangeHint | null = null): Promise<boolean> {
    const writesBefore = this.writeLog.writes;
    this.running++;
    // A write counts even when nothing else moved (a transcript truncated to nothing and read
    // again: its figures are gone, with no event and no change in the session index) or when the
    // pass failed after writing.
    const changed = (await this.pass(hint).finally(() => this.running--)) || this.writeLog.writes !== writesBefore;
    if (changed) this.lastChangeAt = this.deps.clock.now();
    return changed;
  }

  /**
   * Who runs, between the full passes a watched source sits out: a process's end writes nothing a
   * watch would see (a Codex writer's exit only releases its lock; a crashed Claude Code leaves its
   * record), so every poll pass still looks, as every pass did before watching. Also refreshes the
   * live processes' CPU and memory figures. True when who runs changed. Never throws.
   */
  async refreshLive(): Promise<boolean> {
    const reader = this.reader;
    if (!reader) return false;
    const before = this.status.current;
    this.running++;
    try {
      if (!this.readLive(reader)) return false;
      await this.loadSessions(reader, NOTHING_CHANGED);
      return true;
    } catch (err) {
      return this.fail(new SourceError("corrupt", err instanceof Error ? err.message : String(err), {}, { cause: err }), before);
    } finally {
      this.running--;
    }
  }

  private async pass(hint: ChangeHint | null): Promise<boolean> {
    const { clock, provider } = this.deps;
    const before = this.status.current;
    try {
      const identity = provider.identity(this.install);
      if (identity === null) return this.gone(new SourceError("missing", `${this.install.dir}: nothing to read`, { where: this.install.dir }));
      if (this.reader && identity !== this.identity) this.close(); // replaced underneath us: reopen
      // Only a source caught up (first pass done, nothing left over, CONNECTED) with its reader
      // still open may read just the named files: anything else needs the full pass.
      const mayPartial = hint !== null && this.reader !== null && this.settled;
      if (!this.reader) {
        const opened = provider.open(this.install);
        this.count(opened.warnings);
        if (!opened.ok) return this.fail(opened.error, before);
        this.reader = opened.value;
        this.identity = identity;
      }
      const reader = this.reader;
      const liveChanged = this.readLive(reader);
      if (mayPartial && hint && mayScanOnly(this.deps.store, this.id)) {
        const refs = reader.transcriptsAt?.([...hint.paths]) ?? null;
        if (refs) this.count(refs.warnings);
        if (refs?.ok) return await this.partialPass(reader, refs.value, liveChanged, before);
      }
      // Nothing written since the last full pass: skip listing and scanning (an idle install costs ~nothing).
      // Paced when the reader can: a stamp that stats every file blocks the loop for its whole sweep.
      const stamp = reader.changeStampPaced ? await reader.changeStampPaced(yieldToLoop) : reader.changeStamp();
      if (stamp.ok && stamp.value === this.stamp && !this.rescan) {
        if (liveChanged) await this.loadSessions(reader, NOTHING_CHANGED);
        // The install is at rest: the reader's caches (SQLite pages, session lists) are not worth
        // their memory until something changes; ~20 MB of a daemon on 10,000 sessions.
        if (!this.released) {
          reader.releaseMemory?.();
          this.released = true;
        }
        if (this.firstPassDone) this.status.connected(clock.now());
        return liveChanged || before !== this.status.current;
      }
      // The reader's poll found what changed (changedTranscripts): a caught-up source reads just
      // that, the rest of the install as the poll left it, so an install polled because it cannot
      // be watched costs what changed, not what exists (issue 18).
      if (this.settled && reader.changedTranscripts && stamp.ok && mayScanOnly(this.deps.store, this.id)) {
        const polled = reader.changedTranscripts();
        if (polled) {
          const changed = await this.partialPass(reader, polled.refs, liveChanged, before);
          if (this.reader !== reader) return changed; // it failed and closed the reader
          const counted = polled.total !== this.transcripts;
          this.transcripts = polled.total;
          if (!this.rescan) this.stamp = stamp.value;
          return changed || counted;
        }
      }
      this.released = false;
      this.releasedAtRest = false;
      const scan = await this.scanner().scan({ id: this.id, provider: provider.name, reader, price: (r) => provider.price(this.install, r) });
      this.count(scan.warnings);
      if (scan.errors.length && scan.transcripts === 0) return this.fail(scan.errors[0] as SourceError, before);
      this.logUnreadable(scan);
      this.ingestLogs(reader);
      const listed = await this.loadSessions(reader, scan.sessions);
      if (!listed) return this.fail(this.lastListError ?? new SourceError("corrupt", "sessions could not be listed"), before);
      const sessionsChanged = listed.changed;
      this.transcripts = scan.transcripts;
      // Taken before reading, so whatever was written meanwhile is picked up next time.
      this.stamp = stamp.ok ? stamp.value : "";
      this.rescan = !scan.done || scan.errors.length > 0;
      const version = reader.appVersion();
      if (version.ok && version.value) this.appVersion = version.value;

      if (scan.done && !this.firstPassDone) {
        const { store } = this.deps;
        // Through store.transaction, so a failed write reaches the store's health.
        store.transaction(() =>
          store.db
            .prepare(
              `INSERT INTO source_scan_state (source_id, first_pass_at, transcripts, warnings) VALUES (?, ?, ?, ?)
               ON CONFLICT (source_id) DO UPDATE SET first_pass_at = excluded.first_pass_at, transcripts = excluded.transcripts, warnings = excluded.warnings`,
            )
            .run(this.id, clock.now(), scan.transcripts, this.warnings),
        );
        this.firstPassDone = true;
        this.deps.logger.info("first transcript scan finished", { source: this.id, transcripts: scan.transcripts, warnings: this.warnings });
      }
      if (this.firstPassDone) this.status.connected(clock.now());
      return sessionsChanged || liveChanged || scan.events > 0 || before !== this.status.current;
    } catch (err) {
      // A bug or an unexpected I/O failure: the source is in ERROR, the daemon goes on.
      return this.fail(new SourceError("corrupt", err instanceof Error ? err.message : String(err), {}, { cause: err }), before);
    }
  }

  /**
   * A pass over the transcripts a watch event named only (`refs`, from transcriptsAt). Cursors,
   * change tokens and de-dup are the full pass's (the scanner is the same), so nothing is lost or
   * counted twice. It proves nothing about the rest of the install, so it leaves the change stamp
   * and `rescan` as they are: the next full pass (the poll, or the safety net of a watched source)
   * still looks at everything. The transcript count stays the last full pass's.
   */
  private async partialPass(reader: SourceReader, refs: TranscriptRef[], liveChanged: boolean, before: StatusState): Promise<boolean> {
    const { clock, provider } = this.deps;
    let events = 0;
    let sessions: ReadonlySet<string> = NOTHING_CHANGED;
    if (refs.length) {
      this.released = false;
      this.releasedAtRest = false;
      const scan = await this.scanner().scan({ id: this.id, provider: provider.name, reader, price: (r) => provider.price(this.install, r) }, { only: refs });
      this.count(scan.warnings);
      this.logUnreadable(scan);
      // Left over (batch budget) or unreadable: the next pass is a full one (a source with `rescan` is not settled).
      if (!scan.done || scan.errors.length > 0) this.rescan = true;
      events = scan.events;
      sessions = scan.sessions;
    }
    // The provider's own log (Codex) is not watched: read on as every full pass does, so its
    // entries do not wait for the next full pass (a cursor query when nothing is new).
    this.ingestLogs(reader);
    // A provider's own session index did not change with a transcript (its own file's event will
    // say when it does): listed again only when who runs changed, as an idle full pass does. The
    // sessions kept in our store are read again for the keys whose transcripts had something new.
    let sessionsChanged = false;
    if (!reader.listSessions || liveChanged) {
      const listed = await this.loadSessions(reader, sessions);
      if (!listed) return this.fail(this.lastListError ?? new SourceError("corrupt", "sessions could not be listed"), before);
      sessionsChanged = listed.changed;
    }
    this.status.connected(clock.now());
    return sessionsChanged || liveChanged || events > 0 || before !== this.status.current;
  }

  /**
   * The daemon is quiet (no request for a while: daemon/quiet-gc.ts). When this install is caught
   * up, no pass is under way and nothing changed for `minIdleMs`, its reader hands back its caches
   * and also what only makes the next change cheap to read (OpenClaw's kept rows: ~15 MB at 10,000
   * sessions); the first change after reads as a fresh reader does. A watched install may have
   * had no idle pass yet (they come every 30 s), so this does not wait for one. True when it did.
   * Never throws.
   */
  releaseAtRest(minIdleMs: number): boolean {
    const reader = this.reader;
    if (!reader?.releaseMemory || this.running > 0 || this.releasedAtRest || !this.settled) return false;
    if (this.deps.clock.now() - this.lastChangeAt < minIdleMs) return false;
    try {
      reader.releaseMemory(true);
    } catch {
      return false;
    }
    this.released = true;
    this.releasedAtRest = true;
    return true;
  }

  private scanner(): TranscriptScanner {
    const { store, clock, batchEvents, maxBatches, scanProgress } = this.deps;
    return new TranscriptScanner(store, {
      clock,
      ...(batchEvents ? { batchEvents } : {}),
      ...(maxBatches ? { maxBatches } : {}),
      ...(scanProgress ? { onProgress: (p: ScanProgress) => scanProgress(this.id, p) } : {}),
      onWrite: (keys) => this.writeLog.record(keys),
      unreadable: this.unreadable,
    });
  }

  /** Unreadable transcripts, at most one warning per file per while (UnreadableFiles), not one every poll. */
  private logUnreadable(scan: ScanResult): void {
    const { logger } = this.deps;
    for (const e of scan.warnErrors) logger.warn("transcript unreadable; will retry", { source: this.id, error: e.message });
    for (const s of scan.skipped) {
      if (s.warn) logger.warn("transcript unreadable; skipped until it changes", { source: this.id, error: s.error.message });
    }
  }

  close(): void {
    try {
      this.reader?.close();
    } catch {
      // already closed
    }
    this.reader = null;
    this.identity = null;
    this.stamp = "";
  }

  private lastListError: SourceError | null = null;

  /**
   * The provider's own session index, or what the transcripts said (kept in our store; only the
   * sessions in `changedKeys` are read again).
   */
  private async loadSessions(reader: SourceReader, changedKeys: ReadonlySet<string>): Promise<{ changed: boolean } | null> {
    let sessions: readonly SessionRecord[];
    if (reader.listSessions) {
      const listed = reader.listSessions();
      this.count(listed.warnings);
      if (!listed.ok) {
        this.lastListError = listed.error;
        return null;
      }
      sessions = listed.value;
    } else {
      const { provider } = this.deps;
      this.stored ??= new StoredSessionIndex(this.deps.store, this.id, this.install.localId, (model) => provider.contextWindow?.(model) ?? null);
      const stored = await this.stored.refresh(changedKeys, this.live);
      // Its own change flag: a signature of 10,000 sessions took ~50 ms of every refresh.
      this.sessions = stored.sessions;
      return { changed: stored.changed };
    }
    // Compared in place, not as a signature string of every session (a join over 2,376 sessions on
    // every refresh): a reader that keeps unchanged records hands back the very same objects.
    const changed = !sameListing(this.sessions, sessions);
    this.sessions = sessions;
    return { changed };
  }

  /**
   * The provider's own log (Codex), INFO and above, into the event log's table as unclassified
   * entries (recentLogs), a bounded number of batches per pass, each with its cursor.
   */
  private ingestLogs(reader: SourceReader): void {
    if (!reader.readLogs) return;
    const { store, clock } = this.deps;
    const db = store.db;
    const stored = db.prepare<[string], { cursor_json: string }>("SELECT cursor_json FROM scan_cursors WHERE source = ? AND item = 'logs'").get(this.id);
    let cursor: unknown = stored ? JSON.parse(stored.cursor_json) : null;
    const insert = db.prepare("INSERT INTO log_events (ts, level, type, module, message, agent_id, session_key, source_id, provider) VALUES (?, ?, NULL, ?, ?, NULL, ?, ?, ?)");
    const save = db.prepare(
      `INSERT INTO scan_cursors (source, item, cursor_json, change_token, updated_at) VALUES (?, 'logs', ?, NULL, ?)
       ON CONFLICT (source, item) DO UPDATE SET cursor_json = excluded.cursor_json, updated_at = excluded.updated_at`,
    );
    for (let batch = 0; batch < LOG_BATCHES_PER_PASS; batch++) {
      const read = reader.readLogs(cursor, 1000);
      this.count(read.warnings);
      if (!read.ok) {
        if (read.error.kind !== "missing") this.deps.logger.debug("provider log unreadable", { source: this.id, error: read.error.message });
        return;
      }
      const { entries, cursor: next, done } = read.value;
      store.transaction(() => {
        for (const e of entries) {
          if (!STORED_LOG_LEVELS.has(e.level.toUpperCase())) continue;
          insert.run(e.ts, e.level.toLowerCase(), e.module, e.message, e.sessionKey, this.id, this.provider);
          this.writeLog.record([]); // log lines: no session's totals
        }
        save.run(this.id, JSON.stringify(next), clock.now());
      });
      cursor = next;
      if (done) return;
    }
  }

  private readLive(reader: SourceReader): boolean {
    const live = reader.liveSessions();
    this.count(live.warnings);
    const found = live.ok ? live.value : [];
    const pids = new Set<number>();
    const next = found.map((l): LiveProcess => {
      if (l.pid === null) return { ...l, cpuPercent: null, memoryMB: null };
      pids.add(l.pid);
      let sampler = this.samplers.get(l.pid);
      if (!sampler) this.samplers.set(l.pid, (sampler = new ProcessTreeSampler({ clock: this.deps.clock })));
      const stats = sampler.sample(l.pid);
      return { ...l, cpuPercent: stats.ok && stats.value.cpuPercent !== null ? Math.round(stats.value.cpuPercent * 10) / 10 : null, memoryMB: stats.ok ? Math.round(stats.value.rssMb * 10) / 10 : null };
    });
    for (const pid of this.samplers.keys()) if (!pids.has(pid)) this.samplers.delete(pid);
    // Figures move on every sample; only who runs (and in what state) is a change worth announcing.
    const changed = next.map((l) => `${l.pid}:${l.sessionKey}:${l.status}`).join(",") !== this.live.map((l) => `${l.pid}:${l.sessionKey}:${l.status}`).join(",");
    this.live = next;
    return changed;
  }

  private fail(error: SourceError, before: StatusState): boolean {
    this.close();
    this.status.failed(error, this.deps.clock.now());
    return before !== this.status.current;
  }

  /** Bad input this source's data brought by another way (a status-line reading refused): counted and logged as a scan's. */
  countWarnings(warnings: ReadonlyArray<{ code: string; message: string; where: string }>): void {
    this.count(warnings);
  }

  private count(warnings: ReadonlyArray<{ code: string; message: string; where: string }>): void {
    if (!warnings.length) return;
    this.warnings += warnings.length;
    for (const w of warnings.slice(0, 5)) this.deps.logger.warn("skipped bad input", { source: this.id, code: w.code, where: w.where, message: w.message });
    if (warnings.length > 5) this.deps.logger.warn("more bad input skipped", { source: this.id, count: warnings.length - 5 });
  }
}
