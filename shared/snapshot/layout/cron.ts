// Cron jobs (full): failing jobs first, then overdue ones, with their last run and next run.
import { formatDuration, formatDurationMs, formatInt, formatRelative } from "../format.js";
import type { CardCronRow, CardOpenClawBlock } from "../card-model.js";
import type { MessageKey } from "../messages.js";
import type { Ctx } from "./context.js";
import { box, line, row, span, type El } from "./h.js";
import { dot, empty, list, more, section, unavailable } from "./primitives.js";

const STATUS_WORDS: Readonly<Record<string, MessageKey>> = { ok: "cron.status.ok", error: "cron.status.error", skipped: "cron.status.skipped", running: "cron.status.running" };

function jobLine(ctx: Ctx, j: CardCronRow): El {
  const { p } = ctx;
  const status = j.lastStatus?.toLowerCase() ?? null;
  const color = !j.enabled ? p.idle : j.consecutiveErrors > 0 || status === "error" ? p.bad : j.overdueSeconds !== null ? p.warn : status === "ok" ? p.ok : status === "running" ? p.accent : p.idle;
  const known = status === null ? undefined : STATUS_WORDS[status];
  const statusText = status === null ? ctx.t("cron.never") : known ? ctx.t(known) : ctx.t("cron.status.other", { status });
  const last = j.lastRunAt
    ? `${statusText} · ${ctx.t("cron.last", { time: formatRelative(Date.parse(j.lastRunAt), ctx.now, ctx.lang) })}${j.lastDurationMs !== null ? ` · ${formatDurationMs(j.lastDurationMs, ctx.lang)}` : ""}`
    : statusText;
  const right = !j.enabled
    ? span(ctx.t("cron.disabled"), { fontSize: 11, color: p.idle })
    : j.consecutiveErrors > 0
      ? span(ctx.tn("cron.errorsInRow", j.consecutiveErrors), { fontSize: 11, fontWeight: 600, color: p.bad })
      : j.overdueSeconds !== null
        ? span(ctx.t("cron.overdue", { duration: formatDuration(j.overdueSeconds, ctx.lang) }), { fontSize: 11, fontWeight: 600, color: p.warn })
        : span(j.nextRunAt ? ctx.t("cron.next", { time: formatRelative(Date.parse(j.nextRunAt), ctx.now, ctx.lang) }) : ctx.t("cron.noNext"), { fontSize: 11, color: p.muted });
  return row(
    { gap: 10, alignItems: "flex-start" },
    box({ paddingTop: 5 }, dot(color)),
    box(
      { flex: 1, minWidth: 0, gap: 2 },
      row({ gap: 8, justifyContent: "space-between" }, line(j.name, { flex: 1, fontSize: 13, fontWeight: 600, color: j.enabled ? p.text : p.muted }), right),
      line(`${j.schedule} · ${last}`, { fontSize: 11, color: p.muted }),
    ),
  );
}

export function cronJobs(ctx: Ctx, b: CardOpenClawBlock): El | null {
  const c = b.cron;
  if (c === undefined) return null;
  const title = ctx.t("cron.title");
  if (c === null) return section(ctx, title, null, unavailable(ctx));
  if (!c.items.length) return section(ctx, title, null, empty(ctx, ctx.t("cron.empty")));
  return section(ctx, title, formatInt(c.total), list(ctx, c.items.map((j) => jobLine(ctx, j))), more(ctx, c.total - c.items.length));
}
