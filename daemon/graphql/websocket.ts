// graphql-ws (subprotocol graphql-transport-ws) on the same /graphql path, for clients that
// prefer a WebSocket. Authentication, either way through the one auth check:
// - at the upgrade: a bearer token, or the session cookie from this very origin (upgrade.ts);
// - in the ConnectionInit message: `connectionParams: {authorization: "Bearer <token>"}`, the
//   graphql-ws convention (a browser's WebSocket cannot carry headers; Apollo's GraphQLWsLink sends
//   it this way). Such a socket is accepted without a credential, may do nothing but send
//   ConnectionInit within connectionInitWaitMs, and is closed with 4403 Forbidden when the token
//   is missing or wrong (a wrong one counts as a failed attempt, like a wrong header).
// Bounded: open sockets, sockets still waiting for their ConnectionInit, operations per socket
// and in all (stream-limits.ts), message size, and what a socket may have unsent.
import { execute, parse, subscribe } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import type { Logger } from "../../shared/base/log/logger.js";
import type { AuthCheck } from "../auth/guard.js";
import type { GraphQLContext } from "./context.js";
import type { DocumentCache } from "./documents.js";
import { formatResult, type FormatError } from "./errors.js";
import { loadSchema } from "./schema.js";
import type { LiveOperations } from "./stream-limits.js";

const MAX_WS_BUFFER_BYTES = 1024 * 1024;
const MAX_WS_MESSAGE_BYTES = 100 * 1024;

interface WebSocketGraphQL {
  /** Null when one more socket may be opened (`deferred`: without a credential yet), else why not. */
  refusal(deferred: boolean): string | null;
  /** Call from the HTTP server's `upgrade` event once the upgrade is authenticated (or deferred to connectionParams). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, deferred: boolean): void;
  close(): Promise<void>;
}

interface WebSocketOptions {
  makeContext: (req: IncomingMessage) => GraphQLContext;
  logger: Logger;
  format: FormatError;
  operations: LiveOperations;
  authCheck: AuthCheck;
  /** Parsed and validated documents by query text (shared with the SSE transport). */
  documents: DocumentCache;
}

/** The `authorization` entry of connectionParams (any letter case), when it is a string. */
function authorizationParam(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!params) return undefined;
  for (const [key, value] of Object.entries(params)) if (key.toLowerCase() === "authorization" && typeof value === "string") return value;
  return undefined;
}

export function webSocketGraphQL(o: WebSocketOptions): WebSocketGraphQL {
  const { limits } = o.operations;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_MESSAGE_BYTES });
  /** Every upgraded socket until it closes (counted from the upgrade, before ws hands it over). */
  const open = new Set<Duplex>();
  /** Requests of sockets accepted without a credential that have not sent ConnectionInit yet. */
  const pending = new Set<IncomingMessage>();
  /** Requests of sockets accepted without a credential: their ConnectionInit must authenticate. */
  const deferredRequests = new WeakSet<IncomingMessage>();

  // Registered before graphql-ws's own listener, so every send goes through the guard.
  wss.on("connection", (socket: WebSocket) => guardSends(socket, o.logger));
  const disposable = useServer<Record<string, unknown>, { context: GraphQLContext }>(
    {
      schema: loadSchema(),
      parse: (source, options) => (typeof source === "string" && !options ? o.documents.parse(source) : parse(source, options)),
      validate: (schema, document) => o.documents.validate(schema, document),
      execute,
      subscribe,
      // Internal error messages stay in the daemon log, not in close reasons.
      isProd: true,
      connectionInitWaitTimeout: limits.connectionInitWaitMs,
      context: (ctx) => o.makeContext(ctx.extra.request),
      onConnect: (ctx) => {
        const req = ctx.extra.request;
        pending.delete(req);
        if (deferredRequests.has(req)) {
          const result = o.authCheck(req, {}, { authorization: authorizationParam(ctx.connectionParams) });
          if (!result.ok) {
            o.logger.info("refused a WebSocket: connectionParams carry no valid token", { peer: req.socket.remoteAddress, code: result.code });
            return false; // graphql-ws closes with 4403 Forbidden
          }
        }
        o.operations.watch(ctx);
        return true;
      },
      onClose: (ctx) => o.operations.forget(ctx),
      onSubscribe: (ctx) => {
        const refused = o.operations.refuseOnSocket(ctx);
        return refused ? [refused] : undefined;
      },
      onNext: (_ctx, _id, _payload, _args, result) => formatResult(result, o.format),
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => o.format(e.toJSON(), e)),
    },
    wss,
  );
  return {
    refusal(deferred) {
      if (open.size >= limits.maxSockets) return `the daemon already has ${limits.maxSockets} WebSockets open; try again later`;
      if (deferred && pending.size >= limits.maxPendingSockets) return `${limits.maxPendingSockets} WebSockets are already waiting to authenticate; send the token in the Authorization header, or try again shortly`;
      return null;
    },
    handleUpgrade(req, socket, head, deferred) {
      open.add(socket);
      socket.once("close", () => {
        open.delete(socket);
        pending.delete(req);
      });
      if (deferred) {
        deferredRequests.add(req);
        pending.add(req);
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
    },
    async close() {
      for (const client of wss.clients) client.close(1001, "server shutting down");
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/**
 * Every send of a socket: cut a client that stopped reading once MAX_WS_BUFFER_BYTES wait unsent,
 * and treat a failed write as the end of the connection (the client is gone), not as an internal
 * error of the message handler.
 */
function guardSends(socket: WebSocket, logger: Logger): void {
  const send = socket.send.bind(socket) as (...args: unknown[]) => void;
  // ws overloads send(); the arguments pass through, the callback is wrapped.
  (socket as unknown as { send: (...args: unknown[]) => void }).send = (...args: unknown[]): void => {
    const last = args[args.length - 1];
    const done = typeof last === "function" ? (last as (err?: Error) => void) : undefined;
    if (socket.bufferedAmount > MAX_WS_BUFFER_BYTES) {
      logger.warn("closed a WebSocket whose client stopped reading", { bufferedBytes: socket.bufferedAmount });
      socket.terminate();
      done?.();
      return;
    }
    const callback = (err?: Error): void => {
      if (err) {
        logger.debug("a WebSocket write failed; closing it", { error: err.message });
        socket.terminate();
      }
      done?.();
    };
    if (done) send(...args.slice(0, -1), callback);
    else send(...args, callback);
  };
}
