// graphql-ws (subprotocol graphql-transport-ws) on the same /graphql path, for clients that
// prefer a WebSocket. The upgrade is authenticated like any request: a bearer token, or the
// session cookie from this very origin (a browser cannot add headers to a WebSocket, so the
// Origin check stands in for the CSRF header).
import { execute, subscribe, validate } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import type { Logger } from "../../shared/log/logger.js";
import type { GraphQLContext } from "./context.js";
import { formatResult, type FormatError } from "./errors.js";
import { loadSchema, VALIDATION_RULES } from "./schema.js";

export const MAX_WS_BUFFER_BYTES = 1024 * 1024;
export const MAX_WS_MESSAGE_BYTES = 100 * 1024;

export interface WebSocketGraphQL {
  /** Call from the HTTP server's `upgrade` event once the request is authenticated. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

export function webSocketGraphQL(makeContext: (req: IncomingMessage) => GraphQLContext, logger: Logger, format: FormatError): WebSocketGraphQL {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_MESSAGE_BYTES });
  // Registered before graphql-ws's own listener, so every send goes through the guard.
  wss.on("connection", (socket: WebSocket) => guardSlowConsumer(socket, logger));
  const disposable = useServer<Record<string, unknown>, { context: GraphQLContext }>(
    {
      schema: loadSchema(),
      validate: (schema, document) => validate(schema, document, VALIDATION_RULES),
      execute,
      subscribe,
      context: (ctx) => makeContext(ctx.extra.request),
      onNext: (_ctx, _id, _payload, _args, result) => formatResult(result, format),
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => format(e.toJSON(), e)),
    },
    wss,
  );
  return {
    handleUpgrade(req, socket, head) {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
    },
    async close() {
      for (const client of wss.clients) client.close(1001, "server shutting down");
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function guardSlowConsumer(socket: WebSocket, logger: Logger): void {
  const send = socket.send.bind(socket) as (...args: unknown[]) => void;
  // ws overloads send(); the arguments pass through untouched.
  (socket as unknown as { send: (...args: unknown[]) => void }).send = (...args: unknown[]): void => {
    if (socket.bufferedAmount > MAX_WS_BUFFER_BYTES) {
      logger.warn("closed a WebSocket whose client stopped reading", { bufferedBytes: socket.bufferedAmount });
      socket.terminate();
      return;
    }
    send(...args);
  };
}
