// Where an install's transcripts are (format doc §1): `projects/<slug>/<sessionId>.jsonl` per
// session, and `projects/<slug>/<sessionId>/subagents/agent-<agentId>.jsonl` per sub-agent, which is
// its own session `<sessionId>:subagent:<agentId>` with the parent as parentKey (design §9).
import * as fs from "node:fs";
import * as path from "node:path";
import type { TranscriptRef } from "../contract.js";
import { ok } from "../result.js";
import type { SourceResult, SourceWarning } from "../result.js";

/** A name the reader accepts as a path segment: no separators, not `.`/`..`, not hidden. */
export function plainName(name: string): boolean {
  return name !== "" && !name.startsWith(".") && !name.includes("/") && !name.includes("\\") && !name.includes("\0");
}

interface TranscriptPath {
  sessionKey: string;
  parentKey: string | null;
  subagent: boolean;
}

const MAIN_RE = /^projects\/([^/]+)\/([^/]+)\.jsonl$/;
const SUB_RE = /^projects\/([^/]+)\/([^/]+)\/subagents\/agent-([^/]+)\.jsonl$/;

/**
 * What a transcript id (the path relative to the install dir, `/`-separated) stands for, or null
 * when it is not one this reader lists: the reader opens only ids of this shape, so an id from a
 * corrupt store cannot point outside the install.
 */
export function parseTranscriptId(id: string): TranscriptPath | null {
  const sub = SUB_RE.exec(id);
  if (sub) {
    const [, slug = "", sessionId = "", agentId = ""] = sub;
    if (!plainName(slug) || !plainName(sessionId) || !plainName(agentId)) return null;
    return { sessionKey: `${sessionId}:subagent:${agentId}`, parentKey: sessionId, subagent: true };
  }
  const main = MAIN_RE.exec(id);
  if (main) {
    const [, slug = "", sessionId = ""] = main;
    if (!plainName(slug) || !plainName(sessionId)) return null;
    return { sessionKey: sessionId, parentKey: null, subagent: false };
  }
  return null;
}

/** The change token of a transcript file: equal token, nothing new to read. */
export function changeTokenOf(st: fs.Stats): string {
  return `${st.size}:${st.ino}:${st.mtimeMs}`;
}

/** `io`: the file-system calls to make (TranscriptIndex passes its own, which tests count). */
export function readDir(dir: string, warnings: SourceWarning[], io: Pick<typeof fs, "readdirSync"> = fs): fs.Dirent[] {
  try {
    return io.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    // Gone between two listings (a session deleted) is normal; anything else is worth a word.
    const code = (err as { code?: unknown }).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") warnings.push({ code: "BAD_ROW", message: `cannot list: ${(err as Error).message}`, where: dir });
    return [];
  }
}

/** stat() for an entry that is, or links to, the wanted kind; null otherwise or when it vanished. */
export function statAs(p: string, d: fs.Dirent, kind: "file" | "dir", warnings: SourceWarning[], io: Pick<typeof fs, "statSync"> = fs): fs.Stats | null {
  if (kind === "file" ? !d.isFile() && !d.isSymbolicLink() : !d.isDirectory() && !d.isSymbolicLink()) return null;
  try {
    const st = io.statSync(p);
    return (kind === "file" ? st.isFile() : st.isDirectory()) ? st : null;
  } catch (err) {
    if ((err as { code?: unknown }).code !== "ENOENT") warnings.push({ code: "BAD_ROW", message: (err as Error).message, where: p });
    return null;
  }
}

/**
 * The transcripts at these absolute paths (files a watch event named), each exactly as the listing
 * would give it now. A live-process record (`sessions/<pid>.json`) gives none: every refresh reads
 * those anyway. A file that is gone gives none (the next full listing drops it). null when a path is
 * neither (outside the install, not a transcript's shape): the caller lists everything.
 */
export function transcriptFilesAt(installDir: string, paths: readonly string[]): SourceResult<TranscriptRef[]> | null {
  const root = path.resolve(installDir);
  const out = new Map<string, TranscriptRef>();
  const warnings: SourceWarning[] = [];
  for (const p of paths) {
    const rel = path.relative(root, path.resolve(p));
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return null;
    const id = rel.split(path.sep).join("/");
    if (/^sessions\/[^/]+\.json$/.test(id)) continue;
    const parsed = parseTranscriptId(id);
    if (!parsed) return null;
    const parts = id.split("/");
    // The listing enters a session's own folder only when it is a folder, not a link to one.
    if (parsed.subagent) {
      const sessionDir = path.join(root, ...parts.slice(0, 3));
      try {
        if (!fs.lstatSync(sessionDir).isDirectory()) continue;
      } catch {
        continue; // gone
      }
    }
    const file = path.join(root, ...parts);
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(file, { throwIfNoEntry: false });
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") warnings.push({ code: "BAD_ROW", message: (err as Error).message, where: file });
      continue;
    }
    if (st?.isFile()) out.set(id, { id, sessionKey: parsed.sessionKey, parentKey: parsed.parentKey, changeToken: changeTokenOf(st), sizeBytes: st.size });
  }
  return ok([...out.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)), warnings);
}
