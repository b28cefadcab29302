// Sessions of a provider with no session index of its own (Claude Code, Codex): built from what
// the transcripts said, as the scanner kept it in session_meta. They outlive their files.
import type { LiveSession, SessionRecord } from "../sources/contract.js";
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

export function storedSessions(store: Store, sourceId: string, localId: string, live: readonly LiveSession[]): SessionRecord[] {
  const rows = store.db
    .prepare(
      `SELECT m.session_key, m.parent_key, m.title, m.first_prompt, m.project, m.git_branch, m.model, m.context_tokens, m.context_window,
              m.thinking_level, m.started_at, m.last_activity, m.failed,
              (SELECT json_group_array(t.session_id) FROM transcript_totals t WHERE t.source_id = m.source_id AND t.session_key = m.session_key) AS transcripts
       FROM session_meta m WHERE m.source_id = ?`,
    )
    .all(sourceId) as MetaRow[];
  const liveKeys = new Set(live.map((l) => l.sessionKey));
  return rows.map((r) => ({
    key: r.session_key,
    agentId: localId,
    displayName: displayName(r),
    kind: r.parent_key ? "subagent" : "direct",
    model: r.model,
    modelProvider: null,
    channel: null,
    status: liveKeys.has(r.session_key) ? "running" : r.failed ? "failed" : null,
    contextTokens: r.context_tokens,
    contextWindow: r.context_window,
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
  }));
}
