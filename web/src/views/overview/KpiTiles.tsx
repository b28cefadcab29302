// The key numbers of the selected range, each with its change against the period before and a
// sparkline of the range's buckets.
import type { JSX } from "preact";
import type { Metrics, PeriodTotals } from "../../api/types";
import { Sparkline } from "../../components/Sparkline";
import { t } from "../../i18n/i18n";
import { fmtCompact, fmtInt, fmtPercent, fmtUsd } from "../../lib/format";

type Better = "up" | "down" | "none";

interface Tile {
  id: string;
  label: string;
  value: string;
  exact?: string;
  current: number | null;
  previous: number | null;
  better: Better;
  spark: Array<number | null>;
  tone: string;
  sub?: string;
}

function Delta({ current, previous, better, period }: { current: number | null; previous: number | null; better: Better; period: string }): JSX.Element | null {
  if (current === null || previous === null) return <p class="kpi-delta muted">{t("kpi.noComparison")}</p>;
  if (current === previous) return <p class="kpi-delta muted">{t("kpi.same", { period })}</p>;
  const up = current > previous;
  const tone = better === "none" ? "neutral" : (better === "up") === up ? "ok" : "err";
  if (previous === 0) {
    return (
      <p class={`kpi-delta tone-text-${tone}`}>
        <span aria-hidden="true">▲</span> <span class="muted">{t("kpi.noneBefore", { period })}</span>
      </p>
    );
  }
  return (
    <p class={`kpi-delta tone-text-${tone}`}>
      <span aria-hidden="true">{up ? "▲" : "▼"}</span>
      <span class="sr-only">{up ? t("kpi.up") : t("kpi.down")}</span> {fmtPercent((Math.abs(current - previous) / previous) * 100, 0)} <span class="muted">{t("kpi.vsPrevious", { period })}</span>
    </p>
  );
}

/** `uptime`: the gateway uptime tile (OpenClaw only: the other providers have no gateway to probe). */
export function KpiTiles({ metrics, previous, period, uptime = true }: { metrics: Metrics; previous: PeriodTotals | null; period: string; uptime?: boolean }): JSX.Element {
  const b = metrics.buckets;
  // Summed from the buckets: exact, where rangeTokensK is rounded to tens.
  const tokens = b.reduce((n, x) => n + x.tokens, 0);
  const tiles: Tile[] = [
    {
      id: "tokens",
      label: t("kpi.tokens"),
      value: fmtCompact(tokens),
      exact: fmtInt(tokens),
      current: tokens,
      previous: previous ? previous.rangeTokensK * 1000 : null,
      better: "none",
      spark: b.map((x) => x.tokens),
      tone: "accent",
    },
    {
      id: "cost",
      label: t("kpi.cost"),
      value: fmtUsd(metrics.costUsd),
      current: metrics.costUsd,
      previous: previous?.costUsd ?? null,
      better: "none",
      spark: b.map((x) => x.costUsd),
      tone: "cost",
    },
    {
      id: "turns",
      label: t("kpi.turns"),
      value: fmtInt(metrics.totalTurns),
      current: metrics.totalTurns,
      previous: previous?.totalTurns ?? null,
      better: "none",
      spark: b.map((x) => x.turns),
      tone: "info",
    },
    {
      id: "errors",
      label: t("kpi.errorsWarnings"),
      value: `${fmtInt(metrics.totalErrors)} / ${fmtInt(metrics.totalWarnings)}`,
      current: metrics.totalErrors + metrics.totalWarnings,
      previous: previous ? previous.totalErrors + previous.totalWarnings : null,
      better: "down",
      spark: b.map((x) => x.errors + x.warnings),
      tone: metrics.totalErrors > 0 ? "err" : metrics.totalWarnings > 0 ? "warn" : "ok",
    },
  ];
  if (uptime)
    tiles.push({
      id: "uptime",
      label: t("kpi.uptime"),
      value: metrics.uptimePercent !== null ? fmtPercent(metrics.uptimePercent) : "—",
      current: metrics.uptimePercent,
      previous: previous?.uptimePercent ?? null,
      better: "up",
      spark: b.map((x) => x.uptimePercent),
      tone: metrics.uptimePercent === null ? "neutral" : metrics.uptimePercent >= 99 ? "ok" : metrics.uptimePercent >= 90 ? "warn" : "err",
    });
  return (
    <div class={`kpis${tiles.length === 4 ? " kpis-4" : ""}`} data-testid="kpis">
      {tiles.map((tile) => (
        <div key={tile.id} class="kpi" data-testid={`kpi-${tile.id}`}>
          <p class="kpi-label">{tile.label}</p>
          <p class="kpi-value num" title={tile.exact}>
            {tile.value}
          </p>
          <Delta current={tile.current} previous={tile.previous} better={tile.better} period={period} />
          <Sparkline values={tile.spark} tone={tile.tone} />
        </div>
      ))}
    </div>
  );
}
