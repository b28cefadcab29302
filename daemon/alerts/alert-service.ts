// The daemon's alerting: the rules in force (built-in, config.json, made through the API), their
// evaluation on every change (debounced) and on a timer, the alert episodes and their history in
// the store, notifications through the delivery queue, mutes, and the API the GraphQL resolvers
// and the control socket call. Every change made through the API is audited in the daemon log with
// who asked; a channel is named there by its id only, never by its URL or secret.
// Evaluation itself (episodes, notifications, the cooldown memory) is alert-engine.ts; this class
// holds the rules and channels in force, the timers, the subscribers and the API.
import { hostname } from "node:os";
import { z } from "zod";
import type { Clock } from "../../shared/base/clock.js";
import { InsightsError } from "../../shared/base/errors.js";
import type { Logger } from "../../shared/base/log/logger.js";
import { parseAlertsConfig, type AlertsConfig } from "../../shared/alerts/config.js";
import type { NotificationInput } from "../../shared/alerts/format.js";
import type { AlertInputs } from "../../shared/alerts/measure.js";
import {
  BUILTIN_RULES,
  ChannelSchema,
  MAX_CHANNELS,
  MAX_RULES,
  METRIC_INFO,
  RulePatchSchema,
  RuleSchema,
  resolveChannel,
  resolveRule,
  ruleProblem,
  secretFields,
  type AlertChannel,
  type AlertRule,
  type AlertRuleInput,
  type ChannelInput,
  type Severity,
} from "../../shared/alerts/rules.js";
import type { Store } from "../../shared/store/store.js";
import { BoundedChannel } from "../live/bounded-channel.js";
import type { AlertChange, AlertRow, Caller, ChannelView, DeliveryView, HistoryEvent, RuleView } from "../../shared/alerts/views.js";
import { AlertEngine } from "./alert-engine.js";
import { AlertStore } from "./alert-store.js";
import { DeliveryQueue, type DeliveryQueueOptions } from "./delivery-queue.js";
import { refusedUrl, type TargetPolicy } from "./target-policy.js";
import { originOf } from "./transports.js";


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

const RULE_PATCH_FIELDS = Object.keys(RulePatchSchema.shape);
const MAX_SUBSCRIBER_BACKLOG = 1000;
const YEAR_MS = 366 * 86_400_000;

const forbiddenCommand = (): InsightsError =>
  new InsightsError("FORBIDDEN_CHANNEL_TYPE", "channel.type: command channels come from config.json only (alerts.channels), never from the API; use a webhook, slack, discord or ntfy channel here");

function badInput(message: string): InsightsError {
  return new InsightsError("BAD_USER_INPUT", message);
}

/** zod's first complaint as a BAD_USER_INPUT naming the field (never its value: it may be a secret). */
function zodInput(err: z.ZodError, what: string): InsightsError {
  const i = err.issues[0]!; // a failed parse has an issue
  const path = i.code === "unrecognized_keys" ? [...i.path, i.keys[0] ?? "?"] : i.path;
  return badInput(`${what}${path.length ? `.${path.join(".")}` : ""}: ${i.code === "unrecognized_keys" ? "no such field" : i.message}`);
}

export class AlertService {
  private readonly db: AlertStore;
  private readonly queue: DeliveryQueue;
  private readonly engine: AlertEngine;
  private readonly host: string;
  private readonly debounceMs: number;
  private cfg: AlertsConfig;
  private rules: RuleView[] = [];
  private channels: AlertChannel[] = [];
  private readonly subscribers = new Set<BoundedChannel<AlertChange>>();
  /** Stored command channels already warned about (refresh runs on every change). */
  private readonly warnedCommands = new Set<string>();
  private readonly warnedCaps = new Set<string>();
  private debounce: NodeJS.Timeout | null = null;
  private ticker: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly o: AlertServiceOptions) {
    this.db = new AlertStore(o.store);
    this.host = o.host ?? hostname();
    this.debounceMs = o.debounceMs ?? 1000;
    this.cfg = parseAlertsConfig(o.config(), "config");
    this.queue = new DeliveryQueue({
      policy: () => this.targetPolicy(),
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
      host: this.host,
      inputs: o.inputs,
      timeZone: () => this.timeZone,
      rules: () => this.rules,
      channels: () => this.channels,
      refresh: () => this.refresh(),
      emit: (c) => this.emit(c),
    });
    this.refresh();
    this.engine.restore();
  }

  /** Evaluations run and failed (for /metrics). */
  get stats(): { evaluations: number; failures: number } {
    return this.engine.stats;
  }

  /** Evaluates every rule now. Never throws: a failure is logged and counted. */
  evaluate(): void {
    if (!this.closed) this.engine.evaluate();
  }

  /** For /metrics: every enabled rule and severity it has, 1 while an alert of it fires at that severity. */
  activeSeries(): Array<{ rule: string; severity: Severity; value: 0 | 1 }> {
    return this.engine.activeSeries();
  }

  /** Where channels made through the API may send (config.json's alerts.allowPrivateTargets, allowedHosts). */
  targetPolicy(): TargetPolicy {
    return { allowPrivate: this.cfg.allowPrivateTargets, allowedHosts: this.cfg.allowedHosts };
  }

  get timeZone(): string {
    return this.cfg.timeZone ?? this.o.defaultTimeZone;
  }

  /** Starts the timer; evaluates once now. */
  start(): void {
    this.evaluate();
    this.schedule();
  }

  /** Something changed (the collector's onChange): evaluate soon, changes in between fold in. */
  changed(): void {
    if (this.closed || this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = null;
      this.evaluate();
    }, this.debounceMs);
    this.debounce.unref?.();
  }

  /** SIGHUP: the `alerts` value was re-read (already validated by the config loader). */
  reload(): void {
    this.cfg = parseAlertsConfig(this.o.config(), "config");
    this.refresh();
    this.schedule();
    this.emit({ kind: "RULES_CHANGED", ruleId: null, alertId: null });
    this.changed();
  }

  close(): void {
    this.closed = true;
    this.engine.close();
    if (this.debounce) clearTimeout(this.debounce);
    if (this.ticker) clearInterval(this.ticker);
    this.queue.close();
    for (const ch of this.subscribers) ch.close();
  }

  // ---------------------------------------------------------------------------------------------
  // Evaluation
  // ---------------------------------------------------------------------------------------------

  private schedule(): void {
    if (this.ticker) clearInterval(this.ticker);
    if (this.closed) return;
    this.ticker = setInterval(() => this.evaluate(), this.cfg.evaluateSeconds * 1000);
    this.ticker.unref?.();
  }

  // ---------------------------------------------------------------------------------------------
  // Rules and channels in force
  // ---------------------------------------------------------------------------------------------

  /** Rebuilds the rules and channels from the built-ins, the config, the store and the mutes. */
  private refresh(): void {
    const stored = new Map<string, AlertRuleInput>();
    for (const row of this.capped(this.db.ruleRows(), MAX_RULES, "rules")) {
      const r = this.parseStored(row, RulePatchSchema);
      if (r) stored.set(row.id, r as AlertRuleInput);
    }
    const config = new Map(this.cfg.rules.map((r) => [r.id, r]));
    const mutes = new Map(this.db.mutes().map((m) => [m.ruleId, m]));
    const out: RuleView[] = [];
    const view = (rule: AlertRule, editable: boolean): RuleView => {
      const m = mutes.get(rule.id);
      return { ...rule, editable, unit: METRIC_INFO[rule.metric].unit, mutedUntil: m?.until ?? null, mutedBy: m?.by ?? null };
    };
    for (const b of BUILTIN_RULES) {
      const c = config.get(b.id);
      const s = stored.get(b.id);
      out.push(view(c ? resolveRule(c, "config", b) : s ? resolveRule(s, "api", b) : resolveRule(b, "builtin"), !c));
    }
    const builtinIds = new Set(BUILTIN_RULES.map((b) => b.id));
    for (const r of this.cfg.rules) if (!builtinIds.has(r.id)) out.push(view(resolveRule(r, "config"), false));
    for (const [id, r] of stored) if (!builtinIds.has(id) && !config.has(id) && r.metric !== undefined) out.push(view(resolveRule(r, "api"), true));
    this.rules = out;

    const channels = this.cfg.channels.map((c) => resolveChannel(c, "config"));
    const configIds = new Set(channels.map((c) => c.id));
    for (const row of this.capped(this.db.channelRows(), MAX_CHANNELS, "channels")) {
      const c = this.parseStored(row, ChannelSchema) as ChannelInput | null;
      if (!c || configIds.has(row.id)) continue;
      // Made through the API before command channels were config-only: never run.
      if (c.type === "command") {
        if (!this.warnedCommands.has(row.id)) this.o.logger.warn("ignoring a command alert channel made through the API: command channels come from config.json only", { channel: row.id });
        this.warnedCommands.add(row.id);
        continue;
      }
      channels.push(resolveChannel(c, "api"));
    }
    this.channels = channels;
  }

  /** Stored rows past the API's cap (made before there was one) are not loaded: they would cost memory and every evaluation. */
  private capped<T extends { id: string }>(rows: T[], max: number, what: "rules" | "channels"): T[] {
    if (rows.length <= max) return rows;
    if (!this.warnedCaps.has(what)) this.o.logger.warn(`ignoring alert ${what} made through the API past the first ${max} (by id)`, { stored: rows.length, ignored: rows.length - max, firstIgnored: rows[max]!.id });
    this.warnedCaps.add(what);
    return rows.slice(0, max);
  }

  private parseStored(row: { id: string; json: string }, schema: z.ZodType): unknown {
    try {
      const parsed = schema.safeParse(JSON.parse(row.json));
      if (parsed.success) return parsed.data;
      this.o.logger.warn("ignoring an alert rule or channel in the store that is no longer valid", { id: row.id });
    } catch {
      this.o.logger.warn("ignoring an unreadable alert rule or channel in the store", { id: row.id });
    }
    return null;
  }

  // ---------------------------------------------------------------------------------------------
  // What the API reads
  // ---------------------------------------------------------------------------------------------

  ruleViews(): RuleView[] {
    return this.rules.map((r) => ({ ...r }));
  }

  rule(id: string): RuleView | null {
    return this.rules.find((r) => r.id === id) ?? null;
  }

  channelViews(): ChannelView[] {
    return this.channels.map((c) => channelView(c));
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
    const ch: BoundedChannel<AlertChange> = new BoundedChannel({
      capacity: MAX_SUBSCRIBER_BACKLOG,
      onOverflow: () => this.o.logger.warn("dropped an alertChanged subscriber that fell behind"),
      onClose: () => this.subscribers.delete(ch),
    });
    this.subscribers.add(ch);
    return ch;
  }

  private emit(c: Omit<AlertChange, "ts">): void {
    const change = { ...c, ts: this.o.clock.now() };
    for (const ch of this.subscribers) ch.push(change);
  }

  // ---------------------------------------------------------------------------------------------
  // What the API changes (audited)
  // ---------------------------------------------------------------------------------------------

  private ruleOrThrow(id: string): RuleView {
    const r = this.rule(id);
    if (!r) throw new InsightsError("NOT_FOUND", `no alert rule ${JSON.stringify(id)}; see alertRules for the ones there are`);
    return r;
  }

  private editableRule(id: string): RuleView {
    const r = this.ruleOrThrow(id);
    if (!r.editable) throw badInput(`alert rule ${id} is defined in config.json: change it there and reload (SIGHUP); only mute works on it here`);
    return r;
  }

  addRule(input: unknown, by: Caller): RuleView {
    const parsed = RuleSchema.safeParse(input);
    if (!parsed.success) throw zodInput(parsed.error, "rule");
    const r = parsed.data as AlertRuleInput;
    if (this.rule(r.id) || BUILTIN_RULES.some((b) => b.id === r.id)) throw badInput(`an alert rule ${r.id} exists already; change it with updateAlertRule or pick another id`);
    if (this.db.ruleRows().length >= MAX_RULES) throw new InsightsError("LIMIT_REACHED", `${MAX_RULES} alert rules made through the API is the most there can be; delete one first`);
    const problem = ruleProblem(r);
    if (problem) throw badInput(`rule.${problem.path}: ${problem.message}`);
    this.db.putRule(r.id, JSON.stringify(r), this.o.clock.now());
    this.afterRuleChange("alert rule added", r.id, by);
    return this.ruleOrThrow(r.id);
  }

  /** `patch`: the fields to change; a null one goes back to its default. */
  updateRule(id: string, patch: Record<string, unknown>, by: Caller): RuleView {
    const current = this.editableRule(id);
    for (const k of Object.keys(patch)) if (!RULE_PATCH_FIELDS.includes(k) || k === "id") throw badInput(`rule.${k}: no such field that can be changed`);
    if (patch.metric !== undefined && patch.metric !== current.metric) throw badInput("rule.metric: a rule's metric cannot be changed; add a new rule instead");
    const builtin = BUILTIN_RULES.find((b) => b.id === id);
    const stored = this.db.ruleRows().find((row) => row.id === id);
    const before = (stored ? JSON.parse(stored.json) : builtin ? { id } : {}) as Record<string, unknown>;
    const next: Record<string, unknown> = { ...before, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)), id };
    // A null field goes back to its default (a null budget: no budget, so a budget rule is off).
    for (const k of Object.keys(next)) if (next[k] === null) delete next[k];
    const parsed = (builtin ? RulePatchSchema : RuleSchema).safeParse(next);
    if (!parsed.success) throw zodInput(parsed.error, "rule");
    const merged = { ...(builtin ?? {}), ...(parsed.data as AlertRuleInput), metric: current.metric };
    const problem = ruleProblem(merged);
    if (problem) throw badInput(`rule.${problem.path}: ${problem.message}`);
    this.db.putRule(id, JSON.stringify(parsed.data), this.o.clock.now());
    this.afterRuleChange("alert rule changed", id, by, Object.keys(patch));
    return this.ruleOrThrow(id);
  }

  /** Removes a rule made through the API; for a built-in rule, removes the API's changes to it. */
  deleteRule(id: string, by: Caller): { id: string; reset: boolean } {
    this.editableRule(id);
    const builtin = BUILTIN_RULES.some((b) => b.id === id);
    this.db.deleteRule(id);
    this.afterRuleChange(builtin ? "alert rule reset to its built-in settings" : "alert rule deleted", id, by);
    return { id, reset: builtin };
  }

  mute(id: string, until: number, by: Caller): RuleView {
    this.ruleOrThrow(id);
    const now = this.o.clock.now();
    if (!Number.isFinite(until) || until <= now) throw badInput("until: a time in the future");
    if (until - now > YEAR_MS) throw badInput("until: at most a year from now");
    this.db.mute(id, until, `${by.auth}${by.peer ? ` from ${by.peer}` : ""}`, now);
    this.o.logger.info("alert rule muted", { rule: id, until: new Date(until).toISOString(), by: by.auth, peer: by.peer });
    this.refresh();
    this.emit({ kind: "MUTED", ruleId: id, alertId: null });
    return this.ruleOrThrow(id);
  }

  unmute(id: string, by: Caller): RuleView {
    this.ruleOrThrow(id);
    const was = this.db.unmute(id, `${by.auth}${by.peer ? ` from ${by.peer}` : ""}`, this.o.clock.now());
    if (was) this.o.logger.info("alert rule unmuted", { rule: id, by: by.auth, peer: by.peer });
    this.refresh();
    this.emit({ kind: "UNMUTED", ruleId: id, alertId: null });
    // What the mute held back is owed now.
    this.changed();
    return this.ruleOrThrow(id);
  }

  private afterRuleChange(what: string, id: string, by: Caller, fields?: string[]): RuleView | null {
    this.o.logger.info(what, { rule: id, ...(fields ? { fields } : {}), by: by.auth, peer: by.peer });
    this.refresh();
    this.emit({ kind: "RULES_CHANGED", ruleId: id, alertId: null });
    this.changed();
    return this.rule(id);
  }

  private channelOrThrow(id: string): AlertChannel {
    const c = this.channels.find((x) => x.id === id);
    if (!c) throw new InsightsError("NOT_FOUND", `no alert channel ${JSON.stringify(id)}; see alertChannels for the ones there are`);
    return c;
  }

  addChannel(input: unknown, by: Caller): ChannelView {
    // Checked before anything else: a program runs only because the operator wrote it into a file they own.
    if (typeof input === "object" && input !== null && (input as { type?: unknown }).type === "command") throw forbiddenCommand();
    const parsed = ChannelSchema.safeParse(input);
    if (!parsed.success) throw zodInput(parsed.error, "channel");
    const c = parsed.data as ChannelInput;
    if (this.channels.some((x) => x.id === c.id)) throw badInput(`an alert channel ${c.id} exists already`);
    if (this.db.channelRows().length >= MAX_CHANNELS) throw new InsightsError("LIMIT_REACHED", `${MAX_CHANNELS} alert channels made through the API is the most there can be; delete one first`);
    this.checkTarget(c.url);
    this.db.putChannel(c.id, JSON.stringify(c), this.o.clock.now());
    return this.afterChannelChange("alert channel added", c.id, by);
  }

  /** `patch`: fields to change; `secret: null` removes the secret. The type cannot change. */
  updateChannel(id: string, patch: Record<string, unknown>, by: Caller): ChannelView {
    const current = this.channelOrThrow(id);
    if (patch.type === "command" || (patch.command !== undefined && patch.command !== null)) throw forbiddenCommand();
    if (current.origin === "config") throw badInput(`alert channel ${id} is defined in config.json: change it there and reload (SIGHUP)`);
    if (patch.type !== undefined && patch.type !== current.type) throw badInput("channel.type: a channel's type cannot be changed; add a new channel instead");
    const row = this.db.channelRows().find((r) => r.id === id);
    const before = (row ? JSON.parse(row.json) : {}) as Record<string, unknown>;
    const next: Record<string, unknown> = { ...before };
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined || k === "id") continue;
      if (v === null) delete next[k];
      else next[k] = v;
    }
    // A secret belongs to where it was sent: a new URL drops it unless this call sets one (else
    // whoever changes the URL to an address they own receives the ntfy token or signs with the key).
    if (typeof patch.url === "string" && patch.url !== before.url && patch.secret === undefined) delete next.secret;
    const parsed = ChannelSchema.safeParse({ ...next, id, type: current.type });
    if (!parsed.success) throw zodInput(parsed.error, "channel");
    if (typeof patch.url === "string") this.checkTarget(patch.url);
    this.db.putChannel(id, JSON.stringify(parsed.data), this.o.clock.now());
    // Which fields changed, never their values; a secret is said to have changed, nothing more.
    return this.afterChannelChange("alert channel changed", id, by, Object.keys(patch).filter((k) => patch[k] !== undefined));
  }

  /** A URL the outbound policy refuses (checked again, after DNS, on every delivery). */
  private checkTarget(url: string | undefined): void {
    if (url === undefined) return;
    const kind = refusedUrl(url, this.targetPolicy());
    if (kind) throw new InsightsError("TARGET_REFUSED", `channel.url: refused by policy, a ${kind} address; channels made through the API send to public addresses only (config.json alerts.allowedHosts or alerts.allowPrivateTargets allows others)`);
  }

  deleteChannel(id: string, by: Caller): { id: string } {
    const c = this.channelOrThrow(id);
    if (c.origin === "config") throw badInput(`alert channel ${id} is defined in config.json: remove it there and reload (SIGHUP)`);
    this.db.deleteChannel(id);
    this.afterChannelChange("alert channel deleted", id, by);
    return { id };
  }

  private afterChannelChange(what: string, id: string, by: Caller, fields?: string[]): ChannelView {
    this.o.logger.info(what, { channel: id, ...(fields ? { fields } : {}), by: by.auth, peer: by.peer });
    this.refresh();
    this.emit({ kind: "CHANNELS_CHANGED", ruleId: null, alertId: null });
    const c = this.channels.find((x) => x.id === id);
    return c ? channelView(c) : ({ id } as ChannelView);
  }

  /** Sends a test notification through one channel now and waits for the outcome: one try, bounded by the channel's timeout. */
  async testChannel(id: string, by: Caller): Promise<DeliveryView & { channel: ChannelView }> {
    const channel = this.channelOrThrow(id);
    this.queue.checkTest(id);
    const now = this.o.clock.now();
    this.o.logger.info("alert channel test requested", { channel: id, by: by.auth, peer: by.peer });
    const rule = this.rules.find((r) => r.enabled) ?? this.rules[0]!; // the built-ins are always there
    const threshold = rule.critical ?? rule.warning ?? 0;
    const eventId = this.db.event({ ts: now, alertId: null, ruleId: rule.id, subject: "", kind: "test", severity: "warning", value: threshold, threshold, notified: true, withheld: null, detail: `channel ${id}` });
    const n: NotificationInput = {
      event: "test",
      escalated: false,
      rule: { id: rule.id, name: rule.name, metric: rule.metric, scope: rule.scope, window: rule.window },
      alertId: `test-${now}`,
      subject: "",
      label: rule.name,
      severity: "warning",
      value: threshold,
      threshold,
      since: now,
      resolvedAt: null,
      projection: null,
      timeZone: this.timeZone,
      host: this.host,
      sentAt: now,
    };
    const r = await this.queue.sendOnce({ channel, notification: n, eventId });
    return { channelId: r.channelId, outcome: r.outcome, attempts: r.attempts, error: r.error, ts: this.o.clock.now(), channel: channelView(channel) };
  }
}

function channelView(c: AlertChannel): ChannelView {
  const secrets = secretFields(c.type);
  return {
    id: c.id,
    type: c.type,
    name: c.name,
    enabled: c.enabled,
    target: c.type === "command" ? (c.command?.[0] ?? null) : originOf(c.url),
    secretSet: secrets.some((f) => c[f] !== null),
    minSeverity: c.minSeverity,
    sendResolved: c.sendResolved,
    timeoutSeconds: c.timeoutSeconds,
    origin: c.origin,
    editable: c.origin === "api",
  };
}
