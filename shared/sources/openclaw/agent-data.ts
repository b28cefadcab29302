// One interface over both storage eras of an OpenClaw agent: the per-agent SQLite DB
// (>= 2026.7.2) and sessions.json + JSONL files (<= 2026.7.1). Callers (scanner, queries) never
// need to know which one they are reading; cursors are plain JSON so the store can persist them.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { SourceError, fail, ok } from "../result.js";
import type { SourceResult, SourceWarning } from "../result.js";
import { AgentDb, readSchemaMeta } from "./agent-db.js";
import type { SessionWindowRow } from "./agent-db.js";
import { listTranscriptFiles, listTranscriptFilesPaced, readJsonlTranscript, readSessionsJson, readSessionsJsonPaced, transcriptSessionId, DEFAULT_MAX_BYTES } from "./legacy-files.js";
import type { FileCursor, LegacySessionEntry, TranscriptFile } from "./legacy-files.js";
import { sessionFromLegacyEntry, sessionFromNode } from "./session-record.js";
import type { SessionRecord } from "./session-record.js";
import { agentEra, modelTableOf, readConfigFile, resolveConfigPath } from "./state-dir.js";
import type { ModelTable, OpenClawEnv } from "./state-dir.js";
import type { TranscriptEvent } from "./transcript-event.js";
import type { ZstdDecoder } from "./zstd.js";

export type AgentDataEra = "sqlite" | "files";

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

export interface TranscriptBatch {
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
  /** Drops what is kept between passes of one change (the SQLite era's page cache and session windows). */
  releaseMemory?(): void;
  close(): void;
}

export interface OpenAgentDataOptions {
  /** Model table for context windows and cost fallback; read from the config when not given. */
  models?: ModelTable;
  /** Environment for OPENCLAW_CONFIG_PATH when the config has to be read. */
  env?: OpenClawEnv;
  /** File era: bytes read per `readTranscript` call (default 1 MiB). */
  maxBytes?: number;
  zstd?: ZstdDecoder;
}

export const DEFAULT_BATCH_LIMIT = 1000;

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
   * At rest: the session windows (~6 MB of objects for 10,000 sessions) are needed again only after
   * a change, which reads them anew; the 2 MB page cache refills from the OS's file cache.
   */
  releaseMemory(): void {
    this.windows = null;
    this.db.releaseMemory();
  }

  /** session_windows once per change: listSessions and listTranscripts of one refresh both need it. */
  private sessionWindows(): SourceResult<SessionWindowRow[]> {
    if (this.windows && this.windows.stamp === this.stamp && this.stamp !== "") return this.windows.read;
    const read = this.db.sessionWindows();
    this.windows = { stamp: this.stamp, read };
    return read;
  }

  listSessions(): SourceResult<SessionRecord[]> {
    const nodes = this.db.sessionNodes();
    if (!nodes.ok) return nodes;
    const windows = this.sessionWindows();
    if (!windows.ok) return fail(windows.error, [...nodes.warnings, ...windows.warnings]);
    const byKey = new Map<string, SessionWindowRow[]>();
    for (const w of windows.value) {
      let list = byKey.get(w.sessionKey);
      if (!list) byKey.set(w.sessionKey, (list = []));
      list.push(w);
    }
    const warnings = [...nodes.warnings, ...windows.warnings];
    const records = nodes.value.map((n) => sessionFromNode(this.agentId, n, byKey.get(n.sessionKey) ?? [], this.models, warnings));
    return ok(records, warnings);
  }

  listTranscripts(): SourceResult<TranscriptRef[]> {
    const windows = this.sessionWindows();
    if (!windows.ok) return windows;
    const stats = this.db.transcriptStats();
    if (!stats.ok) return fail(stats.error, windows.warnings);
    const byId = new Map(stats.value.map((s) => [s.sessionId, s]));
    const refs: TranscriptRef[] = [];
    const seen = new Set<string>();
    for (const w of windows.value) {
      const s = byId.get(w.sessionId);
      seen.add(w.sessionId);
      refs.push({ sessionId: w.sessionId, sessionKey: w.sessionKey, changeToken: `seq:${s?.maxSeq ?? -1}:${s?.count ?? 0}`, sizeBytes: null, eventCount: s?.count ?? 0 });
    }
    // Events whose window row is gone (should not happen with the FK, but the data decides).
    for (const s of stats.value) {
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
