// Cost by model and the last 30 days of spend.
import type { JSX } from "preact";
import type { UsageCost } from "../../api/types";
import { BarChart } from "../../components/BarChart";
import { Panel } from "../../components/Panel";
import { Empty } from "../../components/States";
import { t } from "../../i18n/i18n";
import { fmtCompact, fmtInt, fmtUsd } from "../../lib/format";

export function SpendPanel({ cost }: { cost: UsageCost }): JSX.Element {
  const days = cost.byDay;
  const models = [...cost.byModel].sort((a, b) => b.costUsd - a.costUsd);
  return (
    <Panel id="spend" title={t("spend.title")} actions={<span class="num muted">{t("spend.total", { cost: fmtUsd(cost.totalUsd) })}</span>}>
      {days.length ? (
        <BarChart
          testId="spend-chart"
          label={t("spend.daily")}
          height={140}
          labels={days.map((d) => d.date.slice(5).replace("-", "/"))}
          titles={days.map((d) => d.date)}
          format={fmtUsd}
          axisFormat={(n) => (n === 0 ? "$0" : fmtUsd(n))}
          series={[{ key: "cost", label: t("kpi.cost"), values: days.map((d) => d.costUsd) }]}
        />
      ) : null}
      {models.length === 0 ? (
        <Empty title={t("spend.empty")} />
      ) : (
        <table class="table compact">
          <caption class="sr-only">{t("spend.byModel")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("spend.model")}</th>
              <th scope="col" class="num">
                {t("spend.tokens")}
              </th>
              <th scope="col" class="num hide-sm">
                {t("spend.messages")}
              </th>
              <th scope="col" class="num">
                {t("spend.cost")}
              </th>
            </tr>
          </thead>
          <tbody>
            {models.map((m) => (
              <tr key={m.model}>
                <td>
                  <span class="mono">{m.model}</span>
                  {m.provider ? <span class="muted small"> · {m.provider}</span> : null}
                </td>
                <td class="num" title={fmtInt(m.totalTokens)}>
                  {fmtCompact(m.totalTokens)}
                </td>
                <td class="num hide-sm">{fmtInt(m.messages)}</td>
                <td class="num">{fmtUsd(m.costUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}
