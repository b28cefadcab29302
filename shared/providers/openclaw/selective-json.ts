// Selective JSON: the tools to step over the parts of a JSON text nobody reads without building
// them, and to parse the rest with JSON.parse of its own bytes (so every value kept is exactly
// what JSON.parse would have made). Stepping over a value checks its nesting and its strings, not
// every rule of JSON: a malformed part that still nests correctly is skipped as if it were good.
// Used for the file era's sessions.json (sessions-index.ts). Not for transcript lines: on lines of
// a few KB, V8's JSON.parse is faster than any walk in JavaScript (tried: 806 against 624 ms for
// 101,784 lines), so those are parsed whole.

/** A value the walk could not make sense of; `at` is the byte offset. */
export class IndexSyntaxError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(`${message} at byte ${at}`);
  }
}

/** The window ended inside a member and the file goes on: read more and walk the member again. */
class NeedMore extends Error {}
export const NEED_MORE = new NeedMore("need more input");

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

export function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/**
 * Whether the window ends where the file does. Set by the walk before each member; the helpers
 * below read it rather than carry it (the walk is synchronous, one at a time).
 */
let atEnd = true;

/** Sets whether the window the next calls see ends where the input does. */
export function setAtEnd(value: boolean): void {
  atEnd = value;
}

/** The next non-space offset; at the window's end when the file goes on, NEED_MORE. */
export function skipSpace(buf: Buffer, i: number): number {
  while (i < buf.length && isSpace(buf[i] as number)) i++;
  if (i === buf.length && !atEnd) throw NEED_MORE;
  return i;
}

/** Offset just past the string starting at `i` (a quote). */
function skipString(buf: Buffer, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = buf.indexOf(QUOTE, j);
    if (q === -1) throw atEnd ? new IndexSyntaxError("unterminated string", i) : NEED_MORE;
    // An escaped quote has an odd number of backslashes before it.
    let k = q - 1;
    while (k > i && buf[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** 0: nothing to do; 1: a quote; 2, 3: `{`, `[`; 4, 5: `}`, `]`. */
const BYTE_CLASS = new Uint8Array(256);
BYTE_CLASS[0x22] = 1;
BYTE_CLASS[0x7b] = 2;
BYTE_CLASS[0x5b] = 3;
BYTE_CLASS[0x7d] = 4;
BYTE_CLASS[0x5d] = 5;
/** The open brackets of the value being skipped; grown for deep nesting, kept between calls up to KEPT_STACK. */
let openStack = new Uint8Array(64);
/** A stack grown past this (a hostile blob nested a million deep) is not kept for the next value. */
const KEPT_STACK = 64 * 1024;

/** Bytes of the skip stack kept between calls (tests). */
export function keptSkipStackBytes(): number {
  return openStack.length;
}

/** Offset just past the JSON value starting at `i` (no leading space), without building it. */
export function skipValue(buf: Buffer, i: number): number {
  const b = buf[i];
  if (b === QUOTE) return skipString(buf, i);
  if (b === LBRACE || b === LBRACKET) {
    try {
      return skipNested(buf, i);
    } finally {
      if (openStack.length > KEPT_STACK) openStack = new Uint8Array(64);
    }
  }
  // A number, true, false or null: up to the next delimiter; JSON.parse judges it when it is kept.
  let j = i;
  while (j < buf.length) {
    const c = buf[j] as number;
    if (c === COMMA || c === RBRACE || c === RBRACKET || isSpace(c)) break;
    j++;
  }
  if (j === buf.length && !atEnd) throw NEED_MORE; // the number may go on
  if (j === i) throw new IndexSyntaxError("value expected", i);
  return j;
}

/** skipValue of an object or array starting at `i`. */
function skipNested(buf: Buffer, i: number): number {
  // Brackets must pair up by kind: a stack of what is open (1 = object, 2 = array). One table
  // load per byte: most bytes of a blob are indentation or inside strings (skipped natively).
  let stack = openStack;
  let depth = 0;
  const n = buf.length;
  let j = i;
  while (j < n) {
    const k = BYTE_CLASS[buf[j] as number] as number;
    if (k === 0) {
      j++;
      continue;
    }
    if (k === 1) {
      j = skipString(buf, j);
      continue;
    }
    if (k <= 3) {
      if (depth === stack.length) {
        const bigger = new Uint8Array(stack.length * 2);
        bigger.set(stack);
        stack = openStack = bigger;
      }
      stack[depth++] = k - 1;
    } else {
      if (depth === 0 || stack[--depth] !== k - 3) throw new IndexSyntaxError("unbalanced brackets", j);
      if (depth === 0) return j + 1;
    }
    j++;
  }
  throw atEnd ? new IndexSyntaxError("unterminated value", i) : NEED_MORE;
}

export function parseSlice(buf: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(buf.toString("utf8", start, end)) as unknown;
  } catch (err) {
    throw new IndexSyntaxError((err as Error).message, start);
  }
}

/**
 * The string from `i` (its opening quote) to `end` (past its closing quote) when it needs no
 * unescaping: plain ASCII printable bytes only; else null (JSON.parse decides then).
 */
function plainString(buf: Buffer, i: number, end: number): string | null {
  for (let k = i + 1; k < end - 1; k++) {
    const c = buf[k] as number;
    if (c === BACKSLASH || c < 0x20 || c > 0x7e) return null;
  }
  return buf.toString("latin1", i + 1, end - 1);
}

export function readKey(buf: Buffer, i: number): { key: string; next: number } {
  if (buf[i] !== QUOTE) throw new IndexSyntaxError("property name expected", i);
  const end = skipString(buf, i);
  const key = plainString(buf, i, end) ?? (parseSlice(buf, i, end) as string);
  const colon = skipSpace(buf, end);
  if (buf[colon] !== COLON) throw new IndexSyntaxError("':' expected", colon);
  return { key, next: skipSpace(buf, colon + 1) };
}

/** After a member: the offset of the next member (past a comma), or past the closing brace (`closed`). */
export function afterMember(buf: Buffer, i: number): { next: number; closed: boolean } {
  const j = skipSpace(buf, i);
  if (buf[j] === COMMA) return { next: skipSpace(buf, j + 1), closed: false };
  if (buf[j] === RBRACE) return { next: j + 1, closed: true };
  throw new IndexSyntaxError("',' or '}' expected", j);
}

/** Sets a property as JSON.parse would: an own data property even for `__proto__`. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A plain string, a number or a literal without JSON.parse (a call per field cost more than the
 * field); undefined for anything else (JSON.parse decides then).
 */
export function scalar(buf: Buffer, i: number, end: number): unknown {
  const b = buf[i];
  if (b === QUOTE) return plainString(buf, i, end) ?? undefined;
  if (end - i > 32) return undefined;
  const text = buf.toString("latin1", i, end);
  if (JSON_NUMBER.test(text)) return Number(text);
  if (text === "true") return true;
  if (text === "false") return false;
  if (text === "null") return null;
  return undefined;
}

