// The overview of the chosen source, or of every provider together ("All providers", see
// overview/Combined). One source: its system and health (OpenClaw's gateway card, or the CLI's
// versions and running processes, and Codex's plan quota), the key numbers of the selected range
// with trends, token and cost charts, active sessions, channels (OpenClaw) or projects (Claude
// Code, Codex), lifetime totals and spend.
import type { JSX } from "preact";
import { fetchOverview } from "../api/queries";
import type { DataSource, MetricsRange } from "../api/types";
import { IdleHint } from "../components/IdleHint";
import { RequireSource } from "../components/RequireSource";
import { RANGE_LONG, RANGE_SHORT, RangeSwitch } from "../components/RangeSwitch";
import { SourceNotice } from "../components/SourceNotice";
import { Callout, ErrorNotice, Loading } from "../components/States";
import { ViewHeader } from "../components/ViewHeader";
import { t } from "../i18n/i18n";
import { has, hasGateway, sourceTitle } from "../lib/providers";
import { useLive } from "../lib/use-live";
import { range } from "../state/range";
import { isAll, providerOf } from "../state/scope";
import { cliSystem, openclaw, shell } from "../state/shell";
import { ActiveSessions } from "./overview/ActiveSessions";
import { ChannelsPanel } from "./overview/ChannelsPanel";
import { CliSystemCard } from "./overview/CliSystemCard";
import { CombinedOverview } from "./overview/Combined";
import { GatewayCard } from "./overview/GatewayCard";
import { HealthPanel } from "./overview/HealthPanel";
import { KpiTiles } from "./overview/KpiTiles";
import { LifetimePanel } from "./overview/LifetimePanel";
import { ProjectsPanel } from "./overview/ProjectsPanel";
import { RateLimitsPanel } from "./overview/RateLimitsPanel";
import { SpendPanel } from "./overview/SpendPanel";
import { CostChart, TokensChart } from "./overview/UsageCharts";

export function OverviewView(): JSX.Element | null {
  if (!shell.value) return null;
  if (isAll.value) return <CombinedOverview range={range.value} />;
  return (
    <RequireSource>
      {(src) => (
        <div class="view overview" data-provider={providerOf(src)}>
          <ViewHeader title={t("nav.overview")} sub={sourceTitle(src)}>
            <RangeSwitch />
          </ViewHeader>
          <SourceOverview src={src} range={range.value} />
        </div>
      )}
    </RequireSource>
  );
}

function SystemRow({ src }: { src: DataSource }): JSX.Element | null {
  const p = providerOf(src);
  if (hasGateway(p)) {
    const sys = openclaw.value;
    if (!sys) return null;
    return (
      <>
        {sys.demo ? <Callout tone="info" title={t("overview.demo")} /> : null}
        <div class="grid grid-status">
          <GatewayCard system={sys} />
          <HealthPanel health={sys.health} />
        </div>
      </>
    );
  }
  const sys = cliSystem(p);
  if (!sys) return null;
  return (
    <>
      <div class="grid grid-status">
        <CliSystemCard system={sys} />
        <HealthPanel health={sys.health} />
      </div>
      {has(p, "rateLimits") ? <RateLimitsPanel provider={p} sourceId={src.id} /> : null}
    </>
  );
}

function SourceOverview({ src, range: r }: { src: DataSource; range: MetricsRange }): JSX.Element {
  const id = src.id;
  const oc = hasGateway(providerOf(src));
  // The source's changes refetch at once; gateway uptime (from the probes) is caught by the poll.
  const live = useLive((signal) => fetchOverview(id, r, !oc, signal), [id, r, oc], { sources: [id] });
  const d = live.data;
  return (
    <>
      <SourceNotice />
      <SystemRow src={src} />
      {!d ? (
        live.error ? (
          <ErrorNotice error={live.error} onRetry={live.reload} />
        ) : (
          <Loading />
        )
      ) : (
        <>
          {live.error ? <ErrorNotice error={live.error} onRetry={live.reload} compact /> : null}
          <section class="range-section" aria-label={t(RANGE_LONG[r])}>
            <h2 class="section-title">{t(RANGE_LONG[r])}</h2>
            <IdleHint tokens={d.metrics.buckets.reduce((n, b) => n + b.tokens, 0)} lastActivityAt={d.metrics.lastActivityAt ?? null} from={d.metrics.from} period={t(RANGE_SHORT[r])} />
            <KpiTiles metrics={d.metrics} previous={d.previous} period={t(RANGE_SHORT[r])} uptime={oc} />
          </section>
          <div class="grid grid-2">
            <TokensChart metrics={d.metrics} />
            <CostChart metrics={d.metrics} />
          </div>
          <div class="grid grid-2">
            <ActiveSessions sessions={d.activeSessions} />
            {oc ? <ChannelsPanel channels={openclaw.value?.channels ?? []} /> : <ProjectsPanel rows={d.projects} period={t(RANGE_LONG[r])} />}
          </div>
          <div class="grid grid-2">
            <LifetimePanel stats={d.lifetimeStats} cost={d.usageCost} />
            <SpendPanel cost={d.usageCost} />
          </div>
        </>
      )}
    </>
  );
}
