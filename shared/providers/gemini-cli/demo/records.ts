// The records Gemini CLI 0.61.0 appends for one turn (gemini-cli-format.md §4-§6), shared by the
// live demo writer and the bundle generator: the prompt, per tool call a gemini record with its
// tokens, a `$set lastUpdated`, the same record again with its toolCalls (the format's de-dup trap),
// the tool result as a user record; then the answer. A delegated turn also writes the generalist
// sub-agent's own file (header kind "subagent", its calls, complete_task, `$set.summary`) and the
// parent's invoke_agent call names it by `agentId`. Token counts follow the Gemini API as Gemini CLI
// records them: `input` is the whole prompt with `cached` inside, `thoughts` apart from `output`,
// `tool` only on a request that carries a tool result, `total` the sum of all four.
import { between, pick, uuid, type Random } from "../../../base/random.js";
import { projectHash } from "./layout.js";
import { CONTEXT_MESSAGE_ID, displayName, type GeminiCall, type GeminiTurnContent } from "./content.js";

export type Json = Record<string, unknown>;

export interface GeminiTokens {
  input: number;
  output: number;
  cached: number;
  thoughts: number;
  tool: number;
  total: number;
}

/** Rough tokens of a text. */
export const tokensOf = (text: string): number => Math.ceil(text.length / 4);

/** How long the API's implicit cache keeps a prompt prefix, as far as the demo cares. */
const CACHE_TTL_MS = 5 * 60_000;

/** One conversation's prompt as the demo simulates it: where the next request starts. */
export class GeminiPrompt {
  /** Tokens of the last prompt plus its answer (thoughts are not sent back). */
  size = 0;
  lastAt: number | null = null;

  constructor(
    protected readonly random: Random,
    readonly model: string,
  ) {}

  /** A fresh conversation on the same model (a sub-agent's); a subclass that counts responses counts its too. */
  fork(): GeminiPrompt {
    return new GeminiPrompt(this.random, this.model);
  }

  /** One response at `at`: the prompt gains `added` tokens; `toolResult` when the request carries one. */
  respond(at: number, added: number, visible: number, toolResult: boolean): GeminiTokens {
    const r = this.random;
    const fresh = this.size === 0;
    // A conversation starts with Gemini CLI's ~24 KB system instruction, its 16 tools and the session context.
    const input = (fresh ? between(r, 11_300, 12_400) : this.size) + added;
    const warm = !fresh && this.lastAt !== null && at - this.lastAt <= CACHE_TTL_MS;
    const cached = warm ? Math.floor((this.size * (0.78 + r() * 0.18)) / 256) * 256 : pick(r, [0, 0, 2048, 4096]);
    const thoughts = /pro/.test(this.model) ? between(r, 40, 900) : between(r, 24, 300);
    const tool = toolResult ? between(r, 8, 68) : 0;
    this.size = input + visible;
    this.lastAt = at;
    const c = Math.min(cached, input);
    return { input, output: visible, cached: c, thoughts, tool, total: input + visible + thoughts + tool };
  }
}

/** A session as the records need it. */
export interface SessionCtx {
  sessionId: string;
  cwd: string;
  slug: string;
  prompt: GeminiPrompt;
}

/** The `<session_context>` message every main session's `$set.messages` starts with. */
export function contextMessage(s: Pick<SessionCtx, "cwd" | "slug">, home: string, at: number): Json {
  const text = [
    "<session_context>",
    "This is the Gemini CLI. We are setting up the context for our chat.",
    "My operating system is: linux",
    `The project's temporary directory is: ${home}/.gemini/tmp/${s.slug}`,
    "- **Workspace Directories:**",
    `  - ${s.cwd}`,
    "- **Directory Structure:**",
    "",
    `${s.cwd}/`,
    "├───app.json",
    "├───package.json",
    "├───.git/...",
    "└───src/...",
    "</session_context>",
  ].join("\n");
  return { id: CONTEXT_MESSAGE_ID, timestamp: new Date(at).toISOString(), type: "user", content: [{ text }] };
}

/** Lines written with a running clock: each record's time, and `$set lastUpdated` after it. */
export class Timeline {
  readonly lines: Json[] = [];
  constructor(public t: number) {}
  at(wait = 0): string {
    this.t += wait;
    return new Date(this.t).toISOString();
  }
  push(line: Json): Json {
    this.lines.push(line);
    return line;
  }
  touch(): void {
    this.lines.push({ $set: { lastUpdated: this.at(1) } });
  }
}

const callResult = (id: string, c: GeminiCall): Json[] => [{ functionResponse: { id, name: c.name, response: { output: c.output } } }];

/** One tool round: the reply with its tokens, written twice (the second time with its toolCalls), then the tool's result. */
function toolRound(tl: Timeline, r: Random, s: SessionCtx, c: GeminiCall, callId: string, added: number, toolResult: boolean, extra: Json = {}): GeminiTokens {
  const at = tl.at(between(r, 400, 3000));
  const tokens = s.prompt.respond(tl.t, added, tokensOf(JSON.stringify(c.args)) + tokensOf(c.text ?? "") + 12, toolResult);
  const reply = { id: uuid(r), timestamp: at, type: "gemini", content: c.text ?? "", thoughts: [{ subject: "Choosing a tool", description: `I will use ${c.name}.`, timestamp: at }], tokens, model: s.prompt.model };
  tl.push(reply);
  tl.touch();
  const ran = between(r, 20, 700);
  const call = {
    id: callId,
    name: c.name,
    args: c.args,
    result: callResult(callId, c),
    status: c.error ? "error" : "success",
    timestamp: new Date(tl.t + ran).toISOString(),
    resultDisplay: c.output,
    description: String(c.args.description ?? c.args.file_path ?? c.args.pattern ?? c.name),
    displayName: displayName(c.name),
    renderOutputAsMarkdown: c.name !== "run_shell_command",
    ...extra,
  };
  tl.push({ ...reply, toolCalls: [call] });
  tl.push({ id: uuid(r), timestamp: tl.at(ran + 5), type: "user", content: callResult(callId, c) });
  tl.touch();
  return tokens;
}

/** The generalist sub-agent's file: its task, its calls, complete_task and the `$set.summary`. */
function subagentLines(r: Random, parent: SessionCtx, agent: NonNullable<GeminiTurnContent["agent"]>, start: number, projectHash: string): { sessionId: string; lines: Json[]; end: number } {
  const sub: SessionCtx = { sessionId: uuid(r), cwd: parent.cwd, slug: parent.slug, prompt: parent.prompt.fork() };
  const tl = new Timeline(start);
  const t0 = tl.at();
  tl.push({ sessionId: sub.sessionId, projectHash, startTime: t0, lastUpdated: t0, kind: "subagent", directories: [parent.cwd] });
  tl.push({ id: uuid(r), timestamp: tl.at(1), type: "user", content: [{ text: agent.task }] });
  tl.touch();
  let added = tokensOf(agent.task) + 20;
  agent.calls.forEach((c, i) => {
    toolRound(tl, r, sub, c, `${sub.sessionId}#${i}-0`, added, i > 0);
    added = tokensOf(c.output) + 16;
  });
  const summary = JSON.stringify({ response: agent.report }, null, 2);
  const done = { args: { result: { response: agent.report }, wait_for_previous: true }, output: "Output submitted and task completed." };
  const at = tl.at(between(r, 400, 2000));
  const tokens = sub.prompt.respond(tl.t, added, tokensOf(agent.report) + 20, agent.calls.length > 0);
  const reply = { id: uuid(r), timestamp: at, type: "gemini", content: "", thoughts: [{ subject: "Reporting back", description: "The task is done.", timestamp: at }], tokens, model: sub.prompt.model };
  tl.push(reply);
  tl.touch();
  const id = `${sub.sessionId}#${agent.calls.length}-0`;
  tl.push({ ...reply, toolCalls: [{ id, name: "complete_task", args: done.args, result: [{ functionResponse: { id, name: "complete_task", response: { output: done.output } } }], status: "success", timestamp: tl.at(5), resultDisplay: done.output, description: "Completing task and submitting results.", displayName: "Complete Task", renderOutputAsMarkdown: true }] });
  tl.push({ $set: { summary } });
  return { sessionId: sub.sessionId, lines: tl.lines, end: tl.t };
}

export interface TurnOut {
  main: Json[];
  /** A sub-agent's file (chats/<sessionId of the parent>/<sub.sessionId>.jsonl). */
  sub: { sessionId: string; lines: Json[] } | null;
  end: number;
}

/** The records of one turn starting at `start` (the prompt's time). */
export function turnRecords(r: Random, s: SessionCtx, c: GeminiTurnContent, start: number, projectHash: string): TurnOut {
  const tl = new Timeline(start);
  tl.push({ id: uuid(r), timestamp: tl.at(), type: "user", content: [{ text: c.prompt }] });
  tl.touch();
  let added = tokensOf(c.prompt) + 20;
  let toolResult = false;
  c.calls.forEach((call, i) => {
    toolRound(tl, r, s, call, `${call.name}__${call.name}_${tl.t + 300}_${i}`, added, toolResult);
    added = tokensOf(call.output) + 16;
    toolResult = true;
  });
  let sub: TurnOut["sub"] = null;
  if (c.agent) {
    const agent = c.agent;
    const callId = `invoke_agent__invoke_agent_${tl.t + 300}_0`;
    // The sub-agent runs while the call is out: its file's times fall between the call and its result.
    const ran = subagentLines(r, s, agent, tl.t + between(r, 900, 2500), projectHash);
    sub = { sessionId: ran.sessionId, lines: ran.lines };
    const output = `Subagent 'generalist' finished.\nTermination Reason: GOAL\nResult:\n${JSON.stringify({ response: agent.report }, null, 2)}`;
    const call: GeminiCall = { name: "run_shell_command", args: { agent_name: "generalist", prompt: agent.task }, output };
    toolRound(tl, r, s, { ...call, text: "" }, callId, added, toolResult, {
      name: "invoke_agent",
      agentId: ran.sessionId,
      result: [{ functionResponse: { id: callId, name: "invoke_agent", response: { output } } }],
      description: "Delegating to agent 'generalist'",
      displayName: "Invoke Subagent",
      renderOutputAsMarkdown: true,
      resultDisplay: { isSubagentProgress: true, agentName: "generalist", state: "completed", result: JSON.stringify({ response: agent.report }, null, 2), terminateReason: "GOAL" },
    });
    // The tool result comes once the sub-agent is done.
    if (tl.t < ran.end) {
      const shift = ran.end + between(r, 5, 40) - tl.t;
      const last = tl.lines.slice(-2);
      for (const l of last) if (typeof l.timestamp === "string") l.timestamp = new Date(Date.parse(l.timestamp) + shift).toISOString();
      const set = last[1]?.$set as Json | undefined;
      if (set) set.lastUpdated = new Date(Date.parse(String(set.lastUpdated)) + shift).toISOString();
      tl.t += shift;
    }
    added = tokensOf(output) + 16;
    toolResult = true;
  }
  const at = tl.at(between(r, 600, 4000));
  const tokens = s.prompt.respond(tl.t, added, tokensOf(c.answer) + 8, toolResult);
  tl.push({ id: uuid(r), timestamp: at, type: "gemini", content: c.answer, thoughts: [{ subject: c.thought, description: "Putting the answer together.", timestamp: at }], tokens, model: s.prompt.model });
  tl.touch();
  return { main: tl.lines, sub, end: tl.t };
}

/**
 * What a `--resume` writes before its turn, given the session file's lines so far: the header
 * again (a new startTime), the context, `$set.sessionId`, then the conversation as the API sees it
 * (gemini-cli-format.md §5-§6): every message under a new timestamp and without tokens and model,
 * a reply's thoughts, text and calls as parts, and each tool call's result once more as a
 * `<id>_response` user message.
 */
export function resumeRecords(existing: readonly Json[], s: Pick<SessionCtx, "sessionId" | "cwd" | "slug">, at: number, home: string): Json[] {
  const byId = new Map<string, Json>();
  for (const l of existing) if (typeof l.id === "string" && typeof l.type === "string" && !("$set" in l)) byId.set(l.id, l);
  const t0 = new Date(at).toISOString();
  const context = contextMessage(s, home, at);
  const copies: Json[] = [];
  for (const m of byId.values()) {
    if (m.type === "user") copies.push({ id: m.id, timestamp: t0, type: "user", content: m.content });
    if (m.type !== "gemini") continue;
    const calls = Array.isArray(m.toolCalls) ? (m.toolCalls as Json[]) : [];
    const thoughts = Array.isArray(m.thoughts) ? (m.thoughts as Json[]) : [];
    const parts: Json[] = [
      ...thoughts.map((t) => ({ text: `**${String(t.subject)}** ${String(t.description)}`, thought: true })),
      ...(typeof m.content === "string" && m.content !== "" ? [{ text: m.content }] : []),
      ...calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args } })),
    ];
    copies.push({ id: m.id, timestamp: t0, type: "gemini", content: parts });
    if (calls.length > 0) copies.push({ id: `${String(m.id)}_response`, timestamp: t0, type: "user", content: calls.flatMap((c) => (Array.isArray(c.result) ? (c.result as Json[]) : [])) });
  }
  return [
    { sessionId: s.sessionId, projectHash: projectHash(s.cwd), startTime: t0, lastUpdated: t0, kind: "main" },
    { $set: { messages: [context], lastUpdated: t0 } },
    { $set: { sessionId: s.sessionId } },
    { $set: { messages: [context, ...copies], lastUpdated: t0 } },
  ];
}
