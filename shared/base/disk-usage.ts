// Disk figures (a base utility: the OpenClaw state dir's size, every system's disk check): bytes
// used by a tree (a bounded walk that never follows symlinks, so a link to `/` cannot make it scan
// the machine) and free space on its filesystem.
import fs from "node:fs";
import path from "node:path";
import { classifyIoError, fail, ok, SourceError } from "../providers/result.js";
import type { SourceResult, SourceWarning } from "../providers/result.js";

interface DirectoryUsage {
  /** Sum of file sizes (apparent size, what `du --apparent-size` reports). */
  bytes: number;
  /** Space allocated on disk (st_blocks × 512); sparse files and small files differ from `bytes`. */
  allocatedBytes: number;
  files: number;
  dirs: number;
  skippedSymlinks: number;
  /** True when the walk stopped at `maxEntries`/`maxDepth`; figures are then lower bounds. */
  truncated: boolean;
}

interface UsageOptions {
  /** Stop after this many entries (files + dirs + links); default 200 000. */
  maxEntries?: number;
  /** Do not descend deeper than this; default 32. */
  maxDepth?: number;
}

/** Walks `root` without following symlinks. Unreadable subdirectories are warnings; a missing root is an error. */
export async function directoryUsage(root: string, opts: UsageOptions = {}): Promise<SourceResult<DirectoryUsage>> {
  const maxEntries = opts.maxEntries ?? 200_000;
  const maxDepth = opts.maxDepth ?? 32;
  const warnings: SourceWarning[] = [];
  const usage: DirectoryUsage = { bytes: 0, allocatedBytes: 0, files: 0, dirs: 0, skippedSymlinks: 0, truncated: false };
  try {
    const st = await fs.promises.lstat(root);
    if (!st.isDirectory()) return fail(new SourceError("corrupt", `${root}: not a directory`, { where: root }));
  } catch (err) {
    return fail(classifyIoError(err, root));
  }
  let entries = 0;
  // Iterative depth-first walk: no recursion limit issues, and the stack is bounded by maxDepth × width.
  const stack: { dir: string; depth: number }[] = [{ dir: root, depth: 0 }];
  usage.dirs = 1;
  while (stack.length > 0) {
    const { dir, depth } = stack.pop()!;
    let dirents: fs.Dirent[];
    try {
      dirents = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch (err) {
      // Vanished (the gateway pruned it) or unreadable: count what we can and go on.
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") warnings.push({ code: "BAD_ROW", message: `cannot list directory: ${(err as NodeJS.ErrnoException).code ?? "error"}`, where: dir });
      continue;
    }
    for (const d of dirents) {
      if (++entries > maxEntries) {
        usage.truncated = true;
        return ok(usage, warnings);
      }
      const p = path.join(dir, d.name);
      if (d.isSymbolicLink()) {
        usage.skippedSymlinks++;
        continue;
      }
      if (d.isDirectory()) {
        usage.dirs++;
        if (depth + 1 > maxDepth) usage.truncated = true;
        else stack.push({ dir: p, depth: depth + 1 });
        continue;
      }
      if (!d.isFile()) continue; // sockets, fifos: no data bytes
      try {
        const st = await fs.promises.lstat(p);
        usage.files++;
        usage.bytes += st.size;
        usage.allocatedBytes += st.blocks * 512;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") warnings.push({ code: "BAD_ROW", message: "cannot stat file", where: p });
      }
    }
  }
  return ok(usage, warnings);
}

export interface FilesystemSpace {
  totalBytes: number;
  /** Free for an unprivileged user (what `df` shows as Avail). */
  availableBytes: number;
  /** Free including the root-reserved blocks. */
  freeBytes: number;
  usedPercent: number;
}

/** Free space of the filesystem holding `target` (`statfs`). */
export async function filesystemSpace(target: string): Promise<SourceResult<FilesystemSpace>> {
  try {
    return ok(spaceOf(await fs.promises.statfs(target)));
  } catch (err) {
    return fail(classifyIoError(err, target));
  }
}

/**
 * The same, measured synchronously: one statfs(2), cheap enough for a health check to measure at
 * the moment it is asked instead of showing a figure minutes old.
 */
export function filesystemSpaceSync(target: string): SourceResult<FilesystemSpace> {
  try {
    return ok(spaceOf(fs.statfsSync(target)));
  } catch (err) {
    return fail(classifyIoError(err, target));
  }
}

function spaceOf(s: fs.StatsFs): FilesystemSpace {
  const totalBytes = s.blocks * s.bsize;
  const freeBytes = s.bfree * s.bsize;
  const availableBytes = s.bavail * s.bsize;
  // Like df: used / (used + available), so root-reserved space does not look free.
  const used = totalBytes - freeBytes;
  const usedPercent = used + availableBytes > 0 ? (used / (used + availableBytes)) * 100 : 0;
  return { totalBytes, availableBytes, freeBytes, usedPercent };
}
