// A synthetic Codex history (~/.codex/sessions) made of the real lines of the 0.169.0 fixture
// (/work/shared/codex-format.md): rollouts in sessions/YYYY/MM/DD/ folders named by the LOCAL
// creation date (a fixed zone, --tz), sessions over the last 60 days on 200 projects, resumed
// turns appended to the same file (exec and TUI), token_usage_record lines with their
// token_count lines cumulative and consistent (§5), the duplicate token_count Codex writes at the
// start of some resumed turns, rate limits rising within their windows, and a few failed turns
// (HTTP 500 after retries; rarely a 429 with an `info: null` token_count).
//
//   node --import tsx bench/synthetic/codex.ts [--quick] [--bytes 1g] [--files 10000] [--seed 1] [--now <iso>] [--tz Pacific/Auckland] [--rebuild]
//
// Output: .tmp/bench/providers/codex-…/home/.codex (CODEX_HOME) and manifest.json.
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { addDay, sortedDays, type DayTotals } from "./daily.js";
import { hex, likeId, uuid7, uuid7Ms } from "./ids.js";
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
  startBuild,
  type EnsureOptions,
  type ProviderDataset,
  type ProviderManifest,
  type ProviderParams,
} from "./provider-common.js";
import type { Rng } from "./random.js";

const VERSION = 1;
const FIXTURE_CODEX = path.join(FIXTURES, "codex-0.169.0", ".codex");
const FIXTURE_SESSIONS = path.join(FIXTURE_CODEX, "sessions", "2026", "11", "23");

/** A new rollout is 33-60 KB (a 21 KB session_meta); resumed turns are 3-13 KB. */
export const CX_SIZES = { full: { bytes: 1e9, files: 10_000 }, quick: { bytes: 25e6, files: 250 } } as const;
/** The zone the rollouts' folder and file names are in (they are local time, §3). */
export const DEFAULT_TZ = "Pacific/Auckland";

const MODEL_WEIGHTS = { "gpt-5-codex": 60, "gpt-5": 25, "gpt-5-mini": 15 } as const;
type ModelId = keyof typeof MODEL_WEIGHTS;

const FILES = {
  exec2: "rollout-2026-11-23T21-28-34-01a20a4f-8ada-7c40-a2c4-78459390a270.jsonl", // exec, 2 tool calls, then a resumed turn
  plain: "rollout-2026-11-23T21-28-44-01a20a4f-b29a-7013-ab8a-2e5f4eacdbbb.jsonl", // exec, plain answer
  exec1: "rollout-2026-11-23T21-28-48-01a20a4f-c0a7-70c0-9b38-1aa052ca57cc.jsonl", // exec, 1 tool call, no git
  fail: "rollout-2026-11-23T21-28-52-01a20a4f-ce31-70b1-9d3d-de24c7722363.jsonl", // every request HTTP 500
  tui: "rollout-2026-11-23T21-29-04-01a20a4f-fdf8-7f63-ac60-18abdb48f090.jsonl", // TUI, 2 prompts
} as const;

type FirstKind = "exec2" | "plain" | "exec1" | "fail" | "tui";
const FIRST_WEIGHTS: Record<FirstKind, number> = { exec2: 30, plain: 20, exec1: 25, tui: 23, fail: 2 };
type ResumeKind = "ok" | "fail500" | "fail429";
const RESUME_WEIGHTS: Record<ResumeKind, number> = { ok: 985, fail500: 12, fail429: 3 };
/** Share of resumed turns that start with Codex's repeated token_count (§5, trap 1). */
const DUPLICATE_SHARE = 0.3;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

interface TLine {
  segs: Segment[];
  /** Moves a line borrowed from another fixture file onto this block's timeline (ms). */
  adjust: number;
  /** ms of its timestamp in the fixture (after `adjust`). */
  ms: number;
}

interface Block {
  lines: TLine[];
  originMs: number;
  spanMs: number;
  bytes: number;
  /** In a resumed block: where the duplicate token_count goes (after task_started), or -1. */
  dupAt: number;
  userPrompts: Array<{ text: string; ms: number }>;
  failed: boolean;
}

interface Templates {
  first: Record<FirstKind, Block>;
  /** Resumed turns per flavour: exec sessions resume like exec, TUI sessions like the TUI. */
  resume: Record<"exec" | "tui", Record<ResumeKind, Block>>;
  duplicate: TLine;
  sessionIds: Set<string>;
  configToml: string;
}

interface RawLine {
  text: string;
  o: Json;
  ms: number;
}

function readRaw(name: string): RawLine[] {
  return fs
    .readFileSync(path.join(FIXTURE_SESSIONS, name), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((text) => {
      const o = JSON.parse(text) as Json;
      return { text, o, ms: Date.parse(String(o.timestamp)) };
    });
}

const ptype = (l: RawLine): string => `${String(l.o.type)}/${String(obj(l.o.payload).type ?? "")}`;

const USAGE_OBJECT = /"(?:usage|turn_token_usage|thread_token_usage|total_token_usage|last_token_usage)":\{[^{}]*\}/;
const RATE_LIMIT = /"(?:primary|secondary)":\{"used_percent":[\d.]+,"window_minutes":\d+,"resets_at":\d+\}/;

function codexRules(range: { minMs: number; maxMs: number }): Rule[] {
  const x = (name: string, a = ""): Slot => ({ k: "x", name, a });
  return [
    {
      re: USAGE_OBJECT,
      make: (m) => {
        const name = m[0].slice(1, m[0].indexOf('"', 1));
        const out: Segment[] = [];
        let pos = 0;
        for (const f of m[0].matchAll(/"([a-z_]+)":(\d+)/g)) {
          const numAt = (f.index as number) + f[0].length - (f[2] as string).length;
          out.push(m[0].slice(pos, numAt), x("cx", `${name}.${f[1] as string}`));
          pos = numAt + (f[2] as string).length;
        }
        out.push(m[0].slice(pos));
        return out;
      },
    },
    {
      re: RATE_LIMIT,
      make: (m) => {
        const which = m[0].startsWith('"primary"') ? "primary" : "secondary";
        const used = Number(/"used_percent":([\d.]+)/.exec(m[0])?.[1]);
        const minutes = /"window_minutes":(\d+)/.exec(m[0])?.[1] ?? "0";
        const head = `"${which}":{"used_percent":`;
        const mid = `,"window_minutes":${minutes},"resets_at":`;
        // A 429 snapshot says 100 %: kept as it is.
        return used >= 100 ? [`${head}100.0${mid}`, x("rl", `${which}.resets`), "}"] : [head, x("rl", `${which}.used`), mid, x("rl", `${which}.resets`), "}"];
      },
    },
    { re: /"ordinal":\d+/, make: () => ['"ordinal":', x("ordinal")] },
    { re: /"gpt-5-(?:codex|mini)"/, make: () => ['"', x("model"), '"'] },
    { re: /\/home\/op\/projects\/(?:webshop|infra-scripts)/, make: () => [x("cwd")] },
    { re: /(?:resp|rs|fc|call|msg)_[0-9a-f]{16,}(?![0-9a-f-])/, make: (m) => [{ k: "id", orig: m[0] }] },
    ...commonRules(range),
  ];
}

export function loadTemplates(): Templates {
  const raw = Object.fromEntries(Object.entries(FILES).map(([k, f]) => [k, readRaw(f)])) as Record<keyof typeof FILES, RawLine[]>;
  const all = Object.values(raw).flat();
  const range = { minMs: Math.min(...all.map((l) => l.ms)), maxMs: Math.max(...all.map((l) => l.ms)) };
  const rules = codexRules(range);
  const sessionIds = new Set(Object.values(raw).map((ls) => String(obj((ls[0] as RawLine).o.payload).id)));

  const compileLine = (l: RawLine, adjust = 0, text = l.text): TLine => {
    const type = ptype(l);
    let segs: Segment[];
    if (type === "session_meta/") {
      // The git object goes last in the payload, and is absent for a cwd that is not a repo: a slot.
      const o = structuredClone(l.o);
      delete obj(o.payload).git;
      const t = JSON.stringify(o);
      segs = [...compile(t.slice(0, -2), rules), { k: "x", name: "git", a: "" }, "}}"];
    } else segs = compile(text, rules);
    if (type === "token_usage_record/") segs.unshift({ k: "x", name: "cxNew", a: String(l.ms) });
    if (type === "event_msg/task_started") segs.unshift({ k: "x", name: "turnStart", a: "" });
    return { segs, adjust, ms: l.ms + adjust };
  };

  const makeBlock = (lines: TLine[], failed: boolean, dupAfterTaskStarted: boolean, raws: RawLine[]): Block => {
    const ms = lines.map((l) => l.ms);
    const originMs = Math.min(...ms);
    const taskStarted = raws.findIndex((l) => ptype(l) === "event_msg/task_started");
    return {
      lines,
      originMs,
      spanMs: Math.max(...ms) - originMs,
      bytes: raws.reduce((a, l) => a + Buffer.byteLength(l.text) + 1, 0),
      dupAt: dupAfterTaskStarted ? taskStarted + 1 : -1,
      userPrompts: raws.flatMap((l, i) => {
        const item = obj(obj(l.o.payload).item);
        const content = item.content;
        return item.type === "UserMessage" && Array.isArray(content) ? [{ text: String(obj(content[0]).text ?? ""), ms: (lines[i] as TLine).ms }] : [];
      }),
      failed,
    };
  };

  /** Where a resumed turn starts: the thread_settings_applied after the first task_complete. */
  const resumeAt = (ls: RawLine[]): number => ls.findIndex((l, i) => i > 0 && ptype(l) === "event_msg/thread_settings_applied" && ptype(ls[i - 1] as RawLine) === "event_msg/task_complete");
  const whole = (ls: RawLine[], failed = false): Block => makeBlock(ls.map((l) => compileLine(l)), failed, false, ls);
  const part = (ls: RawLine[], from: number, to: number, dup: boolean): Block => makeBlock(ls.slice(from, to).map((l) => compileLine(l)), false, dup, ls.slice(from, to));

  const e2 = raw.exec2;
  const tu = raw.tui;
  const e2Split = resumeAt(e2);
  const tuSplit = resumeAt(tu);
  if (e2Split < 0 || tuSplit < 0) throw new Error("fixture rollouts without a resumed turn");

  // A failed resumed turn: the flavour's thread_settings_applied, then the failed session's turn
  // (task_started, turn_context, the prompt twice, task_complete with its error), moved in time.
  const failRaw = raw.fail;
  const find = (what: string, test: (l: RawLine) => boolean): RawLine => {
    const l = failRaw.find(test);
    if (!l) throw new Error(`no ${what} line in ${FILES.fail}`);
    return l;
  };
  const prompt = find("user prompt", (l) => ptype(l) === "response_item/message" && obj(l.o.payload).role === "user" && !l.text.includes("<environment_context>"));
  const failTurn = [
    find("task_started", (l) => ptype(l) === "event_msg/task_started"),
    find("turn_context", (l) => ptype(l) === "turn_context/"),
    prompt,
    find("UserMessage", (l) => ptype(l) === "event_msg/item_completed" && obj(obj(l.o.payload).item).type === "UserMessage"),
    find("task_complete", (l) => ptype(l) === "event_msg/task_complete"),
  ];
  const tokenCount = e2.find((l) => ptype(l) === "event_msg/token_count");
  if (!tokenCount) throw new Error("no token_count line in the fixture");
  const failedResume = (settings: RawLine, code: 500 | 429): Block => {
    const start = failTurn[0] as RawLine;
    const adjust = settings.ms + 18 - start.ms; // task_started follows the settings line by ~18 ms in the fixture
    const lines: TLine[] = [compileLine(settings)];
    const raws: RawLine[] = [settings];
    for (const l of failTurn) {
      if (code === 429 && ptype(l) === "event_msg/task_complete") {
        // 429: a token_count with `info: null` and primary at 100 %, then the error (§7). The error
        // text is not in the fixture; codex_error_info is what the format doc gives.
        const tc = structuredClone(tokenCount.o);
        const payload = obj(tc.payload);
        payload.info = null;
        obj(obj(payload.rate_limits).primary).used_percent = 100;
        tc.timestamp = isoOf(l.ms - 10);
        const tcLine: RawLine = { text: JSON.stringify(tc), o: tc, ms: l.ms - 10 };
        lines.push(compileLine(tcLine, adjust));
        raws.push(tcLine);
        const done = structuredClone(l.o);
        const p = obj(done.payload);
        p.error = { message: "You've hit your usage limit.", codex_error_info: "usage_limit_exceeded" };
        p.duration_ms = 156;
        const doneLine: RawLine = { text: JSON.stringify(done), o: done, ms: l.ms };
        lines.push(compileLine(doneLine, adjust));
        raws.push(doneLine);
        continue;
      }
      lines.push(compileLine(l, adjust));
      raws.push(l);
    }
    return makeBlock(lines, true, false, raws);
  };

  const first: Record<FirstKind, Block> = {
    exec2: part(e2, 0, e2Split, false),
    plain: whole(raw.plain),
    exec1: whole(raw.exec1),
    fail: whole(raw.fail, true),
    tui: part(tu, 0, tuSplit, false),
  };
  const resume = {
    exec: { ok: part(e2, e2Split, e2.length, true), fail500: failedResume(e2[e2Split] as RawLine, 500), fail429: failedResume(e2[e2Split] as RawLine, 429) },
    tui: { ok: part(tu, tuSplit, tu.length, true), fail500: failedResume(tu[tuSplit] as RawLine, 500), fail429: failedResume(tu[tuSplit] as RawLine, 429) },
  };
  return { first, resume, duplicate: compileLine(tokenCount), sessionIds, configToml: fs.readFileSync(path.join(FIXTURE_CODEX, "config.toml"), "utf8") };
}

// ---------------------------------------------------------------------------------------------
// Token state of one thread

interface Usage6 {
  input_tokens: number;
  cached_input_tokens: number;
  cache_write_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
}
const zero = (): Usage6 => ({ input_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 });
function addTo(a: Usage6, b: Usage6): void {
  for (const k of Object.keys(a) as (keyof Usage6)[]) a[k] += b[k];
}

interface ThreadState {
  thread: Usage6;
  turn: Usage6;
  last: Usage6;
  /** The prompt size of the previous response (what the cache can hold). */
  context: number;
  lastResponseMs: number;
  rl: { primaryUsed: number; primaryResets: number; secondaryUsed: number; secondaryResets: number };
}

/** One response: the prompt grows by the turn's new content; cached input is what the previous prompt left in the cache. */
function drawUsage(rng: Rng, s: ThreadState, ms: number): Usage6 {
  let input: number;
  let cached: number;
  if (s.context === 0) {
    input = rng.int(11_000, 15_000);
    cached = rng.pick([0, 1024, 2048]);
  } else {
    input = s.context + (rng.chance(0.07) ? rng.int(5_000, 30_000) : rng.int(150, 3_000));
    // The prompt cache lasts minutes: after a longer pause little is cached.
    cached = ms - s.lastResponseMs > 10 * 60_000 ? rng.pick([0, 1024, 2048, 4096]) : Math.floor((s.context * (0.85 + rng.next() * 0.15)) / 64) * 64;
  }
  if (input > 240_000) input = rng.int(20_000, 40_000); // auto-compaction shrank the context
  cached = Math.min(cached, input);
  const output = Math.max(20, Math.min(30_000, Math.round(rng.logNormal(1.0) * 300)));
  const reasoning = Math.round(output * (0.3 + rng.next() * 0.6));
  s.context = input;
  s.lastResponseMs = ms;
  return { input_tokens: input, cached_input_tokens: cached, cache_write_input_tokens: 0, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output };
}

/**
 * Rate limits as the install sees them at `ms`: within each 5-hour (primary) and 7-day
 * (secondary) window the used share rises with time to that window's peak, then resets.
 */
function rateLimits(seed: number, ms: number): ThreadState["rl"] {
  const window = (minutes: number, lo: number, hi: number, salt: number): [number, number] => {
    const len = minutes * 60_000;
    const w = Math.floor(ms / len);
    const peak = lo + (sessionRng(seed, salt, w).next() * (hi - lo));
    const frac = (ms - w * len) / len;
    return [Math.min(99.5, Math.round(peak * frac * 2) / 2), Math.floor(((w + 1) * len) / 1000)];
  };
  const [primaryUsed, primaryResets] = window(300, 10, 95, 11);
  const [secondaryUsed, secondaryResets] = window(10_080, 20, 90, 12);
  return { primaryUsed, primaryResets, secondaryUsed, secondaryResets };
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
  for (let i = 0; i < params.files; i++) {
    const rng = sessionRng(params.seed, 1, i);
    const first = pickWeighted(rng, FIRST_WEIGHTS);
    sessions.push({ index: i, first, project: pickProject(rng), model: pickWeighted(rng, MODEL_WEIGHTS), resumes: 0 });
    weights.push(rng.logNormal(1.0));
  }
  const fixed = sessions.reduce((a, s) => a + t.first[s.first].bytes, 0);
  const warnings: string[] = [];
  if (fixed > params.bytes) warnings.push(`${params.files} rollouts need at least ${(fixed / 1e6).toFixed(0)} MB; the --bytes target of ${(params.bytes / 1e6).toFixed(0)} MB is exceeded`);
  const resumes = distribute(Math.max(0, Math.floor((params.bytes - fixed) / t.resume.exec.ok.bytes)), weights);
  sessions.forEach((s, i) => (s.resumes = resumes[i] as number));
  return { sessions, warnings };
}

interface Totals {
  files: number;
  bytes: number;
  lines: number;
  counts: Record<string, number>;
  days: Map<string, DayTotals>;
  history: Array<{ session_id: string; ts: number; text: string }>;
}

function localParts(fmt: Intl.DateTimeFormat, ms: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of fmt.formatToParts(new Date(ms))) out[p.type] = p.value;
  if (out.hour === "24") out.hour = "00";
  return out;
}

function writeSession(t: Templates, plan: SessionPlan, params: ProviderParams, now: number, root: string, fmt: Intl.DateTimeFormat, totals: Totals): void {
  const rng = sessionRng(params.seed, 2, plan.index);
  const cwd = projectCwd(plan.project);
  const flavour = plan.first === "tui" ? "tui" : "exec";
  const blocks: Block[] = [t.first[plan.first]];
  for (let i = 0; i < plan.resumes; i++) blocks.push(t.resume[flavour][pickWeighted(rng, RESUME_WEIGHTS)]);
  const starts = blockStarts(rng, now, blocks.map((b) => b.spanMs));
  const firstBlock = blocks[0] as Block;
  const shift0 = (ms: number): number => (starts[0] as number) + (ms - firstBlock.originMs);
  // The session id is a v7 uuid of the creation instant; the file name carries that instant in local time.
  const sessionOrig = [...t.sessionIds].find((id) => (firstBlock.lines[0] as TLine).segs.some((s) => typeof s !== "string" && s.k === "id" && s.orig === id));
  if (!sessionOrig) throw new Error("first block without its session id");
  const createdMs = shift0(uuid7Ms(sessionOrig) ?? firstBlock.originMs);
  const sessionId = uuid7(rng, createdMs);
  const p = localParts(fmt, createdMs);
  const dir = path.join(root, "sessions", p.year as string, p.month as string, p.day as string);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `rollout-${p.year}-${p.month}-${p.day}T${p.hour}-${p.minute}-${p.second}-${sessionId}.jsonl`);
  const w = new FileWriter(file);
  const git = projectIsGit(plan.project) ? `,"git":${JSON.stringify({ commit_hash: hex(rng, 40), branch: "main", repository_url: `https://github.com/example-op/${path.basename(cwd)}.git` })}` : "";

  const st: ThreadState = { thread: zero(), turn: zero(), last: zero(), context: 0, lastResponseMs: 0, rl: rateLimits(params.seed, createdMs) };
  let ordinal = 0;
  let model: ModelId = plan.model;
  let lastMs = createdMs;

  blocks.forEach((block, bi) => {
    const base = starts[bi] as number;
    if (bi > 0 && rng.chance(0.08)) model = pickWeighted(rng, MODEL_WEIGHTS); // `-m` on a resume
    const ids = new Map<string, string>();
    let adjust = 0;
    const shift = (ms: number): number => base + (ms + adjust - block.originMs);
    const resolve = (s: Slot): string => {
      switch (s.k) {
        case "id": {
          if (t.sessionIds.has(s.orig)) return sessionId;
          let v = ids.get(s.orig);
          if (v === undefined) {
            if (s.orig.length === 36 && s.orig[8] === "-") {
              const at = uuid7Ms(s.orig);
              v = at === null ? likeId(rng, s.orig.replace(/-/g, "")) : uuid7(rng, shift(at));
            } else v = likeId(rng, s.orig);
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
        case "x":
          switch (s.name) {
            case "cxNew": {
              const at = shift(Number(s.a));
              const u = drawUsage(rng, st, at);
              st.last = u;
              addTo(st.turn, u);
              addTo(st.thread, u);
              st.rl = rateLimits(params.seed, at);
              addDay(totals.days, isoOf(at).slice(0, 10), { input: u.input_tokens - u.cached_input_tokens, output: u.output_tokens, cacheRead: u.cached_input_tokens, cacheWrite: u.cache_write_input_tokens });
              totals.counts.responses = (totals.counts.responses ?? 0) + 1;
              return "";
            }
            case "turnStart":
              st.turn = zero();
              return "";
            case "cx": {
              const [which, field] = s.a.split(".") as [string, keyof Usage6];
              const u = which === "usage" || which === "last_token_usage" ? st.last : which === "turn_token_usage" ? st.turn : st.thread;
              return String(u[field]);
            }
            case "rl": {
              const r = st.rl;
              const v = s.a === "primary.used" ? r.primaryUsed : s.a === "primary.resets" ? r.primaryResets : s.a === "secondary.used" ? r.secondaryUsed : r.secondaryResets;
              return s.a.endsWith(".used") ? v.toFixed(1) : String(v);
            }
            case "ordinal":
              return String(ordinal++);
            case "model":
              return model;
            case "cwd":
              return cwd;
            case "git":
              return git;
          }
          throw new Error(`unknown slot ${s.name}`);
      }
    };
    const emit = (line: TLine): void => {
      adjust = line.adjust;
      w.noteAdded(render(line.segs, resolve, w.sink));
      w.add("\n");
      totals.lines++;
    };
    const dup = block.dupAt >= 0 && st.thread.total_tokens > 0 && rng.chance(DUPLICATE_SHARE);
    block.lines.forEach((line, i) => {
      if (dup && i === block.dupAt) {
        // Same totals and last usage as the token_count before it: nothing new was used.
        const anchor = (block.lines[i - 1] as TLine).ms + 2;
        emit({ segs: t.duplicate.segs, adjust: anchor - t.duplicate.ms, ms: anchor });
        totals.counts["duplicate token_count lines"] = (totals.counts["duplicate token_count lines"] ?? 0) + 1;
      }
      emit(line);
    });
    adjust = 0;
    if (flavour === "tui") for (const u of block.userPrompts) totals.history.push({ session_id: sessionId, ts: Math.floor(shift(u.ms) / 1000), text: u.text });
    lastMs = base + block.spanMs;
    if (bi > 0) totals.counts["resumed turns"] = (totals.counts["resumed turns"] ?? 0) + 1;
    if (block.failed) totals.counts["failed turns"] = (totals.counts["failed turns"] ?? 0) + 1;
  });
  w.close(lastMs);
  totals.files++;
  totals.bytes += w.bytes;
  if (flavour === "tui") totals.counts["TUI sessions"] = (totals.counts["TUI sessions"] ?? 0) + 1;
}

function build(params: ProviderParams, now: number, tz: string, dir: string, log: (m: string) => void): ProviderManifest {
  const started = Date.now();
  const t = loadTemplates();
  const { sessions, warnings } = planSessions(t, params);
  for (const w of warnings) log(`warning: ${w}`);
  const work = startBuild(dir);
  const root = path.join(work, "home", ".codex");
  fs.mkdirSync(path.join(root, "sessions"), { recursive: true });
  const fmt = new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  const totals: Totals = { files: 0, bytes: 0, lines: 0, counts: {}, days: new Map(), history: [] };
  let lastLog = Date.now();
  for (const s of sessions) {
    writeSession(t, s, params, now, root, fmt, totals);
    if (Date.now() - lastLog > 5000) {
      lastLog = Date.now();
      log(`  ${totals.files}/${params.files} rollouts, ${(totals.bytes / 1e6).toFixed(0)} MB (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
  }
  // history.jsonl: TUI prompts only, in the order they were typed.
  totals.history.sort((a, b) => a.ts - b.ts);
  fs.writeFileSync(path.join(root, "history.jsonl"), totals.history.map((h) => `${JSON.stringify(h)}\n`).join(""), { mode: 0o600 });
  fs.writeFileSync(path.join(root, "config.toml"), t.configToml);
  const manifest: ProviderManifest = {
    version: VERSION,
    kind: "codex",
    params,
    now,
    builtAt: new Date(started).toISOString(),
    buildMs: 0,
    root: "home/.codex",
    home: "home",
    files: totals.files,
    bytes: totals.bytes,
    sessions: sessions.length,
    lines: totals.lines,
    counts: { projects: new Set(sessions.map((s) => s.project)).size, ...totals.counts, "TUI prompts in history.jsonl": totals.history.length },
    expected: sortedDays(totals.days),
    timeZone: tz,
  };
  manifest.buildMs = Date.now() - started;
  finishBuild(work, dir, manifest);
  return manifest;
}

/** The cached dataset for `params`, built first when missing. `dir` replaces the cache dir (tests). */
export function ensureCodexData(params: ProviderParams, opts: EnsureOptions & { tz?: string } = {}): ProviderDataset {
  const tz = opts.tz ?? DEFAULT_TZ;
  // The zone names the folders: part of the cache key unless it is the default.
  const dir = opts.dir ?? cacheDir("codex", params, VERSION) + (tz === DEFAULT_TZ ? "" : `-${tz.replace(/[^A-Za-z0-9]+/g, "_")}`);
  const details = `${params.files} rollouts, ${(params.bytes / 1e6).toFixed(0)} MB, seed ${params.seed}, folders in ${tz}`;
  return ensureDataset(dir, VERSION, opts, "Codex history", details, (now, log) => build(params, now, tz, dir, log));
}

function main(): void {
  const { params, now, rebuild, extra } = generatorArgs(CX_SIZES, { tz: { type: "string", default: DEFAULT_TZ } });
  const tz = extra.tz ?? DEFAULT_TZ;
  new Intl.DateTimeFormat("en", { timeZone: tz }); // throws on an unknown zone
  const d = ensureCodexData(params, { rebuild, now, tz });
  process.stdout.write(`${d.cached ? "cached" : "built"}: ${relative(d.dir)}\n${describeDataset(d.manifest)}\nCODEX_HOME=${path.join(d.dir, d.manifest.root)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
