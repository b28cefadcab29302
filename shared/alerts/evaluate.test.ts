// Rule evaluation with an injected clock: crossing, hysteresis, cooldown, escalation, resolve,
// mutes, and the burn-rate projection over calendar windows whose boundaries lie in a non-UTC zone.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { step, type InstanceState, type Sample, type Transition } from "./evaluate.js";
import { resolveRule, type AlertRuleInput } from "./rules.js";
import { project, windowRange, zonedMidnight } from "./windows.js";

const MIN = 60_000;
const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);

/** Runs a rule over a list of values, one per minute, and returns every transition. */
function run(input: AlertRuleInput, values: Array<number | null>, opts: { muted?: (i: number) => boolean; start?: number; stepMs?: number } = {}) {
  const rule = resolveRule(input, "config");
  let states = new Map<string, InstanceState>();
  const sent = new Map<string, number>();
  const all: Array<Transition & { i: number; at: number }> = [];
  values.forEach((v, i) => {
    const now = (opts.start ?? T0) + i * (opts.stepMs ?? MIN);
    const samples: Sample[] = v === null ? [] : [{ subject: "", label: "x", value: v }];
    const r = step(rule, states, samples, { now, muted: opts.muted?.(i) ?? false, lastSent: (id, s, sev) => sent.get(`${id}/${s}/${sev}`) ?? null });
    for (const t of r.transitions) {
      all.push({ ...t, i, at: now });
      if (t.notify && t.kind !== "resolved") sent.set(`${rule.id}/${t.state.subject}/${t.state.severity}`, now);
    }
    states = r.states;
  });
  return { all, sent: all.filter((t) => t.notify).map((t) => `${t.i}:${t.kind}:${t.state.severity}`), states };
}

const budget: AlertRuleInput = { id: "b", metric: "cost", window: "day", budget: 10 };

test("a budget's thresholds default to 80 % and 100 % of it", () => {
  const r = resolveRule(budget, "config");
  assert.is(r.warning, 8);
  assert.is(r.critical, 10);
  assert.ok(r.enabled);
  assert.not.ok(resolveRule({ id: "c", metric: "cost" }, "config").enabled, "a budget rule without an amount is off");
});

test("crossing: one notification per crossing, warning then critical at once (escalation)", () => {
  const { sent } = run(budget, [1, 5, 8, 8.5, 9, 10, 12, 13]);
  assert.equal(sent, ["2:firing:warning", "5:escalated:critical"]);
});

test("hysteresis: a value hovering at the line neither resolves nor re-fires", () => {
  // 8 fires; 7.3 is above 90 % of 8 (7.2): still firing; 8.1 again: nothing new.
  const { sent, all } = run(budget, [8, 7.3, 8.1, 7.25, 8]);
  assert.equal(sent, ["0:firing:warning"]);
  assert.equal(all.map((t) => t.kind), ["firing"]);
});

test("resolve: below 90 % of the threshold, once, and only for an episode that was sent", () => {
  const { sent } = run(budget, [8, 7.1, 7.0, 0]);
  assert.equal(sent, ["0:firing:warning", "1:resolved:warning"]);
});

test("critical falls back to warning silently; climbing back is a new crossing, subject to the cooldown", () => {
  // 10 critical; 8.9 < 9 (90 % of 10): back to warning (recorded, not sent); 10 within the cooldown: withheld.
  const r = run(budget, [10, 8.9, 10]);
  assert.equal(r.sent, ["0:firing:critical"]);
  assert.equal(r.all.map((t) => `${t.kind}${t.withheld ? `(${t.withheld})` : ""}`), ["firing", "deescalated", "escalated(cooldown)"]);
  // The same after the cooldown (30 min by default): sent.
  const later = run({ ...budget, cooldownMinutes: 30 }, [10, 8.9, 10], { stepMs: 31 * MIN });
  assert.equal(later.sent, ["0:firing:critical", "2:escalated:critical"]);
});

test("cooldown: a re-fire of the same rule and severity within the cooldown sends nothing, and no resolve follows it", () => {
  const { sent, all } = run({ ...budget, cooldownMinutes: 30 }, [9, 0, 9, 0, ...Array<number>(30).fill(0), 9]);
  // Fired at 0, resolved at 1; fired again at 2 (2 min later: withheld), its resolve at 3 is not sent either.
  assert.equal(sent, ["0:firing:warning", "1:resolved:warning", "34:firing:warning"]);
  assert.equal(all.filter((t) => t.i === 2).map((t) => t.withheld), ["cooldown"]);
});

test("muted: nothing is sent; an alert still firing when the mute ends is sent then", () => {
  const { sent } = run(budget, [9, 9, 9, 9], { muted: (i) => i < 2 });
  assert.equal(sent, ["2:firing:warning"]);
  const gone = run(budget, [9, 0, 0], { muted: (i) => i < 2 });
  assert.equal(gone.sent, [], "fired and cleared while muted: nothing to send, no resolve");
});

test("held metrics: the gateway down for its threshold in seconds fires critical; back up resolves", () => {
  const rule: AlertRuleInput = { id: "gateway-down", metric: "gateway_down", critical: 120 };
  // Values are seconds held; null = the condition no longer holds.
  const { sent } = run(rule, [0, 60, 119, 120, 180, null]);
  assert.equal(sent, ["3:firing:critical", "5:resolved:critical"]);
});

test("instances: each subject fires and resolves on its own", () => {
  const rule = resolveRule({ id: "ctx", metric: "context" }, "config");
  const lastSent = (): null => null;
  let s = new Map<string, InstanceState>();
  const at = (i: number, samples: Sample[]) => {
    const r = step(rule, s, samples, { now: T0 + i * MIN, muted: false, lastSent });
    s = r.states;
    return r.transitions.map((t) => `${t.kind}:${t.state.subject}:${t.state.severity}`);
  };
  assert.equal(at(0, [{ subject: "a", label: "a", value: 85 }, { subject: "b", label: "b", value: 50 }]), ["firing:a:warning"]);
  assert.equal(at(1, [{ subject: "a", label: "a", value: 96 }, { subject: "b", label: "b", value: 81 }]), ["escalated:a:critical", "firing:b:warning"]);
  assert.equal(at(2, [{ subject: "b", label: "b", value: 81 }]), ["resolved:a:critical"], "a session no longer measured resolves");
});

test("an episode keeps its id from crossing to resolve", () => {
  const { all } = run(budget, [8, 10, 0]);
  const ids = new Set(all.map((t) => t.state.alertId));
  assert.is(ids.size, 1);
  assert.is(all[0]?.state.since, T0);
});

// -------------------------------------------------------------------------------------------
// Windows and projection
// -------------------------------------------------------------------------------------------

test("day boundaries in a non-UTC zone: America/New_York's day starts at 05:00 UTC in March before DST, 04:00 after", () => {
  // 2026-03-08 is the US switch to daylight saving time (02:00 local).
  const before = windowRange("day", Date.UTC(2026, 2, 7, 15, 0), "America/New_York");
  assert.is(new Date(before.start).toISOString(), "2026-03-07T05:00:00.000Z");
  assert.is(new Date(before.end).toISOString(), "2026-03-08T05:00:00.000Z");
  // The day of the switch is 23 hours long.
  const switchDay = windowRange("day", Date.UTC(2026, 2, 8, 15, 0), "America/New_York");
  assert.is(new Date(switchDay.start).toISOString(), "2026-03-08T05:00:00.000Z");
  assert.is(new Date(switchDay.end).toISOString(), "2026-03-09T04:00:00.000Z");
  // 03:30 UTC on the 8th is still the 7th in New York.
  assert.is(new Date(windowRange("day", Date.UTC(2026, 2, 8, 3, 30), "America/New_York").start).toISOString(), "2026-03-07T05:00:00.000Z");
});

test("day, week and month windows in a zone east of UTC with a half-hour offset (Asia/Kolkata)", () => {
  // 20:00 UTC on Sunday 2026-03-15 is 01:30 on Monday the 16th in Kolkata (+05:30).
  const now = Date.UTC(2026, 2, 15, 20, 0);
  assert.is(new Date(windowRange("day", now, "Asia/Kolkata").start).toISOString(), "2026-03-15T18:30:00.000Z");
  const week = windowRange("week", now, "Asia/Kolkata");
  assert.is(new Date(week.start).toISOString(), "2026-03-15T18:30:00.000Z", "the week starts on Monday, local");
  assert.is(new Date(week.end).toISOString(), "2026-03-22T18:30:00.000Z");
  const month = windowRange("month", now, "Asia/Kolkata");
  assert.is(new Date(month.start).toISOString(), "2026-02-28T18:30:00.000Z");
  assert.is(new Date(month.end).toISOString(), "2026-03-31T18:30:00.000Z");
  // The same instant in UTC is still Sunday: its week began the Monday before.
  assert.is(new Date(windowRange("week", now, "UTC").start).toISOString(), "2026-03-09T00:00:00.000Z");
  assert.is(zonedMidnight(2026, 12, 32, "UTC"), Date.UTC(2027, 0, 1), "days past the month's end roll over");
});

test("projection: linear burn rate over the day so far gives the time the budget is spent, in the zone", () => {
  // Europe/Berlin (+01:00 in March before DST): the day began at 23:00 UTC. At 09:00 local (08:00 UTC),
  // $9 spent in 9 hours = $1/h, so $10 is reached an hour later: 10:00 local; $24 by midnight.
  const tz = "Europe/Berlin";
  const now = Date.UTC(2026, 2, 10, 8, 0);
  const range = windowRange("day", now, tz);
  const p = project(9, 10, range, now, tz);
  assert.ok(p);
  assert.is(Math.round(p.ratePerHour * 1000) / 1000, 1);
  assert.is(new Date(p.reachesAt as number).toISOString(), "2026-03-10T09:00:00.000Z");
  assert.is(p.reachesAtLocal, "10:00");
  assert.is(Math.round(p.projectedTotal), 24);
  // Slow spending: not reached before midnight.
  const slow = project(0.3, 10, range, now, tz);
  assert.is(slow?.reachesAt, null);
  assert.is(project(12, 10, range, now, tz), null, "already over the budget: nothing to project");
  assert.is(project(3, 10, windowRange("hour", now, tz), now, tz), null, "a rolling hour has no end to project to");
});

test.run();
