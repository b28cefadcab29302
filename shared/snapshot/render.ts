// CardModel -> SVG (satori) -> PNG (resvg, at 2x). satori and resvg are imported on first use so
// that importing this module (e.g. from the CLI) costs nothing until a card is drawn.
import { InsightsError, errorMessage } from "../base/errors.js";
import type { CardModel } from "./card-model.js";
import { cardFonts, elementText, PRIMARY_FAMILY } from "./fonts.js";
import { CARD_GAP, cardElement } from "./layout/card.js";
import { cardParts, packPages, pageElement, pageExtras, pageFrame } from "./layout/pages.js";
import { CARD_WIDTH, PAD } from "./layout/primitives.js";

export type CardImageFormat = "png" | "svg";

interface RenderOptions {
  /**
   * SVG only: keep text as <text> elements naming the font family instead of drawing glyph
   * outlines. Smaller, searchable, but it shows right only where the fonts are installed; for
   * tests and inspection. PNG always uses outlines.
   */
  textAsText?: boolean;
}

/** PNG pixels per CSS px: a 390 px card becomes 780 px wide, sharp on phones. */
export const PNG_SCALE = 2;

type Satori = typeof import("satori").default;
type RenderAsync = typeof import("@resvg/resvg-js").renderAsync;
let satoriFn: Promise<Satori> | undefined;
let resvgFn: Promise<RenderAsync> | undefined;

const loadSatori = (): Promise<Satori> => (satoriFn ??= import("satori").then((m) => m.default));
const loadResvg = (): Promise<RenderAsync> => (resvgFn ??= import("@resvg/resvg-js").then((m) => m.renderAsync));

async function toSvg(model: CardModel, embedFont: boolean): Promise<string> {
  const tree = cardElement(model);
  // The fonts for this card's characters: the CJK slices load only when its text has hanzi.
  const [satori, fonts] = await Promise.all([loadSatori(), cardFonts(elementText(tree).join(""))]);
  // pointScaleFactor 2 rounds the layout to half pixels: whole pixels of the 2x PNG.
  // satori types its input as React's ReactNode; plain {type, props} objects are what it takes
  // without React, so the element is passed as that type.
  const element = tree as unknown as Parameters<Satori>[0];
  return satori(element, { width: CARD_WIDTH, fonts, embedFont, pointScaleFactor: PNG_SCALE });
}

/**
 * Loads what every card needs: satori and resvg, their WebAssembly and native parts, and the Latin
 * fonts, by laying out and rasterizing one word. A render worker runs it as it starts (warm.ts).
 */
export async function loadRenderer(): Promise<void> {
  const [satori, fonts, renderAsync] = await Promise.all([loadSatori(), cardFonts(""), loadResvg()]);
  const word = { type: "div", props: { style: { display: "flex", fontFamily: PRIMARY_FAMILY }, children: "Insights" } } as unknown as Parameters<Satori>[0];
  const svg = await satori(word, { width: 80, height: 20, fonts, embedFont: true });
  await renderAsync(svg, { font: { loadSystemFonts: false }, logLevel: "off" });
}

/** Draws the card. Errors are InsightsError RENDER_FAILED with the cause attached. */
export async function renderCard(model: CardModel, format: CardImageFormat, options: RenderOptions = {}): Promise<Buffer> {
  try {
    if (format === "svg") return Buffer.from(await toSvg(model, !options.textAsText), "utf8");
    const svg = await toSvg(model, true);
    const renderAsync = await loadResvg();
    // renderAsync, never `new Resvg().render()`: the synchronous path leaks native memory per call.
    const image = await renderAsync(svg, { fitTo: { mode: "zoom", value: PNG_SCALE }, font: { loadSystemFonts: false }, logLevel: "off" });
    return image.asPng();
  } catch (err) {
    if (err instanceof InsightsError) throw err;
    throw new InsightsError("RENDER_FAILED", `rendering the ${format} card failed: ${errorMessage(err)}`, { format }, { cause: err });
  }
}

/** The tallest page handed to a model, in PNG pixels (Anthropic advises at most 1,568 px on the long edge). */
export const MAX_PAGE_HEIGHT_PX = 1600;

/** The height of satori's SVG (its root's height attribute), in CSS px. */
function svgHeight(svg: string): number {
  const m = /^<svg[^>]*\sheight="([\d.]+)"/.exec(svg);
  if (!m) throw new Error("satori's SVG has no height");
  return Number(m[1]);
}

/**
 * The card as PNG pages no taller than `maxHeightPx` (layout/pages.ts says why and how): every
 * part is measured alone in the card's frame, the parts are packed in order, and each page is
 * drawn at the card's width and scale. A card that fits is one page.
 */
export async function renderPages(model: CardModel, maxHeightPx = MAX_PAGE_HEIGHT_PX): Promise<Buffer[]> {
  try {
    const { ctx, parts } = cardParts(model);
    const extras = pageExtras(ctx);
    const all = [...parts.map((x) => x.el), extras.continued, extras.caption];
    const [satori, fonts, renderAsync] = await Promise.all([loadSatori(), cardFonts(all.flatMap((el) => elementText(el)).join("")), loadResvg()]);
    const layout = (el: ReturnType<typeof pageFrame>): Promise<string> => satori(el as unknown as Parameters<Satori>[0], { width: CARD_WIDTH, fonts, embedFont: true, pointScaleFactor: PNG_SCALE });
    // Each part alone in the frame: its height is the frame's less the padding.
    const alone = async (el: ReturnType<typeof pageFrame>): Promise<number> => svgHeight(await layout(pageFrame(ctx, el))) - 2 * PAD;
    const heights: number[] = [];
    for (const x of parts) heights.push(await alone(x.el));
    const [continued, caption] = [await alone(extras.continued), await alone(extras.caption)];
    const fixed = 2 * PAD + CARD_GAP + caption;
    let maxHeight = Math.floor(maxHeightPx / PNG_SCALE);
    for (let attempt = 0; ; attempt++) {
      const pages = packPages(heights, parts.map((x) => x.block), { maxHeight, fixed, gap: CARD_GAP, continuedHeight: continued });
      const out: Buffer[] = [];
      let tallest = 0;
      for (const [i, idx] of pages.entries()) {
        const first = idx[0] as number;
        const block = parts[first]?.block ?? null;
        const continues = block !== null && first > 0 && parts[first - 1]?.block === block ? block : null;
        const svg = await layout(pageElement(ctx, idx.map((k) => parts[k] as (typeof parts)[number]), continues, i + 1, pages.length));
        tallest = Math.max(tallest, svgHeight(svg) * PNG_SCALE);
        const image = await renderAsync(svg, { fitTo: { mode: "zoom", value: PNG_SCALE }, font: { loadSystemFonts: false }, logLevel: "off" });
        out.push(image.asPng());
      }
      // Measured alone, parts add up to the page within a pixel or two; should they not, pack tighter once.
      if (tallest <= maxHeightPx || attempt > 0 || pages.every((idx) => idx.length === 1)) return out;
      maxHeight -= Math.ceil((tallest - maxHeightPx) / PNG_SCALE);
    }
  } catch (err) {
    if (err instanceof InsightsError) throw err;
    throw new InsightsError("RENDER_FAILED", `rendering the card's pages failed: ${errorMessage(err)}`, {}, { cause: err });
  }
}
