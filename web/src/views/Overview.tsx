// The overview: the gateway and its health, the key numbers of the selected range with trends,
// token and cost charts, channels, active sessions, lifetime totals and spend.
import type { JSX } from "preact";
import { fetchOverview } from "../api/queries";
import type { MetricsRange, SystemInfo } from "../api/types";
import { Segmented } from "../components/Segmented";
import { SourceNotice } from "../components/SourceNotice";
import { Callout, Empty, ErrorNotice, Loading } from "../components/States";
import { ViewHeader } from "../components/ViewHeader";
import { t, type MessageKey } from "../i18n/i18n";
import { useLive } from "../lib/use-live";
import { range, RANGES, setRange } from "../state/range";
import { agentId, agentSource, shell } from "../state/shell";
import { ActiveSessions } from "./overview/ActiveSessions";
import { ChannelsPanel } from "./overview/ChannelsPanel";
import { GatewayCard } from "./overview/GatewayCard";
import { HealthPanel } from "./overview/HealthPanel";
import { KpiTiles } from "./overview/KpiTiles";
import { LifetimePanel } from "./overview/LifetimePanel";
import { SpendPanel } from "./overview/SpendPanel";
import { CostChart, TokensChart } from "./overview/UsageCharts";

export const RANGE_SHORT: Record<MetricsRange, MessageKey> = {
  THIRTY_MIN: "range.30m",
  ONE_HOUR: "range.1h",
  SIX_HOUR: "range.6h",
  TWELVE_HOUR: "range.12h",
  TWENTY_FOUR_HOUR: "range.24h",
};

const RANGE_LONG: Record<MetricsRange, MessageKey> = {
  THIRTY_MIN: "range.long30m",
  ONE_HOUR: "range.long1h",
  SIX_HOUR: "range.long6h",
  TWELVE_HOUR: "range.long12h",
  TWENTY_FOUR_HOUR: "range.long24h",
};

export function OverviewView(): JSX.Element | null {
  const s = shell.value;
  const id = agentId.value;
  const r = range.value;
  if (!s) return null;
  return (
    <div class="view overview">
      <ViewHeader title={t("nav.overview")} sub={agentSource.value ? t("overview.sub", { agent: agentSource.value.name }) : undefined}>
        <Segmented<MetricsRange> label={t("range.label")} testId="range-switch" value={r} onChange={setRange} options={RANGES.map((x) => ({ value: x, label: t(RANGE_SHORT[x]), title: t(RANGE_LONG[x]) }))} />
      </ViewHeader>
      {s.system.demo ? <Callout tone="info" title={t("overview.demo")} /> : null}
      <SourceNotice />
      <div class="grid grid-status">
        <GatewayCard system={s.system} />
        <HealthPanel health={s.system.health} />
      </div>
      {id ? <AgentOverview id={id} range={r} system={s.system} /> : <Empty title={t("overview.noAgents")} hint={t("overview.noAgentsHint")} />}
    </div>
  );
}

function AgentOverview({ id, range: r, system }: { id: string; range: MetricsRange; system: SystemInfo }): JSX.Element {
  // The agent's changes refetch at once; gateway uptime (from the probes) is caught by the poll.
  const live = useLive((signal) => fetchOverview(id, r, signal), [id, r], { sources: [`agent:${id}`] });
  const d = live.data;
  if (!d) return live.error ? <ErrorNotice error={live.error} onRetry={live.reload} /> : <Loading />;
  return (
    <>
      {live.error ? <ErrorNotice error={live.error} onRetry={live.reload} compact /> : null}
      <section class="range-section" aria-label={t(RANGE_LONG[r])}>
        <h2 class="section-title">{t(RANGE_LONG[r])}</h2>
        <KpiTiles metrics={d.metrics} previous={d.previous} period={t(RANGE_SHORT[r])} />
      </section>
      <div class="grid grid-2">
        <TokensChart metrics={d.metrics} />
        <CostChart metrics={d.metrics} />
      </div>
      <div class="grid grid-2">
        <ActiveSessions sessions={d.activeSessions} />
        <ChannelsPanel channels={system.channels} />
      </div>
      <div class="grid grid-2">
        <LifetimePanel stats={d.lifetimeStats} cost={d.usageCost} />
        <SpendPanel cost={d.usageCost} />
      </div>
    </>
  );
}
