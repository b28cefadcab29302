// The built-in "rate-limit projected full before reset" rule over readings stored for two providers
// (Codex's and Claude Code's source ids, written straight into a temp store): it fires once per
// window whose burn rate fills it before the reset, says when in the alerts' zone, is not sent again
// while it holds, and clears once the projection falls back. The 80 %/100 % rule covers both too.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { queryRateLimits } from "../queries/rate-limits.js";
import { providersWith } from "../providers/registry.js";
import { providerIdentity } from "../providers/registry.js";
import { Store } from "../store/store.js";
import { step, type InstanceState } from "./evaluate.js";
import { summaryOf } from "./format.js";
import { HeldConditions, measure, type AlertInputs } from "./measure.js";
import { BUILTIN_RULES, resolveRule } from "./rules.js";

const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 24, 13, 0);
const ZONE = "Asia/Kolkata"; // +5:30 all year: the expected clock times below add it by hand

const SOURCES = providersWith("rateLimits").map((p) => `${providerIdentity(p).sourcePrefix}default`);

function storeWith(points: Array<[source: string, minutesAgo: number, used5h: number, used7d: number]>, reset5h: number, reset7d: number): Store {
  const store = Store.open(join(mkdtempSync(join(tmpdir(), "gi-rlp-")), "insights.db"), { clock: manualClock(NOW) });
  const ins = store.db.prepare(
    "INSERT INTO rate_limit_samples (ts, source_id, primary_used, primary_window_minutes, primary_resets_at, secondary_used, secondary_window_minutes, secondary_resets_at) VALUES (?, ?, ?, 300, ?, ?, 10080, ?)",
  );
  for (const [src, ago, a, b] of points) ins.run(NOW - ago * MIN, src, a, reset5h, b, reset7d);
  return store;
}

function inputs(store: Store, now: number): AlertInputs {
  return {
    now,
    timeZone: ZONE,
    sources: () => SOURCES.map((id) => ({ id, provider: id.split(":")[0] as string })),
    usage: () => [],
    eventCount: () => 0,
    sessions: () => [],
    gatewayState: () => null,
    checks: () => [],
    rateLimits: () => queryRateLimits(store, SOURCES, now),
  };
}

const builtin = (id: string) => {
  const r = BUILTIN_RULES.find((x) => x.id === id);
  if (!r) throw new Error(`no built-in ${id}`);
  return resolveRule(r, "builtin");
};
const hhmm = (ms: number): string => new Date(ms + 330 * MIN).toISOString().slice(11, 16);

test("every provider with rate limits: a window filling before its reset fires once, says when in the zone, and clears", () => {
  assert.ok(SOURCES.length >= 2, "Codex and Claude Code both declare rateLimits");
  const reset5h = NOW + 60 * MIN;
  const reset7d = NOW + 3 * 24 * 60 * MIN;
  // The 5-hour window: 20 points in 20 minutes from 50 %; the weekly one flat.
  const pts = SOURCES.flatMap((src) => [[src, 21, 50, 30] as const, [src, 11, 60, 30] as const, [src, 1, 70, 30] as const]);
  const store = storeWith(
    pts.map((p) => [...p]),
    reset5h,
    reset7d,
  );
  const rule = builtin("rate-limit-projection");
  assert.ok(rule.enabled);
  const samples = measure(rule, inputs(store, NOW), new HeldConditions()) ?? [];
  // Expected from the readings: 1 point a minute, the last at 70 % one minute ago.
  const fullAt = NOW - MIN + 30 * MIN;
  const atReset = 70 + (reset5h - (NOW - MIN)) / MIN;
  assert.equal(
    samples.map((s) => [s.subject, s.value]),
    SOURCES.map((src) => [`${src}/default/primary`, atReset]),
    "the 5-hour window of each provider; the flat weekly one measures nothing",
  );
  let states = new Map<string, InstanceState>();
  const r1 = step(rule, states, samples, { now: NOW, muted: false, lastSent: () => null });
  assert.equal(
    r1.transitions.map((t) => [t.kind, t.notify, t.state.severity]),
    SOURCES.map(() => ["firing", true, "warning"]),
  );
  for (const [i, src] of SOURCES.entries()) {
    const t = r1.transitions[i];
    if (!t) throw new Error("no transition");
    const text = summaryOf({ event: "firing", escalated: false, rule, alertId: t.state.alertId, subject: t.state.subject, label: t.state.label, severity: "warning", value: t.state.value, threshold: t.state.threshold, since: NOW, resolvedAt: null, projection: t.state.projection, timeZone: ZONE, host: "h", sentAt: NOW });
    assert.ok(text.includes(`5-hour window of ${src} projected full at ${hhmm(fullAt)}, resets ${hhmm(reset5h)} (${ZONE})`), text);
  }
  states = r1.states;
  // A minute later, still on course: nothing new is sent.
  const later = NOW + MIN;
  const r2 = step(rule, states, measure(rule, inputs(store, later), new HeldConditions()) ?? [], { now: later, muted: false, lastSent: () => NOW });
  assert.equal(r2.transitions, []);
  // The burn stops (flat readings): no projection, the alerts resolve.
  const flat = store.db.prepare("INSERT INTO rate_limit_samples (ts, source_id, primary_used, primary_window_minutes, primary_resets_at) VALUES (?, ?, 70, 300, ?)");
  for (const src of SOURCES) for (const m of [2, 8, 14, 20, 26]) flat.run(NOW + m * MIN, src, reset5h);
  const cleared = NOW + 27 * MIN;
  const r3 = step(rule, r2.states, measure(rule, inputs(store, cleared), new HeldConditions()) ?? [], { now: cleared, muted: false, lastSent: () => NOW });
  assert.equal(
    r3.transitions.map((t) => t.kind),
    SOURCES.map(() => "resolved"),
  );
  store.close();
});

test("a window that fills only after its reset raises nothing; the used-% rule still covers every provider", () => {
  const reset5h = NOW + 30 * MIN;
  const store = storeWith(
    SOURCES.flatMap((src) => [[src, 20, 88, 10] as [string, number, number, number], [src, 0, 92, 10] as [string, number, number, number]]),
    reset5h,
    NOW + 2 * 24 * 60 * MIN,
  );
  // 4 points in 20 minutes from 92 %: 6 more by the reset, under 100.
  const rule = builtin("rate-limit-projection");
  const samples = measure(rule, inputs(store, NOW), new HeldConditions()) ?? [];
  assert.equal(
    samples.map((s) => s.value),
    SOURCES.map(() => 92 + (4 / 20) * 30),
  );
  assert.equal(step(rule, new Map(), samples, { now: NOW, muted: false, lastSent: () => null }).transitions, []);
  const used = measure(builtin("rate-limit"), inputs(store, NOW), new HeldConditions()) ?? [];
  assert.equal(
    used.filter((s) => s.value >= 90).map((s) => s.subject),
    SOURCES.map((src) => `${src}/default/primary`),
  );
  store.close();
});

test.run();
