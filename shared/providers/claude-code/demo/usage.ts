// Token counts for the Claude Code demo, shared by the bundle generator and the live writer, so
// both write usage that behaves like the real thing: a session's first request reads the shared
// system prompt from the prompt cache and writes the rest; later requests read what the earlier
// ones cached and write only what is new; after five idle minutes (the 5 m cache) the whole
// conversation is written again. `cost-state` sums what the responses used at the list prices,
// as Claude Code does (claude-code-format.md §4).
import { between, type Random } from "../../../base/random.js";

export interface CcTokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** List prices in USD per million tokens (input / output / 5 m cache write / cache read), format doc §4. */
const CC_PRICES: Readonly<Record<string, { input: number; output: number; cacheWrite: number; cacheRead: number }>> = {
  "claude-sonnet-4-5-20250929": { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  "claude-haiku-4-5-20251001": { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
};

function ccCost(model: string, t: CcTokens): number {
  const p = CC_PRICES[model];
  if (!p) throw new Error(`no demo price for ${model}`);
  return (t.input * p.input + t.output * p.output + t.cacheWrite * p.cacheWrite + t.cacheRead * p.cacheRead) / 1e6;
}

/** Rough tokens of a text (about 3.7 characters each in English prose and code). */
export function tokensOf(text: string): number {
  return Math.ceil(text.length / 3.7);
}

/** `message.usage` as Claude Code 2.1.330 writes it, field for field (every line of a response repeats it). */
export function usageObject(t: CcTokens): Record<string, unknown> {
  return {
    input_tokens: t.input,
    cache_creation_input_tokens: t.cacheWrite,
    cache_read_input_tokens: t.cacheRead,
    output_tokens: t.output,
    output_tokens_details: { thinking_tokens: 0 },
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: "standard",
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: t.cacheWrite },
    inference_geo: "",
    iterations: [],
    speed: "standard",
    fallback_credit: null,
  };
}

/** The tokens back from a usage object (the writer reads the transcript it appends to). */
export function tokensFromUsage(u: unknown): CcTokens | null {
  const o = u as Record<string, unknown> | null;
  if (!o || typeof o !== "object") return null;
  const n = (k: string): number => (typeof o[k] === "number" ? (o[k] as number) : 0);
  return { input: n("input_tokens"), output: n("output_tokens"), cacheRead: n("cache_read_input_tokens"), cacheWrite: n("cache_creation_input_tokens") };
}

const CACHE_TTL_MS = 5 * 60_000;

/** The prompt cache of one session as the demo simulates it. */
export class CcPromptCache {
  /** Tokens of the prompt prefix in the cache after the last request. */
  cached = 0;
  lastAt: number | null = null;

  constructor(private readonly random: Random) {}

  /**
   * The usage of one request at `at` whose prompt adds `added` tokens to the conversation (the
   * prompt, tool results, the previous answer) and whose answer is `output` tokens long.
   */
  request(at: number, added: number, output: number): CcTokens {
    const r = this.random;
    let cacheRead: number;
    let cacheWrite: number;
    if (this.lastAt === null || this.cached === 0) {
      // A new session: the system prompt is shared with every other session and already cached;
      // the tool schemas, context attachments and the prompt are written.
      cacheRead = between(r, 10_400, 11_200);
      cacheWrite = between(r, 5_600, 7_400) + added;
    } else if (at - this.lastAt > CACHE_TTL_MS) {
      cacheRead = between(r, 10_400, 11_200);
      cacheWrite = Math.max(0, this.cached - cacheRead) + added;
    } else {
      cacheRead = this.cached;
      cacheWrite = added;
    }
    this.cached = cacheRead + cacheWrite;
    this.lastAt = at;
    return { input: between(r, 3, 48), output, cacheRead, cacheWrite };
  }
}

/** Sums per model for `cost-state.modelUsage`, as Claude Code keeps them (cumulative over resumes). */
export class CcCostState {
  readonly models = new Map<string, CcTokens & { cost: number }>();

  add(model: string, t: CcTokens): void {
    const m = this.models.get(model) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
    m.input += t.input;
    m.output += t.output;
    m.cacheRead += t.cacheRead;
    m.cacheWrite += t.cacheWrite;
    m.cost += ccCost(model, t);
    this.models.set(model, m);
  }

  /** Claude Code rounds nothing; the float sum is written as is (here to 1e-10, so a rerun writes the same digits). */
  totalCost(): number {
    let c = 0;
    for (const m of this.models.values()) c += m.cost;
    return round(c);
  }

  modelUsage(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [model, m] of this.models) {
      out[model] = {
        inputTokens: m.input,
        outputTokens: m.output,
        thinkingTokens: 0,
        cacheReadInputTokens: m.cacheRead,
        cacheCreationInputTokens: m.cacheWrite,
        cacheCreationEphemeral5mInputTokens: m.cacheWrite,
        cacheCreationEphemeral1hInputTokens: 0,
        webSearchRequests: 0,
        costUSD: round(m.cost),
      };
    }
    return out;
  }

  /** Restores the sums from a `cost-state.modelUsage` (the writer resumes a session). */
  static from(modelUsage: unknown): CcCostState {
    const s = new CcCostState();
    if (modelUsage && typeof modelUsage === "object") {
      for (const [model, v] of Object.entries(modelUsage as Record<string, Record<string, unknown>>)) {
        const n = (k: string): number => (typeof v?.[k] === "number" ? (v[k] as number) : 0);
        s.models.set(model, { input: n("inputTokens"), output: n("outputTokens"), cacheRead: n("cacheReadInputTokens"), cacheWrite: n("cacheCreationInputTokens"), cost: n("costUSD") });
      }
    }
    return s;
  }
}

function round(x: number): number {
  return Math.round(x * 1e10) / 1e10;
}
