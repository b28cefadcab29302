// A WebSocket upgrade (graphql-ws on /graphql) is judged by the same check as any request; a
// refusal is answered on the raw socket, since an upgrade has no ServerResponse.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { ownOrigin, WWW_AUTHENTICATE } from "./authenticate.js";
import type { AuthCheck } from "./guard.js";

const REASONS: Record<number, string> = { 401: "Unauthorized", 403: "Forbidden", 429: "Too Many Requests" };

/** 101 when the upgrade may proceed; else the status of the refusal already written to the socket. */
export function authenticateUpgrade(req: IncomingMessage, socket: Duplex, check: AuthCheck): number {
  const result = check(req);
  if (!result.ok) {
    const headers: Record<string, string> = {};
    if (result.status === 401) headers["WWW-Authenticate"] = WWW_AUTHENTICATE;
    if (result.status === 429) headers["Retry-After"] = String(result.retryAfterSeconds);
    return refuse(socket, result.status, { code: result.code, message: result.message }, headers);
  }
  // A browser sends the cookie on a cross-site WebSocket too: the Origin must be ours.
  if (result.kind === "cookie" && req.headers.origin?.toLowerCase() !== ownOrigin(req)) {
    return refuse(socket, 403, { code: "CSRF_FAILED", message: "a cookie-authenticated WebSocket must come from this server's own origin" });
  }
  return 101;
}

function refuse(socket: Duplex, status: number, body: { code: string; message: string }, headers: Record<string, string> = {}): number {
  const text = JSON.stringify(body);
  const lines = [`HTTP/1.1 ${status} ${REASONS[status] ?? "Error"}`, "Content-Type: application/json; charset=utf-8", `Content-Length: ${Buffer.byteLength(text)}`, "Connection: close"];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  socket.end(`${lines.join("\r\n")}\r\n\r\n${text}`);
  return status;
}
