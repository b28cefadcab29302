// Subscriptions (and any operation) over Server-Sent Events on /graphql, per the GraphQL over
// SSE protocol in its "distinct connections" mode: each POST (or GET) with Accept:
// text/event-stream is one operation and one stream. graphql-sse's protocol core runs the
// operation; this file feeds it the body the HTTP server already read under the limit, and writes
// the stream itself, so that memory stays bounded:
// - no open stream beyond the cap in all (LiveOperations), 503 TOO_MANY_SUBSCRIPTIONS past it;
// - events are written as they come, never queued inside graphql-sse, and a client that stops
//   reading is cut once MAX_SSE_BUFFER_BYTES wait unsent in the response.
//
// The protocol's "single connection" mode (PUT reserves a stream, operations then carry its token)
// is not served: nothing here needs it (the dashboard uses distinct connections), and each
// reservation and its queued results would be kept for a stream that may never be opened.
import { execute, subscribe, type DocumentNode } from "graphql";
import { createHandler } from "graphql-sse";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../shared/base/log/logger.js";
import type { GraphQLContext } from "./context.js";
import type { DocumentCache } from "./documents.js";
import { formatResult, sendErrors, type FormatError } from "./errors.js";
import { loadSchema } from "./schema.js";
import { RETRY_AFTER_SECONDS, TOO_MANY_SUBSCRIPTIONS, type LiveOperations } from "./stream-limits.js";

/** Bytes one SSE response may have queued unsent before its client counts as too slow. */
const MAX_SSE_BUFFER_BYTES = 1024 * 1024;

/** The header of the single-connection mode's operations (graphql-sse's TOKEN_HEADER_KEY). */
export const STREAM_TOKEN_HEADER = "x-graphql-event-stream-token";

export const SINGLE_CONNECTION_UNSUPPORTED =
  "the single-connection mode of GraphQL over SSE is not supported; use distinct connections: one POST per operation with Accept: text/event-stream";

/** True when a request on /graphql asks for an event stream rather than plain HTTP. */
export function isSseRequest(req: IncomingMessage): boolean {
  return (req.headers.accept ?? "").includes("text/event-stream");
}

interface SseOptions {
  makeContext: (req: IncomingMessage) => GraphQLContext;
  logger: Logger;
  format: FormatError;
  operations: LiveOperations;
  /** Parsed and validated documents by query text (shared with the WebSocket transport). */
  documents: DocumentCache;
}

export function sseHandler(o: SseOptions) {
  const schema = loadSchema();
  const handler = createHandler<IncomingMessage, undefined, GraphQLContext>({
    schema,
    validate: (s, document) => o.documents.validate(s, document),
    // The operation's document from the cache; a text that does not parse is left to graphql-sse,
    // which answers it with its own 400.
    onSubscribe: (req, params) => {
      let document: DocumentNode;
      try {
        document = o.documents.parse(params.query);
      } catch {
        return undefined;
      }
      return { schema, document, operationName: params.operationName ?? null, variableValues: params.variables ?? null, contextValue: o.makeContext(req.raw) };
    },
    execute,
    subscribe,
    // No stream token is ever looked up: every request is its own stream (distinct connections).
    authenticate: () => undefined,
    context: (req) => o.makeContext(req.raw),
    onNext: (_ctx, _req, result) => formatResult(result, o.format),
  });

  return async (req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> => {
    const release = o.operations.takeStream();
    if (!release) {
      return sendErrors(res, 503, `the daemon already serves ${o.operations.limits.maxOperations} live operations; try again later`, TOO_MANY_SUBSCRIPTIONS, { "Retry-After": String(RETRY_AFTER_SECONDS) });
    }
    res.once("close", release);
    const [payload, init] = await handler({
      method: req.method ?? "GET",
      url: req.url ?? "/graphql",
      headers: {
        get: (key) => {
          // graphql-sse compares Accept exactly; the route already decided this is an event stream.
          if (key.toLowerCase() === "accept") return "text/event-stream";
          const v = req.headers[key.toLowerCase()];
          return Array.isArray(v) ? v.join("\n") : v;
        },
      },
      body: body.toString("utf8"),
      raw: req,
      context: undefined,
    });
    res.writeHead(init.status, init.statusText, init.headers);
    if (payload === null || typeof payload === "string") {
      res.end(payload ?? undefined);
      return;
    }
    await writeStream(payload, res, o.logger);
  };
}

/**
 * Writes events as the operation yields them. Nothing waits on the socket: what the client does
 * not read piles up in the response's own buffer, where it is measured, and past
 * MAX_SSE_BUFFER_BYTES the response is cut (which ends the operation and frees its subscriber).
 */
async function writeStream(stream: AsyncGenerator<string, void, undefined>, res: ServerResponse, logger: Logger): Promise<void> {
  res.once("close", () => void stream.return(undefined));
  for await (const chunk of stream) {
    if (res.destroyed || res.writableEnded) break;
    res.write(chunk);
    if (res.writableLength > MAX_SSE_BUFFER_BYTES) {
      logger.warn("closed an event stream whose client stopped reading", { bufferedBytes: res.writableLength });
      res.destroy();
      break;
    }
  }
  if (!res.destroyed && !res.writableEnded) res.end();
}
