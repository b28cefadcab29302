// POST /mcp: an MCP server (official SDK), Streamable HTTP, stateless with JSON responses: each
// request gets a fresh server and transport, so nothing is kept between calls. The route is
// loopback-only with a local Host and Origin (the HTTP guard's loopbackOnly rule, design §7).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { IncomingMessage } from "node:http";
import { InsightsError } from "../../shared/errors.js";
import type { Logger } from "../../shared/log/logger.js";
import { VERSION } from "../../shared/version.js";
import { parseJsonBody, readBody } from "../http/body.js";
import type { HttpServer } from "../http/server.js";
import type { SnapshotService } from "../snapshot/service.js";
import { callSnapshotTool, SNAPSHOT_TOOL } from "./snapshot-tool.js";

export const MCP_PATH = "/mcp";
const MAX_MCP_BODY_BYTES = 64 * 1024;

function mcpServer(service: SnapshotService, client: string): Server {
  const server = new Server({ name: "gateway-insights", version: VERSION }, { capabilities: { tools: {} }, instructions: "Call the snapshot tool for a picture of the OpenClaw gateway's health, usage and cost." });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [SNAPSHOT_TOOL] }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    if (req.params.name !== SNAPSHOT_TOOL.name) return { isError: true, content: [{ type: "text", text: `INVALID_PARAM: no tool ${req.params.name}; the only tool is snapshot` }] };
    return callSnapshotTool(service, req.params.arguments, client);
  });
  return server;
}

export function mountMcp(http: HttpServer, service: SnapshotService, logger: Logger, peerOf: (req: IncomingMessage) => string | undefined): void {
  http.route(
    "POST",
    MCP_PATH,
    async (req, res) => {
      let body: unknown;
      try {
        body = parseJsonBody(await readBody(req, MAX_MCP_BODY_BYTES));
      } catch (err) {
        const message = err instanceof InsightsError ? err.message : "bad request";
        const status = err instanceof InsightsError && err.code === "PAYLOAD_TOO_LARGE" ? 413 : 400;
        const text = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message } });
        res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
        res.end(text);
        return;
      }
      const server = mcpServer(service, peerOf(req) ?? "loopback");
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
      } catch (err) {
        logger.error("MCP request failed", { error: err instanceof Error ? err.message : String(err) });
        if (!res.headersSent) {
          const text = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: "internal error" } });
          res.writeHead(500, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
          res.end(text);
        }
      }
    },
    { loopbackOnly: true },
  );
}
