// Which Claude Code installs to read (design §9): the dirs in `$CLAUDE_CONFIG_DIR` (a comma-separated
// list), else `~/.claude` and `~/.config/claude` (both when both exist); a config override replaces
// all of that. Each install is one AGENT source `claude-code:<name>`. Runs every few seconds: a few
// stat calls, no reading.
import { createHash } from "node:crypto";
import * as path from "node:path";
import type { Install } from "../contract.js";
import { lookAt, type LookedAt } from "../looked-at.js";
import { type DiscoverProblem, isDir, realDir } from "../install-dirs.js";

interface DiscoverClaudeCodeOptions {
  /** The environment (CLAUDE_CONFIG_DIR). */
  env: Readonly<Record<string, string | undefined>>;
  /** The user's home dir. */
  home: string;
  /** Config override: exactly these dirs (an empty list: none); env and the defaults are not looked at. null/absent: not configured. */
  dirs?: readonly string[] | null;
}

/** A configured dir that cannot be an install; the caller turns it into a config error. */

interface ClaudeCodeDiscovery {
  installs: Install[];
  problems: DiscoverProblem[];
}

/** The name of the default dir (`~/.claude`), and of `~/.config/claude`. */
export const DEFAULT_NAME = "default";
const CONFIG_CLAUDE_NAME = "config-claude";

interface Candidate {
  dir: string;
  real: string;
  /** Fixed name (the two home dirs), else null: derived from the path. */
  fixed: string | null;
}

/** A dir is an install once Claude Code has written sessions into it. */
function looksLikeInstall(real: string): boolean {
  return isDir(path.join(real, "projects")) || isDir(path.join(real, "sessions"));
}

/** One path segment as a name part: lower case, no leading dots, runs of other characters as `-`. */
function namePart(segment: string): string {
  return segment
    .toLowerCase()
    .replace(/^\.+/, "")
    .replace(/[^a-z0-9_]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The last `depth` non-empty name parts of `dir`, joined with `-` ("" when there are none). */
function suffixName(dir: string, depth: number): string {
  const parts = dir.split(/[\\/]+/).map(namePart).filter((s) => s !== "");
  return parts.slice(-depth).join("-");
}

/**
 * Names that depend only on the paths, never on their order: each derived name is the shortest
 * path suffix (`work`, then `home-work`, ...) that no other candidate shares at that depth and that
 * is not a fixed name; a path that stays ambiguous gets a hash of its real path appended.
 */
function assignNames(cands: Candidate[]): string[] {
  const fixed = new Set(cands.map((c) => c.fixed).filter((n): n is string => n !== null));
  const derived = cands.filter((c) => c.fixed === null);
  return cands.map((c) => {
    if (c.fixed !== null) return c.fixed;
    const maxDepth = Math.max(1, c.dir.split(/[\\/]+/).filter((s) => s !== "").length);
    for (let depth = 1; depth <= maxDepth; depth++) {
      const name = suffixName(c.dir, depth) || "dir";
      if (fixed.has(name)) continue;
      if (derived.every((o) => o === c || (suffixName(o.dir, depth) || "dir") !== name)) return name;
    }
    const base = suffixName(c.dir, maxDepth) || "dir";
    return `${base}-${createHash("sha256").update(c.real).digest("hex").slice(0, 6)}`;
  });
}

/** The installs to read, and the configured dirs that cannot be read. */
export function discoverClaudeCodeInstalls(opts: DiscoverClaudeCodeOptions): ClaudeCodeDiscovery {
  const problems: DiscoverProblem[] = [];
  const homeClaude = path.join(opts.home, ".claude");
  const configClaude = path.join(opts.home, ".config", "claude");
  const realHomeClaude = realDir(homeClaude);
  const realConfigClaude = realDir(configClaude);
  const fixedName = (real: string): string | null => (real === realHomeClaude ? DEFAULT_NAME : real === realConfigClaude ? CONFIG_CLAUDE_NAME : null);

  const cands: Candidate[] = [];
  const seen = new Set<string>();
  /** config: configured (a missing one is a problem); named: in $CLAUDE_CONFIG_DIR; found: a default dir. */
  const consider = (dir: string, how: "config" | "named" | "found"): void => {
    const real = realDir(dir);
    if (real === null) {
      if (how === "config") problems.push({ dir, message: `${dir} is not a directory (missing, or not readable)` });
      return;
    }
    // Configured and named dirs are read even before Claude Code wrote anything there; found ones only once it has.
    if (seen.has(real) || (how === "found" && !looksLikeInstall(real))) return;
    seen.add(real);
    cands.push({ dir, real, fixed: fixedName(real) });
  };

  if (opts.dirs) {
    for (const raw of opts.dirs) {
      const dir = raw.trim();
      if (!path.isAbsolute(dir)) problems.push({ dir: raw, message: `${JSON.stringify(raw)} is not an absolute path` });
      else consider(path.resolve(dir), "config");
    }
  } else if (opts.env.CLAUDE_CONFIG_DIR !== undefined && opts.env.CLAUDE_CONFIG_DIR.trim() !== "") {
    // Claude Code resolves a relative entry against its own cwd, which is unknown here: skipped
    // (the start refuses one: claudeCodeLookedAt). A named dir is read before Claude Code wrote
    // there, as a configured one is: the user said this is where its data goes.
    for (const dir of envEntries(opts.env)) if (path.isAbsolute(dir)) consider(path.resolve(dir), "named");
  } else {
    consider(homeClaude, "found");
    consider(configClaude, "found");
  }

  const names = assignNames(cands);
  const installs = cands.map((c, i): Install => {
    const name = names[i] as string;
    return { provider: "claude-code", id: `claude-code:${name}`, localId: name, name, tags: ["claude-code", name], dir: c.dir };
  });
  return { installs, problems };
}

/** The non-empty entries of $CLAUDE_CONFIG_DIR (a comma-separated list). */
function envEntries(env: DiscoverClaudeCodeOptions["env"]): string[] {
  return (env.CLAUDE_CONFIG_DIR ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
}

/**
 * Every dir discovery looks at, in its order, and what is there: the configured dirs, else the
 * entries of $CLAUDE_CONFIG_DIR, else ~/.claude and ~/.config/claude. A few stat calls.
 */
export function claudeCodeLookedAt(opts: DiscoverClaudeCodeOptions): LookedAt[] {
  const at = (dir: string, from: string, named: boolean): LookedAt => ({ provider: "claude-code", dir, from, named, found: lookAt(dir, looksLikeInstall) });
  if (opts.dirs) return opts.dirs.map((d) => at(d.trim(), "config claudeCodeDirs", true));
  const entries = envEntries(opts.env);
  if (entries.length > 0) return entries.map((d) => at(d, "env CLAUDE_CONFIG_DIR", true));
  return [at(path.join(opts.home, ".claude"), "default", false), at(path.join(opts.home, ".config", "claude"), "default", false)];
}
