// A WebSocket upgrade (graphql-ws on /graphql) is judged by the same check as any request; a
// refusal is answered on the raw socket, since an upgrade has no ServerResponse.
//
// One exception, the graphql-ws convention: a client asking for graphql-transport-ws with no
// credential at all may be let through ("deferred") to send its token in the ConnectionInit's
// connectionParams, where websocket.ts checks it with the same check. A wrong credential in the
// headers is refused here as always; a browser page from another origin is never deferred (the
// HTTP API serves no other origin either).
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { ownOrigin, WWW_AUTHENTICATE } from "./authenticate.js";
import type { AuthCheck } from "./guard.js";
import { isLocalOrigin } from "./ip.js";

const REASONS: Record<number, string> = { 401: "Unauthorized", 403: "Forbidden", 429: "Too Many Requests", 503: "Service Unavailable" };

const GRAPHQL_WS_PROTOCOL = "graphql-transport-ws";

interface UpgradeVerdict {
  /** 101 when the upgrade may proceed; else the status of the refusal already written to the socket. */
  status: number;
  /** Accepted without a credential: the graphql-ws ConnectionInit must bring one. */
  deferred: boolean;
}

/** Whether the client offers the graphql-transport-ws subprotocol. */
function offersGraphqlWs(req: IncomingMessage): boolean {
  const offered = req.headers["sec-websocket-protocol"];
  return typeof offered === "string" && offered.split(",").some((p) => p.trim() === GRAPHQL_WS_PROTOCOL);
}

export function authenticateUpgrade(req: IncomingMessage, socket: Duplex, check: AuthCheck): UpgradeVerdict {
  const result = check(req);
  if (!result.ok) {
    const missing = result.status === 401 && "attempted" in result && result.attempted === "none";
    const origin = req.headers.origin;
    if (missing && offersGraphqlWs(req) && (origin === undefined || isLocalOrigin(origin))) return { status: 101, deferred: true };
    const headers: Record<string, string> = {};
    if (result.status === 401) headers["WWW-Authenticate"] = WWW_AUTHENTICATE;
    if (result.status === 429) headers["Retry-After"] = String(result.retryAfterSeconds);
    return { status: refuseUpgrade(socket, result.status, { code: result.code, message: result.message }, headers), deferred: false };
  }
  // A browser sends the cookie on a cross-site WebSocket too: the Origin must be ours.
  if (result.kind === "cookie" && req.headers.origin?.toLowerCase() !== ownOrigin(req)) {
    return { status: refuseUpgrade(socket, 403, { code: "CSRF_FAILED", message: "a cookie-authenticated WebSocket must come from this server's own origin" }), deferred: false };
  }
  return { status: 101, deferred: false };
}

/** Answers an upgrade request with an HTTP refusal and closes the socket; returns the status. */
export function refuseUpgrade(socket: Duplex, status: number, body: { code: string; message: string }, headers: Record<string, string> = {}): number {
  const text = JSON.stringify(body);
  const lines = [`HTTP/1.1 ${status} ${REASONS[status] ?? "Error"}`, "Content-Type: application/json; charset=utf-8", `Content-Length: ${Buffer.byteLength(text)}`, "Connection: close"];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  socket.end(`${lines.join("\r\n")}\r\n\r\n${text}`);
  return status;
}
