// Serving the dashboard: GET / (the page, behind the `?token=` exchange that signInRoute puts in
// front of it) and GET /assets/<file>. The page is public because it must load before sign-in to
// say how to sign in; it holds no data, and everything it shows comes from the authenticated API.
import type { IncomingMessage, ServerResponse } from "node:http";
import { pathOf, sendJson, type RouteHandler } from "../http/server.js";
import type { WebAsset, WebAssets } from "./assets.js";

/**
 * The page's Content-Security-Policy: scripts, styles, fonts, images and connections from this
 * origin only, no inline script or style, no plugins, no framing, no form posts.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Files under /assets/ carry a content hash in their name, so a browser may keep them for good. */
const ASSET_CACHE = "public, max-age=31536000, immutable";

function send(req: IncomingMessage, res: ServerResponse, asset: WebAsset, headers: Record<string, string>): void {
  const gz = asset.gzip && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  const body = gz ? (asset.gzip as Buffer) : asset.body;
  res.writeHead(200, {
    "Content-Type": asset.contentType,
    "Content-Length": body.length,
    ...(asset.gzip ? { Vary: "Accept-Encoding" } : {}),
    ...(gz ? { "Content-Encoding": "gzip" } : {}),
    ...headers,
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>gateway-insights</title></head><body>
<h1>The dashboard is not built</h1><p>This copy of gateway-insights has no <code>dist/web/</code>. Run <code>npm run build</code> and reload.</p></body></html>`;

/** GET /: the single-page dashboard. */
export function dashboardPage(assets: WebAssets): RouteHandler {
  return (req, res) => {
    const page = assets.page();
    if (!page) {
      res.writeHead(503, { "Content-Type": "text/html; charset=utf-8", "Content-Length": Buffer.byteLength(NOT_BUILT), "Content-Security-Policy": "default-src 'none'" });
      res.end(req.method === "HEAD" ? undefined : NOT_BUILT);
      return;
    }
    // Cache-Control stays the server's no-store: the page names the current asset hashes.
    send(req, res, page, { "Content-Security-Policy": PAGE_CSP, "Cross-Origin-Opener-Policy": "same-origin" });
  };
}

/** GET /assets/<file>. */
export function assetRoute(assets: WebAssets): RouteHandler {
  return (req, res) => {
    const name = pathOf(req).slice("/assets/".length);
    const asset = assets.asset(name);
    if (!asset) return sendJson(res, 404, { code: "NOT_FOUND", message: `no asset ${name}` });
    // An SVG opened on its own is a document: the policy keeps any script in it from running.
    send(req, res, asset, { "Cache-Control": ASSET_CACHE, "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'" });
  };
}
