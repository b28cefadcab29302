// OpenClaw 2026.9.6 transcript events, built in the shapes a real gateway writes them
// (openclaw-formats.md §3, checked against the recorded rows of shared/demo/openclaw-state): the
// key order, the `__openclaw` run markers, `usage` with per-part `cost`. The demo generator and the
// live replay both write through these, so the demo's rows read like the recording's.

/** The model the demo's agent "uses": a real catalog model at its list prices (USD per 1M tokens). */
export const DEMO_MODEL = {
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  name: "Claude Sonnet 4.5",
  api: "anthropic-messages",
  rates: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  contextWindow: 200_000,
  maxTokens: 8192,
} as const;

export interface TokenCounts {
  /** Prompt tokens not read from the cache (OpenClaw's `usage.input`). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

interface UsageJson extends TokenCounts {
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

/** `usage` as OpenClaw stores it: tokens × rate / 1e6 per part, unrounded, and their sum. */
export function usageJson(t: TokenCounts, rates: { input: number; output: number; cacheRead: number; cacheWrite: number } = DEMO_MODEL.rates): UsageJson {
  const cost = {
    input: (t.input * rates.input) / 1e6,
    output: (t.output * rates.output) / 1e6,
    cacheRead: (t.cacheRead * rates.cacheRead) / 1e6,
    cacheWrite: (t.cacheWrite * rates.cacheWrite) / 1e6,
    total: 0,
  };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { ...t, totalTokens: t.input + t.output + t.cacheRead + t.cacheWrite, cost };
}

export const iso = (ms: number): string => new Date(ms).toISOString();

type Json = Record<string, unknown>;

/** The first row of every transcript. */
export function sessionHeader(sessionId: string, ts: number, cwd: string): Json {
  return { type: "session", version: 4, id: sessionId, timestamp: iso(ts), cwd };
}

export function modelChange(id: string, parentId: string | null, ts: number): Json {
  return { type: "model_change", provider: DEMO_MODEL.provider, modelId: DEMO_MODEL.model, id, parentId, timestamp: iso(ts) };
}

export function thinkingLevelChange(id: string, parentId: string, ts: number): Json {
  return { type: "thinking_level_change", thinkingLevel: "off", id, parentId, timestamp: iso(ts) };
}

export function modelSnapshot(id: string, parentId: string, ts: number): Json {
  return {
    type: "custom",
    customType: "model-snapshot",
    data: { timestamp: ts - 1, provider: DEMO_MODEL.provider, modelApi: DEMO_MODEL.api, modelId: DEMO_MODEL.model },
    id,
    parentId,
    timestamp: iso(ts),
  };
}

export interface UserMessage {
  id: string;
  parentId: string | null;
  /** When the row was written. */
  ts: number;
  /** When the message was sent (a little earlier: the run queues it first). */
  sentAt: number;
  text: string;
  runId: string;
  /** Cron prompts carry their provenance instead of the owner marker. */
  provenance?: Json;
}

export function userMessage(m: UserMessage): Json {
  // Key order as recorded: provenance (cron, spawn) before the idempotency key, the owner marker after it.
  const message: Json = { role: "user", content: m.text, timestamp: m.sentAt };
  if (m.provenance) message.provenance = m.provenance;
  message.idempotencyKey = `${m.runId}:user`;
  if (!m.provenance) message.__openclaw = { senderIsOwner: true };
  return { type: "message", id: m.id, parentId: m.parentId, timestamp: iso(m.ts), message };
}

type ContentBlock = { type: "text"; text: string } | { type: "toolCall"; id: string; name: string; arguments: Json };

interface AssistantMessage {
  id: string;
  parentId: string;
  ts: number;
  content: ContentBlock[];
  tokens: TokenCounts;
  stopReason: "stop" | "toolUse" | "error" | "length" | "aborted";
  errorMessage?: string;
  responseId: string;
  runId: string;
}

export function assistantMessage(m: AssistantMessage): Json {
  const message: Json = {
    role: "assistant",
    content: m.content,
    api: DEMO_MODEL.api,
    provider: DEMO_MODEL.provider,
    model: DEMO_MODEL.model,
    usage: usageJson(m.tokens),
    stopReason: m.stopReason,
  };
  if (m.errorMessage !== undefined) message.errorMessage = m.errorMessage;
  message.timestamp = m.ts - 40;
  message.responseId = m.responseId;
  message.__openclaw = { runId: m.runId };
  return { type: "message", id: m.id, parentId: m.parentId, timestamp: iso(m.ts), message };
}

interface ToolResultMessage {
  id: string;
  parentId: string;
  ts: number;
  toolCallId: string;
  toolName: string;
  text: string;
}

export function toolResultMessage(m: ToolResultMessage): Json {
  return {
    type: "message",
    id: m.id,
    parentId: m.parentId,
    timestamp: iso(m.ts),
    message: { role: "toolResult", toolCallId: m.toolCallId, toolName: m.toolName, content: [{ type: "text", text: m.text }], isError: false, timestamp: m.ts - 5 },
  };
}

/** The per-run fields of a session entry; OpenClaw keeps only the latest run's, never a running sum. */
export function latestRunFields(t: TokenCounts): Json {
  const u = usageJson(t);
  return {
    inputTokens: t.input,
    outputTokens: t.output,
    cacheRead: t.cacheRead,
    cacheWrite: t.cacheWrite,
    estimatedCostUsd: u.cost.total,
    // The entry's totalTokens is the prompt size (no output), unlike a message's usage.totalTokens.
    totalTokens: t.input + t.cacheRead + t.cacheWrite,
    totalTokensFresh: true,
    totalTokensVersion: 1,
  };
}
