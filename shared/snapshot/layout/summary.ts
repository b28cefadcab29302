// The key numbers: six tiles in a 3 x 2 grid, the one part every detail level shows.
import { formatCompact, formatInt, formatPercent, formatUsd } from "../format.js";
import type { Ctx } from "./context.js";
import { box, line, row, span, type Child, type El } from "./h.js";
import { INNER, NUM } from "./primitives.js";

const GAP = 8;
const TILE = Math.floor((INNER - 2 * GAP) / 3);

/** Long values step down in size instead of being cut: a number must be read whole. */
function valueSize(text: string): number {
  return text.length <= 6 ? 20 : text.length <= 9 ? 17 : 14;
}

function tile(ctx: Ctx, label: string, value: Child, valueText: string): El {
  return box(
    { width: TILE, gap: 3, paddingTop: 9, paddingBottom: 9, paddingLeft: 10, paddingRight: 10, borderRadius: 10, backgroundColor: ctx.p.surface },
    row({ alignItems: "baseline", gap: 4, fontSize: valueSize(valueText), fontWeight: 700, color: ctx.p.text, height: 26, ...NUM }, value),
    line(label, { fontSize: 11, color: ctx.p.muted }),
  );
}

export function summary(ctx: Ctx): El {
  const { p } = ctx;
  const s = ctx.m.summary;
  const none = ctx.t("value.none");
  const num = (v: number | null, f: (n: number) => string): string => (v === null ? none : f(v));
  const tokens = num(s.tokens, (n) => formatCompact(n, ctx.lang));
  const cost = num(s.costUsd, formatUsd);
  const turns = num(s.turns, (n) => formatCompact(n, ctx.lang));
  const errors = num(s.errors, (n) => formatCompact(n, ctx.lang));
  const warnings = num(s.warnings, (n) => formatCompact(n, ctx.lang));
  const uptime = num(s.uptimePercent, (n) => formatPercent(n, ctx.lang));
  const active = num(s.activeSessions, formatInt);
  const uptimeColor = s.uptimePercent === null ? p.muted : s.uptimePercent >= 99 ? p.ok : s.uptimePercent >= 95 ? p.warn : p.bad;
  const ofTotal = s.totalSessions !== null ? ctx.t("kpi.ofTotal", { total: formatInt(s.totalSessions) }) : "";
  const tiles = [
    tile(ctx, ctx.t("kpi.tokens"), span(tokens), tokens),
    tile(ctx, ctx.t("kpi.cost"), span(cost), cost),
    tile(ctx, ctx.t("kpi.turns"), span(turns), turns),
    tile(
      ctx,
      ctx.t("kpi.errorsWarnings"),
      [
        span(errors, { color: s.errors ? p.bad : p.text }),
        span("/", { color: p.faint, fontWeight: 400 }),
        span(warnings, { color: s.warnings ? p.warn : p.text }),
      ],
      `${errors} / ${warnings}`,
    ),
    tile(ctx, ctx.t("kpi.uptime"), span(uptime, { color: uptimeColor }), uptime),
    tile(ctx, ctx.t("kpi.activeSessions"), [span(active), ofTotal ? span(ofTotal, { fontSize: 11, fontWeight: 500, color: p.muted }) : null], active),
  ];
  return box({ gap: GAP }, row({ gap: GAP, alignItems: "stretch" }, tiles.slice(0, 3)), row({ gap: GAP, alignItems: "stretch" }, tiles.slice(3)));
}
