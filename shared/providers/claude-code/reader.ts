// The Claude Code adapter (design §9, contract.ts): one reader per install dir. Transcripts are
// read incrementally with the streaming line reader; lines the reader never uses (30-110 KB context
// snapshots and request bookkeeping) are skipped from their first bytes without being built or
// parsed (classify.ts). Nothing is cached between calls but the newest CLI version seen.
import { randomUUID } from "node:crypto";
import * as path from "node:path";
import type { ActivityBatch, Install, LiveSession, SourceReader, TranscriptMessageRecord, TranscriptRef } from "../contract.js";
import { openReaderIn } from "../jsonl/open-reader.js";
import { readEventLines, readWholeFile } from "../jsonl/batch.js";
import { DEFAULT_LINE_READ_BYTES, isLineCursor, readLines } from "../jsonl/line-reader.js";
import { compareVersions } from "../version-order.js";
import { SourceError, fail, ok } from "../result.js";
import type { SourceResult } from "../result.js";
import { CLASSIFY_PEEK_BYTES, keepLine } from "./classify.js";
import { parseTranscriptId, transcriptFilesAt } from "./files.js";
import { TranscriptIndex } from "./transcript-index.js";
import { lineEvents, newLineContext } from "./line.js";
import { parseLineObject, text } from "./line-shape.js";
import { defaultLiveProbe, readLiveSessions } from "./live.js";
import type { LiveProbe } from "./live.js";
import { MessageCollector } from "./messages.js";

export interface ClaudeCodeReaderOptions {
  /** Liveness checks for `sessions/<pid>.json` (tests inject them). */
  probe?: Partial<LiveProbe>;
  /** Bytes read per readTranscript call at most (a longer line is still finished); default 4 MiB. */
  maxBytes?: number;
  /** JSON parser for kept lines (default JSON.parse); tests count calls through it. */
  parse?: (text: string) => unknown;
  /** Wall-clock ms, compared with file mtimes by the poll (TranscriptIndex); default Date.now. */
  now?: () => number;
}

export const DEFAULT_EVENT_LIMIT = 1000;
/** How far appVersion looks into the newest transcript when no read has seen a version yet. */
const VERSION_PROBE_BYTES = 1024 * 1024;

/** Opens the reader for one install; a dir that is not there is `missing`. */
export function openClaudeCodeReader(install: Install, opts: ClaudeCodeReaderOptions = {}): SourceResult<SourceReader> {
  return openReaderIn(install.dir, () => new ClaudeCodeReader(install.dir, opts));
}

class ClaudeCodeReader implements SourceReader {
  private readonly probe: LiveProbe;
  private newestVersion: string | null = null;
  /** The newest transcript of the last listing, for appVersion before any read saw a version. */
  private newestTranscript: string | null = null;
  private readonly stampPrefix = randomUUID();
  private stamps = 0;
  /** The last listing, kept: a poll finds what changed from it (changeStamp). */
  private readonly index: TranscriptIndex;
  /** What the polls since the last changedTranscripts() found new or changed, by id. */
  private pending = new Map<string, TranscriptRef>();

  constructor(
    private readonly dir: string,
    private readonly opts: ClaudeCodeReaderOptions,
  ) {
    this.probe = { ...defaultLiveProbe, ...opts.probe };
    this.index = new TranscriptIndex(dir, opts.now);
  }

  private noteVersion(v: unknown): void {
    const s = text(v);
    if (s === null || s === this.newestVersion || s.length > 64) return;
    if (this.newestVersion === null || compareVersions(s, this.newestVersion) > 0) this.newestVersion = s;
  }

  private resolve(ref: Pick<TranscriptRef, "id">): { file: string; subagent: boolean } | null {
    const parsed = parseTranscriptId(ref.id);
    return parsed ? { file: path.join(this.dir, ...ref.id.split("/")), subagent: parsed.subagent } : null;
  }

  listTranscripts(): SourceResult<TranscriptRef[]> {
    this.pending.clear();
    return this.listed(this.index.list());
  }

  async listTranscriptsPaced(pause: () => Promise<void>): Promise<SourceResult<TranscriptRef[]>> {
    // A full listing covers whatever the polls found before it.
    this.pending.clear();
    return this.listed(await this.index.listPaced(pause));
  }

  transcriptsAt(paths: readonly string[]): SourceResult<TranscriptRef[]> | null {
    return transcriptFilesAt(this.dir, paths);
  }

  /** Notes the newest transcript of a listing (for appVersion). */
  private listed(r: SourceResult<TranscriptRef[]>): SourceResult<TranscriptRef[]> {
    if (r.ok) {
      let newest: { id: string; mtime: number } | null = null;
      for (const t of r.value) {
        const mtime = Number(t.changeToken.split(":")[2]);
        if (newest === null || mtime > newest.mtime) newest = { id: t.id, mtime };
      }
      this.newestTranscript = newest?.id ?? null;
    }
    return r;
  }

  /**
   * Events after `cursor` (a LineCursor; null or anything malformed = from the start, then
   * `restarted`), at most about `limit`: reading stops at the first line boundary after the limit,
   * and the cursor points at the first line not turned into events.
   */
  readTranscript(ref: TranscriptRef, cursor: unknown, limit: number): SourceResult<ActivityBatch> {
    const target = this.resolve(ref);
    if (!target) return fail(new SourceError("missing", `${ref.id}: not a Claude Code transcript id`, { where: ref.id }));
    const max = Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : DEFAULT_EVENT_LIMIT;
    const start = cursor === null || cursor === undefined ? null : isLineCursor(cursor) ? cursor : null;
    const badCursor = cursor !== null && cursor !== undefined && start === null;
    const ctx = newLineContext(target.subagent);
    const options = { keep: keepLine, peekBytes: CLASSIFY_PEEK_BYTES, maxBytes: this.opts.maxBytes ?? DEFAULT_LINE_READ_BYTES };
    const r = readEventLines(target.file, start, options, max, (line, pos, where, events, warnings) => {
      const obj = parseLineObject(line.toString("utf8"), where, warnings, this.opts.parse);
      if (!obj) return;
      this.noteVersion(obj.version);
      for (const e of lineEvents(obj, pos, where, ctx, warnings)) events.push(e);
    });
    if (!r.ok) return r;
    return ok({ ...r.value, restarted: r.value.restarted || badCursor }, r.warnings);
  }

  /** Every message of one transcript, in file order; `bytes` is the file size. */
  readMessages(ref: TranscriptRef): SourceResult<{ messages: TranscriptMessageRecord[]; bytes: number }> {
    const target = this.resolve(ref);
    if (!target) return fail(new SourceError("missing", `${ref.id}: not a Claude Code transcript id`, { where: ref.id }));
    const options = { keep: keepLine, peekBytes: CLASSIFY_PEEK_BYTES };
    const r = readWholeFile(target.file, options, () => new MessageCollector(target.subagent), (collector, line, pos, where, warnings) => {
      const obj = parseLineObject(line.toString("utf8"), where, warnings, this.opts.parse);
      if (!obj) return;
      this.noteVersion(obj.version);
      collector.add(obj, pos, where, warnings);
    });
    return r.ok ? ok({ messages: r.value.state.finish(), bytes: r.value.bytes }, r.warnings) : r;
  }

  liveSessions(): SourceResult<LiveSession[]> {
    const r = readLiveSessions(this.dir, this.probe);
    if (r.ok) {
      for (const s of r.value) this.noteVersion(s.cliVersion);
      // The daemon reads who runs before every poll: their transcripts are polled closely.
      this.index.noteLive(r.value);
    }
    return r;
  }

  /**
   * The newest `version` any line or live record showed this reader. Before any read, the newest
   * transcript of the last listing is probed (its first MiB) so the answer does not wait for a scan.
   */
  appVersion(): SourceResult<string | null> {
    if (this.newestVersion === null) this.liveSessions();
    if (this.newestVersion === null && this.newestTranscript !== null) {
      const target = this.resolve({ id: this.newestTranscript });
      if (target) {
        readLines(target.file, null, { keep: keepLine, peekBytes: CLASSIFY_PEEK_BYTES, maxBytes: VERSION_PROBE_BYTES }, (line) => {
          if (this.newestVersion !== null) return;
          const obj = parseLineObject(line.toString("utf8"), "", [], this.opts.parse);
          if (obj) this.noteVersion(obj.version);
        });
      }
    }
    return ok(this.newestVersion);
  }

  /**
   * Moves when the install changed since the last listing: before any listing, a new value on
   * every call; after, a poll of the kept listing (TranscriptIndex: directory stamps first, then the
   * files written lately, and a slice of the sweep), the stamp moving only when it found something.
   */
  changeStamp(): SourceResult<string> {
    const polled = this.index.poll();
    if (polled === null) {
      this.stamps++;
      return ok(`${this.stampPrefix}:${this.stamps}`);
    }
    const { changed, removed } = polled.result;
    if (changed.length || removed) this.stamps++;
    for (const ref of changed) this.pending.set(ref.id, ref);
    return ok(`${this.stampPrefix}:${this.stamps}`, polled.warnings);
  }

  changedTranscripts(): { refs: TranscriptRef[]; total: number } | null {
    if (!this.index.ready) return null;
    const refs = [...this.pending.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.pending.clear();
    return { refs, total: this.index.size };
  }

  close(): void {
    // Nothing is held open between calls.
  }
}
