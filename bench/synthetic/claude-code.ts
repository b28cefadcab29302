// A synthetic Claude Code history (~/.claude) made of the real lines of the 2.1.330 fixture
// (/work/shared/claude-code-format.md): 200 projects, sessions over the last 60 days, resumed
// sessions appending to the same file, about one session in ten with a sub-agent transcript, a few
// API-error sessions. Every copy gets its own session id, uuids, message and request ids and tool
// ids; timestamps move with the copy; token counts are drawn from a seeded PRNG. The big lines
// (prompt_snapshot attachments, api-request-shape) keep their real sizes: they are most of the bytes.
//
//   node --import tsx bench/synthetic/claude-code.ts [--quick] [--bytes 2g] [--files 7000] [--seed 1] [--now <iso>] [--rebuild]
//
// Output: .tmp/bench/providers/claude-code-…/home/.claude (CLAUDE_CONFIG_DIR) and manifest.json.
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { addDay, sortedDays, type DayTotals } from "./daily.js";
import { likeId, uuid4 } from "./ids.js";
import { commonRules, compile, FileWriter, render, type Rule, type Segment, type Slot } from "./line-template.js";
import {
  blockStarts,
  cacheDir,
  describeDataset,
  distribute,
  ensureDataset,
  finishBuild,
  FIXTURES,
  generatorArgs,
  isoOf,
  pickProject,
  pickWeighted,
  projectCwd,
  projectIsGit,
  relative,
  sessionRng,
  slugOf,
  startBuild,
  type EnsureOptions,
  type ProviderDataset,
  type ProviderManifest,
  type ProviderParams,
} from "./provider-common.js";
import type { Rng } from "./random.js";

/** Bump when the output changes: cached datasets are then rebuilt. */
const VERSION = 1;
const FIXTURE_HOME = path.join(FIXTURES, "claude-code-2.1.330");
const FIXTURE_PROJECTS = path.join(FIXTURE_HOME, ".claude", "projects");

/**
 * Full and --quick sizes. The file count follows from the bytes: in 2.1.330 a new `claude -p`
 * session is 150-275 KB before any resume (a 29 KB and a 110 KB prompt_snapshot, a 76 KB
 * api-request-shape, a 14 KB skill listing), so 2 GB holds about 7,000 transcripts with a few
 * resumed turns each; 20,000 transcripts at real line sizes would be about 5 GB.
 */
export const CC_SIZES = { full: { bytes: 2e9, files: 7000 }, quick: { bytes: 50e6, files: 170 } } as const;

type ModelId = "claude-sonnet-4-5-20250929" | "claude-haiku-4-5-20251001" | "claude-opus-4-5-20251101";

/** List prices, USD per million tokens (format doc §4). */
const MODELS: Record<ModelId, { name: string; input: number; output: number; cacheWrite: number; cacheRead: number }> = {
  "claude-sonnet-4-5-20250929": { name: "Sonnet 4.5", input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  "claude-haiku-4-5-20251001": { name: "Haiku 4.5", input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
  "claude-opus-4-5-20251101": { name: "Opus 4.5", input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
};
const MODEL_WEIGHTS: Record<ModelId, number> = { "claude-sonnet-4-5-20250929": 55, "claude-opus-4-5-20251101": 30, "claude-haiku-4-5-20251001": 15 };

// ---------------------------------------------------------------------------------------------
// Templates

interface CostLine {
  /** What this invocation added to Claude Code's running counters in the fixture. */
  deltas: Record<(typeof COST_COUNTERS)[number], number>;
}
const COST_COUNTERS = ["totalAPIDuration", "totalAPIDurationWithoutRetries", "totalToolDuration", "totalLinesAdded", "totalLinesRemoved", "totalDuration"] as const;

interface TLine {
  segs: Segment[];
  /** cost-state lines are written by code: their totals are the session's. */
  cost: CostLine | null;
}

interface TResponse {
  msgId: string;
  sub: boolean;
  /** The fixture instant of its first line. */
  firstMs: number;
}

interface Block {
  name: string;
  lines: TLine[];
  sub: { lines: TLine[]; agentId: string; meta: Segment[] } | null;
  responses: TResponse[];
  originMs: number;
  spanMs: number;
  /** The fixture uuid of the conversation leaf at the end of the block (last `last-prompt`). */
  leaf: string;
  /** The fixture uuid that, in a resumed block, stands for the previous block's leaf. */
  prevLeaf: string | null;
  bytes: number;
  failed: boolean;
}

interface Templates {
  first: Record<FirstKind, Block>;
  /** The fixture's --resume turn, and the same turn with a text block before its first tool call. */
  resume: [Block, Block];
  sessionIds: Set<string>;
  claudeJson: string;
}

type FirstKind = "bash" | "plain" | "agent" | "read" | "error";
/** Which fixture session starts a synthetic one: an Agent turn (with its sub-agent file) in one of ten. */
const FIRST_WEIGHTS: Record<FirstKind, number> = { bash: 30, plain: 27, read: 30, agent: 10, error: 3 };
const FIRST_FILES: Record<FirstKind, string> = {
  bash: "-home-op-code-api-server/2e9c2371-da3e-47f6-90cb-2bbf8fb5defc.jsonl",
  plain: "-home-op-code-api-server/5108af6e-f189-45e9-bdc7-b8ebdcc5714b.jsonl",
  agent: "-home-op-code-api-server/ae24cb29-2728-49b1-a664-ab5bcd4d2ced.jsonl",
  read: "-home-op-code-web-ui/a192c37f-e620-463e-a774-51cf503a8cc7.jsonl",
  error: "-home-op-code-web-ui/099ba3cc-161b-48e0-aab9-43167bb42fd3.jsonl",
};

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const UUID_G = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

function readLines(file: string): string[] {
  return fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
}

/** Indexes of the lines that start an invocation (queue-operation enqueue). */
function invocationStarts(lines: readonly string[]): number[] {
  return lines.flatMap((l, i) => ((JSON.parse(l) as Json).type === "queue-operation" && (JSON.parse(l) as Json).operation === "enqueue" ? [i] : []));
}

interface CompileCtx {
  range: { minMs: number; maxMs: number };
  agentIds: readonly string[];
  /** Sub-agent id -> the message id of its last billable response (its usage is in the Agent result). */
  subLastResponse: ReadonlyMap<string, string>;
}

function rulesFor(o: Json, ctx: CompileCtx): Rule[] {
  const rules: Rule[] = [];
  const message = obj(o.message);
  const billable = o.type === "assistant" && typeof message.id === "string" && message.model !== "<synthetic>";
  const agentId = obj(o.toolUseResult).agentId;
  const agentResult = o.type === "user" && typeof agentId === "string" ? ctx.subLastResponse.get(agentId) : undefined;
  const resp = billable ? (message.id as string) : agentResult;
  if (resp) {
    rules.push({
      re: /"(?:input_tokens|cache_creation_input_tokens|cache_read_input_tokens|output_tokens|ephemeral_5m_input_tokens)":\d+/,
      make: (m) => {
        const field = m[0].slice(1, m[0].indexOf('"', 1));
        return [`"${field}":`, { k: "x", name: "usage", a: `${resp}|${field}` }];
      },
    });
  }
  if (agentResult) {
    rules.push({ re: /"totalTokens":\d+/, make: () => ['"totalTokens":', { k: "x", name: "usageSum", a: agentResult }] });
    rules.push({ re: /subagent_tokens: \d+/, make: () => ["subagent_tokens: ", { k: "x", name: "usageSum", a: agentResult }] });
  }
  const x = (name: string): Slot => ({ k: "x", name, a: "" });
  rules.push(
    { re: /claude-(?:sonnet|haiku)-4-5-\d{8}/, make: () => [x("model")] },
    { re: /(?:Sonnet|Haiku) 4\.5/, make: () => [x("modelName")] },
    { re: /\/home\/op\/code\/(?:api-server|web-ui)/, make: () => [x("cwd")] },
    { re: /-home-op-code-(?:api-server|web-ui)/, make: () => [x("slug")] },
    { re: /"gitBranch":"(?:main|HEAD)"/, make: () => ['"gitBranch":"', x("branch"), '"'] },
    { re: /"isGitRepo":(?:true|false)/, make: () => ['"isGitRepo":', x("isGit")] },
    { re: /Is a git repository: (?:true|false)/, make: () => ["Is a git repository: ", x("isGit")] },
    { re: /"turnIndex":\d+/, make: () => ['"turnIndex":', x("turnIndex")] },
    { re: /(?:msg|req|toolu)_[A-Za-z0-9]{16,}/, make: (m) => [{ k: "id", orig: m[0] }] },
  );
  if (ctx.agentIds.length) rules.push({ re: new RegExp(ctx.agentIds.join("|")), make: (m) => [{ k: "id", orig: m[0] }] });
  rules.push(...commonRules(ctx.range));
  return rules;
}

function compileLines(lines: readonly string[], ctx: CompileCtx, prevCost: Json | null): { out: TLine[]; lastCost: Json | null } {
  const out: TLine[] = [];
  let last = prevCost;
  for (const text of lines) {
    const o = JSON.parse(text) as Json;
    if (o.type === "cost-state") {
      const deltas = Object.fromEntries(COST_COUNTERS.map((k) => [k, Number(o[k] ?? 0) - Number(last?.[k] ?? 0)])) as CostLine["deltas"];
      out.push({ segs: [], cost: { deltas } });
      last = o;
      continue;
    }
    out.push({ segs: compile(text, rulesFor(o, ctx)), cost: null });
  }
  return { out, lastCost: last };
}

function timestampsOf(lines: readonly string[]): number[] {
  return lines.flatMap((l) => {
    const t = (JSON.parse(l) as Json).timestamp;
    return typeof t === "string" ? [Date.parse(t)] : [];
  });
}

function responsesOf(lines: readonly string[], sub: boolean): TResponse[] {
  const seen = new Map<string, TResponse>();
  for (const l of lines) {
    const o = JSON.parse(l) as Json;
    const m = obj(o.message);
    if (o.type !== "assistant" || m.model === "<synthetic>" || typeof m.id !== "string") continue;
    const key = `${m.id}|${String(o.requestId)}`;
    if (!seen.has(key)) seen.set(key, { msgId: m.id, sub, firstMs: Date.parse(String(o.timestamp)) });
  }
  return [...seen.values()];
}

function lastLeaf(lines: readonly string[]): string {
  let leaf = "";
  for (const l of lines) {
    const o = JSON.parse(l) as Json;
    if (o.type === "last-prompt" && typeof o.leafUuid === "string") leaf = o.leafUuid;
  }
  if (!leaf) throw new Error("fixture block without a last-prompt line");
  return leaf;
}

/**
 * The resumed turn's first response (a lone Write call) as a two-block response: a text block
 * line, then the tool_use line, both with the response's message.id, requestId and usage, as
 * Claude Code writes text + tool responses (the fixture's first turns have several). The new line
 * is a copy of the tool_use line with a text block; its uuid is new and the tool_use line now
 * hangs from it.
 */
function withTextBlock(lines: readonly string[]): string[] {
  const i = lines.findIndex((l) => {
    const o = JSON.parse(l) as Json;
    return o.type === "assistant" && Array.isArray(obj(o.message).content) && (obj(o.message).content as Json[]).some((c) => c.type === "tool_use");
  });
  if (i < 0) throw new Error("the resumed turn has no tool call");
  const toolLine = JSON.parse(lines[i] as string) as Json;
  const text = structuredClone(toolLine);
  const newUuid = "5e1f0000-0000-4000-8000-000000000001"; // a fixture-style id, replaced in every copy
  text.uuid = newUuid;
  text.timestamp = new Date(Date.parse(String(toolLine.timestamp)) - 90).toISOString();
  text.apiBlockIndex = 0;
  delete text.toolInputStreamMs;
  obj(text.message).content = [{ type: "text", text: "Writing the release notes now." }];
  toolLine.parentUuid = newUuid;
  toolLine.apiBlockIndex = 1;
  return [...lines.slice(0, i), JSON.stringify(text), JSON.stringify(toolLine), ...lines.slice(i + 1)];
}

function byteLength(lines: readonly string[]): number {
  return lines.reduce((a, l) => a + Buffer.byteLength(l) + 1, 0);
}

export function loadTemplates(): Templates {
  const files = Object.fromEntries(Object.entries(FIRST_FILES).map(([k, f]) => [k, readLines(path.join(FIXTURE_PROJECTS, f))])) as Record<FirstKind, string[]>;
  const sessionIds = new Set(Object.values(FIRST_FILES).map((f) => path.basename(f, ".jsonl")));
  // The one sub-agent: its file sits in <session>/subagents/.
  const agentDir = path.join(FIXTURE_PROJECTS, FIRST_FILES.agent.replace(/\.jsonl$/, ""), "subagents");
  const agentFile = fs.readdirSync(agentDir).find((n) => n.endsWith(".jsonl"));
  if (!agentFile) throw new Error(`no sub-agent transcript in ${agentDir}`);
  const agentId = agentFile.replace(/^agent-/, "").replace(/\.jsonl$/, "");
  const subLines = readLines(path.join(agentDir, agentFile));
  const subResponses = responsesOf(subLines, true);
  const all = [...Object.values(files).flat(), ...subLines];
  const times = timestampsOf(all);
  const ctx: CompileCtx = {
    range: { minMs: Math.min(...times), maxMs: Math.max(...times) },
    agentIds: [agentId],
    subLastResponse: new Map([[agentId, (subResponses[subResponses.length - 1] as TResponse).msgId]]),
  };

  const block = (name: string, lines: string[], opts: { sub?: string[]; prevCost?: Json | null; prevLeaf?: string | null; failed?: boolean } = {}): Block & { lastCost: Json | null } => {
    const { out, lastCost } = compileLines(lines, ctx, opts.prevCost ?? null);
    const sub = opts.sub ? compileLines(opts.sub, ctx, null).out : null;
    const ts = timestampsOf([...lines, ...(opts.sub ?? [])]);
    const originMs = Math.min(...ts);
    const meta = opts.sub ? compile(fs.readFileSync(path.join(agentDir, agentFile.replace(/\.jsonl$/, ".meta.json")), "utf8"), rulesFor({}, ctx)) : null;
    return {
      name,
      lines: out,
      sub: sub && meta ? { lines: sub, agentId, meta } : null,
      responses: [...responsesOf(lines, false), ...(opts.sub ? subResponses : [])],
      originMs,
      spanMs: Math.max(...ts) - originMs,
      leaf: lastLeaf(lines),
      prevLeaf: opts.prevLeaf ?? null,
      bytes: byteLength(lines) + (opts.sub ? byteLength(opts.sub) : 0),
      failed: opts.failed === true,
      lastCost,
    };
  };

  // The "bash" session has two invocations: the first is a new-session turn, the second the
  // --resume turn that every synthetic resume copies.
  const bashLines = files.bash;
  const starts = invocationStarts(bashLines);
  if (starts.length !== 2) throw new Error(`expected 2 invocations in ${FIRST_FILES.bash}, found ${starts.length}`);
  const split = starts[1] as number;
  const bash = block("bash", bashLines.slice(0, split));
  const resumeLines = bashLines.slice(split);
  // A resumed turn refers to the earlier part of the file only through the session id and the
  // previous leaf; anything else would not survive being appended to another session.
  const prior = new Set(bashLines.slice(0, split).flatMap((l) => l.match(UUID_G) ?? []));
  for (const u of new Set(resumeLines.flatMap((l) => l.match(UUID_G) ?? []))) {
    if (prior.has(u) && !sessionIds.has(u) && u !== bash.leaf) throw new Error(`the resumed turn refers to ${u} of the first turn: not supported`);
  }
  const resume: Templates["resume"] = [
    block("resume", resumeLines, { prevCost: bash.lastCost, prevLeaf: bash.leaf }),
    block("resume+text", withTextBlock(resumeLines), { prevCost: bash.lastCost, prevLeaf: bash.leaf }),
  ];
  const first: Templates["first"] = {
    bash,
    plain: block("plain", files.plain),
    agent: block("agent", files.agent, { sub: subLines }),
    read: block("read", files.read),
    error: block("error", files.error, { failed: true }),
  };
  for (const [k, b] of Object.entries(first)) if (b.sub === null && k === "agent") throw new Error("agent block without its sub-agent");
  return { first, resume, sessionIds, claudeJson: fs.readFileSync(path.join(FIXTURE_HOME, ".claude.json"), "utf8") };
}

// ---------------------------------------------------------------------------------------------
// Usage numbers

interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** The conversation's context as the cache sees it, so cache reads grow turn by turn. */
interface ContextState {
  ctx: number;
  started: boolean;
}

/**
 * One response's usage: small uncached input, cache reads of the context so far, cache writes of
 * what is new (all of it after the 5-minute cache expired), a skewed output size.
 */
function drawUsage(rng: Rng, s: ContextState, coldCache: boolean): Usage {
  const input = rng.chance(0.1) ? rng.int(1, 5) : rng.int(6, 60);
  const output = Math.max(1, Math.min(32_000, Math.round(rng.logNormal(1.1) * 110)));
  let cacheRead: number;
  let cacheWrite: number;
  if (!s.started) {
    cacheRead = rng.int(9_000, 14_000); // the system prompt and tools, cached by earlier sessions
    cacheWrite = rng.int(3_000, 9_000);
    s.started = true;
  } else if (coldCache) {
    cacheRead = rng.int(9_000, 14_000);
    cacheWrite = Math.max(500, s.ctx - cacheRead) + rng.int(200, 2_000);
  } else {
    cacheRead = s.ctx;
    cacheWrite = rng.chance(0.08) ? rng.int(5_000, 40_000) : rng.int(150, 4_000);
  }
  s.ctx = cacheRead + cacheWrite + input + output;
  if (s.ctx > 190_000) s.ctx = rng.int(25_000, 45_000); // a /clear or a compaction
  return { input, output, cacheRead, cacheWrite };
}

function costOf(model: ModelId, u: Usage): number {
  const p = MODELS[model];
  return (u.input * p.input + u.output * p.output + u.cacheWrite * p.cacheWrite + u.cacheRead * p.cacheRead) / 1e6;
}

// ---------------------------------------------------------------------------------------------
// Plan and write

interface SessionPlan {
  index: number;
  first: FirstKind;
  project: number;
  model: ModelId;
  resumes: number;
}

function planSessions(t: Templates, params: ProviderParams): { sessions: SessionPlan[]; warnings: string[] } {
  const sessions: SessionPlan[] = [];
  const weights: number[] = [];
  let files = 0;
  for (let i = 0; files < params.files; i++) {
    const rng = sessionRng(params.seed, 1, i);
    let first = pickWeighted(rng, FIRST_WEIGHTS);
    if (first === "agent" && files + 2 > params.files) first = "plain"; // the sub-agent file would overshoot the count
    files += first === "agent" ? 2 : 1;
    sessions.push({ index: i, first, project: pickProject(rng), model: pickWeighted(rng, MODEL_WEIGHTS), resumes: 0 });
    weights.push(rng.logNormal(1.2));
  }
  const fixed = sessions.reduce((a, s) => a + t.first[s.first].bytes, 0);
  const warnings: string[] = [];
  if (fixed > params.bytes) warnings.push(`${params.files} transcripts need at least ${(fixed / 1e6).toFixed(0)} MB at real line sizes; the --bytes target of ${(params.bytes / 1e6).toFixed(0)} MB is exceeded`);
  const resumeBytes = (t.resume[0].bytes + t.resume[1].bytes) / 2;
  const resumes = distribute(Math.max(0, Math.floor((params.bytes - fixed) / resumeBytes)), weights);
  sessions.forEach((s, i) => (s.resumes = resumes[i] as number));
  return { sessions, warnings };
}

interface Totals {
  files: number;
  bytes: number;
  lines: number;
  counts: Record<string, number>;
  days: Map<string, DayTotals>;
  firstStart: number;
}

function writeSession(t: Templates, plan: SessionPlan, params: ProviderParams, now: number, root: string, totals: Totals): void {
  const rng = sessionRng(params.seed, 2, plan.index);
  const cwd = projectCwd(plan.project);
  const slug = slugOf(cwd);
  const git = projectIsGit(plan.project);
  const blocks: Block[] = [t.first[plan.first], ...Array.from({ length: plan.resumes }, () => t.resume[rng.chance(0.5) ? 1 : 0])];
  const starts = blockStarts(rng, now, blocks.map((b) => b.spanMs));
  const sessionId = uuid4(rng);
  const sessionStart = starts[0] as number;
  totals.firstStart = Math.min(totals.firstStart, sessionStart);
  const dir = path.join(root, "projects", slug);
  fs.mkdirSync(dir, { recursive: true });
  const main = new FileWriter(path.join(dir, `${sessionId}.jsonl`));

  const mainCtx: ContextState = { ctx: 0, started: false };
  const modelUsage = new Map<ModelId, Usage & { cost: number }>();
  const counters = Object.fromEntries(COST_COUNTERS.map((k) => [k, 0])) as CostLine["deltas"];
  let prevLeafNew = "";
  let lastMs = sessionStart;
  let model = plan.model;

  blocks.forEach((block, bi) => {
    const base = starts[bi] as number;
    if (bi > 0 && rng.chance(0.1)) model = pickWeighted(rng, MODEL_WEIGHTS); // `--model` on a resume
    const cold = bi > 0 && base - lastMs > 5 * 60_000;
    const usage = new Map<string, Usage>();
    const subCtx: ContextState = { ctx: 0, started: false };
    let firstMain = true;
    for (const r of block.responses) {
      const u = drawUsage(rng, r.sub ? subCtx : mainCtx, !r.sub && firstMain && cold);
      if (!r.sub) firstMain = false;
      usage.set(r.msgId, u);
      const day = isoOf(base + (r.firstMs - block.originMs)).slice(0, 10);
      addDay(totals.days, day, u);
      const mu = modelUsage.get(model) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
      mu.input += u.input;
      mu.output += u.output;
      mu.cacheRead += u.cacheRead;
      mu.cacheWrite += u.cacheWrite;
      mu.cost += costOf(model, u);
      modelUsage.set(model, mu);
      totals.counts.responses = (totals.counts.responses ?? 0) + 1;
    }
    const ids = new Map<string, string>();
    const shift = (ms: number): number => base + (ms - block.originMs);
    const x: Record<string, string> = {
      model,
      modelName: MODELS[model].name,
      cwd,
      slug,
      branch: git ? "main" : "HEAD",
      isGit: String(git),
      turnIndex: String(bi + 1),
    };
    const resolve = (s: Slot): string => {
      switch (s.k) {
        case "id": {
          if (t.sessionIds.has(s.orig)) return sessionId;
          if (s.orig === block.prevLeaf) return prevLeafNew;
          let v = ids.get(s.orig);
          if (v === undefined) {
            v = s.orig.length === 36 && s.orig[8] === "-" ? uuid4(rng) : likeId(rng, s.orig);
            ids.set(s.orig, v);
          }
          return v;
        }
        case "iso":
          return isoOf(shift(s.ms));
        case "epochMs":
          return String(shift(s.ms));
        case "epochS":
          return String(Math.floor(shift(s.ms) / 1000));
        case "epochF":
          return (shift(s.ms) / 1000).toFixed(s.digits);
        case "date":
          return isoOf(base).slice(0, 10);
        case "x": {
          if (s.name === "usage") {
            const [resp, field] = s.a.split("|") as [string, string];
            const u = usage.get(resp);
            if (!u) throw new Error(`no usage drawn for ${resp}`);
            return String(field === "input_tokens" ? u.input : field === "output_tokens" ? u.output : field === "cache_read_input_tokens" ? u.cacheRead : u.cacheWrite);
          }
          if (s.name === "usageSum") {
            const u = usage.get(s.a);
            if (!u) throw new Error(`no usage drawn for ${s.a}`);
            return String(u.input + u.output + u.cacheRead + u.cacheWrite);
          }
          const v = x[s.name];
          if (v === undefined) throw new Error(`unknown slot ${s.name}`);
          return v;
        }
      }
    };
    const writeLines = (w: FileWriter, lines: readonly TLine[]): void => {
      for (const line of lines) {
        if (line.cost) {
          for (const k of COST_COUNTERS) counters[k] += line.cost.deltas[k];
          w.add(`${costStateJson(sessionId, counters, sessionStart, modelUsage)}\n`);
        } else {
          w.noteAdded(render(line.segs, resolve, w.sink));
          w.add("\n");
        }
      }
      totals.lines += lines.length;
    };
    writeLines(main, block.lines);
    if (block.sub) {
      const agentId = resolve({ k: "id", orig: block.sub.agentId });
      const subDir = path.join(dir, sessionId, "subagents");
      fs.mkdirSync(subDir, { recursive: true });
      const w = new FileWriter(path.join(subDir, `agent-${agentId}.jsonl`));
      writeLines(w, block.sub.lines);
      w.close(base + block.spanMs);
      const meta: string[] = [];
      render(block.sub.meta, resolve, meta);
      fs.writeFileSync(path.join(subDir, `agent-${agentId}.meta.json`), meta.join(""));
      totals.files++;
      totals.bytes += w.bytes;
      totals.counts.subagents = (totals.counts.subagents ?? 0) + 1;
    }
    prevLeafNew = resolve({ k: "id", orig: block.leaf });
    lastMs = base + block.spanMs;
    if (bi > 0) totals.counts["resumed turns"] = (totals.counts["resumed turns"] ?? 0) + 1;
    if (block.failed) totals.counts["API-error sessions"] = (totals.counts["API-error sessions"] ?? 0) + 1;
  });
  main.close(lastMs);
  totals.files++;
  totals.bytes += main.bytes;
}

/** Claude Code's `cost-state` line: cumulative over the session's invocations, sub-agents included. */
function costStateJson(sessionId: string, counters: CostLine["deltas"], startTime: number, usage: ReadonlyMap<ModelId, Usage & { cost: number }>): string {
  let total = 0;
  const modelUsage: Record<string, unknown> = {};
  for (const [m, u] of usage) {
    total += u.cost;
    modelUsage[m] = {
      inputTokens: u.input,
      outputTokens: u.output,
      thinkingTokens: 0,
      cacheReadInputTokens: u.cacheRead,
      cacheCreationInputTokens: u.cacheWrite,
      cacheCreationEphemeral5mInputTokens: u.cacheWrite,
      cacheCreationEphemeral1hInputTokens: 0,
      webSearchRequests: 0,
      costUSD: u.cost,
    };
  }
  return JSON.stringify({ type: "cost-state", sessionId, totalCostUSD: total, ...counters, startTime, modelUsage, hasUnknownModelCost: false });
}

function build(params: ProviderParams, now: number, dir: string, log: (m: string) => void): ProviderManifest {
  const started = Date.now();
  const t = loadTemplates();
  const { sessions, warnings } = planSessions(t, params);
  for (const w of warnings) log(`warning: ${w}`);
  const work = startBuild(dir);
  const root = path.join(work, "home", ".claude");
  fs.mkdirSync(path.join(root, "projects"), { recursive: true });
  const totals: Totals = { files: 0, bytes: 0, lines: 0, counts: {}, days: new Map(), firstStart: now };
  let lastLog = Date.now();
  for (const s of sessions) {
    writeSession(t, s, params, now, root, totals);
    if (Date.now() - lastLog > 5000) {
      lastLog = Date.now();
      log(`  ${totals.files}/${params.files} transcripts, ${(totals.bytes / 1e6).toFixed(0)} MB (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
  }
  // The global config, as a first start would leave it.
  const claudeJson = JSON.parse(t.claudeJson) as Json;
  claudeJson.firstStartTime = isoOf(totals.firstStart);
  fs.writeFileSync(path.join(work, "home", ".claude.json"), `${JSON.stringify(claudeJson, null, 2)}\n`);
  const manifest: ProviderManifest = {
    version: VERSION,
    kind: "claude-code",
    params,
    now,
    builtAt: new Date(started).toISOString(),
    buildMs: 0,
    root: "home/.claude",
    home: "home",
    files: totals.files,
    bytes: totals.bytes,
    sessions: sessions.length,
    lines: totals.lines,
    counts: { projects: new Set(sessions.map((s) => s.project)).size, ...totals.counts },
    expected: sortedDays(totals.days),
  };
  manifest.buildMs = Date.now() - started;
  finishBuild(work, dir, manifest);
  return manifest;
}

/** The cached dataset for `params`, built first when missing. `dir` replaces the cache dir (tests). */
export function ensureClaudeCodeData(params: ProviderParams, opts: EnsureOptions = {}): ProviderDataset {
  const dir = opts.dir ?? cacheDir("claude-code", params, VERSION);
  const details = `${params.files} transcripts, ${(params.bytes / 1e6).toFixed(0)} MB, seed ${params.seed}`;
  return ensureDataset(dir, VERSION, opts, "Claude Code history", details, (now, log) => build(params, now, dir, log));
}

function main(): void {
  const { params, now, rebuild } = generatorArgs(CC_SIZES);
  const d = ensureClaudeCodeData(params, { rebuild, now });
  process.stdout.write(`${d.cached ? "cached" : "built"}: ${relative(d.dir)}\n${describeDataset(d.manifest)}\nCLAUDE_CONFIG_DIR=${path.join(d.dir, d.manifest.root)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
