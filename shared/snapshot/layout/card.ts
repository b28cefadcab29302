// The whole card: header, key numbers, then the sections the model holds (the model decides
// what each detail level shows; the layout draws whatever is there), then the footer.
import type { CardModel } from "../card-model.js";
import { formatDateTime, formatZone } from "../format.js";
import { makeCtx } from "./context.js";
import { tokenChart } from "./chart.js";
import { cronJobs } from "./cron.js";
import { eventLog, recentErrors } from "./events.js";
import { box, line, row, type El } from "./h.js";
import { header } from "./header.js";
import { CARD_WIDTH, PAD } from "./primitives.js";
import { subAgentTree, topSessions } from "./sessions.js";
import { summary } from "./summary.js";
import { channels, healthChecks, systemFigures, totals } from "./system.js";
import { PRIMARY_FAMILY } from "../fonts.js";

export function cardElement(model: CardModel): El {
  const ctx = makeCtx(model);
  const { p } = ctx;
  const generated = formatDateTime(ctx.now, ctx.lang, ctx.timeZone);
  return box(
    {
      width: CARD_WIDTH,
      padding: PAD,
      gap: 16,
      backgroundColor: p.bg,
      color: p.text,
      fontFamily: PRIMARY_FAMILY,
      fontSize: 13,
      lineHeight: 1.35,
    },
    header(ctx),
    summary(ctx),
    tokenChart(ctx),
    topSessions(ctx),
    recentErrors(ctx),
    subAgentTree(ctx),
    eventLog(ctx),
    cronJobs(ctx),
    channels(ctx),
    healthChecks(ctx),
    systemFigures(ctx),
    totals(ctx),
    row(
      { justifyContent: "space-between", gap: 8, paddingTop: 10, borderTop: `1px solid ${p.border}` },
      line(ctx.t("card.generated", { time: `${generated} ${formatZone(ctx.now, ctx.timeZone)}` }), { fontSize: 10, color: p.faint, flex: 1 }),
      line("gateway-insights", { fontSize: 10, fontWeight: 600, color: p.faint }),
    ),
  );
}
