// Puts the GraphQL API on the daemon's HTTP server: /graphql for queries and mutations (Apollo),
// Server-Sent Events subscriptions (graphql-sse) and WebSocket subscriptions (graphql-ws).
import type { IncomingMessage } from "node:http";
import type { Logger } from "../../shared/log/logger.js";
import type { ReadModel } from "../../shared/queries/read-model.js";
import { authKindOf } from "../auth/guard.js";
import { authenticateUpgrade, type UpgradeAuthOptions } from "../auth/upgrade.js";
import { annotateRequest, pathOf, type HttpServer } from "../http/server.js";
import type { LiveEvents } from "../live/live-events.js";
import type { GatewayOperations } from "../operations/gateway-operations.js";
import { apolloHandler, startApollo } from "./apollo.js";
import type { GraphQLContext } from "./context.js";
import { isSseRequest, sseHandler } from "./sse.js";
import { webSocketGraphQL } from "./websocket.js";

export const GRAPHQL_PATH = "/graphql";

export interface GraphQLMountOptions {
  http: HttpServer;
  model: ReadModel;
  live: LiveEvents;
  operations: GatewayOperations;
  logger: Logger;
  upgradeAuth: UpgradeAuthOptions;
}

export async function mountGraphQL(o: GraphQLMountOptions): Promise<{ close(): Promise<void> }> {
  const makeContext = (req: IncomingMessage): GraphQLContext => ({
    model: o.model,
    live: o.live,
    operations: o.operations,
    logger: o.logger,
    caller: { auth: authKindOf(req) ?? "none", peer: req.socket.remoteAddress ?? "" },
    annotate: (fields) => annotateRequest(req, fields),
  });
  const apollo = await startApollo(o.logger);
  const plain = apolloHandler(apollo, makeContext);
  const sse = sseHandler(makeContext, o.logger);
  const ws = webSocketGraphQL(makeContext, o.logger);

  const route = (req: IncomingMessage, res: Parameters<typeof plain>[1]): Promise<void> => (isSseRequest(req) ? sse(req, res) : plain(req, res));
  for (const method of ["GET", "POST"]) o.http.route(method, GRAPHQL_PATH, route);
  for (const method of ["PUT", "DELETE"]) o.http.route(method, GRAPHQL_PATH, sse);

  o.http.raw.on("upgrade", (req, socket, head) => {
    if (pathOf(req) !== GRAPHQL_PATH) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    if (authenticateUpgrade(req, socket, o.upgradeAuth) === null) return;
    ws.handleUpgrade(req, socket, head);
  });

  return {
    async close() {
      await ws.close();
      await apollo.stop();
    },
  };
}
