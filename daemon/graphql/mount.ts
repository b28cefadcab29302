// Puts the GraphQL API on the daemon's HTTP server: /graphql for queries and mutations (Apollo),
// Server-Sent Events subscriptions (graphql-sse) and WebSocket subscriptions (graphql-ws).
import type { IncomingMessage } from "node:http";
import type { Logger } from "../../shared/log/logger.js";
import type { ReadModel } from "../../shared/queries/read-model.js";
import { authKindOf } from "../auth/guard.js";
import type { AuthCheck } from "../auth/guard.js";
import { authenticateUpgrade } from "../auth/upgrade.js";
import { annotateRequest, type HttpServer } from "../http/server.js";
import type { LiveEvents } from "../live/live-events.js";
import type { GatewayOperations } from "../operations/gateway-operations.js";
import { apolloHandler, startApollo } from "./apollo.js";
import { createFormatError } from "./errors.js";
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
  /** How a WebSocket upgrade is authenticated (the same check as the HTTP routes). */
  authCheck: AuthCheck;
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
  const format = createFormatError(o.logger);
  const apollo = await startApollo(format);
  const plain = apolloHandler(apollo, makeContext);
  const sse = sseHandler(makeContext, o.logger, format);
  const ws = webSocketGraphQL(makeContext, o.logger, format);

  const route = (req: IncomingMessage, res: Parameters<typeof plain>[1]): Promise<void> => (isSseRequest(req) ? sse(req, res) : plain(req, res));
  for (const method of ["GET", "POST"]) o.http.route(method, GRAPHQL_PATH, route);
  for (const method of ["PUT", "DELETE"]) o.http.route(method, GRAPHQL_PATH, sse);

  o.http.upgradeRoute(GRAPHQL_PATH, (req, socket, head) => {
    const status = authenticateUpgrade(req, socket, o.authCheck);
    if (status === 101) ws.handleUpgrade(req, socket, head);
    return status;
  });

  return {
    async close() {
      await ws.close();
      await apollo.stop();
    },
  };
}
