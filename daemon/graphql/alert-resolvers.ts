// The alerting part of the API (docs/alerting.md): queries over the alert service, mutations that
// change rules, channels and mutes (authorized like every mutation: bearer token, or the session
// cookie with its CSRF header; audited by the service with who asked), and the enum mapping
// between the API's upper-case words and the rules' own.
import { InsightsError } from "../../shared/base/errors.js";
import type { AlertRow } from "../../shared/alerts/views.js";
import type { AlertChannelInput, AlertChannelPatch, AlertRuleInput, AlertRulePatch, AlertScopeInput, MutationResolvers, QueryResolvers, Resolvers } from "./generated/types.js";

const clampLimit = (n: number | null | undefined, def: number): number => {
  if (n === null || n === undefined) return def;
  if (!Number.isInteger(n) || n < 1 || n > 500) throw new InsightsError("BAD_USER_INPUT", "limit: an integer from 1 to 500");
  return n;
};

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const lower = <T extends string>(v: T | null | undefined): string | undefined => (v === null || v === undefined ? undefined : v.toLowerCase());
const upper = <T extends string>(v: T): Uppercase<T> => v.toUpperCase() as Uppercase<T>;

function scopeOf(s: AlertScopeInput | null | undefined): Record<string, string> | undefined | null {
  if (s === undefined) return undefined;
  if (s === null) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(s)) if (typeof v === "string") out[k] = v;
  return out;
}

/** An input object as the rules' schema wants it: lower-case enums, absent fields left out. */
function ruleFields(i: AlertRuleInput | AlertRulePatch): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const set = (k: string, v: unknown): void => {
    if (v !== undefined) out[k] = v;
  };
  if ("id" in i) set("id", i.id);
  if ("metric" in i) set("metric", lower(i.metric));
  set("name", i.name);
  set("enabled", i.enabled);
  set("scope", scopeOf(i.scope));
  set("window", i.window === null ? null : lower(i.window));
  set("budget", i.budget);
  set("warning", i.warning);
  set("critical", i.critical);
  set("check", i.check);
  set("cooldownMinutes", i.cooldownMinutes);
  set("channels", i.channels);
  return out;
}

function channelFields(i: AlertChannelInput | AlertChannelPatch): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(i)) {
    if (v === undefined) continue;
    out[k] = k === "type" || k === "minSeverity" ? (v === null ? null : String(v).toLowerCase()) : v;
  }
  return out;
}

/** Drops nulls: on add, a null means "not given". */
function withoutNulls(o: Record<string, unknown>, keep: readonly string[] = []): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== null || keep.includes(k)));
}

export const alertQueries: Pick<QueryResolvers, "alerts" | "alertRules" | "alertChannels" | "alertHistory"> = {
  alerts: (_root, args, ctx) => {
    const limit = clampLimit(args.limit, 50);
    const ruleId = args.ruleId ?? null;
    if ((args.state ?? "ACTIVE") === "ACTIVE") return ctx.alerts.activeAlerts().filter((a) => ruleId === null || a.ruleId === ruleId).slice(0, limit);
    return ctx.alerts.recentAlerts(limit, ruleId);
  },
  alertRules: (_root, _args, ctx) => ctx.alerts.ruleViews(),
  alertChannels: (_root, _args, ctx) => ctx.alerts.channelViews(),
  alertHistory: (_root, args, ctx) => ctx.alerts.history({ limit: clampLimit(args.limit, 100), alertId: args.alertId ?? null, ruleId: args.ruleId ?? null }),
};

type AlertMutations = Pick<
  MutationResolvers,
  "addAlertRule" | "updateAlertRule" | "muteAlertRule" | "unmuteAlertRule" | "deleteAlertRule" | "addAlertChannel" | "updateAlertChannel" | "deleteAlertChannel" | "testAlertChannel"
>;

export const alertMutations: AlertMutations = {
  addAlertRule: (_root, { input }, ctx) => ctx.alerts.addRule(withoutNulls(ruleFields(input), ["budget", "warning", "critical"]), ctx.caller),
  updateAlertRule: (_root, { id, input }, ctx) => ctx.alerts.updateRule(id, ruleFields(input), ctx.caller),
  muteAlertRule: (_root, { id, until }, ctx) => {
    const t = Date.parse(until);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(until) || !Number.isFinite(t)) throw new InsightsError("BAD_USER_INPUT", "until: an ISO-8601 time, e.g. 2026-01-31T18:00:00Z");
    return ctx.alerts.mute(id, t, ctx.caller);
  },
  unmuteAlertRule: (_root, { id }, ctx) => ctx.alerts.unmute(id, ctx.caller),
  deleteAlertRule: (_root, { id }, ctx) => ctx.alerts.deleteRule(id, ctx.caller),
  addAlertChannel: (_root, { input }, ctx) => ctx.alerts.addChannel(withoutNulls(channelFields(input)), ctx.caller),
  updateAlertChannel: (_root, { id, input }, ctx) => ctx.alerts.updateChannel(id, channelFields(input), ctx.caller),
  deleteAlertChannel: (_root, { id }, ctx) => ctx.alerts.deleteChannel(id, ctx.caller),
  testAlertChannel: (_root, { id }, ctx) => ctx.alerts.testChannel(id, ctx.caller),
};

export const alertTypes: Pick<Resolvers, "Alert" | "AlertRule" | "AlertChannel" | "AlertEvent" | "AlertDelivery" | "AlertProjection" | "AlertChange"> = {
  Alert: {
    rule: (a: AlertRow, _args, ctx) => ctx.alerts.rule(a.ruleId),
    metric: (a) => upper(a.metric) as never, // a stored metric is one of METRICS
    severity: (a) => upper(a.severity),
    peakSeverity: (a) => upper(a.peakSeverity),
    active: (a) => a.resolvedAt === null,
    since: (a) => iso(a.since) as string,
    resolvedAt: (a) => iso(a.resolvedAt),
    updatedAt: (a) => iso(a.updatedAt) as string,
    notified: (a) => a.sent,
    delivery: (a) => a.delivery.toUpperCase(),
  },
  AlertRule: {
    metric: (r) => upper(r.metric),
    window: (r) => (r.window ? upper(r.window) : null),
    scope: (r) => ({ provider: r.scope.provider ?? null, source: r.scope.source ?? null, project: r.scope.project ?? null, model: r.scope.model ?? null }),
    origin: (r) => upper(r.origin),
    muted: (r, _args, ctx) => r.mutedUntil !== null && r.mutedUntil > ctx.model.now(),
    mutedUntil: (r) => iso(r.mutedUntil),
    active: (r, _args, ctx) => ctx.alerts.activeAlerts().filter((a) => a.ruleId === r.id),
  },
  AlertChannel: {
    type: (c) => upper(c.type),
    minSeverity: (c) => upper(c.minSeverity),
    origin: (c) => upper(c.origin),
  },
  AlertEvent: {
    at: (e) => iso(e.ts) as string,
    kind: (e) => e.kind.toUpperCase(),
    severity: (e) => (e.severity ? upper(e.severity) : null),
    withheld: (e) => (e.withheld ? e.withheld.toUpperCase() : null),
  },
  AlertDelivery: {
    outcome: (d) => d.outcome.toUpperCase(),
    at: (d) => iso(d.ts),
  },
  AlertProjection: {
    reachesAt: (p) => iso(p.reachesAt),
    windowEnd: (p) => iso(p.windowEnd) as string,
  },
  AlertChange: {},
};
