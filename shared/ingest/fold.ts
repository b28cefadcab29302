// Per-transcript totals in the shared vocabulary, folded from normalized activity events. Plain
// numbers so the store can persist them; the scanner adds each batch to the stored row.
import type { ActivityEvent } from "../providers/contract.js";

export interface TranscriptTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  /** Priced cost only; `unpriced` says how many responses had no price. */
  costUsd: number;
  unpriced: number;
  userMessages: number;
  /** Billable responses, each counted once. */
  assistantMessages: number;
  toolCalls: number;
  toolErrors: number;
  /** Failed responses and error incidents. */
  errors: number;
  /** Earliest prompt, response, tool result or incident. */
  firstActivity: number | null;
  /** Latest prompt, response, tool result or incident. */
  lastActivity: number | null;
  /** Earliest event of any kind, the session header included (lifetimeStats.createdAt). */
  firstEvent: number | null;
}

export function emptyTotals(): TranscriptTotals {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    reasoning: 0,
    costUsd: 0,
    unpriced: 0,
    userMessages: 0,
    assistantMessages: 0,
    toolCalls: 0,
    toolErrors: 0,
    errors: 0,
    firstActivity: null,
    lastActivity: null,
    firstEvent: null,
  };
}

/** Widens the transcript's time window by an event's time: any event counts as its first event, only activity as activity. */
export function touch(t: TranscriptTotals, event: ActivityEvent): void {
  const ts = event.ts;
  if (ts === null) return;
  if (t.firstEvent === null || ts < t.firstEvent) t.firstEvent = ts;
  if (event.kind === "meta" || event.kind === "rateLimits") return;
  if (t.firstActivity === null || ts < t.firstActivity) t.firstActivity = ts;
  if (t.lastActivity === null || ts > t.lastActivity) t.lastActivity = ts;
}

export function addTotals(a: TranscriptTotals, b: TranscriptTotals): TranscriptTotals {
  a.input += b.input;
  a.output += b.output;
  a.cacheRead += b.cacheRead;
  a.cacheWrite += b.cacheWrite;
  a.reasoning += b.reasoning;
  a.costUsd += b.costUsd;
  a.unpriced += b.unpriced;
  a.userMessages += b.userMessages;
  a.assistantMessages += b.assistantMessages;
  a.toolCalls += b.toolCalls;
  a.toolErrors += b.toolErrors;
  a.errors += b.errors;
  if (b.firstActivity !== null && (a.firstActivity === null || b.firstActivity < a.firstActivity)) a.firstActivity = b.firstActivity;
  if (b.lastActivity !== null && (a.lastActivity === null || b.lastActivity > a.lastActivity)) a.lastActivity = b.lastActivity;
  if (b.firstEvent !== null && (a.firstEvent === null || b.firstEvent < a.firstEvent)) a.firstEvent = b.firstEvent;
  return a;
}
