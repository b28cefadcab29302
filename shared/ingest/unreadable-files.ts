// Transcripts that list as regular files but cannot be read (a link to /proc/self/mem answers EIO,
// a FIFO swapped in after the listing is refused by safe-open): retried a few times, then skipped
// until their stat changes, so one bad file can neither keep a source INITIALIZING (the first
// scan never "done") nor make every 2 s poll log the same warning. Kept per source, in memory: a
// restart tries every file again.
import type { TranscriptRef } from "../providers/contract.js";
import type { SourceError } from "../providers/result.js";

/** Failed reads of a file before it is skipped. */
export const SKIP_AFTER_FAILURES = 3;
/** A warning about the same file at most this often. */
const UNREADABLE_WARN_EVERY_MS = 10 * 60_000;

export interface SkippedFile {
  /** The transcript's id within its source. */
  id: string;
  /** The file, as the failed read named it (its SourceError's `where`), else the id. */
  path: string;
  error: string;
}

interface Entry {
  failures: number;
  /** The change token of the last failed read: a file skipped stays skipped until it moves. */
  token: string;
  path: string;
  error: string;
  lastWarnAt: number | null;
}

interface FailedRead {
  /** The file is skipped from now on (until its stat changes). */
  skipped: boolean;
  /** Log a warning about it now: when it becomes skipped, else at most once per UNREADABLE_WARN_EVERY_MS per file. */
  warn: boolean;
}

export class UnreadableFiles {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxFailures = SKIP_AFTER_FAILURES) {}

  get size(): number {
    return this.entries.size;
  }

  /** Skipped: failed often enough, and not changed since its last failed read. */
  isSkipped(ref: TranscriptRef): boolean {
    const e = this.entries.get(ref.id);
    return e !== undefined && e.failures >= this.maxFailures && e.token === ref.changeToken;
  }

  /**
   * Counts a failed read. Failures add up across changes of the file: once skipped, a change
   * earns one more try, and a failed one skips it again at once (a file swapped in a loop cannot
   * hold the first scan back).
   */
  failed(ref: TranscriptRef, error: SourceError, now: number): FailedRead {
    const where = typeof error.details.where === "string" ? error.details.where : ref.id;
    const e = this.entries.get(ref.id) ?? { failures: 0, token: ref.changeToken, path: where, error: error.message, lastWarnAt: null };
    e.failures++;
    e.token = ref.changeToken;
    e.path = where;
    e.error = error.message;
    // The moment it becomes skipped is always said once; otherwise once per file per while.
    const warn = e.failures === this.maxFailures || e.lastWarnAt === null || now - e.lastWarnAt >= UNREADABLE_WARN_EVERY_MS;
    if (warn) e.lastWarnAt = now;
    this.entries.set(ref.id, e);
    return { skipped: e.failures >= this.maxFailures, warn };
  }

  /** A good read: the file is forgotten. */
  succeeded(ref: TranscriptRef): void {
    if (this.entries.size) this.entries.delete(ref.id);
  }

  /** Forgets files no longer listed (a full listing's ids). */
  retain(listed: ReadonlySet<string>): void {
    for (const id of this.entries.keys()) if (!listed.has(id)) this.entries.delete(id);
  }

  /** The files skipped now, for health. */
  skipped(): SkippedFile[] {
    const out: SkippedFile[] = [];
    for (const [id, e] of this.entries) if (e.failures >= this.maxFailures) out.push({ id, path: e.path, error: e.error });
    return out;
  }
}
