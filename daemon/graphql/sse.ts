// Subscriptions (and any operation) over Server-Sent Events on /graphql, per the GraphQL over
// SSE protocol, in both of its modes: "distinct connections" (POST with Accept:
// text/event-stream) and "single connection" (PUT reserves a stream, then operations carry its
// token). graphql-sse implements the protocol; this file routes to it and bounds memory.
import { execute, subscribe, validate } from "graphql";
import { createHandler } from "graphql-sse/lib/use/http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../shared/log/logger.js";
import type { GraphQLContext } from "./context.js";
import { formatResult, type FormatError } from "./errors.js";
import { loadSchema, VALIDATION_RULES } from "./schema.js";

/** Bytes one SSE response may have queued unsent before its client counts as too slow. */
export const MAX_SSE_BUFFER_BYTES = 1024 * 1024;

/** True when a request on /graphql belongs to the SSE protocol rather than plain HTTP. */
export function isSseRequest(req: IncomingMessage): boolean {
  const method = req.method ?? "GET";
  if (method === "PUT" || method === "DELETE") return true;
  if (req.headers["x-graphql-event-stream-token"]) return true;
  if (/[?&]token=/.test(req.url ?? "")) return true;
  return (req.headers.accept ?? "").includes("text/event-stream");
}

export function sseHandler(makeContext: (req: IncomingMessage) => GraphQLContext, logger: Logger, format: FormatError) {
  const handler = createHandler<GraphQLContext>({
    schema: loadSchema(),
    validate: (schema, document) => validate(schema, document, VALIDATION_RULES),
    execute,
    subscribe,
    context: (req) => makeContext(req.raw),
    onNext: (_ctx, _req, result) => formatResult(result, format),
  });
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    guardSlowConsumer(res, logger);
    await handler(req, res);
  };
}

/**
 * An event stream writes as events happen; if the client stops reading, Node would queue them
 * without bound. Past MAX_SSE_BUFFER_BYTES queued, the response is cut instead.
 */
function guardSlowConsumer(res: ServerResponse, logger: Logger): void {
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  let cut = false;
  // Node's overloads make a typed wrapper awkward; the arguments pass through untouched.
  (res as unknown as { write: (...args: unknown[]) => boolean }).write = (...args: unknown[]): boolean => {
    if (cut) return false;
    if (res.writableLength > MAX_SSE_BUFFER_BYTES) {
      cut = true;
      logger.warn("closed an event stream whose client stopped reading", { bufferedBytes: res.writableLength });
      res.destroy();
      return false;
    }
    return write(...args);
  };
}
