// The daemon's alerting, as the GraphQL resolvers, the control socket, /metrics and the daemon's
// lifecycle see it: a composition of the rules and channels in force (in-force.ts), their
// evaluation (alert-engine.ts) on a schedule (schedule.ts), the delivery queue, the API that
// changes rules and channels (rule-api.ts, channel-api.ts, audited in the daemon log) and the
// alertChanged subscription (change-feed.ts). Each changes for its own reason; this file only
// wires them and answers the reads that are one store call.
import { hostname } from "node:os";
import type { Clock } from "../../shared/base/clock.js";
import type { Logger } from "../../shared/base/log/logger.js";
import type { AlertInputs } from "../../shared/alerts/measure.js";
import type { Severity } from "../../shared/alerts/rules.js";
import type { AlertChange, AlertRow, Caller, ChannelView, DeliveryView, HistoryEvent, RuleView } from "../../shared/alerts/views.js";
import type { Store } from "../../shared/store/store.js";
import { AlertEngine } from "./alert-engine.js";
import { AlertStore } from "./alert-store.js";
import { ChannelApi } from "./channel-api.js";
import { AlertChangeFeed } from "./change-feed.js";
import { DeliveryQueue, type DeliveryQueueOptions } from "./delivery-queue.js";
import { AlertsInForce } from "./in-force.js";
import { RuleApi } from "./rule-api.js";
import { EvaluationSchedule } from "./schedule.js";
import type { TargetPolicy } from "./target-policy.js";

interface AlertServiceOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** The `alerts` config value as loaded. */
  config: () => Record<string, unknown> | null;
  /** Everything rules read, fresh for each evaluation. */
  inputs: (now: number, timeZone: string) => AlertInputs;
  /** The zone of calendar windows when the config names none. */
  defaultTimeZone: string;
  /** Wait after a change before evaluating (changes in between fold in). Default 1000 ms. */
  debounceMs?: number;
  delivery?: DeliveryQueueOptions;
  host?: string;
}

export class AlertService {
  private readonly db: AlertStore;
  private readonly inForce: AlertsInForce;
  private readonly feed: AlertChangeFeed;
  private readonly queue: DeliveryQueue;
  private readonly engine: AlertEngine;
  private readonly timer: EvaluationSchedule;
  private readonly ruleApi: RuleApi;
  private readonly channelApi: ChannelApi;
  private closed = false;

  constructor(private readonly o: AlertServiceOptions) {
    const host = o.host ?? hostname();
    this.db = new AlertStore(o.store);
    this.inForce = new AlertsInForce({ db: this.db, logger: o.logger, config: o.config, defaultTimeZone: o.defaultTimeZone });
    this.feed = new AlertChangeFeed({ clock: o.clock, logger: o.logger });
    this.timer = new EvaluationSchedule({ evaluate: () => this.evaluate(), debounceMs: o.debounceMs ?? 1000 });
    this.queue = new DeliveryQueue({
      policy: () => this.inForce.targetPolicy(),
      ...o.delivery,
      onResult: (job, r) => {
        o.delivery?.onResult?.(job, r);
        this.engine.recordDelivery(job.notification, r);
      },
    });
    this.engine = new AlertEngine({
      db: this.db,
      queue: this.queue,
      clock: o.clock,
      logger: o.logger,
      host,
      inputs: o.inputs,
      timeZone: () => this.inForce.timeZone,
      rules: () => this.inForce.rules,
      channels: () => this.inForce.channels,
      refresh: () => this.inForce.refresh(),
      emit: (c) => this.feed.emit(c),
    });
    const api = { db: this.db, inForce: this.inForce, clock: o.clock, logger: o.logger, feed: this.feed, changed: () => this.changed() };
    this.ruleApi = new RuleApi(api);
    this.channelApi = new ChannelApi({ ...api, queue: this.queue, host });
    this.engine.restore();
  }

  // Lifecycle and evaluation

  /** Evaluations run and failed (for /metrics). */
  get stats(): { evaluations: number; failures: number } {
    return this.engine.stats;
  }

  /** Evaluates every rule now. Never throws: a failure is logged and counted. */
  evaluate(): void {
    if (!this.closed) this.engine.evaluate();
  }

  /** Starts the timer; evaluates once now. */
  start(): void {
    this.evaluate();
    this.timer.every(this.inForce.evaluateSeconds);
  }

  /** Something changed (the collector's onChange): evaluate soon, changes in between fold in. */
  changed(): void {
    if (!this.closed) this.timer.changed();
  }

  /** SIGHUP: the `alerts` value was re-read (already validated by the config loader). */
  reload(): void {
    this.inForce.reload();
    this.timer.every(this.inForce.evaluateSeconds);
    this.feed.emit({ kind: "RULES_CHANGED", ruleId: null, alertId: null });
    this.changed();
  }

  close(): void {
    this.closed = true;
    this.engine.close();
    this.timer.close();
    this.queue.close();
    this.feed.close();
  }

  // What the API and /metrics read

  /** For /metrics: every enabled rule and severity it has, 1 while an alert of it fires at that severity. */
  activeSeries(): Array<{ rule: string; severity: Severity; value: 0 | 1 }> {
    return this.engine.activeSeries();
  }

  /** Where channels made through the API may send (config.json's alerts.allowPrivateTargets, allowedHosts). */
  targetPolicy(): TargetPolicy {
    return this.inForce.targetPolicy();
  }

  get timeZone(): string {
    return this.inForce.timeZone;
  }

  ruleViews(): RuleView[] {
    return this.inForce.rules.map((r) => ({ ...r }));
  }

  rule(id: string): RuleView | null {
    return this.inForce.rule(id);
  }

  channelViews(): ChannelView[] {
    return this.channelApi.views();
  }

  activeAlerts(): AlertRow[] {
    return this.db.activeAlerts();
  }

  recentAlerts(limit: number, ruleId: string | null = null): AlertRow[] {
    return this.db.recentAlerts(limit, ruleId);
  }

  history(args: { limit: number; alertId?: string | null; ruleId?: string | null }): HistoryEvent[] {
    const events = this.db.events(args);
    const deliveries = this.db.deliveries(events.map((e) => e.id));
    return events.map((e) => ({ ...e, deliveries: deliveries.filter((d) => d.eventId === e.id) }));
  }

  /** Retention: history older than `days` (resolved episodes, events, deliveries). */
  prune(days: number): Record<string, number> {
    return this.db.prune(this.o.clock.now(), days);
  }

  deliveryCounts(): { sent: number; failed: number; dropped: number; retries: number; pending: number } {
    return { ...this.queue.counts, pending: this.queue.pending };
  }

  subscribe(): AsyncIterableIterator<AlertChange> {
    return this.feed.subscribe();
  }

  // What the API changes (audited in rule-api.ts and channel-api.ts)

  addRule(input: unknown, by: Caller): RuleView {
    return this.ruleApi.add(input, by);
  }

  /** `patch`: the fields to change; a null one goes back to its default. */
  updateRule(id: string, patch: Record<string, unknown>, by: Caller): RuleView {
    return this.ruleApi.update(id, patch, by);
  }

  /** Removes a rule made through the API; for a built-in rule, removes the API's changes to it. */
  deleteRule(id: string, by: Caller): { id: string; reset: boolean } {
    return this.ruleApi.delete(id, by);
  }

  mute(id: string, until: number, by: Caller): RuleView {
    return this.ruleApi.mute(id, until, by);
  }

  unmute(id: string, by: Caller): RuleView {
    return this.ruleApi.unmute(id, by);
  }

  addChannel(input: unknown, by: Caller): ChannelView {
    return this.channelApi.add(input, by);
  }

  /** `patch`: fields to change; `secret: null` removes the secret. The type cannot change. */
  updateChannel(id: string, patch: Record<string, unknown>, by: Caller): ChannelView {
    return this.channelApi.update(id, patch, by);
  }

  deleteChannel(id: string, by: Caller): { id: string } {
    return this.channelApi.delete(id, by);
  }

  /** Sends a test notification through one channel now and waits for the outcome: one try, bounded by the channel's timeout. */
  testChannel(id: string, by: Caller): Promise<DeliveryView & { channel: ChannelView }> {
    return this.channelApi.test(id, by);
  }
}
