// Snapshot errors on the wire (spec "Errors", design §6): each code's HTTP status, and the body
// {code, message, param?, retryAfterSeconds?} with Retry-After on 429 and 503.
import type { ServerResponse } from "node:http";
import { InsightsError } from "../../shared/base/errors.js";

const SNAPSHOT_STATUS: Readonly<Record<string, number>> = {
  INVALID_PARAM: 400,
  RATE_LIMITED: 429,
  QUEUE_FULL: 503,
  QUEUE_TIMEOUT: 503,
  COLLECT_TIMEOUT: 504,
  TOTAL_TIMEOUT: 504,
  PAYLOAD_TOO_LARGE: 413,
  GATEWAY_UNREACHABLE: 502,
  RENDER_FAILED: 500,
};

interface SnapshotErrorBody {
  code: string;
  message: string;
  param?: string;
  retryAfterSeconds?: number;
}

/** Any error as the snapshot API reports it; unknown failures are RENDER_FAILED with a plain message. */
export function snapshotErrorBody(err: unknown): { status: number; body: SnapshotErrorBody } {
  if (err instanceof InsightsError) {
    // A malformed JSON body is a bad parameter in this API's terms.
    const code = err.code === "BAD_USER_INPUT" ? "INVALID_PARAM" : err.code;
    const status = SNAPSHOT_STATUS[code];
    if (status !== undefined) {
      const body: SnapshotErrorBody = { code, message: err.message };
      if (typeof err.details.param === "string") body.param = err.details.param;
      if (typeof err.details.retryAfterSeconds === "number") body.retryAfterSeconds = err.details.retryAfterSeconds;
      return { status, body };
    }
  }
  return { status: 500, body: { code: "RENDER_FAILED", message: "the snapshot could not be made; see the daemon log" } };
}

export function sendSnapshotError(res: ServerResponse, err: unknown): void {
  const { status, body } = snapshotErrorBody(err);
  const text = JSON.stringify(body);
  const headers: Record<string, string | number> = { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) };
  if ((status === 429 || status === 503) && body.retryAfterSeconds !== undefined) headers["Retry-After"] = body.retryAfterSeconds;
  res.writeHead(status, headers);
  res.end(text);
}
