// Puts the GraphQL API on the daemon's HTTP server: /graphql for queries and mutations (Apollo),
// Server-Sent Events subscriptions (graphql-sse, distinct connections) and WebSocket
// subscriptions (graphql-ws). Every /graphql body is read by the HTTP server under MAX_BODY_BYTES.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../shared/base/log/logger.js";
import type { ReadModel } from "../../shared/queries/read-model.js";
import { authKindOf } from "../auth/guard.js";
import type { AuthCheck } from "../auth/guard.js";
import { authenticateUpgrade, refuseUpgrade } from "../auth/upgrade.js";
import { annotateRequest, type HttpServer } from "../http/server.js";
import type { LiveEvents } from "../live/live-events.js";
import type { AlertService } from "../alerts/alert-service.js";
import type { GatewayOperations } from "../operations/gateway-operations.js";
import { apolloHandler, MAX_BODY_BYTES, startApollo } from "./apollo.js";
import { createFormatError, sendErrors } from "./errors.js";
import type { GraphQLContext } from "./context.js";
import { DocumentCache } from "./documents.js";
import { loadSchema, VALIDATION_RULES } from "./schema.js";
import { isSseRequest, SINGLE_CONNECTION_UNSUPPORTED, sseHandler, STREAM_TOKEN_HEADER } from "./sse.js";
import { DEFAULT_STREAM_LIMITS, LiveOperations, RETRY_AFTER_SECONDS, type StreamLimits } from "./stream-limits.js";
import { webSocketGraphQL } from "./websocket.js";

const GRAPHQL_PATH = "/graphql";

interface GraphQLMountOptions {
  http: HttpServer;
  model: ReadModel;
  live: LiveEvents;
  alerts: AlertService;
  operations: GatewayOperations;
  logger: Logger;
  /** How a WebSocket upgrade and its connectionParams are authenticated (the same check as the HTTP routes). */
  authCheck: AuthCheck;
  /** Overrides of the live-operation caps (tests use small ones). */
  limits?: Partial<StreamLimits>;
}

export async function mountGraphQL(o: GraphQLMountOptions): Promise<{ close(): Promise<void> }> {
  const makeContext = (req: IncomingMessage): GraphQLContext => ({
    model: o.model,
    live: o.live,
    alerts: o.alerts,
    operations: o.operations,
    logger: o.logger,
    caller: { auth: authKindOf(req) ?? "none", peer: req.socket.remoteAddress ?? "" },
    annotate: (fields) => annotateRequest(req, fields),
  });
  const format = createFormatError(o.logger);
  const liveOps = new LiveOperations({ ...DEFAULT_STREAM_LIMITS, ...o.limits });
  const apollo = await startApollo(format);
  const plain = apolloHandler(apollo, makeContext);
  const documents = new DocumentCache(loadSchema(), VALIDATION_RULES);
  const sse = sseHandler({ makeContext, logger: o.logger, format, operations: liveOps, documents });
  const ws = webSocketGraphQL({ makeContext, logger: o.logger, format, operations: liveOps, authCheck: o.authCheck, documents });

  const route = (req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> | void => {
    if (req.headers[STREAM_TOKEN_HEADER] !== undefined) return sendErrors(res, 400, SINGLE_CONNECTION_UNSUPPORTED, "BAD_REQUEST");
    return isSseRequest(req) ? sse(req, res, body) : plain(req, res, body);
  };
  const limits = { maxBodyBytes: MAX_BODY_BYTES, tooLarge: (res: ServerResponse, message: string) => sendErrors(res, 413, message, "PAYLOAD_TOO_LARGE") };
  for (const method of ["GET", "POST"]) o.http.route(method, GRAPHQL_PATH, route, limits);
  // PUT reserves and DELETE ends a single-connection stream: answered, never kept.
  const singleConnection = (_req: IncomingMessage, res: ServerResponse): void => {
    res.setHeader("Allow", "GET, POST");
    sendErrors(res, 405, SINGLE_CONNECTION_UNSUPPORTED, "METHOD_NOT_ALLOWED");
  };
  for (const method of ["PUT", "DELETE"]) o.http.route(method, GRAPHQL_PATH, singleConnection);

  o.http.upgradeRoute(GRAPHQL_PATH, (req, socket, head) => {
    const verdict = authenticateUpgrade(req, socket, o.authCheck);
    if (verdict.status !== 101) return verdict.status;
    const refusal = ws.refusal(verdict.deferred);
    if (refusal) return refuseUpgrade(socket, 503, { code: "TOO_MANY_CONNECTIONS", message: refusal }, { "Retry-After": String(RETRY_AFTER_SECONDS) });
    ws.handleUpgrade(req, socket, head, verdict.deferred);
    return 101;
  });

  return {
    async close() {
      await ws.close();
      await apollo.stop();
    },
  };
}
