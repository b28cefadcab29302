// The header: the daemon's one verdict as a pill, gateway-insights' version, the range, and the
// banners that must never be missed (demo data, sources that failed and were left out).
import { formatRangeLabel } from "../format.js";
import { verdictColor, type Ctx } from "./context.js";
import { box, line, row, span, type El } from "./h.js";
import { dot, pill } from "./primitives.js";
import { tint } from "./theme.js";

function banner(text: string, color: string): El {
  return row(
    { gap: 8, alignItems: "flex-start", paddingTop: 7, paddingBottom: 7, paddingLeft: 10, paddingRight: 10, borderRadius: 8, backgroundColor: tint(color, 0.14) },
    box({ paddingTop: 5 }, dot(color, 7)),
    // Wraps: a list of failed sources must be read in full.
    box({ flex: 1, minWidth: 0, fontSize: 12, color, fontWeight: 500 }, text),
  );
}

export function header(ctx: Ctx): El {
  const { m, p } = ctx;
  const verdict = m.verdict ? ctx.t(`verdict.${m.verdict}`) : ctx.t("verdict.unknown");
  return box(
    { gap: 10 },
    row(
      { justifyContent: "space-between", gap: 8 },
      line(ctx.t("card.title"), { fontSize: 16, fontWeight: 700, color: p.text, flex: 1 }),
      span(ctx.t("header.range", { range: formatRangeLabel(m.range, ctx.lang) }), {
        fontSize: 11,
        color: p.muted,
        paddingTop: 3,
        paddingBottom: 3,
        paddingLeft: 8,
        paddingRight: 8,
        borderRadius: 999,
        border: `1px solid ${p.border}`,
      }),
    ),
    row({ gap: 10 }, pill(verdict, verdictColor(p, m.verdict), 13), line(ctx.t("header.insights", { version: m.insightsVersion }), { flex: 1, fontSize: 11, color: p.muted })),
    m.demo ? banner(ctx.t("banner.demo"), p.accent) : null,
    m.degradedSources.length ? banner(ctx.t("banner.degraded", { sources: m.degradedSources.join(", ") }), p.warn) : null,
  );
}
