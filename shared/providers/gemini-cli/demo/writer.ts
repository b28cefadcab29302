// The Gemini CLI demo writer: each step appends to the demo copy what Gemini CLI 0.61.0 writes for
// one turn in the mobile app's project, in its own session format (records.ts). Most steps go on
// with the newest session as an open interactive session does; now and then the turn comes from a
// new process that resumed the session (`--resume latest`: a second header line, the context
// `$set.messages`, `$set.sessionId`, and the old messages re-listed without their tokens, which a
// reader must not count again). A turn now and then delegates to the generalist sub-agent, whose
// own file goes to chats/<sessionId>/. The project is registered in projects.json as a first run
// there would.
//
// Everything it needs is read back from the files (the session, its turns, the prompt size and
// model of its last reply), so a restarted daemon goes on where the copy ends. Growth is bounded:
// after `turnsPerSession` turns a new session starts (a new file named by its UTC minute), only
// the newest `keepSessions` sessions of the project are kept (with their sub-agent folders), and at
// most `maxTurnsPerDay` turns a day are written.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { appendLines, parseLines } from "../../jsonl/lines.js";
import type { DemoStep, DemoWriter } from "../../contract.js";
import { between, pick, uuid, type Random } from "../../../base/random.js";
import { GEMINI_TURNS, NEW_SESSION_PROMPT, WRITER_CWD, WRITER_MODEL } from "./content.js";
import { ensureProject, projectHash, sessionFileName } from "./layout.js";
import { contextMessage, GeminiPrompt, turnRecords, type Json, type SessionCtx } from "./records.js";

interface GeminiWriterOptions {
  /** The demo copy's `.gemini` dir. */
  geminiDir: string;
  random: Random;
  /** The project the writer works in; default the demo's mobile app repository. */
  cwd?: string;
  turnsPerSession?: number;
  keepSessions?: number;
  maxTurnsPerDay?: number;
  /** Share of steps that resume the session from a new process (default 1 in 6). */
  resumeShare?: number;
  /** Share of steps whose turn delegates to the sub-agent (default 1 in 8). */
  agentShare?: number;
}

const DAY = 86_400_000;

interface SessionState extends SessionCtx {
  file: string;
  turns: number;
  lastAt: number;
}

export class GeminiCliDemoWriter implements DemoWriter {
  readonly provider = "gemini-cli";
  private day = -1;
  private turnsToday = 0;
  private readonly cwd: string;

  constructor(private readonly o: GeminiWriterOptions) {
    this.cwd = o.cwd ?? WRITER_CWD;
  }

  step(now: number): DemoStep {
    const today = Math.floor(now / DAY);
    if (today !== this.day) {
      this.day = today;
      this.turnsToday = 0;
    }
    if (this.turnsToday >= (this.o.maxTurnsPerDay ?? 2000)) return { provider: this.provider, wrote: [] };
    const r = this.o.random;
    const slug = ensureProject(this.o.geminiDir, this.cwd);
    const hash = projectHash(this.cwd);
    const newest = this.sessions(slug)[0];
    const current = newest ? this.readSession(newest, slug) : null;
    const agent = r() < (this.o.agentShare ?? 1 / 8);
    const pool = GEMINI_TURNS.filter((t) => Boolean(t.agent) === agent);
    let content = pick(r, pool.length > 0 ? pool : GEMINI_TURNS);
    // The turn ends just before now: laid out from a start far enough back.
    const start = now - 25_000 - between(r, 0, 5_000);
    let s: SessionState;
    const lines: Json[] = [];
    if (!current || current.turns >= (this.o.turnsPerSession ?? 20)) {
      const opened = start - between(r, 30, 110);
      const sessionId = uuid(r);
      s = { sessionId, cwd: this.cwd, slug, prompt: new GeminiPrompt(r, WRITER_MODEL), file: join(this.chats(slug), sessionFileName(opened, sessionId)), turns: 0, lastAt: opened };
      const t0 = new Date(opened).toISOString();
      const t1 = new Date(opened + 1).toISOString();
      lines.push({ sessionId, projectHash: hash, startTime: t0, lastUpdated: t0, kind: "main" }, { $set: { messages: [contextMessage(s, dirname(this.o.geminiDir), opened + 1)], lastUpdated: t1 } });
      content = { ...content, prompt: NEW_SESSION_PROMPT };
      mkdirSync(this.chats(slug), { recursive: true });
      writeFileSync(s.file, "");
    } else {
      s = current;
      if (r() < (this.o.resumeShare ?? 1 / 6)) lines.push(...this.resumeLines(s, start - between(r, 30, 110)));
    }
    const out = turnRecords(r, s, content, Math.max(start, s.lastAt + 1), hash);
    appendLines(s.file, [...lines, ...out.main]);
    if (out.sub) {
      const dir = join(this.chats(slug), s.sessionId);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${out.sub.sessionId}.jsonl`), out.sub.lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    }
    if (s.turns === 0) this.prune(slug);
    this.turnsToday++;
    return { provider: this.provider, wrote: [`turn ${s.sessionId}`] };
  }

  close(): void {
    // Nothing is held open between steps.
  }

  private chats(slug: string): string {
    return join(this.o.geminiDir, "tmp", slug, "chats");
  }

  /** The project's main session files, newest write first. */
  private sessions(slug: string): string[] {
    const dir = this.chats(slug);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((n) => /^session-.*\.jsonl$/.test(n))
      .map((n) => ({ file: join(dir, n), mtime: statSync(join(dir, n)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? 1 : -1))
      .map((f) => f.file);
  }

  /** Only the newest keepSessions sessions of the project stay, each with its sub-agents' folder. */
  private prune(slug: string): void {
    for (const file of this.sessions(slug).slice(this.o.keepSessions ?? 4)) {
      const id = this.headerId(file);
      rmSync(file, { force: true });
      if (id) rmSync(join(this.chats(slug), id), { recursive: true, force: true });
    }
  }

  private headerId(file: string): string | null {
    const first = parseLines(readFileSync(file, "utf8").split("\n", 1)[0] + "\n")[0];
    return typeof first?.sessionId === "string" ? first.sessionId : null;
  }

  private readSession(file: string, slug: string): SessionState | null {
    let sessionId = "";
    let turns = 0;
    let lastAt = 0;
    let model = WRITER_MODEL;
    let size = 0;
    let replyAt: number | null = null;
    for (const l of parseLines(readFileSync(file, "utf8"))) {
      if (!sessionId && typeof l.sessionId === "string" && "startTime" in l) sessionId = l.sessionId;
      const t = typeof l.timestamp === "string" ? Date.parse(l.timestamp) : NaN;
      if (!Number.isNaN(t)) lastAt = Math.max(lastAt, t);
      if (l.type === "user" && Array.isArray(l.content) && (l.content as Json[]).some((p) => typeof p.text === "string")) turns++;
      const tokens = l.tokens as Json | undefined;
      if (l.type === "gemini" && tokens && typeof tokens.input === "number" && typeof tokens.output === "number") {
        size = tokens.input + tokens.output;
        replyAt = t;
        if (typeof l.model === "string") model = l.model;
      }
    }
    if (!sessionId) return null;
    const prompt = new GeminiPrompt(this.o.random, model);
    prompt.size = size;
    prompt.lastAt = replyAt;
    return { sessionId, cwd: this.cwd, slug, prompt, file, turns, lastAt };
  }

  /**
   * What a `--resume` writes before its turn: the header again (a new startTime), the context,
   * `$set.sessionId`, then the conversation so far as the API sees it (gemini-cli-format.md §5-§6):
   * every message under a new timestamp and without tokens and model, a reply's thoughts, text and
   * calls as parts, and each tool call's result once more as a `<id>_response` user message.
   */
  private resumeLines(s: SessionState, at: number): Json[] {
    const byId = new Map<string, Json>();
    for (const l of parseLines(readFileSync(s.file, "utf8"))) {
      if (typeof l.id === "string" && typeof l.type === "string" && !("$set" in l)) byId.set(l.id, l);
    }
    const t0 = new Date(at).toISOString();
    const context = contextMessage(s, dirname(this.o.geminiDir), at);
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
}
