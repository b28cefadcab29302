// One session's transcript as structured messages with cursor pagination (spec:
// sessionTranscript). All windows under the session key are read in order, through the agent
// source's reader (interfaces never open OpenClaw files themselves).
import type { AgentSource } from "../ingest/agent-source.js";
import { InsightsError } from "../base/errors.js";
import { iso } from "./time.js";

const DEFAULT_TRANSCRIPT_LIMIT = 50;
const MAX_TRANSCRIPT_LIMIT = 500;

export interface TranscriptMessage {
  id: string;
  cursor: string;
  sessionId: string;
  role: "user" | "assistant" | "toolResult";
  text: string;
  timestamp: string | null;
  model: string | null;
  stopReason: string | null;
  errorMessage: string | null;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  totalTokens: number;
  costUsd: number | null;
  toolCalls: Array<{ id: string | null; name: string | null }>;
  toolName: string | null;
  isError: boolean;
}

export interface PageInfo {
  hasPreviousPage: boolean;
  hasNextPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface SessionTranscript {
  sessionKey: string;
  displayName: string;
  model: string;
  channel: string | null;
  kind: "direct" | "group" | "cron";
  thinkingLevel: string | null;
  startedAt: string;
  fileSize: number;
  totalTokens: number;
  contextTokens: number;
  durationMs: number;
  isSubAgent: boolean;
  parentDisplayName: string | null;
  spawnPrompt: string | null;
  messages: TranscriptMessage[];
  totalMessages: number;
  pageInfo: PageInfo;
}

export interface TranscriptArgs {
  sessionKey: string;
  limit?: number | null;
  before?: string | null;
  after?: string | null;
}

const encodeCursor = (sessionId: string, pos: number): string => Buffer.from(`${sessionId}:${pos}`).toString("base64url");

/** Where the message with this cursor sits; a cursor we did not give out is BAD_USER_INPUT. */
function indexOf(all: TranscriptMessage[], cursor: string, name: string): number {
  if (!/^.+:-?\d+$/.test(Buffer.from(cursor, "base64url").toString("utf8"))) throw new InsightsError("BAD_USER_INPUT", `${name} is not a cursor this API gave out`);
  const at = all.findIndex((m) => m.cursor === cursor);
  if (at < 0) throw new InsightsError("BAD_USER_INPUT", `${name} names a message that is not in this transcript`);
  return at;
}

export function querySessionTranscript(source: AgentSource, args: TranscriptArgs): SessionTranscript {
  if (args.before && args.after) throw new InsightsError("BAD_USER_INPUT", "give before or after, not both");
  const limit = Math.min(MAX_TRANSCRIPT_LIMIT, Math.max(1, args.limit ?? DEFAULT_TRANSCRIPT_LIMIT));
  const snapshot = source.snapshot();
  const record = snapshot.sessions.find((s) => s.key === args.sessionKey);
  if (!record) throw new InsightsError("NOT_FOUND", `no session ${args.sessionKey} in ${source.id}`);
  const reader = source.openReader();
  if (!reader) throw new InsightsError("SOURCE_UNAVAILABLE", `${source.id} is not connected`);

  const all: TranscriptMessage[] = [];
  let fileSize = 0;
  let first: number | null = null;
  let last: number | null = null;
  let startModel: string | null = null;
  let totalTokens = 0;
  for (const transcriptId of record.sessionIds) {
    const read = reader.readMessages({ id: transcriptId, sessionKey: record.key, parentKey: record.parentKey, changeToken: "", sizeBytes: null });
    // A transcript the provider deleted (Claude Code keeps 30 days) leaves its figures, not its messages.
    if (!read.ok) {
      if (read.error.kind === "missing") continue;
      throw new InsightsError("SOURCE_UNAVAILABLE", read.error.message);
    }
    fileSize += read.value.bytes;
    for (const m of read.value.messages) {
      if (m.ts !== null) {
        first = first === null ? m.ts : Math.min(first, m.ts);
        last = last === null ? m.ts : Math.max(last, m.ts);
      }
      if (m.role === "assistant") startModel ??= m.model;
      const u = m.usage;
      const tokens = u ? u.input + u.output + u.cacheRead + u.cacheWrite : 0;
      totalTokens += tokens;
      all.push({
        id: m.id,
        cursor: encodeCursor(transcriptId, m.pos),
        sessionId: transcriptId,
        role: m.role,
        text: m.text,
        timestamp: iso(m.ts),
        model: m.model,
        stopReason: m.stopReason,
        errorMessage: m.errorMessage,
        inputTokens: u?.input ?? 0,
        outputTokens: u?.output ?? 0,
        cacheReadTokens: u?.cacheRead ?? 0,
        cacheWriteTokens: u?.cacheWrite ?? 0,
        totalTokens: tokens,
        costUsd: m.costUsd,
        toolCalls: m.toolCalls,
        toolName: m.toolName,
        isError: m.isError,
      });
    }
  }

  let from: number;
  let to: number;
  if (args.after) {
    from = indexOf(all, args.after, "after") + 1;
    to = Math.min(all.length, from + limit);
  } else {
    to = args.before ? indexOf(all, args.before, "before") : all.length;
    from = Math.max(0, to - limit);
  }
  const page = all.slice(from, to);
  const isSubAgent = record.kind === "subagent";
  const parent = record.parentKey ? snapshot.sessions.find((s) => s.key === record.parentKey) : undefined;
  return {
    sessionKey: record.key,
    displayName: record.displayName,
    model: startModel ?? record.model ?? "unknown",
    channel: record.channel,
    kind: record.kind === "subagent" ? "direct" : record.kind,
    thinkingLevel: record.thinkingLevel,
    startedAt: iso(first ?? record.startedAt ?? record.updatedAt ?? 0) as string,
    fileSize,
    totalTokens,
    contextTokens: record.contextTokens ?? 0,
    durationMs: first !== null && last !== null ? last - first : 0,
    isSubAgent,
    parentDisplayName: isSubAgent ? (parent?.displayName ?? record.parentKey) : null,
    spawnPrompt: isSubAgent ? (all.find((m) => m.role === "user")?.text ?? null) : null,
    messages: page,
    totalMessages: all.length,
    pageInfo: {
      hasPreviousPage: from > 0,
      hasNextPage: to < all.length,
      startCursor: page[0]?.cursor ?? null,
      endCursor: page.at(-1)?.cursor ?? null,
    },
  };
}
