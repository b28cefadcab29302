// Alert rules and channels: their shapes, the zod schemas that validate them wherever they come
// from (config.json's `alerts` key, a GraphQL mutation, a row of our store), the built-in rules
// and how a rule's thresholds are resolved. Provider-neutral and pure.
import { z } from "zod";
import { PROVIDER_NAMES, type ProviderName } from "../providers/registry.js";

export const METRICS = ["cost", "tokens", "errors", "warnings", "context", "gateway_down", "health_check", "rate_limit", "rate_limit_projection", "unpriced"] as const;
export type AlertMetric = (typeof METRICS)[number];

/**
 * hour: the last 60 minutes (rolling); day, week (from Monday), month: calendar windows in the
 * alerts' time zone; primary, secondary: the provider's own rate-limit windows (Codex's 5 h and weekly).
 */
const WINDOWS = ["hour", "day", "week", "month", "primary", "secondary"] as const;
export type AlertWindow = (typeof WINDOWS)[number];

const SEVERITIES = ["warning", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** A rule's provider scope: the registry's names. */
export const PROVIDERS = PROVIDER_NAMES as readonly [ProviderName, ...ProviderName[]];

export const CHANNEL_TYPES = ["webhook", "slack", "discord", "ntfy", "command"] as const;
type ChannelType = (typeof CHANNEL_TYPES)[number];

/** What each metric measures, its unit, the windows it takes and its default thresholds. */
interface MetricInfo {
  unit: "usd" | "tokens" | "count" | "percent" | "seconds";
  windows: readonly AlertWindow[];
  defaultWindow: AlertWindow | null;
  /** A budget metric: `budget` sets the thresholds (80 % and 100 % of it) and the projection applies. */
  budget: boolean;
  /** Held metrics: the value is how many seconds a condition (gateway down, a check failing) has held; thresholds are durations. */
  held: boolean;
  /** Thresholds when the rule gives none (and, for budgets, no budget). */
  defaults: { warning: number | null; critical: number | null };
  scopes: readonly (keyof AlertScope)[];
}

const CAL = ["hour", "day", "week", "month"] as const;
const ALL_SCOPES = ["provider", "source", "project", "model"] as const;
export const METRIC_INFO: Record<AlertMetric, MetricInfo> = {
  cost: { unit: "usd", windows: CAL, defaultWindow: "day", budget: true, held: false, defaults: { warning: null, critical: null }, scopes: ALL_SCOPES },
  tokens: { unit: "tokens", windows: CAL, defaultWindow: "day", budget: true, held: false, defaults: { warning: null, critical: null }, scopes: ALL_SCOPES },
  errors: { unit: "count", windows: CAL, defaultWindow: "hour", budget: false, held: false, defaults: { warning: 10, critical: null }, scopes: ["provider", "source"] },
  warnings: { unit: "count", windows: CAL, defaultWindow: "hour", budget: false, held: false, defaults: { warning: 50, critical: null }, scopes: ["provider", "source"] },
  context: { unit: "percent", windows: [], defaultWindow: null, budget: false, held: false, defaults: { warning: 80, critical: 95 }, scopes: ["provider", "source", "model"] },
  gateway_down: { unit: "seconds", windows: [], defaultWindow: null, budget: false, held: true, defaults: { warning: null, critical: 120 }, scopes: [] },
  health_check: { unit: "seconds", windows: [], defaultWindow: null, budget: false, held: true, defaults: { warning: null, critical: 300 }, scopes: ["provider"] },
  rate_limit: { unit: "percent", windows: ["primary", "secondary"], defaultWindow: null, budget: false, held: false, defaults: { warning: 80, critical: 100 }, scopes: ["source"] },
  // The used % a window reaches by its reset at the last half hour's burn rate: 100 means it fills first.
  rate_limit_projection: { unit: "percent", windows: ["primary", "secondary"], defaultWindow: null, budget: false, held: false, defaults: { warning: 100, critical: null }, scopes: ["source"] },
  unpriced: { unit: "count", windows: CAL, defaultWindow: "day", budget: false, held: false, defaults: { warning: 1, critical: null }, scopes: ALL_SCOPES },
};

export interface AlertScope {
  provider?: ProviderName;
  source?: string;
  project?: string;
  model?: string;
}

/** A rule as written (config.json, the API): only `id` and `metric` are required. */
export interface AlertRuleInput {
  id: string;
  name?: string;
  enabled?: boolean;
  metric: AlertMetric;
  scope?: AlertScope;
  window?: AlertWindow;
  budget?: number | null;
  warning?: number | null;
  critical?: number | null;
  check?: string;
  cooldownMinutes?: number;
  channels?: string[];
}

/** Where a rule comes from: shipped, config.json (read-only in the API) or made through the API. */
type RuleOrigin = "builtin" | "config" | "api";

/** A rule with everything resolved: what the evaluator runs. */
export interface AlertRule {
  id: string;
  name: string;
  enabled: boolean;
  metric: AlertMetric;
  scope: AlertScope;
  window: AlertWindow | null;
  budget: number | null;
  warning: number | null;
  critical: number | null;
  check: string | null;
  cooldownMinutes: number;
  /** Channel ids; null: every enabled channel. */
  channels: string[] | null;
  origin: RuleOrigin;
  /** A built-in rule the config or the API changed. */
  overridden: boolean;
}

export interface ChannelInput {
  id: string;
  type: ChannelType;
  name?: string;
  enabled?: boolean;
  /** webhook, ntfy: where to POST; slack, discord: the incoming-webhook URL (a secret itself). */
  url?: string;
  /** webhook: the HMAC key; ntfy: the access token (Bearer). */
  secret?: string;
  /** command: argv, run without a shell. */
  command?: string[];
  minSeverity?: Severity;
  sendResolved?: boolean;
  timeoutSeconds?: number;
}

export interface AlertChannel {
  id: string;
  type: ChannelType;
  name: string;
  enabled: boolean;
  url: string | null;
  secret: string | null;
  command: string[] | null;
  minSeverity: Severity;
  sendResolved: boolean;
  timeoutSeconds: number;
  origin: "config" | "api";
}

const DEFAULT_COOLDOWN_MINUTES = 30;
const DEFAULT_TIMEOUT_SECONDS = 10;
/** A crossed threshold clears only once the value falls below this share of it (hysteresis). */
export const CLEAR_RATIO = 0.9;
/** Budget thresholds when the rule sets only `budget`. */
const BUDGET_WARNING_SHARE = 0.8;

const ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const text = (max: number) => z.string().min(1).max(max).refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "no control characters");
const nonNegative = z.number().finite().min(0).max(1e15);

const ScopeSchema = z
  .object({
    provider: z.enum(PROVIDERS).optional(),
    source: text(200).optional(),
    project: text(4096).optional(),
    model: text(200).optional(),
  })
  .strict();

export const RuleSchema = z
  .object({
    id: z.string().regex(ID, "1-64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit"),
    name: text(120).optional(),
    enabled: z.boolean().optional(),
    metric: z.enum(METRICS),
    scope: ScopeSchema.optional(),
    window: z.enum(WINDOWS).optional(),
    budget: z.number().finite().gt(0).max(1e15).nullable().optional(),
    warning: nonNegative.nullable().optional(),
    critical: nonNegative.nullable().optional(),
    check: text(120).optional(),
    cooldownMinutes: z.number().int().min(0).max(10_080).optional(),
    channels: z.array(z.string().regex(ID)).max(50).optional(),
  })
  .strict();

/** A change to a built-in rule: everything but the metric may be changed. */
export const RulePatchSchema = RuleSchema.partial().extend({ id: RuleSchema.shape.id }).strict();

const httpUrl = z
  .string()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === "http:" || u.protocol === "https:") && u.username === "" && u.password === "";
    } catch {
      return false;
    }
  }, "an http:// or https:// URL without user:password");

export const ChannelSchema = z
  .object({
    id: z.string().regex(ID, "1-64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit"),
    type: z.enum(CHANNEL_TYPES),
    name: text(120).optional(),
    enabled: z.boolean().optional(),
    url: httpUrl.optional(),
    secret: z.string().min(1).max(1024).optional(),
    command: z.array(z.string().min(1).max(4096)).min(1).max(64).optional(),
    minSeverity: z.enum(SEVERITIES).optional(),
    sendResolved: z.boolean().optional(),
    timeoutSeconds: z.number().int().min(1).max(120).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.type === "command") {
      if (!c.command) ctx.addIssue({ code: "custom", path: ["command"], message: "a command channel needs `command`, an argv array (run without a shell)" });
      if (c.url !== undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "a command channel has no url" });
    } else {
      if (!c.url) ctx.addIssue({ code: "custom", path: ["url"], message: `a ${c.type} channel needs \`url\`` });
      if (c.command !== undefined) ctx.addIssue({ code: "custom", path: ["command"], message: `a ${c.type} channel runs no command` });
    }
    if ((c.type === "slack" || c.type === "discord" || c.type === "command") && c.secret !== undefined) {
      ctx.addIssue({ code: "custom", path: ["secret"], message: `a ${c.type} channel takes no secret${c.type === "command" ? "" : " (its URL is the secret)"}` });
    }
  });

/** The most rules and channels config.json may hold; the API holds its own to the same (issue 18). */
export const MAX_RULES = 500;
export const MAX_CHANNELS = 100;

export const AlertsConfigSchema = z
  .object({
    timeZone: z.string().min(1).max(64).optional(),
    evaluateSeconds: z.number().int().min(1).max(3600).optional(),
    rules: z.array(z.unknown()).max(MAX_RULES).optional(),
    channels: z.array(z.unknown()).max(MAX_CHANNELS).optional(),
    // Where channels made through the API may send beyond public addresses (daemon/alerts/target-policy.ts).
    allowPrivateTargets: z.boolean().optional(),
    allowedHosts: z
      .array(
        z
          .string()
          .min(1)
          .max(255)
          .regex(/^[A-Za-z0-9._:\[\]-]+(\/\d{1,3})?$/, "a host name, an address or a CIDR range (10.0.0.0/8)"),
      )
      .max(100)
      .optional(),
  })
  .strict();

/** Fields of a channel that are secrets: never logged, never returned by the API. */
export function secretFields(type: ChannelType): ReadonlyArray<"url" | "secret"> {
  return type === "slack" || type === "discord" ? ["url"] : type === "webhook" || type === "ntfy" ? ["secret"] : [];
}

// The built-in rules live in builtin-rules.ts, which loads no zod: the render workers show their names.
export { BUILTIN_RULES } from "./builtin-rules.js";

/** Resolves a written rule (optionally over a built-in it changes) into what the evaluator runs. */
export function resolveRule(input: AlertRuleInput, origin: RuleOrigin, base?: AlertRuleInput): AlertRule {
  const r: AlertRuleInput = base ? { ...base, ...stripUndefined(input), metric: base.metric } : input;
  const info = METRIC_INFO[r.metric];
  const budget = info.budget ? (r.budget ?? null) : null;
  const warning = r.warning !== undefined ? r.warning : budget !== null ? budget * BUDGET_WARNING_SHARE : info.defaults.warning;
  const critical = r.critical !== undefined ? r.critical : budget !== null ? budget : info.defaults.critical;
  // A budget rule without an amount or thresholds measures nothing: it is off until one is set.
  const usable = warning !== null || critical !== null;
  return {
    id: r.id,
    name: r.name ?? defaultName(r),
    enabled: (r.enabled ?? true) && usable,
    metric: r.metric,
    scope: { ...(r.scope ?? {}) },
    window: r.window ?? info.defaultWindow,
    budget,
    warning,
    critical,
    check: r.metric === "health_check" ? (r.check ?? null) : null,
    cooldownMinutes: r.cooldownMinutes ?? DEFAULT_COOLDOWN_MINUTES,
    channels: r.channels ?? null,
    origin: base ? "builtin" : origin,
    overridden: base !== undefined && origin !== "builtin",
  };
}

/** Checks what the schema cannot: the window and scope fit the metric, thresholds are ordered. Returns the problem or null. */
export function ruleProblem(r: AlertRuleInput): { path: string; message: string } | null {
  const info = METRIC_INFO[r.metric];
  if (r.window !== undefined && !info.windows.includes(r.window)) {
    return { path: "window", message: info.windows.length ? `one of ${info.windows.join(", ")} for ${r.metric}` : `no window for ${r.metric}` };
  }
  for (const k of Object.keys(r.scope ?? {}) as (keyof AlertScope)[]) {
    if (!info.scopes.includes(k)) return { path: `scope.${k}`, message: info.scopes.length ? `one of ${info.scopes.join(", ")} as ${r.metric}'s scope` : `no scope for ${r.metric}` };
  }
  if (r.budget != null && !info.budget) return { path: "budget", message: "a budget only for cost and tokens" };
  if (r.check !== undefined && r.metric !== "health_check") return { path: "check", message: "check only for health_check" };
  if (r.warning != null && r.critical != null && r.warning > r.critical) return { path: "warning", message: "a warning threshold not above the critical one" };
  return null;
}

function defaultName(r: AlertRuleInput): string {
  const scope = Object.entries(r.scope ?? {})
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(", ");
  const win = r.window ?? METRIC_INFO[r.metric].defaultWindow;
  return `${r.metric}${win ? ` per ${win}` : ""}${scope ? ` (${scope})` : ""}`;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A channel as written, resolved with its defaults. */
export function resolveChannel(c: ChannelInput, origin: "config" | "api"): AlertChannel {
  return {
    id: c.id,
    type: c.type,
    name: c.name ?? c.id,
    enabled: c.enabled ?? true,
    url: c.url ?? null,
    secret: c.secret ?? null,
    command: c.command ? [...c.command] : null,
    minSeverity: c.minSeverity ?? "warning",
    sendResolved: c.sendResolved ?? true,
    timeoutSeconds: c.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    origin,
  };
}
