// Real JSONL lines turned into templates: each fixture line is cut once into literal text and
// "slots" (ids, timestamps, token counts, paths) that a copy fills in. Writing a copy is then string
// concatenation: the 30-110 KB lines of a transcript are never parsed or re-serialized per copy,
// which is what keeps generating gigabytes fast.
import * as fs from "node:fs";

/** A place in a line that every copy fills in its own way. */
export type Slot =
  /** An id (uuid, msg_…, req_…, toolu_…, resp_…): the same original gives the same new id within a copy. */
  | { k: "id"; orig: string }
  /** An ISO-8601 UTC timestamp with milliseconds; `ms` is the original instant. */
  | { k: "iso"; ms: number }
  /** Epoch milliseconds / whole seconds / seconds with a fraction of `digits` digits. */
  | { k: "epochMs"; ms: number }
  | { k: "epochS"; ms: number }
  | { k: "epochF"; ms: number; digits: number }
  /** A calendar date (YYYY-MM-DD) that is not part of a timestamp: the copy's day. */
  | { k: "date" }
  /** Provider-specific: token counts, models, paths, counters. */
  | { k: "x"; name: string; a: string };

export type Segment = string | Slot;

/** What a rule found: the text to put in place of the match (literals and slots). */
export type RuleOutput = Segment[] | null;

export interface Rule {
  /** A regex without capture groups that matter to the tokenizer (the callback gets the match). */
  re: RegExp;
  /** Returns null to leave the match as literal text. */
  make(match: RegExpExecArray): RuleOutput;
}

const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const ISO_RE = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/;

/** The rules every provider shares: timestamps, uuids, dates, and epochs near the fixture's time. */
export function commonRules(range: { minMs: number; maxMs: number }): Rule[] {
  const near = (ms: number): boolean => ms >= range.minMs - 86_400_000 && ms <= range.maxMs + 86_400_000;
  return [
    { re: ISO_RE, make: (m) => [{ k: "iso", ms: Date.parse(m[0]) }] },
    { re: UUID_RE, make: (m) => [{ k: "id", orig: m[0] }] },
    // A bare date (the `date` attachment, <current_date>): the copy's day.
    { re: /(?<![\d-])\d{4}-\d{2}-\d{2}(?![\dT])/, make: (m) => (near(Date.parse(`${m[0]}T12:00:00Z`)) ? [{ k: "date" }] : null) },
    {
      re: /(?<![\d.])\d{10}\.\d+(?!\d)/,
      make: (m) => {
        const ms = Number(m[0]) * 1000;
        return near(ms) ? [{ k: "epochF", ms, digits: m[0].split(".")[1]?.length ?? 0 }] : null;
      },
    },
    { re: /(?<![\d.])\d{13}(?![\d.])/, make: (m) => (near(Number(m[0])) ? [{ k: "epochMs", ms: Number(m[0]) }] : null) },
    { re: /(?<![\d.])\d{10}(?![\d.])/, make: (m) => (near(Number(m[0]) * 1000) ? [{ k: "epochS", ms: Number(m[0]) * 1000 }] : null) },
  ];
}

/**
 * Cuts `text` into segments. Rules are tried left to right at every position; the earliest match
 * wins, and among matches at the same position the first rule (so specific rules go first).
 */
export function compile(text: string, rules: readonly Rule[]): Segment[] {
  const res = rules.map((r) => new RegExp(r.re.source, `${r.re.flags.replace("g", "")}g`));
  const out: Segment[] = [];
  let pos = 0;
  const next: Array<RegExpExecArray | null> = res.map(() => null);
  const refresh = (i: number): void => {
    const re = res[i] as RegExp;
    re.lastIndex = pos;
    next[i] = re.exec(text);
  };
  res.forEach((_, i) => refresh(i));
  for (;;) {
    let best = -1;
    for (let i = 0; i < res.length; i++) {
      const m = next[i];
      if (m && (best < 0 || m.index < (next[best] as RegExpExecArray).index)) best = i;
    }
    if (best < 0) break;
    const m = next[best] as RegExpExecArray;
    const made = (rules[best] as Rule).make(m);
    if (made) {
      if (m.index > pos) out.push(text.slice(pos, m.index));
      out.push(...made);
      pos = m.index + m[0].length;
    } else {
      // Leave it as text and look again after it (this rule only; others may match inside).
      const re = res[best] as RegExp;
      re.lastIndex = m.index + 1;
      next[best] = re.exec(text);
      continue;
    }
    for (let i = 0; i < res.length; i++) if (!next[i] || (next[i] as RegExpExecArray).index < pos) refresh(i);
  }
  if (pos < text.length) out.push(text.slice(pos));
  // Merge neighbouring literals so rendering does fewer pushes.
  const merged: Segment[] = [];
  for (const s of out) {
    const last = merged[merged.length - 1];
    if (typeof s === "string" && typeof last === "string") merged[merged.length - 1] = last + s;
    else merged.push(s);
  }
  return merged;
}

/** Fills the slots of one line. */
export type Resolver = (slot: Slot) => string;

export function render(segments: readonly Segment[], resolve: Resolver, out: string[]): number {
  let n = 0;
  for (const s of segments) {
    const t = typeof s === "string" ? s : resolve(s);
    out.push(t);
    n += t.length;
  }
  return n;
}

/**
 * Appends strings to a file through a small buffer (never a whole file in memory), and counts
 * the bytes written.
 */
export class FileWriter {
  private readonly fd: number;
  private parts: string[] = [];
  private pending = 0;
  bytes = 0;

  constructor(
    readonly file: string,
    private readonly flushAt = 1 << 20,
  ) {
    this.fd = fs.openSync(file, "w");
  }

  /** The parts array to render into; call `maybeFlush` after. */
  get sink(): string[] {
    return this.parts;
  }

  add(text: string): void {
    this.parts.push(text);
    this.pending += text.length;
    if (this.pending >= this.flushAt) this.flush();
  }

  /** After rendering into `sink` directly. */
  noteAdded(chars: number): void {
    this.pending += chars;
    if (this.pending >= this.flushAt) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    const buf = Buffer.from(this.parts.join(""), "utf8");
    this.parts = [];
    this.pending = 0;
    let off = 0;
    while (off < buf.length) off += fs.writeSync(this.fd, buf, off);
    this.bytes += buf.length;
  }

  close(mtimeMs?: number): void {
    this.flush();
    fs.closeSync(this.fd);
    if (mtimeMs !== undefined) fs.utimesSync(this.file, mtimeMs / 1000, mtimeMs / 1000);
  }
}
