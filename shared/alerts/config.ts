// The `alerts` config value (config.json, or JSON text in INSIGHTS_ALERTS): validated with zod
// into rules and channels. A bad value is a ConfigError naming the path (`alerts.rules[2].window`),
// the value and what is allowed; a secret (a webhook's HMAC key, a Slack or Discord URL, an ntfy
// token) is never printed back.
import { z } from "zod";
import { ConfigError } from "../base/errors.js";
import { safeTimeZone } from "../queries/time.js";
import {
  AlertsConfigSchema,
  BUILTIN_RULES,
  ChannelSchema,
  RulePatchSchema,
  RuleSchema,
  ruleProblem,
  type AlertRuleInput,
  type ChannelInput,
} from "./rules.js";

export interface AlertsConfig {
  /** Zone of the day, week and month windows; null: the daemon host's. */
  timeZone: string | null;
  /** How often rules are evaluated besides on every change. */
  evaluateSeconds: number;
  rules: AlertRuleInput[];
  channels: ChannelInput[];
  /** Channels made through the API may send to private, loopback and link-local addresses. */
  allowPrivateTargets: boolean;
  /** Host names, addresses or CIDR ranges channels made through the API may send to whatever they are. */
  allowedHosts: string[];
}

const DEFAULT_EVALUATE_SECONDS = 15;

type Issue = z.core.$ZodIssue;

function pathText(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `.${String(p)}`;
  return out;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v = raw;
  for (const p of path) v = typeof v === "object" && v !== null ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

/**
 * The value to print for a field of a channel: never a URL or a secret, whatever the type says (a
 * Slack URL is a secret, a webhook URL may carry a token, a secret given to a channel that takes
 * none is still one).
 */
function shown(raw: unknown, path: readonly PropertyKey[], inChannel: boolean): unknown {
  const field = path[path.length - 1];
  if (inChannel && (field === "secret" || field === "url")) return "<hidden>";
  return valueAt(raw, path);
}

function issueError(issue: Issue, raw: unknown, base: string, origin: string, inChannel = false): ConfigError {
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0] ?? "?";
    return new ConfigError(pathText(base, [...issue.path, key]), shown(raw, [...issue.path, key], inChannel), origin, "no such field (see docs/alerting.md)");
  }
  return new ConfigError(pathText(base, issue.path), shown(raw, issue.path, inChannel), origin, issue.message);
}

/** Validates one rule as written in config.json (a built-in's id changes that built-in). */
function parseRuleInput(raw: unknown, base: string, origin: string): AlertRuleInput {
  const id = typeof raw === "object" && raw !== null ? (raw as { id?: unknown }).id : undefined;
  const builtin = BUILTIN_RULES.find((b) => b.id === id);
  const parsed = (builtin ? RulePatchSchema : RuleSchema).safeParse(raw);
  if (!parsed.success) throw issueError(parsed.error.issues[0]!, raw, base, origin); // a failed parse has an issue
  const rule = parsed.data as AlertRuleInput;
  if (builtin && rule.metric !== undefined && rule.metric !== builtin.metric) {
    throw new ConfigError(`${base}.metric`, rule.metric, origin, `${builtin.metric}: the built-in rule ${builtin.id} measures it (pick another id for a new rule)`);
  }
  const merged = builtin ? { ...builtin, ...rule, metric: builtin.metric } : rule;
  const problem = ruleProblem(merged);
  if (problem) throw new ConfigError(`${base}.${problem.path}`, valueAt(raw, problem.path.split(".")), origin, problem.message);
  return rule;
}

function parseChannelInput(raw: unknown, base: string, origin: string): ChannelInput {
  const parsed = ChannelSchema.safeParse(raw);
  if (!parsed.success) throw issueError(parsed.error.issues[0]!, raw, base, origin, true);
  return parsed.data as ChannelInput;
}

/** Validates the `alerts` value (null or absent: built-in rules, no channels). */
export function parseAlertsConfig(raw: unknown, origin: string): AlertsConfig {
  if (raw === undefined || raw === null) return { timeZone: null, evaluateSeconds: DEFAULT_EVALUATE_SECONDS, rules: [], channels: [], allowPrivateTargets: false, allowedHosts: [] };
  const top = AlertsConfigSchema.safeParse(raw);
  if (!top.success) {
    const issue = top.error.issues[0]!;
    // Never print whole arrays back: they may hold secrets.
    const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? "?"] : issue.path;
    const v = path.length === 1 && (path[0] === "rules" || path[0] === "channels") ? "<list>" : valueAt(raw, path);
    throw new ConfigError(pathText("alerts", path), v, origin, issue.code === "unrecognized_keys" ? "no such field (timeZone, evaluateSeconds, rules, channels, allowPrivateTargets, allowedHosts)" : issue.message);
  }
  const c = top.data;
  if (c.timeZone !== undefined && safeTimeZone(c.timeZone) !== c.timeZone) throw new ConfigError("alerts.timeZone", c.timeZone, origin, "an IANA time zone (e.g. Europe/Berlin, UTC)");
  const rules = (c.rules ?? []).map((r, i) => parseRuleInput(r, `alerts.rules[${i}]`, origin));
  const channels = (c.channels ?? []).map((ch, i) => parseChannelInput(ch, `alerts.channels[${i}]`, origin));
  const dup = <T extends { id: string }>(list: T[], what: string): void => {
    const seen = new Set<string>();
    for (const [i, x] of list.entries()) {
      if (seen.has(x.id)) throw new ConfigError(`alerts.${what}[${i}].id`, x.id, origin, `an id not already used by another of alerts.${what}`);
      seen.add(x.id);
    }
  };
  dup(rules, "rules");
  dup(channels, "channels");
  return { timeZone: c.timeZone ?? null, evaluateSeconds: c.evaluateSeconds ?? DEFAULT_EVALUATE_SECONDS, rules, channels, allowPrivateTargets: c.allowPrivateTargets ?? false, allowedHosts: c.allowedHosts ?? [] };
}
