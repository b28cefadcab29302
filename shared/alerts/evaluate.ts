// One evaluation step of one rule: from the instances' previous state and the values measured
// now to their new state and the transitions to record and notify. Pure: the clock, the mute
// and the cooldown memory are passed in.
//
// - An instance is one thing a rule watches: the rule's whole scope (budgets, counts), or one
//   session, health check, rate-limit window or model (`subject`).
// - Crossing: a value at or above a threshold (and above 0) fires at that severity at once.
// - Hysteresis: a firing severity holds until the value falls below CLEAR_RATIO (90 %) of its
//   threshold, so a value hovering at the line does not flap.
// - One notification per crossing: `firing` when an episode starts, `escalated` when it climbs
//   from warning to critical (sent at once), `resolved` when it clears, only if something was sent
//   for the episode. Falling from critical to warning is recorded, not sent; climbing back is a
//   new crossing.
// - Cooldown: a firing or escalation of the same rule, subject and severity within the rule's
//   cooldown of the last one sent is recorded but not sent (and not sent later).
// - Muted: nothing is sent; an episode still firing when the mute ends is sent then.
import { createHash } from "node:crypto";
import { CLEAR_RATIO, METRIC_INFO, type AlertRule, type Severity } from "./rules.js";
import type { Projection } from "./windows.js";

export interface Sample {
  /** "" for the rule's whole scope; else the session, check, window or model it is about. */
  subject: string;
  /** How the subject reads to people (`session claude-code:default/abc`, `check gateway`). */
  label: string;
  value: number;
  projection?: Projection | null;
}

export interface InstanceState {
  ruleId: string;
  subject: string;
  label: string;
  /** The severity it fires at (on a `resolved` transition: the one it stood at before). */
  severity: Severity;
  /** The episode: its id and when it began. */
  alertId: string;
  since: number;
  value: number;
  threshold: number;
  projection: Projection | null;
  /** The highest severity a notification was sent (or consciously withheld by the cooldown) for. */
  notified: Severity | null;
  /** Something was actually sent for this episode (a resolve follows only then). */
  sent: boolean;
}

type TransitionKind = "firing" | "escalated" | "deescalated" | "resolved";

export interface Transition {
  kind: TransitionKind;
  state: InstanceState;
  /** Whether to send it; else why not. */
  notify: boolean;
  withheld: "muted" | "cooldown" | null;
}

interface StepContext {
  now: number;
  muted: boolean;
  /** When a notification of this rule, subject and severity was last sent, or null. */
  lastSent(ruleId: string, subject: string, severity: Severity): number | null;
}

const RANK: Record<Severity, number> = { warning: 1, critical: 2 };
const rankOf = (s: Severity | null): number => (s ? RANK[s] : 0);

function thresholdOf(rule: AlertRule, s: Severity): number | null {
  return s === "critical" ? rule.critical : rule.warning;
}

/** The severity `value` stands at, given the one it stood at (hysteresis). */
export function levelOf(rule: AlertRule, value: number, current: Severity | null): Severity | null {
  const held = METRIC_INFO[rule.metric].held;
  const at = (t: number | null, ratio: number): boolean => t !== null && value >= t * ratio && (value > 0 || held);
  if (at(rule.critical, 1)) return "critical";
  if (current === "critical" && at(rule.critical, CLEAR_RATIO)) return "critical";
  if (at(rule.warning, 1)) return "warning";
  if (current !== null && at(rule.warning, CLEAR_RATIO)) return "warning";
  return null;
}

function alertIdOf(ruleId: string, subject: string, since: number): string {
  return createHash("sha256").update(`${ruleId}\u0000${subject}\u0000${since}`).digest("hex").slice(0, 16);
}

/**
 * Steps every instance of `rule`: those measured now (`samples`) and those firing before and not
 * measured now (their condition is gone: they resolve). Returns the states still firing and the
 * transitions in order.
 */
export function step(rule: AlertRule, previous: ReadonlyMap<string, InstanceState>, samples: readonly Sample[], ctx: StepContext): { states: Map<string, InstanceState>; transitions: Transition[] } {
  const states = new Map<string, InstanceState>();
  const transitions: Transition[] = [];
  const measured = new Map(samples.map((s) => [s.subject, s]));
  const subjects = new Set([...previous.keys(), ...measured.keys()]);
  for (const subject of subjects) {
    const prev = previous.get(subject) ?? null;
    const sample = measured.get(subject);
    // Not measured now: the condition is gone (a gateway back up, a session ended).
    const value = sample?.value ?? 0;
    const level = rule.enabled && sample ? levelOf(rule, value, prev?.severity ?? null) : null;
    if (level === null) {
      if (prev) {
        // The state keeps the severity it stood at: what the resolve is about.
        const state = { ...prev, value };
        const notify = prev.sent && !ctx.muted;
        transitions.push({ kind: "resolved", state, notify, withheld: notify || !prev.sent ? null : "muted" });
      }
      continue;
    }
    const threshold = thresholdOf(rule, level) as number; // a level is only reached through a set threshold
    const base: InstanceState = prev
      ? { ...prev, label: sample?.label ?? prev.label, severity: level, value, threshold, projection: sample?.projection ?? null }
      : {
          ruleId: rule.id,
          subject,
          label: sample?.label ?? subject,
          severity: level,
          alertId: alertIdOf(rule.id, subject, ctx.now),
          since: ctx.now,
          value,
          threshold,
          projection: sample?.projection ?? null,
          notified: null,
          sent: false,
        };
    let kind: TransitionKind | null = null;
    if (!prev) kind = "firing";
    else if (rankOf(level) > rankOf(prev.severity)) kind = "escalated";
    else if (rankOf(level) < rankOf(prev.severity)) kind = "deescalated";
    let state = base;
    if (kind === "deescalated") {
      // A later climb back is a new crossing: owed again, and the cooldown decides.
      if (rankOf(state.notified) > rankOf(level)) state = { ...state, notified: level };
      transitions.push({ kind, state, notify: false, withheld: null });
    }
    // Owed a notification: a new or higher severity than any handled for this episode.
    if (rankOf(level) > rankOf(state.notified)) {
      const sendKind: TransitionKind = kind === "firing" || kind === "escalated" ? kind : state.notified === null ? "firing" : "escalated";
      if (ctx.muted) {
        // Kept owed: sent when the mute ends, if still firing. Recorded once, at the change.
        if (kind === "firing" || kind === "escalated") transitions.push({ kind, state, notify: false, withheld: "muted" });
      } else {
        const last = ctx.lastSent(rule.id, subject, level);
        const cooling = last !== null && ctx.now - last < rule.cooldownMinutes * 60_000;
        state = { ...state, notified: level, sent: state.sent || !cooling };
        transitions.push({ kind: sendKind, state, notify: !cooling, withheld: cooling ? "cooldown" : null });
      }
    }
    states.set(subject, state);
  }
  return { states, transitions };
}
