// Byte-level reads of the first bytes of a JSONL line, shared by the JSONL providers' classifiers
// (Claude Code, Codex): they decide whether a line is worth decoding and parsing from its raw
// bytes, never building a string of the line. These run for every line of a history (hundreds of
// thousands per GB), so they compare bytes in place: no string is made for a key, and a search
// looks only where the answer can be (a call into Buffer#indexOf costs more than a short JS loop
// over the first hundred bytes of a line).

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Where `needle` starts in `b`, at or after `from` and before `before`, or -1. */
export function findBytes(b: Buffer, needle: Buffer, from = 0, before = b.length): number {
  const first = needle[0] as number;
  const end = Math.min(before, b.length - needle.length + 1);
  outer: for (let i = from; i < end; i++) {
    if (b[i] !== first) continue;
    for (let j = 1; j < needle.length; j++) if (b[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** True when `b` holds exactly `needle` in [at, end). */
export function bytesAre(b: Buffer, at: number, end: number, needle: Buffer): boolean {
  if (end - at !== needle.length) return false;
  for (let j = 0; j < needle.length; j++) if (b[at + j] !== needle[j]) return false;
  return true;
}

/**
 * The string whose first byte is at `from` (just past its opening quote), up to its closing quote;
 * null when the head ends first or the string holds an escape (its raw bytes are then not its value).
 */
export function plainStringAt(b: Buffer, from: number): string | null {
  for (let i = from; i < b.length; i++) {
    if (b[i] === BACKSLASH) return null;
    if (b[i] === QUOTE) return b.toString("utf8", from, i);
  }
  return null;
}

export function skipWs(b: Buffer, i: number): number {
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  return i;
}

/** Index just past the string whose opening quote is at `i`, or -1 when the head ends first. */
export function endOfString(b: Buffer, i: number): number {
  for (let j = i + 1; j < b.length; j++) {
    if (b[j] === BACKSLASH) j++;
    else if (b[j] === QUOTE) return j + 1;
  }
  return -1;
}

/** Index just past the value starting at `i` (any JSON value), or -1 when the head ends first. */
export function endOfValue(b: Buffer, i: number): number {
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
