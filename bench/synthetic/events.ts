// Transcript events of one window (session id), made from the real events of the fixture: each one
// is a template event with fresh ids, times, text, model and token counts. Key order and envelope
// stay the template's, so the JSON looks byte for byte like what OpenClaw writes. Tool calls are not
// in the fixtures; their shape (assistant `toolCall` block, then a `toolResult` message) follows
// openclaw-formats.md §3 and §10 and reuses the assistant envelope.
import type { Era, ModelChoice, SessionPlan, WindowPlan } from "./plan.js";
import type { Rng } from "./random.js";
import type { EventTemplates, Json } from "./templates.js";
import { isJson } from "./templates.js";
import type { TextGen } from "./text.js";

export interface GeneratedEvent {
  obj: Json;
  json: string;
  /** UTF-8 bytes of `json`. */
  bytes: number;
  ms: number;
}

/** The latest run of a window: what a session entry reports (§10: entry totals are per run). */
export interface RunSummary {
  runId: string;
  startedAt: number;
  endedAt: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costUsd: number;
  /** input + cacheRead + cacheWrite of the last call: the entry's `totalTokens`. */
  promptTokens: number;
  failed: boolean;
}

export interface GeneratedWindow {
  plan: WindowPlan;
  events: GeneratedEvent[];
  bytes: number;
  firstMs: number;
  lastMs: number;
  lastRun: RunSummary | null;
}

interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const TOOLS = ["exec", "read", "write", "web_search", "ls"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${s}`;
}

/** "Saturday, November 21st, 2026 - 11:03 PM (UTC)", as in the real cron preamble. */
function longDate(ms: number): string {
  const d = new Date(ms);
  const h = d.getUTCHours();
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${DAYS[d.getUTCDay()]}, ${MONTHS[d.getUTCMonth()]} ${ordinal(d.getUTCDate())}, ${d.getUTCFullYear()} - ${h % 12 || 12}:${mm} ${h < 12 ? "AM" : "PM"} (UTC)`;
}

function messageOf(e: Json): Json {
  if (!isJson(e.message)) throw new Error("template event has no message");
  return e.message;
}

function replyChars(rng: Rng): number {
  const r = rng.next();
  if (r < 0.6) return rng.int(80, 900);
  if (r < 0.9) return rng.int(900, 5000);
  return rng.int(5000, 32000);
}

function toolOutputChars(rng: Rng): number {
  const r = rng.next();
  if (r < 0.5) return rng.int(60, 600);
  if (r < 0.85) return rng.int(600, 4000);
  return rng.int(4000, 20000);
}

export class EventGen {
  constructor(
    private readonly era: Era,
    private readonly t: EventTemplates,
    private readonly rng: Rng,
    private readonly text: TextGen,
    /** Nothing is dated after this. */
    private readonly now: number,
  ) {}

  private id(): string {
    return this.era === "sqlite" ? this.rng.uuid() : this.rng.hex8();
  }

  window(s: SessionPlan, w: WindowPlan): GeneratedWindow {
    const { rng, t, text } = this;
    const events: GeneratedEvent[] = [];
    let bytes = 0;
    let ms = w.startMs;
    let prev: string | null = null;
    const cap = this.now - 1000;
    // Average event ~1.8 KB: spread the planned events over the planned span.
    const stepMs = w.spanMs / Math.max(8, w.budgetBytes / 1800);
    const tick = (): void => {
      ms = Math.min(cap, ms + Math.max(5, Math.round(stepMs * (0.3 + rng.next() * 1.4))));
    };
    const iso = (): string => new Date(ms).toISOString();
    const push = (obj: Json): void => {
      const json = JSON.stringify(obj);
      const b = Buffer.byteLength(json);
      events.push({ obj, json, bytes: b, ms });
      bytes += b;
      prev = typeof obj.id === "string" && obj.type !== "session" ? obj.id : prev;
    };
    const model = s.model;

    push({ ...t.header, id: w.sessionId, timestamp: iso() });
    tick();
    push({ ...t.modelChange, provider: model.provider, modelId: model.id, id: this.id(), parentId: null, timestamp: iso() });
    tick();
    push({ ...t.thinking, id: this.id(), parentId: prev, timestamp: iso() });
    const snapData = isJson(t.snapshot.data) ? t.snapshot.data : {};
    push({ ...t.snapshot, data: { ...snapData, timestamp: ms, provider: model.provider, modelApi: model.api, modelId: model.id }, id: this.id(), parentId: prev, timestamp: iso() });

    let context = rng.int(800, 4000); // system prompt + tools, cached after the first call
    let lastRun: RunSummary | null = null;
    // Stop once less than half an average turn (~6 KB) is left, so budgets are met on average.
    for (let turn = 0; turn === 0 || bytes + 3000 < w.budgetBytes; turn++) {
      const runId = rng.uuid();
      tick();
      const run: RunSummary = { runId, startedAt: ms, endedAt: ms, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0, promptTokens: 0, failed: false };
      const userText = this.userEvent(s, w, runId, ms, prev);
      push(userText.event);
      let newTokens = Math.ceil(userText.chars / 4) + 10;
      const call = (content: unknown[], stopReason: string, outputChars: number, errorMessage?: string): void => {
        tick();
        const usage: Usage = errorMessage
          ? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }
          : {
              input: newTokens,
              output: Math.max(1, Math.ceil(outputChars / 4)),
              cacheRead: Math.min(context, Math.round(model.contextWindow * 0.8)),
              cacheWrite: turn === 0 || rng.chance(0.1) ? rng.int(50, 2500) : 0,
            };
        context = usage.cacheRead + usage.input + usage.output;
        newTokens = 0;
        const cost = costOf(model, usage);
        run.input += usage.input;
        run.output += usage.output;
        run.cacheRead += usage.cacheRead;
        run.cacheWrite += usage.cacheWrite;
        run.costUsd += cost.total;
        run.promptTokens = usage.input + usage.cacheRead + usage.cacheWrite;
        run.endedAt = ms;
        push(this.assistant(prev, ms, runId, model, content, stopReason, usage, cost, errorMessage));
      };
      const lastTurn = bytes + 9000 >= w.budgetBytes;
      if (s.failed && lastTurn) {
        run.failed = true;
        call([], "error", 0, "500 Internal Server Error: upstream model failed after retries");
      } else {
        for (let tools = rng.chance(0.3) ? rng.int(1, 3) : 0; tools > 0; tools--) {
          const name = rng.pick(TOOLS);
          const callId = `call_${rng.hex8()}${rng.hex8()}`;
          const args = name === "exec" ? { command: `${rng.pick(["ls -la", "git status", "npm test", "cat"])} ${text.line().slice(0, 40)}` } : { path: `/home/op/.openclaw/workspace/${rng.hex8()}.md` };
          call([{ type: "text", text: text.line() }, { type: "toolCall", id: callId, name, arguments: args }], "toolUse", 120);
          tick();
          const out = text.text(toolOutputChars(rng));
          newTokens += Math.ceil(out.length / 4);
          push(this.toolResult(prev, ms, callId, name, out));
        }
        const reply = text.text(replyChars(rng));
        call([{ type: "text", text: reply }], "stop", reply.length);
      }
      if (turn === 0) {
        tick();
        const data = isJson(t.bootstrap.data) ? t.bootstrap.data : {};
        push({ ...t.bootstrap, data: { ...data, timestamp: ms, runId, sessionId: w.sessionId }, id: this.id(), parentId: prev, timestamp: iso() });
      }
      lastRun = run;
      if (run.failed) break;
    }
    return { plan: w, events, bytes, firstMs: events[0]?.ms ?? w.startMs, lastMs: events[events.length - 1]?.ms ?? w.startMs, lastRun };
  }

  private userEvent(s: SessionPlan, w: WindowPlan, runId: string, ms: number, parentId: string | null): { event: Json; chars: number } {
    const { rng, text } = this;
    const cron = s.jobId !== null;
    const tpl = cron ? this.t.cronUser : this.t.user;
    const m = messageOf(tpl);
    let content: string;
    if (cron) {
      // Keep the real preamble after the first blank line; renew the job line and the clock lines.
      const old = typeof m.content === "string" ? m.content : "";
      const cut = old.indexOf("\n\n");
      const tail = cut >= 0 ? old.slice(cut) : "";
      content = `[cron:${s.jobId} ${s.jobName}] ${text.line()}\nCurrent time: ${longDate(ms)}\nReference UTC: ${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC${tail}`;
    } else {
      content = rng.chance(0.8) ? text.line() : text.text(rng.int(200, 3000));
    }
    const message: Json = { ...m, content, timestamp: ms - rng.int(50, 3000) };
    if ("idempotencyKey" in m) message.idempotencyKey = `${runId}:user`;
    if (isJson(m.provenance)) {
      message.provenance = { ...m.provenance, sourcePromptPrefix: `[cron:${s.jobId} ${s.jobName}]`, jobId: s.jobId, runId: w.sessionId, sourceSessionKey: s.key };
    }
    return { event: { ...tpl, id: this.id(), parentId, timestamp: new Date(ms).toISOString(), message }, chars: content.length };
  }

  private assistant(parentId: string | null, ms: number, runId: string, model: ModelChoice, content: unknown[], stopReason: string, u: Usage, cost: ReturnType<typeof costOf>, errorMessage?: string): Json {
    const tpl = this.t.assistant;
    const m = messageOf(tpl);
    const message: Json = {
      ...m,
      content,
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: { input: u.input, output: u.output, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite, totalTokens: u.input + u.output + u.cacheRead + u.cacheWrite, cost },
      stopReason,
      timestamp: ms - this.rng.int(5, 400),
      responseId: `chatcmpl-${this.rng.hex8()}`,
    };
    if (errorMessage) message.errorMessage = errorMessage;
    if (isJson(m.__openclaw)) message.__openclaw = { ...m.__openclaw, runId };
    return { ...tpl, id: this.id(), parentId, timestamp: new Date(ms).toISOString(), message };
  }

  private toolResult(parentId: string | null, ms: number, toolCallId: string, toolName: string, output: string): Json {
    const tpl = this.t.assistant;
    const message: Json = { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text: output }], isError: this.rng.chance(0.03), timestamp: ms };
    return { ...tpl, id: this.id(), parentId, timestamp: new Date(ms).toISOString(), message };
  }
}

/** Cost per message as the gateway records it: tokens x USD per 1M tokens. */
export function costOf(model: ModelChoice, u: Usage): { input: number; output: number; cacheRead: number; cacheWrite: number; total: number } {
  const input = (u.input * model.cost.input) / 1e6;
  const output = (u.output * model.cost.output) / 1e6;
  const cacheRead = (u.cacheRead * model.cost.cacheRead) / 1e6;
  const cacheWrite = (u.cacheWrite * model.cost.cacheWrite) / 1e6;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}
