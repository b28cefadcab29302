// Expected usage figures straight from the Claude Code and Codex fixture lines, by the counting
// rules of the format docs, without the code under test: Claude Code counts each response once by
// message.id + requestId across every file of the install (first line wins) and skips
// `<synthetic>`; Codex counts each `token_usage_record` once per response_id, input without its
// cached part, under the model of the latest turn_context. Plus a way to move a fixture file's
// timestamps, for day boundaries and old history.
import * as fs from "node:fs";
import * as path from "node:path";

// any: raw fixture JSON, read the way a test reads it.
type Line = Record<string, any>;

export interface ExpectedResponse {
  ts: number;
  sourceId: string;
  model: string;
  project: string;
  /** The session the usage report folds it into (a sub-agent's parent). */
  session: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

const lines = (file: string): Line[] =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Line);

function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".jsonl")) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.sort();
}

/** Every billable response of a Claude Code dir (`.claude`). */
export function claudeResponses(claudeDir: string, sourceId = "claude-code:default"): ExpectedResponse[] {
  const seen = new Set<string>();
  const out: ExpectedResponse[] = [];
  for (const file of jsonlFiles(path.join(claudeDir, "projects"))) {
    const rel = path.relative(path.join(claudeDir, "projects"), file).split(path.sep);
    // <slug>/<session>.jsonl, or <slug>/<session>/subagents/agent-<id>.jsonl (folded into <session>)
    const session = (rel[1] as string).replace(/\.jsonl$/, "");
    for (const l of lines(file)) {
      if (l.type !== "assistant" || l.message?.model === "<synthetic>") continue;
      const key = `${l.message.id}|${l.requestId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const u = l.message.usage;
      out.push({
        ts: Date.parse(l.timestamp),
        sourceId,
        model: l.message.model,
        project: l.cwd,
        session,
        input: u.input_tokens,
        output: u.output_tokens,
        cacheRead: u.cache_read_input_tokens ?? 0,
        cacheWrite: u.cache_creation_input_tokens ?? 0,
        reasoning: u.output_tokens_details?.thinking_tokens ?? 0,
      });
    }
  }
  return out;
}

/** Every billable response of a Codex home (`.codex`). */
export function codexResponses(codexDir: string, sourceId = "codex:default"): ExpectedResponse[] {
  const out: ExpectedResponse[] = [];
  for (const file of jsonlFiles(path.join(codexDir, "sessions")).filter((f) => path.basename(f).startsWith("rollout-"))) {
    const seen = new Set<string>();
    let model = "";
    let project = "";
    let session = "";
    for (const l of lines(file)) {
      if (l.type === "session_meta") {
        session = l.payload.id;
        project = l.payload.cwd;
      }
      if (l.type === "turn_context") model = l.payload.model;
      if (l.type !== "token_usage_record" || seen.has(l.payload.response_id)) continue;
      seen.add(l.payload.response_id);
      const u = l.payload.usage;
      out.push({
        ts: Date.parse(l.timestamp),
        sourceId,
        model,
        project,
        session,
        input: u.input_tokens - (u.cached_input_tokens ?? 0),
        output: u.output_tokens,
        cacheRead: u.cached_input_tokens ?? 0,
        cacheWrite: u.cache_write_input_tokens ?? 0,
        reasoning: u.reasoning_output_tokens ?? 0,
      });
    }
  }
  return out;
}

/** Moves every ISO `timestamp` of a JSONL file (top level and in `payload`) by `ms`. */
export function shiftTimestamps(file: string, ms: number): void {
  const shift = (v: unknown): unknown => (typeof v === "string" && !Number.isNaN(Date.parse(v)) ? new Date(Date.parse(v) + ms).toISOString() : v);
  const out = lines(file).map((l) => {
    const c: Line = { ...l, timestamp: shift(l.timestamp) };
    if (c.payload && typeof c.payload === "object" && "timestamp" in c.payload) c.payload = { ...c.payload, timestamp: shift(c.payload.timestamp) };
    return JSON.stringify(c);
  });
  fs.writeFileSync(file, out.map((l) => `${l}\n`).join(""));
}

/** The file under `dir` whose name contains `part`. */
export function fileNamed(dir: string, part: string): string {
  const f = jsonlFiles(dir).find((p) => path.basename(p).includes(part));
  if (!f) throw new Error(`no file with ${part} under ${dir}`);
  return f;
}

export interface Sums {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  total: number;
  responses: number;
}

export function sums(rs: readonly ExpectedResponse[]): Sums {
  const s: Sums = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, total: 0, responses: 0 };
  for (const r of rs) {
    s.input += r.input;
    s.output += r.output;
    s.cacheRead += r.cacheRead;
    s.cacheWrite += r.cacheWrite;
    s.reasoning += r.reasoning;
    s.responses++;
  }
  s.total = s.input + s.output + s.cacheRead + s.cacheWrite;
  return s;
}

/** Responses grouped by a key, keys sorted. */
export function groupBy(rs: readonly ExpectedResponse[], key: (r: ExpectedResponse) => string): Map<string, ExpectedResponse[]> {
  const m = new Map<string, ExpectedResponse[]>();
  for (const r of rs) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
  return new Map([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `YYYY-MM-DD` of an instant in a zone, by Intl alone. */
export function dayIn(ts: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(ts);
}

/** A report row's figures in the same shape as `sums`. */
export function figuresOf(r: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; reasoningTokens: number; totalTokens: number; responses: number }): Sums {
  return { input: r.inputTokens, output: r.outputTokens, cacheRead: r.cacheReadTokens, cacheWrite: r.cacheWriteTokens, reasoning: r.reasoningTokens, total: r.totalTokens, responses: r.responses };
}
