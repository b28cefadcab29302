// Usage per project (the working directory a Claude Code or Codex session ran in) over the
// overview's range: sessions, tokens, cost and each project's share of the tokens. On "All
// providers" the rows of every source are listed together, each with its provider.
import type { JSX } from "preact";
import type { Provider, ProjectUsage } from "../../api/types";
import { Cost } from "../../components/Cost";
import { Panel } from "../../components/Panel";
import { Empty } from "../../components/States";
import { t } from "../../i18n/i18n";
import { fmtCompact, fmtInt, fmtPercent } from "../../lib/format";
import { PROVIDER_KEY, PROVIDER_NAME, projectName } from "../../lib/providers";

export type ProjectRow = ProjectUsage & { provider?: Provider; source?: string };

export function ProjectsPanel({ rows, period }: { rows: ProjectRow[]; period: string }): JSX.Element {
  const sorted = [...rows].sort((a, b) => Number(a.project === null) - Number(b.project === null) || b.totalTokens - a.totalTokens);
  const total = sorted.reduce((n, r) => n + r.totalTokens, 0);
  return (
    <Panel id="projects" title={t("projects.title")} actions={<span class="muted">{period}</span>}>
      {sorted.length === 0 ? (
        <Empty title={t("projects.empty")} hint={t("projects.emptyHint")} />
      ) : (
        <div class="table-scroll">
          <table class="table compact projects-table" data-testid="projects">
            <caption class="sr-only">{t("projects.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("projects.project")}</th>
                <th scope="col" class="num">
                  {t("projects.sessions")}
                </th>
                <th scope="col" class="num">
                  {t("sessions.tokens")}
                </th>
                <th scope="col" class="num">
                  {t("sessions.cost")}
                </th>
                <th scope="col" class="hide-sm">
                  <span class="sr-only">{t("projects.share")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((r) => {
                const share = total > 0 ? (r.totalTokens / total) * 100 : 0;
                return (
                  <tr key={`${r.source ?? ""} ${r.project ?? ""}`} data-project={r.project ?? ""} data-provider={r.provider ?? ""}>
                    <td class="project-cell" title={r.project ?? undefined}>
                      {r.provider ? <span class={`prov-dot ${PROVIDER_KEY[r.provider]}`} title={PROVIDER_NAME[r.provider]} /> : null}
                      <span class="project-name">{r.project ? projectName(r.project) : t("projects.none")}</span>
                      {r.project ? <span class="project-path mono hide-sm">{r.project}</span> : null}
                    </td>
                    <td class="num">{fmtInt(r.sessions)}</td>
                    <td class="num" title={fmtInt(r.totalTokens)} data-value={r.totalTokens}>
                      {fmtCompact(r.totalTokens)}
                    </td>
                    <td class="num">
                      <Cost usd={r.costUsd} unpriced={r.unpricedResponses} />
                    </td>
                    <td class="hide-sm share-cell">
                      <span class={`share${r.provider ? ` ${PROVIDER_KEY[r.provider]}` : ""}`} role="img" aria-label={t("projects.shareOf", { percent: fmtPercent(share, 0) })}>
                        <span class="share-fill" style={{ width: `${Math.max(share, share > 0 ? 2 : 0)}%` }} />
                      </span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
