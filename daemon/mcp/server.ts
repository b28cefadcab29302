// The MCP server behind POST /mcp (mount.ts loads this module on the first request): one tool,
// `snapshot`, on the MCP project's v2 server package, which serves both protocol eras on one
// endpoint: the stateless 2026-07-28 revision (per-request _meta, server/discover) that current
// Claude Code asks for first, and the 2025 revisions with the initialize handshake that older
// agents speak, each answered statelessly with a JSON body by a fresh server per request.
import { CLIENT_INFO_META_KEY, createMcpHandler, ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type McpHttpHandler } from "@modelcontextprotocol/server";
import { VERSION } from "../../shared/base/version.js";
import type { SnapshotService } from "../snapshot/service.js";
import { callSnapshotTool, SNAPSHOT_TOOL } from "./snapshot-tool.js";
import { displayNames } from "../../shared/providers/registry.js";

const INSTRUCTIONS = `Call the snapshot tool for a picture of the health, usage, cost and rate limits of the AI agent runtimes read here (${displayNames()}).`;

/** Who is asking, for the snapshot service's budgets: the peer address of the HTTP request. */
type PeerOf = (request: Request) => string;

function snapshotServer(service: SnapshotService, peerOf: PeerOf, request: Request | undefined): Server {
  const server = new Server({ name: "gateway-insights", version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler("tools/list", () => ({ tools: [SNAPSHOT_TOOL] }));
  server.setRequestHandler("tools/call", async (req, ctx): Promise<CallToolResult> => {
    // An unknown tool is a protocol error (the MCP spec's example: -32602), not a tool's failure.
    if (req.params.name !== SNAPSHOT_TOOL.name) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${req.params.name}; the only tool is snapshot`);
    const client = request ? peerOf(request) : "loopback";
    return callSnapshotTool(service, req.params.arguments, client, agentOf((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_INFO_META_KEY], request?.headers.get("user-agent") ?? null));
  });
  return server;
}

/**
 * Which agent program calls, for its share of MCP's budget: the client's name where the request
 * carries it (the 2026-07-28 revision puts clientInfo in every request's _meta), else its
 * User-Agent (Claude Code, Codex and OpenClaw each send their own). Neither is a credential: an
 * agent that varies them still shares MCP's whole budget with everyone else.
 */
function agentOf(clientInfo: unknown, userAgent: string | null): string | null {
  const name = (clientInfo as { name?: unknown } | undefined)?.name;
  const who = typeof name === "string" && name ? name : userAgent;
  return who ? who.slice(0, 120) : null;
}

/** The web-standard handler serving every MCP request: a fresh server per request, both eras (a result is one JSON body: the tool sends nothing before it). */
export function mcpHandler(service: SnapshotService, peerOf: PeerOf, maxRequestBodySize: number): McpHttpHandler {
  return createMcpHandler(({ requestInfo }) => snapshotServer(service, peerOf, requestInfo), { legacy: "stateless", maxRequestBodySize });
}
