// One Gemini CLI session-file record -> the contract's activity events, by the format's counting
// rule (gemini-cli-format.md §4, §5): usage is the top-level `gemini` records with a `tokens`
// object, once per message `id` (the same record is appended 2-3 times per tool round: first with
// tokens, again with its `toolCalls`, again when a call's status changes); prompts are top-level
// `user` records with a text part, once per id. `$set.messages` re-listings (resume, /compress,
// rollback) are never read for either: they copy old messages without tokens, or under new ids.
// Tool calls count once per call id, their result when a call first shows a final status.
// `error`/`warning` records are incidents, the `info` record /compress writes an info entry.
//
// The state (`GeminiLineContext`) is plain, bounded data kept in the reader's cursor, so a
// restarted daemon resumes mid-file without counting a re-appended record again.
import type { ActivityEvent, SessionPatch } from "../contract.js";
import type { SourceWarning } from "../result.js";
import { asObject, clip, lineTimestamp, shortenPrompt, shortText, type Json } from "../jsonl/shape.js";
import { toTokenUsage } from "./usage.js";

export interface GeminiLineContext {
  /** Message ids whose response was counted, with the tool calls counted for it (newest last). */
  responses: Array<[string, number]>;
  /** Tool call ids counted, and those whose result was given (newest last). */
  calls: string[];
  results: string[];
  /** Prompt ids counted (a record written again is not a new turn). */
  prompts: string[];
  /** The header said `kind: "subagent"`: its `$set.summary` is the sub-agent's output, not a title. */
  subagent: boolean;
  firstPromptSent: boolean;
  /** Session facts already told in this read; not serialized. */
  known: SessionPatch;
}

/** Bounds, so a hostile file cannot grow the cursor: a record is re-appended within its own tool round. */
const MAX_IDS = 64;
const ID_MAX = 200;
const MODEL_MAX = 200;
const MESSAGE_MAX = 1000;

export function newLineContext(): GeminiLineContext {
  return { responses: [], calls: [], results: [], prompts: [], subagent: false, firstPromptSent: false, known: {} };
}

export function serializeContext(ctx: GeminiLineContext): unknown {
  return { r: ctx.responses, c: ctx.calls, d: ctx.results, p: ctx.prompts, s: ctx.subagent, f: ctx.firstPromptSent };
}

function ids(v: unknown): string[] | null {
  return Array.isArray(v) && v.length <= MAX_IDS && v.every((x) => shortText(x, ID_MAX) !== null) ? (v as string[]) : null;
}

/** The state back from a stored cursor; null when it is not one (the reader then starts over). */
export function restoreContext(v: unknown): GeminiLineContext | null {
  const o = asObject(v);
  if (!o || typeof o.s !== "boolean" || typeof o.f !== "boolean" || !Array.isArray(o.r) || o.r.length > MAX_IDS) return null;
  const responses: Array<[string, number]> = [];
  for (const p of o.r as unknown[]) {
    if (!Array.isArray(p) || p.length !== 2 || shortText(p[0], ID_MAX) === null || !Number.isSafeInteger(p[1]) || (p[1] as number) < 0) return null;
    responses.push([p[0] as string, p[1] as number]);
  }
  const calls = ids(o.c);
  const results = ids(o.d);
  const prompts = ids(o.p);
  if (!calls || !results || !prompts) return null;
  return { responses, calls, results, prompts, subagent: o.s, firstPromptSent: o.f, known: {} };
}

function remember<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > MAX_IDS) list.shift();
}

/** The text parts of a `user` record's content; null when it is a tool result (functionResponse parts). */
function promptText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  for (const p of content) {
    const part = asObject(p);
    if (!part || part.functionResponse !== undefined) return null;
    if (typeof part.text === "string") parts.push(part.text);
  }
  return parts.length > 0 ? parts.join("\n") : null;
}

/** A final tool status: its result has come. */
const FINAL = new Set(["success", "error", "cancelled"]);

function geminiRecord(o: Json, id: string, pos: number, where: string, ctx: GeminiLineContext, patch: SessionPatch, events: ActivityEvent[], time: () => number | null, warnings: SourceWarning[]): void {
  const calls = Array.isArray(o.toolCalls) ? o.toolCalls.map(asObject).filter((c): c is Json => c !== null) : [];
  let newCalls = 0;
  const results: ActivityEvent[] = [];
  for (const c of calls) {
    const callId = shortText(c.id, ID_MAX);
    if (callId === null) continue;
    if (!ctx.calls.includes(callId)) {
      remember(ctx.calls, callId);
      newCalls++;
    }
    const status = typeof c.status === "string" ? c.status : "";
    if (FINAL.has(status) && !ctx.results.includes(callId)) {
      remember(ctx.results, callId);
      results.push({ kind: "toolResult", ts: time(), pos, isError: status === "error" });
    }
  }
  const counted = ctx.responses.find(([k]) => k === id);
  const model = shortText(o.model, MODEL_MAX);
  if (counted) {
    // The same response written again: only calls it did not have before are new.
    if (newCalls > 0) {
      counted[1] += newCalls;
      events.push({ kind: "response", ts: time(), pos, key: id, model, modelProvider: "google", usage: toTokenUsage(o.tokens, where, []), costUsd: null, toolCalls: newCalls, error: null });
    }
  } else if (o.tokens !== undefined && o.tokens !== null) {
    const usage = toTokenUsage(o.tokens, where, warnings);
    remember(ctx.responses, [id, newCalls]);
    events.push({ kind: "response", ts: time(), pos, key: id, model, modelProvider: "google", usage, costUsd: null, toolCalls: newCalls, error: null });
    if (model !== null) patch.model = model;
    const t = asObject(o.tokens);
    const prompt = (typeof t?.input === "number" ? t.input : 0) + (typeof t?.tool === "number" ? t.tool : 0);
    if (usage && prompt > 0) patch.contextTokens = prompt;
  } else {
    // No tokens yet: its calls are counted when the record comes with them.
    for (let i = 0; i < newCalls; i++) ctx.calls.pop();
  }
  events.push(...results);
}

/** The events of one parsed record, a `meta` patch first when it tells something new. `project`: the session's cwd (its slug dir's). */
export function lineEvents(o: Json, pos: number, where: string, ctx: GeminiLineContext, project: string | null, warnings: SourceWarning[]): ActivityEvent[] {
  const patch: SessionPatch = {};
  const events: ActivityEvent[] = [];
  let ts: number | null | undefined;
  const time = (): number | null => (ts === undefined ? (ts = lineTimestamp(o, where, warnings)) : ts);
  const set = asObject(o.$set);
  const id = shortText(o.id, ID_MAX);
  if (typeof o.sessionId === "string" && id === null && !set) {
    // A header: the first line, again at every resume (with that run's startTime).
    if (o.kind === "subagent") ctx.subagent = true;
    if (project !== null) patch.project = project;
    const start = typeof o.startTime === "string" ? Date.parse(o.startTime) : Number.NaN;
    ts = Number.isFinite(start) ? start : null;
  } else if (set) {
    const summary = shortText(set.summary, 100_000);
    if (summary !== null && !ctx.subagent) patch.title = shortenPrompt(summary);
  } else if (id !== null) {
    switch (o.type) {
      case "user": {
        const text = promptText(o.content);
        if (text === null || ctx.prompts.includes(id)) break;
        remember(ctx.prompts, id);
        events.push({ kind: "prompt", ts: time(), pos });
        const first = shortenPrompt(text);
        if (!ctx.firstPromptSent && first !== "") {
          patch.firstPrompt = first;
          ctx.firstPromptSent = true;
        }
        break;
      }
      case "gemini":
        geminiRecord(o, id, pos, where, ctx, patch, events, time, warnings);
        break;
      case "error":
      case "warning":
      case "info": {
        const text = typeof o.content === "string" ? o.content.trim() : "";
        if (o.type === "info") {
          // /compress writes an empty info record; other notices are log lines.
          events.push({ kind: "incident", ts: time(), pos, type: "info", code: text === "" ? "compression" : "info", message: text === "" ? "conversation compressed" : clip(text, MESSAGE_MAX) });
        } else {
          const retry = /\bretr(y|ying|ied)\b|\battempt\b/i.test(text);
          events.push({ kind: "incident", ts: time(), pos, type: o.type, code: o.type === "error" ? "api_error" : retry ? "retry" : "warning", message: clip(text || o.type, MESSAGE_MAX) });
        }
        break;
      }
      default:
        break;
    }
  }
  const changed = diffPatch(patch, ctx.known);
  if (changed) events.unshift({ kind: "meta", ts: time(), pos, patch: changed });
  return events;
}

/** The fields of `patch` that differ from `known`, recorded into `known`; null when none. */
function diffPatch(patch: SessionPatch, known: SessionPatch): SessionPatch | null {
  let out: Record<string, unknown> | null = null;
  const k = known as Record<string, unknown>;
  for (const [key, v] of Object.entries(patch)) {
    if (key !== "firstPrompt" && Object.hasOwn(k, key) && k[key] === v) continue;
    k[key] = v;
    (out ??= {})[key] = v;
  }
  return out as SessionPatch | null;
}
