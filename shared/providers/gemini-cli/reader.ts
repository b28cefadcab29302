// The Gemini CLI adapter (gemini-cli-format.md, contract.ts): one reader per `.gemini` dir. Session
// files are read incrementally with the JSONL kit's line reader; the records a monitor never uses
// are skipped from their first bytes without being built: the `$set.messages` re-listings (the
// whole conversation again, tens of KB per resume) and the `$set.lastUpdated` stamps written after
// nearly every record. The cursor holds the line cursor and the parser's small state (line.ts).
// Nothing in the dir is written.
import { randomUUID } from "node:crypto";
import * as path from "node:path";
import type { ActivityBatch, Install, LiveSession, SourceReader, TranscriptMessageRecord, TranscriptRef } from "../contract.js";
import { openReaderIn } from "../jsonl/open-reader.js";
import { readEventLines, readWholeFile } from "../jsonl/batch.js";
import { DEFAULT_LINE_READ_BYTES, parseContextCursor, type ContextCursor, type LineCursor } from "../jsonl/line-reader.js";
import { parseLineObject } from "../jsonl/shape.js";
import { SourceError, fail, ok, type SourceResult, type SourceWarning } from "../result.js";
import { runNow, runPaced } from "../paced.js";
import { projectOf, SessionLister, transcriptRefs, type SessionFile } from "./files.js";
import { lineEvents, newLineContext, restoreContext, serializeContext, type GeminiLineContext } from "./line.js";
import { readLiveSessions, type GeminiLiveOptions } from "./live.js";
import { MessageCollector } from "./messages.js";

export interface GeminiReaderOptions {
  /** Where running `gemini` processes are looked for (tests inject a fake procfs). */
  live?: GeminiLiveOptions;
  /** Bytes read per readTranscript call at most (a longer line is still finished); default 4 MiB. */
  maxBytes?: number;
}

export const DEFAULT_EVENT_LIMIT = 1000;
/** Files compared with the last listing between two pauses of a paced stamp (~2 µs each). */
const STAMP_PACE = 2000;

/** Line starts of records nothing is taken from (JSON.stringify writes them exactly so). */
const SKIPPED_HEADS = ['{"$set":{"messages":', '{"$set":{"lastUpdated":'].map((s) => Buffer.from(s));
const PEEK = 32;

function keepLine(head: Buffer): boolean {
  return !SKIPPED_HEADS.some((h) => head.length >= h.length && head.subarray(0, h.length).equals(h));
}

export function openGeminiReader(install: Install, opts: GeminiReaderOptions = {}): SourceResult<SourceReader> {
  return openReaderIn(install.dir, () => new GeminiReader(install.dir, opts));
}

class GeminiReader implements SourceReader {
  private readonly lister: SessionLister;
  /** Transcript id (the file's path in the install) -> the file, from the last listing. */
  private files = new Map<string, SessionFile>();
  /** slug dir -> its cwd, read once per reader (a slug never moves to another cwd). */
  private readonly projects = new Map<string, string | null>();
  private version: string | null = null;
  private readonly stampPrefix = randomUUID();
  private stamps = 0;
  /** The listing behind the current stamp, by id: an equal listing keeps the stamp. */
  private stampedFiles: Map<string, Listed> | null = null;

  constructor(
    dir: string,
    private readonly opts: GeminiReaderOptions,
  ) {
    this.lister = new SessionLister(dir);
  }

  listTranscripts(): SourceResult<TranscriptRef[]> {
    return this.listed(this.lister.list());
  }

  async listTranscriptsPaced(pause: () => Promise<void>): Promise<SourceResult<TranscriptRef[]>> {
    return this.listed(await this.lister.listPaced(pause));
  }

  private listed(r: SourceResult<SessionFile[]>): SourceResult<TranscriptRef[]> {
    if (!r.ok) return r;
    this.files = new Map(r.value.map((f) => [f.rel, f]));
    return ok(transcriptRefs(this.files.values()), r.warnings);
  }

  /**
   * The session files at these paths, as a listing would give them now (a new file's header is
   * read); a file that is gone, or whose header is not whole yet, gives none. A path that is not
   * where session files live is null: the core lists everything.
   */
  transcriptsAt(paths: readonly string[]): SourceResult<TranscriptRef[]> | null {
    if (!paths.every((p) => this.lister.isSessionPath(path.resolve(p)))) return null;
    const found = new Map<string, SessionFile>();
    const warnings: SourceWarning[] = [];
    for (const p of paths) {
      const f = this.lister.fileAt(path.resolve(p), warnings);
      if (f) found.set(f.rel, f);
    }
    for (const [id, f] of found) this.files.set(id, f);
    return ok(transcriptRefs(found.values()), warnings);
  }

  /** The file of a transcript id, from the listing only: an id from a store is never made into a path. */
  private fileOf(id: string): SessionFile | null {
    const known = this.files.get(id);
    if (known) return known;
    this.listTranscripts();
    return this.files.get(id) ?? null;
  }

  private projectOfSlug(slugDir: string): string | null {
    if (!this.projects.has(slugDir)) this.projects.set(slugDir, projectOf(slugDir));
    return this.projects.get(slugDir) ?? null;
  }

  readTranscript(ref: TranscriptRef, cursor: unknown, limit: number): SourceResult<ActivityBatch> {
    const file = this.fileOf(ref.id);
    if (!file) return fail(new SourceError("missing", `${ref.id}: no Gemini CLI session file for this session`, { where: ref.id }));
    const max = Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : DEFAULT_EVENT_LIMIT;
    const stored = cursor === null || cursor === undefined ? null : parseContextCursor(cursor, restoreContext);
    let restarted = cursor !== null && cursor !== undefined && stored === null;
    let start = stored?.line ?? null;
    let ctx = stored?.ctx ?? newLineContext();
    const project = this.projectOfSlug(file.slugDir);
    // A replaced or truncated file restarts at 0, and the parser state with it.
    for (let attempt = 0; ; attempt++) {
      const read = this.readEvents(file.abs, start, ctx, project, max);
      if (!read.ok) return read;
      if (read.value.restarted && start !== null && attempt === 0) {
        start = null;
        ctx = newLineContext();
        restarted = true;
        continue;
      }
      return ok({ ...read.value, restarted: restarted || read.value.restarted }, read.warnings);
    }
  }

  private readEvents(file: string, start: LineCursor | null, ctx: GeminiLineContext, project: string | null, max: number): SourceResult<ActivityBatch> {
    const options = { keep: keepLine, peekBytes: PEEK, maxBytes: this.opts.maxBytes ?? DEFAULT_LINE_READ_BYTES };
    const r = readEventLines(file, start, options, max, (line, pos, where, events, warnings) => {
      const obj = parseLineObject(line.toString("utf8"), where, warnings);
      if (obj) events.push(...lineEvents(obj, pos, where, ctx, project, warnings));
    });
    if (!r.ok) return r;
    const out: ContextCursor = { v: 1, line: r.value.cursor, ctx: serializeContext(ctx) };
    return ok({ ...r.value, cursor: out }, r.warnings);
  }

  readMessages(ref: TranscriptRef): SourceResult<{ messages: TranscriptMessageRecord[]; bytes: number }> {
    const file = this.fileOf(ref.id);
    if (!file) return fail(new SourceError("missing", `${ref.id}: no Gemini CLI session file for this session`, { where: ref.id }));
    const r = readWholeFile(file.abs, { keep: keepLine, peekBytes: PEEK }, () => new MessageCollector(), (collector, line, pos, where, warnings) => {
      const obj = parseLineObject(line.toString("utf8"), where, warnings);
      if (obj) collector.add(obj, pos, where, warnings);
    });
    return r.ok ? ok({ messages: r.value.state.finish(), bytes: r.value.bytes }, r.warnings) : r;
  }

  liveSessions(): SourceResult<LiveSession[]> {
    if (this.files.size === 0) this.listTranscripts();
    const mains = [...this.files.values()].filter((f) => f.parentId === null);
    const r = readLiveSessions(mains, (slugDir) => this.projectOfSlug(slugDir), this.opts.live);
    if (r.ok) for (const s of r.value) if (s.cliVersion !== null) this.version = s.cliVersion;
    return r;
  }

  /** The session files name no version: it is the one a running `gemini`'s package says (live.ts), once one was seen. */
  appVersion(): SourceResult<string | null> {
    return ok(this.version);
  }

  /**
   * Moves only when a listing would give other refs: a resume appends to an old file and a later
   * run appends a summary to another session's file, which move only that file's mtime, so only a
   * stat of every file sees it. That listing is cheap (headers are read once per inode, the
   * projects once per reader), and an equal stamp lets the core skip the pass: scanning every
   * transcript's cursor and reloading the sessions cost ~100x the stats.
   */
  changeStamp(): SourceResult<string> {
    return runNow(this.stamping(this.lister.list()));
  }

  /**
   * changeStamp, pausing every LIST_PACE stats and STAMP_PACE comparisons: at 35,000 files the
   * sweep held the event loop ~0.6-1.5 s at once, and sorting and hashing the refs ~100 ms more.
   */
  async changeStampPaced(pause: () => Promise<void>): Promise<SourceResult<string>> {
    return runPaced(this.stamping(await this.lister.listPaced(pause)), pause);
  }

  /** Moves the stamp unless the listing gives every file as the last one did (compared in place: no sort, no digest). */
  private *stamping(listed: SourceResult<SessionFile[]>): Generator<void, SourceResult<string>> {
    const before = this.stampedFiles;
    // A failed listing always moves the stamp: the pass that follows reports the error.
    let moved = !listed.ok || before === null || listed.value.length !== before.size;
    const next = new Map<string, Listed>();
    if (listed.ok) {
      for (let i = 0; i < listed.value.length; i++) {
        const f = listed.value[i] as SessionFile;
        const now = listedOf(f);
        next.set(f.rel, now);
        if (!moved && !sameListing(before?.get(f.rel), now)) moved = true;
        if (i % STAMP_PACE === STAMP_PACE - 1) yield;
      }
    }
    if (moved) this.stamps++;
    this.stampedFiles = listed.ok ? next : null;
    return ok(`${this.stampPrefix}:${this.stamps}`);
  }

  close(): void {
    // Nothing is held open between calls.
  }
}

/**
 * What a ref of the file holds that can change (transcriptRefs: session, parent, change token,
 * size), kept small: keeping the listing's fs.Stats for 35,000 files held ~40 MB more heap.
 */
interface Listed {
  sessionId: string;
  parentId: string | null;
  size: number;
  ino: number;
  mtimeMs: number;
}

function listedOf(f: SessionFile): Listed {
  return { sessionId: f.sessionId, parentId: f.parentId, size: f.stat.size, ino: f.stat.ino, mtimeMs: f.stat.mtimeMs };
}

/** The same ref: the change token's fields (changeTokenOf) compared as numbers, no string per file. */
function sameListing(was: Listed | undefined, now: Listed): boolean {
  return was !== undefined && was.sessionId === now.sessionId && was.parentId === now.parentId && was.size === now.size && was.ino === now.ino && was.mtimeMs === now.mtimeMs;
}
