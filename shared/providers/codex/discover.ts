// Which Codex installs to read (design §9): `$CODEX_HOME`, else `~/.codex`, plus any dirs the
// config names. Each install is one AGENT source `codex:<name>`: `default` for the default dir,
// else a short name from the path (`/srv/ci/codex-home` -> `codex-home`), made longer from the
// parent folders when two would collide. Runs every few seconds: a few stat calls, no reading.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Install } from "../contract.js";
import { lookAt, type LookedAt } from "../looked-at.js";
import { type DiscoverProblem, configuredDir, realDir } from "../install-dirs.js";

interface DiscoverCodexOptions {
  /** The environment (CODEX_HOME). */
  env: Readonly<Record<string, string | undefined>>;
  /** The user's home dir. */
  home: string;
  /** Config: more dirs to read besides the default one (absolute paths). */
  dirs?: readonly string[] | null;
}

/** A configured dir that cannot be an install; the caller turns it into a config error. */

interface CodexDiscovery {
  installs: Install[];
  problems: DiscoverProblem[];
}

export const DEFAULT_NAME = "default";

interface Candidate {
  dir: string;
  real: string;
  isDefault: boolean;
}

function exists(p: string, kind: "dir" | "file"): boolean {
  try {
    const st = fs.statSync(p);
    return kind === "dir" ? st.isDirectory() : st.isFile();
  } catch {
    return false;
  }
}

/** A dir is an install once Codex has written sessions (or its thread index) into it. */
function looksLikeCodexHome(dir: string): boolean {
  return exists(path.join(dir, "sessions"), "dir") || exists(path.join(dir, "archived_sessions"), "dir") || exists(path.join(dir, "state_5.sqlite"), "file");
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
 * path suffix (`codex`, then `work-codex`, ...) that no other candidate shares at that depth and
 * that is not `default`; a path that stays ambiguous gets a hash of its real path appended.
 */
function assignNames(cands: Candidate[]): string[] {
  const derived = cands.filter((c) => !c.isDefault);
  return cands.map((c) => {
    if (c.isDefault) return DEFAULT_NAME;
    const maxDepth = Math.max(1, c.dir.split(/[\\/]+/).filter((s) => s !== "").length);
    for (let depth = 1; depth <= maxDepth; depth++) {
      const name = suffixName(c.dir, depth) || "dir";
      if (name === DEFAULT_NAME) continue;
      if (derived.every((o) => o === c || (suffixName(o.dir, depth) || "dir") !== name)) return name;
    }
    const base = suffixName(c.dir, maxDepth) || "dir";
    return `${base}-${createHash("sha256").update(c.real).digest("hex").slice(0, 6)}`;
  });
}

/** The default dir: `$CODEX_HOME` when set (Codex itself requires it to exist), else `~/.codex`. */
function defaultCodexHome(env: DiscoverCodexOptions["env"], home: string): string | null {
  const fromEnv = env.CODEX_HOME?.trim();
  // Codex resolves a relative CODEX_HOME against its own cwd, which is unknown here: not guessed.
  if (fromEnv) return path.isAbsolute(fromEnv) ? path.resolve(fromEnv) : null;
  return path.join(home, ".codex");
}

/** The installs to read, and the configured dirs that cannot be read. */
export function discoverCodexInstalls(opts: DiscoverCodexOptions): CodexDiscovery {
  const problems: DiscoverProblem[] = [];
  const cands: Candidate[] = [];
  const seen = new Set<string>();

  const def = defaultCodexHome(opts.env, opts.home);
  const realDef = def === null ? null : realDir(def);
  // ~/.codex is read only once Codex has written something there; a $CODEX_HOME that exists is
  // read at once, as a configured dir is: the user said this is where Codex's data goes.
  const named = opts.env.CODEX_HOME?.trim() ? true : false;
  if (def !== null && realDef !== null && (named || looksLikeCodexHome(realDef))) {
    seen.add(realDef);
    cands.push({ dir: def, real: realDef, isDefault: true });
  }
  for (const raw of opts.dirs ?? []) {
    const checked = configuredDir(raw, problems);
    if (checked === null) continue;
    const { dir, real } = checked;
    // A configured dir is read even before Codex wrote anything there; the same dir twice is one install.
    if (seen.has(real)) continue;
    seen.add(real);
    cands.push({ dir: path.resolve(dir), real, isDefault: real === realDef });
  }

  const names = assignNames(cands);
  const installs = cands.map((c, i): Install => {
    const name = names[i] as string;
    return { provider: "codex", id: `codex:${name}`, localId: name, name, tags: ["codex", name], dir: c.dir };
  });
  return { installs, problems };
}

/**
 * Every dir discovery looks at, and what is there: $CODEX_HOME (else ~/.codex), then the
 * configured dirs. A few stat calls.
 */
export function codexLookedAt(opts: DiscoverCodexOptions): LookedAt[] {
  const at = (dir: string, from: string, named: boolean): LookedAt => ({ provider: "codex", dir, from, named, found: lookAt(dir, looksLikeCodexHome) });
  const fromEnv = opts.env.CODEX_HOME?.trim();
  const out = [fromEnv ? at(fromEnv, "env CODEX_HOME", true) : at(path.join(opts.home, ".codex"), "default", false)];
  for (const d of opts.dirs ?? []) out.push(at(d.trim(), "config codexDirs", true));
  return out;
}
