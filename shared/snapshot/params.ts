// The five snapshot parameters (spec: "Snapshot request"), their allowed values, the defaults of
// each interface (REST, MCP, CLI) and one parser that every interface uses, so a bad value gets
// the same INVALID_PARAM error naming the parameter and what it allows wherever it comes from.
import { InsightsError } from "../base/errors.js";
import type { MetricsRange } from "../queries/metrics.js";

export const SNAPSHOT_DETAILS = ["compact", "standard", "full"] as const;
export const SNAPSHOT_FORMATS = ["png", "svg", "json"] as const;
export const SNAPSHOT_RANGES = ["30m", "1h", "6h", "12h", "24h"] as const;
export const SNAPSHOT_THEMES = ["dark", "light"] as const;
export const SNAPSHOT_LANGS = ["en", "zh"] as const;

export type SnapshotDetail = (typeof SNAPSHOT_DETAILS)[number];
type SnapshotFormat = (typeof SNAPSHOT_FORMATS)[number];
export type SnapshotRange = (typeof SNAPSHOT_RANGES)[number];
export type SnapshotTheme = (typeof SNAPSHOT_THEMES)[number];
export type SnapshotLang = (typeof SNAPSHOT_LANGS)[number];

export interface SnapshotParams {
  detail: SnapshotDetail;
  format: SnapshotFormat;
  range: SnapshotRange;
  theme: SnapshotTheme;
  lang: SnapshotLang;
}

type SnapshotParamName = keyof SnapshotParams;
const SNAPSHOT_PARAM_NAMES: readonly SnapshotParamName[] = ["detail", "format", "range", "theme", "lang"];

/** The metrics range (design §5) behind each snapshot range. */
export const METRICS_RANGE: Readonly<Record<SnapshotRange, MetricsRange>> = {
  "30m": "THIRTY_MIN",
  "1h": "ONE_HOUR",
  "6h": "SIX_HOUR",
  "12h": "TWELVE_HOUR",
  "24h": "TWENTY_FOUR_HOUR",
};

export const RANGE_MS: Readonly<Record<SnapshotRange, number>> = {
  "30m": 30 * 60_000,
  "1h": 60 * 60_000,
  "6h": 6 * 60 * 60_000,
  "12h": 12 * 60 * 60_000,
  "24h": 24 * 60 * 60_000,
};

interface SnapshotParamRules {
  defaults: SnapshotParams;
  allowedRanges: readonly SnapshotRange[];
}

/** Defaults and ranges per interface (spec: POST /api/snapshot, MCP tool snapshot, CLI snapshot). */
export const SNAPSHOT_RULES: Readonly<Record<"rest" | "mcp" | "cli", SnapshotParamRules>> = {
  rest: { defaults: { detail: "standard", format: "png", range: "24h", theme: "dark", lang: "en" }, allowedRanges: SNAPSHOT_RANGES },
  mcp: { defaults: { detail: "standard", format: "png", range: "6h", theme: "dark", lang: "en" }, allowedRanges: ["1h", "6h", "12h", "24h"] },
  cli: { defaults: { detail: "standard", format: "png", range: "6h", theme: "dark", lang: "en" }, allowedRanges: SNAPSHOT_RANGES },
};

/** INVALID_PARAM: `param` is the offending name, `allowed` what it accepts (empty for an unknown name). */
export class SnapshotParamError extends InsightsError {
  constructor(
    readonly param: string,
    readonly value: unknown,
    readonly allowed: readonly string[],
    message: string,
  ) {
    super("INVALID_PARAM", message, { param, allowed: [...allowed] });
    this.name = "SnapshotParamError";
  }

  override toJSON(): { code: "INVALID_PARAM"; message: string; param: string } {
    return { code: "INVALID_PARAM", message: this.message, param: this.param };
  }
}

interface ParseOptions extends SnapshotParamRules {
  /** Ignore names other than the five (e.g. a CLI's own flags); by default they are an error, so a typo is not silently dropped. */
  ignoreUnknown?: boolean;
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function pick<T extends string>(name: SnapshotParamName, raw: unknown, allowed: readonly T[], fallback: T, all: readonly string[] = allowed): T {
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw !== "string") throw new SnapshotParamError(name, raw, allowed, `${name} must be a string, one of ${allowed.join(", ")}; got ${show(raw)}`);
  // Case and surrounding spaces are forgiven ("Dark", " 24h"); an empty value means the default.
  const value = raw.trim().toLowerCase();
  if (value === "") return fallback;
  const hit = allowed.find((a) => a === value);
  if (hit) return hit;
  const why = all.includes(value) ? `${name} ${show(raw)} is not supported here` : `invalid ${name} ${show(raw)}`;
  throw new SnapshotParamError(name, raw, allowed, `${why}; allowed: ${allowed.join(", ")}`);
}

/**
 * Reads the snapshot parameters from a JSON body, MCP arguments or CLI flags. Missing, null and
 * empty values take `defaults`; anything else must be one of the allowed values, or a
 * SnapshotParamError (code INVALID_PARAM) names the parameter and lists what it allows.
 */
export function parseSnapshotParams(input: unknown, options: ParseOptions): SnapshotParams {
  if (input !== undefined && input !== null && (typeof input !== "object" || Array.isArray(input))) {
    throw new SnapshotParamError("body", input, [], `snapshot parameters must be an object with any of ${SNAPSHOT_PARAM_NAMES.join(", ")}`);
  }
  const obj = (input ?? {}) as Record<string, unknown>;
  if (!options.ignoreUnknown) {
    const unknown = Object.keys(obj).filter((k) => !(SNAPSHOT_PARAM_NAMES as readonly string[]).includes(k));
    if (unknown.length) {
      const name = unknown[0] as string;
      throw new SnapshotParamError(name, obj[name], SNAPSHOT_PARAM_NAMES, `unknown parameter ${show(name)}; allowed: ${SNAPSHOT_PARAM_NAMES.join(", ")}`);
    }
  }
  const d = options.defaults;
  return {
    detail: pick("detail", obj.detail, SNAPSHOT_DETAILS, d.detail),
    format: pick("format", obj.format, SNAPSHOT_FORMATS, d.format),
    range: pick("range", obj.range, options.allowedRanges, d.range, SNAPSHOT_RANGES),
    theme: pick("theme", obj.theme, SNAPSHOT_THEMES, d.theme),
    lang: pick("lang", obj.lang, SNAPSHOT_LANGS, d.lang),
  };
}

/** Content-Disposition file name (design §6): insights-<detail>-<range>-<theme>-<lang>-<UTC yyyyMMdd-HHmmss>.<ext>. */
export function snapshotFileName(p: SnapshotParams, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `insights-${p.detail}-${p.range}-${p.theme}-${p.lang}-${stamp}.${p.format}`;
}

/** Content-Type of each format. */
export const SNAPSHOT_CONTENT_TYPES: Readonly<Record<SnapshotFormat, string>> = {
  png: "image/png",
  svg: "image/svg+xml",
  json: "application/json",
};
