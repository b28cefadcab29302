// The alerts firing now (every detail level, under the header): each with its severity, the rule's
// name, the value against the threshold crossed, since when, and where a budget's pace leads or
// until when the rule is muted. Nothing is drawn while no alert fires.
import { BUILTIN_RULES } from "../../alerts/builtin-rules.js";
import type { CardAlertRow } from "../card-model.js";
import { formatClock, formatCompact, formatDateTime, formatDuration, formatInt, formatPercent, formatUsdExact } from "../format.js";
import type { MessageKey } from "../messages.js";
import type { Ctx } from "./context.js";
import { box, line, row, span, type El } from "./h.js";
import { badge, more, NUM, section } from "./primitives.js";
import { tint } from "./theme.js";

const BUILTIN_NAMES = new Map(BUILTIN_RULES.map((r) => [r.id, r.name]));

/** A built-in rule keeps its shipped name in the card's language; a name someone set is data. */
function ruleName(ctx: Ctx, a: CardAlertRow): string {
  if (BUILTIN_NAMES.get(a.ruleId) === a.ruleName) return ctx.t(`alerts.rule.${a.ruleId}` as MessageKey);
  return a.ruleName;
}

function alertAmount(ctx: Ctx, v: number, unit: CardAlertRow["unit"]): string {
  switch (unit) {
    case "usd":
      // A threshold someone typed: never rounded into a different budget.
      return formatUsdExact(v, ctx.lang);
    case "tokens":
      return ctx.t("alerts.tokens", { n: formatCompact(v, ctx.lang) });
    case "percent":
      return formatPercent(v, ctx.lang);
    case "seconds":
      return formatDuration(v, ctx.lang);
    default:
      return formatInt(v);
  }
}

/** A clock time within the day either side, else with its date. */
function when(ctx: Ctx, ms: number): string {
  return Math.abs(ctx.now - ms) < 20 * 3600_000 ? formatClock(ms, ctx.timeZone) : formatDateTime(ms, ctx.lang, ctx.timeZone);
}

function pace(ctx: Ctx, a: CardAlertRow): string | null {
  const p = a.projection;
  if (!p) return null;
  if (p.reachesAt) return ctx.t("alerts.reaches", { target: alertAmount(ctx, p.target, a.unit), time: when(ctx, Date.parse(p.reachesAt)) });
  const window = a.window === "week" || a.window === "month" ? a.window : "day";
  return ctx.t(`alerts.pace.${window}`, { total: alertAmount(ctx, p.projectedTotal, a.unit) });
}

function alertLine(ctx: Ctx, a: CardAlertRow): El {
  const { p } = ctx;
  const color = a.severity === "critical" ? p.bad : p.warn;
  const name = a.subject ? `${ruleName(ctx, a)} · ${a.label}` : ruleName(ctx, a);
  const facts = [ctx.t("alerts.since", { time: when(ctx, Date.parse(a.since)) }), a.mutedUntil ? ctx.t("alerts.muted", { time: when(ctx, Date.parse(a.mutedUntil)) }) : null].filter((x): x is string => x !== null);
  const projection = pace(ctx, a);
  return box(
    { gap: 3 },
    row({ gap: 8 }, badge(ctx.t(`alerts.${a.severity}`), color, 56), line(name, { flex: 1, fontSize: 12, fontWeight: 600, color: p.text })),
    row(
      { gap: 8 },
      span(ctx.t("alerts.valueOf", { value: alertAmount(ctx, a.value, a.unit), threshold: alertAmount(ctx, a.threshold, a.unit) }), { fontSize: 12, fontWeight: 600, color, ...NUM }),
      line(facts.join(" · "), { flex: 1, fontSize: 11, color: p.muted }),
    ),
    // Wraps: the projection is the one line people act on.
    projection ? box({ fontSize: 11, color: p.text }, projection) : null,
  );
}

export function alertsBlock(ctx: Ctx): El | null {
  const al = ctx.m.alerts;
  if (!al || al.total === 0) return null;
  const { p } = ctx;
  const color = al.critical > 0 ? p.bad : p.warn;
  return section(
    ctx,
    ctx.t("alerts.title"),
    ctx.tn("alerts.firing", al.total),
    box(
      { borderRadius: 10, backgroundColor: tint(color, 0.08), border: `1px solid ${tint(color, 0.45)}`, paddingLeft: 12, paddingRight: 12 },
      al.items.map((a, i) => box({ paddingTop: 8, paddingBottom: 8, borderTop: i === 0 ? "none" : `1px solid ${tint(color, 0.25)}` }, alertLine(ctx, a))),
    ),
    more(ctx, al.total - al.items.length),
  );
}
