// One provider's block: a heading in the provider's colour (OpenClaw: the gateway's state; Claude
// Code and Codex: the CLI's version and sessions running now), Codex's rate limits, the key numbers,
// then whatever sections the detail level put in the model.
import type { CardBlock } from "../card-model.js";
import { isGatewayBlock, isRateLimitedBlock } from "../blocks.js";
import { formatDuration } from "../format.js";
import { gatewayColor, type Ctx } from "./context.js";
import { tokenChart } from "./chart.js";
import { cronJobs } from "./cron.js";
import { eventLog, recentErrors } from "./events.js";
import { box, line, row, span, type Child, type El } from "./h.js";
import { clip, pill } from "./primitives.js";
import { rateLimits } from "./rate-limits.js";
import { subAgentTree, topSessions } from "./sessions.js";
import { providerTiles } from "./summary.js";
import { channels, resources, sourceChips, totals } from "./system.js";
import { tint } from "./theme.js";

const sep = (ctx: Ctx): El => span("·", { fontSize: 11, color: ctx.p.faint });

/** The line under the heading: uptime and versions (OpenClaw), the CLI's version and sessions running. */
function facts(ctx: Ctx, b: CardBlock): El {
  const { p } = ctx;
  const muted = { fontSize: 11, color: p.muted };
  if (isGatewayBlock(b)) {
    const g = b.gateway;
    const uptime = g.uptimeSeconds !== null ? ctx.t("header.uptime", { duration: formatDuration(g.uptimeSeconds, ctx.lang) }) : g.running === false && g.state === "DOWN" ? ctx.t("header.notRunning") : null;
    return row(
      { gap: 6, flexWrap: "wrap" },
      uptime ? span(uptime, { fontSize: 11, color: p.text, fontWeight: 600 }) : null,
      uptime ? sep(ctx) : null,
      span(g.version ? ctx.t("header.version", { version: clip(g.version) }) : ctx.t("header.versionUnknown"), muted),
      g.updateAvailable
        ? // Without a known version the message keeps a double space; close it.
          span(ctx.t("header.update", { version: clip(g.latestVersion ?? "") }).replace(/\s{2,}/g, " "), {
            fontSize: 10,
            fontWeight: 600,
            color: p.accent,
            backgroundColor: tint(p.accent, 0.14),
            borderRadius: 4,
            paddingLeft: 6,
            paddingRight: 6,
            paddingTop: 1,
            paddingBottom: 1,
          })
        : null,
    );
  }
  if (!b.cli) return row({}, span(ctx.t("cli.unavailable"), { fontSize: 11, color: p.warn }));
  return row(
    { gap: 6, flexWrap: "wrap" },
    span(b.cli.version ? ctx.t("cli.version", { version: clip(b.cli.version) }) : ctx.t("cli.versionUnknown"), muted),
    sep(ctx),
    span(ctx.tn("cli.live", b.cli.liveSessions), { fontSize: 11, color: b.cli.liveSessions ? p.ok : p.muted, fontWeight: b.cli.liveSessions ? 600 : 400 }),
  );
}

function heading(ctx: Ctx, b: CardBlock): El {
  const { p } = ctx;
  const color = p.provider[b.provider];
  return box(
    { gap: 4, paddingTop: 8, paddingBottom: 8, paddingLeft: 12, paddingRight: 10, borderRadius: 10, backgroundColor: tint(color, 0.12), borderLeft: `4px solid ${color}` },
    row(
      { gap: 8, justifyContent: "space-between" },
      line(ctx.t(`provider.${b.provider}`), { flex: 1, fontSize: 15, fontWeight: 700, color: p.text }),
      isGatewayBlock(b) ? pill(ctx.t(`gateway.${b.gateway.state}`), gatewayColor(p, b.gateway.state), 12) : null,
    ),
    facts(ctx, b),
  );
}

/** The block's gap between its parts. */
export const BLOCK_GAP = 14;

/**
 * The block's parts in order, grouped as they may be spread over pages (an image for a model
 * must stay short): the heading with the key numbers first, then each section whole.
 */
export function providerParts(ctx: Ctx, b: CardBlock, withChart: boolean): Child[][] {
  return [
    [heading(ctx, b), isRateLimitedBlock(b) ? rateLimits(ctx, b) : null, providerTiles(ctx, b), withChart ? tokenChart(ctx, [b]) : null],
    [topSessions(ctx, b)],
    [recentErrors(ctx, b)],
    [subAgentTree(ctx, b)],
    [eventLog(ctx, b)],
    ...(isGatewayBlock(b) ? [[cronJobs(ctx, b)], [channels(ctx, b)], [resources(ctx, b)]] : []),
    [sourceChips(ctx, b), totals(ctx, b)],
  ];
}

/** `withChart`: the chart goes in the block (one provider); with several it is drawn once above. */
export function providerBlock(ctx: Ctx, b: CardBlock, withChart: boolean): El {
  return box({ gap: BLOCK_GAP }, ...providerParts(ctx, b, withChart));
}

/** On a page that goes on with a block begun on the page before: whose it is. */
export function continuedHeading(ctx: Ctx, b: CardBlock): El {
  const color = ctx.p.provider[b.provider];
  return row(
    { gap: 8, paddingLeft: 12, borderLeft: `4px solid ${color}` },
    line(ctx.t("card.continued", { provider: ctx.t(`provider.${b.provider}`) }), { flex: 1, fontSize: 13, fontWeight: 700, color: ctx.p.text }),
  );
}
