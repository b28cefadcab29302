// Everything the agent has done since its first recorded activity, and what it has cost.
import type { JSX } from "preact";
import type { LifetimeStats, UsageCost } from "../../api/types";
import { Panel } from "../../components/Panel";
import { t, tn } from "../../i18n/i18n";
import { fmtDateTime, fmtInt, fmtUsd } from "../../lib/format";

export function LifetimePanel({ stats, cost }: { stats: LifetimeStats; cost: UsageCost }): JSX.Element {
  return (
    <Panel
      id="lifetime"
      title={t("lifetime.title")}
      actions={
        <span class="muted">
          {t("lifetime.since", { date: fmtDateTime(stats.createdAt) })} · {tn("count.days", stats.daysSinceCreation)}
        </span>
      }
    >
      {!stats.isReady ? <p class="muted small">{t("lifetime.scanning")}</p> : null}
      <dl class="stat-grid" data-testid="lifetime">
        <div>
          <dt>{t("lifetime.tokens")}</dt>
          <dd class="num stat" data-testid="lifetime-tokens">
            {fmtInt(stats.totalTokens)}
          </dd>
          <p class="stat-sub num">
            {t("tokens.in")} {fmtInt(stats.totalInputTokens)} · {t("tokens.out")} {fmtInt(stats.totalOutputTokens)}
          </p>
        </div>
        <div>
          <dt>{t("lifetime.sessions")}</dt>
          <dd class="num stat" data-testid="lifetime-sessions">
            {fmtInt(stats.totalSessions)}
          </dd>
          <p class="stat-sub">{t("lifetime.sessionsHint")}</p>
        </div>
        <div>
          <dt>{t("lifetime.messages")}</dt>
          <dd class="num stat" data-testid="lifetime-user-messages">
            {fmtInt(stats.totalUserMessages)}
          </dd>
          <p class="stat-sub num">{tn("count.assistantReplies", stats.totalAssistantMessages)}</p>
        </div>
        <div>
          <dt>{t("lifetime.cost")}</dt>
          <dd class="num stat" data-testid="lifetime-cost">
            {fmtUsd(stats.totalCostUsd)}
          </dd>
          <p class="stat-sub num">
            {t("lifetime.today", { cost: fmtUsd(cost.todayUsd) })} · <span data-testid="lifetime-month">{t("lifetime.month", { cost: fmtUsd(cost.monthUsd) })}</span>
          </p>
        </div>
      </dl>
    </Panel>
  );
}
