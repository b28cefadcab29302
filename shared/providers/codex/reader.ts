// The Codex adapter (design §9, contract.ts): one reader per CODEX_HOME. Rollouts are read
// incrementally with the streaming line reader; lines the reader never uses (instructions,
// context snapshots, compaction history, reasoning, model messages) are skipped from their first
// bytes without being built or parsed (classify.ts). The cursor holds the line cursor plus the
// parser's small state (line.ts), so a restarted daemon resumes mid-file. Nothing in CODEX_HOME is
// written: no SQLite file is opened here (the rollouts are the record; state_5.sqlite would only be
// an index, and even a read-only open of a WAL database creates -wal/-shm files beside it).
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ActivityBatch, Install, LiveSession, SourceReader, TranscriptMessageRecord, TranscriptRef } from "../contract.js";
import { openReaderIn } from "../jsonl/open-reader.js";
import { readEventLines, readWholeFile } from "../jsonl/batch.js";
import { DEFAULT_LINE_READ_BYTES, parseContextCursor, type ContextCursor } from "../jsonl/line-reader.js";
import { compareVersions } from "../version-order.js";
import type { LineCursor } from "../jsonl/line-reader.js";
import { SourceError, fail, ok } from "../result.js";
import type { SourceResult, SourceWarning } from "../result.js";
import { CLASSIFY_PEEK_BYTES, keepActivityHead, keepMessageLine, readHead, type LineHead } from "./classify.js";
import { isSessionId, listRolloutFiles, listRolloutFilesPaced, pickRollouts, sessionIdOfName, transcriptRefs } from "./files.js";
import type { RolloutFile } from "./files.js";
import { withoutInstructions } from "./instructions.js";
import { cliVersionOf, countToolCall, lineEvents, newLineContext, restoreContext, serializeContext } from "./line.js";
import type { CodexLineContext } from "./line.js";
import { defaultLiveProbe, readLiveSessions, sessionMetaOf } from "./live.js";
import type { LiveProbe } from "./live.js";
import { MessageCollector } from "./messages.js";
import { isToolCallType, parseLineObject } from "./shape.js";

export interface CodexReaderOptions {
  /** Lock probes for live sessions (tests inject them). */
  probe?: Partial<LiveProbe>;
  /** Bytes read per readTranscript call at most (a longer line is still finished); default 4 MiB. */
  maxBytes?: number;
  /** JSON parser for kept lines (default JSON.parse); tests count calls through it. */
  parse?: (text: string) => unknown;
}

export const DEFAULT_EVENT_LIMIT = 1000;

/** Opens the reader for one install; a dir that is not there is `missing`. */
export function openCodexReader(install: Install, opts: CodexReaderOptions = {}): SourceResult<SourceReader> {
  return openReaderIn(install.dir, () => new CodexReader(install.dir, opts));
}

class CodexReader implements SourceReader {
  private readonly probe: LiveProbe;
  /** session id -> the file listed for it, from the last listing. */
  private files = new Map<string, RolloutFile>();
  private newestVersion: string | null = null;
  private readonly stampPrefix = randomUUID();
  private stamps = 0;

  constructor(
    private readonly dir: string,
    private readonly opts: CodexReaderOptions,
  ) {
    this.probe = { ...defaultLiveProbe, ...opts.probe };
  }

  private noteVersion(v: string | null): void {
    if (v === null || v === this.newestVersion) return;
    if (this.newestVersion === null || compareVersions(v, this.newestVersion) > 0) this.newestVersion = v;
  }

  listTranscripts(): SourceResult<TranscriptRef[]> {
    return this.listed(listRolloutFiles(this.dir));
  }

  async listTranscriptsPaced(pause: () => Promise<void>): Promise<SourceResult<TranscriptRef[]>> {
    return this.listed(await listRolloutFilesPaced(this.dir, pause));
  }

  private listed(r: SourceResult<RolloutFile[]>): SourceResult<TranscriptRef[]> {
    if (!r.ok) return r;
    this.files = pickRollouts(r.value);
    return ok(transcriptRefs(this.files), r.warnings);
  }

  /**
   * The rollouts at these absolute paths (files a watch event named), as listTranscripts would give
   * them now. Only a file the last listing chose for its session, still there and not smaller, is
   * answered here: a new session's file, another copy of a session, or a chosen file that shrank
   * could change which copy the listing picks (the header of files.ts), so those are null, as are
   * paths that are not rollouts (the caller lists everything). A chosen file that is gone gives no
   * ref; the next full listing drops it or picks another copy.
   */
  transcriptsAt(paths: readonly string[]): SourceResult<TranscriptRef[]> | null {
    const found = new Map<string, RolloutFile>();
    const warnings: SourceWarning[] = [];
    for (const p of paths) {
      const sessionId = sessionIdOfName(path.basename(p));
      if (sessionId === null) return null;
      const known = this.files.get(sessionId);
      if (!known || path.resolve(known.abs) !== path.resolve(p)) return null;
      let st: fs.Stats | undefined;
      try {
        st = fs.statSync(known.abs, { throwIfNoEntry: false });
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (code !== "ENOENT" && code !== "ENOTDIR") warnings.push({ code: "BAD_ROW", message: (err as Error).message, where: known.abs });
        continue;
      }
      if (!st?.isFile()) continue;
      if (st.size < known.stat.size) return null;
      found.set(sessionId, { ...known, stat: st });
    }
    // Kept for readTranscript and appVersion, as a listing would.
    for (const [id, f] of found) this.files.set(id, f);
    return ok(transcriptRefs(found), warnings);
  }

  /** The file of a transcript id; ids are session uuids, checked before any path is built from them. */
  private fileOf(id: string): RolloutFile | null {
    if (!isSessionId(id)) return null;
    const known = this.files.get(id);
    if (known) return known;
    // Not in the last listing (a new session, or no listing yet in this process): list again.
    this.listTranscripts();
    return this.files.get(id) ?? null;
  }

  /**
   * Events after `cursor` (a CodexCursor; null or anything malformed = from the start, then
   * `restarted`), at most about `limit`: reading stops at the first line boundary after the limit,
   * and the cursor points at the first line not turned into events.
   */
  readTranscript(ref: TranscriptRef, cursor: unknown, limit: number): SourceResult<ActivityBatch> {
    const file = this.fileOf(ref.id);
    if (!file) return fail(new SourceError("missing", `${ref.id}: no Codex rollout for this session`, { where: ref.id }));
    const max = Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : DEFAULT_EVENT_LIMIT;
    const stored = cursor === null || cursor === undefined ? null : parseContextCursor(cursor, restoreContext);
    let restarted = cursor !== null && cursor !== undefined && stored === null;
    let start = stored?.line ?? null;
    let ctx = stored?.ctx ?? newLineContext();
    // A replaced or truncated file restarts at 0, and the parser state must restart with it: the
    // lines then came with a stale state, so they are read again from scratch.
    for (let attempt = 0; ; attempt++) {
      const read = this.readEvents(file.abs, start, ctx, max);
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

  private readEvents(file: string, start: LineCursor | null, ctx: CodexLineContext, max: number): SourceResult<ActivityBatch> {
    // readLines asks `keep` about a line before it hands that line over: the head says which kept
    // line is a session_meta, whose instructions are not parsed (instructions.ts), and which is a
    // tool call, counted from its head alone: the call is all line.ts takes from it.
    let head: LineHead | null = null;
    const keep = (bytes: Buffer): boolean => {
      head = readHead(bytes);
      return keepActivityHead(head);
    };
    const options = { keep, peekBytes: CLASSIFY_PEEK_BYTES, maxBytes: this.opts.maxBytes ?? DEFAULT_LINE_READ_BYTES };
    const r = readEventLines(file, start, options, max, (line, pos, where, events, warnings) => {
      const h = head as LineHead | null;
      if (h !== null && h.type === "response_item" && isToolCallType(h.sub)) {
        countToolCall(ctx);
        return;
      }
      const obj = parseLineObject(h?.type === "session_meta" ? withoutInstructions(line) : line.toString("utf8"), where, warnings, this.opts.parse);
      if (!obj) return;
      this.noteVersion(cliVersionOf(obj));
      for (const e of lineEvents(obj, pos, where, ctx, warnings)) events.push(e);
    });
    if (!r.ok) return r;
    const out: ContextCursor = { v: 1, line: r.value.cursor, ctx: serializeContext(ctx) };
    return ok({ ...r.value, cursor: out }, r.warnings);
  }

  /** Every message of one transcript, in file order; `bytes` is the file size. */
  readMessages(ref: TranscriptRef): SourceResult<{ messages: TranscriptMessageRecord[]; bytes: number }> {
    const file = this.fileOf(ref.id);
    if (!file) return fail(new SourceError("missing", `${ref.id}: no Codex rollout for this session`, { where: ref.id }));
    const options = { keep: keepMessageLine, peekBytes: CLASSIFY_PEEK_BYTES };
    const r = readWholeFile(file.abs, options, () => new MessageCollector(), (collector, line, pos, where, warnings) => {
      const obj = parseLineObject(line.toString("utf8"), where, warnings, this.opts.parse);
      if (!obj) return;
      this.noteVersion(cliVersionOf(obj));
      collector.add(obj, pos, where, warnings);
    });
    return r.ok ? ok({ messages: r.value.state.finish(), bytes: r.value.bytes }, r.warnings) : r;
  }

  liveSessions(): SourceResult<LiveSession[]> {
    const r = readLiveSessions(this.dir, (id) => this.fileOf(id)?.abs ?? null, this.probe);
    if (r.ok) for (const s of r.value) this.noteVersion(s.cliVersion);
    return r;
  }

  /**
   * The newest `cli_version` any session_meta showed this reader. Before any read, the newest
   * rollout of a listing is probed (its first line) so the answer does not wait for a scan.
   */
  appVersion(): SourceResult<string | null> {
    if (this.newestVersion === null) {
      if (this.files.size === 0) this.listTranscripts();
      let newest: RolloutFile | null = null;
      for (const f of this.files.values()) if (newest === null || f.stat.mtimeMs > newest.stat.mtimeMs) newest = f;
      if (newest) this.noteVersion(sessionMetaOf(newest.abs).cliVersion);
    }
    return ok(this.newestVersion);
  }

  /**
   * A new value on every call, so the core never skips a pass. A cheap stamp that is also correct
   * does not exist here: a resume appends to a rollout in an old date folder, which changes only
   * that file's mtime (not its folder's), so only stat-ing every rollout, which listTranscripts
   * does anyway, sees it. The per-transcript changeToken is what spares re-reading unchanged files.
   */
  changeStamp(): SourceResult<string> {
    this.stamps++;
    return ok(`${this.stampPrefix}:${this.stamps}`);
  }

  close(): void {
    // Nothing is held open between calls.
  }
}
