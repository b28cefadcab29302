// Reads a request body with a hard size limit: a client that sends more than `limit` bytes (or
// announces it in Content-Length) gets PAYLOAD_TOO_LARGE before the daemon buffers it.
import type { IncomingMessage } from "node:http";
import { InsightsError } from "../../shared/errors.js";

export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      // Stop reading; the response says why and the connection closes after it.
      req.resume();
      throw tooLarge(limit);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The body as JSON; BAD_USER_INPUT when it is not. An empty body is `undefined`. */
export function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString("utf8")) as unknown;
  } catch (err) {
    throw new InsightsError("BAD_USER_INPUT", `the request body is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function tooLarge(limit: number): InsightsError {
  return new InsightsError("PAYLOAD_TOO_LARGE", `the request body is larger than ${Math.round(limit / 1024)} KB`, { limit });
}
