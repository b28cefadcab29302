// Where an install's rollouts are (codex-format.md §3, §6): `sessions/YYYY/MM/DD/rollout-<local
// time>-<uuid>.jsonl`, one per session, and `archived_sessions/` (where `codex` moves archived
// ones; walked a few levels deep). The uuid at the end of the name is the session id.
//
// A transcript's id is its session id, not its path: archiving moves the file to another folder
// (same inode, so the cursor still fits), and a path id would make the core read the same session
// again under a new id and count its prompts twice. When one session id has several files (a copy
// left behind by hand, or a move caught half-way), one is listed: a live `sessions/` file before an
// archived one, then the larger, then the newer, then the first path.
import * as fs from "node:fs";
import * as path from "node:path";
import type { TranscriptRef } from "../contract.js";
import { runNow, runPaced } from "../paced.js";
import { classifyIoError, fail, ok } from "../result.js";
import type { SourceResult, SourceWarning } from "../result.js";

export const SESSIONS_DIR = "sessions";
export const ARCHIVED_DIR = "archived_sessions";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
const ROLLOUT_RE = new RegExp(`^rollout-[^/\\\\]*?(${UUID})\\.jsonl$`);
const SESSION_ID_RE = new RegExp(`^${UUID}$`);
const DATE_DIRS = [/^\d{4}$/, /^\d{2}$/, /^\d{2}$/];
/** archived_sessions is flat in 0.169; older layouts kept the date folders. */
const ARCHIVE_DEPTH = 4;

/** The session id in a rollout file name, lower-cased; null when the name is not a rollout's. */
export function sessionIdOfName(name: string): string | null {
  const m = ROLLOUT_RE.exec(name);
  return m?.[1] ? m[1].toLowerCase() : null;
}

/** Is `id` a transcript id this reader hands out (a session uuid)? Ids from a store are checked before use. */
export function isSessionId(id: string): boolean {
  return SESSION_ID_RE.test(id) && id === id.toLowerCase();
}

export interface RolloutFile {
  sessionId: string;
  /** Relative to the install dir, `/`-separated. */
  rel: string;
  abs: string;
  archived: boolean;
  stat: fs.Stats;
}

/** The change token of a rollout: equal token, nothing new to read. */
export function changeTokenOf(st: fs.Stats): string {
  return `${st.size}:${st.ino}:${st.mtimeMs}`;
}

function readDir(dir: string, warnings: SourceWarning[]): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    // Gone between two listings is normal; anything else is worth a word.
    const code = (err as { code?: unknown }).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") warnings.push({ code: "BAD_ROW", message: `cannot list: ${(err as Error).message}`, where: dir });
    return [];
  }
}

/** stat() of an entry that is (or links to) a regular file; null otherwise or when it vanished. */
function fileStat(p: string, d: fs.Dirent, warnings: SourceWarning[]): fs.Stats | null {
  if (!d.isFile() && !d.isSymbolicLink()) return null;
  try {
    const st = fs.statSync(p);
    return st.isFile() ? st : null;
  } catch (err) {
    if ((err as { code?: unknown }).code !== "ENOENT") warnings.push({ code: "BAD_ROW", message: (err as Error).message, where: p });
    return null;
  }
}

function isPlainDir(d: fs.Dirent): boolean {
  // Symlinked folders are not followed: a link loop or a link out of the install would be walked for ever or read by mistake.
  return d.isDirectory() && !d.name.startsWith(".");
}

/** Files stat-ed between two points where a paced listing may pause (~5 µs each). */
export const LIST_PACE = 500;

function* collect(installDir: string, rel: string, archived: boolean, out: RolloutFile[], warnings: SourceWarning[]): Generator<void, void> {
  let n = 0;
  for (const d of readDir(path.join(installDir, rel), warnings)) {
    const sessionId = sessionIdOfName(d.name);
    if (sessionId === null) continue;
    const abs = path.join(installDir, rel, d.name);
    const st = fileStat(abs, d, warnings);
    if (st) out.push({ sessionId, rel: `${rel}/${d.name}`, abs, archived, stat: st });
    if (++n % LIST_PACE === 0) yield;
  }
  // A day's folder is usually small: a pause after each keeps the stretches short either way.
  if (n > 0) yield;
}

/** Every rollout file of the install (all copies), unsorted. Missing folders are empty. */
export function listRolloutFiles(installDir: string): SourceResult<RolloutFile[]> {
  return runNow(listing(installDir));
}

/** listRolloutFiles, awaiting `pause()` every few hundred files. */
export function listRolloutFilesPaced(installDir: string, pause: () => Promise<void>): Promise<SourceResult<RolloutFile[]>> {
  return runPaced(listing(installDir), pause);
}

function* listing(installDir: string): Generator<void, SourceResult<RolloutFile[]>> {
  const warnings: SourceWarning[] = [];
  const out: RolloutFile[] = [];
  for (const top of [SESSIONS_DIR, ARCHIVED_DIR]) {
    try {
      if (!fs.statSync(path.join(installDir, top)).isDirectory()) continue;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === "ENOENT" || code === "ENOTDIR") continue;
      return fail(classifyIoError(err, path.join(installDir, top)), warnings);
    }
    if (top === SESSIONS_DIR) {
      // sessions/YYYY/MM/DD: exactly the date layout, so nothing else under sessions/ is walked.
      const walk = function* (rel: string, depth: number): Generator<void, void> {
        if (depth === DATE_DIRS.length) {
          yield* collect(installDir, rel, false, out, warnings);
          return;
        }
        for (const d of readDir(path.join(installDir, rel), warnings)) {
          if (isPlainDir(d) && (DATE_DIRS[depth] as RegExp).test(d.name)) yield* walk(`${rel}/${d.name}`, depth + 1);
        }
      };
      yield* walk(top, 0);
    } else {
      const walk = function* (rel: string, depth: number): Generator<void, void> {
        yield* collect(installDir, rel, true, out, warnings);
        if (depth >= ARCHIVE_DEPTH) return;
        for (const d of readDir(path.join(installDir, rel), warnings)) if (isPlainDir(d)) yield* walk(`${rel}/${d.name}`, depth + 1);
      };
      yield* walk(top, 0);
    }
  }
  return ok(out, warnings);
}

/** Which of two files of one session is listed (see the header): negative when `a` wins. */
function preference(a: RolloutFile, b: RolloutFile): number {
  if (a.archived !== b.archived) return a.archived ? 1 : -1;
  if (a.stat.size !== b.stat.size) return b.stat.size - a.stat.size;
  if (a.stat.mtimeMs !== b.stat.mtimeMs) return b.stat.mtimeMs - a.stat.mtimeMs;
  return a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0;
}

/** One file per session id, chosen by `preference`. */
export function pickRollouts(files: RolloutFile[]): Map<string, RolloutFile> {
  const chosen = new Map<string, RolloutFile>();
  for (const f of files) {
    const cur = chosen.get(f.sessionId);
    if (!cur || preference(f, cur) < 0) chosen.set(f.sessionId, f);
  }
  return chosen;
}

/** The contract's view of the chosen files, sorted by id. */
export function transcriptRefs(chosen: Map<string, RolloutFile>): TranscriptRef[] {
  const refs: TranscriptRef[] = [...chosen.values()].map((f) => ({ id: f.sessionId, sessionKey: f.sessionId, parentKey: null, changeToken: changeTokenOf(f.stat), sizeBytes: f.stat.size }));
  refs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return refs;
}
