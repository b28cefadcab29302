// Who is asking (design §7, interface spec "Authentication"): a bearer token, the session cookie
// (plus CSRF proof on anything that changes state), or nobody at all in no-auth mode, where only
// loopback peers are served. A pure decision: it writes no response and logs nothing, so no
// credential can leak from here; guard.ts turns a refusal into the HTTP answer.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { Clock } from "../../shared/base/clock.js";
import { isLocalHost, isLocalOrigin, isLoopbackAddress } from "./ip.js";
import type { KeyRing } from "./key-ring.js";

export const SESSION_COOKIE = "insights_session";
const CSRF_HEADER = "x-insights-csrf";
export const WWW_AUTHENTICATE = 'Bearer realm="gateway-insights"';
/** The one path no-auth mode serves to remote peers (design §7): supervisors probe it. */
export const HEALTH_PATH = "/health";

/** `metrics`: the read-only scrape token (config metricsToken), good for GET /metrics alone. */
export type AuthKind = "bearer" | "cookie" | "metrics" | "none";
type AuthFailureCode = "UNAUTHENTICATED" | "CSRF_FAILED" | "FORBIDDEN_REMOTE" | "INSUFFICIENT_SCOPE";

export interface AuthSuccess {
  ok: true;
  kind: AuthKind;
  /** The session's CSRF value (cookie sessions only). */
  csrf?: string;
}

export interface AuthFailure {
  ok: false;
  status: 401 | 403;
  code: AuthFailureCode;
  /** Safe to send and log: never contains a credential. */
  message: string;
  /** The kind of credential the request presented, for the access log. */
  attempted: AuthKind;
  /** A secret was presented and was wrong (a guess): the failure limiter counts these. */
  badCredential: boolean;
}

type AuthResult = AuthSuccess | AuthFailure;

/** The parts of a request authentication reads; an IncomingMessage fits, and so does a test double. */
export interface AuthRequest {
  method?: string | undefined;
  url?: string | undefined;
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string | undefined; encrypted?: boolean };
}

interface AuthenticateOptions {
  token: string;
  noAuth: boolean;
  ring: KeyRing;
  clock: Clock;
  /** The peer address; default req.socket.remoteAddress (tests, and later a proxy-aware option, inject it). */
  peer?: string | undefined;
}

const SAFE_METHODS = new Set(["GET", "HEAD"]);
/** A browser may hold an old cookie under another path; we look at a few, never at an unbounded list. */
const MAX_COOKIES_TRIED = 4;

export function authenticate(req: AuthRequest, options: AuthenticateOptions): AuthResult {
  const peer = options.peer ?? req.socket.remoteAddress;
  if (options.noAuth) return noAuthAccess(req, peer);
  // A daemon always has a token (ensureToken); an empty one here would make "" a valid bearer.
  if (options.token.length === 0) throw new Error("authenticate: no API token configured");

  const bearer = bearerToken(req.headers.authorization);
  if (bearer !== null) {
    if (bearer === "") return unauthenticated("bearer", "the Authorization header has an empty bearer token", false);
    if (tokensEqual(bearer, options.token)) return { ok: true, kind: "bearer" };
    return unauthenticated("bearer", "the bearer token is not valid", true);
  }

  const cookies = cookieValues(req.headers.cookie, SESSION_COOKIE);
  if (cookies.length > 0) {
    const now = options.clock.now();
    let forged = false;
    for (const value of cookies.slice(0, MAX_COOKIES_TRIED)) {
      const v = options.ring.verify(value, now);
      if (v.ok) return checkCsrf(req, v.payload.csrf);
      if (v.reason === "bad-signature") forged = true;
    }
    return forged
      ? unauthenticated("cookie", "the session cookie is not valid", true)
      : unauthenticated("cookie", "the session has expired; open the dashboard link that `insightsctl url` prints to sign in again", false);
  }

  return unauthenticated("none", "missing credential: send `Authorization: Bearer <token>` or sign in with the dashboard link that `insightsctl url` prints", false);
}

/**
 * The /mcp rule (design §7) and the heart of no-auth mode: a loopback peer, a Host naming this
 * machine, and an Origin (when a browser sends one) on this machine. The Host test defeats DNS
 * rebinding, where a web page reaches 127.0.0.1 under its own domain name.
 */
export function requireLocal(req: AuthRequest, peer: string | undefined): AuthResult {
  if (!isLoopbackAddress(peer)) return forbiddenRemote("only loopback peers are served here");
  if (!isLocalHost(header(req.headers.host))) {
    return forbiddenRemote("the Host header must name this machine (localhost, 127.0.0.1 or [::1])");
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !isLocalOrigin(origin)) return forbiddenRemote("requests from web pages on other hosts are refused");
  return { ok: true, kind: "none" };
}

/**
 * Constant-time token comparison. Both sides are hashed first so the comparison always runs on
 * two 32-byte digests: timingSafeEqual needs equal lengths, and comparing lengths first would tell
 * an attacker the token's length.
 */
export function tokensEqual(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header; null when there is no bearer header. */
export function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const m = /^\s*bearer(?:\s+(.*))?$/i.exec(authorization);
  if (!m) return null;
  return (m[1] ?? "").trim();
}

/** Every value of cookie `name` in a Cookie header (browsers may send duplicates from other paths). */
function cookieValues(cookieHeader: string | undefined, name: string): string[] {
  if (!cookieHeader) return [];
  const out: string[] = [];
  for (const pair of cookieHeader.split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value) out.push(value);
  }
  return out;
}

/** This server's own origin as the client addressed it: scheme plus the Host header. */
export function ownOrigin(req: AuthRequest): string | null {
  const host = header(req.headers.host);
  if (!host) return null;
  return `${req.socket.encrypted ? "https" : "http"}://${host.trim().toLowerCase()}`;
}

function isSafeMethod(method: string | undefined): boolean {
  return SAFE_METHODS.has((method ?? "GET").toUpperCase());
}

function checkCsrf(req: AuthRequest, csrf: string): AuthResult {
  if (isSafeMethod(req.method)) return { ok: true, kind: "cookie", csrf };
  const sent = header(req.headers[CSRF_HEADER]);
  if (!sent || !tokensEqual(sent, csrf)) return csrfFailed("a cookie-authenticated request that changes state needs the X-Insights-CSRF header from GET /api/session");
  const origin = header(req.headers.origin);
  const own = ownOrigin(req);
  if (!origin || !own || origin.trim().toLowerCase() !== own) return csrfFailed("a cookie-authenticated request that changes state needs an Origin header equal to this server's origin");
  return { ok: true, kind: "cookie", csrf };
}

function noAuthAccess(req: AuthRequest, peer: string | undefined): AuthResult {
  if (pathOf(req.url) === HEALTH_PATH) return { ok: true, kind: "none" };
  const local = requireLocal(req, peer);
  if (!local.ok) return { ...local, message: `no-auth mode: ${local.message}` };
  return local;
}

function pathOf(url: string | undefined): string {
  const u = url ?? "/";
  const q = u.indexOf("?");
  return q < 0 ? u : u.slice(0, q);
}

/** A single header value; a repeated header (an array) counts as absent rather than guessing which one wins. */
function header(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The metrics token presented where it grants nothing: a right secret, so no guess to count. */
export function insufficientScope(): AuthFailure {
  return {
    ok: false,
    status: 403,
    code: "INSUFFICIENT_SCOPE",
    message: "this is the read-only metrics token: it is accepted on GET /metrics only; use the API token here",
    attempted: "metrics",
    badCredential: false,
  };
}

function unauthenticated(attempted: AuthKind, message: string, badCredential: boolean): AuthFailure {
  return { ok: false, status: 401, code: "UNAUTHENTICATED", message, attempted, badCredential };
}

function csrfFailed(message: string): AuthFailure {
  return { ok: false, status: 403, code: "CSRF_FAILED", message, attempted: "cookie", badCredential: false };
}

function forbiddenRemote(message: string): AuthFailure {
  return { ok: false, status: 403, code: "FORBIDDEN_REMOTE", message, attempted: "none", badCredential: false };
}
