// History older than a day (issue 19): the week and month ranges count a fixture read five days
// after it was recorded exactly, from the raw rows and, once retention has rolled them up and
// deleted them, from the hourly rollups; the day range is empty but says when the last activity
// was; month-to-date spend counts the month. Expected figures come from the fixture files.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectedTotals, FIXTURE_NOW, fixtureTranscripts } from "../../test/helpers/fixture-expectations.js";
import { fixtureReadModel } from "../../test/helpers/read-model.js";
import { copyFixture, FILES_FIXTURE, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";
import { runRetention } from "../store/retention.js";
import type { Metrics } from "./metrics.js";
import { DAY, HOUR } from "./time.js";

test.after(removeTempDirs);

const NOW = FIXTURE_NOW + 5 * DAY;
const SOURCE = "agent:main";
const sum = (m: Metrics): number => m.buckets.reduce((n, b) => n + b.tokens, 0);
const cost = (m: Metrics): number => m.buckets.reduce((n, b) => n + b.costUsd, 0);

/** The newest message of the fixture (user, assistant or tool result): its last activity. */
function lastMessage(dir: string): number {
  let last = -Infinity;
  for (const t of fixtureTranscripts(dir)) {
    for (const e of t.events) {
      const m = e.message as { role?: string } | undefined;
      if (e.type === "message" && m && ["user", "assistant", "toolResult"].includes(String(m.role))) last = Math.max(last, Date.parse(String(e.timestamp)));
    }
  }
  return last;
}

for (const fixture of [FILES_FIXTURE, SQLITE_FIXTURE]) {
  test(`${fixture} read 5 days late: 24 h is empty and names the last activity; 7 and 30 days count every token`, async () => {
    const dir = copyFixture(fixture);
    const transcripts = fixtureTranscripts(dir);
    const all = expectedTotals(transcripts);
    assert.ok(all.total > 0, "the fixture has usage");
    const f = await fixtureReadModel(dir, NOW, { rawDays: 2 });
    assert.equal(f.degraded, []);

    const day = f.model.metrics(SOURCE, { range: "TWENTY_FOUR_HOUR" });
    const inDay = expectedTotals(transcripts, (ts) => ts >= Date.parse(day.from) && ts < Date.parse(day.to));
    assert.is(inDay.total, 0, "the fixture is older than a day at NOW");
    assert.is(sum(day), 0);
    assert.is(day.lastActivityAt, new Date(lastMessage(dir)).toISOString());

    const check = (label: string): void => {
      for (const range of ["SEVEN_DAY", "THIRTY_DAY"] as const) {
        const m = f.model.metrics(SOURCE, { range });
        const from = Date.parse(m.from);
        const to = Date.parse(m.to);
        assert.ok(to > NOW && to - NOW <= (range === "SEVEN_DAY" ? 6 * HOUR : DAY), `${range} ends with the bucket holding now`);
        const want = expectedTotals(transcripts, (ts) => ts >= from && ts < to);
        assert.is(want.total, all.total, `${range}: every fixture token is in the window`);
        assert.is(sum(m), want.total, `${label}: ${range} tokens`);
        assert.is(m.buckets.reduce((n, b) => n + b.inputTokens, 0), want.input, `${label}: ${range} input tokens`);
        assert.ok(Math.abs(cost(m) - want.costUsd) < 1e-6 * Math.max(1, want.costUsd) + m.buckets.length * 5e-5, `${label}: ${range} cost ${cost(m)} vs ${want.costUsd}`);
        assert.is(m.totalTurns, want.userMessages, `${label}: ${range} turns`);
        assert.is(m.buckets.length, range === "SEVEN_DAY" ? 28 : 30);
        // Projects over the same grid agree with metrics.
        const projects = f.model.projects(SOURCE, { range }).reduce((n, p) => n + p.totalTokens, 0);
        assert.is(projects, want.total, `${label}: ${range} projects`);
      }
    };
    check("raw rows");

    // Retention with a 2-day raw window rolls the fixture's rows up into hours and deletes them.
    runRetention(f.store, { rawDays: 2, rollupDays: 90 }, NOW);
    f.model.storeRewritten();
    assert.equal(f.store.db.prepare("SELECT count(*) AS n FROM token_usage WHERE source_id = ?").get(SOURCE), { n: 0 }, "no raw rows left");
    check("hourly rollups");

    // Month to date: the whole fixture is in November, as NOW is.
    const month = expectedTotals(transcripts, (ts) => ts >= Date.UTC(2026, 10, 1));
    const uc = f.model.usageCost(SOURCE);
    assert.is(uc.monthTokens, month.total);
    assert.ok(Math.abs(uc.monthUsd - month.costUsd) < 0.0001, `month ${uc.monthUsd} vs ${month.costUsd}`);
    f.store.close();
  });
}

test("a month's start is local midnight of the first, and an earlier month is not counted", async () => {
  const dir = copyFixture(FILES_FIXTURE);
  const transcripts = fixtureTranscripts(dir);
  // The first of December, 00:30 in Tokyo: November's usage is last month there.
  const now = Date.parse("2026-11-30T15:30:00Z");
  const f = await fixtureReadModel(dir, now);
  const tokyo = f.model.usageCost(SOURCE, "Asia/Tokyo");
  assert.is(tokyo.monthTokens, 0);
  assert.is(tokyo.monthUsd, 0);
  // Still November in UTC: all of it.
  assert.is(f.model.usageCost(SOURCE, "UTC").monthTokens, expectedTotals(transcripts).total);
  f.store.close();
});

test("the week's and the month's buckets start at local midnight in the caller's zone", async () => {
  const dir = copyFixture(FILES_FIXTURE);
  const f = await fixtureReadModel(dir, NOW);
  for (const [timeZone, offsetH] of [
    ["UTC", 0],
    ["Asia/Kolkata", 5.5],
    ["America/New_York", -5],
  ] as const) {
    const month = f.model.metrics(SOURCE, { range: "THIRTY_DAY", timeZone });
    const first = month.buckets[0];
    assert.ok(first);
    assert.is(((first.start * 1000 + offsetH * HOUR) % DAY + DAY) % DAY, 0, `${timeZone}: a day bucket starts at local midnight`);
    assert.is(first.end - first.start, DAY / 1000);
    const week = f.model.metrics(SOURCE, { range: "SEVEN_DAY", timeZone });
    assert.is(((week.buckets[0]!.start * 1000 + offsetH * HOUR) % (6 * HOUR) + 6 * HOUR) % (6 * HOUR), 0, `${timeZone}: a 6-hour bucket starts at 00, 06, 12 or 18 local`);
  }
  f.store.close();
});

test.run();
