// One interface over both storage eras of an OpenClaw agent: the per-agent SQLite DB
// (>= 2026.7.2) and sessions.json + JSONL files (<= 2026.7.1). Callers (scanner, queries) never
// need to know which one they are reading; cursors are plain JSON so the store can persist them.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { SourceError, fail, ok } from "../result.js";
import type { SourceResult, SourceWarning } from "../result.js";
import { AgentDb, readSchemaMeta } from "./agent-db.js";
import type { SessionNodeRow, SessionWindowRow, TranscriptStat } from "./agent-db.js";
import { listTranscriptFiles, listTranscriptFilesPaced, readJsonlTranscript, readSessionsJson, readSessionsJsonPaced, transcriptSessionId, DEFAULT_MAX_BYTES } from "./legacy-files.js";
import type { FileCursor, LegacySessionEntry, TranscriptFile } from "./legacy-files.js";
import { sessionFromLegacyEntry, sessionFromNode } from "./session-record.js";
import type { SessionRecord } from "./session-record.js";
import { agentEra, modelTableOf, readConfigFile, resolveConfigPath } from "./state-dir.js";
import type { ModelTable, OpenClawEnv } from "./state-dir.js";
import type { TranscriptEvent } from "./transcript-event.js";
import type { ZstdDecoder } from "./zstd.js";

type AgentDataEra = "sqlite" | "files";

/** One transcript (session window). */
export interface TranscriptRef {
  sessionId: string;
  /** The key it belongs to; null for a file-era transcript no sessions.json entry points at. */
  sessionKey: string | null;
  /**
   * Changes whenever the transcript may have new content: `seq:<maxSeq>:<count>` for SQLite,
   * `file:<size>:<inode>:<mtimeMs>` for files. Equal token -> nothing to read.
   */
  changeToken: string;
  /** File size (files) or null (SQLite). */
  sizeBytes: number | null;
  /** Row count (SQLite) or null (files, unknown without reading). */
  eventCount: number | null;
}

export type TranscriptCursor =
  | { era: "sqlite"; afterSeq: number }
  | { era: "files"; offset: number; inode: number; size: number };

interface TranscriptBatch {
  events: TranscriptEvent[];
  /** Pass back on the next call. */
  cursor: TranscriptCursor;
  /** True when the reader has caught up with what is written now. */
  done: boolean;
  /**
   * True when reading restarted from the beginning (file truncated or replaced, seq went
   * backwards, or the cursor came from the other era): drop what was summed for this transcript.
   */
  restarted: boolean;
}

export interface AgentData {
  readonly era: AgentDataEra;
  readonly agentId: string;
  readonly stateDir: string;
  /** Every session key of the agent, archived ones included (`archived`). */
  listSessions(): SourceResult<SessionRecord[]>;
  listTranscripts(): SourceResult<TranscriptRef[]>;
  /** The same, awaiting `pause()` between stretches of work (the file era's listing and index walk). */
  listTranscriptsPaced?(pause: () => Promise<void>): Promise<SourceResult<TranscriptRef[]>>;
  /**
   * File era: the transcripts at these absolute paths, as listTranscripts would give them now; null
   * when that cannot be told without the full listing (see FileAgentData.transcriptsAt). Absent in
   * the SQLite era (a database changes as a whole).
   */
  transcriptsAt?(paths: readonly string[]): SourceResult<TranscriptRef[]> | null;
  /** Events after `cursor` (null = from the start), at most `limit` (default 1000) per call. */
  readTranscript(ref: Pick<TranscriptRef, "sessionId">, cursor: TranscriptCursor | null, limit?: number): SourceResult<TranscriptBatch>;
  /** The OpenClaw version that last wrote the store (`schema_meta.app_version`), if known. */
  appVersion(): SourceResult<string | null>;
  /**
   * A token that changes whenever sessions or transcripts may have changed (cheap to get): a
   * caller that saw the same token before may skip listing and scanning.
   */
  changeStamp(): SourceResult<string>;
  /**
   * Drops what is kept between passes of one change (the SQLite era's page cache and session
   * windows); `atRest`: also the rows kept so that the next change reads only what moved.
   */
  releaseMemory?(atRest?: boolean): void;
  close(): void;
}

interface OpenAgentDataOptions {
  /** Model table for context windows and cost fallback; read from the config when not given. */
  models?: ModelTable;
  /** Environment for OPENCLAW_CONFIG_PATH when the config has to be read. */
  env?: OpenClawEnv;
  /** File era: bytes read per `readTranscript` call (default 1 MiB). */
  maxBytes?: number;
  zstd?: ZstdDecoder;
}

const DEFAULT_BATCH_LIMIT = 1000;

function batchLimit(limit: number | undefined): number {
  return limit === undefined || !Number.isFinite(limit) ? DEFAULT_BATCH_LIMIT : Math.max(1, Math.floor(limit));
}

function loadModels(stateDir: string, opts: OpenAgentDataOptions, warnings: SourceWarning[]): ModelTable {
  if (opts.models) return opts.models;
  const configPath = resolveConfigPath(stateDir, { env: opts.env ?? process.env });
  const read = readConfigFile(configPath);
  if (!read.ok) {
    // Sessions are still readable without prices; say why context windows may be missing.
    warnings.push({ code: "BAD_FIELD", message: `config unreadable, no model table: ${read.error.message}`, where: configPath });
    return new Map();
  }
  return read.value ? modelTableOf(read.value, warnings, configPath) : new Map();
}

/** Opens whichever era the agent's directory holds; an agent with neither is `missing`. */
export function openAgentData(stateDir: string, agentId: string, opts: OpenAgentDataOptions = {}): SourceResult<AgentData> {
  const agentDir = path.join(stateDir, "agents", agentId);
  const era = agentEra(agentDir);
  const warnings: SourceWarning[] = [];
  if (era === "none") {
    return fail(new SourceError("missing", `${agentDir}: no openclaw-agent.sqlite and no sessions/sessions.json`, { where: agentDir }));
  }
  const models = loadModels(stateDir, opts, warnings);
  if (era === "sqlite") {
    const opened = AgentDb.open(path.join(agentDir, "agent", "openclaw-agent.sqlite"), opts.zstd ? { zstd: opts.zstd } : {});
    if (!opened.ok) return fail(opened.error, warnings);
    return ok(new SqliteAgentData(stateDir, agentId, opened.value, models), warnings);
  }
  return ok(new FileAgentData(stateDir, agentId, path.join(agentDir, "sessions"), models, opts.maxBytes ?? DEFAULT_MAX_BYTES), warnings);
}

/** Above this many moved transcripts (and an eighth of all), one GROUP BY beats a query per transcript. */
const STATS_INCREMENTAL_MAX = 50;
/** More rows appended than this since the last listing: count every transcript again. */
const STATS_ROWS_AFTER_MAX = 20_000;
/** Every this-many-th listing counts every transcript again, whatever the stamps say. */
const STATS_FULL_READ_EVERY = 20;

/** A session's record as last built, reused while its node row and windows are the same objects. */
interface BuiltRecord {
  node: SessionNodeRow;
  windows: SessionWindowRow[];
  record: SessionRecord;
  warnings: SourceWarning[];
}

/** Stats counted in stretches before the first listing, with the highest rowid read before them. */
interface FirstStats {
  top: number;
  stats: TranscriptStat[];
}

/** Records built between pauses in the first listing. */
const RECORD_CHUNK = 250;

function windowsByKey(windows: readonly SessionWindowRow[]): Map<string, SessionWindowRow[]> {
  const byKey = new Map<string, SessionWindowRow[]>();
  for (const w of windows) {
    let list = byKey.get(w.sessionKey);
    if (!list) byKey.set(w.sessionKey, (list = []));
    list.push(w);
  }
  return byKey;
}

interface BuiltRef {
  window: SessionWindowRow;
  stat: TranscriptStat | undefined;
  ref: TranscriptRef;
}

function sameRows<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

class SqliteAgentData implements AgentData {
  readonly era = "sqlite" as const;

  constructor(
    readonly stateDir: string,
    readonly agentId: string,
    private readonly db: AgentDb,
    private readonly models: ModelTable,
  ) {}

  private windows: { stamp: string; read: SourceResult<SessionWindowRow[]> } | null = null;
  private stamp = "";

  changeStamp(): SourceResult<string> {
    const v = this.db.dataVersion();
    if (!v.ok) return v;
    this.stamp = `sqlite:${v.value}`;
    return ok(this.stamp);
  }

  /**
   * At rest: the 2 MB page cache refills from the OS's file cache. The agent reader keeps its rows
   * (the next change reads only what moved), so this listing's copy of the windows can go.
   */
  releaseMemory(atRest = false): void {
    this.windows = null;
    // The refs are quick to make again (~2 ms at 4,000 windows) and ~3 MB at 16,000. The rows,
    // counts and records stay between turns: without them the next change would read everything
    // again (~80 ms at 2,376 sessions), which is what a refresh after one turn must not do. At
    // rest they go too (~15 MB at 10,000 sessions): the first change after it reads as a fresh
    // reader does.
    this.refs = new Map();
    if (atRest) {
      this.built = new Map();
      this.stats = new Map();
      this.statStamps = new Map();
      this.eventRowid = -1;
      this.statReads = 0;
    }
    this.db.releaseMemory(atRest);
  }

  /** session_windows once per change: listSessions and listTranscripts of one refresh both need it. */
  private sessionWindows(): SourceResult<SessionWindowRow[]> {
    if (this.windows && this.windows.stamp === this.stamp && this.stamp !== "") return this.windows.read;
    const read = this.db.sessionWindows();
    this.windows = { stamp: this.stamp, read };
    return read;
  }

  /**
   * Records by key: the agent reader hands back the same row objects for rows that did not move,
   * so a session whose node and windows are the very objects of last time keeps its record (and
   * the warnings its build gave, reported again as before).
   */
  private built = new Map<string, BuiltRecord>();

  listSessions(): SourceResult<SessionRecord[]> {
    const nodes = this.db.sessionNodes();
    if (!nodes.ok) return nodes;
    const windows = this.sessionWindows();
    if (!windows.ok) return fail(windows.error, [...nodes.warnings, ...windows.warnings]);
    const byKey = windowsByKey(windows.value);
    const warnings = [...nodes.warnings, ...windows.warnings];
    const built = new Map<string, BuiltRecord>();
    const records = nodes.value.map((n) => {
      const wins = byKey.get(n.sessionKey) ?? [];
      let b = this.built.get(n.sessionKey);
      if (!b || b.node !== n || !sameRows(b.windows, wins)) {
        const own: SourceWarning[] = [];
        b = { node: n, windows: wins, record: sessionFromNode(this.agentId, n, wins, this.models, own), warnings: own };
      }
      built.set(n.sessionKey, b);
      for (const w of b.warnings) warnings.push(w);
      return b.record;
    });
    this.built = built;
    return ok(records, warnings);
  }

  /** Per-transcript max(seq) and count, and what they were read at (see transcriptStats). */
  private stats = new Map<string, TranscriptStat>();
  /**
   * Each window's row when its stats were read: the agent reader hands back the same object until
   * the row's updated_at or transcript_updated_at moves.
   */
  private statStamps = new Map<string, SessionWindowRow>();
  /** transcript_events' highest rowid when the stats were read. */
  private eventRowid = -1;
  private statReads = 0;
  /** Each window's ref as last listed. */
  private refs = new Map<string, BuiltRef>();

  /**
   * The stats, counted again only for the transcripts that may have moved: windows whose
   * updated_at or transcript_updated_at moved, new or gone windows, and the transcripts with rows
   * above the highest rowid of last time (appends, whatever the gateway stamped). Every 20th
   * listing, after a rowid went backwards (rows deleted at the top) or when many moved: all of them.
   */
  private transcriptStats(windows: readonly SessionWindowRow[], first?: FirstStats): SourceResult<ReadonlyMap<string, TranscriptStat>> {
    this.statReads++;
    // Read first: rows appended while the stats are counted are above it, so found next time.
    const top = first ? ok(first.top) : this.db.maxEventRowid();
    if (!top.ok) return top;
    let full = first !== undefined || this.statReads === 1 || this.statReads % STATS_FULL_READ_EVERY === 0 || top.value < this.eventRowid;
    const moved = new Set<string>();
    if (!full) {
      let unseen = 0;
      for (const w of windows) {
        const stamp = this.statStamps.get(w.sessionId);
        if (stamp === undefined) unseen++;
        if (stamp !== w) moved.add(w.sessionId);
      }
      if (this.statStamps.size + unseen !== windows.length) {
        // Windows gone: their events went with them (or stay as transcripts without a window).
        const present = new Set(windows.map((w) => w.sessionId));
        for (const id of this.statStamps.keys()) if (!present.has(id)) moved.add(id);
      }
      if (top.value > this.eventRowid) {
        const written = this.db.transcriptsWrittenAfter(this.eventRowid, STATS_ROWS_AFTER_MAX);
        if (!written.ok) return written;
        if (written.value === null) full = true;
        else for (const id of written.value) moved.add(id);
      }
      full ||= moved.size > STATS_INCREMENTAL_MAX && moved.size > windows.length / 8;
    }
    if (full) {
      const all = first ? ok(first.stats) : this.db.transcriptStats();
      if (!all.ok) return all;
      this.stats = new Map(all.value.map((s) => [s.sessionId, s]));
      this.statStamps = new Map(windows.map((w) => [w.sessionId, w]));
    } else if (moved.size > 0) {
      const byId = new Map(windows.map((w) => [w.sessionId, w]));
      for (const id of moved) {
        const st = this.db.transcriptStat(id);
        if (!st.ok) return st;
        if (st.value) this.stats.set(id, st.value);
        else this.stats.delete(id);
        const w = byId.get(id);
        if (w) this.statStamps.set(id, w);
        else this.statStamps.delete(id);
      }
    }
    this.eventRowid = top.value;
    return ok(this.stats);
  }

  /**
   * The first listing of a reader reads every session row, window and transcript count, and builds
   * every record: ~150 ms of the loop at 2,376 sessions in one go. Here in stretches with `pause()`
   * between them, so that the listings after it (listSessions included) find them held and only look
   * at what moved. Later listings are the incremental ones, with a pause between their parts.
   */
  async listTranscriptsPaced(pause: () => Promise<void>): Promise<SourceResult<TranscriptRef[]>> {
    // A failure here is left to the listing below to report.
    await this.db.warmSessionNodes(pause);
    await this.db.warmSessionWindows(pause);
    let first: FirstStats | undefined;
    if (this.statReads === 0 || (this.statReads + 1) % STATS_FULL_READ_EVERY === 0) {
      const top = this.db.maxEventRowid();
      const stats = top.ok ? await this.db.transcriptStatsPaced(pause) : top;
      if (top.ok && stats.ok) first = { top: top.value, stats: stats.value };
    }
    await pause();
    const listed = this.listTranscripts(first);
    await this.buildRecordsPaced(pause);
    return listed;
  }

  /**
   * Builds the records the next listSessions would build (all of them after the first or a full
   * read of the rows), a chunk at a time; that listing then finds them built.
   */
  private async buildRecordsPaced(pause: () => Promise<void>): Promise<void> {
    const nodes = this.db.heldSessionNodes();
    const windows = this.windows?.read;
    if (nodes === null || !windows?.ok) return;
    const byKey = windowsByKey(windows.value);
    let n = 0;
    for (const node of nodes) {
      const wins = byKey.get(node.sessionKey) ?? [];
      const b = this.built.get(node.sessionKey);
      if (b && b.node === node && sameRows(b.windows, wins)) continue;
      const own: SourceWarning[] = [];
      // Kept beside what is built already; the next listSessions keeps only the keys it lists.
      this.built.set(node.sessionKey, { node, windows: wins, record: sessionFromNode(this.agentId, node, wins, this.models, own), warnings: own });
      if (++n % RECORD_CHUNK === 0) await pause();
    }
  }

  listTranscripts(first?: FirstStats): SourceResult<TranscriptRef[]> {
    const windows = this.sessionWindows();
    if (!windows.ok) return windows;
    const stats = this.transcriptStats(windows.value, first);
    if (!stats.ok) return fail(stats.error, windows.warnings);
    const byId = stats.value;
    const refs: TranscriptRef[] = [];
    const seen = new Set<string>();
    const kept = new Map<string, BuiltRef>();
    for (const w of windows.value) {
      const s = byId.get(w.sessionId);
      seen.add(w.sessionId);
      // The same ref object while its window row and stats are the same objects: a refresh after one
      // append makes one new ref, not 4,000 (and the reader's adapter keeps its own by identity).
      let b = this.refs.get(w.sessionId);
      if (!b || b.window !== w || b.stat !== s) {
        b = { window: w, stat: s, ref: { sessionId: w.sessionId, sessionKey: w.sessionKey, changeToken: `seq:${s?.maxSeq ?? -1}:${s?.count ?? 0}`, sizeBytes: null, eventCount: s?.count ?? 0 } };
      }
      kept.set(w.sessionId, b);
      refs.push(b.ref);
    }
    this.refs = kept;
    // Events whose window row is gone (should not happen with the FK, but the data decides).
    for (const s of byId.values()) {
      if (!seen.has(s.sessionId)) refs.push({ sessionId: s.sessionId, sessionKey: null, changeToken: `seq:${s.maxSeq}:${s.count}`, sizeBytes: null, eventCount: s.count });
    }
    return ok(refs, windows.warnings);
  }

  readTranscript(ref: Pick<TranscriptRef, "sessionId">, cursor: TranscriptCursor | null, limit?: number): SourceResult<TranscriptBatch> {
    const warnings: SourceWarning[] = [];
    let afterSeq = -1;
    let restarted = false;
    if (cursor?.era === "sqlite") afterSeq = cursor.afterSeq;
    else if (cursor) {
      warnings.push({ code: "ROTATED", message: "cursor is from the file era; reading the SQLite transcript from the start", where: ref.sessionId });
      restarted = true;
    }
    const read = this.db.transcriptEvents(ref.sessionId, afterSeq, batchLimit(limit));
    if (!read.ok) return fail(read.error, [...warnings, ...read.warnings]);
    warnings.push(...read.warnings);
    let batch = read.value;
    if (batch.events.length === 0 && batch.lastSeq === afterSeq && afterSeq >= 0) {
      // Nothing new: make sure the transcript did not go backwards (rewritten or DB replaced).
      const max = this.db.maxSeq(ref.sessionId);
      if (!max.ok) return fail(max.error, warnings);
      if (max.value < afterSeq) {
        warnings.push({ code: "TRUNCATED", message: `max seq ${max.value} is below cursor ${afterSeq}; reading from the start`, where: ref.sessionId });
        restarted = true;
        const again = this.db.transcriptEvents(ref.sessionId, -1, batchLimit(limit));
        if (!again.ok) return fail(again.error, [...warnings, ...again.warnings]);
        warnings.push(...again.warnings);
        batch = again.value;
      }
    }
    return ok({ events: batch.events, cursor: { era: "sqlite", afterSeq: batch.lastSeq }, done: batch.done, restarted }, warnings);
  }

  appVersion(): SourceResult<string | null> {
    const meta = this.db.schemaMeta();
    return meta.ok ? ok(meta.value.appVersion, meta.warnings) : meta;
  }

  close(): void {
    this.db.close();
  }
}

class FileAgentData implements AgentData {
  readonly era = "files" as const;

  constructor(
    readonly stateDir: string,
    readonly agentId: string,
    private readonly sessionsDir: string,
    private readonly models: ModelTable,
    private readonly maxBytes: number,
  ) {}

  private parsed: { id: string; read: SourceResult<LegacySessionEntry[]>; keys?: Map<string, string> } | null = null;
  /**
   * The listing the last changeStamp made, for the listTranscripts right after it (a refresh asks
   * for both): each stats every transcript, ~2,000 per agent. Replaced by every changeStamp and
   * taken once, so it is never older than the refresh that uses it.
   */
  private listing: SourceResult<TranscriptFile[]> | null = null;

  private indexId(): string | null {
    try {
      const st = fs.statSync(path.join(this.sessionsDir, "sessions.json"));
      return `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return null;
    }
  }

  /** sessions.json parsed once per version of the file (it can be large: every session's entry). */
  private sessionsJson(): SourceResult<LegacySessionEntry[]> {
    const id = this.indexId();
    if (id === null) return readSessionsJson(this.sessionsDir);
    if (this.parsed?.id === id) return this.parsed.read;
    const read = readSessionsJson(this.sessionsDir);
    this.parsed = { id, read };
    return read;
  }

  /** The same, walked in stretches with `pause()` between them. */
  private async sessionsJsonPaced(pause: () => Promise<void>): Promise<SourceResult<LegacySessionEntry[]>> {
    const id = this.indexId();
    if (id === null) return readSessionsJson(this.sessionsDir);
    if (this.parsed?.id === id) return this.parsed.read;
    const read = await readSessionsJsonPaced(this.sessionsDir, pause);
    // Only for the version it was taken from: replaced meanwhile, the next call reads it again.
    this.parsed = { id, read };
    return read;
  }

  private takeListing(): SourceResult<TranscriptFile[]> | null {
    const l = this.listing;
    this.listing = null;
    return l;
  }

  changeStamp(): SourceResult<string> {
    const files = listTranscriptFiles(this.sessionsDir);
    this.listing = files.ok ? files : null;
    if (!files.ok) return files;
    const index = this.indexId() ?? "none";
    // Cheap to compare, and it changes with any transcript appended to, added or replaced. One
    // string hashed once: a hash update per transcript was a fifth of an idle refresh.
    const parts: string[] = [index];
    for (const f of files.value) parts.push(`${f.sessionId}:${f.size}:${f.inode}:${f.mtimeMs}`);
    return ok(`files:${createHash("sha1").update(parts.join("|")).digest("hex")}`);
  }

  listSessions(): SourceResult<SessionRecord[]> {
    const read = this.sessionsJson();
    if (!read.ok) return read;
    const warnings = [...read.warnings];
    const records = read.value.map((e) => sessionFromLegacyEntry(this.agentId, e, this.models, warnings));
    return ok(records, warnings);
  }

  listTranscripts(): SourceResult<TranscriptRef[]> {
    return this.refsOf(this.takeListing() ?? listTranscriptFiles(this.sessionsDir), this.sessionsJson());
  }

  async listTranscriptsPaced(pause: () => Promise<void>): Promise<SourceResult<TranscriptRef[]>> {
    const files = this.takeListing() ?? (await listTranscriptFilesPaced(this.sessionsDir, pause));
    if (!files.ok) return files;
    return this.refsOf(files, await this.sessionsJsonPaced(pause));
  }

  /**
   * The transcripts at these paths (`<sessionId>.jsonl` in the sessions dir), each as listTranscripts
   * would give it now, without listing the dir or walking sessions.json: only while the parse of
   * sessions.json kept from the last listing is of the file there now (its keys are the refs'
   * keys). null for sessions.json itself, any other path, or a parse that is stale or failed: the
   * caller does a full pass (which walks the new index). A file that is gone gives no ref.
   */
  transcriptsAt(paths: readonly string[]): SourceResult<TranscriptRef[]> | null {
    const parsed = this.parsed;
    if (!parsed || !parsed.read.ok || parsed.id !== this.indexId()) return null;
    const dir = path.resolve(this.sessionsDir);
    const files: TranscriptFile[] = [];
    const warnings: SourceWarning[] = [];
    const seen = new Set<string>();
    for (const p of paths) {
      const abs = path.resolve(p);
      const sessionId = transcriptSessionId(path.basename(abs));
      if (path.dirname(abs) !== dir || sessionId === null) return null;
      if (seen.has(sessionId)) continue;
      seen.add(sessionId);
      try {
        const st = fs.statSync(abs, { throwIfNoEntry: false });
        if (st?.isFile()) files.push({ sessionId, path: abs, size: st.size, inode: st.ino, mtimeMs: st.mtimeMs });
      } catch (err) {
        if ((err as { code?: unknown }).code !== "ENOENT") warnings.push({ code: "BAD_ROW", message: (err as Error).message, where: abs });
      }
    }
    files.sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
    return this.refsOf(ok(files, warnings), parsed.read, false);
  }

  /** sessionId -> key of one parse of sessions.json, made once per parse (10,000 entries). */
  private keysOf(sessions: LegacySessionEntry[]): Map<string, string> {
    const parsed = this.parsed;
    if (parsed?.read.ok && parsed.read.value === sessions && parsed.keys) return parsed.keys;
    const keyOf = new Map<string, string>();
    for (const { key, entry } of sessions) if (typeof entry.sessionId === "string") keyOf.set(entry.sessionId, key);
    if (parsed?.read.ok && parsed.read.value === sessions) parsed.keys = keyOf;
    return keyOf;
  }

  private refsOf(files: SourceResult<TranscriptFile[]>, sessions: SourceResult<LegacySessionEntry[]>, indexWarnings = true): SourceResult<TranscriptRef[]> {
    if (!files.ok) return files;
    const warnings = [...files.warnings];
    let keyOf = new Map<string, string>();
    if (sessions.ok) {
      keyOf = this.keysOf(sessions.value);
      // The index's own warnings come with a listing, not again with each watch event's refs.
      if (indexWarnings) warnings.push(...sessions.warnings);
    } else {
      // The transcripts are still worth scanning; they just stay unattributed this time.
      warnings.push({ code: "BAD_ROW", message: `sessions.json unreadable, transcripts listed without keys: ${sessions.error.message}`, where: this.sessionsDir });
    }
    return ok(
      files.value.map((f) => ({
        sessionId: f.sessionId,
        sessionKey: keyOf.get(f.sessionId) ?? null,
        changeToken: `file:${f.size}:${f.inode}:${f.mtimeMs}`,
        sizeBytes: f.size,
        eventCount: null,
      })),
      warnings,
    );
  }

  readTranscript(ref: Pick<TranscriptRef, "sessionId">, cursor: TranscriptCursor | null, limit?: number): SourceResult<TranscriptBatch> {
    const warnings: SourceWarning[] = [];
    let fileCursor: FileCursor | null = null;
    let restarted = false;
    if (cursor?.era === "files") fileCursor = { offset: cursor.offset, inode: cursor.inode, size: cursor.size };
    else if (cursor) {
      warnings.push({ code: "ROTATED", message: "cursor is from the SQLite era; reading the file from the start", where: ref.sessionId });
      restarted = true;
    }
    // The id comes from our own listing, but never let it name a path outside the sessions dir.
    if (ref.sessionId.includes("/") || ref.sessionId.includes("\\") || ref.sessionId.startsWith(".")) {
      return fail(new SourceError("missing", `invalid session id ${JSON.stringify(ref.sessionId)}`, { where: this.sessionsDir }), warnings);
    }
    const file = path.join(this.sessionsDir, `${ref.sessionId}.jsonl`);
    const read = readJsonlTranscript(file, fileCursor, { maxBytes: this.maxBytes, limit: batchLimit(limit) });
    if (!read.ok) return fail(read.error, [...warnings, ...read.warnings]);
    const b = read.value;
    return ok({ events: b.events, cursor: { era: "files", ...b.cursor }, done: b.done, restarted: restarted || b.restarted }, [...warnings, ...read.warnings]);
  }

  appVersion(): SourceResult<string | null> {
    // The file era has no agent DB; the shared state DB (there since 2026.6.1) records the version.
    const read = readSchemaMeta(path.join(this.stateDir, "state", "openclaw.sqlite"));
    if (read.ok) return ok(read.value.appVersion, read.warnings);
    return read.error.kind === "missing" ? ok(null) : fail(read.error, read.warnings);
  }

  close(): void {
    // Nothing held open: every read opens and closes its file.
  }
}
