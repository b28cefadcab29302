// A snapshot as the control socket carries it (and as the CLI's in-process path hands it on):
// the bytes as base64 plus what the CLI tells its user.
import type { SnapshotReply } from "../control/protocol.js";
import type { SnapshotResult } from "./pipeline.js";
import { cardSummary } from "./summary.js";

export function toSnapshotReply(r: SnapshotResult): SnapshotReply {
  return {
    body: r.body.toString("base64"),
    contentType: r.contentType,
    fileName: r.fileName,
    format: r.params.format,
    detail: r.params.detail,
    requestedDetail: r.requestedDetail,
    degradedSources: r.degradedSources,
    durationMs: r.durationMs,
    summary: cardSummary(r.card),
  };
}
