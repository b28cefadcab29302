// The per-request gate the HTTP server calls before a route's handler: applies the route's auth
// requirement, the failure limiter, writes the refusal itself (JSON per design §6/§7) and records
// the auth kind for the access log. Routes that need the session's CSRF value read authResultOf(req).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Clock } from "../../shared/clock.js";
import type { Logger } from "../../shared/log/logger.js";
import { authenticate, presentedKind, requireLocal, WWW_AUTHENTICATE, type AuthFailure, type AuthKind, type AuthSuccess } from "./authenticate.js";
import type { FailureLimiter } from "./failure-limiter.js";
import type { KeyRing } from "./key-ring.js";

export interface RouteAuth {
  /** No credential needed (/health, the sign-in link, static assets). No-auth mode still serves only loopback peers, /health excepted. */
  publicPath?: boolean;
  /** No credential, but loopback peer and local Host/Origin only (/mcp, design §7). */
  loopbackOnly?: boolean;
}

export type AuthGuard = (req: IncomingMessage, res: ServerResponse, route?: RouteAuth) => AuthSuccess | null;

export interface AuthGuardOptions {
  token: string;
  noAuth: boolean;
  ring: KeyRing;
  limiter: FailureLimiter;
  clock: Clock;
  /** The peer address of a request; default its socket's remote address. */
  peerOf?: (req: IncomingMessage) => string | undefined;
  /** Where blocks are reported; never given a credential. */
  logger?: Pick<Logger, "warn">;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface RateLimited {
  ok: false;
  status: 429;
  code: "RATE_LIMITED";
  message: string;
  retryAfterSeconds: number;
}

// Kept beside the request instead of in a response header, so nothing about auth reaches the client.
const kinds = new WeakMap<IncomingMessage, AuthKind>();
const results = new WeakMap<IncomingMessage, AuthSuccess>();

/** The auth kind recorded for a request (what it presented, when refused), for the access log. */
export function authKindOf(req: IncomingMessage): AuthKind | undefined {
  return kinds.get(req);
}

/** The accepted auth of a request, once the guard let it through. */
export function authResultOf(req: IncomingMessage): AuthSuccess | undefined {
  return results.get(req);
}

export function recordAuthKind(req: IncomingMessage, kind: AuthKind): void {
  kinds.set(req, kind);
}

export function defaultPeerOf(req: IncomingMessage): string | undefined {
  return req.socket.remoteAddress;
}

export function createAuthGuard(options: AuthGuardOptions): AuthGuard {
  const { token, noAuth, ring, limiter, clock, logger } = options;
  const peerOf = options.peerOf ?? defaultPeerOf;
  if (!noAuth && token.length < 32) throw new RangeError("createAuthGuard: the API token must be at least 32 characters");

  const accept = (req: IncomingMessage, result: AuthSuccess): AuthSuccess => {
    kinds.set(req, result.kind);
    results.set(req, result);
    return result;
  };

  return (req, res, route = {}) => {
    const peer = peerOf(req);
    if (route.loopbackOnly) {
      const local = requireLocal(req, peer);
      if (local.ok) return accept(req, local);
      kinds.set(req, local.attempted);
      sendAuthError(res, local);
      return null;
    }
    if (route.publicPath && !noAuth) return accept(req, { ok: true, kind: "none" });

    const now = clock.now();
    if (!noAuth) {
      const retryAfterSeconds = limiter.retryAfterSeconds(peer, now);
      if (retryAfterSeconds > 0) {
        kinds.set(req, presentedKind(req));
        sendAuthError(res, rateLimited(retryAfterSeconds));
        return null;
      }
    }
    const result = authenticate(req, { token, noAuth, ring, clock, peer });
    if (result.ok) return accept(req, result);
    kinds.set(req, result.attempted);
    if (result.badCredential) {
      const blockedFor = limiter.recordFailure(peer, now);
      if (blockedFor > 0) logger?.warn("too many failed sign-ins; blocking the peer", { peer, seconds: blockedFor });
    }
    sendAuthError(res, result);
    return null;
  };
}

/** Wraps a handler so it runs only for requests the guard accepts (usable until the server does it per route). */
export function protect(guard: AuthGuard, handler: RouteHandler, route: RouteAuth = {}): RouteHandler {
  return (req, res) => {
    if (!guard(req, res, route)) return;
    return handler(req, res);
  };
}

export function rateLimited(retryAfterSeconds: number): RateLimited {
  return {
    ok: false,
    status: 429,
    code: "RATE_LIMITED",
    message: `too many failed attempts from this address; try again in ${retryAfterSeconds} s`,
    retryAfterSeconds,
  };
}

/** Writes a refusal: `{code, message}` (plus retryAfterSeconds and Retry-After on 429, WWW-Authenticate on 401). */
export function sendAuthError(res: ServerResponse, failure: AuthFailure | RateLimited): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string | number> = { "Content-Type": "application/json; charset=utf-8" };
  const body: Record<string, unknown> = { code: failure.code, message: failure.message };
  if (failure.status === 401) headers["WWW-Authenticate"] = WWW_AUTHENTICATE;
  if (failure.status === 429) {
    headers["Retry-After"] = failure.retryAfterSeconds;
    body.retryAfterSeconds = failure.retryAfterSeconds;
  }
  const text = JSON.stringify(body);
  headers["Content-Length"] = Buffer.byteLength(text);
  res.writeHead(failure.status, headers);
  res.end(text);
}
