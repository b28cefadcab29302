// Browser sign-in (design §7): the link `insightsctl start` prints, `/?token=…`, is exchanged for
// the HttpOnly session cookie and a redirect to `/` without the token (so it leaves the address
// bar and the history). `/api/session` tells the page its CSRF value; `/api/logout` ends it.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../../shared/base/log/logger.js";
import { SESSION_COOKIE, tokensEqual } from "../../auth/authenticate.js";
import { authResultOf, countFailure, recordAuthKind, sendAuthError, type AuthGuardOptions } from "../../auth/guard.js";
import { sendJson, type RouteHandler } from "../server.js";

/** What the guard is given (the read-only scrape token among it signs nobody in), and the log. */
export interface SessionRoutesOptions extends Omit<AuthGuardOptions, "logger"> {
  logger: Logger;
}

function sessionCookie(value: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}`;
}

/** Wraps the page at `/`: a `?token=` query is exchanged for the cookie first. */
export function signInRoute(o: SessionRoutesOptions, page: RouteHandler): RouteHandler {
  return async (req, res, body) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const presented = url.searchParams.get("token");
    if (presented === null || o.noAuth) return page(req, res, body);
    const peer = (o.peerOf ?? ((r: IncomingMessage) => r.socket.remoteAddress))(req);
    const now = o.clock.now();
    recordAuthKind(req, "bearer");
    // The token first: a correct link always signs in, whatever others on this address got wrong.
    if (o.metricsToken && tokensEqual(presented, o.metricsToken)) {
      recordAuthKind(req, "metrics");
      return signInPage(res, 403, "This link carries the read-only metrics token, which only reads /metrics. Run `insightsctl url` on the host and open the link it prints.");
    }
    if (!tokensEqual(presented, o.token)) {
      const limited = countFailure(o.limiter, peer, now, o.logger);
      if (limited) return sendAuthError(res, limited);
      return signInPage(res, 401, "This sign-in link is not valid. Run `insightsctl url` on the host and open the link it prints.");
    }
    const { value } = o.ring.issue(now);
    o.logger.info("signed in a browser with the token link", { peer });
    res.writeHead(303, { Location: "/", "Set-Cookie": sessionCookie(value, Math.floor(o.ring.maxAgeMs / 1000)), "Content-Length": 0 });
    res.end();
  };
}

/** GET /api/session: how this request is authenticated, and the CSRF value a cookie session must echo. */
export function sessionInfoRoute(o: SessionRoutesOptions): RouteHandler {
  return (req, res) => {
    const auth = authResultOf(req);
    sendJson(res, 200, {
      auth: o.noAuth ? "none" : (auth?.kind ?? "none"),
      csrf: auth?.csrf ?? null,
      csrfHeader: "X-Insights-CSRF",
      maxAgeSeconds: Math.floor(o.ring.maxAgeMs / 1000),
    });
  };
}

/** POST /api/logout: expires the cookie in the browser. */
export function logoutRoute(): RouteHandler {
  return (_req, res) => {
    res.writeHead(204, { "Set-Cookie": sessionCookie("", 0) });
    res.end();
  };
}

/** A small self-contained HTML answer for a browser that followed a bad link. */
function signInPage(res: ServerResponse, status: number, message: string): void {
  const esc = message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>gateway-insights: sign in</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#0f1115;color:#e6e8ee}main{max-width:32rem;padding:2rem}code{background:#1f232b;padding:.1rem .3rem;border-radius:4px}</style>
</head><body><main><h1>Sign in to gateway-insights</h1><p>${esc}</p></main></body></html>`;
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Content-Length": Buffer.byteLength(html) });
  res.end(html);
}

