// The transcript view of one rollout (sessionTranscript), codex-format.md §4: user prompts, one
// assistant record per model response (its text, its tool calls and, from its
// `token_usage_record`, its usage and model), tool results named after their call, and a failed
// turn as an assistant record with the error. Prompts come from `item_completed/UserMessage` (the
// `response_item` user messages also hold the injected `<environment_context>` and instructions);
// a file with no such item (older versions) falls back to the user messages that are not injected.
import type { TokenUsage, TranscriptMessageRecord } from "../contract.js";
import type { SourceWarning } from "../result.js";
import { applyCommandItem, applyTurnContext, modelOfTurn, newLineContext, outputFailed, turnFailure } from "./line.js";
import { ASSISTANT_TEXT_TYPES, USER_TEXT_TYPES, asObject, contentText, isToolCallType, isToolOutputType, lineTimestamp, shortText, text } from "./shape.js";
import type { Json } from "./shape.js";
import { toTokenUsage } from "./usage.js";

type Base = Omit<TranscriptMessageRecord, "id" | "pos" | "role" | "text" | "ts">;

function base(): Base {
  return { model: null, stopReason: null, errorMessage: null, usage: null, costUsd: null, toolCalls: [], toolName: null, isError: false };
}

/** The name a tool call item shows: its `name`, else what its type says (`web_search_call` -> `web_search`). */
function toolNameOf(p: Json): string | null {
  const name = shortText(p.name, 200);
  if (name !== null) return name;
  return typeof p.type === "string" ? p.type.replace(/_call$/, "") : null;
}

/** A tool output's text: a string, or the text of an output object/content array. */
function outputText(v: unknown): string {
  if (typeof v === "string") return v;
  const o = asObject(v);
  if (o && typeof o.content === "string") return o.content;
  return contentText(o?.content ?? v, new Set(["input_text", "output_text", "text"]));
}

/** The assistant record being built: the model's messages and tool calls since the last usage record. */
interface Pending {
  record: TranscriptMessageRecord;
  turnId: unknown;
}

export class MessageCollector {
  private readonly records: TranscriptMessageRecord[] = [];
  /** Prompts from UserMessage items, and the fallback from response_item user messages. */
  private readonly prompts: TranscriptMessageRecord[] = [];
  private readonly fallbackPrompts: TranscriptMessageRecord[] = [];
  private readonly toolNames = new Map<string, string | null>();
  /** Response ids whose usage a record already carries (a page never counts a response twice). */
  private readonly shown = new Set<string>();
  private readonly ctx = newLineContext();
  private pending: Pending | null = null;

  /** Adds one parsed line at byte offset `pos`; `where` names it in warnings. */
  add(obj: Json, pos: number, where: string, warnings: SourceWarning[]): void {
    const p = asObject(obj.payload);
    if (!p) return;
    const ts = (): number | null => lineTimestamp(obj, where, warnings);
    if (obj.type === "turn_context") {
      applyTurnContext(p, this.ctx, {});
      return;
    }
    if (obj.type === "token_usage_record") {
      this.finishResponse(p, pos, ts(), where, warnings);
      return;
    }
    if (obj.type === "event_msg") {
      if (p.type === "item_completed") {
        const item = asObject(p.item);
        if (item?.type === "UserMessage") {
          this.prompts.push({ ...base(), id: shortText(item.id, 200) ?? `@${pos}`, pos, role: "user", text: contentText(item.content, USER_TEXT_TYPES), ts: ts() });
        } else if (item?.type === "CommandExecution") {
          applyCommandItem(item, this.ctx);
        }
      } else if (p.type === "task_complete") {
        this.flush();
        const failure = turnFailure(p);
        if (failure) {
          this.records.push({ ...base(), id: `@${pos}`, pos, role: "assistant", text: failure.message, ts: ts(), model: modelOfTurn(this.ctx, p.turn_id), stopReason: failure.code, errorMessage: failure.message, isError: true });
        }
      } else if (p.type === "task_started") {
        this.flush();
      }
      return;
    }
    if (obj.type !== "response_item") return;
    if (p.type === "message") {
      const role = p.role;
      if (role === "assistant") {
        const body = contentText(p.content, ASSISTANT_TEXT_TYPES);
        const rec = this.open(pos, ts(), p);
        rec.text = rec.text === "" ? body : `${rec.text}\n${body}`;
      } else if (role === "user") {
        const body = contentText(p.content, USER_TEXT_TYPES);
        // Injected context is wrapped in tags (`<environment_context>`, `<user_instructions>`, ...).
        if (body.trim() !== "" && !body.trimStart().startsWith("<")) this.fallbackPrompts.push({ ...base(), id: shortText(p.id, 200) ?? `@${pos}`, pos, role: "user", text: body, ts: ts() });
      }
      return;
    }
    if (isToolCallType(p.type)) {
      const callId = shortText(p.call_id, 200) ?? shortText(p.id, 200);
      const name = toolNameOf(p);
      if (callId !== null) this.toolNames.set(callId, name);
      this.open(pos, ts(), p).toolCalls.push({ id: callId, name });
      return;
    }
    if (isToolOutputType(p.type)) {
      const callId = text(p.call_id);
      const toolName = callId !== null ? (this.toolNames.get(callId) ?? null) : null;
      this.records.push({ ...base(), id: shortText(p.id, 200) ?? `@${pos}`, pos, role: "toolResult", text: outputText(p.output), ts: ts(), toolName, isError: outputFailed(p, this.ctx) });
    }
  }

  /** The assistant record of the response in progress, opened by its first line. */
  private open(pos: number, ts: number | null, p: Json): TranscriptMessageRecord {
    if (this.pending) return this.pending.record;
    const turnId = asObject(p.internal_chat_message_metadata_passthrough)?.turn_id;
    const record: TranscriptMessageRecord = { ...base(), id: shortText(p.id, 200) ?? `@${pos}`, pos, role: "assistant", text: "", ts };
    this.pending = { record, turnId };
    return record;
  }

  /** A usage record closes the response: its usage and model go on the record (one is made when the response showed nothing). */
  private finishResponse(p: Json, pos: number, ts: number | null, where: string, warnings: SourceWarning[]): void {
    const key = shortText(p.response_id, 200);
    const record = this.pending?.record ?? { ...base(), id: key ?? `@${pos}`, pos, role: "assistant" as const, text: "", ts };
    this.pending = null;
    record.model = modelOfTurn(this.ctx, p.turn_id);
    if (key === null || !this.shown.has(key)) {
      if (key !== null) record.id = key;
      record.usage = this.usageOf(p.usage, where, warnings);
      if (key !== null) this.shown.add(key);
    } else {
      // The same response recorded again: shown, but its usage is already on the first record.
      record.id = `${key}@${pos}`;
    }
    this.records.push(record);
  }

  /** A response that never got its usage record (a failed stream): shown without usage. */
  private flush(): void {
    if (!this.pending) return;
    const { record, turnId } = this.pending;
    this.pending = null;
    record.model = modelOfTurn(this.ctx, turnId);
    this.records.push(record);
  }

  private usageOf(raw: unknown, where: string, warnings: SourceWarning[]): TokenUsage | null {
    const { usage, warning } = toTokenUsage(raw, where);
    if (warning) warnings.push(warning);
    return usage;
  }

  /** Every record in file order. */
  finish(): TranscriptMessageRecord[] {
    this.flush();
    const prompts = this.prompts.length > 0 ? this.prompts : this.fallbackPrompts;
    return [...this.records, ...prompts].sort((a, b) => a.pos - b.pos);
  }
}
