// The transcript view of one Claude Code file (sessionTranscript): user prompts, the assistant's
// text and tool calls, tool results and the synthetic API-error message, in file order. One
// response is several lines (one per content block, each repeating the whole usage), so its usage
// is shown on the first record of its key only and a page never counts a response twice.
import type { TokenUsage, TranscriptMessageRecord } from "../contract.js";
import type { SourceWarning } from "../result.js";
import { assistantLine, lineTimestamp, text, userLine } from "./line-shape.js";
import type { Json } from "./line-shape.js";
import { toTokenUsage } from "./usage.js";

interface Pending {
  record: TranscriptMessageRecord;
  key: string;
}

export class MessageCollector {
  private readonly records: TranscriptMessageRecord[] = [];
  /** tool_use id -> tool name, to name the results that come back later in the file. */
  private readonly toolNames = new Map<string, string | null>();
  /** Response keys whose usage a record already carries. */
  private readonly shown = new Set<string>();
  /**
   * A response's first line that has nothing to show (a thinking block): its usage waits for the
   * next line of the same response, and is shown on its own only if none comes.
   */
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly subagent: boolean) {}

  /** Adds one parsed line at byte offset `pos`; `where` names it in warnings. */
  add(obj: Json, pos: number, where: string, warnings: SourceWarning[]): void {
    const base = { pos, model: null, stopReason: null, errorMessage: null, usage: null, costUsd: null, toolCalls: [], toolName: null, isError: false };
    const uuid = text(obj.uuid);
    const id = uuid ?? `@${pos}`;
    if (obj.type === "user") {
      const u = userLine(obj, this.subagent);
      if (u.kind === "prompt") {
        this.records.push({ ...base, id, role: "user", text: u.text, ts: lineTimestamp(obj, where, warnings) });
      } else if (u.kind === "toolResults") {
        const ts = lineTimestamp(obj, where, warnings);
        u.results.forEach((r, i) => {
          const toolName = r.toolUseId !== null ? (this.toolNames.get(r.toolUseId) ?? null) : null;
          this.records.push({ ...base, id: i === 0 ? id : `${id}#${i}`, role: "toolResult", text: r.text, ts, toolName, isError: r.isError });
        });
      }
      return;
    }
    if (obj.type !== "assistant") return;
    const a = assistantLine(obj);
    if (!a) return;
    const ts = lineTimestamp(obj, where, warnings);
    if (a.synthetic) {
      // Only the API-error kind is shown; other synthetic lines are Claude Code's own placeholders.
      if (a.apiError) this.records.push({ ...base, id, role: "assistant", text: a.text, ts, stopReason: a.stopReason, errorMessage: a.text || a.errorCode, isError: true });
      return;
    }
    for (const t of a.toolUses) if (t.id !== null) this.toolNames.set(t.id, t.name);
    const record: TranscriptMessageRecord = { ...base, id, role: "assistant", text: a.text, ts, model: a.model, stopReason: a.stopReason, toolCalls: a.toolUses };
    const key = a.key;
    if (key === null) {
      record.usage = this.usageOf(a.rawUsage, where, warnings);
      this.records.push(record);
      return;
    }
    const empty = a.text === "" && a.toolUses.length === 0;
    if (this.shown.has(key)) {
      if (!empty) this.records.push(record);
      return;
    }
    const waiting = this.pending.get(key);
    if (empty) {
      if (!waiting) {
        record.usage = this.usageOf(a.rawUsage, where, warnings);
        this.pending.set(key, { record, key });
      }
      return;
    }
    this.pending.delete(key);
    record.usage = waiting ? waiting.record.usage : this.usageOf(a.rawUsage, where, warnings);
    this.shown.add(key);
    this.records.push(record);
  }

  private usageOf(raw: unknown, where: string, warnings: SourceWarning[]): TokenUsage | null {
    const { usage, warning } = toTokenUsage(raw, where);
    if (warning) warnings.push(warning);
    return usage;
  }

  /** Every record in file order; a response that had only empty lines shows its first one, with the usage. */
  finish(): TranscriptMessageRecord[] {
    if (this.pending.size === 0) return this.records;
    const all = [...this.records, ...[...this.pending.values()].map((p) => p.record)];
    this.pending.clear();
    return all.sort((x, y) => x.pos - y.pos);
  }
}
