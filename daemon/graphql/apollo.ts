// Queries and mutations over POST (and GET) /graphql: Apollo Server 5 driven from the daemon's
// own node:http server, without express. The body is read with the 100 KB limit here, so Apollo
// only ever sees bounded input; batching stays off.
import { ApolloServer, HeaderMap, type HTTPGraphQLResponse } from "@apollo/server";
import type { IncomingMessage, ServerResponse } from "node:http";
import { InsightsError } from "../../shared/errors.js";
import { readBody } from "../http/body.js";
import type { GraphQLContext } from "./context.js";
import type { FormatError } from "./errors.js";
import { LIMIT_RULES, loadSchema } from "./schema.js";

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
  });
  await server.start();
  return server;
}

export function apolloHandler(server: ApolloServer<GraphQLContext>, makeContext: (req: IncomingMessage) => GraphQLContext) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const headers = new HeaderMap();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    const url = req.url ?? "/graphql";
    const q = url.indexOf("?");
    let body: unknown;
    if (req.method === "POST") {
      let raw: Buffer;
      try {
        raw = await readBody(req, MAX_BODY_BYTES);
      } catch (err) {
        if (err instanceof InsightsError && err.code === "PAYLOAD_TOO_LARGE") return sendErrors(res, 413, err.message, "PAYLOAD_TOO_LARGE");
        throw err;
      }
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

function sendErrors(res: ServerResponse, status: number, message: string, code: string): void {
  const text = JSON.stringify({ errors: [{ message, extensions: { code } }] });
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}
