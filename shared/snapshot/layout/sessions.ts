// Top sessions (standard, full) and the sub-agent tree (full).
import { formatCompact, formatInt, formatRelative, formatUsd } from "../format.js";
import type { CardBlock, CardSessionRow, CardSubAgentRow } from "../card-model.js";
import { sessionColor, type Ctx } from "./context.js";
import { box, line, row, span, type El } from "./h.js";
import { dot, empty, list, more, NUM, section, unavailable } from "./primitives.js";

/** The last part of a working directory: /home/ana/src/webshop -> webshop. */
function projectName(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

/** A session's cost: "unpriced" when none of it could be priced, a trailing + when part could not. */
function costText(ctx: Ctx, s: CardSessionRow): { text: string; color: string } {
  if (s.unpricedResponses > 0 && s.costUsd === 0) return { text: ctx.t("cost.unpriced"), color: ctx.p.warn };
  if (s.unpricedResponses > 0) return { text: `${formatUsd(s.costUsd, ctx.lang)}+`, color: ctx.p.warn };
  return { text: formatUsd(s.costUsd, ctx.lang), color: ctx.p.muted };
}

function sessionLine(ctx: Ctx, s: CardSessionRow): El {
  const { p } = ctx;
  const cost = costText(ctx, s);
  // Most telling first: the line is cut at the right when it does not fit.
  const meta = [
    // The status in words too: colour alone does not reach every reader (or an agent).
    ctx.t(`status.${s.status}`),
    s.model ?? ctx.t("sessions.noModel"),
    s.lastActivityAt ? formatRelative(Date.parse(s.lastActivityAt), ctx.now, ctx.lang) : null,
    // Where it ran: the CLI's project, OpenClaw's channel, else its kind.
    s.project ? projectName(s.project) : (s.channel ?? ctx.t(`kind.${s.kind}`)),
    ctx.tn("sessions.turns", s.turnCount),
    s.subAgentCount ? ctx.tn("sessions.subAgents", s.subAgentCount) : null,
  ].filter((x): x is string => x !== null);
  return row(
    { gap: 10, alignItems: "flex-start" },
    box({ paddingTop: 5 }, dot(sessionColor(p, s.status))),
    box({ flex: 1, minWidth: 0, gap: 2 }, line(s.displayName, { fontSize: 13, fontWeight: 600, color: p.text }), line(meta.join(" · "), { fontSize: 11, color: p.muted })),
    box(
      { alignItems: "flex-end", gap: 2, flexShrink: 0 },
      span(formatCompact(s.totalTokens, ctx.lang), { fontSize: 13, fontWeight: 600, color: p.text, ...NUM }),
      span(cost.text, { fontSize: 11, color: cost.color, ...NUM }),
    ),
  );
}

export function topSessions(ctx: Ctx, b: CardBlock): El | null {
  const ts = b.topSessions;
  if (ts === undefined) return null;
  const title = ctx.t("sessions.title");
  if (ts === null) return section(ctx, title, null, unavailable(ctx));
  if (!ts.items.length) return section(ctx, title, null, empty(ctx, ctx.t("sessions.empty")));
  return section(ctx, title, ctx.t("sessions.count", { shown: ts.items.length, total: formatInt(ts.total) }), list(ctx, ts.items.map((s) => sessionLine(ctx, s))));
}

function treeLine(ctx: Ctx, r: CardSubAgentRow): El {
  const { p } = ctx;
  // An elbow drawn with two borders (box-drawing glyphs are not in the bundled fonts).
  const elbow = r.depth > 0 ? box({ width: 9, height: 9, marginTop: -3, borderLeft: `1.5px solid ${p.faint}`, borderBottom: `1.5px solid ${p.faint}`, borderBottomLeftRadius: 3, flexShrink: 0 }) : null;
  return row(
    { gap: 7, paddingLeft: Math.max(0, r.depth - 1) * 16 },
    elbow,
    dot(sessionColor(p, r.status), 7),
    line(r.displayName, { flex: 1, fontSize: r.depth ? 12 : 13, fontWeight: r.depth ? 400 : 600, color: p.text }),
    span(ctx.t(`status.${r.status}`), { fontSize: 11, color: r.status === "FAILED" ? p.bad : p.muted }),
    span(formatCompact(r.totalTokens, ctx.lang), { width: 52, justifyContent: "flex-end", fontSize: 12, fontWeight: 600, color: p.text, ...NUM }),
  );
}

export function subAgentTree(ctx: Ctx, b: CardBlock): El | null {
  const sa = b.subAgents;
  if (sa === undefined) return null;
  const title = ctx.t("subagents.title");
  if (sa === null) return section(ctx, title, null, unavailable(ctx));
  if (!sa.rows.length) return section(ctx, title, null, empty(ctx, ctx.t("subagents.empty")));
  return section(
    ctx,
    title,
    formatInt(sa.sessions),
    box({ gap: 7, paddingTop: 10, paddingBottom: 10, paddingLeft: 12, paddingRight: 12, borderRadius: 10, backgroundColor: ctx.p.surface }, sa.rows.map((r) => treeLine(ctx, r)), more(ctx, sa.more)),
  );
}
