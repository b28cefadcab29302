// The per-request gate the HTTP server calls before a route's handler: applies the route's auth
// requirement, the failure limiter, writes the refusal itself (JSON per design §6/§7) and records
// the auth kind for the access log. Routes that need the session's CSRF value read authResultOf(req).
//
// The credential is judged first and a correct one always passes: the failure limiter only ever
// refuses failures (see failure-limiter.ts for why a block must not lock out successes).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Clock } from "../../shared/base/clock.js";
import type { Logger } from "../../shared/base/log/logger.js";
import { authenticate, bearerToken, HEALTH_PATH, insufficientScope, requireLocal, tokensEqual, WWW_AUTHENTICATE, type AuthFailure, type AuthKind, type AuthRequest, type AuthSuccess } from "./authenticate.js";
import type { FailureLimiter } from "./failure-limiter.js";
import type { KeyRing } from "./key-ring.js";

export interface RouteAuth {
  /** No credential needed (/health, the sign-in link, static assets). No-auth mode still serves only loopback peers, /health excepted. */
  publicPath?: boolean;
  /** No credential, but loopback peer and local Host/Origin only (/mcp, design §7). */
  loopbackOnly?: boolean;
  /** The read-only metrics token is accepted here too (GET /metrics); everywhere else it is refused. */
  metricsScope?: boolean;
}

/**
 * A credential presented outside the request's headers: graphql-ws sends the token in
 * `connectionParams` of its first message. It replaces the request's own Authorization and Cookie.
 */
interface PresentedCredential {
  authorization: string | undefined;
}

/** Decides about a request; on refusal the caller writes the answer (HTTP response, or raw on an upgrade socket). */
export type AuthCheck = (req: IncomingMessage, route?: RouteAuth, presented?: PresentedCredential) => AuthSuccess | AuthFailure | RateLimited;
/** Decides and, on refusal, answers the HTTP request itself; null means refused. */
export type AuthGuard = (req: IncomingMessage, res: ServerResponse, route?: RouteAuth) => AuthSuccess | null;

export interface AuthGuardOptions {
  token: string;
  /**
   * The read-only scrape token (config metricsToken): good on routes with `metricsScope` (and on
   * /health, which needs nothing), refused with 403 INSUFFICIENT_SCOPE everywhere else, so a
   * Prometheus on another host holding it can read figures but never restart a gateway or read a
   * transcript. Null: none configured. Ignored in no-auth mode.
   */
  metricsToken?: string | null;
  noAuth: boolean;
  ring: KeyRing;
  limiter: FailureLimiter;
  clock: Clock;
  /** The peer address of a request; default its socket's remote address. */
  peerOf?: (req: IncomingMessage) => string | undefined;
  /** Where blocks are reported; never given a credential. */
  logger?: Pick<Logger, "warn">;
}

interface RateLimited {
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

function defaultPeerOf(req: IncomingMessage): string | undefined {
  return req.socket?.remoteAddress;
}

/**
 * The one place a request's credentials are judged (HTTP routes, WebSocket upgrades and
 * graphql-ws connectionParams alike): the route's rule, then the credential, then for a wrong
 * secret the failure limiter (429 while the peer is blocked, else counted and 401). The auth kind
 * is recorded for the access log either way.
 */
export function createAuthCheck(options: AuthGuardOptions): AuthCheck {
  const { token, noAuth, ring, limiter, clock, logger } = options;
  const peerOf = options.peerOf ?? defaultPeerOf;
  if (!noAuth && token.length < 32) throw new RangeError("createAuthCheck: the API token must be at least 32 characters");
  const metricsToken = noAuth ? null : (options.metricsToken ?? null);
  if (metricsToken !== null && metricsToken.length < 32) throw new RangeError("createAuthCheck: the metrics token must be at least 32 characters");
  if (metricsToken !== null && tokensEqual(metricsToken, token)) throw new RangeError("createAuthCheck: the metrics token must differ from the API token");

  const accept = (req: IncomingMessage, result: AuthSuccess): AuthSuccess => {
    kinds.set(req, result.kind);
    results.set(req, result);
    return result;
  };

  return (req, route = {}, presented) => {
    const peer = peerOf(req);
    // Judged before every route rule, public and loopback-only ones included: whoever presents
    // the scrape token gets exactly GET /metrics (and /health), whatever else the route allows.
    if (metricsToken !== null) {
      const bearer = bearerToken(presented ? presented.authorization : req.headers.authorization);
      if (bearer && tokensEqual(bearer, metricsToken)) {
        if (route.metricsScope || pathOnly(req.url) === HEALTH_PATH) return accept(req, { ok: true, kind: "metrics" });
        kinds.set(req, "metrics");
        return insufficientScope();
      }
    }
    if (route.loopbackOnly) {
      const local = requireLocal(req, peer);
      if (local.ok) return accept(req, local);
      kinds.set(req, local.attempted);
      return local;
    }
    if (route.publicPath && !noAuth) return accept(req, { ok: true, kind: "none" });

    const judged: AuthRequest = presented ? { method: req.method, url: req.url, headers: { ...req.headers, authorization: presented.authorization, cookie: undefined }, socket: req.socket } : req;
    const result = authenticate(judged, { token, noAuth, ring, clock, peer });
    if (result.ok) return accept(req, result);
    kinds.set(req, result.attempted);
    // A missing or expired credential, or a missing CSRF header, is no guess: 401/403 as it is.
    if (!result.badCredential || noAuth) return result;
    return countFailure(limiter, peer, clock.now(), logger) ?? result;
  };
}

/**
 * A wrong secret from `peer`: 429 while the peer is blocked (not counted again), else counted
 * (null: answer the failure as it is). Shared by the guard and the `/?token=` sign-in.
 */
export function countFailure(limiter: FailureLimiter, peer: string | undefined, now: number, logger?: Pick<Logger, "warn">): RateLimited | null {
  const wait = limiter.retryAfterSeconds(peer, now);
  if (wait > 0) return rateLimited(wait);
  const blockedFor = limiter.recordFailure(peer, now);
  if (blockedFor > 0) logger?.warn("too many failed sign-ins; answering this peer's wrong credentials with 429", { peer, seconds: blockedFor });
  return null;
}

function pathOnly(url: string | undefined): string {
  const u = url ?? "/";
  const q = u.indexOf("?");
  return q < 0 ? u : u.slice(0, q);
}

/** The HTTP server's form of a check: it answers a refusal itself. */
export function createAuthGuard(check: AuthCheck): AuthGuard {
  return (req, res, route = {}) => {
    const result = check(req, route);
    if (result.ok) return result;
    sendAuthError(res, result);
    return null;
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
