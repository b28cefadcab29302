// "All providers": the overview across every provider read. Each source's own figures (metrics of
// the range, spend today, active sessions, projects) are fetched and added up here, per provider
// and in total: spend today and in the range, tokens by kind, active sessions, a chart of tokens
// (and one of cost) over the range stacked by provider, the providers' health, the projects of
// Claude Code and Codex, and the sessions active now.
import type { JSX } from "preact";
import { fetchCombined, type SourceFigures } from "../../api/queries";
import type { DataSource, MetricsRange, Provider } from "../../api/types";
import { Badge } from "../../components/Badge";
import { BarChart } from "../../components/BarChart";
import { IdleHint, newestTime } from "../../components/IdleHint";
import { Panel } from "../../components/Panel";
import { RANGE_LONG, RANGE_SHORT, RangeSwitch } from "../../components/RangeSwitch";
import { Callout, Empty, ErrorNotice, Loading } from "../../components/States";
import { ViewHeader } from "../../components/ViewHeader";
import { t } from "../../i18n/i18n";
import { fmtBucketSpan, fmtCompact, fmtInt, fmtUsd } from "../../lib/format";
import { GATEWAY_LABEL, VERDICT_LABEL } from "../../lib/labels";
import { has, hasGateway, PROVIDER_KEY, PROVIDER_NAME, PROVIDERS } from "../../lib/providers";
import { gatewayTone, verdictTone } from "../../lib/tones";
import { useLive } from "../../lib/use-live";
import { chooseScope, href, providerOf } from "../../state/scope";
import { demo, openclaw, sources, systemOf } from "../../state/shell";
import { ActiveSessions, type ActiveRow } from "./ActiveSessions";
import { ProjectsPanel, type ProjectRow } from "./ProjectsPanel";
import { RateLimitsPanel } from "./RateLimitsPanel";

/** What the combined view adds up, per source, per provider and in total. */
interface Sums {
  todayUsd: number;
  rangeUsd: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  tokens: number;
  active: number;
}

const zero = (): Sums => ({ todayUsd: 0, rangeUsd: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, tokens: 0, active: 0 });

function sumsOf(f: SourceFigures): Sums {
  const s = zero();
  s.todayUsd = f.usageCost.todayUsd;
  s.rangeUsd = f.metrics.costUsd;
  for (const b of f.metrics.buckets) {
    s.input += b.inputTokens;
    s.output += b.outputTokens;
    s.cacheRead += b.cacheReadTokens;
    s.cacheWrite += b.cacheWriteTokens;
    s.tokens += b.tokens;
  }
  s.active = f.active.length;
  return s;
}

function add(a: Sums, b: Sums): Sums {
  return {
    todayUsd: a.todayUsd + b.todayUsd,
    rangeUsd: a.rangeUsd + b.rangeUsd,
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    tokens: a.tokens + b.tokens,
    active: a.active + b.active,
  };
}

interface ProviderGroup {
  provider: Provider;
  sums: Sums;
  sources: Array<{ src: DataSource; sums: Sums }>;
}

/**
 * The range's buckets across sources, per provider. Each source's grid sits on the same step
 * boundaries; should two answers straddle a boundary, the newest grid is kept.
 */
function providerBuckets(figures: readonly SourceFigures[], groups: readonly ProviderGroup[], byId: Map<string, DataSource>): { labels: string[]; titles: string[]; tokens: Map<Provider, number[]>; cost: Map<Provider, number[]> } {
  const newest = [...figures].sort((a, b) => Date.parse(b.metrics.to) - Date.parse(a.metrics.to))[0];
  const grid = newest?.metrics.buckets ?? [];
  const index = new Map(grid.map((b, i) => [b.start, i]));
  const tokens = new Map<Provider, number[]>(groups.map((g) => [g.provider, grid.map(() => 0)]));
  const cost = new Map<Provider, number[]>(groups.map((g) => [g.provider, grid.map(() => 0)]));
  for (const f of figures) {
    const src = byId.get(f.source);
    if (!src) continue;
    const p = providerOf(src);
    const tk = tokens.get(p);
    const cs = cost.get(p);
    if (!tk || !cs) continue;
    for (const b of f.metrics.buckets) {
      const i = index.get(b.start);
      if (i === undefined) continue;
      tk[i] = (tk[i] ?? 0) + b.tokens;
      cs[i] = (cs[i] ?? 0) + b.costUsd;
    }
  }
  return {
    labels: grid.map((b) => b.label),
    titles: grid.map((b) => fmtBucketSpan(b.start, b.end)),
    tokens,
    cost,
  };
}

export function CombinedOverview({ range: r }: { range: MetricsRange }): JSX.Element {
  const list = sources.value;
  const ids = list.map((s) => s.id);
  const withProjects = new Set(list.filter((s) => has(providerOf(s), "projects")).map((s) => s.id));
  const live = useLive((signal) => fetchCombined(ids, withProjects, r, signal), [ids.join(","), r], { sources: ids });
  const present = PROVIDERS.filter((p) => list.some((s) => providerOf(s) === p));
  return (
    <div class="view overview overview-all" data-provider="all">
      <ViewHeader title={t("overview.allTitle")} sub={present.map((p) => PROVIDER_NAME[p]).join(" · ")}>
        <RangeSwitch />
      </ViewHeader>
      {demo.value ? <Callout tone="info" title={t("overview.demoAll")} /> : null}
      <AllRateLimits present={present} />
      {live.data ? (
        <>
          {live.error ? <ErrorNotice error={live.error} onRetry={live.reload} compact /> : null}
          <Combined figures={live.data} range={r} />
        </>
      ) : live.error ? (
        <ErrorNotice error={live.error} onRetry={live.reload} />
      ) : (
        <Loading />
      )}
    </div>
  );
}

/** Each present provider's plan quota (those that record one), side by side. */
function AllRateLimits({ present }: { present: readonly Provider[] }): JSX.Element | null {
  const limited = present.filter((p) => has(p, "rateLimits"));
  if (!limited.length) return null;
  return (
    <div class={limited.length > 1 ? "grid grid-2" : undefined} data-testid="all-rate-limits">
      {limited.map((p) => (
        <RateLimitsPanel key={p} provider={p} sourceId={null} />
      ))}
    </div>
  );
}

function Combined({ figures, range: r }: { figures: SourceFigures[]; range: MetricsRange }): JSX.Element {
  const byId = new Map(sources.value.map((s) => [s.id, s]));
  const groups: ProviderGroup[] = [];
  for (const p of PROVIDERS) {
    const mine = figures.filter((f) => {
      const src = byId.get(f.source);
      return src && providerOf(src) === p;
    });
    if (!mine.length) continue;
    const rows = mine.map((f) => ({ src: byId.get(f.source) as DataSource, sums: sumsOf(f) }));
    groups.push({ provider: p, sums: rows.reduce((a, x) => add(a, x.sums), zero()), sources: rows });
  }
  const total = groups.reduce((a, g) => add(a, g.sums), zero());
  const chart = providerBuckets(figures, groups, byId);
  const period = t(RANGE_SHORT[r]);

  const active: ActiveRow[] = figures
    .flatMap((f) => {
      const src = byId.get(f.source);
      return f.active.map((s) => ({ ...s, source: f.source, ...(src ? { provider: providerOf(src) } : {}) }));
    })
    .sort((a, b) => (Date.parse(b.lastActivityAt ?? b.updatedAt ?? "") || 0) - (Date.parse(a.lastActivityAt ?? a.updatedAt ?? "") || 0));
  const projects: ProjectRow[] = figures.flatMap((f) => {
    const src = byId.get(f.source);
    return f.projects.filter((p) => p.project !== null).map((p) => ({ ...p, source: f.source, ...(src ? { provider: providerOf(src) } : {}) }));
  });

  const share = (pick: (s: Sums) => number): Array<{ provider: Provider; value: number }> => groups.map((g) => ({ provider: g.provider, value: pick(g.sums) }));
  const tiles: Array<{ id: string; label: string; value: string; exact: string; raw: number; parts: Array<{ provider: Provider; value: number }>; format: (n: number) => string }> = [
    { id: "today", label: t("all.spendToday"), value: fmtUsd(total.todayUsd), exact: fmtUsd(total.todayUsd), raw: total.todayUsd, parts: share((s) => s.todayUsd), format: fmtUsd },
    { id: "cost", label: t("all.spendRange", { period }), value: fmtUsd(total.rangeUsd), exact: fmtUsd(total.rangeUsd), raw: total.rangeUsd, parts: share((s) => s.rangeUsd), format: fmtUsd },
    { id: "tokens", label: t("all.tokensRange", { period }), value: fmtCompact(total.tokens), exact: fmtInt(total.tokens), raw: total.tokens, parts: share((s) => s.tokens), format: fmtInt },
    { id: "active", label: t("active.title"), value: fmtInt(total.active), exact: fmtInt(total.active), raw: total.active, parts: share((s) => s.active), format: fmtInt },
  ];

  return (
    <>
      <section class="range-section" aria-label={t(RANGE_LONG[r])}>
        <h2 class="section-title">{t(RANGE_LONG[r])}</h2>
        <IdleHint tokens={total.tokens} lastActivityAt={newestTime(figures.map((f) => f.metrics.lastActivityAt))} from={figures[0]?.metrics.from ?? ""} period={period} />
        <div class="kpis kpis-4" data-testid="all-kpis">
          {tiles.map((tile) => (
            <div key={tile.id} class="kpi" data-testid={`all-${tile.id}`} data-value={tile.raw}>
              <p class="kpi-label">{tile.label}</p>
              <p class="kpi-value num" title={tile.exact}>
                {tile.value}
              </p>
              <ShareBar parts={tile.parts} format={tile.format} />
            </div>
          ))}
        </div>
      </section>
      <Totals figures={figures} groups={groups} byId={byId} />
      <ProviderTable groups={groups} total={total} period={period} />
      <div class="grid grid-2">
        <Panel id="tokens-by-provider" title={t("all.tokensChart")} actions={<span class="num muted">{fmtInt(total.tokens)}</span>}>
          <BarChart
            testId="tokens-by-provider"
            label={t("all.tokensChart")}
            labels={chart.labels}
            titles={chart.titles}
            format={fmtInt}
            axisFormat={fmtCompact}
            series={groups.map((g) => ({ key: PROVIDER_KEY[g.provider], label: PROVIDER_NAME[g.provider], values: chart.tokens.get(g.provider) ?? [] }))}
          />
        </Panel>
        <Panel id="cost-by-provider" title={t("all.costChart")} actions={<span class="num muted">{fmtUsd(total.rangeUsd)}</span>}>
          <BarChart
            testId="cost-by-provider"
            label={t("all.costChart")}
            labels={chart.labels}
            titles={chart.titles}
            format={fmtUsd}
            axisFormat={(n) => (n === 0 ? "$0" : fmtUsd(n))}
            series={groups.map((g) => ({ key: PROVIDER_KEY[g.provider], label: PROVIDER_NAME[g.provider], values: chart.cost.get(g.provider) ?? [] }))}
          />
        </Panel>
      </div>
      <div class="grid grid-2">
        <ActiveSessions sessions={active.slice(0, 8)} total={active.length} />
        {projects.length || groups.some((g) => has(g.provider, "projects")) ? <ProjectsPanel rows={projects} period={t(RANGE_LONG[r])} /> : <Empty title={t("projects.empty")} />}
      </div>
    </>
  );
}

/**
 * Lifetime and month-to-date figures over every provider: what the per-source overview shows one
 * source at a time (Lifetime panel), summed. They do not depend on the range.
 */
function Totals({ figures, groups, byId }: { figures: SourceFigures[]; groups: ProviderGroup[]; byId: Map<string, DataSource> }): JSX.Element {
  const per = (pick: (f: SourceFigures) => number): Array<{ provider: Provider; value: number }> =>
    groups.map((g) => ({
      provider: g.provider,
      value: figures.filter((f) => {
        const src = byId.get(f.source);
        return src && providerOf(src) === g.provider;
      }).reduce((n, f) => n + pick(f), 0),
    }));
  const tiles: Array<{ id: string; label: string; parts: Array<{ provider: Provider; value: number }>; money: boolean }> = [
    { id: "lifetime-cost", label: t("all.lifetimeCost"), parts: per((f) => f.usageCost.totalUsd), money: true },
    { id: "lifetime-tokens", label: t("all.lifetimeTokens"), parts: per((f) => f.lifetimeStats.totalTokens), money: false },
    { id: "month-cost", label: t("all.monthCost"), parts: per((f) => f.usageCost.monthUsd), money: true },
    { id: "month-tokens", label: t("all.monthTokens"), parts: per((f) => f.usageCost.monthTokens), money: false },
  ];
  return (
    <section class="range-section" aria-label={t("all.totalsTitle")}>
      <h2 class="section-title">{t("all.totalsTitle")}</h2>
      <div class="kpis kpis-4" data-testid="all-totals">
        {tiles.map((tile) => {
          const raw = tile.parts.reduce((n, p) => n + p.value, 0);
          const format = tile.money ? fmtUsd : fmtInt;
          return (
            <div key={tile.id} class="kpi" data-testid={`all-${tile.id}`} data-value={raw}>
              <p class="kpi-label">{tile.label}</p>
              <p class="kpi-value num" title={format(raw)}>
                {tile.money ? fmtUsd(raw) : fmtCompact(raw)}
              </p>
              <ShareBar parts={tile.parts} format={format} />
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** A provider's share of a figure, as one thin stacked bar under the number. */
function ShareBar({ parts, format }: { parts: Array<{ provider: Provider; value: number }>; format: (n: number) => string }): JSX.Element {
  const sum = parts.reduce((n, p) => n + p.value, 0);
  const words = parts.map((p) => `${PROVIDER_NAME[p.provider]} ${format(p.value)}`).join(", ");
  return (
    <div class="share-block">
      <span class="share share-stack" role="img" aria-label={words}>
        {sum > 0 ? parts.map((p) => (p.value > 0 ? <span key={p.provider} class={`share-part ${PROVIDER_KEY[p.provider]}`} style={{ width: `${(p.value / sum) * 100}%` }} title={`${PROVIDER_NAME[p.provider]}: ${format(p.value)}`} /> : null)) : null}
      </span>
      <ul class="share-legend" aria-hidden="true">
        {parts.map((p) => (
          <li key={p.provider}>
            <span class={`prov-dot ${PROVIDER_KEY[p.provider]}`} />
            <span class="num">{format(p.value)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function HealthBadge({ provider }: { provider: Provider }): JSX.Element | null {
  const sys = systemOf(provider);
  if (!sys) return null;
  if (hasGateway(provider)) {
    const gw = openclaw.value?.gateway;
    return (
      <span class="badges">
        <Badge tone={verdictTone(sys.health.verdict)} dot>
          {t(VERDICT_LABEL[sys.health.verdict])}
        </Badge>
        {gw ? <Badge tone={gatewayTone(gw.state)}>{t(GATEWAY_LABEL[gw.state])}</Badge> : null}
      </span>
    );
  }
  return (
    <Badge tone={verdictTone(sys.health.verdict)} dot>
      {t(VERDICT_LABEL[sys.health.verdict])}
    </Badge>
  );
}

const COLS: Array<{ key: keyof Sums; label: "all.today" | "all.rangeCost" | "sessions.tokens" | "tokens.input" | "tokens.output" | "tokens.cacheRead" | "tokens.cacheWrite" | "all.activeShort"; money?: boolean; cls?: string }> = [
  { key: "todayUsd", label: "all.today", money: true, cls: "hide-sm" },
  { key: "rangeUsd", label: "all.rangeCost", money: true },
  { key: "tokens", label: "sessions.tokens" },
  { key: "input", label: "tokens.input", cls: "hide-md" },
  { key: "output", label: "tokens.output", cls: "hide-md" },
  { key: "cacheRead", label: "tokens.cacheRead", cls: "hide-md" },
  { key: "cacheWrite", label: "tokens.cacheWrite", cls: "hide-md" },
  { key: "active", label: "all.activeShort" },
];

function Cells({ sums }: { sums: Sums }): JSX.Element {
  return (
    <>
      {COLS.map((c) => (
        <td key={c.key} class={`num${c.cls ? ` ${c.cls}` : ""}`} data-col={c.key} data-value={sums[c.key]}>
          {c.money ? fmtUsd(sums[c.key]) : fmtInt(sums[c.key])}
        </td>
      ))}
    </>
  );
}

/** Per provider (and per source, when a provider has several), with the total underneath. */
function ProviderTable({ groups, total, period }: { groups: ProviderGroup[]; total: Sums; period: string }): JSX.Element {
  return (
    <Panel id="by-provider" class="table-panel" title={t("all.byProvider")}>
      <div class="table-scroll">
        <table class="table provider-table" data-testid="provider-table">
          <caption class="sr-only">{t("all.byProvider")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("all.provider")}</th>
              {COLS.map((c) => (
                <th key={c.key} scope="col" class={`num${c.cls ? ` ${c.cls}` : ""}`}>
                  {t(c.label, { period })}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {groups.flatMap((g) => [
              <tr key={g.provider} data-provider={g.provider} class="provider-row">
                <th scope="row">
                  <div class="provider-cell">
                    <a
                      href={href({ name: "overview" }, g.sources[0]?.src.id ?? null)}
                      class="provider-link"
                      onClick={(e) => {
                        const first = g.sources[0];
                        if (!first) return;
                        e.preventDefault();
                        chooseScope(first.src.id);
                      }}
                    >
                      <span class={`prov-dot ${PROVIDER_KEY[g.provider]}`} aria-hidden="true" />
                      {PROVIDER_NAME[g.provider]}
                    </a>
                    <HealthBadge provider={g.provider} />
                  </div>
                </th>
                <Cells sums={g.sums} />
              </tr>,
              ...(g.sources.length > 1
                ? g.sources.map((s) => (
                    <tr key={s.src.id} data-source={s.src.id} class="source-row">
                      <th scope="row">
                        <a
                          href={href({ name: "overview" }, s.src.id)}
                          class="source-link"
                          onClick={(e) => {
                            e.preventDefault();
                            chooseScope(s.src.id);
                          }}
                        >
                          {s.src.name}
                        </a>
                      </th>
                      <Cells sums={s.sums} />
                    </tr>
                  ))
                : []),
            ])}
          </tbody>
          <tfoot>
            <tr data-provider="total" class="total-row">
              <th scope="row">{t("chart.total")}</th>
              <Cells sums={total} />
            </tr>
          </tfoot>
        </table>
      </div>
    </Panel>
  );
}
