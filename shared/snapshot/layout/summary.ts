// Key numbers as tiles, three to a row: a provider's six (every detail level shows them) and the
// "all providers" three. A cost with unpriced responses says so: it is never shown as $0.
import type { CardBlock, CardSummary } from "../card-model.js";
import { isGatewayBlock } from "../blocks.js";
import { formatCompact, formatInt, formatPercent, formatRangeLabel, formatRelative, formatUsd } from "../format.js";
import type { Ctx } from "./context.js";
import { box, line, row, span, type Child, type El } from "./h.js";
import { INNER, NUM } from "./primitives.js";

const GAP = 8;
const TILE = Math.floor((INNER - 2 * GAP) / 3);

/** Long values step down in size instead of being cut: a number must be read whole. */
function valueSize(text: string): number {
  return text.length <= 6 ? 20 : text.length <= 9 ? 17 : 14;
}

interface Tile {
  label: string;
  value: Child;
  valueText: string;
  /** A short line under the label (the unpriced note). */
  note?: { text: string; color: string } | null;
}

function tile(ctx: Ctx, t: Tile): El {
  return box(
    { width: TILE, gap: 3, paddingTop: 9, paddingBottom: 9, paddingLeft: 10, paddingRight: 10, borderRadius: 10, backgroundColor: ctx.p.surface },
    row({ alignItems: "baseline", gap: 4, fontSize: valueSize(t.valueText), fontWeight: 700, color: ctx.p.text, height: 26, ...NUM }, t.value),
    line(t.label, { fontSize: 11, color: ctx.p.muted }),
    t.note ? box({ fontSize: 10, fontWeight: 600, color: t.note.color, lineHeight: 1.25 }, t.note.text) : null,
  );
}

/**
 * Nothing in the range, but there was activity before it: say when, so an empty card reads as
 * "idle since", not as "never ran" (history older than the range).
 */
function idleLine(ctx: Ctx, s: CardSummary): El | null {
  if (!s.lastActivityAt || s.tokens !== 0 || s.turns) return null;
  const last = Date.parse(s.lastActivityAt);
  if (!(last < Date.parse(ctx.m.window.from))) return null;
  const text = ctx.t("summary.idle", { range: formatRangeLabel(ctx.m.range, ctx.lang), ago: formatRelative(last, ctx.now, ctx.lang) });
  return box({ fontSize: 11, color: ctx.p.muted, lineHeight: 1.3 }, text);
}

function grid(ctx: Ctx, tiles: readonly Tile[], s: CardSummary): El {
  const rows: El[] = [];
  for (let i = 0; i < tiles.length; i += 3) rows.push(row({ gap: GAP, alignItems: "stretch" }, tiles.slice(i, i + 3).map((t) => tile(ctx, t))));
  return box({ gap: GAP }, rows, idleLine(ctx, s));
}

const dash = (ctx: Ctx, v: number | null, f: (n: number) => string): string => (v === null ? ctx.t("value.none") : f(v));

/** The cost in words: priced dollars, "unpriced" when nothing could be priced, a note when part could not. */
function costTile(ctx: Ctx, cost: number | null, unpriced: number | null): Tile {
  const label = ctx.t("kpi.cost");
  if (cost === null) return { label, value: span(ctx.t("value.none")), valueText: ctx.t("value.none") };
  if (unpriced && cost === 0) {
    const text = ctx.t("cost.unpriced");
    return { label, value: span(text, { color: ctx.p.warn }), valueText: text, note: { text: ctx.tn("cost.unpricedNote", unpriced), color: ctx.p.warn } };
  }
  const text = formatUsd(cost, ctx.lang);
  return { label, value: span(text), valueText: text, note: unpriced ? { text: ctx.tn("cost.unpricedNote", unpriced), color: ctx.p.warn } : null };
}

function errorsTile(ctx: Ctx, s: CardSummary): Tile {
  const { p } = ctx;
  const errors = dash(ctx, s.errors, (n) => formatCompact(n, ctx.lang));
  const warnings = dash(ctx, s.warnings, (n) => formatCompact(n, ctx.lang));
  return {
    label: ctx.t("kpi.errorsWarnings"),
    value: [span(errors, { color: s.errors ? p.bad : p.text }), span("/", { color: p.faint, fontWeight: 400 }), span(warnings, { color: s.warnings ? p.warn : p.text })],
    valueText: `${errors} / ${warnings}`,
  };
}

function sessionsTile(ctx: Ctx, s: CardSummary, label: string): Tile {
  const active = dash(ctx, s.activeSessions, formatInt);
  const ofTotal = s.totalSessions !== null ? ctx.t("kpi.ofTotal", { total: formatInt(s.totalSessions) }) : "";
  return { label, value: [span(active), ofTotal ? span(ofTotal, { fontSize: 11, fontWeight: 500, color: ctx.p.muted }) : null], valueText: active };
}

function plainTile(label: string, text: string, color?: string): Tile {
  return { label, value: span(text, color ? { color } : {}), valueText: text };
}

/** A provider's six tiles: tokens, cost, turns, errors/warnings, then uptime (OpenClaw) or running CLI sessions, and active sessions. */
export function providerTiles(ctx: Ctx, b: CardBlock): El {
  const { p } = ctx;
  const s = b.summary;
  const tiles: Tile[] = [
    plainTile(ctx.t("kpi.tokens"), dash(ctx, s.tokens, (n) => formatCompact(n, ctx.lang))),
    costTile(ctx, s.costUsd, s.unpricedResponses),
    plainTile(ctx.t("kpi.turns"), dash(ctx, s.turns, (n) => formatCompact(n, ctx.lang))),
    errorsTile(ctx, s),
  ];
  if (isGatewayBlock(b)) {
    const u = b.gateway.uptimePercent;
    tiles.push(plainTile(ctx.t("kpi.uptime"), dash(ctx, u, (n) => formatPercent(n, ctx.lang)), u === null ? p.muted : u >= 99 ? p.ok : u >= 95 ? p.warn : p.bad));
  } else {
    const live = b.cli ? b.cli.liveSessions : null;
    tiles.push(plainTile(ctx.t("kpi.liveNow"), dash(ctx, live, formatInt), live ? p.ok : undefined));
  }
  tiles.push(sessionsTile(ctx, s, ctx.t("kpi.activeSessions")));
  return grid(ctx, tiles, s);
}

/** Every provider together: tokens, cost, sessions. */
export function allProvidersTiles(ctx: Ctx, s: CardSummary): El {
  return grid(ctx, [plainTile(ctx.t("kpi.tokens"), dash(ctx, s.tokens, (n) => formatCompact(n, ctx.lang))), costTile(ctx, s.costUsd, s.unpricedResponses), sessionsTile(ctx, s, ctx.t("kpi.activeSessions"))], s);
}
