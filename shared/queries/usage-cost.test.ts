// usageCost by day and model: history older than the raw window that retention has not rolled up
// yet (a first scan just read it) counts from its raw rows, and once rolled up from the rollups,
// never from both.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { runRetention } from "../store/retention.js";
import { Store } from "../store/store.js";
import { queryUsageCost } from "./usage-cost.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

test("old raw rows without a rollup count; after retention the rollup counts instead, once", () => {
  const now = Date.UTC(2026, 10, 24, 12, 30);
  const store = Store.open(join(mkdtempSync(join(tmpdir(), "gi-cost-")), "insights.db"), { clock: manualClock(now) });
  const insert = store.db.prepare("INSERT INTO token_usage (ts, role, source_id, session_id, model, input, output, cache_read, cache_write, cost_usd) VALUES (?, 'assistant', 'claude-code:default', 's1', 'm', 100, 10, 0, 0, ?)");
  const old = Date.UTC(2026, 10, 14, 9, 10);
  insert.run(old, 0.25);
  insert.run(old + 60_000, 0.5);
  insert.run(now - HOUR, 1);
  const day = (c: ReturnType<typeof queryUsageCost>, d: string): number | undefined => c.byDay.find((x) => x.date === d)?.costUsd;
  const opts = { now, timeZone: "UTC", rawDays: 7 };
  const before = queryUsageCost(store, "claude-code:default", opts);
  assert.is(day(before, "2026-11-14"), 0.75, "read late, not rolled up yet: from its raw rows");
  assert.is(before.byModel[0]?.costUsd, 1.75);
  runRetention(store, { rawDays: 7, rollupDays: 90 }, now);
  assert.equal(store.db.prepare("SELECT count(*) AS n FROM token_usage WHERE ts < ?").get(now - 7 * DAY), { n: 0 });
  const after = queryUsageCost(store, "claude-code:default", opts);
  assert.equal(after.byDay, before.byDay);
  assert.equal(after.byModel, before.byModel);
  // A raw row kept beside its hour's rollup (a narrower window at query time) counts once.
  const narrow = queryUsageCost(store, "claude-code:default", { ...opts, rawDays: 0.01 });
  assert.is(day(narrow, "2026-11-24"), 1);
  store.close();
});

test.run();
