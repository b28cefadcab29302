// The Claude Code demo writer: each step appends to the demo copy what Claude Code 2.1.330 writes
// for one `--resume` turn of the demo developer's session in the billing service, in its own
// format (claude-code-format.md §2-§5): the queue operations, the prompt, a context reminder, the
// request bookkeeping, the answer as one assistant line per content block (all of a response's
// lines share message.id, requestId and the same usage), a Bash call and its result when the
// exchange has one (then a second response), `last-prompt`, `tools-used` and the cumulative
// `cost-state`. The normal Claude Code reader picks it up like any resumed session.
//
// Everything it needs is read back from the transcript it appends to (the leaf to chain to, the
// turn index, the last request, the cost so far, the prompt cache), so a restarted daemon goes
// on where the file ends. Growth is bounded: after `turnsPerSession` turns a new session starts
// (its first lines copied from the current session's start, as Claude Code writes them for every
// session), only the newest `keepSessions` transcripts of the project are kept, and at most
// `maxTurnsPerDay` turns a day are written.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appendLines, parseLines } from "../../jsonl/lines.js";
import type { DemoStep, DemoWriter } from "../../contract.js";
import { base62, between, hex, pick, uuid, type Random } from "../../../base/random.js";
import { CC_EXCHANGES, NEW_SESSION_PROMPT, WRITER_CWD, WRITER_MODEL, type CcExchange } from "./content.js";
import { CcCostState, CcPromptCache, tokensFromUsage, tokensOf, usageObject, type CcTokens } from "./usage.js";

type Json = Record<string, unknown>;

interface ClaudeCodeWriterOptions {
  /** The demo copy's config dir (`…/claude-code-home/.claude`). */
  configDir: string;
  random: Random;
  /** The project the writer works in (its cwd); default the demo's billing service. */
  cwd?: string;
  turnsPerSession?: number;
  keepSessions?: number;
  maxTurnsPerDay?: number;
}

const DAY = 86_400_000;
const REMINDER = "<total_tokens>15000000 tokens left</total_tokens>";

/** The project dir name Claude Code uses for a cwd (`/` and `.` become `-`). */
function projectSlug(cwd: string): string {
  return cwd.replace(/[/.]/g, "-");
}

/** What the writer reads back from the end of the transcript it continues. */
interface SessionState {
  file: string;
  sessionId: string;
  cwd: string;
  gitBranch: string;
  version: string;
  /** The uuid the next prompt chains to. */
  leaf: string | null;
  turnIndex: number;
  turns: number;
  lastRequest: Json | null;
  cost: CcCostState;
  costState: Json | null;
  tools: string[];
  cache: CcPromptCache;
  /** Lines of the session's first turn before its first request: copied when a new session starts. */
  opening: Json[];
}

export class ClaudeCodeDemoWriter implements DemoWriter {
  readonly provider = "claude-code";
  private day = -1;
  private turnsToday = 0;
  private readonly cwd: string;

  constructor(private readonly o: ClaudeCodeWriterOptions) {
    this.cwd = o.cwd ?? WRITER_CWD;
  }

  private projectDir(): string {
    return join(this.o.configDir, "projects", projectSlug(this.cwd));
  }

  step(now: number): DemoStep {
    const today = Math.floor(now / DAY);
    if (today !== this.day) {
      this.day = today;
      this.turnsToday = 0;
    }
    if (this.turnsToday >= (this.o.maxTurnsPerDay ?? 2000)) return { provider: this.provider, wrote: [] };
    let s = this.readSession(this.newestTranscript());
    let fresh = false;
    if (s.turns >= (this.o.turnsPerSession ?? 25)) {
      s = this.startSession(s);
      fresh = true;
    }
    const ex = fresh ? { ...pick(this.o.random, CC_EXCHANGES.filter((e) => e.bash)), prompt: NEW_SESSION_PROMPT } : pick(this.o.random, CC_EXCHANGES);
    const lines = this.turn(s, ex, now, fresh);
    if (fresh) writeFileSync(s.file, "");
    appendLines(s.file, lines);
    this.turnsToday++;
    if (fresh) this.prune();
    return { provider: this.provider, wrote: [`turn ${s.sessionId}`] };
  }

  close(): void {
    // Nothing is held open between steps.
  }

  /** The project's most recently written transcript. */
  private newestTranscript(): string {
    const dir = this.projectDir();
    const files = readdirSync(dir)
      .filter((n) => n.endsWith(".jsonl"))
      .map((n) => ({ file: join(dir, n), mtime: statSync(join(dir, n)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    if (!files[0]) throw new Error(`the demo copy has no Claude Code session in ${dir}`);
    return files[0].file;
  }

  private readSession(file: string): SessionState {
    const lines = parseLines(readFileSync(file, "utf8"));
    const s: SessionState = {
      file,
      sessionId: "",
      cwd: this.cwd,
      gitBranch: "HEAD",
      version: "2.1.330",
      leaf: null,
      turnIndex: 0,
      turns: 0,
      lastRequest: null,
      cost: new CcCostState(),
      costState: null,
      tools: [],
      cache: new CcPromptCache(this.o.random),
      opening: [],
    };
    let requests = 0;
    for (const l of lines) {
      if (typeof l.sessionId === "string") s.sessionId = l.sessionId;
      if (l.type === "queue-operation" && l.operation === "enqueue") s.turns++;
      if (l.type === "user" || l.type === "assistant") {
        s.leaf = String(l.uuid);
        if (typeof l.gitBranch === "string") s.gitBranch = l.gitBranch;
        if (typeof l.version === "string") s.version = l.version;
        const tp = l.turnPosition as Json | undefined;
        if (typeof tp?.turnIndex === "number") s.turnIndex = tp.turnIndex;
      }
      if (l.type === "api-request") {
        s.lastRequest = l;
        requests++;
      }
      // The session's opening: Claude Code's context attachments and request shape before its first request.
      const att = (l.attachment as Json | undefined)?.type;
      if (requests === 0 && s.turns === 1 && (l.type === "attachment" || l.type === "atis-latch" || l.type === "api-request-shape") && att !== "total_tokens_reminder") s.opening.push(l);
      if (l.type === "cost-state") {
        s.costState = l;
        s.cost = CcCostState.from(l.modelUsage);
      }
      if (l.type === "tools-used" && Array.isArray(l.tools)) s.tools = l.tools.map(String);
      if (l.type === "assistant" && (l.message as Json | undefined)?.model !== "<synthetic>") {
        const t = tokensFromUsage((l.message as Json).usage);
        if (t) {
          s.cache.cached = t.cacheRead + t.cacheWrite;
          s.cache.lastAt = Date.parse(String(l.timestamp));
        }
      }
    }
    if (!s.sessionId) throw new Error(`${file}: not a Claude Code transcript`);
    return s;
  }

  /** A new session in the same project: its first lines are the current session's opening, re-stamped. */
  private startSession(prev: SessionState): SessionState {
    const sessionId = uuid(this.o.random);
    return {
      ...prev,
      file: join(this.projectDir(), `${sessionId}.jsonl`),
      sessionId,
      leaf: null,
      turnIndex: 0,
      turns: 0,
      lastRequest: prev.lastRequest,
      cost: new CcCostState(),
      costState: null,
      tools: [],
      cache: new CcPromptCache(this.o.random),
    };
  }

  /** Keeps the newest `keepSessions` transcripts of the project (with their sub-agent dirs). */
  private prune(): void {
    const dir = this.projectDir();
    const files = readdirSync(dir)
      .filter((n) => n.endsWith(".jsonl"))
      .map((n) => ({ n, mtime: statSync(join(dir, n)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const f of files.slice(this.o.keepSessions ?? 4)) {
      rmSync(join(dir, f.n), { force: true });
      rmSync(join(dir, f.n.replace(/\.jsonl$/, "")), { recursive: true, force: true });
    }
  }

  /** The lines of one turn, timed to end just before `now`. */
  private turn(s: SessionState, ex: CcExchange, now: number, fresh: boolean): Json[] {
    const r = this.o.random;
    // Durations first, so the turn can be laid out to end just before now.
    const d = { start: between(r, 60, 250), request: between(r, 150, 900), first: between(r, 900, 4500), tool: between(r, 80, 600), second: between(r, 1200, 6000), tail: between(r, 20, 150) };
    const total = d.start + d.request + d.first + (ex.bash ? d.tool + d.request + d.second : 0) + d.tail;
    // A little room for the few milliseconds between lines that are not in `d`.
    let t = now - total - 400;
    const at = (ms: number): string => new Date((t += ms)).toISOString();
    const common = (): Json => ({ userType: "external", entrypoint: "sdk-cli", cwd: s.cwd, sessionId: s.sessionId, version: s.version, gitBranch: s.gitBranch });
    const startedAt = t;
    const out: Json[] = [];
    const promptId = uuid(r);
    out.push({ type: "queue-operation", operation: "enqueue", timestamp: at(0), sessionId: s.sessionId, content: ex.prompt });
    out.push({ type: "queue-operation", operation: "dequeue", timestamp: at(3), sessionId: s.sessionId });
    const promptUuid = uuid(r);
    const promptTs = at(d.start);
    out.push({
      parentUuid: s.leaf,
      isSidechain: false,
      promptId,
      type: "user",
      message: { role: "user", content: ex.prompt },
      uuid: promptUuid,
      timestamp: promptTs,
      permissionMode: "bypassPermissions",
      promptSource: "sdk",
      turnOrigin: "sdk",
      turnPosition: { promptIndex: 0, turnIndex: s.turnIndex + 1 },
      ...common(),
    });
    let leaf = promptUuid;
    if (fresh) {
      // A new session opens with Claude Code's context attachments and the request shape.
      for (const o of s.opening) {
        const copy = JSON.parse(JSON.stringify(o)) as Json;
        copy.sessionId = s.sessionId;
        if ("timestamp" in copy) copy.timestamp = promptTs;
        if ("uuid" in copy) {
          copy.parentUuid = leaf;
          copy.uuid = uuid(r);
          leaf = String(copy.uuid);
        }
        const att = copy.attachment as Json | undefined;
        if (att?.type === "date") {
          const today = promptTs.slice(0, 10);
          copy.attachment = { ...att, date: today };
          copy.rendered = [{ content: `<system-reminder>\nToday's date is ${today}.\n</system-reminder>` }];
        }
        out.push(copy);
      }
    }
    const reminder = (): Json => {
      const u = uuid(r);
      const line = { parentUuid: leaf, isSidechain: false, attachment: { type: "total_tokens_reminder", text: REMINDER }, type: "attachment", uuid: u, timestamp: new Date(t).toISOString(), rendered: [{ content: `<system-reminder>\n${REMINDER}\n</system-reminder>` }], renderedRole: "system", ...common() };
      leaf = u;
      return line;
    };
    out.push(reminder());
    let lastRequest = s.lastRequest;
    const request = (content: Json[], wait: number): string => {
      const message = { role: "user", content };
      const hash = createHash("sha256").update(JSON.stringify(message)).digest("hex");
      out.push({ type: "api-request-blob", sessionId: s.sessionId, hash, message });
      const id = uuid(r);
      const prev = lastRequest;
      out.push({
        type: "api-request",
        sessionId: s.sessionId,
        id,
        timestamp: at(wait),
        version: s.version,
        querySource: "sdk",
        shapeHash: prev?.shapeHash ?? hex(r, 64),
        params: { ...((prev?.params as Json | undefined) ?? {}), model: WRITER_MODEL },
        ...(prev && !fresh ? { base: prev.id } : {}),
        keep: prev && !fresh ? between(r, 1, 9) : 0,
        tail: [hash],
        cacheControl: prev?.cacheControl ?? [],
        requestDigest: hex(r, 64),
      });
      lastRequest = out[out.length - 1] as Json;
      return id;
    };
    const reminderBlock = { type: "text", text: `<system-reminder>\n${REMINDER}\n</system-reminder>\n` };
    let requestRef = request([reminderBlock, { type: "text", text: ex.prompt }], d.request);
    out.push({ type: "last-prompt", lastPrompt: ex.prompt, leafUuid: leaf, sessionId: s.sessionId });

    const cost = s.cost;
    let added = tokensOf(ex.prompt) + 40;
    const respond = (blocks: Json[], stop: string, wait: number): string => {
      const visible = blocks.map((b) => (b.type === "text" ? String(b.text) : JSON.stringify(b.input))).join("");
      const output = tokensOf(visible) + between(r, 24, 90);
      t += wait;
      const tokens: CcTokens = s.cache.request(t, added, output);
      cost.add(WRITER_MODEL, tokens);
      const message = { id: `msg_01${base62(r, 22)}`, type: "message", role: "assistant", model: WRITER_MODEL, stop_reason: stop, stop_sequence: null, usage: usageObject(tokens), stop_details: null };
      const requestId = `req_011C${base62(r, 20)}`;
      blocks.forEach((block, i) => {
        const u = uuid(r);
        out.push({
          parentUuid: leaf,
          isSidechain: false,
          message: { id: message.id, type: message.type, role: message.role, model: message.model, content: [block], stop_reason: stop, stop_sequence: null, usage: message.usage, stop_details: null },
          ...(block.type === "tool_use" ? { toolInputStreamMs: between(r, 40, 240) } : {}),
          apiBlockIndex: i,
          requestId,
          requestRef,
          requestedModel: WRITER_MODEL,
          promptCacheRequested: "5m",
          type: "assistant",
          uuid: u,
          timestamp: at(i === 0 ? 0 : between(r, 40, 120)),
          perTurnEffort: null,
          madeBy: "model",
          ...common(),
        });
        leaf = u;
      });
      added = output;
      return leaf;
    };

    let toolMs = 0;
    if (ex.bash) {
      const toolUseId = `toolu_01${base62(r, 22)}`;
      const toolLine = respond([{ type: "text", text: ex.lead ?? "Let me check." }, { type: "tool_use", id: toolUseId, name: "Bash", input: { command: ex.bash.command, description: ex.bash.description } }], "tool_use", d.first);
      if (!s.tools.includes("Bash")) {
        s.tools = [...s.tools, "Bash"];
        out.push({ type: "tools-used", tools: s.tools, sessionId: s.sessionId });
      }
      toolMs = d.tool;
      const resultUuid = uuid(r);
      out.push({
        parentUuid: toolLine,
        isSidechain: false,
        promptId,
        type: "user",
        message: { role: "user", content: [{ tool_use_id: toolUseId, type: "tool_result", content: ex.bash.stdout, is_error: false }] },
        uuid: resultUuid,
        timestamp: at(d.tool),
        toolUseResult: { stdout: ex.bash.stdout, stderr: "", interrupted: false, isImage: false, noOutputExpected: false },
        sandboxed: false,
        sourceToolAssistantUUID: toolLine,
        permissionDecision: { decision: "accept", source: "config", reasonType: "mode" },
        ...common(),
      });
      leaf = resultUuid;
      added += tokensOf(ex.bash.stdout) + 30;
      out.push(reminder());
      requestRef = request([{ tool_use_id: toolUseId, type: "tool_result", content: `${ex.bash.stdout}\n\n<system-reminder>\n${REMINDER}\n</system-reminder>`, is_error: false }], 20);
      respond([{ type: "text", text: ex.answer }], "end_turn", d.second);
    } else {
      respond([{ type: "text", text: ex.answer }], "end_turn", d.first);
    }
    t += d.tail;
    out.push({ type: "last-prompt", lastPrompt: ex.prompt, leafUuid: leaf, sessionId: s.sessionId });
    const prev = s.costState;
    const n = (k: string): number => (typeof prev?.[k] === "number" ? (prev[k] as number) : 0);
    const apiMs = d.first + (ex.bash ? d.second : 0);
    out.push({
      type: "cost-state",
      sessionId: s.sessionId,
      totalCostUSD: cost.totalCost(),
      totalAPIDuration: n("totalAPIDuration") + apiMs,
      totalAPIDurationWithoutRetries: n("totalAPIDurationWithoutRetries") + apiMs,
      totalToolDuration: n("totalToolDuration") + toolMs,
      totalLinesAdded: n("totalLinesAdded"),
      totalLinesRemoved: n("totalLinesRemoved"),
      totalDuration: n("totalDuration") + (t - startedAt),
      startTime: typeof prev?.startTime === "number" ? prev.startTime : startedAt,
      modelUsage: cost.modelUsage(),
      hasUnknownModelCost: false,
    });
    if (s.tools.length) out.push({ type: "tools-used", tools: s.tools, sessionId: s.sessionId });
    return out;
  }
}
