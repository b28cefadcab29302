// The card's small building blocks: section frame, status dot, pill, badge, empty and
// unavailable notes, "+N more". Sizes are CSS px of the 390 px card (the PNG doubles them).
import type { Ctx } from "./context.js";
import { box, line, row, span, type Child, type El } from "./h.js";
import { tint } from "./theme.js";

export const CARD_WIDTH = 390;
export const PAD = 16;
export const INNER = CARD_WIDTH - 2 * PAD;

/**
 * Equal-width digits, so figures in columns and changing numbers line up. Only on numbers:
 * Inter's tnum also widens hyphens ("claude-sonnet" would read "claude - sonnet").
 */
export const NUM = { fontVariantNumeric: "tabular-nums" } as const;

/**
 * A short label from data (a version, a plan) cut to `max` characters: it sits in a box that
 * keeps its width, so a hostile long value would otherwise push the card wider than 390 px.
 */
export function clip(text: string, max = 24): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

export function dot(color: string, size = 8): El {
  return box({ width: size, height: size, borderRadius: size, backgroundColor: color, flexShrink: 0 });
}

/** A rounded label on a tint of its colour, with a leading dot. */
export function pill(text: string, color: string, size = 12): El {
  return row(
    { gap: 6, paddingTop: 3, paddingBottom: 3, paddingLeft: 9, paddingRight: 10, borderRadius: 999, backgroundColor: tint(color, 0.16), flexShrink: 0 },
    dot(color, 7),
    span(text, { color, fontSize: size, fontWeight: 600 }),
  );
}

/** A small fixed-width status tag (pass, warn, error, ...). */
export function badge(text: string, color: string, width = 44): El {
  return row(
    { width, height: 17, justifyContent: "center", borderRadius: 4, backgroundColor: tint(color, 0.16), flexShrink: 0 },
    span(text, { color, fontSize: 10, fontWeight: 600 }),
  );
}

/** A titled block; `meta` sits at the right of the title (counts, peak). */
export function section(ctx: Ctx, title: string, meta: string | null, ...content: Child[]): El {
  return box(
    { gap: 8 },
    row(
      { justifyContent: "space-between", gap: 8 },
      line(title, { fontSize: 11, fontWeight: 600, color: ctx.p.muted, letterSpacing: 0.6, textTransform: "uppercase" }),
      meta ? span(meta, { fontSize: 11, color: ctx.p.faint, ...NUM }) : null,
    ),
    ...content,
  );
}

/** "No sessions" and friends: a section that has nothing to list still says so. */
export function empty(ctx: Ctx, text: string): El {
  return row(
    { justifyContent: "center", paddingTop: 10, paddingBottom: 10, borderRadius: 8, backgroundColor: ctx.p.surface },
    span(text, { fontSize: 12, color: ctx.p.muted }),
  );
}

/** The section's source failed; the card still renders without it. */
export function unavailable(ctx: Ctx): El {
  return row(
    { gap: 8, paddingTop: 9, paddingBottom: 9, paddingLeft: 10, paddingRight: 10, borderRadius: 8, backgroundColor: tint(ctx.p.warn, 0.1) },
    dot(ctx.p.warn, 7),
    line(ctx.t("card.unavailable"), { fontSize: 12, color: ctx.p.warn, flex: 1 }),
  );
}

export function more(ctx: Ctx, n: number): El | null {
  return n > 0 ? span(ctx.t("list.more", { n }), { fontSize: 11, color: ctx.p.faint }) : null;
}

/** A label over a value, for rows of small figures. */
export function stat(ctx: Ctx, label: string, value: string, valueColor?: string): El {
  return box(
    { flex: 1, gap: 2, minWidth: 0 },
    line(label, { fontSize: 11, color: ctx.p.muted }),
    line(value, { fontSize: 14, fontWeight: 600, color: valueColor ?? ctx.p.text, ...NUM }),
  );
}

/** A list of rows on the surface colour, hairlines between them. */
export function list(ctx: Ctx, rows: readonly El[]): El {
  return box(
    { borderRadius: 10, backgroundColor: ctx.p.surface, paddingLeft: 12, paddingRight: 12 },
    rows.map((r, i) => box({ paddingTop: 8, paddingBottom: 8, borderTop: i === 0 ? "none" : `1px solid ${ctx.p.border}` }, r)),
  );
}
