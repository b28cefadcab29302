// How errors leave the API (design §5): every error carries `extensions.code`. Our typed errors
// keep their code and message; anything unexpected is logged whole and reaches the client as
// INTERNAL_SERVER_ERROR with a masked message, so no stack or file path leaks.
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import type { ServerResponse } from "node:http";
import { InsightsError } from "../../shared/base/errors.js";
import type { Logger } from "../../shared/base/log/logger.js";

/** Codes a client may see as they are. */
const PUBLIC_CODES = new Set([
  "BAD_USER_INPUT",
  "UNAUTHENTICATED",
  "NOT_FOUND",
  "AMBIGUOUS_SELECTOR",
  "SOURCE_UNAVAILABLE",
  "OPERATION_IN_PROGRESS",
  "FORBIDDEN_CHANNEL_TYPE",
  "TARGET_REFUSED",
  "LIMIT_REACHED",
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "BAD_REQUEST",
  "OPERATION_RESOLUTION_FAILURE",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_NOT_SUPPORTED",
  "PAYLOAD_TOO_LARGE",
  "TOO_MANY_SUBSCRIPTIONS",
  // The store refused a write (its disk is full): the message says so, no path.
  "STORE_ERROR",
]);

/** Our InsightsError codes that mean "your input" in GraphQL terms. */
const AS_BAD_INPUT = new Set(["INVALID_PARAM", "CONFIG_INVALID"]);

export function createFormatError(logger: Logger): (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError {
  return (formatted, error) => {
    const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
    if (original instanceof InsightsError) {
      const code = AS_BAD_INPUT.has(original.code) ? "BAD_USER_INPUT" : original.code;
      if (PUBLIC_CODES.has(code)) {
        const extra = code === "AMBIGUOUS_SELECTOR" ? { matches: original.details.matches } : {};
        return { ...formatted, message: original.message, extensions: { code, ...extra } };
      }
    }
    const code = formatted.extensions?.code;
    if (typeof code === "string" && PUBLIC_CODES.has(code)) return { message: formatted.message, ...(formatted.locations ? { locations: formatted.locations } : {}), ...(formatted.path ? { path: formatted.path } : {}), extensions: { code } };
    logger.error("GraphQL resolver failed", { path: formatted.path?.join("."), error: original instanceof Error ? original.message : String(original), stack: original instanceof Error ? original.stack : undefined });
    return { message: "internal error; see the daemon log", ...(formatted.path ? { path: formatted.path } : {}), extensions: { code: "INTERNAL_SERVER_ERROR" } };
  };
}

export type FormatError = ReturnType<typeof createFormatError>;

/**
 * A subscription transport's result with its errors as the POST path would send them: graphql-sse
 * and graphql-ws execute with graphql-js directly, without Apollo's formatError.
 */
export function formatResult<R extends { errors?: ReadonlyArray<GraphQLError> }>(result: R, format: FormatError): R {
  if (!result.errors?.length) return result;
  // The transports serialize with JSON.stringify, which takes a formatted error as it is.
  const errors = result.errors.map((e) => format(e.toJSON(), e)) as unknown as GraphQLError[];
  return { ...result, errors };
}


/** A refusal before any operation runs, in the shape of a GraphQL response: `{errors: [{message, extensions: {code}}]}`. */
export function sendErrors(res: ServerResponse, status: number, message: string, code: string, headers: Record<string, string> = {}): void {
  const text = JSON.stringify({ errors: [{ message, extensions: { code } }] });
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}
