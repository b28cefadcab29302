// POST /mcp: an MCP server (the MCP project's v2 server package, server.ts), Streamable HTTP,
// stateless with JSON responses: each request gets a fresh server, so nothing is kept between
// calls. The route is loopback-only with a local Host and Origin (the HTTP guard's loopbackOnly
// rule, design §7). The SDK is loaded on the first /mcp request, not at start: measured, its
// modules hold ~15 MB of heap in a daemon that may never be asked over MCP.
import type { IncomingMessage, ServerResponse } from "node:http";
import { InsightsError } from "../../shared/base/errors.js";
import type { Logger } from "../../shared/base/log/logger.js";
import { parseJsonBody } from "../http/body.js";
import type { HttpServer } from "../http/server.js";
import type { SnapshotService } from "../snapshot/service.js";
import type { McpHttpHandler } from "@modelcontextprotocol/server";

const MCP_PATH = "/mcp";
const MAX_MCP_BODY_BYTES = 64 * 1024;

/** A JSON-RPC error answer (the MCP transport's own format) for a request refused before the SDK sees it. */
function sendRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  const text = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

export function mountMcp(http: HttpServer, service: SnapshotService, logger: Logger, peerOf: (req: IncomingMessage) => string | undefined): void {
  let handler: Promise<McpHttpHandler> | null = null;
  // The peer of each web Request handed to the SDK, for the snapshot service's budgets.
  const peers = new WeakMap<Request, string>();
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
        handler ??= import("./server.js").then((m) => m.mcpHandler(service, (r) => peers.get(r) ?? "loopback", MAX_MCP_BODY_BYTES));
        const request = new Request(`http://${req.headers.host ?? "127.0.0.1"}${MCP_PATH}`, { method: "POST", headers: headersOf(req), body: raw });
        peers.set(request, peerOf(req) ?? "loopback");
        // The body is passed parsed too: the server read it under the limit, the SDK need not again.
        const response = await (await handler).fetch(request, { parsedBody: body });
        const headers: Record<string, string> = {};
        response.headers.forEach((v, k) => (headers[k] = v));
        const text = Buffer.from(await response.arrayBuffer());
        res.writeHead(response.status, { ...headers, "content-length": String(text.length) });
        res.end(text);
      } catch (err) {
        logger.error("MCP request failed", { error: err instanceof Error ? err.message : String(err) });
        if (!res.headersSent) sendRpcError(res, 500, -32603, "internal error");
      }
    },
    { loopbackOnly: true, maxBodyBytes: MAX_MCP_BODY_BYTES, tooLarge: (res, message) => sendRpcError(res, 413, -32700, message) },
  );
}

/** A Node request's headers as web Headers (repeated ones joined, as fetch does). */
function headersOf(req: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    h.set(k, Array.isArray(v) ? v.join(", ") : v);
  }
  return h;
}
