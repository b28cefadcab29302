// The MCP server behind POST /mcp (mount.ts loads this module on the first request): one tool,
// `snapshot`; a fresh server and stateless Streamable HTTP transport with JSON responses per request.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { VERSION } from "../../shared/version.js";
import type { SnapshotService } from "../snapshot/service.js";
import { callSnapshotTool, SNAPSHOT_TOOL } from "./snapshot-tool.js";

export function mcpServer(service: SnapshotService, client: string): Server {
  const server = new Server({ name: "gateway-insights", version: VERSION }, { capabilities: { tools: {} }, instructions: "Call the snapshot tool for a picture of the health, usage, cost and rate limits of the AI agent runtimes read here (OpenClaw, Claude Code, Codex)." });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [SNAPSHOT_TOOL] }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    if (req.params.name !== SNAPSHOT_TOOL.name) return { isError: true, content: [{ type: "text", text: `INVALID_PARAM: no tool ${req.params.name}; the only tool is snapshot` }] };
    return callSnapshotTool(service, req.params.arguments, client);
  });
  return server;
}

export function mcpTransport(): StreamableHTTPServerTransport {
  return new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
}
