// OpenClaw as a provider adapter: one agent's data (either storage era, agent-data.ts) seen
// through the provider-neutral reader contract. Its events become activity events, its session
// index stays its own (the gateway knows its sessions; transcripts alone would not).
import type { ActivityEvent, SourceReader, TranscriptMessageRecord, TranscriptRef as ContractRef } from "../contract.js";
import { fail, ok, type SourceResult } from "../result.js";
import type { AgentData, TranscriptCursor, TranscriptRef } from "./agent-data.js";
import { eventText, type TranscriptEvent } from "./transcript-event.js";

/** One OpenClaw transcript event as the core sees it; bookkeeping events only mark time. */
function toActivity(e: TranscriptEvent): ActivityEvent {
  switch (e.kind) {
    case "user":
      return { kind: "prompt", ts: e.ts, pos: e.pos };
    case "assistant": {
      const u = e.usage;
      return {
        kind: "response",
        ts: e.ts,
        pos: e.pos,
        // One event per message: nothing to de-duplicate.
        key: null,
        model: e.model,
        modelProvider: e.provider,
        usage: u ? { input: u.input, output: u.output, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite, cacheWrite1h: 0, reasoning: 0 } : null,
        costUsd: u?.costUsd ?? null,
        toolCalls: e.toolCalls.length,
        error: e.stopReason === "error" ? (e.errorMessage ?? "error") : null,
      };
    }
    case "toolResult":
      return { kind: "toolResult", ts: e.ts, pos: e.pos, isError: e.isError };
    case "model_change":
      return { kind: "meta", ts: e.ts, pos: e.pos, patch: {} };
    case "thinking_level_change":
      return { kind: "meta", ts: e.ts, pos: e.pos, patch: e.thinkingLevel ? { thinkingLevel: e.thinkingLevel } : {} };
    default:
      // The session header, compactions and custom entries: activity in time, nothing to count.
      return { kind: "meta", ts: e.ts, pos: e.pos, patch: {} };
  }
}

/** The transcript view's messages of one window, with the model and thinking level it started with. */
function toMessages(sessionId: string, events: readonly TranscriptEvent[]): TranscriptMessageRecord[] {
  const out: TranscriptMessageRecord[] = [];
  for (const e of events) {
    if (e.kind !== "user" && e.kind !== "assistant" && e.kind !== "toolResult") continue;
    const u = e.kind === "assistant" ? e.usage : null;
    out.push({
      id: e.id ?? `${sessionId}:${e.pos}`,
      pos: e.pos,
      role: e.kind,
      text: eventText(e),
      ts: e.ts,
      model: e.kind === "assistant" ? e.model : null,
      stopReason: e.kind === "assistant" ? e.stopReason : null,
      errorMessage: e.kind === "assistant" ? e.errorMessage : null,
      usage: u ? { input: u.input, output: u.output, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite, cacheWrite1h: 0, reasoning: 0 } : null,
      costUsd: u?.costUsd ?? null,
      toolCalls: e.kind === "assistant" ? e.toolCalls.map((c) => ({ id: c.id, name: c.name })) : [],
      toolName: e.kind === "toolResult" ? e.toolName : null,
      isError: e.kind === "toolResult" ? e.isError : e.kind === "assistant" && e.stopReason === "error",
    });
  }
  return out;
}

function isCursor(v: unknown): v is TranscriptCursor {
  if (typeof v !== "object" || v === null) return false;
  const c = v as Record<string, unknown>;
  return (c.era === "sqlite" && typeof c.afterSeq === "number") || (c.era === "files" && typeof c.offset === "number" && typeof c.inode === "number" && typeof c.size === "number");
}

/** Reads every event of one window (the transcript view; bounded by the agent's own store). */
function readAllEvents(data: AgentData, sessionId: string): SourceResult<{ events: TranscriptEvent[]; bytes: number }> {
  const events: TranscriptEvent[] = [];
  let bytes = 0;
  let cursor: TranscriptCursor | null = null;
  for (let guard = 0; guard < 100_000; guard++) {
    const read = data.readTranscript({ sessionId }, cursor, 1000);
    if (!read.ok) return fail(read.error, read.warnings);
    for (const e of read.value.events) {
      events.push(e);
      bytes += Buffer.byteLength(JSON.stringify(e.raw)) + 1;
    }
    cursor = read.value.cursor;
    if (read.value.done) break;
  }
  return ok({ events, bytes });
}

/** Contract refs by the agent reader's ref: the agent reader keeps a ref object while it is unchanged. */
const contractRefs = new WeakMap<TranscriptRef, ContractRef>();

function toRefs(listed: SourceResult<TranscriptRef[]>): SourceResult<ContractRef[]> {
  if (!listed.ok) return listed;
  const refs: ContractRef[] = listed.value.map((r) => {
    let c = contractRefs.get(r);
    if (!c) contractRefs.set(r, (c = { id: r.sessionId, sessionKey: r.sessionKey, parentKey: null, changeToken: r.changeToken, sizeBytes: r.sizeBytes }));
    return c;
  });
  return ok(refs, listed.warnings);
}

export function openclawReader(data: AgentData): SourceReader {
  const paced = data.listTranscriptsPaced?.bind(data);
  return {
    listSessions: () => data.listSessions(),
    listTranscripts: () => toRefs(data.listTranscripts()),
    // The file era lists in stretches (a stat per file, a walk of sessions.json) so a first scan does not hold the loop.
    ...(paced ? { listTranscriptsPaced: async (pause: () => Promise<void>) => toRefs(await paced(pause)) } : {}),
    // The file era can name the transcripts a watch event saw; the SQLite era cannot (one database).
    ...(data.transcriptsAt
      ? {
          transcriptsAt: (paths: readonly string[]) => {
            const found = data.transcriptsAt?.(paths) ?? null;
            return found && toRefs(found);
          },
        }
      : {}),
    readTranscript: (ref, cursor, limit) => {
      // A stored cursor that is not this reader's shape reads from the start (and says so).
      const read = data.readTranscript({ sessionId: ref.id }, isCursor(cursor) ? cursor : null, limit);
      if (!read.ok) return read;
      const b = read.value;
      return ok({ events: b.events.map(toActivity), cursor: b.cursor, done: b.done, restarted: b.restarted || (cursor !== null && !isCursor(cursor)) }, read.warnings);
    },
    readMessages: (ref) => {
      const all = readAllEvents(data, ref.id);
      if (!all.ok) return all;
      return ok({ messages: toMessages(ref.id, all.value.events), bytes: all.value.bytes }, all.warnings);
    },
    liveSessions: () => ok([]),
    appVersion: () => data.appVersion(),
    changeStamp: () => data.changeStamp(),
    releaseMemory: (atRest) => data.releaseMemory?.(atRest),
    close: () => data.close(),
  };
}
