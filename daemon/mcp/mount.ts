// POST /mcp: an MCP server (official SDK), Streamable HTTP, stateless with JSON responses: each
// request gets a fresh server and transport, so nothing is kept between calls. The route is
// loopback-only with a local Host and Origin (the HTTP guard's loopbackOnly rule, design §7).
// The SDK (and the zod 3 it brings) is loaded on the first /mcp request, not at start: measured,
// its modules hold ~15 MB of heap in a daemon that may never be asked over MCP.
import type { IncomingMessage, ServerResponse } from "node:http";
import { InsightsError } from "../../shared/errors.js";
import type { Logger } from "../../shared/log/logger.js";
import { parseJsonBody } from "../http/body.js";
import type { HttpServer } from "../http/server.js";
import type { SnapshotService } from "../snapshot/service.js";

export const MCP_PATH = "/mcp";
export const MAX_MCP_BODY_BYTES = 64 * 1024;

/** A JSON-RPC error answer (the MCP transport's own format) for a request refused before the SDK sees it. */
function sendRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  const text = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

export function mountMcp(http: HttpServer, service: SnapshotService, logger: Logger, peerOf: (req: IncomingMessage) => string | undefined): void {
  let sdk: Promise<typeof import("./server.js")> | null = null;
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
      try {
        sdk ??= import("./server.js");
        const { mcpServer, mcpTransport } = await sdk;
        const server = mcpServer(service, peerOf(req) ?? "loopback");
        const transport = mcpTransport();
        res.on("close", () => {
          void transport.close();
          void server.close();
        });
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
