// What the page needs to know about alert rules without loading the daemon's rule schemas (they
// bring zod): per metric its unit, windows, scopes and defaults, the built-in rules' names, and
// how values and times are written. This mirrors shared/alerts/rules.ts (METRIC_INFO,
// BUILTIN_RULES); test/web-alerts.test.ts fails when the two drift apart.
import type { ActiveAlert, AlertMetric, AlertSeverity, AlertWindow } from "../api/types";
import { t, type MessageKey } from "../i18n/i18n";
import { fmtClock, fmtDateTime, fmtDuration, fmtInt, fmtPercent, fmtTokenCount, fmtUsdExact } from "./format";
import type { Tone } from "./tones";

export type ScopeField = "provider" | "source" | "project" | "model";
export type AlertUnit = "usd" | "tokens" | "count" | "percent" | "seconds";

export interface MetricMeta {
  unit: AlertUnit;
  windows: readonly AlertWindow[];
  /** The window when the rule names none (null: the metric has none, or both rate-limit windows). */
  defaultWindow: AlertWindow | null;
  /** A budget metric: `budget` sets warning at 80 % and critical at 100 % of it. */
  budget: boolean;
  defaults: { warning: number | null; critical: number | null };
  scopes: readonly ScopeField[];
}

const CAL: readonly AlertWindow[] = ["HOUR", "DAY", "WEEK", "MONTH"];
const ALL: readonly ScopeField[] = ["provider", "source", "project", "model"];

export const METRIC_META: Readonly<Record<AlertMetric, MetricMeta>> = {
  COST: { unit: "usd", windows: CAL, defaultWindow: "DAY", budget: true, defaults: { warning: null, critical: null }, scopes: ALL },
  TOKENS: { unit: "tokens", windows: CAL, defaultWindow: "DAY", budget: true, defaults: { warning: null, critical: null }, scopes: ALL },
  ERRORS: { unit: "count", windows: CAL, defaultWindow: "HOUR", budget: false, defaults: { warning: 10, critical: null }, scopes: ["provider", "source"] },
  WARNINGS: { unit: "count", windows: CAL, defaultWindow: "HOUR", budget: false, defaults: { warning: 50, critical: null }, scopes: ["provider", "source"] },
  CONTEXT: { unit: "percent", windows: [], defaultWindow: null, budget: false, defaults: { warning: 80, critical: 95 }, scopes: ["provider", "source", "model"] },
  GATEWAY_DOWN: { unit: "seconds", windows: [], defaultWindow: null, budget: false, defaults: { warning: null, critical: 120 }, scopes: [] },
  HEALTH_CHECK: { unit: "seconds", windows: [], defaultWindow: null, budget: false, defaults: { warning: null, critical: 300 }, scopes: ["provider"] },
  RATE_LIMIT: { unit: "percent", windows: ["PRIMARY", "SECONDARY"], defaultWindow: null, budget: false, defaults: { warning: 80, critical: 100 }, scopes: ["source"] },
  RATE_LIMIT_PROJECTION: { unit: "percent", windows: ["PRIMARY", "SECONDARY"], defaultWindow: null, budget: false, defaults: { warning: 100, critical: null }, scopes: ["source"] },
  UNPRICED: { unit: "count", windows: CAL, defaultWindow: "DAY", budget: false, defaults: { warning: 1, critical: null }, scopes: ALL },
};

export const METRICS = Object.keys(METRIC_META) as AlertMetric[];

/** The shipped rules' names, shown in the page's language while unchanged. */
export const BUILTIN_NAMES: Readonly<Record<string, string>> = {
  "gateway-down": "OpenClaw gateway down",
  "health-check-failing": "A health check is failing",
  "rate-limit": "Rate-limit window almost used",
  "rate-limit-projection": "Rate-limit projected full before reset",
  "daily-cost": "Daily cost budget",
};

const BUILTIN_KEY: Readonly<Record<string, MessageKey>> = {
  "gateway-down": "alertRule.gatewayDown",
  "health-check-failing": "alertRule.healthCheck",
  "rate-limit": "alertRule.rateLimit",
  "rate-limit-projection": "alertRule.rateLimitProjection",
  "daily-cost": "alertRule.dailyCost",
};

/** A rule's name in the page's language: a built-in's shipped name is translated, a name someone set is not. */
export function ruleName(id: string, name: string): string {
  const key = BUILTIN_KEY[id];
  return key && BUILTIN_NAMES[id] === name ? t(key) : name;
}


export function severityTone(s: AlertSeverity): Tone {
  return s === "CRITICAL" ? "err" : "warn";
}

export const SEVERITY_LABEL: Readonly<Record<AlertSeverity, MessageKey>> = { CRITICAL: "alerts.critical", WARNING: "alerts.warning" };

export const WINDOW_LABEL: Readonly<Record<AlertWindow, MessageKey>> = {
  HOUR: "alerts.window.hour",
  DAY: "alerts.window.day",
  WEEK: "alerts.window.week",
  MONTH: "alerts.window.month",
  PRIMARY: "alerts.window.primary",
  SECONDARY: "alerts.window.secondary",
};

export const METRIC_LABEL: Readonly<Record<AlertMetric, MessageKey>> = {
  COST: "alerts.metric.cost",
  TOKENS: "alerts.metric.tokens",
  ERRORS: "alerts.metric.errors",
  WARNINGS: "alerts.metric.warnings",
  CONTEXT: "alerts.metric.context",
  GATEWAY_DOWN: "alerts.metric.gatewayDown",
  HEALTH_CHECK: "alerts.metric.healthCheck",
  RATE_LIMIT: "alerts.metric.rateLimit",
  RATE_LIMIT_PROJECTION: "alerts.metric.rateLimitProjection",
  UNPRICED: "alerts.metric.unpriced",
};

/** A value in its unit: $4.80, 1.2M tokens, 87.5%, 2 min, 12. */
export function fmtAlertValue(v: number, unit: string): string {
  switch (unit) {
    case "usd":
      // Thresholds someone typed, and the figure set against them: never rounded into another budget.
      return fmtUsdExact(v);
    case "tokens":
      return fmtTokenCount(v);
    case "percent":
      return fmtPercent(v);
    case "seconds":
      return fmtDuration(v * 1000);
    default:
      return fmtInt(v);
  }
}

/** A clock time when it is within the day either side of `now`, else with its date. */
export function fmtWhen(iso: string | number, now: number): string {
  const ms = typeof iso === "number" ? iso : Date.parse(iso);
  if (Number.isNaN(ms)) return "—";
  return Math.abs(now - ms) < 20 * 3600_000 ? fmtClock(ms, false) : fmtDateTime(ms);
}

/** "at this pace the budget is reached at 17:40" or, when it is not before the window ends, the total it ends with. */
export function paceText(a: Pick<ActiveAlert, "projection" | "unit"> & { window: AlertWindow | null }, now: number): string | null {
  const p = a.projection;
  if (!p) return null;
  if (p.reachesAt) return t("alerts.reaches", { target: fmtAlertValue(p.target, a.unit), time: fmtWhen(p.reachesAt, now) });
  const key: MessageKey = a.window === "WEEK" ? "alerts.paceWeek" : a.window === "MONTH" ? "alerts.paceMonth" : "alerts.paceDay";
  return t(key, { total: fmtAlertValue(p.projectedTotal, a.unit) });
}

/** Critical first, then the most recent. */
export function byUrgency<T extends Pick<ActiveAlert, "severity" | "since">>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => Number(b.severity === "CRITICAL") - Number(a.severity === "CRITICAL") || Date.parse(b.since) - Date.parse(a.since));
}
