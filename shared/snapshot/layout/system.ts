// The full card's surroundings: OpenClaw's channels and process figures, each provider's sources
// and all-time totals, and the health checks behind the daemon's one verdict.
import { formatCompact, formatDate, formatInt, formatMB, formatMs, formatPercent, formatUsd } from "../format.js";
import type { MessageKey } from "../messages.js";
import type { CardBlock, CardOpenClawBlock } from "../card-model.js";
import { hasCapability, isProviderName, type ProviderName } from "../../providers/registry.js";
import { levelColor, type Ctx } from "./context.js";
import { box, line, row, span, type El } from "./h.js";
import { badge, dot, empty, INNER, list, more, NUM, section, stat, unavailable } from "./primitives.js";

const CHIP_GAP = 8;
const CHIP = (INNER - CHIP_GAP) / 2;

export function channels(ctx: Ctx, b: CardOpenClawBlock): El | null {
  const c = b.channels;
  if (c === undefined) return null;
  const { p } = ctx;
  const title = ctx.t("channels.title");
  if (c === null) return section(ctx, title, null, unavailable(ctx));
  if (!c.items.length) return section(ctx, title, null, empty(ctx, ctx.t("channels.empty")));
  const connected = c.items.filter((x) => x.connected).length;
  const chips = c.items.map((ch) =>
    box(
      { width: CHIP, gap: 2, paddingTop: 8, paddingBottom: 8, paddingLeft: 10, paddingRight: 10, borderRadius: 10, backgroundColor: p.surface },
      row(
        { gap: 7 },
        dot(ch.connected ? p.ok : p.bad, 7),
        line(ch.provider, { flex: 1, fontSize: 12, fontWeight: 600, color: p.text }),
        ch.latencyMs !== null && ch.connected ? span(formatMs(ch.latencyMs, ctx.lang), { fontSize: 11, color: p.muted, ...NUM }) : null,
      ),
      line(ch.name === ch.provider ? ctx.t(ch.connected ? "channels.connected" : "channels.disconnected") : `${ch.name} · ${ctx.t(ch.connected ? "channels.connected" : "channels.disconnected")}`, {
        fontSize: 11,
        color: ch.connected ? p.muted : p.bad,
      }),
    ),
  );
  return section(ctx, title, `${connected}/${c.total}`, row({ flexWrap: "wrap", gap: CHIP_GAP, alignItems: "stretch" }, chips), more(ctx, c.total - c.items.length));
}

const CHECK_NAMES: Readonly<Record<string, MessageKey>> = {
  gateway: "checkName.gateway",
  ready: "checkName.ready",
  "event-loop": "checkName.event-loop",
  channels: "checkName.channels",
  sources: "checkName.sources",
  disk: "checkName.disk",
  store: "checkName.store",
  pricing: "checkName.pricing",
  "rate-limit": "checkName.rate-limit",
  detection: "checkName.detection",
};

/** The providers whose checks the API names `<provider>/<check>`: those without a gateway. */
function prefixedOwner(owner: string | null): ProviderName | null {
  return owner !== null && isProviderName(owner) && !hasCapability(owner, "gateway") ? owner : null;
}

/**
 * A check's name in words: another provider's check (`codex/rate-limit`) with its provider's name
 * first; one the catalog does not know (a newer check) as the API spells it.
 */
function checkName(ctx: Ctx, name: string): string {
  const slash = name.indexOf("/");
  const owner = slash > 0 ? name.slice(0, slash) : null;
  const prefixed = prefixedOwner(owner);
  const own = prefixed ? name.slice(slash + 1) : name;
  const key = Object.hasOwn(CHECK_NAMES, own) ? CHECK_NAMES[own] : undefined;
  const words = key ? ctx.t(key) : own;
  return prefixed ? `${ctx.t(`provider.${prefixed}`)} · ${words}` : words;
}

export function healthChecks(ctx: Ctx): El | null {
  return healthCheckParts(ctx, Infinity)[0] ?? null;
}

/**
 * The health checks as sections of at most `rowsPerPart` checks each (all of them in one when
 * Infinity), the first with the title and the passed count. The pages handed to a model keep every
 * part whole on a page: a machine with many checks (15 on the demo) made one part taller than a
 * page, so its page went over the limit.
 */
export function healthCheckParts(ctx: Ctx, rowsPerPart: number): El[] {
  const hc = ctx.m.health;
  if (hc === undefined) return [];
  const { p } = ctx;
  const title = ctx.t("health.title");
  if (hc === null) return [section(ctx, title, null, unavailable(ctx))];
  if (!hc.checks.length) return [section(ctx, title, null, empty(ctx, ctx.t("health.empty")))];
  const rows = hc.checks.map((c) =>
    row(
      { gap: 10, alignItems: "flex-start" },
      box({ paddingTop: 1 }, badge(ctx.t(`check.${c.status}`), levelColor(p, c.status), 42)),
      box({ flex: 1, minWidth: 0, gap: 1 }, line(checkName(ctx, c.name), { fontSize: 12, fontWeight: 600, color: p.text }), c.message ? line(c.message, { fontSize: 11, color: p.muted }) : null),
    ),
  );
  const passed = hc.checks.filter((c) => c.status === "PASS").length;
  const out: El[] = [];
  // The title heads the first part only: the parts read as the one section of the card.
  for (let i = 0; i < rows.length; i += rowsPerPart) {
    const chunk = list(ctx, rows.slice(i, i + rowsPerPart));
    out.push(i === 0 ? section(ctx, title, `${passed}/${hc.checks.length}`, chunk) : chunk);
  }
  return out;
}

/** OpenClaw's gateway process (full): CPU, memory, the state dir's size, its pid. */
export function resources(ctx: Ctx, b: CardOpenClawBlock): El | null {
  const r = b.resources;
  if (r === undefined) return null;
  const { p } = ctx;
  const title = ctx.t("system.title");
  if (r === null) return section(ctx, title, null, unavailable(ctx));
  const none = ctx.t("value.none");
  return section(
    ctx,
    title,
    null,
    row(
      { gap: 10, paddingTop: 10, paddingBottom: 10, paddingLeft: 12, paddingRight: 12, borderRadius: 10, backgroundColor: p.surface },
      stat(ctx, ctx.t("system.cpu"), r.cpuPercent != null ? formatPercent(r.cpuPercent, ctx.lang) : none),
      stat(ctx, ctx.t("system.memory"), r.memoryMB != null ? formatMB(r.memoryMB, ctx.lang) : none),
      stat(ctx, ctx.t("system.disk"), r.diskMB != null ? formatMB(r.diskMB, ctx.lang) : none),
      stat(ctx, ctx.t("system.pid"), r.pid !== null ? String(r.pid) : none),
    ),
  );
}

/** The provider's sources (full): agents or installs, and why one is not connected. */
export function sourceChips(ctx: Ctx, b: CardBlock): El | null {
  const list = b.sources;
  if (list === undefined) return null;
  const { p } = ctx;
  const chips = list.length
    ? row(
        { flexWrap: "wrap", gap: 6 },
        list.map((src) => {
          const color = src.status === "CONNECTED" ? p.ok : src.status === "INITIALIZING" ? p.accent : src.status === "DISCONNECTED" ? p.warn : p.bad;
          return row(
            { gap: 6, maxWidth: INNER, paddingTop: 4, paddingBottom: 4, paddingLeft: 8, paddingRight: 9, borderRadius: 999, border: `1px solid ${p.border}` },
            dot(color, 6),
            line(src.id, { fontSize: 11, color: p.text, maxWidth: 220 }),
            src.status === "CONNECTED" ? null : span(ctx.t(`source.${src.status}`), { fontSize: 11, color }),
          );
        }),
      )
    : empty(ctx, ctx.t("sources.empty"));
  const errors = list.filter((x) => x.lastError && x.status !== "CONNECTED");
  return section(
    ctx,
    ctx.t("sources.title"),
    `${list.filter((x) => x.status === "CONNECTED").length}/${list.length}`,
    chips,
    errors.map((x) => line(`${x.id}: ${x.lastError ?? ""}`, { fontSize: 11, color: levelColor(p, "FAIL") })),
  );
}

export function totals(ctx: Ctx, b: CardBlock): El | null {
  const tt = b.totals;
  if (tt === undefined) return null;
  const { p } = ctx;
  const title = ctx.t("totals.title");
  if (tt === null) return section(ctx, title, null, unavailable(ctx));
  return section(
    ctx,
    title,
    tt.since ? ctx.t("totals.since", { date: formatDate(Date.parse(tt.since), ctx.lang, ctx.timeZone) }) : null,
    row(
      { gap: 10, paddingTop: 10, paddingBottom: 10, paddingLeft: 12, paddingRight: 12, borderRadius: 10, backgroundColor: p.surface },
      stat(ctx, ctx.t("totals.tokens"), formatCompact(tt.tokens, ctx.lang)),
      stat(ctx, ctx.t("totals.cost"), tt.unpricedResponses > 0 && tt.costUsd === 0 ? ctx.t("cost.unpriced") : `${formatUsd(tt.costUsd, ctx.lang)}${tt.unpricedResponses > 0 ? "+" : ""}`, tt.unpricedResponses > 0 ? p.warn : undefined),
      stat(ctx, ctx.t("totals.today"), tt.todayCostUsd !== null ? formatUsd(tt.todayCostUsd, ctx.lang) : ctx.t("value.none")),
      stat(ctx, ctx.t("totals.sessions"), formatInt(tt.transcripts)),
    ),
  );
}
