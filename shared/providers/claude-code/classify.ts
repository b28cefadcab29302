// Which transcript lines are worth parsing, decided from a line's first bytes (line-reader's `keep`).
// Claude Code writes 30-110 KB lines the monitor never uses (`attachment` prompt snapshots,
// `api-request-shape`, `api-request-blob`); parsing them was most of the cost of a scan. The
// decision reads only TOP-LEVEL keys of the head: `type` is not always first (attachment lines
// are `{"parentUuid":…,"isSidechain":…,"attachment":{…},"type":"attachment"}`), and a nested
// object may hold a `type` of its own. Whatever the head cannot settle is kept: a misjudged line
// may only ever be parsed needlessly, never dropped. The byte reads are the JSONL kit's (json-head.ts).
import { bytesAre, COMMA, COLON, endOfString, endOfValue, OPEN_BRACE, QUOTE, skipWs } from "../jsonl/json-head.js";

/**
 * Line types with nothing the reader uses (format doc §2): context injections and request
 * bookkeeping, and the small per-turn markers (`last-prompt`, `cost-state`, ...). Prompts are
 * counted from `user` lines; `queue-operation` is kept all the same: its `enqueue` is a file's
 * earliest line (before the first message), which is when the session's activity began.
 */
export const SKIPPED_TYPES: ReadonlySet<string> = new Set([
  "attachment",
  "api-request-shape",
  "api-request-blob",
  "api-request",
  "last-prompt",
  "atis-latch",
  "tools-used",
  "mode",
  "cost-state",
]);

/** Bytes of a line the classifier sees: the `attachment` key comes within the first ~150. */
export const CLASSIFY_PEEK_BYTES = 512;

const ATTACHMENT = Buffer.from("attachment");
const TYPE = Buffer.from("type");

/**
 * False for a line the reader does not use: its top-level `type` is one of SKIPPED_TYPES, or it
 * has a top-level `attachment` key before any `type` (the attachment line's shape; user and
 * assistant lines keep their content under `message`). True otherwise, including whenever the
 * head ends before the question is settled or does not look like a JSON object (JSON.parse then
 * reports it).
 */
export function keepLine(head: Buffer): boolean {
  let i = skipWs(head, 0);
  if (head[i] !== OPEN_BRACE) return true;
  i++;
  for (;;) {
    i = skipWs(head, i);
    if (i >= head.length || head[i] !== QUOTE) return true;
    const keyEnd = endOfString(head, i);
    if (keyEnd === -1) return true;
    // Keys are compared raw, in place: an escaped key never equals the plain names below, so it is
    // kept. (A string per key was a third of the cost of skipping a line.)
    const isAttachment = bytesAre(head, i + 1, keyEnd - 1, ATTACHMENT);
    const isType = !isAttachment && bytesAre(head, i + 1, keyEnd - 1, TYPE);
    i = skipWs(head, keyEnd);
    if (head[i] !== COLON) return true;
    i = skipWs(head, i + 1);
    if (i >= head.length) return true;
    if (isAttachment) return false;
    if (isType) {
      if (head[i] !== QUOTE) return true;
      const end = endOfString(head, i);
      if (end === -1) return true;
      return !SKIPPED_TYPES.has(head.toString("utf8", i + 1, end - 1));
    }
    const end = endOfValue(head, i);
    if (end === -1) return true;
    i = skipWs(head, end);
    if (head[i] !== COMMA) return true;
    i++;
  }
}
