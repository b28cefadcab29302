// What the API changes in rules: add, change, delete (a built-in one: reset), mute and unmute.
// Every change is audited in the daemon log with who asked, then the rules in force are rebuilt,
// subscribers told and an evaluation scheduled.
import { InsightsError } from "../../shared/base/errors.js";
import { BUILTIN_RULES, MAX_RULES, RulePatchSchema, RuleSchema, ruleProblem, type AlertRuleInput } from "../../shared/alerts/rules.js";
import type { Caller, RuleView } from "../../shared/alerts/views.js";
import { badInput, callerLabel, zodInput, type AlertApiDeps } from "./api-input.js";

const RULE_PATCH_FIELDS = Object.keys(RulePatchSchema.shape);
const YEAR_MS = 366 * 86_400_000;

export class RuleApi {
  constructor(private readonly d: AlertApiDeps) {}

  private editableRule(id: string): RuleView {
    const r = this.d.inForce.ruleOrThrow(id);
    if (!r.editable) throw badInput(`alert rule ${id} is defined in config.json: change it there and reload (SIGHUP); only mute works on it here`);
    return r;
  }

  add(input: unknown, by: Caller): RuleView {
    const parsed = RuleSchema.safeParse(input);
    if (!parsed.success) throw zodInput(parsed.error, "rule");
    const r = parsed.data as AlertRuleInput;
    if (this.d.inForce.rule(r.id) || BUILTIN_RULES.some((b) => b.id === r.id)) throw badInput(`an alert rule ${r.id} exists already; change it with updateAlertRule or pick another id`);
    if (this.d.db.ruleRows().length >= MAX_RULES) throw new InsightsError("LIMIT_REACHED", `${MAX_RULES} alert rules made through the API is the most there can be; delete one first`);
    const problem = ruleProblem(r);
    if (problem) throw badInput(`rule.${problem.path}: ${problem.message}`);
    this.d.db.putRule(r.id, JSON.stringify(r), this.d.clock.now());
    this.afterChange("alert rule added", r.id, by);
    return this.d.inForce.ruleOrThrow(r.id);
  }

  /** `patch`: the fields to change; a null one goes back to its default. */
  update(id: string, patch: Record<string, unknown>, by: Caller): RuleView {
    const current = this.editableRule(id);
    for (const k of Object.keys(patch)) if (!RULE_PATCH_FIELDS.includes(k) || k === "id") throw badInput(`rule.${k}: no such field that can be changed`);
    if (patch.metric !== undefined && patch.metric !== current.metric) throw badInput("rule.metric: a rule's metric cannot be changed; add a new rule instead");
    const builtin = BUILTIN_RULES.find((b) => b.id === id);
    const stored = this.d.db.ruleRows().find((row) => row.id === id);
    const before = (stored ? JSON.parse(stored.json) : builtin ? { id } : {}) as Record<string, unknown>;
    const next: Record<string, unknown> = { ...before, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)), id };
    // A null field goes back to its default (a null budget: no budget, so a budget rule is off).
    for (const k of Object.keys(next)) if (next[k] === null) delete next[k];
    const parsed = (builtin ? RulePatchSchema : RuleSchema).safeParse(next);
    if (!parsed.success) throw zodInput(parsed.error, "rule");
    const merged = { ...(builtin ?? {}), ...(parsed.data as AlertRuleInput), metric: current.metric };
    const problem = ruleProblem(merged);
    if (problem) throw badInput(`rule.${problem.path}: ${problem.message}`);
    this.d.db.putRule(id, JSON.stringify(parsed.data), this.d.clock.now());
    this.afterChange("alert rule changed", id, by, Object.keys(patch));
    return this.d.inForce.ruleOrThrow(id);
  }

  /** Removes a rule made through the API; for a built-in rule, removes the API's changes to it. */
  delete(id: string, by: Caller): { id: string; reset: boolean } {
    this.editableRule(id);
    const builtin = BUILTIN_RULES.some((b) => b.id === id);
    this.d.db.deleteRule(id);
    this.afterChange(builtin ? "alert rule reset to its built-in settings" : "alert rule deleted", id, by);
    return { id, reset: builtin };
  }

  mute(id: string, until: number, by: Caller): RuleView {
    this.d.inForce.ruleOrThrow(id);
    const now = this.d.clock.now();
    if (!Number.isFinite(until) || until <= now) throw badInput("until: a time in the future");
    if (until - now > YEAR_MS) throw badInput("until: at most a year from now");
    this.d.db.mute(id, until, callerLabel(by), now);
    this.d.logger.info("alert rule muted", { rule: id, until: new Date(until).toISOString(), by: by.auth, peer: by.peer });
    this.d.inForce.refresh();
    this.d.feed.emit({ kind: "MUTED", ruleId: id, alertId: null });
    return this.d.inForce.ruleOrThrow(id);
  }

  unmute(id: string, by: Caller): RuleView {
    this.d.inForce.ruleOrThrow(id);
    const was = this.d.db.unmute(id, callerLabel(by), this.d.clock.now());
    if (was) this.d.logger.info("alert rule unmuted", { rule: id, by: by.auth, peer: by.peer });
    this.d.inForce.refresh();
    this.d.feed.emit({ kind: "UNMUTED", ruleId: id, alertId: null });
    // What the mute held back is owed now.
    this.d.changed();
    return this.d.inForce.ruleOrThrow(id);
  }

  private afterChange(what: string, id: string, by: Caller, fields?: string[]): void {
    this.d.logger.info(what, { rule: id, ...(fields ? { fields } : {}), by: by.auth, peer: by.peer });
    this.d.inForce.refresh();
    this.d.feed.emit({ kind: "RULES_CHANGED", ruleId: id, alertId: null });
    this.d.changed();
  }
}
