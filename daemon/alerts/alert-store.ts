// The alerting tables of our store (migration v8): rules and channels made through the API, mutes,
// alert episodes with their events, and each channel's delivery outcome. Every write is one
// transaction through Store.transaction, so a full disk shows in the store's health.
import type { Store } from "../../shared/store/store.js";
import type { InstanceState } from "../../shared/alerts/evaluate.js";
import type { Projection } from "../../shared/alerts/windows.js";
import { METRIC_INFO, type AlertRule, type Severity } from "../../shared/alerts/rules.js";
import type { AlertRow, EventRow } from "../../shared/alerts/views.js";

interface MuteRow {
  ruleId: string;
  until: number;
  by: string;
  at: number;
}

/** alerts.sent: 0 nothing went out, 1 sent, 2 due but no channel took it (nothing went out either). */
const SENT_CODE = { sent: 1, no_channel: 2 } as const;


interface DeliveryRow {
  id: number;
  ts: number;
  eventId: number | null;
  channelId: string;
  outcome: "sent" | "failed" | "dropped";
  attempts: number;
  error: string | null;
}

interface RawAlert {
  id: string;
  rule_id: string;
  subject: string;
  label: string;
  rule_name: string;
  metric: string;
  unit: string;
  severity: Severity;
  peak_severity: Severity;
  value: number;
  threshold: number;
  projection_json: string | null;
  since: number;
  resolved_at: number | null;
  updated_at: number;
  notified: Severity | null;
  sent: number;
}

function toAlert(r: RawAlert): AlertRow {
  let projection: Projection | null = null;
  try {
    projection = r.projection_json ? (JSON.parse(r.projection_json) as Projection) : null;
  } catch {
    projection = null;
  }
  return {
    id: r.id,
    ruleId: r.rule_id,
    subject: r.subject,
    label: r.label,
    ruleName: r.rule_name,
    metric: r.metric,
    unit: r.unit,
    severity: r.severity,
    peakSeverity: r.peak_severity,
    value: r.value,
    threshold: r.threshold,
    projection,
    since: r.since,
    resolvedAt: r.resolved_at,
    updatedAt: r.updated_at,
    notified: r.notified,
    sent: r.sent === SENT_CODE.sent,
    delivery: r.sent === SENT_CODE.sent ? "sent" : r.sent === SENT_CODE.no_channel ? "no_channel" : "not_sent",
  };
}

export class AlertStore {
  constructor(private readonly store: Store) {}

  private get db() {
    return this.store.db;
  }

  // Rules and channels made through the API: validated JSON, re-validated when read.

  ruleRows(): Array<{ id: string; json: string }> {
    return this.db.prepare("SELECT id, json FROM alert_rules ORDER BY id").all() as Array<{ id: string; json: string }>;
  }

  putRule(id: string, json: string, now: number): void {
    this.store.transaction(() => this.db.prepare("INSERT INTO alert_rules (id, json, updated_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at").run(id, json, now));
  }

  deleteRule(id: string): boolean {
    return this.store.transaction(() => this.db.prepare("DELETE FROM alert_rules WHERE id = ?").run(id).changes > 0);
  }

  channelRows(): Array<{ id: string; json: string }> {
    return this.db.prepare("SELECT id, json FROM alert_channels ORDER BY id").all() as Array<{ id: string; json: string }>;
  }

  putChannel(id: string, json: string, now: number): void {
    this.store.transaction(() => this.db.prepare("INSERT INTO alert_channels (id, json, updated_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at").run(id, json, now));
  }

  deleteChannel(id: string): boolean {
    return this.store.transaction(() => this.db.prepare("DELETE FROM alert_channels WHERE id = ?").run(id).changes > 0);
  }

  // Mutes

  mutes(): MuteRow[] {
    return this.db.prepare("SELECT rule_id AS ruleId, until, by, at FROM alert_mutes").all() as MuteRow[];
  }

  mute(ruleId: string, until: number, by: string, now: number): void {
    this.store.transaction(() => {
      this.db.prepare("INSERT INTO alert_mutes (rule_id, until, by, at) VALUES (?, ?, ?, ?) ON CONFLICT (rule_id) DO UPDATE SET until = excluded.until, by = excluded.by, at = excluded.at").run(ruleId, until, by, now);
      this.event({ ts: now, alertId: null, ruleId, subject: "", kind: "muted", severity: null, value: null, threshold: null, notified: false, withheld: null, detail: `until ${new Date(until).toISOString()} by ${by}` });
    });
  }

  unmute(ruleId: string, by: string, now: number): boolean {
    return this.store.transaction(() => {
      const gone = this.db.prepare("DELETE FROM alert_mutes WHERE rule_id = ?").run(ruleId).changes > 0;
      if (gone) this.event({ ts: now, alertId: null, ruleId, subject: "", kind: "unmuted", severity: null, value: null, threshold: null, notified: false, withheld: null, detail: `by ${by}` });
      return gone;
    });
  }

  /** Mutes whose time ran out are removed (with an `unmuted` event). */
  expireMutes(now: number): string[] {
    const over = this.db.prepare("SELECT rule_id AS ruleId FROM alert_mutes WHERE until <= ?").all(now) as Array<{ ruleId: string }>;
    for (const m of over) this.unmute(m.ruleId, "expiry", now);
    return over.map((m) => m.ruleId);
  }

  // Episodes and events

  activeAlerts(): AlertRow[] {
    return (this.db.prepare("SELECT * FROM alerts WHERE resolved_at IS NULL ORDER BY since DESC, id").all() as RawAlert[]).map(toAlert);
  }

  /** Episodes newest first (active and resolved). */
  recentAlerts(limit: number, ruleId: string | null = null): AlertRow[] {
    return (this.db.prepare("SELECT * FROM alerts WHERE (@rule IS NULL OR rule_id = @rule) ORDER BY since DESC, id LIMIT @limit").all({ rule: ruleId, limit }) as RawAlert[]).map(toAlert);
  }

  alert(id: string): AlertRow | null {
    const r = this.db.prepare("SELECT * FROM alerts WHERE id = ?").get(id) as RawAlert | undefined;
    return r ? toAlert(r) : null;
  }

  /** Events newest first; of one alert, one rule, or all. */
  events(args: { limit: number; alertId?: string | null; ruleId?: string | null }): EventRow[] {
    const rows = this.db
      .prepare("SELECT * FROM alert_events WHERE (@alert IS NULL OR alert_id = @alert) AND (@rule IS NULL OR rule_id = @rule) ORDER BY ts DESC, id DESC LIMIT @limit")
      .all({ alert: args.alertId ?? null, rule: args.ruleId ?? null, limit: args.limit }) as Array<Omit<EventRow, "alertId" | "ruleId" | "notified"> & { alert_id: string | null; rule_id: string; notified: number }>;
    return rows.map((r) => ({ id: r.id, ts: r.ts, alertId: r.alert_id, ruleId: r.rule_id, subject: r.subject, kind: r.kind, severity: r.severity, value: r.value, threshold: r.threshold, notified: r.notified === 1, withheld: r.withheld, detail: r.detail }));
  }

  deliveries(eventIds: readonly number[]): DeliveryRow[] {
    if (!eventIds.length) return [];
    return this.db
      .prepare("SELECT id, ts, event_id AS eventId, channel_id AS channelId, outcome, attempts, error FROM alert_deliveries WHERE event_id IN (SELECT value FROM json_each(?)) ORDER BY id")
      .all(JSON.stringify(eventIds)) as DeliveryRow[];
  }

  /** When a notification of each rule, subject and severity was last sent (the cooldown's memory). */
  lastSent(): Array<{ ruleId: string; subject: string; severity: Severity; ts: number }> {
    return this.db
      .prepare("SELECT rule_id AS ruleId, subject, severity, max(ts) AS ts FROM alert_events WHERE (notified = 1 OR withheld = 'no_channel') AND kind IN ('firing', 'escalated') GROUP BY rule_id, subject, severity")
      .all() as Array<{ ruleId: string; subject: string; severity: Severity; ts: number }>;
  }

  event(e: Omit<EventRow, "id">): number {
    return this.store.transaction(
      () =>
        this.db
          .prepare("INSERT INTO alert_events (ts, alert_id, rule_id, subject, kind, severity, value, threshold, notified, withheld, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
          .run(e.ts, e.alertId, e.ruleId, e.subject, e.kind, e.severity, e.value, e.threshold, e.notified ? 1 : 0, e.withheld, e.detail).lastInsertRowid as number,
    );
  }

  /**
   * Writes an episode's state (insert or update); `resolvedAt` closes it. `delivery`: what became
   * of a notification this change owed (null: none was owed; the episode keeps what it had). Once
   * something was sent for an episode it reads "sent".
   */
  saveAlert(rule: AlertRule, s: InstanceState, now: number, resolvedAt: number | null, severity: Severity, delivery: "sent" | "no_channel" | null = null): void {
    this.store.transaction(() =>
      this.db
        .prepare(
          `INSERT INTO alerts (id, rule_id, subject, label, rule_name, metric, unit, severity, peak_severity, value, threshold, projection_json, since, resolved_at, updated_at, notified, sent)
           VALUES (@id, @rule, @subject, @label, @name, @metric, @unit, @severity, @severity, @value, @threshold, @projection, @since, @resolved, @now, @notified, coalesce(@sent, 0))
           ON CONFLICT (id) DO UPDATE SET label = excluded.label, rule_name = excluded.rule_name, severity = excluded.severity,
             peak_severity = CASE WHEN excluded.severity = 'critical' THEN 'critical' ELSE peak_severity END,
             value = excluded.value, threshold = excluded.threshold, projection_json = excluded.projection_json,
             resolved_at = excluded.resolved_at, updated_at = excluded.updated_at, notified = excluded.notified,
             sent = CASE WHEN @sent IS NULL OR alerts.sent = ${SENT_CODE.sent} THEN alerts.sent ELSE @sent END`,
        )
        .run({
          id: s.alertId,
          rule: rule.id,
          subject: s.subject,
          label: s.label,
          name: rule.name,
          metric: rule.metric,
          unit: METRIC_INFO[rule.metric].unit,
          severity,
          value: Number.isFinite(s.value) ? s.value : 0,
          threshold: s.threshold,
          projection: s.projection ? JSON.stringify(s.projection) : null,
          since: s.since,
          resolved: resolvedAt,
          now,
          notified: s.notified,
          sent: delivery === null ? null : SENT_CODE[delivery],
        }),
    );
  }

  /** Updates the value of an active episode without an event (it moved, but crossed nothing). */
  touchAlert(s: InstanceState, now: number): void {
    this.store.transaction(() =>
      this.db.prepare("UPDATE alerts SET value = ?, label = ?, projection_json = ?, updated_at = ? WHERE id = ? AND resolved_at IS NULL").run(Number.isFinite(s.value) ? s.value : 0, s.label, s.projection ? JSON.stringify(s.projection) : null, now, s.alertId),
    );
  }

  /** Closes active episodes of rules that no longer exist or are disabled. */
  closeAlerts(ids: readonly string[], now: number): void {
    if (!ids.length) return;
    this.store.transaction(() => this.db.prepare("UPDATE alerts SET resolved_at = ?, updated_at = ? WHERE id IN (SELECT value FROM json_each(?)) AND resolved_at IS NULL").run(now, now, JSON.stringify(ids)));
  }

  delivery(d: Omit<DeliveryRow, "id">): void {
    this.store.transaction(() => this.db.prepare("INSERT INTO alert_deliveries (ts, event_id, channel_id, outcome, attempts, error) VALUES (?, ?, ?, ?, ?, ?)").run(d.ts, d.eventId, d.channelId, d.outcome, d.attempts, d.error));
  }

  /** Retention: resolved episodes, events and deliveries older than `days`. */
  prune(now: number, days: number): Record<string, number> {
    const cutoff = now - days * 86_400_000;
    return this.store.transaction(() => ({
      alerts: this.db.prepare("DELETE FROM alerts WHERE resolved_at IS NOT NULL AND resolved_at < ?").run(cutoff).changes,
      alert_events: this.db.prepare("DELETE FROM alert_events WHERE ts < ?").run(cutoff).changes,
      alert_deliveries: this.db.prepare("DELETE FROM alert_deliveries WHERE ts < ?").run(cutoff).changes,
    }));
  }
}
