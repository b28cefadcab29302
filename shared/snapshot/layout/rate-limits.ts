// The plan's rate limits (Codex's, Claude Code's; every detail): the used share of each window as a small bar with its
// reset time. Figures recorded before the window reset are "stale": drawn grey, and said so.
import type { CardRateLimitedBlock, CardRateLimits } from "../card-model.js";
import { windowWords } from "../../i18n/window-words.js";
import { formatClock, formatDate, formatDateTime, formatPercent, formatRelative } from "../format.js";
import { RATE_LIMIT_FAIL_PERCENT, RATE_LIMIT_WARN_PERCENT } from "../../queries/rate-limits.js";
import type { Ctx } from "./context.js";
import { box, line, row, span, type El } from "./h.js";
import { clip, empty, NUM, section, unavailable } from "./primitives.js";

type Window = NonNullable<CardRateLimits[number]["primary"]>;

/** "Weekly window", "5-hour window": the dashboard's words for the same window (it said "7d window"). */
function windowLabel(ctx: Ctx, w: Window, which: "primary" | "secondary"): string {
  const words = windowWords(w.windowMinutes, which);
  return words.n === null ? ctx.t(`rate.${words.key}`) : ctx.t(`rate.${words.key}`, { n: words.n });
}

/** HH:MM in the card's zone; with the date when not today (a weekly window's reset). */
function when(ctx: Ctx, ms: number): string {
  return formatDate(ms, ctx.lang, ctx.timeZone) === formatDate(ctx.now, ctx.lang, ctx.timeZone) ? formatClock(ms, ctx.timeZone) : formatDateTime(ms, ctx.lang, ctx.timeZone);
}

function windowRow(ctx: Ctx, w: Window, which: "primary" | "secondary", stale: boolean): El {
  const { p } = ctx;
  const used = w.usedPercent;
  const color = stale ? p.idle : used >= RATE_LIMIT_FAIL_PERCENT ? p.bad : used >= RATE_LIMIT_WARN_PERCENT ? p.warn : p.accent;
  const resets = w.resetsAt ? ctx.t("rate.resets", { time: formatRelative(Date.parse(w.resetsAt), ctx.now, ctx.lang) }) : null;
  // The early warning: at the last half hour's burn rate the window runs out before it resets.
  const projected = !stale && w.projectedFullAt && w.resetsAt ? ctx.t("rate.projected", { full: when(ctx, Date.parse(w.projectedFullAt)), reset: when(ctx, Date.parse(w.resetsAt)) }) : null;
  return row(
    { gap: 10, alignItems: "flex-start" },
    line(windowLabel(ctx, w, which), { width: 92, fontSize: 12, fontWeight: 600, color: p.text }),
    box(
      { flex: 1, gap: 3, paddingTop: 5 },
      box({ height: 7, borderRadius: 4, backgroundColor: p.barEmpty }, box({ width: `${Math.min(100, used)}%`, height: 7, borderRadius: 4, backgroundColor: color })),
      resets ? line(resets, { fontSize: 10, color: p.muted }) : null,
      projected ? line(projected, { fontSize: 10, fontWeight: 600, color: p.warn }) : null,
    ),
    span(formatPercent(used, ctx.lang), { width: 44, justifyContent: "flex-end", fontSize: 13, fontWeight: 700, color: stale ? p.muted : color === p.accent ? p.text : color, ...NUM }),
  );
}

export function rateLimits(ctx: Ctx, b: CardRateLimitedBlock): El {
  const { p } = ctx;
  const title = ctx.t("rate.title");
  const rl = b.rateLimits;
  if (rl === null) return section(ctx, title, null, unavailable(ctx));
  const shown = rl.filter((r) => r.primary || r.secondary);
  if (!shown.length) return section(ctx, title, null, empty(ctx, ctx.t("rate.none")));
  const plans = [...new Set(shown.map((r) => r.planType).filter((x): x is string => x !== null))].map((x) => clip(x, 16)).slice(0, 2);
  return section(
    ctx,
    title,
    plans.length ? ctx.t("rate.plan", { plan: plans.join(", ") }) : null,
    shown.map((r) =>
      box(
        { gap: 8, paddingTop: 10, paddingBottom: 10, paddingLeft: 12, paddingRight: 12, borderRadius: 10, backgroundColor: p.surface },
        // Several installs (accounts) each have their own quota: name them.
        shown.length > 1 ? line(r.source, { fontSize: 11, fontWeight: 600, color: p.muted }) : null,
        r.primary ? windowRow(ctx, r.primary, "primary", r.stale) : null,
        r.secondary ? windowRow(ctx, r.secondary, "secondary", r.stale) : null,
        // Every reading says how old it is: a status line runs only while Claude Code is used.
        r.stale
          ? line(ctx.t("rate.stale", { time: formatRelative(Date.parse(r.updatedAt), ctx.now, ctx.lang) }), { fontSize: 11, color: p.warn })
          : line(ctx.t("rate.asOf", { time: formatRelative(Date.parse(r.updatedAt), ctx.now, ctx.lang) }), { fontSize: 10, color: p.muted }),
      ),
    ),
  );
}
