// Reads a request body with a hard size limit: a client that sends more than `limit` bytes (or
// announces it in Content-Length) gets PAYLOAD_TOO_LARGE before the daemon buffers it. The HTTP
// server calls this once per request with the route's limit; handlers get the result.
import type { IncomingMessage } from "node:http";
import { InsightsError } from "../../shared/base/errors.js";

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    // Discard what arrives instead of buffering it; the caller answers 413.
    req.resume();
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        chunks.length = 0;
        // Keep the stream flowing with no listener: the rest is read and dropped, never kept. (Not
        // destroyed here: the 413 still has to reach the client on this socket.)
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const onClose = (): void => {
      // Closed before "end": the client went away mid-body.
      cleanup();
      reject(new Error("the client closed the connection before sending the whole body"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
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
  return new InsightsError("PAYLOAD_TOO_LARGE", `the request body is larger than ${limit >= 1024 ? `${Math.round(limit / 1024)} KB` : `${limit} bytes`}`, { limit });
}
