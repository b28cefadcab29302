// The card cut into pages for a model's eyes: an image taller than about 1,600 px is shrunk by
// every agent (Claude Code to 2,000 px high, Codex to 2,048: a 780 x 9,600 full card arrives at
// 164 px wide) or refused (Anthropic's limit is 8,000 px). The same parts as the card, at the same
// width and scale, each part whole on one page and the pages in the card's order; a page that
// goes on with a provider's block says whose it is, and each page says which of how many it is.
import type { CardModel } from "../card-model.js";
import { alertsBlock } from "./alerts.js";
import { allProvidersBlock, CARD_GAP, footer } from "./card.js";
import { makeCtx, type Ctx } from "./context.js";
import { box, line, row, type Child, type El } from "./h.js";
import { header } from "./header.js";
import { CARD_WIDTH, PAD } from "./primitives.js";
import { BLOCK_GAP, continuedHeading, providerParts } from "./provider.js";
import { healthCheckParts } from "./system.js";
import { PRIMARY_FAMILY } from "../fonts.js";

/** Health checks per part: 8 rows (about 400 px at the PNG's scale) leave room on any page. */
const HEALTH_ROWS_PER_PART = 8;

/** One part of the card: kept whole on a page. */
interface CardPart {
  el: El;
  /** The provider block it belongs to (index in model.providers), or null for the card's own parts. */
  block: number | null;
}

const present = (children: Child[]): boolean => children.some((c) => c !== null && c !== undefined && c !== false && !(Array.isArray(c) && !present(c)));

/** The card's parts in order (header, alerts, all providers, each provider's parts, health checks). */
export function cardParts(model: CardModel): { ctx: Ctx; parts: CardPart[] } {
  const ctx = makeCtx(model);
  const several = model.providers.length > 1;
  const parts: CardPart[] = [];
  const add = (block: number | null, ...children: Child[]): void => {
    if (present(children)) parts.push({ el: box({ gap: BLOCK_GAP }, ...children), block });
  };
  add(null, header(ctx));
  add(null, alertsBlock(ctx));
  add(null, allProvidersBlock(ctx));
  model.providers.forEach((b, i) => {
    for (const p of providerParts(ctx, b, !several)) add(i, ...p);
  });
  for (const part of healthCheckParts(ctx, HEALTH_ROWS_PER_PART)) add(null, part);
  return { ctx, parts };
}

/** A page's closing line: which page of how many (the last page's is the card's footer with it). */
function pageCaption(ctx: Ctx, page: number, pages: number): El {
  const which = ctx.t("card.page", { page: String(page), pages: String(pages) });
  if (page === pages) return footer(ctx, which);
  return row(
    { justifyContent: "space-between", gap: 8, paddingTop: 10, borderTop: `1px solid ${ctx.p.border}` },
    line(which, { fontSize: 10, color: ctx.p.faint, flex: 1 }),
    line("gateway-insights", { fontSize: 10, fontWeight: 600, color: ctx.p.faint }),
  );
}

/** The card's frame (width, padding, colours, type) around some parts. */
export function pageFrame(ctx: Ctx, ...children: Child[]): El {
  const { p } = ctx;
  return box({ width: CARD_WIDTH, padding: PAD, gap: CARD_GAP, backgroundColor: p.bg, color: p.text, fontFamily: PRIMARY_FAMILY, fontSize: 13, lineHeight: 1.35 }, ...children);
}

/**
 * Page `page` of `pages` with the parts given. One that goes on with a provider's block begun on
 * the page before (`continues`: the block's index) starts with the block's name.
 */
export function pageElement(ctx: Ctx, parts: readonly CardPart[], continues: number | null, page: number, pages: number): El {
  const block = continues === null ? undefined : ctx.m.providers[continues];
  return pageFrame(ctx, block ? continuedHeading(ctx, block) : null, parts.map((x) => x.el), pageCaption(ctx, page, pages));
}

/** What a page has besides its parts, for measuring: the continued heading and the closing line. */
export function pageExtras(ctx: Ctx): { continued: El; caption: El } {
  const first = ctx.m.providers[0];
  return { continued: first ? continuedHeading(ctx, first) : box({}), caption: pageCaption(ctx, 9, 9) };
}

/**
 * Packs parts of known heights (CSS px) into pages no taller than `maxHeight`: in order, as many
 * whole parts as fit. A part that continues a provider's block on a new page gets its continued
 * heading (`continuedHeight` tall). A part taller than a page by itself gets a page of its own.
 * Returns the indexes of the parts of each page; `fixed` is what every page has besides its parts
 * (padding, caption, footer).
 */
export function packPages(heights: readonly number[], blocks: ReadonlyArray<number | null>, o: { maxHeight: number; fixed: number; gap: number; continuedHeight: number }): number[][] {
  const pages: number[][] = [];
  let current: number[] = [];
  let used = o.fixed;
  heights.forEach((h, i) => {
    const continues = blocks[i] !== null && i > 0 && blocks[i - 1] === blocks[i];
    const extra = (current.length ? o.gap : 0) + h;
    if (current.length && used + extra > o.maxHeight) {
      pages.push(current);
      current = [];
      used = o.fixed + (continues ? o.continuedHeight + o.gap : 0);
      used += h;
    } else used += extra;
    current.push(i);
  });
  if (current.length) pages.push(current);
  return pages;
}
