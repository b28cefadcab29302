// The whole card: the header (the daemon's verdict), the alerts firing now, the "all providers"
// numbers and the stacked token chart when more than one provider is read, one block per provider,
// the health checks (full), then the footer. The model decides what each detail level shows; the layout draws
// whatever is there.
import type { CardModel } from "../card-model.js";
import { formatDateTime, formatZone } from "../format.js";
import { alertsBlock } from "./alerts.js";
import { makeCtx, type Ctx } from "./context.js";
import { tokenChart } from "./chart.js";
import { box, line, row, type El } from "./h.js";
import { header } from "./header.js";
import { CARD_WIDTH, PAD, section } from "./primitives.js";
import { providerBlock } from "./provider.js";
import { allProvidersTiles } from "./summary.js";
import { healthChecks } from "./system.js";
import { PRIMARY_FAMILY } from "../fonts.js";

/** The gap between the card's blocks. */
export const CARD_GAP = 20;

export function allProvidersBlock(ctx: Ctx): El | null {
  const s = ctx.m.allProviders;
  if (!s) return null;
  return box({ gap: 14 }, section(ctx, ctx.t("all.title"), null, allProvidersTiles(ctx, s)), tokenChart(ctx, ctx.m.providers));
}

/** The card's last line: when it was made (`note`, such as the page, after it), and by what. */
export function footer(ctx: Ctx, note: string | null = null): El {
  const { p } = ctx;
  const generated = ctx.t("card.generated", { time: `${formatDateTime(ctx.now, ctx.lang, ctx.timeZone)} ${formatZone(ctx.now, ctx.timeZone)}` });
  const text = note === null ? generated : `${generated} · ${note}`;
  return row(
    { justifyContent: "space-between", gap: 8, paddingTop: 10, borderTop: `1px solid ${p.border}` },
    line(text, { fontSize: 10, color: p.faint, flex: 1 }),
    line("gateway-insights", { fontSize: 10, fontWeight: 600, color: p.faint }),
  );
}

export function cardElement(model: CardModel): El {
  const ctx = makeCtx(model);
  const { p } = ctx;
  const several = model.providers.length > 1;
  return box(
    {
      width: CARD_WIDTH,
      padding: PAD,
      gap: CARD_GAP,
      backgroundColor: p.bg,
      color: p.text,
      fontFamily: PRIMARY_FAMILY,
      fontSize: 13,
      lineHeight: 1.35,
    },
    header(ctx),
    alertsBlock(ctx),
    allProvidersBlock(ctx),
    model.providers.map((b) => providerBlock(ctx, b, !several)),
    healthChecks(ctx),
    footer(ctx),
  );
}
