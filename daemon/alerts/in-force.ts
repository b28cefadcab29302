// The rules and channels in force: the built-ins, config.json's `alerts`, what the API stored and
// the mutes, rebuilt on every change. Apart from the service because this changes with where rules
// and channels come from (and what a stored one from an older version means); the API that changes
// them and the evaluation that reads them change for other reasons.
import type { z } from "zod";
import { InsightsError } from "../../shared/base/errors.js";
import type { Logger } from "../../shared/base/log/logger.js";
import { parseAlertsConfig, type AlertsConfig } from "../../shared/alerts/config.js";
import {
  BUILTIN_RULES,
  ChannelSchema,
  MAX_CHANNELS,
  MAX_RULES,
  METRIC_INFO,
  RulePatchSchema,
  resolveChannel,
  resolveRule,
  type AlertChannel,
  type AlertRule,
  type AlertRuleInput,
  type ChannelInput,
} from "../../shared/alerts/rules.js";
import type { RuleView } from "../../shared/alerts/views.js";
import type { AlertStore } from "./alert-store.js";
import type { TargetPolicy } from "./target-policy.js";

interface InForceOptions {
  db: AlertStore;
  logger: Logger;
  /** The `alerts` config value as loaded. */
  config: () => Record<string, unknown> | null;
  /** The zone of calendar windows when the config names none. */
  defaultTimeZone: string;
}

export class AlertsInForce {
  private cfg: AlertsConfig;
  private ruleList: RuleView[] = [];
  private channelList: AlertChannel[] = [];
  /** Stored command channels already warned about (refresh runs on every change). */
  private readonly warnedCommands = new Set<string>();
  private readonly warnedCaps = new Set<string>();

  constructor(private readonly o: InForceOptions) {
    this.cfg = parseAlertsConfig(o.config(), "config");
    this.refresh();
  }

  get rules(): readonly RuleView[] {
    return this.ruleList;
  }

  get channels(): readonly AlertChannel[] {
    return this.channelList;
  }

  get evaluateSeconds(): number {
    return this.cfg.evaluateSeconds;
  }

  get timeZone(): string {
    return this.cfg.timeZone ?? this.o.defaultTimeZone;
  }

  /** Where channels made through the API may send (config.json's alerts.allowPrivateTargets, allowedHosts). */
  targetPolicy(): TargetPolicy {
    return { allowPrivate: this.cfg.allowPrivateTargets, allowedHosts: this.cfg.allowedHosts };
  }

  /** SIGHUP: the `alerts` value was re-read (already validated by the config loader). */
  reload(): void {
    this.cfg = parseAlertsConfig(this.o.config(), "config");
    this.refresh();
  }

  rule(id: string): RuleView | null {
    return this.ruleList.find((r) => r.id === id) ?? null;
  }

  ruleOrThrow(id: string): RuleView {
    const r = this.rule(id);
    if (!r) throw new InsightsError("NOT_FOUND", `no alert rule ${JSON.stringify(id)}; see alertRules for the ones there are`);
    return r;
  }

  channel(id: string): AlertChannel | null {
    return this.channelList.find((x) => x.id === id) ?? null;
  }

  channelOrThrow(id: string): AlertChannel {
    const c = this.channel(id);
    if (!c) throw new InsightsError("NOT_FOUND", `no alert channel ${JSON.stringify(id)}; see alertChannels for the ones there are`);
    return c;
  }

  /** Rebuilds the rules and channels from the built-ins, the config, the store and the mutes. */
  refresh(): void {
    const stored = new Map<string, AlertRuleInput>();
    for (const row of this.capped(this.o.db.ruleRows(), MAX_RULES, "rules")) {
      const r = this.parseStored(row, RulePatchSchema);
      if (r) stored.set(row.id, r as AlertRuleInput);
    }
    const config = new Map(this.cfg.rules.map((r) => [r.id, r]));
    const mutes = new Map(this.o.db.mutes().map((m) => [m.ruleId, m]));
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
    this.ruleList = out;

    const channels = this.cfg.channels.map((c) => resolveChannel(c, "config"));
    const configIds = new Set(channels.map((c) => c.id));
    for (const row of this.capped(this.o.db.channelRows(), MAX_CHANNELS, "channels")) {
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
    this.channelList = channels;
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
}
