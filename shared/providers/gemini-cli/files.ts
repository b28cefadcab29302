// Where an install's session files are (gemini-cli-format.md §3, §6), and which one a session is
// read from. Main sessions: `tmp/<slug>/chats/session-<UTC minute>-<id8>.jsonl`, keyed by the
// header's `sessionId` (the name holds only 8 characters of it); sub-agents:
// `tmp/<slug>/chats/<parentSessionId>/<sessionId>.jsonl`, under their parent. The project is the
// slug dir's owner: `tmp/<slug>/.project_root`, else the registry `projects.json` (never the slug,
// which gets `-1` suffixes on collisions).
//
// A transcript is one file, its id the file's path in the install (`tmp/<slug>/chats/…`; looked up
// in the listing, never turned back into a path), its session the header's `sessionId`. A resume in
// a later minute than the file's name writes a second file of the same session (a header and the
// context only) while the turn goes to the old file, and Gemini CLI deletes files on its own: with
// one transcript per file, a file that goes is just a transcript gone (its figures stay), never
// another file read in its place from the start.
import * as fs from "node:fs";
import * as path from "node:path";
import { openRegular, readRegularFile } from "../../base/safe-open.js";
import type { TranscriptRef } from "../contract.js";
import { runNow, runPaced } from "../paced.js";
import { classifyIoError, fail, ok, type SourceResult, type SourceWarning } from "../result.js";

export const TMP_DIR = "tmp";
export const CHATS_DIR = "chats";
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const SESSION_ID_RE = new RegExp(`^${UUID}$`);
const MAIN_RE = /^session-[0-9T-]+-([0-9a-f]{8})\.jsonl$/;
const SUB_RE = new RegExp(`^(${UUID})\\.jsonl$`);
/** A header line is a few hundred bytes; one that does not end within this is not a header. */
const HEADER_BYTES = 8192;
/** Stat calls between two points where a paced listing may pause. */
export const LIST_PACE = 500;
/**
 * A header read (open, read, close) counted in stats: a first listing reads every main file's, and
 * at one per stat it ran ~90 ms between two pauses on 900 files (an event-loop stall).
 */
export const HEADER_COST = 25;

/** Is `id` a transcript id this reader hands out (a session uuid)? Ids from a store are checked before use. */
export function isSessionId(id: string): boolean {
  return SESSION_ID_RE.test(id);
}

/** Is `name` a session file's name (a main session's or a sub-agent's)? */
export function isSessionFileName(name: string): boolean {
  return MAIN_RE.test(name) || SUB_RE.test(name);
}

export interface SessionFile {
  /** The transcript id: the path relative to the install, `/`-separated. */
  rel: string;
  sessionId: string;
  parentId: string | null;
  /** The project's slug dir, absolute: its `.project_root` names the cwd. */
  slugDir: string;
  abs: string;
  stat: fs.Stats;
}

export function changeTokenOf(st: fs.Stats): string {
  return `${st.size}:${st.ino}:${st.mtimeMs}`;
}

/** The first line of a main session file, parsed: its session id and kind; null while it is not written whole. */
export function readHeader(abs: string): { sessionId: string; kind: string | null } | null {
  const { fd } = openRegular(abs);
  try {
    const buf = Buffer.alloc(HEADER_BYTES);
    const n = fs.readSync(fd, buf, 0, HEADER_BYTES, 0);
    const nl = buf.subarray(0, n).indexOf(0x0a);
    if (nl < 0) return null;
    const o = JSON.parse(buf.toString("utf8", 0, nl)) as unknown;
    if (typeof o !== "object" || o === null) return null;
    const h = o as { sessionId?: unknown; kind?: unknown };
    return typeof h.sessionId === "string" && isSessionId(h.sessionId) ? { sessionId: h.sessionId, kind: typeof h.kind === "string" ? h.kind : null } : null;
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function readDir(dir: string, warnings: SourceWarning[]): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") warnings.push({ code: "BAD_ROW", message: `cannot list: ${(err as Error).message}`, where: dir });
    return [];
  }
}

function fileStat(p: string, warnings: SourceWarning[]): fs.Stats | null {
  try {
    const st = fs.statSync(p);
    return st.isFile() ? st : null;
  } catch (err) {
    if ((err as { code?: unknown }).code !== "ENOENT") warnings.push({ code: "BAD_ROW", message: (err as Error).message, where: p });
    return null;
  }
}

/**
 * Lists session files, reading each main file's header once per inode (`headers` is the caller's
 * cache, pruned to what was listed). A header not yet whole leaves its file out until the next pass.
 */
export class SessionLister {
  private headers = new Map<string, { ino: number; sessionId: string | null }>();
  /** Headers read since the listing last counted them (its pacing). */
  private headerReads = 0;

  constructor(private readonly installDir: string) {}

  list(): SourceResult<SessionFile[]> {
    return runNow(this.listing());
  }

  listPaced(pause: () => Promise<void>): Promise<SourceResult<SessionFile[]>> {
    return runPaced(this.listing(), pause);
  }

  /** Is `abs` where a session file lives (`tmp/<slug>/chats/session-*.jsonl` or a sub-agent's `chats/<uuid>/<uuid>.jsonl`)? */
  isSessionPath(abs: string): boolean {
    const rel = path.relative(path.join(this.installDir, TMP_DIR), abs).split(path.sep);
    if (rel.some((p) => p === ".." || p === "" || p.startsWith(".")) || rel[1] !== CHATS_DIR) return false;
    return rel.length === 4 ? isSessionId(rel[2] as string) && SUB_RE.test(rel[3] as string) : rel.length === 3 && MAIN_RE.test(rel[2] as string);
  }

  /** The file at `abs` as a listing would give it (its header read if new); null when it is not a session file now. */
  fileAt(abs: string, warnings: SourceWarning[]): SessionFile | null {
    if (!this.isSessionPath(abs)) return null;
    const parts = path.relative(path.join(this.installDir, TMP_DIR), abs).split(path.sep);
    return this.fileOf(path.join(this.installDir, TMP_DIR, parts[0] as string), parts, abs, warnings);
  }

  /**
   * The session file `abs` (`parts`: its path under tmp/, already known to be a session file's).
   * The listing calls this directly: path.relative and path.join per file were most of a listing
   * with nothing new (~80 µs a file on a loaded machine, next to a stat's few).
   */
  private fileOf(slugDir: string, parts: readonly string[], abs: string, warnings: SourceWarning[]): SessionFile | null {
    const st = fileStat(abs, warnings);
    if (!st) return null;
    const rel = `${TMP_DIR}/${parts.join("/")}`;
    if (parts.length === 4) return { rel, sessionId: (SUB_RE.exec(parts[3] as string) as RegExpExecArray)[1] as string, parentId: parts[2] as string, slugDir, abs, stat: st };
    const sessionId = this.headerOf(abs, st, warnings);
    return sessionId === null ? null : { rel, sessionId, parentId: null, slugDir, abs, stat: st };
  }

  private headerOf(abs: string, st: fs.Stats, warnings: SourceWarning[]): string | null {
    const known = this.headers.get(abs);
    if (known && known.ino === st.ino && known.sessionId !== null) return known.sessionId;
    let sessionId: string | null = null;
    this.headerReads++;
    try {
      sessionId = readHeader(abs)?.sessionId ?? null;
    } catch (err) {
      // A FIFO or a device planted under a session file's name: refused by the checked open.
      warnings.push({ code: "BAD_ROW", message: (err as Error).message, where: abs });
    }
    this.headers.set(abs, { ino: st.ino, sessionId });
    return sessionId;
  }

  private *listing(): Generator<void, SourceResult<SessionFile[]>> {
    const warnings: SourceWarning[] = [];
    const out: SessionFile[] = [];
    const tmp = path.join(this.installDir, TMP_DIR);
    try {
      if (!fs.statSync(tmp).isDirectory()) return ok(out, warnings);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === "ENOENT" || code === "ENOTDIR") return ok(out, warnings);
      return fail(classifyIoError(err, tmp), warnings);
    }
    let n = 0;
    this.headerReads = 0;
    // Work since the last pause, in stats; yields when it reaches LIST_PACE.
    const due = (): boolean => {
      n += 1 + this.headerReads * HEADER_COST;
      this.headerReads = 0;
      if (n < LIST_PACE) return false;
      n = 0;
      return true;
    };
    const seen = new Set<string>();
    // Symlinked folders are not followed: a link out of the install would be read by mistake.
    for (const slug of readDir(tmp, warnings)) {
      if (!slug.isDirectory() || slug.name.startsWith(".")) continue;
      const slugDir = `${tmp}${path.sep}${slug.name}`;
      const chats = `${slugDir}${path.sep}${CHATS_DIR}`;
      for (const d of readDir(chats, warnings)) {
        const abs = `${chats}${path.sep}${d.name}`;
        if (d.isDirectory() && isSessionId(d.name)) {
          for (const s of readDir(abs, warnings)) {
            if (!SUB_RE.test(s.name) || !(s.isFile() || s.isSymbolicLink())) continue;
            const f = this.fileOf(slugDir, [slug.name, CHATS_DIR, d.name, s.name], `${abs}${path.sep}${s.name}`, warnings);
            if (f) (out.push(f), seen.add(f.abs));
            if (due()) yield;
          }
        } else if ((d.isFile() || d.isSymbolicLink()) && MAIN_RE.test(d.name)) {
          const f = this.fileOf(slugDir, [slug.name, CHATS_DIR, d.name], abs, warnings);
          if (f) (out.push(f), seen.add(f.abs));
          if (due()) yield;
        }
      }
    }
    for (const k of this.headers.keys()) if (!seen.has(k)) this.headers.delete(k);
    return ok(out, warnings);
  }
}

export function transcriptRefs(files: Iterable<SessionFile>): TranscriptRef[] {
  const refs = [...files].map((f): TranscriptRef => ({ id: f.rel, sessionKey: f.sessionId, parentKey: f.parentId, changeToken: changeTokenOf(f.stat), sizeBytes: f.stat.size }));
  refs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return refs;
}

/**
 * The cwd a project's slug dir belongs to: its `.project_root`, else the registry `projects.json`
 * (`{"projects": {"<cwd>": "<slug>"}}`); null when neither says.
 */
export function projectOf(slugDir: string): string | null {
  try {
    const root = readRegularFile(path.join(slugDir, ".project_root"), { maxBytes: 8192 }).toString("utf8").trim();
    if (path.isAbsolute(root)) return root;
  } catch {
    // absent (an older layout) or not a regular file: ask the registry
  }
  try {
    const reg = JSON.parse(readRegularFile(path.join(slugDir, "..", "..", "projects.json"), { maxBytes: 4 * 1024 * 1024 }).toString("utf8")) as unknown;
    const projects = (reg as { projects?: unknown } | null)?.projects;
    if (typeof projects !== "object" || projects === null) return null;
    const slug = path.basename(slugDir);
    for (const [cwd, s] of Object.entries(projects)) if (s === slug && path.isAbsolute(cwd)) return cwd;
  } catch {
    // no registry either
  }
  return null;
}
