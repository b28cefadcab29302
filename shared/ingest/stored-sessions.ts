// Sessions of a provider with no session index of its own (Claude Code, Codex): built from what
// the transcripts said, as the scanner kept it in session_meta. They outlive their files.
import type { LiveSession, SessionRecord } from "../providers/contract.js";
import type { Statement } from "better-sqlite3";
import type { Store } from "../store/store.js";

interface MetaRow {
  session_key: string;
  parent_key: string | null;
  title: string | null;
  first_prompt: string | null;
  project: string | null;
  git_branch: string | null;
  model: string | null;
  context_tokens: number | null;
  context_window: number | null;
  thinking_level: string | null;
  started_at: number | null;
  last_activity: number | null;
  failed: number;
  transcripts: string | null;
}

/** A display name short enough for a list row: the title, else the first prompt, else the key. */
function displayName(r: MetaRow): string {
  const text = (r.title ?? r.first_prompt ?? "").replace(/\s+/g, " ").trim();
  if (!text) return r.session_key;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

const COLUMNS = `m.session_key, m.parent_key, m.title, m.first_prompt, m.project, m.git_branch, m.model, m.context_tokens, m.context_window,
  m.thinking_level, m.started_at, m.last_activity, m.failed,
  (SELECT json_group_array(t.session_id) FROM transcript_totals t WHERE t.source_id = m.source_id AND t.session_key = m.session_key) AS transcripts`;

/** A model's context window in tokens, or null when unknown. */
type WindowOf = (model: string) => number | null;

/**
 * The window the transcript recorded (Codex), else the model's (Claude Code records none). A prompt
 * larger than the model's listed window proves a larger one is in use (Anthropic's 1M-token beta
 * keeps the model id), so the share is left unknown rather than shown above 100%.
 */
function windowFor(r: MetaRow, windowOf: WindowOf): number | null {
  if (r.context_window !== null) return r.context_window;
  if (r.model === null || r.context_tokens === null) return null;
  const window = windowOf(r.model);
  return window !== null && r.context_tokens <= window ? window : null;
}

function toRecord(r: MetaRow, localId: string, liveKeys: ReadonlySet<string>, windowOf: WindowOf): SessionRecord {
  return {
    key: r.session_key,
    agentId: localId,
    displayName: displayName(r),
    kind: r.parent_key ? "subagent" : "direct",
    model: r.model,
    modelProvider: null,
    channel: null,
    status: liveKeys.has(r.session_key) ? "running" : r.failed ? "failed" : null,
    contextTokens: r.context_tokens,
    contextWindow: windowFor(r, windowOf),
    startedAt: r.started_at,
    updatedAt: r.last_activity,
    lastActivityAt: r.last_activity,
    parentKey: r.parent_key,
    currentSessionId: null,
    sessionIds: r.transcripts ? (JSON.parse(r.transcripts) as string[]) : [],
    label: null,
    thinkingLevel: r.thinking_level,
    createdVia: null,
    archived: false,
    project: r.project,
    gitBranch: r.git_branch,
  };
}

/** Rows read (and records built) between two turns of the event loop. */
const CHUNK = 500;
/**
 * Two hops through setImmediate: whatever phase the caller ran in, a whole turn of the loop (its
 * timers, then its I/O poll) passes before the work goes on.
 */
const yieldToLoop = async (): Promise<void> => {
  for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/**
 * The stored sessions of one source, kept between refreshes. Reading and building all of them
 * costs ~10 ms per 1,000 sessions; it ran on every refresh (every 2 s, and before each usage
 * report) in one block of the event loop. Here only the sessions a scan changed are read again,
 * in chunks with a turn of the loop between them, and an index where nothing changed hands back
 * the same array.
 */
export class StoredSessionIndex {
  private readonly byKey = new Map<string, { row: MetaRow; record: SessionRecord }>();
  private loaded = false;
  private list: SessionRecord[] = [];
  /** Keys in order, or null after a key was added. */
  private order: string[] | null = [];
  /** The live keys the records were built with. */
  private liveKeys: ReadonlySet<string> = new Set();
  private stmts: { page: Statement<[string, string], MetaRow>; one: Statement<[string, string], MetaRow> } | null = null;
  private stmtsDb: object | null = null;

  constructor(
    private readonly store: Store,
    private readonly sourceId: string,
    private readonly localId: string,
    /** The provider's model windows (Claude Code's come from the price data set). */
    private readonly windowOf: WindowOf,
  ) {}

  private statements(): NonNullable<StoredSessionIndex["stmts"]> {
    // Statements belong to one connection; the store's changes when its file was recreated.
    if (this.stmtsDb !== this.store.db) this.stmts = null;
    this.stmtsDb = this.store.db;
    this.stmts ??= {
      page: this.store.db.prepare(`SELECT ${COLUMNS} FROM session_meta m WHERE m.source_id = ? AND m.session_key > ? ORDER BY m.session_key LIMIT ${CHUNK}`),
      one: this.store.db.prepare(`SELECT ${COLUMNS} FROM session_meta m WHERE m.source_id = ? AND m.session_key = ?`),
    };
    return this.stmts;
  }

  private put(row: MetaRow): void {
    if (!this.byKey.has(row.session_key)) this.order = null;
    this.byKey.set(row.session_key, { row, record: toRecord(row, this.localId, this.liveKeys, this.windowOf) });
  }

  /**
   * Reads the sessions whose keys a scan reported (all of them the first time, or when most
   * changed), marks the running ones, and returns them sorted by key; `changed` is false, and the
   * array the same as last time, when nothing in it changed.
   */
  async refresh(changedKeys: ReadonlySet<string>, live: readonly LiveSession[]): Promise<{ sessions: readonly SessionRecord[]; changed: boolean }> {
    const { page, one } = this.statements();
    let changed = false;
    if (!this.loaded || changedKeys.size > this.byKey.size / 2) {
      let after = "";
      for (;;) {
        const rows = page.all(this.sourceId, after);
        for (const r of rows) this.put(r);
        if (rows.length < CHUNK) break;
        after = (rows[rows.length - 1] as MetaRow).session_key;
        await yieldToLoop();
      }
      this.loaded = true;
      changed = true;
    } else {
      let n = 0;
      for (const key of changedKeys) {
        const r = one.get(this.sourceId, key);
        if (r) {
          this.put(r);
          changed = true;
        }
        if (++n % CHUNK === 0) await yieldToLoop();
      }
    }
    // A session started or stopped running: only its record is built again.
    const liveKeys = new Set(live.map((l) => l.sessionKey));
    const flipped = [...liveKeys].filter((k) => !this.liveKeys.has(k)).concat([...this.liveKeys].filter((k) => !liveKeys.has(k)));
    this.liveKeys = liveKeys;
    for (const k of flipped) {
      const e = this.byKey.get(k);
      if (e) {
        e.record = toRecord(e.row, this.localId, liveKeys, this.windowOf);
        changed = true;
      }
    }
    if (changed) {
      this.order ??= [...this.byKey.keys()].sort();
      this.list = this.order.map((k) => (this.byKey.get(k) as { record: SessionRecord }).record);
    }
    return { sessions: this.list, changed };
  }
}
