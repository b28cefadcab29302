// Where the gateway's JSON-lines file log lives on a given day, and which rotated archives sit beside it.
//
// Facts (openclaw-formats.md §4, OpenClaw docs/logging.md):
// - Default: `<tmp>/openclaw/openclaw-YYYY-MM-DD.log`, host-local date; a named profile gives
//   `openclaw-<profile>-YYYY-MM-DD.log`. When `/tmp/openclaw` is unusable the gateway falls back to
//   `<os tmp>/openclaw-<uid>/`, so both directories are candidates.
// - `logging.file` overrides the path. When its file name still has the dated rolling shape
//   (`openclaw[-profile]-YYYY-MM-DD.log`) the gateway keeps rolling it daily in that directory (the date
//   in the configured name is replaced by today's); any other name is one fixed file that never changes
//   with the date.
// - Rotation (every file, default or configured): when the next write would exceed
//   `logging.maxFileBytes`, `x.log` becomes `x.1.log`, `x.1.log` becomes `x.2.log`, … up to `x.5.log`
//   (the oldest is dropped). Higher numbers hold older content. A configured `/var/log/gw.log` rotates to
//   `/var/log/gw.1.log` … `/var/log/gw.5.log` by the same rule (the number goes before the extension).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** How many numbered archives the gateway keeps beside the active file. */
export const MAX_ROTATED_LOGS = 5;

const ROLLING_NAME = /^(openclaw(?:-[a-z0-9-]+)?)-(\d{4}-\d{2}-\d{2})\.log$/;

/** `YYYY-MM-DD` of an instant in the host's local time zone (or `timeZone` when given, for tests). */
export function localDate(ms: number, timeZone?: string): string {
  if (timeZone) {
    // en-CA formats dates as YYYY-MM-DD.
    return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(ms));
  }
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** `x.log` -> `x.<n>.log`; a name without an extension gets `.<n>` appended. */
export function rotatedLogPath(activePath: string, n: number): string {
  const ext = path.extname(activePath);
  return `${activePath.slice(0, activePath.length - ext.length)}.${n}${ext}`;
}

/** The active file and its archives, newest content last: `.5`, `.4`, …, `.1`, active. Only paths, no I/O. */
export function logFamilyPaths(activePath: string): string[] {
  const out: string[] = [];
  for (let n = MAX_ROTATED_LOGS; n >= 1; n--) out.push(rotatedLogPath(activePath, n));
  out.push(activePath);
  return out;
}

export interface LogLocationOptions {
  /** The resolved `logging.file` (absolute, `~` already expanded), or null when unset. */
  configuredFile?: string | null;
  /** Named profile (`--profile <name>`); only simple lowercase names `[a-z0-9-]` are supported. */
  profile?: string | null;
  /** Root of the temp dirs; `/tmp` in production, a temp dir in tests. */
  tmpRoot?: string;
  /** OS temp dir for the `openclaw-<uid>` fallback; defaults to `tmpRoot` when that is given, else os.tmpdir(). */
  osTmpDir?: string;
  uid?: number;
  /** Time zone for the date in the file name; host-local when omitted. */
  timeZone?: string;
}

export interface LogLocation {
  /** The active file for the date (it may not exist yet). */
  path: string;
  /** True when the file name carries the date and changes at local midnight. */
  dated: boolean;
  /** Where the path came from. */
  origin: "config" | "default";
  /** Whether `path` exists right now. */
  exists: boolean;
}

function defaultNames(profile: string | null | undefined, date: string): string {
  const p = profile && profile.toLowerCase() !== "default" ? `-${profile}` : "";
  return `openclaw${p}-${date}.log`;
}

/** Candidate directories for the default (unconfigured) log, in the gateway's order of preference. */
export function defaultLogDirs(opts: Pick<LogLocationOptions, "tmpRoot" | "osTmpDir" | "uid"> = {}): string[] {
  const tmpRoot = opts.tmpRoot ?? "/tmp";
  const osTmp = opts.osTmpDir ?? (opts.tmpRoot !== undefined ? opts.tmpRoot : os.tmpdir());
  const uid = opts.uid ?? (typeof process.getuid === "function" ? process.getuid() : 0);
  const dirs = [path.join(tmpRoot, "openclaw"), path.join(osTmp, `openclaw-${uid}`)];
  return [...new Set(dirs)];
}

/**
 * The gateway's active log file for the day containing `dateMs`.
 * With `logging.file` set: that file (re-dated when it has the rolling name shape). Without it: the first
 * candidate directory holding that day's file, else the primary default path (not created yet).
 */
export function resolveLogFile(dateMs: number, opts: LogLocationOptions = {}): LogLocation {
  const date = localDate(dateMs, opts.timeZone);
  const configured = opts.configuredFile ?? null;
  if (configured) {
    const m = ROLLING_NAME.exec(path.basename(configured));
    const p = m ? path.join(path.dirname(configured), `${m[1]}-${date}.log`) : configured;
    return { path: p, dated: Boolean(m), origin: "config", exists: fs.existsSync(p) };
  }
  const name = defaultNames(opts.profile, date);
  const candidates = defaultLogDirs(opts).map((d) => path.join(d, name));
  const found = candidates.find((p) => fs.existsSync(p));
  return { path: found ?? candidates[0]!, dated: true, origin: "default", exists: Boolean(found) };
}

/** A function suitable for the follower: today's active path at a given instant. */
export function logPathResolver(opts: LogLocationOptions = {}): (nowMs: number) => string {
  return (nowMs) => resolveLogFile(nowMs, opts).path;
}

export interface LogFileInfo {
  path: string;
  /** 0 for the active file, 1…5 for archives. */
  rotation: number;
  size: number;
  mtimeMs: number;
}

/** Existing files of one family (archives and active), oldest content first. */
export function existingLogFamily(activePath: string): LogFileInfo[] {
  const out: LogFileInfo[] = [];
  const paths = logFamilyPaths(activePath);
  paths.forEach((p, i) => {
    try {
      const st = fs.statSync(p);
      if (st.isFile()) out.push({ path: p, rotation: MAX_ROTATED_LOGS - i, size: st.size, mtimeMs: st.mtimeMs });
    } catch {
      // Not there: the family simply has fewer archives.
    }
  });
  return out;
}

const DATED_MEMBER = /^(openclaw(?:-[a-z0-9-]+)?)-(\d{4}-\d{2}-\d{2})(?:\.\d+)?\.log$/;

/**
 * The dated families of `activePath`'s kind present in its directory (a family is present when its
 * active file or any numbered archive is), as active paths (which may not exist), oldest date first,
 * up to and including `activePath`'s own date; later dates (a clock set back) are left out. A name
 * without a date is its own only family. Used to read, on a first start, every day the gateway still keeps.
 */
export function listLogFamilies(activePath: string): string[] {
  const m = ROLLING_NAME.exec(path.basename(activePath));
  if (!m) return [activePath];
  const dir = path.dirname(activePath);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [activePath];
  }
  const dates = new Set<string>([m[2]!]);
  for (const name of names) {
    const n = DATED_MEMBER.exec(name);
    if (n && n[1] === m[1] && n[2]! <= m[2]!) dates.add(n[2]!);
  }
  return [...dates].sort().map((d) => path.join(dir, `${m[1]}-${d}.log`));
}

/**
 * Dated active log files of the same family in a directory (e.g. every `openclaw-YYYY-MM-DD.log`), sorted
 * by date, oldest first. Used for a first full scan of history; the gateway prunes files older than 24 h,
 * so there are usually one or two.
 */
export function listDatedLogFiles(activePath: string): { date: string; path: string }[] {
  const m = ROLLING_NAME.exec(path.basename(activePath));
  if (!m) return fs.existsSync(activePath) ? [{ date: "", path: activePath }] : [];
  const dir = path.dirname(activePath);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: { date: string; path: string }[] = [];
  for (const name of names) {
    const n = ROLLING_NAME.exec(name);
    if (n && n[1] === m[1]) out.push({ date: n[2]!, path: path.join(dir, name) });
  }
  return out.sort((a, b) => a.date.localeCompare(b.date));
}
