// One session record per session key, whichever era it came from (design §5), and the pure fold
// that turns transcript events into per-session token and message totals.
//
// Token totals are deliberately not taken from the session entry: its inputTokens/outputTokens/
// estimatedCostUsd describe only the latest run (openclaw-formats.md §10). They come from the
// transcripts through `foldEvent`.
import type { SessionKind, SessionRecord } from "../contract.js";
import { asSessionStatus } from "./agent-db.js";
import type { SessionNodeRow, SessionWindowRow } from "./agent-db.js";
import type { LegacySessionEntry } from "./legacy-files.js";
import { findModel } from "./state-dir.js";
import type { ModelTable } from "./state-dir.js";
import type { TranscriptEvent } from "./transcript-event.js";
import type { SourceWarning } from "../result.js";
import { badUsageField, checkCostUsd, checkTokenCount } from "../../base/usage-guard.js";

export type { SessionKind, SessionRecord } from "../contract.js";

type Json = Record<string, unknown>;

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

function minOf(...values: (number | null | undefined)[]): number | null {
  let out: number | null = null;
  for (const v of values) if (typeof v === "number" && Number.isFinite(v) && (out === null || v < out)) out = v;
  return out;
}

/**
 * The kind of a session: its key shape first (`agent:<id>:subagent:…`, `agent:<id>:cron:…`), then
 * `created_via` (spawn / cron), then group-ness (`…:group:…` / `…:channel:…` or `chat_type`), and
 * a session with a parent that is none of these is a sub-agent.
 */
export function sessionKind(key: string, createdVia?: string | null, chatType?: string | null, parentKey?: string | null): SessionKind {
  const parts = key.split(":");
  // parts[0] = "agent", parts[1] = agentId; the shape starts at parts[2].
  const rest = parts[0] === "agent" ? parts.slice(2) : parts;
  if (rest[0] === "subagent") return "subagent";
  if (rest[0] === "cron") return "cron";
  if (createdVia === "spawn") return "subagent";
  if (createdVia === "cron") return "cron";
  if (rest.includes("group") || rest.includes("channel") || chatType === "group" || chatType === "channel") return "group";
  return parentKey ? "subagent" : "direct";
}

/** `agent:<id>:<channel>:group:<id>` / `:channel:<id>` keys carry the channel name. */
function channelFromKey(key: string): string | null {
  const parts = key.split(":");
  if (parts[0] !== "agent" || parts.length < 5) return null;
  return parts[3] === "group" || parts[3] === "channel" ? (parts[2] ?? null) : null;
}

/** What to call a session when nothing names it: the key without its `agent:<id>:` prefix. */
export function fallbackDisplayName(key: string): string {
  const parts = key.split(":");
  return parts[0] === "agent" && parts.length > 2 ? parts.slice(2).join(":") : key;
}

/** A token figure of the session entry through the usage guard: null when missing or refused (warned). */
function entryTokens(entry: Json | null, field: string, where: string, warnings: SourceWarning[] | undefined): number | null {
  const v = entry?.[field];
  if (v === undefined || v === null) return null;
  const c = checkTokenCount(v);
  if (c.problem === null) return c.value;
  warnings?.push(badUsageField(field, c.problem, where));
  return null;
}

function contextOf(entry: Json | null, models: ModelTable, provider: string | null, model: string | null, where: string, warnings?: SourceWarning[]): { contextTokens: number | null; contextWindow: number | null } {
  const table = findModel(models, provider, model)?.contextWindow ?? null;
  // A window from the config is a token count too: an absurd one would make usagePercent absurd.
  const fromTable = table !== null && checkTokenCount(table).problem === null ? table : null;
  return {
    contextTokens: entryTokens(entry, "totalTokens", where, warnings),
    contextWindow: fromTable ?? entryTokens(entry, "contextTokens", where, warnings),
  };
}

/** SQLite era: a `session_nodes` row plus the `session_windows` rows of the same key. */
export function sessionFromNode(agentId: string, node: SessionNodeRow, windows: readonly SessionWindowRow[], models: ModelTable, warnings?: SourceWarning[]): SessionRecord {
  const entry = node.entry;
  const current = windows.find((w) => w.sessionId === node.currentSessionId) ?? windows[windows.length - 1] ?? null;
  const model = str(entry?.model) ?? current?.model ?? null;
  const modelProvider = str(entry?.modelProvider) ?? current?.modelProvider ?? null;
  const parentKey = node.parentSessionKey ?? node.spawnedBy ?? str(entry?.parentSessionKey) ?? str(entry?.spawnedBy) ?? current?.parentSessionKey ?? null;
  const createdVia = node.createdVia ?? str(entry?.createdVia);
  const chatType = current?.chatType ?? str(entry?.chatType);
  const label = node.label ?? str(entry?.label);
  const sessionIds = windows.map((w) => w.sessionId);
  if (node.currentSessionId && !sessionIds.includes(node.currentSessionId)) sessionIds.push(node.currentSessionId);
  return {
    key: node.sessionKey,
    agentId,
    displayName: node.displayName ?? str(entry?.displayName) ?? label ?? current?.displayName ?? fallbackDisplayName(node.sessionKey),
    kind: sessionKind(node.sessionKey, createdVia, chatType, parentKey),
    model,
    modelProvider,
    channel: current?.channel ?? str(entry?.channel) ?? str(entry?.lastChannel) ?? channelFromKey(node.sessionKey),
    // Cron keys leave the node status NULL; the latest window then says how the last run went.
    status: node.status ?? current?.status ?? asSessionStatus(entry?.status),
    ...contextOf(entry, models, modelProvider, model, `session_nodes:${node.sessionKey}`, warnings),
    startedAt: minOf(node.createdAt, ...windows.map((w) => w.createdAt)) ?? num(entry?.sessionStartedAt) ?? num(entry?.startedAt),
    updatedAt: node.updatedAt,
    lastActivityAt: node.lastActivityAt ?? num(entry?.lastActivityAt),
    parentKey,
    currentSessionId: node.currentSessionId,
    sessionIds,
    label,
    thinkingLevel: str(entry?.thinkingLevel),
    createdVia,
    archived: node.archivedAt !== null,
    project: null,
    gitBranch: null,
  };
}

/** File era: one `sessions.json` entry; only its current sessionId is known. */
export function sessionFromLegacyEntry(agentId: string, item: LegacySessionEntry, models: ModelTable, warnings?: SourceWarning[]): SessionRecord {
  const { key, entry } = item;
  const model = str(entry.model);
  const modelProvider = str(entry.modelProvider) ?? str(entry.provider);
  const parentKey = str(entry.parentSessionKey) ?? str(entry.spawnedBy);
  const createdVia = str(entry.createdVia);
  const label = str(entry.label);
  const sessionId = str(entry.sessionId);
  return {
    key,
    agentId,
    displayName: str(entry.displayName) ?? label ?? fallbackDisplayName(key),
    kind: sessionKind(key, createdVia, str(entry.chatType), parentKey),
    model,
    modelProvider,
    channel: str(entry.channel) ?? str(entry.lastChannel) ?? channelFromKey(key),
    status: asSessionStatus(entry.status),
    ...contextOf(entry, models, modelProvider, model, `sessions.json:${key}`, warnings),
    startedAt: num(entry.createdAt) ?? num(entry.sessionStartedAt) ?? num(entry.startedAt),
    updatedAt: num(entry.updatedAt),
    lastActivityAt: num(entry.lastActivityAt),
    parentKey,
    currentSessionId: sessionId,
    sessionIds: sessionId ? [sessionId] : [],
    label,
    thinkingLevel: str(entry.thinkingLevel),
    createdVia,
    archived: num(entry.archivedAt) !== null,
    project: null,
    gitBranch: null,
  };
}

/** Totals of one transcript (or of several folded into one). Plain numbers so the store can persist them. */
export interface SessionTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costUsd: number;
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  /** Assistant messages that ended with stopReason "error". */
  errors: number;
  /** Earliest and latest message (user, assistant, tool result). */
  firstActivity: number | null;
  lastActivity: number | null;
  /** Earliest event of any type: the transcript's `session` header comes before its first message. */
  firstEvent: number | null;
}

export function emptyTotals(): SessionTotals {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    costUsd: 0,
    userMessages: 0,
    assistantMessages: 0,
    toolCalls: 0,
    errors: 0,
    firstActivity: null,
    lastActivity: null,
    firstEvent: null,
  };
}

/**
 * Adds one event to `totals` in place (no allocation per event). Cost is the recorded
 * `usage.cost.total`; only when none was recorded is it priced from the config's model table,
 * as the gateway's own reports do.
 */
export function foldEvent(totals: SessionTotals, event: TranscriptEvent, models?: ModelTable): SessionTotals {
  const ts = event.ts;
  if (ts !== null && (totals.firstEvent === null || ts < totals.firstEvent)) totals.firstEvent = ts;
  switch (event.kind) {
    case "user":
      totals.userMessages++;
      break;
    case "assistant": {
      totals.assistantMessages++;
      totals.toolCalls += event.toolCalls.length;
      if (event.stopReason === "error") totals.errors++;
      const u = event.usage;
      if (u) {
        totals.input += u.input;
        totals.output += u.output;
        totals.cacheRead += u.cacheRead;
        totals.cacheWrite += u.cacheWrite;
        if (u.costUsd !== null) totals.costUsd += u.costUsd;
        else if (models) {
          const cost = findModel(models, event.provider, event.model)?.cost;
          // Priced from the config's table: an absurd price there must not poison the sum either.
          if (cost) totals.costUsd += checkCostUsd((u.input * cost.input + u.output * cost.output + u.cacheRead * cost.cacheRead + u.cacheWrite * cost.cacheWrite) / 1e6).value ?? 0;
        }
      }
      break;
    }
    case "toolResult":
      break;
    default:
      // Headers, model/thinking changes and custom events are bookkeeping, not activity.
      return totals;
  }
  if (ts !== null) {
    if (totals.firstActivity === null || ts < totals.firstActivity) totals.firstActivity = ts;
    if (totals.lastActivity === null || ts > totals.lastActivity) totals.lastActivity = ts;
  }
  return totals;
}

export function foldEvents(events: Iterable<TranscriptEvent>, totals: SessionTotals = emptyTotals(), models?: ModelTable): SessionTotals {
  for (const e of events) foldEvent(totals, e, models);
  return totals;
}

/** Adds `b` into `a` (e.g. every window of one key); returns `a`. */
export function addTotals(a: SessionTotals, b: SessionTotals): SessionTotals {
  a.input += b.input;
  a.output += b.output;
  a.cacheRead += b.cacheRead;
  a.cacheWrite += b.cacheWrite;
  a.costUsd += b.costUsd;
  a.userMessages += b.userMessages;
  a.assistantMessages += b.assistantMessages;
  a.toolCalls += b.toolCalls;
  a.errors += b.errors;
  if (b.firstActivity !== null && (a.firstActivity === null || b.firstActivity < a.firstActivity)) a.firstActivity = b.firstActivity;
  if (b.lastActivity !== null && (a.lastActivity === null || b.lastActivity > a.lastActivity)) a.lastActivity = b.lastActivity;
  if (b.firstEvent !== null && (a.firstEvent === null || b.firstEvent < a.firstEvent)) a.firstEvent = b.firstEvent;
  return a;
}
