// The Codex demo writer: each step appends to the demo copy what Codex 0.169.0 writes for one
// resumed turn (`codex exec resume`) of the demo thread in the status-page repository, in its own
// rollout format (codex-format.md §4-§8): thread_settings_applied, task_started, turn_context, the
// prompt (as a response item and an item_completed), per command a reasoning summary, the
// function call, its token_usage_record, the CommandExecution item, the output and a
// token_count, then the answer with its own record and token_count, and task_complete. Each
// record's usage, its turn and thread sums and every token_count's cumulative total agree; the
// plan's rate limits inch up (never reaching the warning level) and start again when the 5-hour
// window resets. The normal Codex reader picks it up like any resumed thread.
//
// Everything it needs is read back from the rollout it appends to (the ordinal, the thread's
// usage, the latest rate limits, the settings to resume with), so a restarted daemon goes on
// where the file ends. Growth is bounded: after `turnsPerThread` turns a new thread starts (a new
// rollout named in local time, its first lines copied from the current thread's start), only the
// newest `keepThreads` rollouts of the writer's project are kept, and at most `maxTurnsPerDay`
// turns a day are written.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { localRolloutPrefix } from "./rollout-name.js";
import { appendLines, parseLines } from "../../jsonl/lines.js";
import type { DemoStep, DemoWriter } from "../../contract.js";
import { between, hex, pick, uuidV7, type Random } from "../../../base/random.js";
import { CODEX_TURNS, CONTEXT_WINDOW, NEW_THREAD_PROMPT, WRITER_CWD, WRITER_MODEL, type CodexTurnContent } from "./content.js";
import { addUsage, CodexPrompt, LIVE_PRIMARY, LIVE_SECONDARY, nextWindow, rateLimitsObject, tokensOf, usageFrom, ZERO_USAGE, type CodexUsage, type RateWindow } from "./usage.js";

type Json = Record<string, unknown>;

interface CodexWriterOptions {
  /** The demo copy's CODEX_HOME (`…/codex-home/.codex`). */
  codexHome: string;
  random: Random;
  /** The project the writer works in; default the demo's status-page repository. */
  cwd?: string;
  turnsPerThread?: number;
  keepThreads?: number;
  maxTurnsPerDay?: number;
}

const DAY = 86_400_000;

interface ThreadState {
  file: string;
  threadId: string;
  ordinal: number;
  turns: number;
  thread: CodexUsage;
  prompt: CodexPrompt;
  primary: RateWindow | null;
  secondary: RateWindow | null;
  /** When each window's figure last moved (its first line with that figure): the pace's start. */
  since: { primary: number | null; secondary: number | null };
  settings: Json | null;
  context: Json | null;
  historySequence: number;
  sessionMeta: Json | null;
  /** The first turn's context lines (developer instructions, environment, world state), copied when a thread starts. */
  opening: Json[];
}

/** The thread's windows are now `primary` and `secondary` as of `at`; a figure that moved starts its pace again. */
function moveWindows(s: ThreadState, primary: RateWindow | null, secondary: RateWindow | null, at: number): void {
  const moved = (a: RateWindow | null, b: RateWindow | null): boolean => !a || !b || a.used_percent !== b.used_percent || a.resets_at !== b.resets_at;
  if (moved(s.primary, primary)) s.since.primary = Number.isFinite(at) ? at : null;
  if (moved(s.secondary, secondary)) s.since.secondary = Number.isFinite(at) ? at : null;
  s.primary = primary;
  s.secondary = secondary;
}

function isRollout(name: string): boolean {
  return /^rollout-.*\.jsonl$/.test(name);
}

/** Every rollout under sessions/ (the date folders), newest write first. */
function rollouts(codexHome: string): Array<{ file: string; mtime: number }> {
  const out: Array<{ file: string; mtime: number }> = [];
  const walk = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (depth < 3 && e.isDirectory()) walk(p, depth + 1);
      else if (depth === 3 && e.isFile() && isRollout(e.name)) out.push({ file: p, mtime: statSync(p).mtimeMs });
    }
  };
  walk(join(codexHome, "sessions"), 0);
  return out.sort((a, b) => b.mtime - a.mtime);
}

/** The first line of a rollout (its session_meta), read without loading the file. */
function firstLine(file: string): Json | null {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(256 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const end = buf.subarray(0, n).indexOf(0x0a);
    return JSON.parse(buf.subarray(0, end === -1 ? n : end).toString("utf8")) as Json;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function cwdOf(meta: Json | null): string | null {
  const p = meta?.payload as Json | undefined;
  return meta?.type === "session_meta" && typeof p?.cwd === "string" ? p.cwd : null;
}

export class CodexDemoWriter implements DemoWriter {
  readonly provider = "codex";
  private day = -1;
  private turnsToday = 0;
  private readonly cwd: string;

  constructor(private readonly o: CodexWriterOptions) {
    this.cwd = o.cwd ?? WRITER_CWD;
  }

  step(now: number): DemoStep {
    const today = Math.floor(now / DAY);
    if (today !== this.day) {
      this.day = today;
      this.turnsToday = 0;
    }
    if (this.turnsToday >= (this.o.maxTurnsPerDay ?? 2000)) return { provider: this.provider, wrote: [] };
    const mine = this.threads();
    if (!mine[0]) throw new Error(`the demo copy has no Codex thread in ${this.cwd}`);
    let s = this.readThread(mine[0].file);
    let lines: Json[];
    const r = this.o.random;
    if (s.turns >= (this.o.turnsPerThread ?? 25)) {
      s = this.startThread(s, now);
      lines = this.turn(s, { ...pick(r, CODEX_TURNS.filter((t) => t.calls.length > 0)), prompt: NEW_THREAD_PROMPT }, now, true);
      writeFileSync(s.file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
      this.prune();
    } else {
      lines = this.turn(s, pick(r, CODEX_TURNS), now, false);
      appendLines(s.file, lines);
    }
    this.turnsToday++;
    return { provider: this.provider, wrote: [`turn ${s.threadId}`] };
  }

  close(): void {
    // Nothing is held open between steps.
  }

  /** The writer's project's rollouts, newest write first. */
  private threads(): Array<{ file: string; mtime: number }> {
    return rollouts(this.o.codexHome).filter((f) => cwdOf(firstLine(f.file)) === this.cwd);
  }

  private prune(): void {
    for (const f of this.threads().slice(this.o.keepThreads ?? 4)) rmSync(f.file, { force: true });
  }

  private readThread(file: string): ThreadState {
    const s: ThreadState = {
      file,
      threadId: "",
      ordinal: -1,
      turns: 0,
      thread: { ...ZERO_USAGE },
      prompt: new CodexPrompt(this.o.random),
      primary: null,
      secondary: null,
      since: { primary: null, secondary: null },
      settings: null,
      context: null,
      historySequence: 0,
      sessionMeta: null,
      opening: [],
    };
    for (const l of parseLines(readFileSync(file, "utf8"))) {
      const p = (l.payload ?? {}) as Json;
      if (typeof l.ordinal === "number") s.ordinal = Math.max(s.ordinal, l.ordinal);
      const meta = l.metadata as Json | undefined;
      if (typeof meta?.history_sequence === "number") s.historySequence = Math.max(s.historySequence, meta.history_sequence);
      if (l.type === "session_meta" && !s.sessionMeta) {
        s.sessionMeta = l;
        s.threadId = String(p.id);
      } else if (l.type === "turn_context") s.context = p;
      else if (l.type === "world_state" && s.turns === 1) s.opening.push(l);
      else if (l.type === "response_item" && s.turns === 1 && p.type === "message" && (p.role === "developer" || String(JSON.stringify(p.content)).includes("<environment_context>"))) s.opening.push(l);
      else if (l.type === "token_usage_record") {
        const thread = usageFrom(p.thread_token_usage);
        const last = usageFrom(p.usage);
        if (thread) s.thread = thread;
        if (last) {
          s.prompt.size = last.input_tokens + last.output_tokens;
          s.prompt.lastAt = Date.parse(String(l.timestamp));
        }
      } else if (l.type === "event_msg") {
        if (p.type === "task_started") s.turns++;
        else if (p.type === "thread_settings_applied") s.settings = p;
        else if (p.type === "token_count") {
          const rl = p.rate_limits as Json | null;
          const window = (w: unknown): RateWindow | null => {
            const o = w as Json | null;
            return o && typeof o.used_percent === "number" && typeof o.window_minutes === "number" && typeof o.resets_at === "number" ? { used_percent: o.used_percent, window_minutes: o.window_minutes, resets_at: o.resets_at } : null;
          };
          // A 429's line shows the limit reached; the next response's figures go on from the window's own count.
          if (rl && p.info !== null) moveWindows(s, window(rl.primary) ?? s.primary, window(rl.secondary) ?? s.secondary, Date.parse(String(l.timestamp)));
        }
      }
    }
    if (!s.sessionMeta || !s.threadId) throw new Error(`${file}: not a Codex rollout (no session_meta)`);
    return s;
  }

  /** A new thread in the writer's project: a new rollout, named in local time like Codex's. */
  private startThread(prev: ThreadState, now: number): ThreadState {
    const r = this.o.random;
    // Before any line of the first turn (a turn spans at most about 20 s before now).
    const created = now - between(r, 30_000, 40_000);
    const threadId = uuidV7(r, created);
    const local = localRolloutPrefix(created);
    const dir = join(this.o.codexHome, "sessions", ...local.dir);
    mkdirSync(dir, { recursive: true });
    const meta = JSON.parse(JSON.stringify(prev.sessionMeta)) as Json;
    const p = meta.payload as Json;
    Object.assign(p, { session_id: threadId, id: threadId, timestamp: new Date(created).toISOString(), context_window: { window_id: uuidV7(r, created) } });
    meta.timestamp = new Date(created + between(r, 100, 300)).toISOString();
    meta.ordinal = 0;
    return {
      ...prev,
      file: join(dir, `${local.name}${threadId}.jsonl`),
      threadId,
      ordinal: -1,
      turns: 0,
      thread: { ...ZERO_USAGE },
      prompt: new CodexPrompt(r),
      historySequence: 0,
      sessionMeta: meta,
    };
  }

  /** The lines of one turn, timed to end just before `now`; the thread's first when `first`. */
  private turn(s: ThreadState, c: CodexTurnContent, now: number, first: boolean): Json[] {
    const r = this.o.random;
    const callMs = c.calls.map(() => between(r, 900, 4000) + between(r, 60, 400));
    const answerMs = between(r, 1200, 6000);
    const startMs = between(r, 80, 300);
    let t = now - (startMs + callMs.reduce((a, b) => a + b, 0) + answerMs + 600);
    const turnStart = t;
    const out: Json[] = [];
    const line = (type: string, payload: Json, extra: Json = {}, wait = 0): Json => {
      t += wait;
      const l = { timestamp: new Date(t).toISOString(), ordinal: ++s.ordinal, type, payload, ...extra };
      out.push(l);
      return l;
    };
    const seq = (sampled: number, more: Json = {}): Json => ({ metadata: { history_sequence: ++s.historySequence, sampled_through_sequence: sampled, client_authored: false, ...more } });
    const turnId = uuidV7(r, t);
    const threadId = s.threadId;
    if (first) {
      const meta = s.sessionMeta as Json;
      meta.ordinal = ++s.ordinal;
      out.push(meta);
    } else {
      line("event_msg", { type: "thread_settings_applied", thread_id: threadId, thread_settings: (s.settings?.thread_settings as Json | undefined) ?? { model: WRITER_MODEL, cwd: this.cwd } });
    }
    const startedAt = Math.floor(t / 1000);
    line("event_msg", { type: "task_started", turn_attribution: { turn_id: turnId, turn_trigger: "exec", parent_turn_id: null, initiating_agent_path: null, root_turn_id: turnId }, turn_id: turnId, root_turn_id: turnId, started_at: startedAt, model_context_window: CONTEXT_WINDOW, collaboration_mode_kind: "default" }, {}, 15);
    if (first) {
      for (const o of s.opening) {
        const copy = JSON.parse(JSON.stringify(o)) as Json;
        const meta = (copy.payload as Json).internal_chat_message_metadata_passthrough as Json | undefined;
        if (meta) Object.assign(meta, { turn_id: turnId, create_time: t / 1000 });
        line(String(copy.type), copy.payload as Json, copy.metadata ? { metadata: copy.metadata } : {}, 1);
      }
    }
    const context = { ...((s.context as Json | null) ?? { cwd: this.cwd }), turn_id: turnId, root_turn_id: turnId, model: WRITER_MODEL };
    line("turn_context", context, {}, 20);
    if (first) line("event_msg", { type: "thread_settings_applied", thread_id: threadId, thread_settings: (s.settings?.thread_settings as Json | undefined) ?? { model: WRITER_MODEL, cwd: this.cwd } });
    const userMsgId = `msg_${uuidV7(r, t)}`;
    line(
      "response_item",
      { type: "message", id: userMsgId, role: "user", content: [{ type: "input_text", text: c.prompt }], internal_chat_message_metadata_passthrough: { turn_id: turnId, create_time: t / 1000, content_item_kinds: ["user.text"], content_item_metadata: [{ provenance: { type: "user" } }] } },
      seq(s.historySequence, { retained_source: { id: { message_id: userMsgId, turn_id: turnId, role: "user" }, revision: `retained_${uuidV7(r, t)}`, complete: true }, user_input_order: 0, mcp_attribution: { status: "none" } }),
      20,
    );
    line("event_msg", { type: "item_completed", thread_id: threadId, turn_id: turnId, item: { type: "UserMessage", id: uuidV7(r, t), content: [{ type: "text", text: c.prompt, text_elements: [] }] }, started_at_ms: t, completed_at_ms: t }, {}, 4);

    let turnUsage: CodexUsage = { ...ZERO_USAGE };
    let added = tokensOf(c.prompt) + 20;
    let firstTokenAt: number | null = null;
    const respond = (visible: number): CodexUsage => {
      const u = s.prompt.respond(t, added, visible);
      added = 0;
      turnUsage = addUsage(turnUsage, u);
      s.thread = addUsage(s.thread, u);
      line("token_usage_record", { thread_id: threadId, turn_id: turnId, session_id: threadId, root_turn_id: turnId, response_id: `resp_${hex(r, 24)}`, usage: u, turn_token_usage: turnUsage, thread_token_usage: s.thread }, {}, 5);
      return u;
    };
    const tokenCount = (u: CodexUsage): void => {
      const primary = nextWindow(s.primary, t, u.total_tokens, LIVE_PRIMARY, s.since.primary);
      const secondary = nextWindow(s.secondary, t, u.total_tokens, LIVE_SECONDARY, s.since.secondary);
      moveWindows(s, primary, secondary, t);
      line("event_msg", { type: "token_count", info: { total_token_usage: s.thread, last_token_usage: u, last_usage_includes_reasoning: false, model_context_window: CONTEXT_WINDOW }, rate_limits: rateLimitsObject({ ...primary }, { ...secondary }) }, {}, 3);
    };
    const reasoning = (text: string, wait: number): void => {
      const id = `rs_${hex(r, 24)}`;
      line("event_msg", { type: "item_completed", thread_id: threadId, turn_id: turnId, item: { type: "Reasoning", id, summary_text: [text], raw_content: [] }, started_at_ms: t + wait - 30, completed_at_ms: t + wait }, {}, wait);
      firstTokenAt ??= t;
      line("response_item", { type: "reasoning", id, summary: [{ type: "summary_text", text }], content: null, encrypted_content: null, internal_chat_message_metadata_passthrough: { turn_id: turnId } }, seq(s.historySequence), 8);
    };
    c.calls.forEach((call, i) => {
      const ms = callMs[i] as number;
      reasoning(call.why, ms - 300);
      const callId = `call_${hex(r, 20)}`;
      const args = JSON.stringify({ cmd: call.cmd, yield_time_ms: 10000 });
      line("response_item", { type: "function_call", status: "completed", id: `fc_${hex(r, 24)}`, name: "exec_command", arguments: args, call_id: callId, internal_chat_message_metadata_passthrough: { turn_id: turnId } }, seq(s.historySequence - 1, { user_input_order: 1 }), 15);
      const u = respond(tokensOf(args) + 12);
      const exit = call.exit ?? 0;
      const ran = between(r, 40, 250);
      line("event_msg", { type: "item_completed", thread_id: threadId, turn_id: turnId, item: { type: "CommandExecution", id: callId, process_id: String(between(r, 2000, 99999)), command: ["/bin/bash", "-lc", call.cmd], cwd: `file://${this.cwd}`, parsed_cmd: [{ type: "unknown", cmd: call.cmd }], source: "unified_exec_startup", status: "completed", aggregated_output: call.output, exit_code: exit, duration: { secs: 0, nanos: ran * 1000 } }, started_at_ms: t, completed_at_ms: t + ran }, {}, ran);
      const output = `Chunk ID: ${hex(r, 6)}\nWall time: 0.0000 seconds\nProcess exited with code ${exit}\nOriginal token count: ${tokensOf(call.output)}\nOutput:\n${call.output}`;
      line("response_item", { type: "function_call_output", id: `fco_${uuidV7(r, t)}`, call_id: callId, output, internal_chat_message_metadata_passthrough: { turn_id: turnId, create_time: t / 1000 } }, seq(s.historySequence - 1, { fallback_token_limit_override: 3000 }), 10);
      added += tokensOf(output) + 16;
      tokenCount(u);
    });
    reasoning(c.answerWhy, answerMs - 400);
    const msgId = `msg_${hex(r, 24)}`;
    line("event_msg", { type: "item_completed", thread_id: threadId, turn_id: turnId, item: { type: "AgentMessage", id: msgId, content: [{ type: "Text", text: c.answer }] }, started_at_ms: t, completed_at_ms: t + 60 }, {}, 60);
    line(
      "response_item",
      { type: "message", status: "completed", id: msgId, role: "assistant", content: [{ type: "output_text", text: c.answer, annotations: [] }], internal_chat_message_metadata_passthrough: { turn_id: turnId, content_item_kinds: ["unknown"] } },
      seq(s.historySequence - 1, { retained_source: { id: { message_id: msgId, turn_id: turnId, role: "assistant" }, revision: `retained_${uuidV7(r, t)}`, complete: true }, user_input_order: 2 }),
      8,
    );
    tokenCount(respond(tokensOf(c.answer) + 8));
    line("event_msg", { type: "task_complete", root_turn_id: turnId, turn_id: turnId, last_agent_message: c.answer, started_at: startedAt, completed_at: Math.floor(t / 1000), duration_ms: Math.round(t - turnStart), time_to_first_token_ms: Math.round((firstTokenAt ?? t) - turnStart) }, {}, 6);
    return out;
  }
}
