// The MCP tool `snapshot` (spec: POST /mcp): its JSON schema, which documents every parameter
// with its allowed values and MCP defaults (range 6h, no 30m), and its call: PNG and SVG come
// back as image content with a short text summary, JSON as text; a failure is a tool result with
// isError and the error code, never a protocol error.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { cardSummary } from "../../shared/snapshot/summary.js";
import { MAX_PAGE_HEIGHT_PX } from "../../shared/snapshot/render.js";
import { parseSnapshotParams, SNAPSHOT_DETAILS, SNAPSHOT_FORMATS, SNAPSHOT_LANGS, SNAPSHOT_RULES, SNAPSHOT_THEMES } from "../../shared/snapshot/params.js";
import { snapshotErrorBody } from "../snapshot/errors.js";
import type { SnapshotService } from "../snapshot/service.js";

const RULES = SNAPSHOT_RULES.mcp;
const D = RULES.defaults;

export const SNAPSHOT_TOOL: Tool = {
  name: "snapshot",
  title: "AI agent status card",
  description:
    "A status card of every AI agent runtime gateway-insights reads (the OpenClaw gateway, Claude Code, Codex), each in its own block: " +
    "the overall health verdict; per provider tokens, cost (unpriced responses marked, never $0), turns, errors and warnings over the range and active sessions; " +
    "OpenClaw's gateway state, version and uptime; the CLIs' version and sessions running now; Codex's plan rate limits (used % and reset time). " +
    "standard adds top sessions and a token chart; full adds sub-agents, the event log, cron jobs, channels and health checks. " +
    "Returns a PNG (780 px wide) or SVG image plus a text summary, or the card's data as JSON (schemaVersion 2).",
  inputSchema: {
    type: "object",
    properties: {
      detail: { type: "string", enum: [...SNAPSHOT_DETAILS], default: D.detail, description: "compact: summary numbers per provider; standard: + top sessions per provider, token chart, recent errors; full: everything incl. the event log and health checks" },
      format: { type: "string", enum: [...SNAPSHOT_FORMATS], default: D.format, description: "png or svg image, or json (the card's data model, schemaVersion 2: one block per provider)" },
      range: { type: "string", enum: [...RULES.allowedRanges], default: D.range, description: "Time range the figures cover, ending now" },
      theme: { type: "string", enum: [...SNAPSHOT_THEMES], default: D.theme, description: "Colour theme of the image" },
      lang: { type: "string", enum: [...SNAPSHOT_LANGS], default: D.lang, description: "Language of the labels: English or Chinese" },
    },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
};

export async function callSnapshotTool(service: SnapshotService, args: unknown, client: string, agent: string | null = null): Promise<CallToolResult> {
  try {
    const params = parseSnapshotParams(args ?? {}, RULES);
    // A PNG goes as pages a model can read (render.ts, renderPages); REST and the CLI keep one image.
    const r = await service.snapshot(params, { client, via: "mcp", session: agent }, params.format === "png" ? { pageHeightPx: MAX_PAGE_HEIGHT_PX } : {});
    const pages = r.pages ?? [r.body];
    const summary =
      cardSummary(r.card) +
      (r.params.detail !== r.requestedDetail ? ` (detail lowered from ${r.requestedDetail} to ${r.params.detail} to fit the size limit)` : "") +
      (params.format === "png" && pages.length > 1 ? ` The card follows as ${pages.length} images, top to bottom.` : "");
    if (params.format === "json") return { content: [{ type: "text", text: r.body.toString("utf8") }] };
    if (params.format === "svg") {
      // SVG as text, never as an image block: no agent can use an SVG image (OpenClaw's Anthropic
      // models fail the turn on it, Claude Code saves it to a file, Codex omits it).
      return { content: [{ type: "text", text: summary }, { type: "resource", resource: { uri: `insights://snapshot/${r.fileName}`, mimeType: "image/svg+xml", text: r.body.toString("utf8") } }] };
    }
    return { content: [{ type: "text", text: summary }, ...pages.map((p) => ({ type: "image" as const, data: p.toString("base64"), mimeType: "image/png" }))] };
  } catch (err) {
    const { body } = snapshotErrorBody(err);
    return { isError: true, content: [{ type: "text", text: `${body.code}: ${body.message}` }], structuredContent: { ...body } };
  }
}
