// Tokens over the range as flex bars, one per metrics bucket, with a red tick under buckets that
// logged errors and clock labels at the start, middle and end.
import { formatClock, formatCompact, formatRangeLabel } from "../format.js";
import type { Ctx } from "./context.js";
import { box, row, span, type El } from "./h.js";
import { empty, NUM, section, unavailable } from "./primitives.js";

const HEIGHT = 64;

export function tokenChart(ctx: Ctx): El | null {
  const { m, p } = ctx;
  if (m.tokenChart === undefined) return null;
  const title = ctx.t("chart.title", { range: formatRangeLabel(m.range, ctx.lang) });
  const c = m.tokenChart;
  if (c === null) return section(ctx, title, null, unavailable(ctx));
  const peak = c.peakTokens;
  if (peak <= 0 || c.buckets.length === 0) return section(ctx, title, null, empty(ctx, ctx.t("chart.empty")));
  const meta = ctx.t("chart.peak", { value: formatCompact(peak, ctx.lang) });
  const gap = c.buckets.length > 12 ? 3 : 5;
  const bars = c.buckets.map((b) =>
    box(
      { flex: 1, alignItems: "stretch", justifyContent: "flex-end", height: HEIGHT + 6, gap: 3 },
      // A bucket with any tokens gets at least 2 px, so "a little" never looks like "none".
      box({ height: b.tokens > 0 ? Math.max(2, Math.round((b.tokens / peak) * HEIGHT)) : 1, borderRadius: 2, backgroundColor: b.tokens > 0 ? p.bar : p.barEmpty }),
      box({ height: 3, borderRadius: 2, backgroundColor: b.errors > 0 ? p.bad : "transparent" }),
    ),
  );
  const first = c.buckets[0];
  const mid = c.buckets[Math.floor(c.buckets.length / 2)];
  const label = (text: string): El => span(text, { fontSize: 10, color: p.faint, ...NUM });
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
    // Explains the red ticks, only when there are some.
    c.buckets.some((b) => b.errors > 0)
      ? row({ gap: 6, marginTop: -2 }, box({ width: 12, height: 3, borderRadius: 2, backgroundColor: p.bad }), span(ctx.t("chart.errorMark"), { fontSize: 10, color: p.faint }))
      : null,
  );
}
