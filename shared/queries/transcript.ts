// One session's transcript as structured messages with cursor pagination (spec:
// sessionTranscript). All windows under the session key are read in order, through the agent
// source's reader (interfaces never open OpenClaw files themselves).
import type { AgentSource } from "../ingest/agent-source.js";
import { InsightsError } from "../errors.js";
import type { TranscriptCursor } from "../sources/openclaw/agent-data.js";
import { eventText, type TranscriptEvent } from "../sources/openclaw/transcript-event.js";
import { iso } from "./time.js";

export const DEFAULT_TRANSCRIPT_LIMIT = 50;
export const MAX_TRANSCRIPT_LIMIT = 500;

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
  if (!/^[^:]+:-?\d+$/.test(Buffer.from(cursor, "base64url").toString("utf8"))) throw new InsightsError("BAD_USER_INPUT", `${name} is not a cursor this API gave out`);
  const at = all.findIndex((m) => m.cursor === cursor);
  if (at < 0) throw new InsightsError("BAD_USER_INPUT", `${name} names a message that is not in this transcript`);
  return at;
}

/** Reads every event of one transcript in batches. */
function readAll(source: AgentSource, sessionId: string): { events: TranscriptEvent[]; bytes: number } {
  const reader = source.reader();
  if (!reader) throw new InsightsError("SOURCE_UNAVAILABLE", `${source.id} is not connected`);
  const events: TranscriptEvent[] = [];
  let bytes = 0;
  let cursor: TranscriptCursor | null = null;
  for (let guard = 0; guard < 100_000; guard++) {
    const read = reader.readTranscript({ sessionId }, cursor, 1000);
    if (!read.ok) throw new InsightsError("SOURCE_UNAVAILABLE", read.error.message);
    for (const e of read.value.events) {
      events.push(e);
      bytes += Buffer.byteLength(JSON.stringify(e.raw)) + 1;
    }
    cursor = read.value.cursor;
    if (read.value.done) break;
  }
  return { events, bytes };
}

export function querySessionTranscript(source: AgentSource, args: TranscriptArgs): SessionTranscript {
  if (args.before && args.after) throw new InsightsError("BAD_USER_INPUT", "give before or after, not both");
  const limit = Math.min(MAX_TRANSCRIPT_LIMIT, Math.max(1, args.limit ?? DEFAULT_TRANSCRIPT_LIMIT));
  const snapshot = source.snapshot();
  const record = snapshot.sessions.find((s) => s.key === args.sessionKey);
  if (!record) throw new InsightsError("NOT_FOUND", `no session ${args.sessionKey} in ${source.id}`);

  const all: TranscriptMessage[] = [];
  let fileSize = 0;
  let first: number | null = null;
  let last: number | null = null;
  let startModel: string | null = null;
  let thinkingLevel: string | null = null;
  let totalTokens = 0;
  for (const sessionId of record.sessionIds) {
    const { events, bytes } = readAll(source, sessionId);
    fileSize += bytes;
    for (const e of events) {
      if (e.ts !== null) {
        first = first === null ? e.ts : Math.min(first, e.ts);
        last = last === null ? e.ts : Math.max(last, e.ts);
      }
      if (e.kind === "model_change") startModel ??= e.modelId;
      if (e.kind === "thinking_level_change") thinkingLevel ??= e.thinkingLevel;
      if (e.kind !== "user" && e.kind !== "assistant" && e.kind !== "toolResult") continue;
      const usage = e.kind === "assistant" ? e.usage : null;
      if (e.kind === "assistant") startModel ??= e.model;
      const tokens = usage ? usage.input + usage.output + usage.cacheRead + usage.cacheWrite : 0;
      totalTokens += tokens;
      all.push({
        id: e.id ?? `${sessionId}:${e.pos}`,
        cursor: encodeCursor(sessionId, e.pos),
        sessionId,
        role: e.kind,
        text: eventText(e),
        timestamp: iso(e.ts),
        model: e.kind === "assistant" ? e.model : null,
        stopReason: e.kind === "assistant" ? e.stopReason : null,
        errorMessage: e.kind === "assistant" ? e.errorMessage : null,
        inputTokens: usage?.input ?? 0,
        outputTokens: usage?.output ?? 0,
        cacheReadTokens: usage?.cacheRead ?? 0,
        cacheWriteTokens: usage?.cacheWrite ?? 0,
        totalTokens: tokens,
        costUsd: usage?.costUsd ?? null,
        toolCalls: e.kind === "assistant" ? e.toolCalls.map((c) => ({ id: c.id, name: c.name })) : [],
        toolName: e.kind === "toolResult" ? e.toolName : null,
        isError: e.kind === "toolResult" ? e.isError : e.kind === "assistant" && e.stopReason === "error",
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
    thinkingLevel: thinkingLevel ?? record.thinkingLevel,
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
