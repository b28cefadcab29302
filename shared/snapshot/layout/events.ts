// Recent errors (standard, full) and the event log (full).
import { formatClock, formatDateTime, formatInt } from "../format.js";
import type { CardBlock, CardErrorRow, CardEventRow } from "../card-model.js";
import { levelColor, type Ctx } from "./context.js";
import { box, line, row, span, type El } from "./h.js";
import { badge, empty, list, more, NUM, section, unavailable } from "./primitives.js";

/** Clock time when within the last day, else the date too. */
function when(ctx: Ctx, iso: string): string {
  const ms = Date.parse(iso);
  return ctx.now - ms < 20 * 3600_000 ? formatClock(ms, ctx.timeZone) : formatDateTime(ms, ctx.lang, ctx.timeZone);
}

function errorLine(ctx: Ctx, e: CardErrorRow): El {
  const { p } = ctx;
  return box(
    { gap: 2 },
    row({ gap: 8 }, span(when(ctx, e.time), { fontSize: 11, color: p.muted, ...NUM }), line(e.module, { fontSize: 11, fontWeight: 600, color: p.bad, flex: 1 })),
    line(e.message, { fontSize: 12, color: p.text }),
  );
}

export function recentErrors(ctx: Ctx, b: CardBlock): El | null {
  const re = b.recentErrors;
  if (re === undefined) return null;
  const title = ctx.t("errors.title");
  if (re === null) return section(ctx, title, null, unavailable(ctx));
  if (!re.items.length) return section(ctx, title, null, empty(ctx, ctx.t("errors.empty")));
  return section(ctx, title, formatInt(re.total), list(ctx, re.items.map((e) => errorLine(ctx, e))), more(ctx, re.total - re.items.length));
}

function eventLine(ctx: Ctx, e: CardEventRow): El {
  const { p } = ctx;
  return box(
    { gap: 3 },
    row(
      { gap: 8 },
      span(when(ctx, e.time), { fontSize: 11, color: p.muted, ...NUM }),
      badge(ctx.t(`event.${e.type}`), levelColor(p, e.type), 48),
      line(e.module, { flex: 1, fontSize: 11, fontWeight: 600, color: p.muted }),
    ),
    line(e.message, { fontSize: 12, color: p.text }),
  );
}

export function eventLog(ctx: Ctx, b: CardBlock): El | null {
  const ev = b.events;
  if (ev === undefined) return null;
  const title = ctx.t("events.title");
  if (ev === null) return section(ctx, title, null, unavailable(ctx));
  if (!ev.items.length) return section(ctx, title, null, empty(ctx, ctx.t("events.empty")));
  return section(ctx, title, formatInt(ev.total), list(ctx, ev.items.map((e) => eventLine(ctx, e))), more(ctx, ev.total - ev.items.length));
}
