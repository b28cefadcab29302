// What alerting shows outside the daemon: rules, channels, alerts, events and deliveries as the
// GraphQL API and the control socket (`insightsctl alerts`) return them, and who asked for a change.
// Here in shared/ because the CLI reads these answers without importing the daemon.
import type { Projection } from "./windows.js";
import type { AlertChannel, AlertRule, Severity } from "./rules.js";

export interface Caller {
  auth: string;
  peer: string;
}

export interface AlertChange {
  kind: "FIRING" | "ESCALATED" | "DEESCALATED" | "RESOLVED" | "RULES_CHANGED" | "CHANNELS_CHANGED" | "MUTED" | "UNMUTED";
  ruleId: string | null;
  alertId: string | null;
  /** Epoch ms. */
  ts: number;
}

/** A rule as the API shows it. */
export interface RuleView extends AlertRule {
  editable: boolean;
  unit: string;
  mutedUntil: number | null;
  mutedBy: string | null;
}

/** A channel as the API shows it: secrets never, only whether one is set. */
export interface ChannelView {
  id: string;
  type: AlertChannel["type"];
  name: string;
  enabled: boolean;
  /** Scheme and host of the URL (its path and query may be secret), or the command's program. */
  target: string | null;
  secretSet: boolean;
  minSeverity: Severity;
  sendResolved: boolean;
  timeoutSeconds: number;
  origin: "config" | "api";
  editable: boolean;
}

/** One channel's outcome as the API shows it. */
export interface DeliveryView {
  channelId: string;
  outcome: "sent" | "failed" | "dropped";
  attempts: number;
  error: string | null;
  /** Epoch ms; null for a result not recorded yet. */
  ts: number | null;
}

export interface AlertRow {
  id: string;
  ruleId: string;
  subject: string;
  label: string;
  ruleName: string;
  metric: string;
  unit: string;
  severity: Severity;
  peakSeverity: Severity;
  value: number;
  threshold: number;
  projection: Projection | null;
  since: number;
  resolvedAt: number | null;
  updatedAt: number;
  notified: Severity | null;
  /** A notification went out through a channel for the episode. */
  sent: boolean;
  /** What became of the episode's notifications: sent, due but no channel took it, or none sent (muted, cooldown). */
  delivery: AlertDelivery;
}

export type AlertDelivery = "sent" | "no_channel" | "not_sent";

export interface EventRow {
  id: number;
  ts: number;
  alertId: string | null;
  ruleId: string;
  subject: string;
  kind: string;
  severity: Severity | null;
  value: number | null;
  threshold: number | null;
  notified: boolean;
  withheld: string | null;
  detail: string | null;
}

export type HistoryEvent = EventRow & { deliveries: DeliveryView[] };
