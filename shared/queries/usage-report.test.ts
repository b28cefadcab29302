// The usage report over a store filled from the real Claude Code and Codex fixtures (copies, some
// files moved in time): every figure is checked against sums made here from the fixture lines
// (test/helpers/usage-expectations.ts), per day and per model, in UTC and in zones where a day
// boundary falls elsewhere; --since/--until; sessions with their sub-agent folded in; projects;
// raw rows and hourly rollups combined after retention without counting anything twice; an
// unpriced model; and the parameter checks.
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { InsightsError } from "../base/errors.js";
import { buildIndex } from "../pricing/dataset.js";
import { parsePriceOverrides } from "../pricing/overrides.js";
import { Pricer } from "../pricing/pricer.js";
import { ClaudeCodeProvider } from "../providers/claude-code/provider.js";
import { copyClaudeHome } from "../../test/helpers/claude-code-fixture.js";
import { CodexProvider } from "../providers/codex/provider.js";
import { copyCodexHome } from "../../test/helpers/codex-fixture.js";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { runRetention } from "../store/retention.js";
import { Store } from "../store/store.js";
import { claudeResponses, codexResponses, dayIn, fileNamed, figuresOf, groupBy, shiftTimestamps, sums, type ExpectedResponse } from "../../test/helpers/usage-expectations.js";
import { demoLocation } from "../open-data.js";
import { byKey as byKeyOf, expectedTotals, fixtureTranscripts, type ExpectedTotals } from "../../test/helpers/fixture-expectations.js";
import { fixtureCollector, fixtureReadModel } from "../../test/helpers/read-model.js";
import { parseUsageParams, type UsageReportParams } from "./usage-params.js";
import { queryUsageReport, type UsageFigures, type UsageReport } from "./usage-report.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** USD per million tokens, for every model but gpt-5-mini, which stays unpriced (the price list is empty). */
const PRICES: Record<string, { input: number; output: number; cacheRead: number; cacheWrite: number }> = {
  "claude-sonnet-4-5-20250929": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "claude-haiku-4-5-20251001": { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  "gpt-5-codex": { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
};
const UNPRICED = "gpt-5-mini";

function expectedCost(rs: readonly ExpectedResponse[]): { cost: number; unpriced: number } {
  let cost = 0;
  let unpriced = 0;
  for (const r of rs) {
    const p = PRICES[r.model];
    if (!p) {
      unpriced++;
      continue;
    }
    cost += (r.input * p.input + r.output * p.output + r.cacheRead * p.cacheRead + r.cacheWrite * p.cacheWrite) / 1e6;
  }
  return { cost, unpriced };
}

interface World {
  store: Store;
  responses: ExpectedResponse[];
  /** After the last response. */
  now: number;
}

let world: World;

test.before(async () => {
  const { claudeDir, home: claudeHome } = copyClaudeHome();
  const { codexDir, home: codexHome } = copyCodexHome();
  // A day boundary: session W1 (web-ui) 3 h later, past midnight UTC (still 23 Nov in New York).
  shiftTimestamps(fileNamed(path.join(claudeDir, "projects"), "a192c37f"), 3 * HOUR);
  // Old history: the infra-scripts gpt-5-codex session two days earlier.
  shiftTimestamps(fileNamed(path.join(codexDir, "sessions"), "01a20a4f-c0a7"), -2 * DAY);
  const responses = [...claudeResponses(claudeDir), ...codexResponses(codexDir)];
  const now = Date.UTC(2026, 10, 24, 12, 0);
  const clock = manualClock(now);
  const store = Store.open(path.join(makeTempDir(), "insights.db"), { clock });
  const overrides = parsePriceOverrides(
    Object.fromEntries(Object.entries(PRICES).map(([m, p]) => [m, { input: p.input, output: p.output, cacheRead: p.cacheRead, cacheWrite5m: p.cacheWrite, cacheWrite1h: p.cacheWrite }])),
    "test",
  );
  const pricer = new Pricer({ overrides, dataset: buildIndex([], "empty") });
  const collector = fixtureCollector({
    providers: [
      new ClaudeCodeProvider({ env: {}, home: claudeHome, dirs: [claudeDir], pricer }),
      new CodexProvider({ env: {}, home: codexHome, dirs: [codexDir], pricer }),
    ],
    side: null,
    store,
    clock,
  });
  const { degraded } = await collector.collectOnce(60_000);
  assert.equal(degraded, []);
  await collector.stop();
  world = { store, responses, now };
});

test.after(() => {
  world.store.close();
  removeTempDirs();
});

const params = (p: Partial<UsageReportParams> = {}): UsageReportParams => ({ report: "daily", provider: null, since: null, until: null, timeZone: "UTC", breakdown: true, weekStart: "monday", ...p });
const report = (p: Partial<UsageReportParams> = {}, o: { now?: number; rawDays?: number } = {}): UsageReport =>
  queryUsageReport(world.store, params(p), { now: o.now ?? world.now, rawDays: o.rawDays ?? 7, demo: false, scanComplete: true });

/** A row's figures against the fixture's responses: tokens exact, cost to the nano-dollar, unpriced counted. */
function assertFigures(row: UsageFigures, rs: readonly ExpectedResponse[], what: string): void {
  assert.equal(figuresOf(row), sums(rs), `${what}: tokens`);
  const { cost, unpriced } = expectedCost(rs);
  assert.ok(Math.abs(row.costUsd - cost) < 1e-8, `${what}: cost ${row.costUsd} != ${cost}`);
  assert.is(row.unpricedResponses, unpriced, `${what}: unpriced`);
  assert.is(row.costComplete, unpriced === 0, `${what}: costComplete`);
}

function assertDaily(r: UsageReport, rs: readonly ExpectedResponse[], zone: string): void {
  const byDay = groupBy(rs, (x) => dayIn(x.ts, zone));
  assert.equal(
    r.rows.map((x) => x.key),
    [...byDay.keys()],
    `days in ${zone}`,
  );
  for (const row of r.rows) {
    const day = byDay.get(row.key) ?? [];
    assertFigures(row, day, `${zone} ${row.key}`);
    const byModel = groupBy(day, (x) => x.model);
    assert.equal(row.models, [...byModel.keys()], `${row.key}: models`);
    assert.equal(new Set(row.breakdown?.map((b) => b.model)), new Set(byModel.keys()));
    for (const b of row.breakdown ?? []) assertFigures(b, byModel.get(b.model) ?? [], `${zone} ${row.key} ${b.model}`);
  }
  assertFigures(r.totals, rs, `${zone} totals`);
}

test("the fixture has what the tests below rely on", () => {
  const days = new Set(world.responses.map((r) => dayIn(r.ts, "UTC")));
  assert.equal([...days].sort(), ["2026-11-21", "2026-11-23", "2026-11-24"]);
  assert.ok(world.responses.some((r) => r.model === UNPRICED), "an unpriced model");
  assert.ok(world.responses.some((r) => r.reasoning > 0), "reasoning tokens (Codex)");
  assert.ok(world.responses.some((r) => r.session === "ae24cb29-2728-49b1-a664-ab5bcd4d2ced" && r.model.startsWith("claude")), "the session with a sub-agent");
});

test("daily in UTC: per day and per model, as the fixture lines sum up; the unpriced model is partial, never $0", () => {
  const r = report();
  assert.is(r.schemaVersion, 1);
  assert.is(r.report, "daily");
  assert.is(r.timeZone, "UTC");
  assertDaily(r, world.responses, "UTC");
  const nov23 = r.rows.find((x) => x.key === "2026-11-23");
  assert.equal(nov23?.unpricedModels, [UNPRICED]);
  assert.is(nov23?.costComplete, false);
  assert.ok((nov23?.costUsd ?? 0) > 0, "the priced part is still counted");
  assert.equal(r.totals.providers, ["claude-code", "codex"]);
  assert.equal(r.totals.sources, ["claude-code:default", "codex:default"]);
  assert.equal(r.rows.find((x) => x.key === "2026-11-21")?.providers, ["codex"]);
});

test("a day boundary in other zones: New York keeps the late session on the 23rd, Tokyo moves everything a day on", () => {
  for (const zone of ["America/New_York", "Asia/Tokyo", "Asia/Kathmandu"]) assertDaily(report({ timeZone: zone }), world.responses, zone);
  assert.equal(
    report({ timeZone: "America/New_York" }).rows.map((x) => x.key),
    ["2026-11-21", "2026-11-23"],
  );
  assert.equal(
    report({ timeZone: "Asia/Tokyo" }).rows.map((x) => x.key),
    ["2026-11-22", "2026-11-24"],
  );
});

test("--since/--until are inclusive days in the zone; monthly sums the days it keeps", () => {
  const in23 = world.responses.filter((x) => dayIn(x.ts, "UTC") === "2026-11-23");
  const one = report({ since: "2026-11-22", until: "2026-11-23" });
  assert.equal(
    one.rows.map((x) => x.key),
    ["2026-11-23"],
  );
  assertFigures(one.totals, in23, "since/until totals");
  // The same range in New York also holds the session that is past midnight UTC.
  const ny = report({ since: "2026-11-23", until: "2026-11-23", timeZone: "America/New_York" });
  assertFigures(ny.totals, world.responses.filter((x) => dayIn(x.ts, "America/New_York") === "2026-11-23"), "New York 23rd");
  assert.ok(ny.totals.responses > one.totals.responses);
  const open = report({ since: "2026-11-24" });
  assert.equal(
    open.rows.map((x) => x.key),
    ["2026-11-24"],
  );
  const monthly = report({ report: "monthly" });
  assert.equal(
    monthly.rows.map((x) => x.key),
    ["2026-11"],
  );
  assertFigures(monthly.rows[0] as UsageFigures, world.responses, "November");
  const lateMonth = report({ report: "monthly", since: "2026-11-23" });
  assertFigures(lateMonth.totals, world.responses.filter((x) => dayIn(x.ts, "UTC") >= "2026-11-23"), "November from the 23rd");
  assert.equal(report({ since: "2026-12-01" }).rows, []);
});

test("--provider keeps one provider's sources", () => {
  const codex = report({ provider: "codex" });
  assertDaily(codex, world.responses.filter((x) => x.sourceId.startsWith("codex:")), "UTC");
  assert.equal(codex.totals.providers, ["codex"]);
  assert.is(codex.provider, "codex");
  assertFigures(report({ provider: "claude-code" }).totals, world.responses.filter((x) => x.sourceId.startsWith("claude-code:")), "claude-code");
  assert.equal(report({ provider: "openclaw" }).rows, []);
});

test("session: one row per session, its sub-agent folded in, by last activity; project, times, models", () => {
  const r = report({ report: "session" });
  const bySession = groupBy(world.responses, (x) => x.session);
  assert.equal(new Set(r.rows.map((x) => x.key)), new Set(bySession.keys()));
  for (const row of r.rows) {
    const rs = bySession.get(row.key) ?? [];
    assertFigures(row, rs, `session ${row.key}`);
    assert.is(row.project, rs[0]?.project);
    assert.equal(row.models, [...groupBy(rs, (x) => x.model).keys()]);
    assert.is(row.providers.length, 1);
  }
  const lastOf = (key: string): number => Math.max(...(bySession.get(key) ?? []).map((x) => x.ts));
  const order = [...bySession.keys()].sort((a, b) => lastOf(a) - lastOf(b));
  assert.equal(
    r.rows.map((x) => x.key),
    order,
    "by last activity, oldest first",
  );
  const parent = r.rows.find((x) => x.key === "ae24cb29-2728-49b1-a664-ab5bcd4d2ced");
  assert.is(parent?.subagents, 1);
  assert.not.ok(r.rows.some((x) => x.key.includes(":subagent:")), "no sub-agent row of its own");
  assert.ok(Date.parse(parent?.lastActivityAt ?? "") >= lastOf("ae24cb29-2728-49b1-a664-ab5bcd4d2ced") - 1000);
  assertFigures(r.totals, world.responses, "session totals");
  // A session counts on the day of its last activity.
  const old = report({ report: "session", until: "2026-11-22" });
  assert.equal(
    old.rows.map((x) => x.providers),
    [["codex"]],
  );
  assert.is(old.rows[0]?.project, "/home/op/projects/infra-scripts");
});

test("project: one row per working directory", () => {
  const r = report({ report: "project" });
  const byProject = groupBy(world.responses, (x) => x.project);
  assert.equal(
    r.rows.map((x) => x.key),
    [...byProject.keys()],
  );
  for (const row of r.rows) assertFigures(row, byProject.get(row.key) ?? [], `project ${row.key}`);
});

/** The Monday (or `startDow`: 0 Sunday) on or before `day`, computed here from the calendar. */
function weekStartOf(day: string, startDow: number): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  let d = t;
  while (new Date(d).getUTCDay() !== startDow) d -= DAY;
  return new Date(d).toISOString().slice(0, 10);
}

test("weekly: weeks from Monday by default, from any day with weekStart; each week as its days' responses sum up", () => {
  for (const [weekStart, dow] of [["monday", 1], ["sunday", 0], ["saturday", 6]] as const) {
    const r = report({ report: "weekly", weekStart });
    assert.is(r.weekStart, weekStart);
    const byWeek = groupBy(world.responses, (x) => weekStartOf(dayIn(x.ts, "UTC"), dow));
    assert.equal(r.rows.map((x) => x.key), [...byWeek.keys()].sort(), weekStart);
    for (const row of r.rows) {
      assert.is(new Date(`${row.key}T00:00:00Z`).getUTCDay(), dow, `${row.key} is a ${weekStart}`);
      assertFigures(row, byWeek.get(row.key) ?? [], `week of ${row.key}`);
    }
    assertFigures(r.totals, world.responses, `${weekStart} totals`);
  }
  // The fixture's days (Sat 21, Mon 23, Tue 24) fall in two Monday weeks and two Sunday weeks, split differently.
  assert.equal(report({ report: "weekly" }).rows.map((x) => x.key), ["2026-11-16", "2026-11-23"]);
  assert.equal(report({ report: "weekly", weekStart: "sunday" }).rows.map((x) => x.key), ["2026-11-15", "2026-11-22"]);
  assert.is(parseUsageParams({ report: "weekly" }, "UTC").weekStart, "monday");
  assert.is(parseUsageParams({ report: "weekly" }, "UTC", "sunday").weekStart, "sunday", "the config's weekStart");
  assert.is(parseUsageParams({ report: "weekly", weekStart: "Sun" }, "UTC", "monday").weekStart, "sunday", "the flag wins");
});

test("daily, weekly, monthly: one figure per provider in each row, as each provider's responses sum up", () => {
  const providerOf = (x: ExpectedResponse): string => (x.sourceId.startsWith("claude-code:") ? "claude-code" : "codex");
  for (const kind of ["daily", "weekly", "monthly"] as const) {
    const r = report({ report: kind });
    for (const row of r.rows) {
      const keyOf = (x: ExpectedResponse): string => (kind === "daily" ? dayIn(x.ts, "UTC") : kind === "monthly" ? dayIn(x.ts, "UTC").slice(0, 7) : weekStartOf(dayIn(x.ts, "UTC"), 1));
      const mine = world.responses.filter((x) => keyOf(x) === row.key);
      const byProvider = groupBy(mine, providerOf);
      assert.equal(row.byProvider?.map((b) => b.provider), ["claude-code", "codex"].filter((p) => byProvider.has(p)), `${kind} ${row.key}`);
      for (const b of row.byProvider ?? []) assertFigures(b, byProvider.get(b.provider) ?? [], `${kind} ${row.key} ${b.provider}`);
    }
  }
  assert.is(report({ report: "session" }).rows[0]?.byProvider, undefined, "sessions are one provider's each");
});

/** 5-hour blocks by the documented rule, done here: start at the first response floored to the hour; a response more than 5 h after the start or after the previous one starts the next. */
function expectedBlocks(rs: readonly ExpectedResponse[]): Array<{ start: number; rs: ExpectedResponse[] }> {
  const out: Array<{ start: number; rs: ExpectedResponse[] }> = [];
  for (const x of [...rs].sort((a, b) => a.ts - b.ts)) {
    const cur = out.at(-1);
    const prev = cur?.rs.at(-1);
    if (cur && prev && x.ts - cur.start <= 5 * HOUR && x.ts - prev.ts <= 5 * HOUR) cur.rs.push(x);
    else out.push({ start: Math.floor(x.ts / HOUR) * HOUR, rs: [x] });
  }
  return out;
}

test("blocks: Claude Code's 5-hour blocks by default; another provider's on request, with the gap between two blocks", () => {
  const claude = world.responses.filter((x) => x.sourceId.startsWith("claude-code:"));
  const r = report({ report: "blocks" });
  assert.is(r.provider, "claude-code");
  const want = expectedBlocks(claude);
  assert.equal(r.rows.map((x) => x.block?.start), want.map((b) => new Date(b.start).toISOString()));
  for (const [i, row] of r.rows.entries()) {
    const b = want[i]!;
    assertFigures(row, b.rs, `block ${row.key}`);
    assert.equal(row.block?.end, new Date(b.start + 5 * HOUR).toISOString());
    assert.is(row.block?.lastActivityAt, new Date(Math.max(...b.rs.map((x) => x.ts))).toISOString());
    assert.is(row.block?.active, false, "a day later nothing is active");
    assert.is(row.block?.projection, null);
  }
  // Codex: the session two days earlier is its own block, and the silence between is a gap row.
  const codex = world.responses.filter((x) => x.sourceId.startsWith("codex:"));
  const cx = report({ report: "blocks", provider: "codex" });
  const cw = expectedBlocks(codex);
  assert.ok(cw.length >= 2, "two blocks apart");
  const blocks = cx.rows.filter((x) => !x.block?.gap);
  assert.equal(blocks.map((x) => x.block?.start), cw.map((b) => new Date(b.start).toISOString()));
  for (const [i, row] of blocks.entries()) assertFigures(row, cw[i]!.rs, `codex block ${row.key}`);
  const gaps = cx.rows.filter((x) => x.block?.gap);
  assert.is(gaps.length, cw.length - 1);
  const lastOfFirst = Math.max(...cw[0]!.rs.map((x) => x.ts));
  assert.equal([gaps[0]?.block?.start, gaps[0]?.block?.end, gaps[0]?.totalTokens], [new Date(lastOfFirst + 5 * HOUR).toISOString(), new Date(Math.min(...cw[1]!.rs.map((x) => x.ts))).toISOString(), 0]);
});

test("blocks: the active block's burn rate and its projection to the block's end, marked as an estimate", () => {
  const claude = world.responses.filter((x) => x.sourceId.startsWith("claude-code:"));
  const last = expectedBlocks(claude).at(-1)!;
  const first = Math.min(...last.rs.map((x) => x.ts));
  const lastTs = Math.max(...last.rs.map((x) => x.ts));
  const end = last.start + 5 * HOUR;
  const now = lastTs + 10 * 60_000;
  assert.ok(now < end && lastTs > first, "the fixture's last block can be active and spans time");
  const r = queryUsageReport(world.store, params({ report: "blocks" }), { now, rawDays: 7, demo: false, scanComplete: true });
  const row = r.rows.at(-1)!;
  assert.is(row.block?.active, true);
  const tokens = sums(last.rs).total;
  const { cost } = expectedCost(last.rs);
  const minutes = (lastTs - first) / 60_000;
  const rate = row.block?.burnRate;
  assert.ok(rate && Math.abs(rate.tokensPerMinute - tokens / minutes) < 1e-6, `tokens/min ${rate?.tokensPerMinute}`);
  assert.ok(rate && Math.abs(rate.costPerHour - (cost / minutes) * 60) < 1e-6, `cost/h ${rate?.costPerHour}`);
  const remaining = (end - now) / 60_000;
  const p = row.block?.projection;
  assert.equal([p?.estimate, p?.endsAt, p?.remainingMinutes, p?.totalTokens], [true, new Date(end).toISOString(), Math.round(remaining), Math.round(tokens + (tokens / minutes) * remaining)]);
  assert.ok(p && Math.abs(p.costUsd - (cost + (cost / minutes) * remaining)) < 1e-6, `projected cost ${p?.costUsd}`);
  // Earlier blocks are never active.
  for (const x of r.rows.slice(0, -1)) assert.is(x.block?.active, false);
});

test("raw rows and hourly rollups combined after retention: the same figures, nothing counted twice", () => {
  const before = report({}, { now: world.now + DAY, rawDays: 2 });
  assertDaily(before, world.responses, "UTC");
  // Two days kept raw: the 21st is rolled up (it was never, having been read late) and deleted.
  const retentionAt = world.now + DAY;
  runRetention(world.store, { rawDays: 2, rollupDays: 90 }, retentionAt);
  const rawLeft = world.store.db.prepare("SELECT count(*) AS n FROM token_usage WHERE ts < ?").get(Date.UTC(2026, 10, 22)) as { n: number };
  assert.is(rawLeft.n, 0, "the 21st's raw rows are gone");
  const hourly = world.store.db.prepare("SELECT count(*) AS n FROM token_usage_hourly WHERE hour < ?").get(Date.UTC(2026, 10, 22)) as { n: number };
  assert.ok(hourly.n > 0, "and its hours are rolled up");
  assertDaily(report({}, { now: retentionAt, rawDays: 2 }), world.responses, "UTC");
  // A smaller raw window at query time: hours that have both rollups and raw rows count once.
  const bothKept = world.store.db.prepare("SELECT count(*) AS n FROM token_usage_hourly WHERE hour >= ?").get(Date.UTC(2026, 10, 23)) as { n: number };
  assert.ok(bothKept.n > 0, "recent hours are rolled up and still raw");
  assertDaily(report({}, { now: retentionAt, rawDays: 1 }), world.responses, "UTC");
  assertDaily(report({ timeZone: "America/New_York" }, { now: retentionAt, rawDays: 1 }), world.responses, "America/New_York");
  // Projects survive in the rollups; sessions come from lifetime totals, which retention never prunes.
  const projects = report({ report: "project" }, { now: retentionAt, rawDays: 1 });
  const byProject = groupBy(world.responses, (x) => x.project);
  for (const row of projects.rows) assertFigures(row, byProject.get(row.key) ?? [], `project ${row.key} after retention`);
  assertFigures(report({ report: "session" }, { now: retentionAt, rawDays: 1 }).totals, world.responses, "sessions after retention");
});

test("OpenClaw: a sub-agent the session index names is folded into its parent; projects by agent", async () => {
  // The bundled demo state has an OpenClaw sub-agent (its transcripts do not name the parent).
  const now = Date.UTC(2026, 10, 24, 12, 0);
  const demo = demoLocation(path.join(makeTempDir(), "demo"), now);
  const { model, store } = await fixtureReadModel(demo.dir, now);
  try {
    const byKey = new Map<string, ExpectedTotals>();
    for (const [key, ts] of byKeyOf(fixtureTranscripts(demo.dir))) byKey.set(key, expectedTotals(ts));
    const sub = [...byKey.keys()].find((k) => k.startsWith("agent:main:subagent:")) as string;
    assert.ok(sub && (byKey.get(sub)?.total ?? 0) > 0, "the demo's sub-agent has usage");
    const r = model.usageReport(params({ report: "session", breakdown: false }));
    assert.not.ok(r.rows.some((x) => x.key === sub), "no row of its own");
    const parent = r.rows.find((x) => x.key === "agent:main:main");
    assert.is(parent?.subagents, 1);
    const main = byKey.get("agent:main:main") as ExpectedTotals;
    const child = byKey.get(sub) as ExpectedTotals;
    assert.is(parent?.totalTokens, main.total + child.total);
    assert.ok(Math.abs((parent?.costUsd ?? 0) - (main.costUsd + child.costUsd)) < 1e-9);
    assert.is(parent?.project, null);
    const projects = model.usageReport(params({ report: "project", breakdown: false }));
    assert.equal(
      projects.rows.map((x) => x.key),
      ["agent:main"],
    );
    assert.is(projects.totals.totalTokens, [...byKey.values()].reduce((a, t) => a + t.total, 0));
  } finally {
    store.close();
  }
});

test("parameters: days in both forms, zones by Intl, providers by name or enum; bad ones are INVALID_PARAM naming the flag", () => {
  const p = parseUsageParams({ report: "session", provider: "PROVIDER_C", since: "20261101", until: "2026-11-30", timeZone: "europe/berlin", breakdown: true }, "UTC");
  assert.equal(p, { report: "session", provider: "codex", since: "2026-11-01", until: "2026-11-30", timeZone: "Europe/Berlin", breakdown: true, weekStart: "monday" });
  assert.equal(parseUsageParams({}, "Asia/Tokyo"), { report: "daily", provider: null, since: null, until: null, timeZone: "Asia/Tokyo", breakdown: false, weekStart: "monday" });
  assert.is(parseUsageParams({ provider: "Claude-Code" }, "UTC").provider, "claude-code");
  // The zone as typed, not the older alias Intl resolves it to (Asia/Kolkata is Asia/Calcutta to ICU).
  assert.is(parseUsageParams({ timeZone: "Asia/Kolkata" }, "UTC").timeZone, "Asia/Kolkata");
  assert.is(parseUsageParams({}, "Asia/Kolkata").timeZone, "Asia/Kolkata");
  const bad = (raw: Record<string, unknown>, message: RegExp): void => {
    try {
      parseUsageParams(raw, "UTC");
      assert.unreachable(`accepted ${JSON.stringify(raw)}`);
    } catch (err) {
      assert.instance(err, InsightsError);
      assert.is((err as InsightsError).code, "INVALID_PARAM");
      assert.match((err as Error).message, message);
    }
  };
  bad({ since: "2026-02-30" }, /invalid --since "2026-02-30": expected a day as YYYY-MM-DD or YYYYMMDD/);
  bad({ until: "2026-1130" }, /invalid --until/);
  bad({ until: "yesterday" }, /invalid --until/);
  bad({ since: "2026-11-24", until: "2026-11-23" }, /--since 2026-11-24 is after --until 2026-11-23/);
  bad({ timeZone: "Mars/Olympus" }, /invalid --timezone "Mars\/Olympus": not an IANA time zone/);
  bad({ timeZone: "" }, /invalid --timezone/);
  bad({ provider: "gemini" }, /invalid --provider "gemini"; allowed: openclaw \(OpenClaw\), claude-code \(Claude Code\), codex \(Codex\), gemini-cli \(Gemini CLI\)$/);
  bad({ provider: "constructor" }, /invalid --provider/);
  bad({ report: "yearly" }, /invalid report "yearly"; allowed: daily, weekly, monthly, session, project, blocks/);
  bad({ weekStart: "someday" }, /invalid --week-start "someday"; allowed: sunday, monday/);
  bad({ breakdown: "yes" }, /--breakdown must be true or false/);
  bad({ since: 20261101 }, /--since must be a string/);
  bad({ sinse: "2026-11-01" }, /unknown usage parameter "sinse"/);
  bad({ ["constructor"]: 1 }, /unknown usage parameter "constructor"/);
});

test.run();
