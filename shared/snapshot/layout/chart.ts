// Tokens over the range as flex bars, one per metrics bucket, each stacked by provider in the
// providers' colours (one colour when there is one provider), with a red tick under buckets that
// logged errors and clock labels at the start, middle and end.
import type { CardBlock } from "../card-model.js";
import { formatClock, formatCompact, formatRangeLabel } from "../format.js";
import type { Ctx } from "./context.js";
import { box, row, span, type El } from "./h.js";
import { dot, empty, NUM, section, unavailable } from "./primitives.js";

const HEIGHT = 64;

/** The blocks' charts drawn as one; undefined when the detail level has no chart. */
export function tokenChart(ctx: Ctx, blocks: readonly CardBlock[]): El | null {
  const { m, p } = ctx;
  const withChart = blocks.filter((b) => b.tokenChart !== undefined);
  if (!withChart.length) return null;
  const title = ctx.t("chart.title", { range: formatRangeLabel(m.range, ctx.lang) });
  const series = withChart.flatMap((b) => (b.tokenChart ? [{ provider: b.provider, chart: b.tokenChart }] : []));
  if (!series.length) return section(ctx, title, null, unavailable(ctx));
  // Every block's chart is on the same bucket grid (same range, same clock).
  const grid = (series[0] as (typeof series)[number]).chart.buckets;
  const stacks = grid.map((b, i) => ({
    start: b.start,
    parts: series.map((s) => ({ provider: s.provider, tokens: s.chart.buckets[i]?.tokens ?? 0 })),
    errors: series.reduce((n, s) => n + (s.chart.buckets[i]?.errors ?? 0), 0),
  }));
  const totalOf = (st: (typeof stacks)[number]): number => st.parts.reduce((n, x) => n + x.tokens, 0);
  const peak = Math.max(0, ...stacks.map(totalOf));
  if (peak <= 0 || stacks.length === 0) return section(ctx, title, null, empty(ctx, ctx.t("chart.empty")));
  const meta = ctx.t("chart.peak", { value: formatCompact(peak, ctx.lang) });
  const gap = stacks.length > 12 ? 3 : 5;
  const bars = stacks.map((st) => {
    const total = totalOf(st);
    // A bucket with any tokens gets at least 2 px, so "a little" never looks like "none".
    const height = total > 0 ? Math.max(2, Math.round((total / peak) * HEIGHT)) : 1;
    const parts = st.parts.filter((x) => x.tokens > 0);
    return box(
      { flex: 1, alignItems: "stretch", justifyContent: "flex-end", height: HEIGHT + 6, gap: 3 },
      box(
        { height, borderRadius: 2, overflow: "hidden", backgroundColor: total > 0 ? p.bar : p.barEmpty, flexDirection: "column-reverse" },
        // Bottom to top in block order; the share of each provider in the bar's height.
        total > 0 ? parts.map((x) => box({ flexGrow: x.tokens, flexShrink: 0, flexBasis: 0, backgroundColor: p.provider[x.provider] })) : null,
      ),
      box({ height: 3, borderRadius: 2, backgroundColor: st.errors > 0 ? p.bad : "transparent" }),
    );
  });
  const first = stacks[0];
  const mid = stacks[Math.floor(stacks.length / 2)];
  const label = (text: string): El => span(text, { fontSize: 10, color: p.faint, ...NUM });
  const hasErrors = stacks.some((b) => b.errors > 0);
  // The providers' colours (when there are several) and what the red ticks mean (when there are some).
  const legend =
    series.length > 1 || hasErrors
      ? row(
          { gap: 12, flexWrap: "wrap", marginTop: -2 },
          series.length > 1 ? series.map((s) => row({ gap: 5 }, dot(p.provider[s.provider], 7), span(ctx.t(`provider.${s.provider}`), { fontSize: 11, color: p.muted }))) : null,
          hasErrors ? row({ gap: 6 }, box({ width: 12, height: 3, borderRadius: 2, backgroundColor: p.bad }), span(ctx.t("chart.errorMark"), { fontSize: 11, color: p.muted })) : null,
        )
      : null;
  return section(
    ctx,
    title,
    meta,
    box(
      { gap: 4, paddingTop: 10, paddingBottom: 8, paddingLeft: 10, paddingRight: 10, borderRadius: 10, backgroundColor: p.surface },
      row({ alignItems: "flex-end", gap }, bars),
      row(
        { justifyContent: "space-between" },
        label(first ? formatClock(first.start * 1000, ctx.timeZone) : ""),
        label(mid ? formatClock(mid.start * 1000, ctx.timeZone) : ""),
        label(ctx.t("chart.now")),
      ),
    ),
    legend,
  );
}
