// POST /api/snapshot (spec): the status card as PNG, SVG or JSON. Parameters in a JSON body, REST
// defaults (range 24h); the headers say how long it took, which sources were skipped and whether
// the detail was lowered to fit the size limit.
import type { IncomingMessage } from "node:http";
import { parseSnapshotParams, SNAPSHOT_RULES } from "../../../shared/snapshot/params.js";
import { sendSnapshotError } from "../../snapshot/errors.js";
import type { SnapshotService } from "../../snapshot/service.js";
import { parseJsonBody } from "../body.js";
import type { RouteHandler } from "../server.js";

/** The route's body limit (the server reads the body under it; 413 PAYLOAD_TOO_LARGE past it). */
export const MAX_SNAPSHOT_BODY_BYTES = 16 * 1024;

export function snapshotRoute(service: SnapshotService, peerOf: (req: IncomingMessage) => string | undefined): RouteHandler {
  return async (req, res, raw) => {
    try {
      const body = parseJsonBody(raw);
      const params = parseSnapshotParams(body, SNAPSHOT_RULES.rest);
      const r = await service.snapshot(params, { client: peerOf(req) ?? "unknown", via: "rest" });
      const headers: Record<string, string | number> = {
        "Content-Type": r.contentType,
        "Content-Length": r.body.length,
        "Content-Disposition": `attachment; filename="${r.fileName}"`,
        "X-Snapshot-Duration": String(r.durationMs),
      };
      if (r.degradedSources.length) headers["X-Snapshot-Degraded-Sources"] = r.degradedSources.join(",");
      if (r.params.detail !== r.requestedDetail) headers["X-Snapshot-Degraded"] = `${r.requestedDetail}->${r.params.detail}`;
      res.writeHead(200, headers);
      res.end(r.body);
    } catch (err) {
      if (res.headersSent) res.destroy();
      else sendSnapshotError(res, err);
    }
  };
}
