// Token and cost charts over the selected range, one bar per bucket.
import type { JSX } from "preact";
import type { Metrics } from "../../api/types";
import { BarChart } from "../../components/BarChart";
import { Panel } from "../../components/Panel";
import { t } from "../../i18n/i18n";
import { fmtBucketSpan, fmtCompact, fmtInt, fmtUsd } from "../../lib/format";

function titles(m: Metrics): string[] {
  return m.buckets.map((b) => fmtBucketSpan(b.start, b.end));
}

export function TokensChart({ metrics }: { metrics: Metrics }): JSX.Element {
  const b = metrics.buckets;
  return (
    <Panel id="tokens-chart" title={t("chart.tokensTitle")} actions={<span class="num muted">{fmtInt(b.reduce((n, x) => n + x.tokens, 0))}</span>}>
      <BarChart
        testId="tokens-chart"
        label={t("chart.tokensTitle")}
        labels={b.map((x) => x.label)}
        titles={titles(metrics)}
        format={fmtInt}
        axisFormat={fmtCompact}
        series={[
          { key: "input", label: t("tokens.input"), values: b.map((x) => x.inputTokens) },
          { key: "output", label: t("tokens.output"), values: b.map((x) => x.outputTokens) },
          { key: "cacheRead", label: t("tokens.cacheRead"), values: b.map((x) => x.cacheReadTokens) },
          { key: "cacheWrite", label: t("tokens.cacheWrite"), values: b.map((x) => x.cacheWriteTokens) },
        ]}
      />
    </Panel>
  );
}

export function CostChart({ metrics }: { metrics: Metrics }): JSX.Element {
  const b = metrics.buckets;
  return (
    <Panel id="cost-chart" title={t("chart.costTitle")} actions={<span class="num muted">{fmtUsd(metrics.costUsd)}</span>}>
      <BarChart
        testId="cost-chart"
        label={t("chart.costTitle")}
        labels={b.map((x) => x.label)}
        titles={titles(metrics)}
        format={fmtUsd}
        axisFormat={(n) => (n === 0 ? "$0" : fmtUsd(n))}
        series={[{ key: "cost", label: t("kpi.cost"), values: b.map((x) => x.costUsd) }]}
      />
    </Panel>
  );
}
