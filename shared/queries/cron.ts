// Cron jobs of one agent (design §5: cronJobs) from the collector's latest cron read. A job with
// no agent id runs on the gateway's default agent, so it is listed there. Whether a job is
// overdue is decided here, against the caller's (injected) clock, not at read time.
import type { CronJobInfo, CronRunInfo } from "../providers/contract.js";
import type { CronState } from "../ingest/collector.js";
import { iso } from "./time.js";

interface CronRunView {
  id: string;
  status: string;
  startedAt: string | null;
  durationMs: number | null;
  error: string | null;
  summary: string | null;
  sessionKey: string | null;
  totalTokens: number | null;
}

export interface CronJobView {
  id: string;
  name: string;
  agentId: string | null;
  enabled: boolean;
  /** Human form of the schedule: "every 2m", "0 3 * * * (Europe/Berlin)", "at 2026-11-22T08:00:00Z". */
  schedule: string;
  /** every | cron | at, or another kind the gateway knows. */
  scheduleKind: string;
  lastRunAt: string | null;
  lastStatus: string | null;
  lastDurationMs: number | null;
  lastError: string | null;
  nextRunAt: string | null;
  /** Enabled, not running, and more than OVERDUE_GRACE_MS past the run the gateway had scheduled. */
  overdue: boolean;
  /** How long past that run, in whole seconds, when overdue; else null. */
  overdueSeconds: number | null;
  consecutiveErrors: number;
  recentRuns: CronRunView[];
}

/**
 * How late a job may be before it counts as overdue. The gateway starts a due job within a second
 * or two, records its next run once the run is under way, and we read its store every 10 s
 * (collector `cronMs`): a minute covers all of that without hiding a job that really did not run.
 */
export const OVERDUE_GRACE_MS = 60_000;

/** Seconds past due, or null when the job is not overdue at `now`. */
export function overdueSeconds(j: Pick<CronJobInfo, "enabled" | "dueAt">, runs: readonly CronRunInfo[], now: number): number | null {
  if (!j.enabled || j.dueAt === null) return null;
  // A run in progress is the job doing what it should; its next run is recorded when it ends.
  if (runs[0]?.status === "running") return null;
  const late = now - j.dueAt;
  return late > OVERDUE_GRACE_MS ? Math.floor(late / 1000) : null;
}

function runView(r: CronRunInfo): CronRunView {
  return {
    id: r.id,
    status: r.status,
    startedAt: iso(r.startedAt),
    durationMs: r.durationMs,
    error: r.error,
    summary: r.summary,
    sessionKey: r.sessionKey,
    // A run's token total is summed by the gateway; a negative one is not a count.
    totalTokens: r.totalTokens !== null && r.totalTokens >= 0 ? r.totalTokens : null,
  };
}

export function jobView(j: CronJobInfo, runs: readonly CronRunInfo[], now: number): CronJobView {
  const late = overdueSeconds(j, runs, now);
  return {
    id: j.id,
    name: j.displayName ?? j.name,
    agentId: j.agentId,
    enabled: j.enabled,
    schedule: j.schedule.text,
    scheduleKind: j.schedule.kind,
    lastRunAt: iso(j.lastRunAt),
    lastStatus: j.lastStatus,
    lastDurationMs: j.lastDurationMs,
    lastError: j.lastError,
    nextRunAt: iso(j.nextRunAt),
    overdue: late !== null,
    overdueSeconds: late,
    consecutiveErrors: j.consecutiveErrors,
    recentRuns: runs.map(runView),
  };
}

/** Jobs of `agentId` (and agent-less jobs when it is the default agent), enabled first, then by name. */
export function queryCronJobs(cron: CronState, agentId: string, defaultAgentId: string, now: number): CronJobView[] {
  const data = cron.data;
  if (!data) return [];
  return data.jobs
    .filter((j) => (j.agentId ?? defaultAgentId) === agentId)
    .map((j) => jobView(j, data.runs[j.id] ?? [], now))
    .sort((a, b) => Number(b.enabled) - Number(a.enabled) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
