// What the CLI providers' discover.ts files share: a folder's real path, and a configured folder
// (config's `<provider>Dirs`) checked the same way for each.
import * as fs from "node:fs";
import * as path from "node:path";

/** A configured dir that cannot be read, said at start. */
export interface DiscoverProblem {
  dir: string;
  message: string;
}

/** The real path of `p` when it is a directory (symlinks followed); null otherwise. */
export function realDir(p: string): string | null {
  try {
    const real = fs.realpathSync(p);
    return fs.statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

export function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** One configured dir: the path as given (trimmed) and its real path, or null with the reason added to `problems` (not absolute, not a directory). */
export function configuredDir(raw: string, problems: DiscoverProblem[]): { dir: string; real: string } | null {
  const dir = raw.trim();
  if (dir === "" || !path.isAbsolute(dir)) {
    problems.push({ dir: raw, message: `${JSON.stringify(raw)} is not an absolute path` });
    return null;
  }
  const real = realDir(dir);
  if (real === null) {
    problems.push({ dir: raw, message: `${dir} is not a directory (missing, or not readable)` });
    return null;
  }
  return { dir, real };
}
