// Queries and mutations over POST (and GET) /graphql: Apollo Server 5 driven from the daemon's
// own node:http server, without express. The HTTP server reads the body under MAX_BODY_BYTES
// (100 KB, design §5) before this runs, so Apollo only ever sees bounded input; batching stays off.
import { ApolloServer, HeaderMap, type HTTPGraphQLResponse } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled } from "@apollo/server/plugin/disabled";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { GraphQLContext } from "./context.js";
import { sendErrors, type FormatError } from "./errors.js";
import { LIMIT_RULES, loadSchema } from "./schema.js";

/** The body limit of every /graphql request, plain or event stream (design §5). */
export const MAX_BODY_BYTES = 100 * 1024;

export async function startApollo(format: FormatError): Promise<ApolloServer<GraphQLContext>> {
  const server = new ApolloServer<GraphQLContext>({
    schema: loadSchema(),
    validationRules: [...LIMIT_RULES],
    formatError: format,
    introspection: true,
    allowBatchedHttpRequests: false,
    // Our own auth guard and CSRF rule (design §7) run before Apollo; Apollo's preflight
    // requirement would refuse plain GETs that carry a bearer token.
    csrfPrevention: false,
    includeStacktraceInErrorResponses: false,
    // Apollo's cache-control plugin wraps every field's resolver to collect cache hints the schema
    // never gives (every answer is live): it only cost time per field. The HTTP server already
    // sends Cache-Control: no-store on every response. Parsed and validated documents are kept by
    // Apollo's default document store (an LRU keyed by the query's hash).
    plugins: [ApolloServerPluginCacheControlDisabled()],
  });
  await server.start();
  return server;
}

export function apolloHandler(server: ApolloServer<GraphQLContext>, makeContext: (req: IncomingMessage) => GraphQLContext) {
  return async (req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> => {
    const headers = new HeaderMap();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    const url = req.url ?? "/graphql";
    const q = url.indexOf("?");
    let body: unknown;
    if (req.method === "POST") {
      const type = (req.headers["content-type"] ?? "").toLowerCase();
      if (type.startsWith("application/json") || type.startsWith("application/graphql-response+json")) {
        try {
          body = raw.length ? (JSON.parse(raw.toString("utf8")) as unknown) : undefined;
        } catch {
          return sendErrors(res, 400, "the request body is not valid JSON", "BAD_REQUEST");
        }
      } else body = raw.toString("utf8");
    }
    const response = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method ?? "GET", headers, search: q < 0 ? "" : url.slice(q), body },
      context: async () => makeContext(req),
    });
    await writeResponse(res, response);
  };
}

async function writeResponse(res: ServerResponse, response: HTTPGraphQLResponse): Promise<void> {
  for (const [k, v] of response.headers) res.setHeader(k, v);
  res.statusCode = response.status ?? 200;
  if (response.body.kind === "complete") {
    res.end(response.body.string);
    return;
  }
  for await (const chunk of response.body.asyncIterator) res.write(chunk);
  res.end();
}
