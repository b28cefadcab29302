// The MCP server behind POST /mcp (mount.ts loads this module on the first request): one tool,
// `snapshot`; a fresh server and stateless Streamable HTTP transport with JSON responses per request.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { VERSION } from "../../shared/version.js";
import type { SnapshotService } from "../snapshot/service.js";
import { callSnapshotTool, SNAPSHOT_TOOL } from "./snapshot-tool.js";

export function mcpServer(service: SnapshotService, client: string): Server {
  const server = new Server({ name: "gateway-insights", version: VERSION }, { capabilities: { tools: {} }, instructions: "Call the snapshot tool for a picture of the health, usage, cost and rate limits of the AI agent runtimes read here (OpenClaw, Claude Code, Codex)." });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [SNAPSHOT_TOOL] }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    // An unknown tool is a protocol error (the MCP spec's example: -32602), not a tool's failure.
    if (req.params.name !== SNAPSHOT_TOOL.name) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}; the only tool is snapshot`);
    return callSnapshotTool(service, req.params.arguments, client, agentOf(req.params._meta, extra.requestInfo?.headers["user-agent"]));
  });
  return server;
}

/**
 * Which agent program calls, for its share of MCP's budget: the client's name where the request
 * carries it (the 2026-07-28 revision puts clientInfo in every request's _meta), else its
 * User-Agent (Claude Code, Codex and OpenClaw each send their own). Neither is a credential: an
 * agent that varies them still shares MCP's whole budget with everyone else.
 */
export function agentOf(meta: Record<string, unknown> | undefined, userAgent: string | string[] | undefined): string | null {
  const info = meta?.["io.modelcontextprotocol/clientInfo"] as { name?: unknown } | undefined;
  const name = typeof info?.name === "string" ? info.name : typeof userAgent === "string" ? userAgent : null;
  return name ? name.slice(0, 120) : null;
}

export function mcpTransport(): StreamableHTTPServerTransport {
  return new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
}
