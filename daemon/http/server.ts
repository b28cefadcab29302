// The daemon's own node:http server. Routes are registered by the interfaces (health, GraphQL,
// snapshot, MCP, the web page), so this file knows none of them. It adds what every response
// needs: authentication per route (secure by default: a route is authenticated unless it says
// otherwise), the request body read once under the route's size limit (no handler reads the
// request stream itself, so no library behind a route can buffer a body without bound), security
// headers, an access log line, JSON errors, and a drain on close that lets in-flight requests
// finish within a grace period.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { Clock } from "../../shared/base/clock.js";
import { InsightsError } from "../../shared/base/errors.js";
import type { Logger } from "../../shared/base/log/logger.js";
import { authKindOf, type AuthGuard, type RouteAuth } from "../auth/guard.js";
import { readBody } from "./body.js";

/** `body` is the whole request body, already read under the route's limit (empty when there was none). */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;
type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => number;

/**
 * The body limit of a route that takes no body (GET pages, /api/logout, /metrics): small, so a
 * client may send `{}` out of habit, but nothing a client streams there is kept.
 */
const DEFAULT_MAX_BODY_BYTES = 1024;
/**
 * The request line plus headers (Node's own default, pinned here so that a NODE_OPTIONS
 * --max-http-header-size cannot raise it): past it Node answers 431 and closes.
 */
const MAX_HEADER_BYTES = 16 * 1024;

/** How long a client still sending a body is given after the answer before the socket closes. */
const LINGER_MS = 2000;

interface RouteOptions extends RouteAuth {
  /** The largest request body this route accepts; default DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Writes the 413 in the route's own error format (GraphQL, JSON-RPC); default `{code, message}`. */
  tooLarge?: (res: ServerResponse, message: string) => void;
}

interface HttpServerOptions {
  host: string;
  port: number;
  logger: Logger;
  clock: Clock;
  /** Runs before every route's handler with the route's RouteAuth; absent only in tests of the server itself. */
  guard?: AuthGuard;
}

interface Route {
  handler: RouteHandler;
  auth: RouteAuth;
  maxBodyBytes: number;
  tooLarge: (res: ServerResponse, message: string) => void;
}

function routeOf(handler: RouteHandler, options: RouteOptions): Route {
  const { maxBodyBytes = DEFAULT_MAX_BODY_BYTES, tooLarge = (res, message) => sendJson(res, 413, { code: "PAYLOAD_TOO_LARGE", message }), ...auth } = options;
  return { handler, auth, maxBodyBytes, tooLarge };
}

// Extra fields for a request's access-log line (e.g. a GraphQL trace id), kept off the response.
const annotations = new WeakMap<IncomingMessage, Record<string, unknown>>();

/** Adds fields to the access-log line of `req`; never pass a credential. */
export function annotateRequest(req: IncomingMessage, fields: Record<string, unknown>): void {
  annotations.set(req, { ...annotations.get(req), ...fields });
}

/** The path of a request URL, without the query. */
export function pathOf(req: IncomingMessage): string {
  return (req.url ?? "/").split("?")[0] ?? "/";
}

const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
  "Cross-Origin-Resource-Policy": "same-origin",
};

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export class HttpServer {
  private readonly routes = new Map<string, Map<string, Route>>();
  private readonly prefixes: Array<{ prefix: string; method: string; route: Route }> = [];
  private readonly upgrades = new Map<string, UpgradeHandler>();
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private inFlight = 0;
  /** Per route pattern, method and status: count and summed seconds (for GET /metrics). */
  private readonly stats = new Map<string, { route: string; method: string; status: number; count: number; seconds: number }>();
  private idleWaiters: Array<() => void> = [];
  requestsTotal = 0;

  constructor(private readonly options: HttpServerOptions) {
    this.server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => void this.handle(req, res));
    this.server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => this.handleUpgrade(req, socket, head));
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
  }

  /** The node:http server, for interfaces that need the upgrade event (graphql-ws). */
  get raw(): Server {
    return this.server;
  }

  /** Registers an exact path. Authenticated unless `options` says otherwise; bodies up to DEFAULT_MAX_BODY_BYTES unless it says more. */
  route(method: string, path: string, handler: RouteHandler, options: RouteOptions = {}): this {
    let byMethod = this.routes.get(path);
    if (!byMethod) this.routes.set(path, (byMethod = new Map()));
    byMethod.set(method.toUpperCase(), routeOf(handler, options));
    return this;
  }

  /**
   * Registers a WebSocket upgrade handler for `path`. It returns the status it answered with (101
   * when it took the socket over) for the access log; anything else on an upgrade is 404.
   */
  upgradeRoute(path: string, handler: UpgradeHandler): this {
    this.upgrades.set(path, handler);
    return this;
  }

  /** Registers every path under `prefix` (e.g. `/assets/`) not matched exactly. */
  routePrefix(method: string, prefix: string, handler: RouteHandler, options: RouteOptions = {}): this {
    this.prefixes.push({ prefix, method: method.toUpperCase(), route: routeOf(handler, options) });
    return this;
  }

  /** HTTP requests being served right now (open event streams included). */
  get requestsInFlight(): number {
    return this.inFlight;
  }

  listen(): Promise<{ host: string; port: number }> {
    const { host, port } = this.options;
    return new Promise((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException): void => {
        if (err.code === "EADDRINUSE") {
          reject(new InsightsError("PORT_IN_USE", `${host}:${port} is already in use; stop what listens there or choose another port (--port or INSIGHTS_PORT)`, { host, port }));
        } else if (err.code === "EADDRNOTAVAIL" || err.code === "ENOTFOUND") {
          reject(new InsightsError("CONFIG_INVALID", `cannot bind ${host}:${port}: no such local address`, { host, port }));
        } else reject(err);
      };
      this.server.once("error", onError);
      this.server.listen(port, host, () => {
        this.server.off("error", onError);
        const addr = this.server.address();
        resolve(typeof addr === "object" && addr ? { host: addr.address, port: addr.port } : { host, port });
      });
    });
  }

  /** Stops accepting, waits up to graceMs for in-flight requests, then cuts the rest. */
  async close(graceMs: number): Promise<{ drained: boolean }> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    const drained = await Promise.race([
      this.whenIdle().then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs).unref()),
    ]);
    this.server.closeAllConnections();
    for (const s of this.sockets) s.destroy();
    await closed;
    return { drained };
  }

  private handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // Node takes its own error handler off the socket before "upgrade": without one, a client that
    // resets the connection while we answer would be an uncaught exception.
    socket.on("error", () => socket.destroy());
    const started = this.options.clock.now();
    const peer = req.socket?.remoteAddress ?? "";
    const path = pathOf(req);
    const handler = this.upgrades.get(path);
    let status = 404;
    if (!handler) socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    else {
      try {
        status = handler(req, socket, head);
      } catch (err) {
        this.options.logger.error("upgrade failed", { path, error: err instanceof Error ? err.message : String(err) });
        socket.destroy();
        status = 500;
      }
    }
    this.requestsTotal++;
    this.record(req, path, handler ? path : "unmatched", status, started, peer);
  }

  /** One access-log line and the per-route counters, for a request or an upgrade. */
  private record(req: IncomingMessage, path: string, routeKey: string, status: number, started: number, peer: string): void {
    const ms = this.options.clock.now() - started;
    const key = `${routeKey} ${req.method} ${status}`;
    const stat = this.stats.get(key) ?? { route: routeKey, method: req.method ?? "GET", status, count: 0, seconds: 0 };
    stat.count++;
    stat.seconds += ms / 1000;
    this.stats.set(key, stat);
    const fields = { method: req.method, path, status, ms, peer, auth: authKindOf(req) ?? "none", ...annotations.get(req) };
    // Health checks come every few seconds from supervisors; keep them out of the info log.
    if (path === "/health") this.options.logger.debug("request", fields);
    else this.options.logger.info("request", fields);
  }

  /** Requests served so far by route pattern (never the raw path: label values stay few), method and status. */
  requestStats(): Array<{ route: string; method: string; status: number; count: number; seconds: number }> {
    return [...this.stats.values()].map((s) => ({ ...s }));
  }

  /**
   * The body under the route's limit, after authentication (so no unauthenticated client makes the
   * daemon buffer anything). Past the limit: 413, and a client still streaming (hundreds of MB)
   * has its connection closed shortly after. Null when the request is answered.
   */
  private async readRequestBody(req: IncomingMessage, res: ServerResponse, route: Route): Promise<Buffer | null> {
    try {
      return await readBody(req, route.maxBodyBytes);
    } catch (err) {
      if (err instanceof InsightsError && err.code === "PAYLOAD_TOO_LARGE") {
        route.tooLarge(res, err.message);
        return null;
      }
      // The client went away mid-body: nobody is left to answer.
      if (req.destroyed || res.destroyed) return null;
      throw err;
    }
  }

  /**
   * A request answered before its body was read whole (413, and any refusal: 401, 404, 405) may
   * still be streaming the rest, which Node reads and drops. Closing at once could reset the
   * connection before the client has read the answer, so the socket gets LINGER_MS to finish or
   * go away, then it is closed.
   */
  private closeIfStillSending(req: IncomingMessage, res: ServerResponse): void {
    res.once("finish", () => {
      const socket = req.socket as Socket | null;
      if (req.complete || !socket) return;
      const timer = setTimeout(() => socket.destroy(), LINGER_MS);
      timer.unref();
      req.once("end", () => clearTimeout(timer));
      socket.once("close", () => clearTimeout(timer));
    });
  }

  private whenIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = this.options.clock.now();
    this.inFlight++;
    this.requestsTotal++;
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    const path = pathOf(req);
    const routeKey = this.routes.has(path) ? path : (this.prefixes.find((p) => path.startsWith(p.prefix))?.prefix ?? "unmatched");
    // Read now: a request destroyed mid-body (an oversized chunked upload) has no socket by "close".
    const peer = req.socket?.remoteAddress ?? "";
    this.closeIfStillSending(req, res);
    res.on("close", () => {
      this.inFlight--;
      if (this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
      this.record(req, path, routeKey, res.statusCode, started, peer);
    });
    try {
      const method = req.method ?? "GET";
      let byMethod = this.routes.get(path);
      if (!byMethod) {
        const matching = this.prefixes.filter((p) => path.startsWith(p.prefix));
        if (matching.length) byMethod = new Map(matching.map((p) => [p.method, p.route]));
      }
      if (!byMethod) return sendJson(res, 404, { code: "NOT_FOUND", message: `no route ${path}` });
      const route = byMethod.get(method) ?? (method === "HEAD" ? byMethod.get("GET") : undefined);
      if (!route) {
        return sendJson(res, 405, { code: "METHOD_NOT_ALLOWED", message: `${method} is not allowed on ${path}` }, { Allow: [...byMethod.keys()].join(", ") });
      }
      if (this.options.guard && !this.options.guard(req, res, route.auth)) return;
      const body = await this.readRequestBody(req, res, route);
      if (body === null) return;
      await route.handler(req, res, body);
    } catch (err) {
      this.options.logger.error("request failed", { path, error: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) sendJson(res, 500, { code: "INTERNAL_SERVER_ERROR", message: "internal error" });
      else res.destroy();
    }
  }
}
