// Authenticates a WebSocket upgrade (graphql-ws on /graphql) by the same rules as any request,
// and answers a refusal on the raw socket, since an upgrade has no ServerResponse.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Clock } from "../../shared/clock.js";
import { authenticate, ownOrigin, WWW_AUTHENTICATE, type AuthKind } from "./authenticate.js";
import type { FailureLimiter } from "./failure-limiter.js";
import { recordAuthKind } from "./guard.js";
import type { KeyRing } from "./key-ring.js";

export interface UpgradeAuthOptions {
  token: string;
  noAuth: boolean;
  ring: KeyRing;
  limiter: FailureLimiter;
  clock: Clock;
  peerOf?: (req: IncomingMessage) => string | undefined;
}

/** The credential kind when the upgrade may proceed; null after writing the refusal and closing the socket. */
export function authenticateUpgrade(req: IncomingMessage, socket: Duplex, o: UpgradeAuthOptions): AuthKind | null {
  const peer = (o.peerOf ?? ((r: IncomingMessage) => r.socket.remoteAddress))(req);
  const now = o.clock.now();
  if (!o.noAuth) {
    const wait = o.limiter.retryAfterSeconds(peer, now);
    if (wait > 0) return refuse(socket, 429, { code: "RATE_LIMITED", message: `too many failed attempts; try again in ${wait} s` }, { "Retry-After": String(wait) });
  }
  const result = authenticate(req, { token: o.token, noAuth: o.noAuth, ring: o.ring, clock: o.clock, peer });
  if (!result.ok) {
    if (result.badCredential && !o.noAuth) o.limiter.recordFailure(peer, now);
    return refuse(socket, result.status, { code: result.code, message: result.message }, result.status === 401 ? { "WWW-Authenticate": WWW_AUTHENTICATE } : {});
  }
  // A browser sends the cookie on a cross-site WebSocket too: the Origin must be ours.
  if (result.kind === "cookie" && req.headers.origin?.toLowerCase() !== ownOrigin(req)) {
    return refuse(socket, 403, { code: "CSRF_FAILED", message: "a cookie-authenticated WebSocket must come from this server's own origin" });
  }
  recordAuthKind(req, result.kind);
  return result.kind;
}

function refuse(socket: Duplex, status: number, body: { code: string; message: string }, headers: Record<string, string> = {}): null {
  const text = JSON.stringify(body);
  const reason = { 401: "Unauthorized", 403: "Forbidden", 429: "Too Many Requests" }[status] ?? "Error";
  const lines = [`HTTP/1.1 ${status} ${reason}`, "Content-Type: application/json; charset=utf-8", `Content-Length: ${Buffer.byteLength(text)}`, "Connection: close"];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  socket.end(`${lines.join("\r\n")}\r\n\r\n${text}`);
  return null;
}
