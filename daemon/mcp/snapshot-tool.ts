// The MCP tool `snapshot` (spec: POST /mcp): its schemas, which document every parameter with its
// allowed values and MCP defaults (range 6h, no 30m) in words as well, since Codex drops JSON
// Schema defaults; and its call, shaped for what real agents pass on to their model:
// - the text summary first, in the card's language;
// - PNG as pages no taller than MAX_PAGE_HEIGHT_PX (agents shrink a taller image until it cannot be
//   read, and Anthropic refuses one over 8,000 px), in order; REST and the CLI keep one image;
// - SVG as an embedded text resource, never an image block (no agent can use an SVG image);
// - JSON as structuredContent and the same JSON as text, at most MAX_JSON_TEXT characters in all,
//   dropping the least useful parts of the card first.
// Only JSON has structuredContent, and the tool declares no outputSchema (which would demand it of
// every call): Codex hands its model the structured content INSTEAD of the content when there is
// any (seen with Codex 0.169: a PNG call's images never reached the model, and the whole card's
// JSON was cut in the middle). A failure is a tool result with isError and "CODE: message" as its
// only content; an unknown tool is a JSON-RPC error (server.ts).
import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import type { CardModel } from "../../shared/snapshot/card-model.js";
import { isGatewayBlock } from "../../shared/snapshot/blocks.js";
import { MAX_PAGE_HEIGHT_PX } from "../../shared/snapshot/render.js";
import { cardSummary } from "../../shared/snapshot/summary.js";
import { parseSnapshotParams, SNAPSHOT_DETAILS, SNAPSHOT_FORMATS, SNAPSHOT_LANGS, SNAPSHOT_RULES, SNAPSHOT_THEMES } from "../../shared/snapshot/params.js";
import { snapshotErrorBody } from "../snapshot/errors.js";
import type { SnapshotService } from "../snapshot/service.js";
import { displayNames } from "../../shared/providers/registry.js";

const RULES = SNAPSHOT_RULES.mcp;
const D = RULES.defaults;

/**
 * The longest JSON answer (structured content and its text copy alike): Codex forwards about
 * 12,000 characters of a tool's output by default and splices a marker into anything longer,
 * which leaves no valid JSON.
 */
export const MAX_JSON_TEXT = 10_000;

export const SNAPSHOT_TOOL: Tool = {
  name: "snapshot",
  title: "AI agent status card",
  description:
    `A status card of every AI agent runtime gateway-insights reads (${displayNames()}), each in its own block: ` +
    "the overall health verdict; per provider tokens, cost (unpriced responses marked, never $0), turns, errors and warnings over the range and active sessions; " +
    "the agent gateway's state, version and uptime; the CLIs' version and sessions running now; the plan's rate limits where the provider records them (used % and reset time). " +
    "standard adds top sessions and a token chart; full adds sub-agents, the event log, cron jobs, channels and health checks. " +
    `Returns a text summary first, then: png (the default): the card as PNG images 780 px wide, each at most ${MAX_PAGE_HEIGHT_PX} px high, top to bottom (compact is 1-2 images, standard about 3, full about 8); ` +
    "svg: the card as SVG text (an embedded resource), for a file or a browser, not for viewing; " +
    `json: {summary, format, detail, card} with the card's data (schemaVersion 2), as structured content and as the same text, at most ${MAX_JSON_TEXT} characters (parts of the card left out to fit are listed in card.omitted). ` +
    "To read the numbers, json or the summary suffice; to show a person, png. With no arguments: detail standard, format png, range 6h, theme dark, lang en.",
  inputSchema: {
    type: "object",
    properties: {
      detail: {
        type: "string",
        enum: [...SNAPSHOT_DETAILS],
        default: D.detail,
        description: `How much the card shows (default ${D.detail}). compact: summary numbers per provider; standard: + top sessions per provider, token chart, recent errors; full: everything incl. the event log and health checks`,
      },
      format: {
        type: "string",
        enum: [...SNAPSHOT_FORMATS],
        default: D.format,
        description: `What comes back besides the summary (default ${D.format}). png: images a model can view; json: the card's data (schemaVersion 2: one block per provider); svg: SVG text for a file`,
      },
      range: { type: "string", enum: [...RULES.allowedRanges], default: D.range, description: `Time range the figures cover, ending now (default ${D.range})` },
      theme: { type: "string", enum: [...SNAPSHOT_THEMES], default: D.theme, description: `Colour theme of the images (default ${D.theme})` },
      lang: { type: "string", enum: [...SNAPSHOT_LANGS], default: D.lang, description: `Language of the labels and the summary, en (English) or zh (Chinese) (default ${D.lang})` },
    },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
};

type Block = CardModel["providers"][number];
/** What the text copy drops, least useful first, until it fits. */
const DROP_ORDER: ReadonlyArray<{ name: string; drop: (c: CardModel) => CardModel }> = [
  { name: "providers[].events", drop: (c) => ({ ...c, providers: c.providers.map((b) => ({ ...b, events: null })) }) },
  { name: "providers[].tokenChart", drop: (c) => ({ ...c, providers: c.providers.map((b) => ({ ...b, tokenChart: null })) }) },
  { name: "providers[].subAgents", drop: (c) => ({ ...c, providers: c.providers.map((b) => ({ ...b, subAgents: null })) }) },
  { name: "providers[].cron", drop: (c) => ({ ...c, providers: c.providers.map((b): Block => (isGatewayBlock(b) ? { ...b, cron: null } : b)) }) },
  { name: "providers[].channels", drop: (c) => ({ ...c, providers: c.providers.map((b): Block => (isGatewayBlock(b) ? { ...b, channels: null } : b)) }) },
  { name: "health", drop: (c) => ({ ...c, health: null }) },
  { name: "providers[].sources", drop: (c) => ({ ...c, providers: c.providers.map((b) => ({ ...b, sources: [] })) }) },
  { name: "providers[].recentErrors", drop: (c) => ({ ...c, providers: c.providers.map((b) => ({ ...b, recentErrors: null })) }) },
  { name: "providers[].topSessions", drop: (c) => ({ ...c, providers: c.providers.map((b) => ({ ...b, topSessions: null })) }) },
];

/**
 * The card as compact JSON text of at most `limit` characters: whole when it fits, else with the
 * parts of DROP_ORDER set to null one after the other and named in a top-level `omitted` list.
 * Always valid JSON; the structured content beside it has the whole card.
 */
export function fitCardJson(card: CardModel, limit = MAX_JSON_TEXT): string {
  let text = JSON.stringify(card);
  const omitted: string[] = [];
  let current = card;
  for (const step of DROP_ORDER) {
    if (text.length <= limit) break;
    current = step.drop(current);
    omitted.push(step.name);
    text = JSON.stringify({ omitted, ...current });
  }
  return text;
}

export async function callSnapshotTool(service: SnapshotService, args: unknown, client: string, agent: string | null = null): Promise<CallToolResult> {
  try {
    const params = parseSnapshotParams(args ?? {}, RULES);
    const r = await service.snapshot(params, { client, via: "mcp", session: agent }, params.format === "png" ? { pageHeightPx: MAX_PAGE_HEIGHT_PX } : {});
    const pages = r.pages ?? [r.body];
    const zh = r.card.lang === "zh";
    const lowered = r.params.detail !== r.requestedDetail ? (zh ? `（为符合大小限制，详细程度由 ${r.requestedDetail} 降为 ${r.params.detail}）` : ` (detail lowered from ${r.requestedDetail} to ${r.params.detail} to fit the size limit)`) : "";
    const follows = params.format === "png" && pages.length > 1 ? (zh ? `卡片分为 ${pages.length} 张图片，自上而下。` : ` The card follows as ${pages.length} images, top to bottom.`) : "";
    const summary = cardSummary(r.card) + lowered + follows;
    if (params.format === "json") {
      const head = { summary, format: params.format, detail: r.params.detail };
      // The card gets what the rest of the answer leaves of the limit.
      const room = MAX_JSON_TEXT - JSON.stringify({ ...head, card: null }).length;
      const structured = { ...head, card: JSON.parse(fitCardJson(r.card, room)) as Record<string, unknown> };
      return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
    }
    if (params.format === "svg") {
      return { content: [{ type: "text", text: summary }, { type: "resource", resource: { uri: `insights://snapshot/${r.fileName}`, mimeType: "image/svg+xml", text: r.body.toString("utf8") } }] };
    }
    return { content: [{ type: "text", text: summary }, ...pages.map((p) => ({ type: "image" as const, data: p.toString("base64"), mimeType: "image/png" }))] };
  } catch (err) {
    const { body } = snapshotErrorBody(err);
    return { isError: true, content: [{ type: "text", text: `${body.code}: ${body.message}` }] };
  }
}
