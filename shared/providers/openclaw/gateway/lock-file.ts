// The gateway's lock file: `$STATE/tmp/openclaw-<uid>/gateway.<hash8>.lock`, written at start and removed on
// a clean shutdown (openclaw-formats.md §6, §10). Content is pretty JSON followed by a newline and a line of
// tab/space padding, so it is parsed, never compared byte for byte:
//   {"pid":5283,"ownerId":"…","createdAt":"2026-11-21T22:47:27.795Z","configPath":"…","stateDir":"…",
//    "port":18789,"startTime":26382}
// `startTime` is the process start time in clock ticks since boot (field 22 of /proc/<pid>/stat), so
// together with the pid it tells a live gateway from a recycled pid (see proc-stats.ts).
// No lock file means no gateway running (or one that crashed after removing it).
//
// Where it lives depends on the gateway's version (seen on real 2026.9.6 and 2026.7.1 gateways, and
// docs/gateway/gateway-lock.md: "Binaries from before this change use the process temp directory"):
// - 2026.9.6: `$STATE/tmp/openclaw-<uid>/gateway.<hash8>.lock`, pretty JSON with ownerId and stateDir;
// - 2026.7.1 and older: `<os tmp>/openclaw-<uid>/gateway.<hash8>.lock`, one compact JSON line
//   `{"pid","createdAt","configPath","port","startTime"}` and no stateDir. That dir is shared by every
//   gateway of the user, so a lock there is only ours when it names our config.
// In both, <hash8> is the first 8 hex digits of sha256(config path). 2026.9.6 also writes
// `gateway.state.lock` (same content) beside it; in multi-gateway mode (OPENCLAW_ALLOW_MULTI_GATEWAY=1)
// that state-ownership lock is the only one, so it is the fallback.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SourceError, classifyIoError, fail, ok } from "../../result.js";
import type { SourceResult, SourceWarning } from "../../result.js";
import { readRegularFile } from "../../../base/safe-open.js";

/** A lock file holds a few hundred bytes of JSON; anything far larger is not one. */
const MAX_LOCK_BYTES = 64 * 1024;

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
  /** `state`: under `$STATE/tmp` (2026.9.6); `os-tmp`: the OS temp dir of older gateways. */
  location: "state" | "os-tmp";
  /**
   * `config`: the per-config lock `gateway.<hash8>.lock`; `state-owner`: `gateway.state.lock`, the
   * state-dir ownership lock 2026.9.6 also writes, the only one with OPENCLAW_ALLOW_MULTI_GATEWAY=1.
   */
  kind: "config" | "state-owner";
}

export interface FindLockOptions {
  /** Whose tmp dir to look in first; default this process's uid. */
  uid?: number;
  /** The gateway's config path (OPENCLAW_CONFIG_PATH when it sets one); default `<stateDir>/openclaw.json`. */
  configPath?: string;
  /** Temp dirs where older gateways keep `openclaw-<uid>/`; default the OS temp dir and /tmp. */
  osTmpDirs?: readonly string[];
}

/** `gateway.<hash8>.lock`: the gateway names its lock after the config path. */
export function lockFileName(configPath: string): string {
  return `gateway.${crypto.createHash("sha256").update(configPath).digest("hex").slice(0, 8)}.lock`;
}

// `gateway.<hash>.lock`; the gateway also keeps `gateway.state.lock` and `*.lock.sqlite` coordinators there.
const LOCK_NAME = /^gateway\.([A-Za-z0-9_-]+)\.lock$/;

/** Parses lock content; null when it is not a lock object with a pid. */
export function parseLockContent(content: string): Omit<GatewayLock, "file" | "mtimeMs" | "location" | "kind"> | null {
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

type ReadLock = { lock: Omit<GatewayLock, "location" | "kind"> } | { unparsable: true } | null;

/** Reads one lock file; null when it is gone (the gateway just stopped) or not a regular file. */
function readLockFile(file: string): ReadLock {
  let content: string;
  let mtimeMs: number;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return null;
    mtimeMs = st.mtimeMs;
    content = readRegularFile(file, { maxBytes: MAX_LOCK_BYTES }).toString("utf8");
  } catch (err) {
    // Removed between listing and reading: the gateway just stopped.
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    // Swapped for a FIFO (or anything else) since the stat: not a lock.
    if (err instanceof SourceError) return null;
    throw err;
  }
  const parsed = parseLockContent(content);
  return parsed ? { lock: { file, mtimeMs, ...parsed } } : { unparsable: true };
}

/**
 * The lock of an older gateway in the OS temp dir, only if it belongs to this state dir: named after
 * our config path, or naming our config path or state dir inside. Other users' gateways are not ours.
 */
function findOsTmpLock(stateDir: string, uid: number, opts: FindLockOptions, warnings: SourceWarning[]): GatewayLock | null {
  const configPath = path.resolve(opts.configPath ?? path.join(stateDir, "openclaw.json"));
  const dirs = [...new Set((opts.osTmpDirs ?? [os.tmpdir(), "/tmp"]).map((d) => path.join(path.resolve(d), `openclaw-${uid}`)))];
  const wanted = lockFileName(configPath);
  const resolvedState = path.resolve(stateDir);
  for (const dir of dirs) {
    let names: string[];
    try {
      names = listDir(dir);
    } catch {
      // The OS temp dir is only a fallback; one we may not list is not an error of the state dir.
      continue;
    }
    // The exact name first; then any lock that names our config or state dir (a config reached
    // through another path spelling hashes differently).
    const ordered = [...names.filter((n) => n === wanted), ...names.filter((n) => n !== wanted && LOCK_NAME.test(n) && n !== "gateway.state.lock").sort()];
    for (const name of ordered) {
      const file = path.join(dir, name);
      let read: ReadLock;
      try {
        read = readLockFile(file);
      } catch {
        continue; // another user's lock we may not read is not ours anyway
      }
      if (!read) continue;
      if ("unparsable" in read) {
        if (name === wanted) warnings.push({ code: "UNKNOWN_FORMAT", message: "gateway lock file is not JSON with a pid", where: file });
        continue;
      }
      const l = read.lock;
      const mine =
        name === wanted ||
        (l.configPath !== null && path.resolve(l.configPath) === configPath) ||
        (l.stateDir !== null && path.resolve(l.stateDir) === resolvedState);
      if (mine) return { ...l, location: "os-tmp", kind: "config" };
    }
  }
  return null;
}

/**
 * Finds and parses the gateway lock: under `$STATE/tmp` first `openclaw-<uid>/`, then any other
 * `openclaw-*` dir (a gateway run by another user or in a container with another uid), with several
 * valid locks the most recently created winning; when there is none, the OS temp dir where gateways
 * up to 2026.7.x keep theirs. ok(null) = no lock (gateway not running); an unparsable lock is a warning.
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
    const stateOwner: GatewayLock[] = [];
    const badStateOwner: string[] = [];
    for (const dirName of [own, ...others]) {
      const dir = path.join(tmp, dirName);
      for (const name of listDir(dir).sort()) {
        const m = LOCK_NAME.exec(name);
        if (!m) continue;
        const kind = m[1] === "state" ? "state-owner" : "config";
        const file = path.join(dir, name);
        const read = readLockFile(file);
        if (!read) continue;
        if ("unparsable" in read) {
          // A damaged state-owner lock only matters when it is the fallback (warned below).
          if (kind === "config") warnings.push({ code: "UNKNOWN_FORMAT", message: "gateway lock file is not JSON with a pid", where: file });
          else badStateOwner.push(file);
          continue;
        }
        (kind === "config" ? found : stateOwner).push({ ...read.lock, location: "state", kind });
      }
      // The caller's own dir is authoritative when it has a lock.
      if (dirName === own && (found.length > 0 || stateOwner.length > 0)) break;
    }
    const newest = (list: GatewayLock[]): GatewayLock => list.sort((a, b) => (b.createdAtMs ?? b.mtimeMs) - (a.createdAtMs ?? a.mtimeMs))[0]!;
    if (found.length > 0) return ok(newest(found), warnings);
    if (stateOwner.length > 0) return ok(newest(stateOwner), warnings);
    for (const file of badStateOwner) warnings.push({ code: "UNKNOWN_FORMAT", message: "gateway lock file is not JSON with a pid", where: file });
    return ok(findOsTmpLock(stateDir, uid, opts, warnings), warnings);
  } catch (err) {
    return fail(classifyIoError(err, tmp), warnings);
  }
}
