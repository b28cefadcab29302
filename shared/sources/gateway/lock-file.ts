// The gateway's lock file: `$STATE/tmp/openclaw-<uid>/gateway.<hash8>.lock`, written at start and removed on
// a clean shutdown (openclaw-formats.md §6, §10). Content is pretty JSON followed by a newline and a line of
// tab/space padding, so it is parsed, never compared byte for byte:
//   {"pid":5283,"ownerId":"…","createdAt":"2026-11-21T22:47:27.795Z","configPath":"…","stateDir":"…",
//    "port":18789,"startTime":26382}
// `startTime` is the process start time in clock ticks since boot (field 22 of /proc/<pid>/stat), so
// together with the pid it tells a live gateway from a recycled pid (see proc-stats.ts).
// No lock file means no gateway running (or one that crashed after removing it).
import fs from "node:fs";
import path from "node:path";
import { classifyIoError, fail, ok } from "../result.js";
import type { SourceResult, SourceWarning } from "../result.js";

export interface GatewayLock {
  file: string;
  pid: number;
  port: number | null;
  /** ISO time the lock was written (about the gateway's start). */
  createdAt: string | null;
  createdAtMs: number | null;
  /** Process start in clock ticks since boot, as /proc/<pid>/stat field 22. */
  startTime: number | null;
  ownerId: string | null;
  configPath: string | null;
  stateDir: string | null;
  /** The lock file's modification time. */
  mtimeMs: number;
}

export interface FindLockOptions {
  /** Whose tmp dir to look in first; default this process's uid. */
  uid?: number;
}

// `gateway.<hash>.lock`; the gateway also keeps `gateway.state.lock` and `*.lock.sqlite` coordinators there.
const LOCK_NAME = /^gateway\.([A-Za-z0-9_-]+)\.lock$/;

/** Parses lock content; null when it is not a lock object with a pid. */
export function parseLockContent(content: string): Omit<GatewayLock, "file" | "mtimeMs"> | null {
  // Padding is whitespace, which JSON.parse accepts; NULs from a preallocated file are not, so drop them.
  const body = content.replace(/\0+/g, "").trim();
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    // Anything after the object (other than whitespace) would break JSON.parse: cut at the last brace.
    const end = body.lastIndexOf("}");
    if (end < 0) return null;
    try {
      v = JSON.parse(body.slice(0, end + 1));
    } catch {
      return null;
    }
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const int = (x: unknown) => (typeof x === "number" && Number.isInteger(x) && x > 0 ? x : null);
  const str = (x: unknown) => (typeof x === "string" && x !== "" ? x : null);
  const pid = int(o.pid);
  if (pid === null) return null;
  const createdAt = str(o.createdAt);
  const createdAtMs = createdAt ? Date.parse(createdAt) : NaN;
  return {
    pid,
    port: int(o.port),
    createdAt,
    createdAtMs: Number.isNaN(createdAtMs) ? null : createdAtMs,
    startTime: typeof o.startTime === "number" && Number.isFinite(o.startTime) ? o.startTime : null,
    ownerId: str(o.ownerId),
    configPath: str(o.configPath),
    stateDir: str(o.stateDir),
  };
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw err;
  }
}

/**
 * Finds and parses the gateway lock under `$STATE/tmp`: first `openclaw-<uid>/`, then any other `openclaw-*`
 * dir (a gateway run by another user or in a container with another uid). With several valid locks the most
 * recently created wins. ok(null) = no lock (gateway not running); an unparsable lock is a warning.
 */
export function findGatewayLock(stateDir: string, opts: FindLockOptions = {}): SourceResult<GatewayLock | null> {
  const warnings: SourceWarning[] = [];
  const tmp = path.join(stateDir, "tmp");
  try {
    const uid = opts.uid ?? (typeof process.getuid === "function" ? process.getuid() : 0);
    const own = `openclaw-${uid}`;
    const others = listDir(tmp)
      .filter((n) => n.startsWith("openclaw-") && n !== own)
      .sort();
    const found: GatewayLock[] = [];
    for (const dirName of [own, ...others]) {
      const dir = path.join(tmp, dirName);
      for (const name of listDir(dir).sort()) {
        const m = LOCK_NAME.exec(name);
        if (!m || m[1] === "state") continue;
        const file = path.join(dir, name);
        let content: string;
        let mtimeMs: number;
        try {
          const st = fs.statSync(file);
          if (!st.isFile()) continue;
          mtimeMs = st.mtimeMs;
          content = fs.readFileSync(file, "utf8");
        } catch (err) {
          // Removed between listing and reading: the gateway just stopped.
          if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
          throw err;
        }
        const parsed = parseLockContent(content);
        if (!parsed) {
          warnings.push({ code: "UNKNOWN_FORMAT", message: "gateway lock file is not JSON with a pid", where: file });
          continue;
        }
        found.push({ file, mtimeMs, ...parsed });
      }
      // The caller's own dir is authoritative when it has a lock.
      if (dirName === own && found.length > 0) break;
    }
    if (found.length === 0) return ok(null, warnings);
    found.sort((a, b) => (b.createdAtMs ?? b.mtimeMs) - (a.createdAtMs ?? a.mtimeMs));
    return ok(found[0]!, warnings);
  } catch (err) {
    return fail(classifyIoError(err, tmp), warnings);
  }
}
