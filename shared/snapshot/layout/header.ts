// The header: the gateway's state pill, uptime, versions, the range, and the banners that must
// never be missed (demo data, sources that failed and were left out).
import { formatDuration, formatRangeLabel } from "../format.js";
import { stateColor, type Ctx } from "./context.js";
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
  const g = m.gateway;
  const stateText = ctx.t(`state.${g.state}`);
  const uptime = g.uptimeSeconds !== null ? ctx.t("header.uptime", { duration: formatDuration(g.uptimeSeconds, ctx.lang) }) : g.running === false ? ctx.t("header.notRunning") : null;
  const openclaw = g.openclawVersion ? ctx.t("header.openclaw", { version: g.openclawVersion }) : ctx.t("header.openclawUnknown");
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
    row({ gap: 10 }, pill(stateText, stateColor(p, g.state), 13), uptime ? span(uptime, { fontSize: 13, color: p.text, fontWeight: 500 }) : null),
    row(
      { gap: 6, flexWrap: "wrap" },
      span(openclaw, { fontSize: 11, color: p.muted }),
      span("·", { fontSize: 11, color: p.faint }),
      span(ctx.t("header.insights", { version: g.insightsVersion }), { fontSize: 11, color: p.muted }),
      g.updateAvailable
        ? // Without a known version the message keeps a double space; close it.
          span(ctx.t("header.update", { version: g.latestVersion ?? "" }).replace(/\s{2,}/g, " "), {
            fontSize: 10,
            fontWeight: 600,
            color: p.accent,
            backgroundColor: tint(p.accent, 0.14),
            borderRadius: 4,
            paddingLeft: 6,
            paddingRight: 6,
            paddingTop: 1,
            paddingBottom: 1,
          })
        : null,
    ),
    m.demo ? banner(ctx.t("banner.demo"), p.accent) : null,
    m.degradedSources.length ? banner(ctx.t("banner.degraded", { sources: m.degradedSources.join(", ") }), p.warn) : null,
  );
}
