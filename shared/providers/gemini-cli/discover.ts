// Which Gemini CLI installs to read (gemini-cli-format.md §3): `$GEMINI_CLI_HOME/.gemini` when
// that variable is set (Gemini CLI puts everything under it in place of `~`), else `~/.gemini`,
// plus every dir the config names (`geminiCliDirs`, each a `.gemini` dir). Each install is one AGENT
// source `gemini-cli:<name>`: `default` for the default dir, else a name from the path. Runs every
// few seconds: a few stat calls, no reading.
import { createHash } from "node:crypto";
import * as path from "node:path";
import type { Install } from "../contract.js";
import { lookAt, type LookedAt } from "../looked-at.js";
import { type DiscoverProblem, configuredDir, isDir, realDir } from "../install-dirs.js";
import { geminiCliIdentity } from "./identity.js";

export interface DiscoverGeminiOptions {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** Config: more `.gemini` dirs to read besides the default one (absolute paths). */
  dirs?: readonly string[] | null;
}


export const DEFAULT_NAME = "default";
const PROVIDER = geminiCliIdentity.name;

/** Gemini CLI has run here once it wrote a project's temp dir (`tmp/<slug>/`): settings alone are no data. */
export function looksLikeGeminiDir(dir: string): boolean {
  return isDir(path.join(dir, "tmp"));
}

/** `$GEMINI_CLI_HOME/.gemini` (an absolute GEMINI_CLI_HOME only: a relative one is Gemini CLI's cwd, unknown here), else `~/.gemini`. */
function defaultDir(env: DiscoverGeminiOptions["env"], home: string): { dir: string | null; from: string; named: false } {
  const fromEnv = env.GEMINI_CLI_HOME?.trim();
  // Not "named": GEMINI_CLI_HOME stands for the home dir, and its `.gemini` appears at the first run.
  if (fromEnv) return { dir: path.isAbsolute(fromEnv) ? path.join(path.resolve(fromEnv), ".gemini") : null, from: "env GEMINI_CLI_HOME", named: false };
  return { dir: path.join(home, ".gemini"), from: "default", named: false };
}

/** A configured dir's name: its path's last two parts (`/srv/ci/.gemini` -> `ci-gemini`) and, when two collide, a hash of the real path. */
function nameOf(dir: string): string {
  const parts = dir.split(/[\\/]+/).map((s) => s.toLowerCase().replace(/^\.+/, "").replace(/[^a-z0-9_]+/g, "-").replace(/^-+|-+$/g, "")).filter((s) => s !== "");
  const name = parts.slice(-2).join("-") || "dir";
  return name === DEFAULT_NAME ? `${name}-dir` : name;
}

/** The installs to read, and the configured dirs that cannot be read. */
export function discoverGeminiInstalls(opts: DiscoverGeminiOptions): { installs: Install[]; problems: DiscoverProblem[] } {
  const problems: DiscoverProblem[] = [];
  const found: Array<{ dir: string; real: string; name: string }> = [];
  const seen = new Set<string>();
  const def = defaultDir(opts.env, opts.home);
  const realDef = def.dir === null ? null : realDir(def.dir);
  // Read once Gemini CLI ran somewhere (its tmp/ dir): settings alone are no data.
  if (def.dir !== null && realDef !== null && looksLikeGeminiDir(realDef)) {
    seen.add(realDef);
    found.push({ dir: def.dir, real: realDef, name: DEFAULT_NAME });
  }
  for (const raw of opts.dirs ?? []) {
    const checked = configuredDir(raw, problems);
    if (checked === null) continue;
    const { dir, real } = checked;
    if (seen.has(real)) continue;
    seen.add(real);
    found.push({ dir: path.resolve(dir), real, name: nameOf(dir) });
  }
  // Names must not depend on the listing's order: every colliding derived name gets its path's hash.
  const counts = new Map<string, number>();
  for (const f of found) counts.set(f.name, (counts.get(f.name) ?? 0) + 1);
  const installs = found.map((f): Install => {
    const name = f.name !== DEFAULT_NAME && (counts.get(f.name) ?? 0) > 1 ? `${f.name}-${createHash("sha256").update(f.real).digest("hex").slice(0, 6)}` : f.name;
    return { provider: PROVIDER, id: `${geminiCliIdentity.sourcePrefix}${name}`, localId: name, name, tags: [PROVIDER, name], dir: f.dir };
  });
  return { installs, problems };
}

/** Every dir discovery looks at, and what is there (status, /health). */
export function geminiLookedAt(opts: DiscoverGeminiOptions): LookedAt[] {
  const def = defaultDir(opts.env, opts.home);
  const at = (dir: string, from: string, named: boolean): LookedAt => ({ provider: PROVIDER, dir, from, named, found: lookAt(dir, looksLikeGeminiDir) });
  const out = [at(def.dir ?? opts.env.GEMINI_CLI_HOME?.trim() ?? "", def.from, def.named)];
  for (const d of opts.dirs ?? []) out.push(at(d.trim(), `config ${geminiCliIdentity.config.dirs}`, true));
  return out;
}
