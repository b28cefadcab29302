// A selective parser for the file era's `sessions.json`: one object keyed by session key, each
// value the session's entry. Every entry carries ~12 KB of blobs the monitor never reads
// (UNREAD_ENTRY_FIELDS); on a real install the file is tens of MB of them. JSON.parse of the whole
// file built every blob (the heap grew by ~190 MB for 8 agents of 1,250 sessions, and V8 kept the
// space), so this walks the bytes instead: the blobs are stepped over without being built, and
// only the other fields of each entry are parsed, each with JSON.parse of its own bytes (so every
// value kept is exactly what JSON.parse would have made).
//
// Stepping over a value checks its nesting and its strings, not every rule of JSON: a malformed
// blob that still nests correctly is skipped as if it were good. Everything kept is strict JSON.

/** A value the walk could not make sense of; `at` is the byte offset. */
export class IndexSyntaxError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(`${message} at byte ${at}`);
  }
}

export interface IndexEntryVisitor {
  /** An entry that is an object: its kept fields, in file order (a repeated field: the last value, at its first place). */
  entry(key: string, fields: Record<string, unknown>): void;
  /** An entry that is not an object (stepped over). */
  notObject(key: string): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

function skipSpace(buf: Buffer, i: number): number {
  while (i < buf.length && isSpace(buf[i] as number)) i++;
  return i;
}

/** Offset just past the string starting at `i` (a quote). */
function skipString(buf: Buffer, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = buf.indexOf(QUOTE, j);
    if (q === -1) throw new IndexSyntaxError("unterminated string", i);
    // An escaped quote has an odd number of backslashes before it.
    let k = q - 1;
    while (k > i && buf[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Offset just past the JSON value starting at `i` (no leading space), without building it. */
function skipValue(buf: Buffer, i: number): number {
  const b = buf[i];
  if (b === QUOTE) return skipString(buf, i);
  if (b === LBRACE || b === LBRACKET) {
    // Brackets must pair up by kind: a stack of what is open, as bits (1 = object).
    const open: number[] = [];
    let j = i;
    while (j < buf.length) {
      const c = buf[j] as number;
      if (c === QUOTE) {
        j = skipString(buf, j);
        continue;
      }
      if (c === LBRACE || c === LBRACKET) open.push(c);
      else if (c === RBRACE || c === RBRACKET) {
        const top = open.pop();
        if (top !== (c === RBRACE ? LBRACE : LBRACKET)) throw new IndexSyntaxError("unbalanced brackets", j);
        if (open.length === 0) return j + 1;
      }
      j++;
    }
    throw new IndexSyntaxError("unterminated value", i);
  }
  // A number, true, false or null: up to the next delimiter; JSON.parse judges it when it is kept.
  let j = i;
  while (j < buf.length) {
    const c = buf[j] as number;
    if (c === COMMA || c === RBRACE || c === RBRACKET || isSpace(c)) break;
    j++;
  }
  if (j === i) throw new IndexSyntaxError("value expected", i);
  return j;
}

function parseSlice(buf: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(buf.toString("utf8", start, end)) as unknown;
  } catch (err) {
    throw new IndexSyntaxError((err as Error).message, start);
  }
}

function readKey(buf: Buffer, i: number): { key: string; next: number } {
  if (buf[i] !== QUOTE) throw new IndexSyntaxError("property name expected", i);
  const end = skipString(buf, i);
  const key = parseSlice(buf, i, end) as string;
  const colon = skipSpace(buf, end);
  if (buf[colon] !== COLON) throw new IndexSyntaxError("':' expected", colon);
  return { key, next: skipSpace(buf, colon + 1) };
}

/** After a member: the offset of the next member (past a comma), or past the closing brace (`closed`). */
function afterMember(buf: Buffer, i: number): { next: number; closed: boolean } {
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

/** The fields of one entry object starting at `i` (a brace); returns the offset past it. */
function readEntry(buf: Buffer, i: number, skip: ReadonlySet<string>, fields: Record<string, unknown>): number {
  let j = skipSpace(buf, i + 1);
  if (buf[j] === RBRACE) return j + 1;
  for (;;) {
    const { key, next } = readKey(buf, j);
    const end = skipValue(buf, next);
    if (!skip.has(key)) setOwn(fields, key, parseSlice(buf, next, end));
    const after = afterMember(buf, end);
    if (after.closed) return after.next;
    j = after.next;
  }
}

/**
 * Walks a sessions.json held in `buf`, calling the visitor for each top-level member in file order.
 * Fields named in `skip` are stepped over. Throws IndexSyntaxError when the file is not an object
 * of members or a kept value is not valid JSON.
 */
export function walkSessionsIndex(buf: Buffer, skip: ReadonlySet<string>, visit: IndexEntryVisitor): void {
  let i = skipSpace(buf, 0);
  // A UTF-8 byte order mark is not JSON; JSON.parse of the decoded text refused it too.
  if (buf[i] !== LBRACE) throw new IndexSyntaxError("top level is not an object", i);
  i = skipSpace(buf, i + 1);
  let closed = buf[i] === RBRACE;
  if (closed) i++;
  while (!closed) {
    const { key, next } = readKey(buf, i);
    let end: number;
    if (buf[next] === LBRACE) {
      const fields: Record<string, unknown> = {};
      end = readEntry(buf, next, skip, fields);
      visit.entry(key, fields);
    } else {
      end = skipValue(buf, next);
      // Still has to be a JSON value: parsed only when small (a blob-sized non-entry is stepped over).
      if (end - next <= 4096) parseSlice(buf, next, end);
      visit.notObject(key);
    }
    const after = afterMember(buf, end);
    closed = after.closed;
    i = after.next;
  }
  const rest = skipSpace(buf, i);
  if (rest < buf.length) throw new IndexSyntaxError("unexpected data after the top-level object", rest);
}
