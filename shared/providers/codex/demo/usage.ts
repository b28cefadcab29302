// Token counts and rate limits for the Codex demo, shared by the bundle generator and the live
// writer. Usage follows OpenAI's semantics as Codex records them (codex-format.md §5): a
// response's `input_tokens` is the whole prompt, cached part included, and grows with the thread;
// the prompt cache holds the previous prompt for a few minutes; `output_tokens` includes the
// reasoning. The plan's rate limits (§8) are gauges: the 5-hour window's used percent rises with
// use and starts again when the window resets; the weekly window rises slowly.
import { between, pick, type Random } from "../../../base/random.js";

export interface CodexUsage {
  input_tokens: number;
  cached_input_tokens: number;
  cache_write_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
}

export const ZERO_USAGE: CodexUsage = { input_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };

export function addUsage(a: CodexUsage, b: CodexUsage): CodexUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    cached_input_tokens: a.cached_input_tokens + b.cached_input_tokens,
    cache_write_input_tokens: a.cache_write_input_tokens + b.cache_write_input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    reasoning_output_tokens: a.reasoning_output_tokens + b.reasoning_output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

/** A usage object read back from a line (the writer resumes a thread); null when it is not one. */
export function usageFrom(v: unknown): CodexUsage | null {
  const o = v as Record<string, unknown> | null;
  if (!o || typeof o !== "object") return null;
  const out = { ...ZERO_USAGE };
  for (const k of Object.keys(ZERO_USAGE) as Array<keyof CodexUsage>) {
    const n = o[k];
    if (typeof n !== "number") return null;
    out[k] = n;
  }
  return out;
}

/** Rough tokens of a text. */
export function tokensOf(text: string): number {
  return Math.ceil(text.length / 3.8);
}

/** How long OpenAI keeps a prompt prefix cached, as far as the demo cares. */
const CACHE_TTL_MS = 10 * 60_000;

/** The prompt of one thread as the demo simulates it. */
export class CodexPrompt {
  /** Tokens of the last prompt plus its answer: where the next prompt starts. */
  size = 0;
  lastAt: number | null = null;

  constructor(private readonly random: Random) {}

  /** One response at `at`: the prompt gains `added` tokens (a user message, tool output); the answer is `visible` tokens plus reasoning. */
  respond(at: number, added: number, visible: number): CodexUsage {
    const r = this.random;
    const fresh = this.size === 0;
    // A thread starts with Codex's instructions, the tools and the environment context.
    const input = (fresh ? between(r, 11_300, 12_400) : this.size) + added;
    const warm = !fresh && this.lastAt !== null && at - this.lastAt <= CACHE_TTL_MS;
    const cached = warm ? Math.floor((this.size - between(r, 0, 200)) / 128) * 128 : pick(r, [0, 1024, 1024, 2048]);
    const reasoning = between(r, 48, 640);
    const output = visible + reasoning;
    this.size = input + output;
    this.lastAt = at;
    return { input_tokens: input, cached_input_tokens: Math.max(0, Math.min(cached, input)), cache_write_input_tokens: 0, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output };
  }
}

export interface RateWindow {
  used_percent: number;
  window_minutes: number;
  /** Unix seconds. */
  resets_at: number;
}

export const PRIMARY_MINUTES = 300;
export const SECONDARY_MINUTES = 10_080;

/**
 * How a window's figures move. `perHour` (the live writer's): the most its used percent may rise
 * per hour since the figure last moved. The dashboard projects the last half hour's rise to the
 * reset and warns when it reaches 100 % first, so a demo that rose with every few seconds' tokens
 * warned "projected full" minutes after it started while the gauge stayed far below its ceiling.
 */
export interface WindowPace {
  minutes: number;
  perToken: number;
  ceiling: number;
  start: number;
  perHour?: number;
}

/** The projection's shortest span: no span of readings that long rises faster than `perHour`. */
const PACE_SPAN_MS = 5 * 60_000;

/**
 * The next figures after a response of `tokens` at `at`: a window whose reset time has passed
 * starts again (used from a low value, resetting one window length after this response);
 * otherwise its used percent rises with the tokens, approaching `ceiling` without reaching it so
 * a long-running demo never hits the limit, and by no more than `perHour` since `since` (when the
 * figure last moved; null: not known, so no rise yet), counting at most `PACE_SPAN_MS` of it: a
 * figure that stood still for hours does not jump. Percentages keep two decimals.
 */
export function nextWindow(prev: RateWindow | null, at: number, tokens: number, o: WindowPace, since: number | null = null): RateWindow {
  const nowS = Math.floor(at / 1000);
  if (!prev || prev.resets_at <= nowS) {
    return { used_percent: round2(o.start), window_minutes: o.minutes, resets_at: nowS + o.minutes * 60 };
  }
  const room = Math.max(0, o.ceiling - prev.used_percent);
  const paced = o.perHour === undefined ? Infinity : since === null ? 0 : (o.perHour * Math.min(Math.max(0, at - since), PACE_SPAN_MS)) / 3_600_000;
  const step = Math.min(tokens * o.perToken, room / 20, paced);
  return { used_percent: round2(Math.max(prev.used_percent, prev.used_percent + step)), window_minutes: prev.window_minutes, resets_at: prev.resets_at };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** `token_count.rate_limits` as Codex 0.169 writes it. */
export function rateLimitsObject(primary: RateWindow, secondary: RateWindow): Record<string, unknown> {
  return {
    limit_id: "codex",
    limit_name: null,
    primary,
    secondary,
    credits: { has_credits: false, unlimited: false, balance: null },
    individual_limit: null,
    spend_control_reached: null,
    plan_type: "plus",
    rate_limit_reached_type: null,
  };
}

/**
 * The pace of the live writer's windows (the generator sets its own figures). With the rounding to
 * 0.01 a figure rises at most about twice `perHour`, and from wherever it stands that stays short of
 * 100 % at the reset: 72 + 8 x 5 h for the 5-hour window (a new one starts at 1.5), 64 + 0.16 x
 * 168 h for the weekly one (a new one starts at 3 and cannot reach 64 in a week at that rate).
 */
export const LIVE_PRIMARY: WindowPace = { minutes: PRIMARY_MINUTES, perToken: 0.25 / 1000, ceiling: 72, start: 1.5, perHour: 4 };
export const LIVE_SECONDARY: WindowPace = { minutes: SECONDARY_MINUTES, perToken: 0.02 / 1000, ceiling: 64, start: 3, perHour: 0.08 };
