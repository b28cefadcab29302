// Alert evaluation: the rules in force measured on every evaluation, each rule's episodes stepped
// (firing, escalated, resolved) and recorded in the store, notifications handed to the delivery
// queue, and the memory that keeps a restart from re-sending (the active episodes, the cooldowns).
// Apart from the service because this changes with how rules are judged and told; the service
// changes with the API that manages rules and channels.
import type { Clock } from "../../shared/base/clock.js";
import { errorMessage } from "../../shared/base/errors.js";
import type { Logger } from "../../shared/base/log/logger.js";
import { step, type InstanceState, type Transition } from "../../shared/alerts/evaluate.js";
import type { NotificationInput } from "../../shared/alerts/format.js";
import { HeldConditions, holdingConditions, measure, type AlertInputs } from "../../shared/alerts/measure.js";
import { METRIC_INFO, type AlertChannel, type AlertRule, type Severity } from "../../shared/alerts/rules.js";
import type { AlertChange, RuleView } from "../../shared/alerts/views.js";
import type { AlertStore } from "./alert-store.js";
import type { DeliveryQueue, DeliveryResult } from "./delivery-queue.js";

interface AlertEngineOptions {
  db: AlertStore;
  queue: DeliveryQueue;
  clock: Clock;
  logger: Logger;
  host: string;
  /** Everything rules read, fresh for each evaluation. */
  inputs: (now: number, timeZone: string) => AlertInputs;
  timeZone: () => string;
  /** The rules and channels in force now (the service rebuilds them on every change). */
  rules: () => readonly RuleView[];
  channels: () => readonly AlertChannel[];
  /** The rules in force are to be rebuilt (a mute ended). */
  refresh: () => void;
  emit: (change: Omit<AlertChange, "ts">) => void;
}

const stateKey = (ruleId: string, subject: string, severity: Severity): string => `${ruleId}\u0000${subject}\u0000${severity}`;

export class AlertEngine {
  private readonly held = new HeldConditions();
  /** Firing instances per rule id, by subject. */
  private readonly states = new Map<string, Map<string, InstanceState>>();
  private readonly lastSent = new Map<string, number>();
  private closed = false;
  private evaluating = false;
  /** Evaluations run and failed (for /metrics). */
  readonly stats = { evaluations: 0, failures: 0 };

  constructor(private readonly e: AlertEngineOptions) {}

  close(): void {
    this.closed = true;
  }

  /** Evaluates every rule now. Never throws: a failure is logged and counted. */
  evaluate(): void {
    if (this.closed || this.evaluating) return;
    this.evaluating = true;
    const now = this.e.clock.now();
    try {
      for (const id of this.e.db.expireMutes(now)) {
        this.e.logger.info("alert rule mute ended", { rule: id });
        this.e.refresh();
        this.e.emit({ kind: "UNMUTED", ruleId: id, alertId: null });
      }
      const inputs = this.e.inputs(now, this.e.timeZone());
      const conditions = holdingConditions(inputs);
      this.held.update(now, conditions.holding, conditions.unsure);
      for (const rule of this.e.rules()) {
        try {
          this.evaluateRule(rule, inputs, now);
        } catch (err) {
          this.stats.failures++;
          this.e.logger.error("evaluating an alert rule failed", { rule: rule.id, error: errorMessage(err) });
        }
      }
      // Episodes of rules that are gone: closed without a notification.
      const known = new Set(this.e.rules().map((r) => r.id));
      for (const [id, states] of this.states) {
        if (known.has(id)) continue;
        this.e.db.closeAlerts([...states.values()].map((s) => s.alertId), now);
        this.states.delete(id);
      }
      this.stats.evaluations++;
    } catch (err) {
      this.stats.failures++;
      this.e.logger.error("alert evaluation failed", { error: errorMessage(err) });
    } finally {
      this.evaluating = false;
    }
  }

  private evaluateRule(rule: RuleView, inputs: AlertInputs, now: number): void {
    const previous = this.states.get(rule.id) ?? new Map<string, InstanceState>();
    const samples = rule.enabled ? measure(rule, inputs, this.held) : [];
    // Nothing can be told yet (the first probe is still out): the rule's alerts stay as they are.
    if (samples === null) return;
    const muted = rule.mutedUntil !== null && rule.mutedUntil > now;
    const { states, transitions } = step(rule, previous, samples, { now, muted, lastSent: (r, s, sev) => this.lastSent.get(stateKey(r, s, sev)) ?? null });
    const changed = new Set<string>();
    for (const t of transitions) {
      this.record(rule, t, now);
      changed.add(t.state.alertId);
    }
    for (const s of states.values()) if (!changed.has(s.alertId)) this.e.db.touchAlert(s, now);
    if (states.size) this.states.set(rule.id, states);
    else this.states.delete(rule.id);
  }

  private record(rule: RuleView, t: Transition, now: number): void {
    const s = t.state;
    const resolved = t.kind === "resolved";
    // A resolve speaks of the highest severity that was sent for the episode.
    const severity = resolved ? (s.notified ?? s.severity) : s.severity;
    // Due but no channel takes it (none set up, or none for this severity): nothing is sent, and
    // the episode and its event say "no channel" rather than "sent".
    const channels = t.notify ? this.channelsFor(rule, severity, resolved) : [];
    const noChannel = t.notify && channels.length === 0;
    this.e.db.saveAlert(rule, s, now, resolved ? now : null, s.severity, t.notify ? (noChannel ? "no_channel" : "sent") : null);
    const notified = t.notify && !noChannel;
    const withheld = noChannel ? "no_channel" : t.withheld;
    const eventId = this.e.db.event({ ts: now, alertId: s.alertId, ruleId: rule.id, subject: s.subject, kind: t.kind, severity, value: Number.isFinite(s.value) ? s.value : 0, threshold: s.threshold, notified, withheld, detail: null });
    this.e.logger[resolved ? "info" : "warn"](`alert ${t.kind}`, { rule: rule.id, subject: s.subject || undefined, severity, value: s.value, threshold: s.threshold, sent: notified, withheld: withheld ?? undefined });
    this.e.emit({ kind: t.kind.toUpperCase() as AlertChange["kind"], ruleId: rule.id, alertId: s.alertId });
    if (!t.notify) return;
    // The cooldown runs from a notification that was due, delivered or not: adding a channel
    // later does not make every firing alert speak at once.
    if (!resolved) this.lastSent.set(stateKey(rule.id, s.subject, severity), now);
    const n = this.notification(rule, s, resolved ? "resolved" : "firing", t.kind === "escalated", severity, now, resolved ? now : null);
    for (const ch of channels) void this.e.queue.enqueue({ channel: ch, notification: n, eventId });
  }

  private notification(rule: AlertRule, s: InstanceState, event: NotificationInput["event"], escalated: boolean, severity: Severity, now: number, resolvedAt: number | null): NotificationInput {
    return {
      event,
      escalated,
      rule: { id: rule.id, name: rule.name, metric: rule.metric, scope: rule.scope, window: rule.window },
      alertId: s.alertId,
      subject: s.subject,
      label: s.label,
      severity,
      value: Number.isFinite(s.value) ? s.value : 0,
      threshold: s.threshold,
      since: s.since,
      resolvedAt,
      projection: event === "resolved" ? null : s.projection,
      timeZone: this.e.timeZone(),
      host: this.e.host,
      sentAt: now,
    };
  }

  private channelsFor(rule: AlertRule, severity: Severity, resolved: boolean): AlertChannel[] {
    const wanted = rule.channels === null ? null : new Set(rule.channels);
    return this.e.channels().filter((c) => c.enabled && (wanted === null || wanted.has(c.id)) && (severity === "critical" || c.minSeverity === "warning") && (!resolved || c.sendResolved));
  }

  recordDelivery(n: NotificationInput, r: DeliveryResult): void {
    if (this.closed && r.outcome === "dropped") return;
    try {
      this.e.db.delivery({ ts: this.e.clock.now(), eventId: r.eventId, channelId: r.channelId, outcome: r.outcome, attempts: r.attempts, error: r.error });
    } catch (err) {
      this.e.logger.error("recording an alert delivery failed", { error: errorMessage(err) });
    }
    const fields = { channel: r.channelId, rule: n.rule.id, event: n.event, attempts: r.attempts, error: r.error ?? undefined };
    if (r.outcome === "sent") this.e.logger.info("alert notification sent", fields);
    else this.e.logger.warn(`alert notification ${r.outcome}`, fields);
  }

  /** Loads the active episodes and the cooldown memory, so a restart neither re-sends nor forgets. */
  restore(): void {
    for (const row of this.e.db.lastSent()) this.lastSent.set(stateKey(row.ruleId, row.subject, row.severity), row.ts);
    const rules = new Map(this.e.rules().map((r) => [r.id, r]));
    for (const a of this.e.db.activeAlerts()) {
      const rule = rules.get(a.ruleId);
      if (!rule) continue;
      const map = this.states.get(a.ruleId) ?? new Map<string, InstanceState>();
      map.set(a.subject, { ruleId: a.ruleId, subject: a.subject, label: a.label, severity: a.severity, alertId: a.id, since: a.since, value: a.value, threshold: a.threshold, projection: a.projection, notified: a.notified, sent: a.sent });
      this.states.set(a.ruleId, map);
      // A held condition began before the alert fired: time it from then, not from this start.
      if (METRIC_INFO[rule.metric].held) this.held.seed(rule.metric === "gateway_down" ? "gateway" : `check:${a.subject}`, a.since - a.threshold * 1000);
    }
  }


  /** For /metrics: every enabled rule and severity it has, 1 while an alert of it fires at that severity. */
  activeSeries(): Array<{ rule: string; severity: Severity; value: 0 | 1 }> {
    const out: Array<{ rule: string; severity: Severity; value: 0 | 1 }> = [];
    for (const r of this.e.rules()) {
      if (!r.enabled) continue;
      const firing = new Set([...(this.states.get(r.id)?.values() ?? [])].map((s) => s.severity));
      for (const sev of ["warning", "critical"] as const) if ((sev === "warning" ? r.warning : r.critical) !== null) out.push({ rule: r.id, severity: sev, value: firing.has(sev) ? 1 : 0 });
    }
    return out;
  }
}
