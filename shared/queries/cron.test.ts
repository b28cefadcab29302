import { test } from "uvu";
import * as assert from "uvu/assert";
import type { CronJobInfo, CronRunInfo } from "../providers/contract.js";
import { jobView, OVERDUE_GRACE_MS } from "./cron.js";

const NOW = Date.UTC(2026, 10, 21, 12);

const job = (over: Partial<CronJobInfo> = {}): CronJobInfo => ({
  id: "j",
  name: "j",
  displayName: null,
  agentId: "main",
  enabled: true,
  schedule: { kind: "every", text: "every 2m", spec: null },
  lastRunAt: null,
  lastStatus: null,
  lastDurationMs: null,
  lastError: null,
  nextRunAt: NOW + 60_000,
  dueAt: NOW - 5 * 60_000,
  consecutiveErrors: 0,
  ...over,
});

const run = (status: string): CronRunInfo => ({
  jobId: "j", id: "r", runId: null, status, startedAt: NOW - 1000, finishedAt: null, durationMs: null, error: null,
  summary: null, sessionId: null, sessionKey: null, model: null, provider: null, totalTokens: -3, deliveryStatus: null,
});

test("overdue: enabled, not running, more than the grace past the scheduled run, by the given clock", () => {
  assert.equal(pick(jobView(job(), [], NOW)), { overdue: true, overdueSeconds: 300 });
  assert.equal(pick(jobView(job(), [run("ok")], NOW)), { overdue: true, overdueSeconds: 300 });
  assert.equal(pick(jobView(job(), [run("running")], NOW)), { overdue: false, overdueSeconds: null }, "a run in progress is not late");
  assert.equal(pick(jobView(job({ enabled: false }), [], NOW)), { overdue: false, overdueSeconds: null });
  assert.equal(pick(jobView(job({ dueAt: null }), [], NOW)), { overdue: false, overdueSeconds: null });
  assert.equal(pick(jobView(job({ dueAt: NOW - OVERDUE_GRACE_MS }), [], NOW)), { overdue: false, overdueSeconds: null }, "within the grace");
  assert.equal(pick(jobView(job({ dueAt: NOW - OVERDUE_GRACE_MS - 1000 }), [], NOW)), { overdue: true, overdueSeconds: 61 });
  assert.equal(pick(jobView(job({ dueAt: NOW + 1000 }), [], NOW)), { overdue: false, overdueSeconds: null });
});

test("a run's negative token total is not shown as a count", () => {
  assert.is(jobView(job(), [run("ok")], NOW).recentRuns[0]?.totalTokens, null);
});

function pick(v: { overdue: boolean; overdueSeconds: number | null }): { overdue: boolean; overdueSeconds: number | null } {
  return { overdue: v.overdue, overdueSeconds: v.overdueSeconds };
}

test.run();
