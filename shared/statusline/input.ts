// The JSON Claude Code writes to its status-line command's stdin (claude-code-format.md §11b,
// Claude Code's statusline docs). Anything may arrive: another program's output, a truncated
// object, numbers as strings, a megabyte of nesting. Every field is read defensively and one that
// does not fit is simply absent; nothing here throws. No imports: `insightsctl statusline` runs
// after every message and loads only what it needs.

/** One plan window as Claude Code hands it over: used % (0-100) and the reset in epoch seconds. */
export interface StatusWindow {
  usedPercent: number;
  /** Epoch ms (Claude Code sends seconds). */
  resetsAt: number | null;
}

export interface StatusRateLimits {
  fiveHour: StatusWindow | null;
  sevenDay: StatusWindow | null;
  /** Per-model weekly windows some versions add (`seven_day_opus`, `seven_day_sonnet`), by model word. */
  perModel: Record<string, StatusWindow>;
}

export interface StatusInput {
  sessionId: string | null;
  transcriptPath: string | null;
  modelId: string | null;
  modelName: string | null;
  version: string | null;
  /** This session's cost as Claude Code counts it. */
  sessionCostUsd: number | null;
  /** Share of the context window in use, 0-100. */
  contextPercent: number | null;
  contextSize: number | null;
  /** `present`: windows given; `null`/`absent`: none (an API-key login, or before the first response). */
  rateLimitsState: "present" | "null" | "absent";
  rateLimits: StatusRateLimits | null;
}

/** Strings kept from the input are short: an id or a name, never a document. */
export const MAX_FIELD_CHARS = 200;
/** The per-model windows kept: a handful exist; more is not a real input. */
const MAX_PER_MODEL = 4;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 && v.length <= MAX_FIELD_CHARS ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function windowOf(v: unknown): StatusWindow | null {
  if (!isObj(v)) return null;
  const used = num(v.used_percentage);
  if (used === null) return null;
  const resets = num(v.resets_at);
  // Seconds per the docs; a value past year 33658 in seconds is already milliseconds.
  return { usedPercent: used, resetsAt: resets === null ? null : resets > 1e12 ? resets : resets * 1000 };
}

function rateLimitsOf(v: unknown): StatusRateLimits | null {
  if (!isObj(v)) return null;
  const perModel: Record<string, StatusWindow> = {};
  let n = 0;
  for (const key of Object.keys(v)) {
    const m = /^seven_day_([a-z0-9_]{1,40})$/.exec(key);
    if (!m || n >= MAX_PER_MODEL) continue;
    const w = windowOf(v[key]);
    if (w) {
      perModel[m[1] as string] = w;
      n++;
    }
  }
  const fiveHour = windowOf(v.five_hour);
  const sevenDay = windowOf(v.seven_day);
  if (!fiveHour && !sevenDay && n === 0) return null;
  return { fiveHour, sevenDay, perModel };
}

/** The input's fields; `null` when the text is not a JSON object at all. */
export function parseStatusInput(text: string): StatusInput | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObj(raw)) return null;
  const model = raw.model;
  const cost = isObj(raw.cost) ? raw.cost : {};
  const ctx = isObj(raw.context_window) ? raw.context_window : {};
  const rl = raw.rate_limits;
  const rateLimits = rateLimitsOf(rl);
  const contextPercent = num(ctx.used_percentage);
  return {
    sessionId: str(raw.session_id),
    transcriptPath: typeof raw.transcript_path === "string" && raw.transcript_path.length <= 4096 ? raw.transcript_path : null,
    // Older versions gave the model as a plain string.
    modelId: isObj(model) ? str(model.id) : str(model),
    modelName: isObj(model) ? str(model.display_name) : null,
    version: str(raw.version),
    sessionCostUsd: num(cost.total_cost_usd),
    contextPercent: contextPercent !== null && contextPercent >= 0 && contextPercent <= 1000 ? contextPercent : null,
    contextSize: num(ctx.context_window_size),
    rateLimitsState: rateLimits ? "present" : rl === undefined ? "absent" : "null",
    rateLimits,
  };
}
