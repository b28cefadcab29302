// POST /mcp: an MCP server (official SDK), Streamable HTTP, stateless with JSON responses: each
// request gets a fresh server and transport, so nothing is kept between calls. The route is
// loopback-only with a local Host and Origin (the HTTP guard's loopbackOnly rule, design §7).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import { InsightsError } from "../../shared/errors.js";
import type { Logger } from "../../shared/log/logger.js";
import { VERSION } from "../../shared/version.js";
import { parseJsonBody } from "../http/body.js";
import type { HttpServer } from "../http/server.js";
import type { SnapshotService } from "../snapshot/service.js";
import { callSnapshotTool, SNAPSHOT_TOOL } from "./snapshot-tool.js";

export const MCP_PATH = "/mcp";
export const MAX_MCP_BODY_BYTES = 64 * 1024;

function mcpServer(service: SnapshotService, client: string): Server {
  const server = new Server({ name: "gateway-insights", version: VERSION }, { capabilities: { tools: {} }, instructions: "Call the snapshot tool for a picture of the health, usage, cost and rate limits of the AI agent runtimes read here (OpenClaw, Claude Code, Codex)." });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [SNAPSHOT_TOOL] }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    if (req.params.name !== SNAPSHOT_TOOL.name) return { isError: true, content: [{ type: "text", text: `INVALID_PARAM: no tool ${req.params.name}; the only tool is snapshot` }] };
    return callSnapshotTool(service, req.params.arguments, client);
  });
  return server;
}

/** A JSON-RPC error answer (the MCP transport's own format) for a request refused before the SDK sees it. */
function sendRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  const text = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

export function mountMcp(http: HttpServer, service: SnapshotService, logger: Logger, peerOf: (req: IncomingMessage) => string | undefined): void {
  http.route(
    "POST",
    MCP_PATH,
    async (req, res, raw) => {
      let body: unknown;
      try {
        body = parseJsonBody(raw);
      } catch (err) {
        return sendRpcError(res, 400, -32700, err instanceof InsightsError ? err.message : "bad request");
      }
      const server = mcpServer(service, peerOf(req) ?? "loopback");
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        // The body is passed parsed: the SDK never reads the request stream (the server read it under the limit).
        await transport.handleRequest(req, res, body);
      } catch (err) {
        logger.error("MCP request failed", { error: err instanceof Error ? err.message : String(err) });
        if (!res.headersSent) sendRpcError(res, 500, -32603, "internal error");
      }
    },
    { loopbackOnly: true, maxBodyBytes: MAX_MCP_BODY_BYTES, tooLarge: (res, message) => sendRpcError(res, 413, -32700, message) },
  );
}
