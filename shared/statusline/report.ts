// What `insightsctl statusline` hands the daemon (control call `statusline.report`) or leaves in
// its spool file when no daemon runs: the plan's windows, the session, the model and the time.
// The daemon reads it as hostile input (any process of the user may call the socket or write the
// spool), so `readReport` checks every field and caps every string; no imports, the CLI loads it.
import type { StatusInput, StatusRateLimits, StatusWindow } from "./input.js";

export interface StatusReport {
  /** When the CLI read it (epoch ms, its clock). */
  at: number;
  sessionId: string | null;
  model: string | null;
  /** The Claude Code config dir it came from (decides the install, hence the source id). */
  configDir: string | null;
  /** null: Claude Code gave no windows. */
  rateLimits: StatusRateLimits | null;
  /** Claude Code had answered in this session (a cost), so windows absent mean no plan windows. */
  responded: boolean;
}

/** One report in bytes, as JSON: the spool and the socket take nothing larger. */
export const MAX_REPORT_BYTES = 4096;
const MAX_STRING = 200;
const MAX_PATH = 1024;

/** The config dir from the transcript path (`<dir>/projects/<slug>/<session>.jsonl`), else the env's. */
export function configDirOf(transcriptPath: string | null, env: Readonly<Record<string, string | undefined>>): string | null {
  if (transcriptPath) {
    const parts = transcriptPath.split("/");
    if (parts.length >= 4 && parts[parts.length - 3] === "projects" && transcriptPath.startsWith("/")) return parts.slice(0, -3).join("/") || "/";
  }
  const env1 = env.CLAUDE_CONFIG_DIR?.split(",")[0]?.trim();
  if (env1 && env1.startsWith("/")) return env1;
  return env.HOME ? `${env.HOME}/.claude` : null;
}

export function reportOf(input: StatusInput, at: number, env: Readonly<Record<string, string | undefined>>): StatusReport {
  return {
    at,
    sessionId: input.sessionId,
    model: input.modelId,
    configDir: configDirOf(input.transcriptPath, env),
    rateLimits: input.rateLimits,
    responded: (input.sessionCostUsd ?? 0) > 0,
  };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function optString(v: unknown, name: string, max: number): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== "string" || v.length === 0 || v.length > max) throw new Error(`${name} must be a string of 1 to ${max} characters`);
  return v;
}

function windowFrom(v: unknown, name: string): StatusWindow | null {
  if (v === null || v === undefined) return null;
  if (!isObj(v)) throw new Error(`${name} must be an object`);
  const used = v.usedPercent;
  const resets = v.resetsAt;
  if (typeof used !== "number" || !Number.isFinite(used)) throw new Error(`${name}.usedPercent must be a number`);
  if (resets !== null && (typeof resets !== "number" || !Number.isFinite(resets))) throw new Error(`${name}.resetsAt must be a number or null`);
  return { usedPercent: used, resetsAt: resets };
}

/** The report in `v`, checked; throws an Error saying what is wrong (the caller types it). */
export function readReport(v: unknown): StatusReport {
  if (!isObj(v)) throw new Error("a report must be an object");
  if (typeof v.at !== "number" || !Number.isFinite(v.at) || v.at <= 0) throw new Error("at must be a time in epoch ms");
  if (typeof v.responded !== "boolean") throw new Error("responded must be a boolean");
  let rateLimits: StatusRateLimits | null = null;
  if (v.rateLimits !== null && v.rateLimits !== undefined) {
    if (!isObj(v.rateLimits)) throw new Error("rateLimits must be an object or null");
    const r = v.rateLimits;
    const perModel: Record<string, StatusWindow> = {};
    if (r.perModel !== undefined) {
      if (!isObj(r.perModel)) throw new Error("rateLimits.perModel must be an object");
      const keys = Object.keys(r.perModel);
      if (keys.length > 4) throw new Error("rateLimits.perModel has more than 4 windows");
      for (const k of keys) {
        if (!/^[a-z0-9_]{1,40}$/.test(k)) throw new Error("rateLimits.perModel keys are model words");
        const w = windowFrom(r.perModel[k], `rateLimits.perModel.${k}`);
        if (w) perModel[k] = w;
      }
    }
    rateLimits = { fiveHour: windowFrom(r.fiveHour, "rateLimits.fiveHour"), sevenDay: windowFrom(r.sevenDay, "rateLimits.sevenDay"), perModel };
  }
  return {
    at: v.at,
    sessionId: optString(v.sessionId, "sessionId", MAX_STRING),
    model: optString(v.model, "model", MAX_STRING),
    configDir: optString(v.configDir, "configDir", MAX_PATH),
    rateLimits,
    responded: v.responded,
  };
}
