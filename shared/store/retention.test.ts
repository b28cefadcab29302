// Retention never deletes a raw row whose hour has no rollup: history read late (a first scan of
// transcripts older than retentionRawDays) and rows left by a daemon stopped for longer than that
// are rolled up before they go; an hour that already has a rollup keeps it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { runRetention } from "./retention.js";
import { Store } from "./store.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.UTC(2026, 10, 24, 12, 30);
const policy = { rawDays: 7, rollupDays: 90 };

function open(): Store {
  return Store.open(join(mkdtempSync(join(tmpdir(), "gi-retention-")), "insights.db"), { clock: manualClock(now) });
}

function usage(store: Store, ts: number, input: number, role: "user" | "assistant" = "assistant", source = "claude-code:default"): void {
  store.db
    .prepare("INSERT INTO token_usage (ts, role, source_id, session_id, session_key, model, input, output, cache_read, cache_write, cost_usd, reasoning, unpriced) VALUES (?, ?, ?, 's1', 'k1', 'm', ?, 2, 3, 4, 0.25, 1, 0)")
    .run(ts, role, source, input);
}

test("usage read late (older than the raw window, never rolled up) is rolled up before it is deleted", () => {
  const store = open();
  store.db.prepare("INSERT INTO session_meta (source_id, session_key, project) VALUES ('claude-code:default', 'k1', '/home/op/code/api')").run();
  const old = now - 20 * DAY - (now % HOUR);
  usage(store, old + 1000, 100, "user");
  usage(store, old + 2000, 10);
  usage(store, old + 3000, 20);
  usage(store, old + HOUR + 5, 30, "assistant", "codex:default");
  const r = runRetention(store, policy, now);
  assert.is(r.deleted.token_usage, 4);
  assert.equal(store.db.prepare("SELECT hour, source_id, model, project, turns, messages, input, output, cache_read, cache_write, cost_usd, reasoning FROM token_usage_hourly ORDER BY hour").all(), [
    { hour: old, source_id: "claude-code:default", model: "m", project: "/home/op/code/api", turns: 1, messages: 2, input: 130, output: 6, cache_read: 9, cache_write: 12, cost_usd: 0.75, reasoning: 3 },
    { hour: old + HOUR, source_id: "codex:default", model: "m", project: "", turns: 0, messages: 1, input: 30, output: 2, cache_read: 3, cache_write: 4, cost_usd: 0.25, reasoning: 1 },
  ]);
  store.close();
});

test("an hour that already has a rollup keeps it: its raw rows may be pruned in part", () => {
  const store = open();
  const hour = now - 8 * DAY - (now % HOUR);
  usage(store, hour + 10, 5);
  usage(store, hour + 20, 7);
  // The job ran when the hour was fresh.
  runRetention(store, policy, hour + HOUR + 60_000);
  // Half of the hour is past the cut-off of a later run; the other half stays raw a little longer.
  const cut = hour + 15 + policy.rawDays * DAY;
  runRetention(store, policy, cut);
  assert.equal(store.db.prepare("SELECT count(*) AS n FROM token_usage").get(), { n: 1 });
  runRetention(store, policy, now);
  assert.equal(store.db.prepare("SELECT hour, messages, input FROM token_usage_hourly").all(), [{ hour, messages: 2, input: 12 }]);
  store.close();
});

test("a session's project learned between two runs moves its rollup; nothing is counted twice once the raw rows go", () => {
  const store = open();
  const hour = now - 2 * DAY - (now % HOUR);
  usage(store, hour + 10, 5);
  usage(store, hour + 20, 7);
  // First run: the session's project is not known yet.
  runRetention(store, policy, hour + HOUR + 60_000);
  store.db.prepare("INSERT INTO session_meta (source_id, session_key, project) VALUES ('claude-code:default', 'k1', '/home/op/code/api')").run();
  runRetention(store, policy, now);
  // Later: the raw rows are pruned; the rollup is what remains.
  runRetention(store, policy, hour + (policy.rawDays + 1) * DAY);
  assert.equal(store.db.prepare("SELECT count(*) AS n FROM token_usage").get(), { n: 0 });
  assert.equal(store.db.prepare("SELECT hour, project, messages, input FROM token_usage_hourly").all(), [{ hour, project: "/home/op/code/api", messages: 2, input: 12 }]);
  store.close();
});

test("gateway samples a daemon left before a long stop are rolled up too", () => {
  const store = open();
  const last = now - 30 * DAY - (now % HOUR);
  const insert = store.db.prepare("INSERT INTO gateway_samples (ts, up, cpu_percent, rss_mb) VALUES (?, ?, ?, ?)");
  insert.run(last + 1000, 1, 10, 100);
  insert.run(last + 2000, 1, 30, 200);
  runRetention(store, policy, now);
  assert.equal(store.db.prepare("SELECT * FROM gateway_samples_hourly").all(), [{ hour: last, samples: 2, up_samples: 2, cpu_avg: 20, rss_max_mb: 200 }]);
  assert.equal(store.db.prepare("SELECT count(*) AS n FROM gateway_samples").get(), { n: 0 });
  store.close();
});

test("rate limits: old rows go, the newest of each source's limits stays (a per-model weekly window is a limit of its own)", () => {
  const store = open();
  const ins = store.db.prepare("INSERT INTO rate_limit_samples (ts, source_id, limit_id, primary_used, secondary_used) VALUES (?, ?, ?, ?, ?)");
  const old = now - 20 * DAY;
  // Claude Code's plan windows and its opus window, both last read long ago, the plan's once more than the opus one.
  ins.run(old, "claude-code:default", "claude", 10, 20);
  ins.run(old + 1, "claude-code:default", "claude:seven_day_opus", null, 30);
  ins.run(old + 2, "claude-code:default", "claude", 11, 21);
  const r = runRetention(store, policy, now);
  assert.is(r.deleted.rate_limit_samples, 1);
  assert.equal(store.db.prepare("SELECT ts, limit_id FROM rate_limit_samples ORDER BY ts").all(), [
    { ts: old + 1, limit_id: "claude:seven_day_opus" },
    { ts: old + 2, limit_id: "claude" },
  ]);
});

test.run();
