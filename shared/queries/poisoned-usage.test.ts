// Absurd usage numbers in a transcript (1e308, -5, 1.5 tokens, a $1e308 cost) must not poison
// any total: they are refused field by field (BAD_FIELD warnings) and every other figure stays
// what the fixture's own rows say. A store an older version filled with such a row is repaired on
// open (migration 5) and re-read, and the queries never hand GraphQL or /metrics a non-finite or
// negative sum. Expected numbers come from the fixture files (test/helpers/fixture-expectations).
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildMetrics } from "../../daemon/http/routes/metrics.js";
import type { HttpServer } from "../../daemon/http/server.js";
import { expectedTotals, FIXTURE_NOW, fixtureTranscripts, type FixtureTranscript } from "../../test/helpers/fixture-expectations.js";
import { downgradeToV4 } from "../../test/helpers/old-store.js";
import { fixtureReadModel, type FixtureModel } from "../../test/helpers/read-model.js";
import { manualClock } from "../base/clock.js";
import { copyFixture, FILES_FIXTURE, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";
import { MIGRATIONS } from "../store/migrations.js";
import { Store } from "../store/store.js";
import type { ReadModel } from "./read-model.js";

test.after(removeTempDirs);

const near = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} != ${b}`);
const k = (n: number): number => Math.round(n / 10) / 100;

/** Three assistant messages whose usage is all refused: two 1e308 (their sum overflows to Infinity) and one negative. */
const BAD_USAGES = [
  { input: 1e308, output: 1e308, cacheRead: -5, cacheWrite: 1.5, totalTokens: 1e308, cost: { total: 1e308 } },
  { input: 1e308, output: 1e308, cacheRead: -5, cacheWrite: 1.5, totalTokens: 1e308, cost: { total: 1e308 } },
  { input: -5, output: -5, totalTokens: -10, cost: { total: -1 } },
];
/** BAD_FIELD warnings the rows above must raise: 6 + 6 + 4 refused fields. */
const BAD_FIELDS = 16;

function badEvents(after: FixtureTranscript): Array<{ json: string; ms: number }> {
  const last = Math.max(...after.events.map((e) => Date.parse(String(e.timestamp))).filter((t) => !Number.isNaN(t)));
  return BAD_USAGES.map((usage, i) => {
    const ms = last + (i + 1) * 1000;
    const event = {
      type: "message",
      id: `bad-usage-${i}`,
      parentId: null,
      timestamp: new Date(ms).toISOString(),
      message: { role: "assistant", content: [{ type: "text", text: "poison" }], api: "openai-completions", provider: "fakellm", model: "fake-model", usage, stopReason: "stop", timestamp: ms },
    };
    return { json: JSON.stringify(event), ms };
  });
}

/** Appends the bad messages to `target` in the copy, in whichever era it is stored. */
function inject(dir: string, fixture: string, target: FixtureTranscript): void {
  const events = badEvents(target);
  if (fixture === SQLITE_FIXTURE) {
    const db = new Database(join(dir, "agents/main/agent/openclaw-agent.sqlite"));
    try {
      const max = (db.prepare("SELECT max(seq) AS m FROM transcript_events WHERE session_id = ?").get(target.sessionId) as { m: number }).m;
      const insert = db.prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)");
      events.forEach((e, i) => insert.run(target.sessionId, max + 1 + i, e.json, e.ms));
    } finally {
      db.close();
    }
  } else {
    appendFileSync(join(dir, "agents/main/sessions", `${target.sessionId}.jsonl`), events.map((e) => `${e.json}\n`).join(""));
  }
}

function allFinite(what: string, value: unknown): void {
  const walk = (v: unknown, path: string): void => {
    if (typeof v === "number") assert.ok(Number.isFinite(v) && v >= 0, `${what}${path} = ${v}`);
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v && typeof v === "object") for (const [key, x] of Object.entries(v)) walk(x, `${path}.${key}`);
  };
  walk(value, "");
}

function metricsText(model: ReadModel): string {
  const http = { requestStats: () => [] } as unknown as HttpServer;
  return buildMetrics({ model, http, live: () => ({ dataChanged: 0, logs: 0, dropped: 0 }) });
}

/** Every figure of the read model that sums usage, checked finite and equal to the pristine fixture's. */
function assertPristine(f: FixtureModel, transcripts: FixtureTranscript[], extraAssistants: number): void {
  const { model } = f;
  const all = expectedTotals(transcripts);
  const life = model.lifetimeStats("agent:main");
  allFinite("lifetimeStats", life);
  assert.is(life.totalInputTokens, all.input);
  assert.is(life.totalOutputTokens, all.output);
  assert.is(life.totalCacheReadTokens, all.cacheRead);
  assert.is(life.totalCacheWriteTokens, all.cacheWrite);
  assert.is(life.totalTokens, all.total);
  assert.is(life.totalUserMessages, all.userMessages);
  assert.is(life.totalAssistantMessages, all.assistantMessages + extraAssistants);
  near(life.totalCostUsd, all.costUsd, "lifetime cost");

  const sessions = model.sessions("agent:main", { grouped: false });
  allFinite("sessions", sessions.map(({ contextTokens: _c, contextWindow: _w, usagePercent: _u, ...s }) => s));
  for (const s of sessions) {
    const e = expectedTotals(transcripts.filter((t) => t.sessionKey === s.key));
    assert.is(s.totalTokens, e.total, `${s.key} tokens`);
    near(s.costUsd, e.costUsd, `${s.key} cost`);
  }

  const m = model.metrics("agent:main", { range: "TWENTY_FOUR_HOUR" });
  allFinite("metrics", { ...m, uptimePercent: 0, buckets: m.buckets.map((b) => ({ ...b, uptimePercent: 0 })) });
  assert.is(m.totalTokensK, k(all.total));
  assert.is(m.rangeTokensK, k(all.total), "every fixture message lies in the last 24 hours");
  near(m.costUsd, all.costUsd, "metrics cost");

  const counters = model.modelCounters();
  allFinite("modelCounters", counters.map(({ sourceId: _a, model: _m, provider: _p, project: _j, ...c }) => c));
  const sum = (f: (c: (typeof counters)[number]) => number): number => counters.reduce((a, c) => a + f(c), 0);
  assert.is(sum((c) => c.input + c.output + c.cacheRead + c.cacheWrite), all.total);
  assert.is(sum((c) => c.messages), all.assistantMessages + extraAssistants);
  near(sum((c) => c.costUsd), all.costUsd, "counter cost");

  allFinite("usageCost", model.usageCost("agent:main"));
  near(model.usageCost("agent:main").totalUsd, all.costUsd, "usageCost total");

  const text = metricsText(model);
  assert.not.match(text, /Inf|NaN/);
  const tokenSamples = text.split("\n").filter((l) => /^openclaw_(tokens|cost_usd)_total\{/.test(l));
  assert.ok(tokenSamples.length > 0);
  for (const l of tokenSamples) assert.ok(Number(l.slice(l.lastIndexOf(" ") + 1)) >= 0, l);
}

for (const fixture of [SQLITE_FIXTURE, FILES_FIXTURE]) {
  test(`${fixture}: absurd usage in one transcript is refused field by field; every total stays the fixture's`, async () => {
    const pristineDir = copyFixture(fixture);
    const baseline = await fixtureReadModel(pristineDir);
    const baselineWarnings = baseline.model.agent("agent:main").warnings;
    await baseline.collector.stop();

    const dir = copyFixture(fixture);
    const transcripts = fixtureTranscripts(dir);
    const target = transcripts.find((t) => t.sessionKey !== null);
    assert.ok(target, "the fixture has a keyed transcript");
    inject(dir, fixture, target);

    const f = await fixtureReadModel(dir);
    assert.equal(f.degraded, []);
    // The three messages count as messages; none of their refused numbers counts anywhere.
    assertPristine(f, transcripts, BAD_USAGES.length);
    assert.is(f.model.agent("agent:main").warnings, baselineWarnings + BAD_FIELDS, "one BAD_FIELD warning per refused field");

    // The transcript view sums per-message tokens too.
    const page = f.model.sessionTranscript("agent:main", { sessionKey: target.sessionKey as string, limit: 500 });
    allFinite("transcript", page.messages.map((msg) => ({ i: msg.inputTokens, o: msg.outputTokens, r: msg.cacheReadTokens, w: msg.cacheWriteTokens })));
    await f.collector.stop();
  });
}

test("a store an older version filled with poisoned rows is repaired on open, re-read once, and counts nothing twice", async () => {
  const dir = copyFixture(SQLITE_FIXTURE);
  const transcripts = fixtureTranscripts(dir);
  const storeFile = join(makeTempDir(), "insights.db");
  const first = await fixtureReadModel(dir, FIXTURE_NOW, { storeFile });
  await first.collector.stop();
  first.store.close();

  // What a version before the usage guard could have stored: an overflowed and a negative total,
  // an absurd per-message row, an infinite counter; then the schema as that version left it (v4).
  const keyed = transcripts.filter((t) => t.sessionKey !== null);
  assert.ok(keyed.length >= 2, "two keyed transcripts to poison");
  const [x, y] = keyed as [FixtureTranscript, FixtureTranscript];
  const raw = new Database(storeFile);
  raw.prepare("UPDATE transcript_totals SET input = 9e999, output = -5 WHERE session_id = ?").run(x.sessionId);
  raw.prepare("UPDATE transcript_models SET cost_usd = 9e999 WHERE session_id = ?").run(x.sessionId);
  raw.prepare("UPDATE token_usage SET output = -5 WHERE rowid = (SELECT min(rowid) FROM token_usage WHERE session_id = ? AND role = 'assistant')").run(y.sessionId);
  downgradeToV4(raw);
  const poisonedSum = (raw.prepare("SELECT sum(input) AS s FROM transcript_totals").get() as { s: number }).s;
  assert.is(poisonedSum, Infinity, "the setup reproduces the overflow an older store holds");
  const others = (sql: string): number => (raw.prepare(sql).get(x.sessionId, y.sessionId) as { n: number }).n;
  const keep = {
    totals: others("SELECT count(*) AS n FROM transcript_totals WHERE session_id NOT IN (?, ?)"),
    usage: others("SELECT count(*) AS n FROM token_usage WHERE session_id NOT IN (?, ?)"),
    cursors: others("SELECT count(*) AS n FROM scan_cursors WHERE item NOT IN (?, ?)"),
  };
  const usageRows = (raw.prepare("SELECT count(*) AS n FROM token_usage").get() as { n: number }).n;
  raw.close();

  const reopened = Store.open(storeFile, { clock: manualClock(FIXTURE_NOW) });
  assert.is(reopened.schemaVersion, Math.max(...MIGRATIONS.map((m) => m.version)), "migrated to the latest version");
  const count = (sql: string, ...args: string[]): number => (reopened.db.prepare(sql).get(...args) as { n: number }).n;
  for (const t of [x, y]) {
    assert.is(count("SELECT count(*) AS n FROM transcript_totals WHERE session_id = ?", t.sessionId), 0, "poisoned totals dropped");
    assert.is(count("SELECT count(*) AS n FROM token_usage WHERE session_id = ?", t.sessionId), 0, "poisoned usage rows dropped");
    assert.is(count("SELECT count(*) AS n FROM transcript_models WHERE session_id = ?", t.sessionId), 0, "poisoned counters dropped");
    assert.is(count("SELECT count(*) AS n FROM scan_cursors WHERE item = ?", t.sessionId), 0, "cursor dropped: read again");
  }
  assert.is(count(`SELECT count(*) AS n FROM transcript_totals WHERE session_id NOT IN (?, ?)`, x.sessionId, y.sessionId), keep.totals, "clean totals kept");
  assert.is(count(`SELECT count(*) AS n FROM token_usage WHERE session_id NOT IN (?, ?)`, x.sessionId, y.sessionId), keep.usage, "clean usage kept");
  assert.is(count(`SELECT count(*) AS n FROM scan_cursors WHERE item NOT IN (?, ?)`, x.sessionId, y.sessionId), keep.cursors, "clean cursors kept");
  reopened.close();

  // The next collection re-reads exactly the two dropped transcripts: totals, counters and usage
  // rows are the fixture's again, nothing counted twice; createdAt gets the backfilled headers.
  const f = await fixtureReadModel(dir, FIXTURE_NOW, { storeFile });
  assertPristine(f, transcripts, 0);
  assert.is((f.store.db.prepare("SELECT count(*) AS n FROM token_usage").get() as { n: number }).n, usageRows);
  assert.is(f.model.lifetimeStats("agent:main").createdAt, new Date(expectedTotals(transcripts).firstEvent as number).toISOString());

  // Should a sum still overflow or go negative (nothing written today can), the queries clamp it.
  f.store.db.prepare("UPDATE transcript_totals SET input = 9e999 WHERE session_id = ?").run(x.sessionId);
  f.store.db.prepare("UPDATE transcript_models SET output = -1e9, cost_usd = 9e999 WHERE session_id = ?").run(y.sessionId);
  f.store.db.prepare("UPDATE token_usage SET cache_read = 9e999 WHERE session_id = ?").run(x.sessionId);
  allFinite("lifetimeStats", f.model.lifetimeStats("agent:main"));
  allFinite("sessions", f.model.sessions("agent:main", { grouped: false }).map(({ contextTokens: _c, contextWindow: _w, usagePercent: _u, ...s }) => s));
  allFinite("metrics", f.model.metrics("agent:main", { range: "TWENTY_FOUR_HOUR" }).buckets.map((b) => ({ ...b, uptimePercent: 0 })));
  allFinite("usageCost", f.model.usageCost("agent:main"));
  allFinite("modelCounters", f.model.modelCounters().map(({ sourceId: _a, model: _m, provider: _p, project: _j, ...c }) => c));
  assert.not.match(metricsText(f.model), /Inf|NaN/);
  await f.collector.stop();
});

test.run();
