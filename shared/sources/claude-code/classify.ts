// Which transcript lines are worth parsing, decided from a line's first bytes (line-reader's `keep`).
// Claude Code writes 30-110 KB lines the monitor never uses (`attachment` prompt snapshots,
// `api-request-shape`, `api-request-blob`); parsing them was most of the cost of a scan. The
// decision reads only TOP-LEVEL keys of the head: `type` is not always first (attachment lines
// are `{"parentUuid":…,"isSidechain":…,"attachment":{…},"type":"attachment"}`), and a nested
// object may hold a `type` of its own. Whatever the head cannot settle is kept: a misjudged line
// may only ever be parsed needlessly, never dropped.

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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function skipWs(b: Buffer, i: number): number {
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  return i;
}

/** Index just past the string whose opening quote is at `i`, or -1 when the head ends first. */
function endOfString(b: Buffer, i: number): number {
  for (let j = i + 1; j < b.length; j++) {
    if (b[j] === BACKSLASH) j++;
    else if (b[j] === QUOTE) return j + 1;
  }
  return -1;
}

/** Index just past the value starting at `i` (any JSON value), or -1 when the head ends first. */
function endOfValue(b: Buffer, i: number): number {
  if (b[i] === QUOTE) return endOfString(b, i);
  if (b[i] === OPEN_BRACE || b[i] === OPEN_BRACKET) {
    let depth = 0;
    for (let j = i; j < b.length; j++) {
      const c = b[j];
      if (c === QUOTE) {
        const e = endOfString(b, j);
        if (e === -1) return -1;
        j = e - 1;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  // number, true, false, null: up to the next delimiter
  let j = i;
  while (j < b.length && b[j] !== COMMA && b[j] !== CLOSE_BRACE && b[j] !== 0x20 && b[j] !== 0x0a && b[j] !== 0x0d && b[j] !== 0x09) j++;
  return j < b.length ? j : -1;
}

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
    // Keys are compared raw: an escaped key never equals the plain names below, so it is kept.
    const key = head.toString("latin1", i + 1, keyEnd - 1);
    i = skipWs(head, keyEnd);
    if (head[i] !== COLON) return true;
    i = skipWs(head, i + 1);
    if (i >= head.length) return true;
    if (key === "attachment") return false;
    if (key === "type") {
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
