// Scheduled jobs: schedule, last run (status, duration, error) and next run, with the recent runs
// of each job one click away.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { fetchCron } from "../api/queries";
import type { CronJob } from "../api/types";
import { Badge } from "../components/Badge";
import { Icon } from "../components/Icon";
import { SourceNotice } from "../components/SourceNotice";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { ViewHeader } from "../components/ViewHeader";
import { t, tn } from "../i18n/i18n";
import { fmtCompact, fmtDateTime, fmtDuration, fmtFull, fmtRelative } from "../lib/format";
import { runTone } from "../lib/tones";
import { useLive } from "../lib/use-live";
import { serverNow } from "../state/clock";
import { RequireSource } from "../components/RequireSource";

function statusLabel(s: string | null): string {
  if (!s) return t("cron.neverRun");
  const key = ({ ok: "cron.ok", error: "cron.failed", skipped: "cron.skipped", running: "cron.running" } as const)[s.toLowerCase() as "ok"];
  return key ? t(key) : s;
}

export function CronView(): JSX.Element {
  return <RequireSource openclaw>{(src) => <CronJobs id={src.id} />}</RequireSource>;
}

function CronJobs({ id }: { id: string }): JSX.Element {
  const live = useLive((signal) => fetchCron(id, signal), [id], { sources: [id] });
  const jobs = live.data;
  return (
    <div class="view cron">
      <ViewHeader title={t("nav.cron")} sub={jobs ? tn("count.jobs", jobs.length) : undefined} />
      <SourceNotice />
      {live.error ? <ErrorNotice error={live.error} onRetry={live.reload} compact={!!jobs} /> : null}
      {!jobs ? (
        live.error ? null : <Loading />
      ) : jobs.length === 0 ? (
        <Empty title={t("cron.empty")} hint={t("cron.emptyHint")} />
      ) : (
        <div class="cron-list" data-testid="cron-list">
          {[...jobs]
            .sort((a, b) => Number(b.enabled) - Number(a.enabled) || (Date.parse(a.nextRunAt ?? "") || Infinity) - (Date.parse(b.nextRunAt ?? "") || Infinity))
            .map((job) => (
              <CronCard key={job.id} job={job} />
            ))}
        </div>
      )}
    </div>
  );
}

function CronCard({ job }: { job: CronJob }): JSX.Element {
  const [open, setOpen] = useState(false);
  const now = serverNow.value;
  const runsId = `runs-${job.id}`;
  return (
    <section class={`panel cron-card${job.enabled ? "" : " disabled"}${job.overdue ? " overdue" : ""}`} aria-labelledby={`job-${job.id}`} data-testid="cron-job" data-job-id={job.id}>
      <header class="cron-head">
        <div>
          <h2 id={`job-${job.id}`}>{job.name}</h2>
          <p class="muted small">
            <span class="mono">{job.schedule}</span>
            {job.agentId ? ` · ${t("cron.agent", { agent: job.agentId })}` : ""}
          </p>
        </div>
        <div class="badges">
          {!job.enabled ? <Badge>{t("cron.disabled")}</Badge> : null}
          <Badge tone={runTone(job.lastStatus)} dot>
            {statusLabel(job.lastStatus)}
          </Badge>
          {job.overdue ? (
            <span data-testid="cron-overdue">
              <Badge tone="warn" dot>
                {job.overdueSeconds !== null ? t("cron.overdueBy", { duration: fmtDuration(job.overdueSeconds * 1000) }) : t("cron.overdue")}
              </Badge>
            </span>
          ) : null}
          {job.consecutiveErrors > 0 ? <Badge tone="err">{tn("count.consecutiveErrors", job.consecutiveErrors)}</Badge> : null}
        </div>
      </header>
      <dl class="facts cron-facts">
        <div>
          <dt>{t("cron.lastRun")}</dt>
          <dd title={job.lastRunAt ? fmtFull(job.lastRunAt) : undefined}>{job.lastRunAt ? fmtRelative(job.lastRunAt, now) : t("cron.neverRun")}</dd>
        </div>
        <div>
          <dt>{t("cron.duration")}</dt>
          <dd class="num">{job.lastDurationMs !== null ? fmtDuration(job.lastDurationMs) : "—"}</dd>
        </div>
        <div>
          <dt>{t("cron.nextRun")}</dt>
          {/* Past its run and not run (the gateway is down or its scheduler stuck): when it was due, in amber. */}
          {job.overdue && job.overdueSeconds !== null ? (
            <dd class="tone-text-warn" data-testid="cron-due" title={fmtFull(now - job.overdueSeconds * 1000)}>
              {t("cron.wasDue", { when: fmtRelative(new Date(now - job.overdueSeconds * 1000).toISOString(), now) })} · {fmtDateTime(now - job.overdueSeconds * 1000)}
            </dd>
          ) : (
            <dd title={job.nextRunAt ? fmtFull(job.nextRunAt) : undefined}>{job.enabled && job.nextRunAt ? `${fmtRelative(job.nextRunAt, now)} · ${fmtDateTime(job.nextRunAt)}` : "—"}</dd>
          )}
        </div>
      </dl>
      {job.lastError ? <p class={`cron-error tone-text-${job.lastStatus === "skipped" ? "warn" : "err"}`}>{job.lastError}</p> : null}
      {job.recentRuns.length ? (
        <>
          <button type="button" class="btn btn-sm btn-ghost disclosure" aria-expanded={open} aria-controls={runsId} onClick={() => setOpen(!open)}>
            <Icon name={open ? "chevronDown" : "chevron"} size={14} />
            {tn("count.recentRuns", job.recentRuns.length)}
          </button>
          {open ? (
            <div class="table-scroll" id={runsId}>
              <table class="table compact">
                <thead>
                  <tr>
                    <th scope="col">{t("cron.started")}</th>
                    <th scope="col">{t("cron.status")}</th>
                    <th scope="col" class="num">
                      {t("cron.duration")}
                    </th>
                    <th scope="col" class="num hide-sm">
                      {t("sessions.tokens")}
                    </th>
                    <th scope="col" class="hide-sm">
                      {t("cron.result")}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {job.recentRuns.map((r) => (
                    <tr key={r.id}>
                      <td class="nowrap">{r.startedAt ? fmtDateTime(r.startedAt, true) : "—"}</td>
                      <td>
                        <Badge tone={runTone(r.status)}>{statusLabel(r.status)}</Badge>
                      </td>
                      <td class="num">{r.durationMs !== null ? fmtDuration(r.durationMs) : "—"}</td>
                      <td class="num hide-sm">{r.totalTokens !== null ? fmtCompact(r.totalTokens) : "—"}</td>
                      <td class="hide-sm run-result">{r.error ?? r.summary ?? ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
