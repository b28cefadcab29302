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
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { appendLines, parseLines } from "../../jsonl/lines.js";
import type { DemoStep, DemoWriter } from "../../contract.js";
import { between, pick, uuid, type Random } from "../../../base/random.js";
import { GEMINI_TURNS, NEW_SESSION_PROMPT, WRITER_CWD, WRITER_MODEL } from "./content.js";
import { ensureProject, projectHash, sessionFileName } from "./layout.js";
import { contextMessage, GeminiPrompt, resumeRecords, turnRecords, type Json, type SessionCtx } from "./records.js";

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
    // The session last written to, as `--resume latest` picks it (a stray file from a cross-minute
    // resume holds only a header and the context: never it).
    const current = this.sessions(slug).find((f) => f.turns > 0) ?? null;
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
      if (r() < (this.o.resumeShare ?? 1 / 6)) lines.push(...resumeRecords(parseLines(readFileSync(s.file, "utf8")), s, start - between(r, 30, 110), dirname(this.o.geminiDir)));
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

  /** The project's main session files, the one last written to first (by the times inside, which a copy keeps). */
  private sessions(slug: string): SessionState[] {
    const dir = this.chats(slug);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((n) => /^session-.*\.jsonl$/.test(n))
      .map((n) => this.readSession(join(dir, n), slug))
      .filter((s): s is SessionState => s !== null)
      .sort((a, b) => b.lastAt - a.lastAt || (a.file < b.file ? 1 : -1));
  }

  /** Only the newest keepSessions sessions of the project stay: every file of the others (a session can have two) and their sub-agents' folders go. */
  private prune(slug: string): void {
    const files = this.sessions(slug);
    const keep = new Set<string>();
    for (const f of files) if (keep.size < (this.o.keepSessions ?? 4)) keep.add(f.sessionId);
    for (const f of files) {
      if (keep.has(f.sessionId)) continue;
      rmSync(f.file, { force: true });
      rmSync(join(this.chats(slug), f.sessionId), { recursive: true, force: true });
    }
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
}
