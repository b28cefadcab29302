// The transcript view of one session file (sessionTranscript), gemini-cli-format.md §4: the
// top-level message records in file order, one per message id (a record written again replaces
// the earlier copy in place: it carries the calls and their status), never the `$set.messages`
// re-listings. A tool result is a `user` record of functionResponse parts, named after its call.
import type { TranscriptMessageRecord } from "../contract.js";
import type { SourceWarning } from "../result.js";
import { asObject, clip, lineTimestamp, shortText, type Json } from "../jsonl/shape.js";
import { toTokenUsage } from "./usage.js";

const TEXT_MAX = 100_000;

function record(id: string, pos: number, role: TranscriptMessageRecord["role"], text: string, ts: number | null): TranscriptMessageRecord {
  return { id, pos, role, text: clip(text, TEXT_MAX), ts, model: null, stopReason: null, errorMessage: null, usage: null, costUsd: null, toolCalls: [], toolName: null, isError: false };
}

export class MessageCollector {
  private readonly byId = new Map<string, TranscriptMessageRecord>();
  /** Call id -> failed, from the model's records, for the tool result records that answer them. */
  private readonly failed = new Map<string, boolean>();

  add(o: Json, pos: number, where: string, warnings: SourceWarning[]): void {
    const id = shortText(o.id, 200);
    if (id === null || o.$set !== undefined) return;
    const ts = lineTimestamp(o, where, warnings);
    const earlier = this.byId.get(id);
    let r: TranscriptMessageRecord | null = null;
    if (o.type === "user" && Array.isArray(o.content)) {
      const parts = o.content.map(asObject).filter((p): p is Json => p !== null);
      const fr = parts.map((p) => asObject(p.functionResponse)).find((f) => f !== null && f !== undefined);
      if (fr) {
        r = record(id, pos, "toolResult", String(asObject(fr.response)?.output ?? ""), ts);
        r.toolName = shortText(fr.name, 200);
        r.isError = this.failed.get(String(fr.id)) ?? false;
      } else {
        r = record(id, pos, "user", parts.map((p) => (typeof p.text === "string" ? p.text : "")).join("\n"), ts);
      }
    } else if (o.type === "gemini") {
      r = record(id, pos, "assistant", typeof o.content === "string" ? o.content : "", ts);
      r.model = shortText(o.model, 200);
      // The usage of the first copy that had it: every copy of a response carries the same tokens.
      r.usage = earlier?.usage ?? toTokenUsage(o.tokens, where, warnings);
      const calls = Array.isArray(o.toolCalls) ? o.toolCalls.map(asObject).filter((c): c is Json => c !== null) : [];
      r.toolCalls = calls.map((c) => ({ id: shortText(c.id, 200), name: shortText(c.name, 200) }));
      for (const c of calls) if (typeof c.id === "string") this.failed.set(c.id, c.status === "error");
    } else if (o.type === "error") {
      r = record(id, pos, "assistant", "", ts);
      r.errorMessage = typeof o.content === "string" ? clip(o.content, 1000) : "error";
      r.isError = true;
    }
    if (r === null) return;
    if (earlier) r.pos = earlier.pos;
    this.byId.set(id, r);
  }

  finish(): TranscriptMessageRecord[] {
    return [...this.byId.values()].sort((a, b) => a.pos - b.pos);
  }
}
