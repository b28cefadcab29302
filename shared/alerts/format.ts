// What a notification says, in each channel's format: the documented webhook body (version 1),
// Slack's {text, blocks}, Discord's {content, embeds}, ntfy's text with Title/Priority/Tags
// headers, and the environment of a command hook. Pure: nothing here sends anything.
import type { AlertRule, AlertScope, AlertWindow, Severity } from "./rules.js";
import { METRIC_INFO } from "./rules.js";
import { localTime, type Projection } from "./windows.js";

type NotificationEvent = "firing" | "resolved" | "test";

interface ProjectionBody {
  ratePerHour: number;
  projectedTotal: number;
  target: number;
  reachesAt: string | null;
  reachesAtLocal: string | null;
  windowEnd: string;
  timeZone: string;
}

/** The webhook JSON body (docs/alerting.md "Webhook body"). */
export interface WebhookBody {
  version: 1;
  event: NotificationEvent;
  alert: {
    id: string;
    rule: { id: string; name: string; metric: string; scope: AlertScope; window: AlertWindow | null };
    severity: Severity;
    /** True when this firing is a climb from warning to critical within one episode. */
    escalated: boolean;
    subject: string;
    value: number;
    threshold: number;
    unit: string;
    since: string;
    resolvedAt: string | null;
    summary: string;
    projection: ProjectionBody | null;
  };
  host: string;
  sentAt: string;
}

export interface NotificationInput {
  event: NotificationEvent;
  escalated: boolean;
  rule: Pick<AlertRule, "id" | "name" | "metric" | "scope" | "window">;
  alertId: string;
  subject: string;
  label: string;
  severity: Severity;
  value: number;
  threshold: number;
  since: number;
  resolvedAt: number | null;
  projection: Projection | null;
  timeZone: string;
  host: string;
  sentAt: number;
}

export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return String(value);
  switch (unit) {
    case "usd":
      return `$${value < 1000 ? value.toFixed(2) : Math.round(value).toLocaleString("en-US")}`;
    case "tokens":
      return `${value >= 1e6 ? `${(value / 1e6).toFixed(1)}M` : value >= 1e3 ? `${(value / 1e3).toFixed(1)}k` : Math.round(value)} tokens`;
    case "percent":
      return `${Math.round(value * 10) / 10} %`;
    case "seconds":
      return value >= 120 ? `${Math.round(value / 6) / 10} min` : `${Math.round(value)} s`;
    default:
      return String(Math.round(value * 100) / 100);
  }
}

const EVENT_WORD: Record<string, string> = { firing: "", resolved: "RESOLVED", test: "TEST" };

/** One line for people: `[CRITICAL] Daily cost budget: $4.80 ≥ $5.00 per day - at this pace ...`. */
export function summaryOf(n: NotificationInput): string {
  const unit = METRIC_INFO[n.rule.metric].unit;
  const head = n.event === "firing" ? `[${n.severity.toUpperCase()}]` : `[${EVENT_WORD[n.event]}]`;
  const subject = n.subject ? ` (${n.label})` : "";
  const win = n.rule.window ? ` per ${n.rule.window}` : "";
  const cmp = n.event === "resolved" ? "back under" : "reached";
  let line = `${head} ${n.rule.name}${subject}: ${formatValue(n.value, unit)} ${cmp} ${formatValue(n.threshold, unit)}${win}`;
  if (n.event === "test") line = `${head} gateway-insights test notification for ${n.rule.name}: ${formatValue(n.value, unit)} of ${formatValue(n.threshold, unit)}`;
  const p = n.projection;
  // "[WARNING] 5-hour window of codex:default projected full at 15:40, resets 16:10 (Europe/Berlin)".
  if (n.rule.metric === "rate_limit_projection" && p && (n.event === "firing" || n.event === "test")) {
    return `${head} ${n.label || n.rule.name} projected full at ${p.reachesAtLocal ?? "?"}, resets ${localTime(p.windowEnd, n.sentAt, n.timeZone)} (${n.timeZone}) - ${formatValue(p.ratePerHour, unit)} an hour over the last 30 minutes`;
  }
  if (p && n.event !== "resolved") {
    line += p.reachesAtLocal ? ` - at this pace ${formatValue(p.target, unit)} is reached at ${p.reachesAtLocal} (${n.timeZone})` : ` - at this pace ${formatValue(p.projectedTotal, unit)} by the end of the ${n.rule.window}`;
  }
  return line;
}

export function webhookBody(n: NotificationInput): WebhookBody {
  const p = n.projection;
  return {
    version: 1,
    event: n.event,
    alert: {
      id: n.alertId,
      rule: { id: n.rule.id, name: n.rule.name, metric: n.rule.metric, scope: n.rule.scope, window: n.rule.window },
      severity: n.severity,
      escalated: n.escalated,
      subject: n.subject,
      value: n.value,
      threshold: n.threshold,
      unit: METRIC_INFO[n.rule.metric].unit,
      since: new Date(n.since).toISOString(),
      resolvedAt: n.resolvedAt === null ? null : new Date(n.resolvedAt).toISOString(),
      summary: summaryOf(n),
      projection: p
        ? {
            ratePerHour: p.ratePerHour,
            projectedTotal: p.projectedTotal,
            target: p.target,
            reachesAt: p.reachesAt === null ? null : new Date(p.reachesAt).toISOString(),
            reachesAtLocal: p.reachesAtLocal,
            windowEnd: new Date(p.windowEnd).toISOString(),
            timeZone: n.timeZone,
          }
        : null,
    },
    host: n.host,
    sentAt: new Date(n.sentAt).toISOString(),
  };
}

export function slackBody(n: NotificationInput): { text: string; blocks: unknown[] } {
  const text = summaryOf(n);
  const facts = [`*Rule:* \`${n.rule.id}\``, `*Severity:* ${n.severity}`, `*Since:* ${new Date(n.since).toISOString()}`, `*Host:* ${n.host}`];
  return {
    text,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: escapeSlack(text) } },
      { type: "context", elements: facts.map((f) => ({ type: "mrkdwn", text: escapeSlack(f) })) },
    ],
  };
}

/** Slack treats &, < and > as markup. */
function escapeSlack(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const DISCORD_COLOR: Record<string, number> = { critical: 0xd93f0b, warning: 0xe4b400, resolved: 0x2da44e, test: 0x5865f2 };

export function discordBody(n: NotificationInput): { content: string; embeds: unknown[]; allowed_mentions: { parse: never[] } } {
  const text = summaryOf(n);
  const color = n.event === "firing" ? DISCORD_COLOR[n.severity] : DISCORD_COLOR[n.event];
  return {
    content: text.slice(0, 2000),
    embeds: [
      {
        title: `${n.rule.name}`.slice(0, 256),
        description: text.slice(0, 4096),
        color,
        timestamp: new Date(n.sentAt).toISOString(),
        fields: [
          { name: "Rule", value: n.rule.id, inline: true },
          { name: "Severity", value: n.severity, inline: true },
          { name: "Host", value: n.host.slice(0, 1024), inline: true },
        ],
      },
    ],
    // An alert's text must never ping @everyone.
    allowed_mentions: { parse: [] },
  };
}

/** ntfy: the message body and its headers (Title, Priority 1-5, Tags). */
export function ntfyMessage(n: NotificationInput): { body: string; headers: Record<string, string> } {
  const priority = n.event === "resolved" ? "3" : n.event === "test" ? "2" : n.severity === "critical" ? "5" : "4";
  const tags = n.event === "resolved" ? "white_check_mark" : n.event === "test" ? "test_tube" : n.severity === "critical" ? "rotating_light" : "warning";
  // Header values must be Latin-1 without line breaks.
  const title = `${n.event === "firing" ? n.severity : n.event}: ${n.rule.name}`.replace(/[^\x20-\x7e]/g, "?").slice(0, 200);
  return { body: summaryOf(n), headers: { Title: title, Priority: priority, Tags: tags } };
}

/** The INSIGHTS_ALERT_* variables a command hook gets (the body is on its stdin). */
export function commandEnv(n: NotificationInput): Record<string, string> {
  return {
    INSIGHTS_ALERT_EVENT: n.event,
    INSIGHTS_ALERT_ID: n.alertId,
    INSIGHTS_ALERT_RULE: n.rule.id,
    INSIGHTS_ALERT_RULE_NAME: n.rule.name,
    INSIGHTS_ALERT_METRIC: n.rule.metric,
    INSIGHTS_ALERT_SEVERITY: n.severity,
    INSIGHTS_ALERT_SUBJECT: n.subject,
    INSIGHTS_ALERT_VALUE: String(n.value),
    INSIGHTS_ALERT_THRESHOLD: String(n.threshold),
    INSIGHTS_ALERT_SUMMARY: summaryOf(n),
  };
}
