// Gemini CLI's counting rule (gemini-cli-format.md §4-§6, §11) done by hand on the raw session
// JSONL files, for tests that compare what the daemon shows with what the files say. Nothing here
// imports product code: the rule and the prices are written out from the format doc.
//
// - One API response = one top-level `gemini` record id with a `tokens` object. The same record is
//   appended 2-3 times per tool round (then with its toolCalls): counted once, by id, across files.
// - `$set.messages` (resume, /compress, rollback re-listings without tokens) never count, nor do
//   headers, `$set` patches or `$rewindTo`.
// - Prompts = top-level `user` records with a text part, by id within the session (a tool result is
//   a user record of functionResponse parts only). Tool calls = distinct toolCall ids; a tool error
//   = one whose last record says status "error". `error`/`warning` records are incidents (§7).
// - Session = the header's sessionId (one session may span two files after a cross-minute resume);
//   a sub-agent's file (header kind "subagent") lives in chats/<parentSessionId>/.
// - Tokens in the project's vocabulary: input = input − cached + tool (tool-use prompt tokens are
//   billed as input and are not part of `input`), cacheRead = cached, output = output + thoughts
//   (thoughts are billed as output), reasoning = thoughts.
// - Cost: each response priced on its own with Google's prices (§11); Pro models bill the whole
//   request at the higher tier when its prompt (input + tool) is over 200k tokens. A model with no
//   price is unpriced (never $0).
// - Sums are the conformance kit's Figures (test/helpers/figures.ts); the kit's adapter
//   (conformance/gemini-cli.ts), the e2e tests and the reader's tests all take their figures here.
import fs from "node:fs";
import path from "node:path";
import { addFigures, zeroFigures, type Figures } from "./figures.js";

type Rec = Record<string, unknown>;

/** USD per million tokens (gemini-cli-format.md §11, from @pydantic/genai-prices 0.1.8). */
interface Rate {
  input: number;
  cacheRead: number;
  output: number;
}
const PRICES: Record<string, { base: Rate; over200k?: Rate }> = {
  "gemini-2.5-pro": { base: { input: 1.25, cacheRead: 0.125, output: 10 }, over200k: { input: 2.5, cacheRead: 0.25, output: 15 } },
  "gemini-2.5-flash": { base: { input: 0.3, cacheRead: 0.03, output: 2.5 } },
  "gemini-2.5-flash-lite": { base: { input: 0.1, cacheRead: 0.01, output: 0.4 } },
  "gemini-3-pro-preview": { base: { input: 2, cacheRead: 0.2, output: 12 }, over200k: { input: 4, cacheRead: 0.4, output: 18 } },
  "gemini-3.1-pro-preview": { base: { input: 2, cacheRead: 0.2, output: 12 }, over200k: { input: 4, cacheRead: 0.4, output: 18 } },
  "gemini-3-flash-preview": { base: { input: 0.5, cacheRead: 0.05, output: 3 } },
  "gemini-3.5-flash-lite": { base: { input: 0.3, cacheRead: 0.03, output: 2.5 } },
  "gemini-2.0-flash": { base: { input: 0.1, cacheRead: 0.025, output: 0.4 } },
};
const TIER_ABOVE = 200_000;

/** A record's `tokens` as Gemini CLI writes them (all numbers). */
export interface RawTokens {
  input: number;
  output: number;
  cached: number;
  thoughts: number;
  tool: number;
  total: number;
}

export interface Mapped {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

export interface Response {
  id: string;
  sessionId: string;
  model: string;
  ts: number;
  raw: RawTokens;
  mapped: Mapped;
  /** USD, null when the model has no price. */
  cost: number | null;
}

/** A file's figures, or a session's: the conformance kit's Figures (errors and warnings: the `error` and `warning` records). */
export type Sums = Figures;
export { addFigures as add, zeroFigures as zero };

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** The tokens object of a record, or null when it has none (a re-listed copy, a text-less notice). */
export function tokensOf(rec: Rec): RawTokens | null {
  const t = rec.tokens;
  if (!t || typeof t !== "object") return null;
  const o = t as Rec;
  return { input: num(o.input), output: num(o.output), cached: num(o.cached), thoughts: num(o.thoughts), tool: num(o.tool), total: num(o.total) };
}

export function mapTokens(t: RawTokens): Mapped {
  return { input: t.input - t.cached + t.tool, output: t.output + t.thoughts, cacheRead: t.cached, cacheWrite: 0, reasoning: t.thoughts };
}

/** USD for one response; null when the model has no price. */
export function priceOf(model: string, t: RawTokens): number | null {
  const p = PRICES[model];
  if (!p) return null;
  const prompt = t.input + t.tool;
  const r = p.over200k && prompt > TIER_ABOVE ? p.over200k : p.base;
  return ((prompt - t.cached) * r.input + t.cached * r.cacheRead + (t.output + t.thoughts) * r.output) / 1e6;
}

/** One session file's JSON lines; a torn last line (a write in progress) and non-JSON lines are skipped. */
export function readLines(file: string): Rec[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const out: Rec[] = [];
  for (const line of text.split("\n").slice(0, -1)) {
    try {
      const v: unknown = JSON.parse(line);
      if (v && typeof v === "object" && !Array.isArray(v)) out.push(v as Rec);
    } catch {
      // not JSON
    }
  }
  return out;
}

export interface SessionFile {
  /** Path relative to the .gemini dir. */
  rel: string;
  file: string;
  /** The project's slug dir name. */
  slug: string;
  /** The project's cwd, from the slug dir's .project_root. */
  cwd: string | null;
  sessionId: string;
  kind: "main" | "subagent";
  /** The parent session of a sub-agent (its folder's name). */
  parent: string | null;
  lines: Rec[];
}

/** Every session file under `<geminiDir>/tmp/<slug>/chats/`, main and sub-agent, with its header's facts, in path order (a transcript's id is its path: the first file holding a response owns it). */
export function sessionFiles(geminiDir: string): SessionFile[] {
  const out: SessionFile[] = [];
  const tmp = path.join(geminiDir, "tmp");
  let slugs: string[] = [];
  try {
    slugs = fs.readdirSync(tmp);
  } catch {
    return out;
  }
  for (const slug of slugs) {
    const chats = path.join(tmp, slug, "chats");
    if (!fs.existsSync(chats)) continue;
    let cwd: string | null = null;
    try {
      cwd = fs.readFileSync(path.join(tmp, slug, ".project_root"), "utf8");
    } catch {
      // an old layout or a half-made dir
    }
    const take = (file: string, parent: string | null): void => {
      const lines = readLines(file);
      const header = lines.find((l) => typeof l.sessionId === "string" && "startTime" in l);
      if (!header) return;
      out.push({ rel: path.relative(geminiDir, file), file, slug, cwd, sessionId: String(header.sessionId), kind: header.kind === "subagent" ? "subagent" : "main", parent, lines });
    };
    for (const e of fs.readdirSync(chats, { withFileTypes: true })) {
      if (e.isFile() && /^session-.*\.jsonl$/.test(e.name)) take(path.join(chats, e.name), null);
      else if (e.isDirectory()) {
        for (const f of fs.readdirSync(path.join(chats, e.name))) if (f.endsWith(".jsonl")) take(path.join(chats, e.name, f), e.name);
      }
    }
  }
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** Top-level message records only (headers, `$set`, `$rewindTo` are not messages). */
export const isMessage = (l: Rec): boolean => typeof l.id === "string" && typeof l.type === "string" && !("$set" in l) && !("$rewindTo" in l);

/** A prompt: a top-level user record with a text part (a tool result is a user record of functionResponse parts only). */
export const isPrompt = (l: Rec): boolean => isMessage(l) && l.type === "user" && Array.isArray(l.content) && (l.content as Rec[]).some((p) => typeof p?.text === "string");

/** The responses of one file (by id; `seen` spans files), each mapped and priced. */
export function responsesOf(f: Pick<SessionFile, "sessionId" | "lines">, seen = new Set<string>()): Response[] {
  const out: Response[] = [];
  for (const l of f.lines) {
    if (!isMessage(l) || l.type !== "gemini") continue;
    const raw = tokensOf(l);
    const id = l.id as string;
    if (!raw || seen.has(id)) continue;
    seen.add(id);
    const model = typeof l.model === "string" ? l.model : "";
    out.push({ id, sessionId: f.sessionId, model, ts: Date.parse(String(l.timestamp)), raw, mapped: mapTokens(raw), cost: priceOf(model, raw) });
  }
  return out;
}

/** Ids already counted: responses across all files; prompts, tool calls (with their last status) and notices per `<sessionId>/<id>`. */
export interface Seen {
  responses: Set<string>;
  messages: Set<string>;
  tools: Map<string, string>;
}

/** One file's figures; `seen` spans files. */
export function fileSums(f: SessionFile, seen: Seen): Sums {
  const s = zeroFigures();
  const once = (id: string): boolean => {
    if (seen.messages.has(id)) return false;
    seen.messages.add(id);
    return true;
  };
  for (const l of f.lines) {
    if (!isMessage(l)) continue;
    const id = `${f.sessionId}/${l.id as string}`;
    if (isPrompt(l) && once(id)) s.prompts++;
    // `error` and `warning` records are UI notices: the event log's incidents (§4, §7).
    if (l.type === "error" && once(id)) s.errors++;
    if (l.type === "warning" && once(id)) s.warnings++;
    if (l.type === "gemini" && Array.isArray(l.toolCalls)) {
      for (const c of l.toolCalls as Rec[]) {
        const cid = `${f.sessionId}/${String(c.id)}`;
        if (!seen.tools.has(cid)) s.toolCalls++;
        seen.tools.set(cid, String(c.status));
      }
    }
  }
  for (const r of responsesOf(f, seen.responses)) {
    s.responses++;
    s.input += r.mapped.input;
    s.output += r.mapped.output;
    s.cacheRead += r.mapped.cacheRead;
    s.reasoning += r.mapped.reasoning;
    if (r.cost === null) s.unpriced++;
    else s.cost += r.cost;
  }
  return s;
}

export interface Expected {
  /** Per header sessionId (a sub-agent is its own session). */
  bySession: Map<string, Sums>;
  total: Sums;
  /** Tool calls whose last record says status "error" (Figures has no column for them): per session and in total. */
  toolErrors: { bySession: Map<string, number>; total: number };
  /** Every response, in file order. */
  responses: Response[];
  /** Per session: its project's cwd, kind and parent. */
  sessions: Map<string, { cwd: string | null; kind: "main" | "subagent"; parent: string | null }>;
}

/** The whole home's figures: per session and in total. */
export function expected(files: SessionFile[]): Expected {
  const seen: Seen = { responses: new Set(), messages: new Set(), tools: new Map() };
  const bySession = new Map<string, Sums>();
  const sessions: Expected["sessions"] = new Map();
  const total = zeroFigures();
  const responses: Response[] = [];
  for (const f of files) {
    const s = fileSums(f, seen);
    bySession.set(f.sessionId, addFigures(bySession.get(f.sessionId) ?? zeroFigures(), s));
    addFigures(total, s);
    responses.push(...responsesOf(f, new Set()));
    if (!sessions.has(f.sessionId) || f.lines.some(isMessage)) sessions.set(f.sessionId, { cwd: f.cwd, kind: f.kind, parent: f.parent });
  }
  // A tool call's final status is its last record's: count the errors once all files are read.
  const toolErrors: Expected["toolErrors"] = { bySession: new Map(), total: 0 };
  for (const [cid, status] of seen.tools) {
    if (status !== "error") continue;
    const sid = cid.slice(0, cid.indexOf("/"));
    toolErrors.bySession.set(sid, (toolErrors.bySession.get(sid) ?? 0) + 1);
    toolErrors.total++;
  }
  const unique = new Map(responses.map((r) => [r.id, r]));
  return { bySession, total, toolErrors, responses: [...unique.values()], sessions };
}

/** What the fake API served: per responseId, the usage it returned (gemini-cli-format.md §5's table). */
export interface Served {
  responseId: string;
  model: string;
  raw: RawTokens;
}

/** Streamed model responses of the fake API's request log (side calls without tools excluded: no file records them). */
export function servedResponses(requests: Rec[]): Served[] {
  const out: Served[] = [];
  for (const r of requests) {
    if (typeof r.responseId !== "string" || r.method !== "streamGenerateContent") continue;
    const u = (r.usage ?? {}) as Rec;
    out.push({
      responseId: r.responseId,
      model: String(r.model),
      raw: { input: num(u.promptTokenCount), output: num(u.candidatesTokenCount), cached: num(u.cachedContentTokenCount), thoughts: num(u.thoughtsTokenCount), tool: num(u.toolUsePromptTokenCount), total: num(u.totalTokenCount) },
    });
  }
  return out;
}
