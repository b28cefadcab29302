// Cron jobs of one agent (design §5: cronJobs) from the collector's latest cron read. A job with
// no agent id runs on the gateway's default agent, so it is listed there.
import type { CronJobInfo, CronRunInfo } from "../sources/gateway/cron.js";
import type { CronState } from "../ingest/collector.js";
import { iso } from "./time.js";

export interface CronRunView {
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
  consecutiveErrors: number;
  recentRuns: CronRunView[];
}

export function runView(r: CronRunInfo): CronRunView {
  return {
    id: r.id,
    status: r.status,
    startedAt: iso(r.startedAt),
    durationMs: r.durationMs,
    error: r.error,
    summary: r.summary,
    sessionKey: r.sessionKey,
    totalTokens: r.totalTokens,
  };
}

export function jobView(j: CronJobInfo, runs: readonly CronRunInfo[] = []): CronJobView {
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
    consecutiveErrors: j.consecutiveErrors,
    recentRuns: runs.map(runView),
  };
}

/** Jobs of `agentId` (and agent-less jobs when it is the default agent), enabled first, then by name. */
export function queryCronJobs(cron: CronState, agentId: string, defaultAgentId: string): CronJobView[] {
  const data = cron.data;
  if (!data) return [];
  return data.jobs
    .filter((j) => (j.agentId ?? defaultAgentId) === agentId)
    .map((j) => jobView(j, data.runs[j.id] ?? []))
    .sort((a, b) => Number(b.enabled) - Number(a.enabled) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
