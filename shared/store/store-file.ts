// Which file the store has open, to notice it deleted or replaced under the running daemon.
import { lstatSync } from "node:fs";

/** A file's identity: device and inode (bigint: inode numbers may exceed 2^53). */
export interface FileId {
  dev: bigint;
  ino: bigint;
}

/** What happened to the store's file, and what became of it. */
export interface StoreIncident {
  kind: "deleted" | "replaced";
  /** Epoch ms it was noticed. */
  at: number;
  /**
   * `recovering`: the open copy is being written back; `recovered`: it was, nothing lost;
   * `recreated-empty`: the copy could not be written, a new empty store runs; `failed`: no file
   * could be had, the daemon runs on an in-memory store.
   */
  state: "recovering" | "recovered" | "recreated-empty" | "failed";
  /** For the log and /health: what happened and what was lost. */
  message: string;
  /** Where a file found in the store's place was kept; null when none. */
  movedAside: string | null;
  /** What was lost; null when nothing. */
  lost: string | null;
}

/** The identity of the file at `path` now (a link is not followed); null when there is none. */
export function fileIdOf(path: string): FileId | null {
  try {
    const st = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    return st ? { dev: st.dev, ino: st.ino } : null;
  } catch {
    return null;
  }
}

export function sameFile(a: FileId, b: FileId): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}
