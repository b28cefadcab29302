// The server side of the OpenClaw gateway protocol v4 on one loopback port, as a real gateway
// serves it: GET /healthz and /readyz over HTTP, and on the same port the WebSocket RPC
// (connect.challenge -> connect -> hello-ok, then {type:"req"} frames answered by {type:"res"}).
// It knows the framing only; what a connect must prove and what each method answers are the
// caller's. The demo gateway (shared/providers/openclaw/demo/gateway.ts) serves recorded answers with
// it, and the test stub (test/helpers/stub-gateway.ts) adds the real server's strict connect checks.
import crypto from "node:crypto";
import http from "node:http";
import { WebSocketServer } from "ws";
import type WebSocket from "ws";

type Json = Record<string, unknown>;

export function isRecord(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Returned by a handler: never answer this request. */
export const NO_REPLY = Symbol("no-reply");
/** Returned by a handler: close the socket instead of answering. */
export const CLOSE_SOCKET = Symbol("close-socket");

/** Thrown or returned by a handler to answer with an error frame. */
export class GatewayRpcError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly extra: { details?: unknown; retryable?: boolean; retryAfterMs?: number } = {},
  ) {
    super(message);
  }
}

export interface CallContext {
  deviceId: string;
  scopes: string[];
  connId: string;
}

export type MethodHandler = (params: unknown, ctx: CallContext) => unknown | Promise<unknown>;

export interface HttpAnswer {
  status: number;
  body: unknown;
}

/** What a connect frame earned: hello-ok's payload and the session, or an error frame and a close. */
export type ConnectOutcome =
  | { ok: true; hello: Json; session: CallContext }
  | { ok: false; code: string; message: string; details: Json; closeCode?: number; extra?: Json };

export interface GatewayServerOptions {
  /** GET answers by path; `null` leaves the request hanging, `undefined` answers 404. */
  http: (path: string) => HttpAnswer | null | undefined;
  /** connect.challenge payload fields besides nonce and ts. */
  challengeExtra?: Json;
  /** Judges the first frames of a socket until one is accepted. */
  connect: (frame: Json, ctx: { nonce: string; connId: string }) => ConnectOutcome;
  handlers: Record<string, MethodHandler>;
  /** The error of a method no handler serves. */
  unknownMethod: (method: string) => { code: string; message: string; details?: unknown };
  /** Every request after the handshake, before it is answered. */
  onRequest?: (method: string, params: unknown) => void;
  /** Never send connect.challenge (a peer that accepts the socket and then hangs). */
  silent?: boolean;
  /** Send `tick` events at this interval, as the real server does to keep idle clients alive. */
  tickIntervalMs?: number;
  now?: () => number;
}

export interface GatewayServer {
  port: number;
  /** ws://127.0.0.1:<port> */
  url: string;
  openSockets(): number;
  /** Drops every client socket (server-side close, code 1012 "service restart"). */
  dropAll(): void;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 on a port the OS picks (never a fixed one a real gateway may hold). */
export async function startGatewayServer(o: GatewayServerOptions): Promise<GatewayServer> {
  const now = o.now ?? (() => Date.now());
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { "content-type": "application/json" }).end(JSON.stringify({ error: "method not allowed" }));
      return;
    }
    const path = (req.url ?? "").split("?")[0] ?? "";
    const answer = o.http(path);
    if (answer === null) {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    const a = answer ?? { status: 404, body: { error: "not found" } };
    res.writeHead(a.status, { "content-type": "application/json" });
    res.end(JSON.stringify(a.body));
  });
  // Requests are small JSON frames; a client may not make the server buffer more than this.
  const wss = new WebSocketServer({ server, maxPayload: 1024 * 1024 });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("gateway server has no TCP address");
  const ticker = o.tickIntervalMs
    ? setInterval(() => {
        const frame = JSON.stringify({ type: "event", event: "tick", payload: { ts: now() } });
        for (const c of wss.clients) if (c.readyState === c.OPEN) c.send(frame);
      }, o.tickIntervalMs)
    : null;
  ticker?.unref();

  wss.on("connection", (ws: WebSocket) => {
    ws.on("error", () => undefined);
    const nonce = crypto.randomUUID();
    const connId = crypto.randomUUID();
    let session: CallContext | null = null;
    if (!o.silent) ws.send(JSON.stringify({ type: "event", event: "connect.challenge", payload: { nonce, ts: now(), ...o.challengeExtra } }));

    const handshake = (frame: Json): void => {
      const outcome = o.connect(frame, { nonce, connId });
      if (!outcome.ok) {
        ws.send(JSON.stringify({ type: "res", id: frame.id, ok: false, error: { code: outcome.code, message: outcome.message, details: outcome.details, ...outcome.extra } }));
        ws.close(outcome.closeCode ?? 1008, outcome.message.slice(0, 120));
        return;
      }
      session = outcome.session;
      ws.send(JSON.stringify({ type: "res", id: frame.id, ok: true, payload: outcome.hello }));
    };

    const dispatch = async (frame: Json, ctx: CallContext): Promise<void> => {
      if (frame.type !== "req" || typeof frame.method !== "string") return;
      o.onRequest?.(frame.method, frame.params);
      const handler = o.handlers[frame.method];
      const send = (body: Json): void => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: "res", id: frame.id, ...body }));
      };
      if (!handler) {
        send({ ok: false, error: o.unknownMethod(frame.method) });
        return;
      }
      try {
        const result = await handler(frame.params, ctx);
        if (result === NO_REPLY) return;
        if (result === CLOSE_SOCKET) {
          ws.close(1011, "handler closed the socket");
          return;
        }
        if (result instanceof GatewayRpcError) throw result;
        send({ ok: true, payload: result });
      } catch (err) {
        if (err instanceof GatewayRpcError) send({ ok: false, error: { code: err.code, message: err.message, ...err.extra } });
        else send({ ok: false, error: { code: "UNAVAILABLE", message: err instanceof Error ? err.message : String(err) } });
      }
    };

    ws.on("message", (data) => {
      let frame: unknown;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        ws.close(1008, "invalid frame");
        return;
      }
      if (!isRecord(frame)) return;
      if (!session) handshake(frame);
      else void dispatch(frame, session);
    });
  });

  return {
    port: address.port,
    url: `ws://127.0.0.1:${address.port}`,
    openSockets: () => wss.clients.size,
    dropAll: () => {
      for (const c of wss.clients) c.close(1012, "service restart");
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (ticker) clearInterval(ticker);
        for (const c of wss.clients) c.terminate();
        for (const r of hanging) r.destroy();
        wss.close(() => {
          server.closeAllConnections();
          server.close(() => resolve());
        });
      }),
  };
}
