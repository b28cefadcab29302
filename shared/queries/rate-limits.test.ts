import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { Store } from "../store/store.js";
import { queryRateLimits } from "./rate-limits.js";

const NOW = Date.UTC(2026, 10, 24, 12, 0);
const MINUTE = 60_000;

function sample(store: Store, source: string, ts: number, used: number): void {
  store.db
    .prepare("INSERT INTO rate_limit_samples (ts, source_id, limit_id, primary_used, primary_window_minutes, primary_resets_at, plan_type) VALUES (?, ?, 'codex', ?, 300, ?, 'plus')")
    .run(ts, source, used, ts + 300 * MINUTE);
}

test("the newest sample of each asked source (rowid breaks a tie), in source order; one without samples is left out", () => {
  const store = Store.open(join(mkdtempSync(join(tmpdir(), "gi-rl-")), "insights.db"), { clock: manualClock(NOW) });
  for (let i = 0; i < 50; i++) sample(store, "codex:work", NOW - (60 - i) * MINUTE, i);
  sample(store, "codex:work", NOW - 10 * MINUTE, 71);
  sample(store, "codex:work", NOW - 10 * MINUTE, 72);
  sample(store, "codex:default", NOW - 400 * MINUTE, 5);
  sample(store, "codex:default", NOW - 5 * MINUTE, 9);
  sample(store, "codex:other", NOW - MINUTE, 99);
  const got = queryRateLimits(store, ["codex:work", "codex:default", "codex:none", "codex:work"], NOW);
  assert.equal(got.map((r) => [r.source, r.primary?.usedPercent, r.stale]), [
    ["codex:default", 9, false],
    ["codex:work", 72, false],
  ]);
  assert.equal(queryRateLimits(store, [], NOW), []);
  store.close();
});

test.run();
