// The MCP tool `snapshot` (spec: POST /mcp): its JSON schema, which documents every parameter
// with its allowed values and MCP defaults (range 6h, no 30m), and its call: PNG and SVG come
// back as image content with a short text summary, JSON as text; a failure is a tool result with
// isError and the error code, never a protocol error.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { cardSummary } from "../../shared/snapshot/summary.js";
import { parseSnapshotParams, SNAPSHOT_DETAILS, SNAPSHOT_FORMATS, SNAPSHOT_LANGS, SNAPSHOT_RULES, SNAPSHOT_THEMES } from "../../shared/snapshot/params.js";
import { snapshotErrorBody } from "../snapshot/errors.js";
import type { SnapshotService } from "../snapshot/service.js";

const RULES = SNAPSHOT_RULES.mcp;
const D = RULES.defaults;

export const SNAPSHOT_TOOL: Tool = {
  name: "snapshot",
  title: "OpenClaw gateway status card",
  description:
    "A status card of the OpenClaw gateway that gateway-insights watches: whether it runs and is healthy, versions and uptime, " +
    "tokens, cost, turns, errors and warnings over the range, top sessions, a token chart; at detail full also sub-agents, the event log, " +
    "cron jobs, channels and health checks. Returns a PNG (780 px wide) or SVG image plus a text summary, or the card's data as JSON.",
  inputSchema: {
    type: "object",
    properties: {
      detail: { type: "string", enum: [...SNAPSHOT_DETAILS], default: D.detail, description: "compact: summary numbers only; standard: + sessions, token chart, recent errors; full: everything incl. the event log" },
      format: { type: "string", enum: [...SNAPSHOT_FORMATS], default: D.format, description: "png or svg image, or json (the card's data model, schemaVersion 1)" },
      range: { type: "string", enum: [...RULES.allowedRanges], default: D.range, description: "Time range the figures cover, ending now" },
      theme: { type: "string", enum: [...SNAPSHOT_THEMES], default: D.theme, description: "Colour theme of the image" },
      lang: { type: "string", enum: [...SNAPSHOT_LANGS], default: D.lang, description: "Language of the labels: English or Chinese" },
    },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
};

export async function callSnapshotTool(service: SnapshotService, args: unknown, client: string): Promise<CallToolResult> {
  try {
    const params = parseSnapshotParams(args ?? {}, RULES);
    const r = await service.snapshot(params, { client, via: "mcp" });
    const summary = cardSummary(r.card) + (r.params.detail !== r.requestedDetail ? ` (detail lowered from ${r.requestedDetail} to ${r.params.detail} to fit the size limit)` : "");
    if (params.format === "json") return { content: [{ type: "text", text: r.body.toString("utf8") }] };
    return {
      content: [
        { type: "image", data: r.body.toString("base64"), mimeType: params.format === "png" ? "image/png" : "image/svg+xml" },
        { type: "text", text: summary },
      ],
    };
  } catch (err) {
    const { body } = snapshotErrorBody(err);
    return { isError: true, content: [{ type: "text", text: `${body.code}: ${body.message}` }], structuredContent: { ...body } };
  }
}
