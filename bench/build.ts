// The checkout whose built programs a suite measures: this one, or another one given with
// `--baseline <checkout>` (an earlier commit, built). The bench code is always this checkout's;
// only the daemon, the CLI and the shared modules a child script loads come from the build.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./paths.js";

export interface Build {
  /** "ours" for this checkout, "baseline" for --baseline's: names work dirs and the table's columns. */
  label: "ours" | "baseline";
  /** The checkout's root; its programs are under dist/. */
  root: string;
}

export const OUR_BUILD: Build = { label: "ours", root: REPO_ROOT };

export function isOurs(b: Build): boolean {
  return path.resolve(b.root) === REPO_ROOT;
}

export function daemonMain(b: Build): string {
  return path.join(b.root, "dist", "daemon", "main.js");
}

/** The `insightsctl` users run: the checkout's package.json `bin` (dist/cli/main.js before it had a CommonJS bin). */
export function cliMain(b: Build): string {
  let bin: unknown;
  try {
    bin = (JSON.parse(fs.readFileSync(path.join(b.root, "package.json"), "utf8")) as { bin?: Record<string, unknown> }).bin?.insightsctl;
  } catch {
    bin = undefined;
  }
  return path.join(b.root, typeof bin === "string" ? bin : path.join("dist", "cli", "main.js"));
}

/** --baseline's checkout, checked: it must be built (its dist/ is what is measured). */
export function baselineBuild(dir: string): Build {
  const root = path.resolve(dir);
  for (const f of [daemonMain({ label: "baseline", root }), cliMain({ label: "baseline", root }), path.join(root, "dist", "shared")]) {
    if (!fs.existsSync(f)) throw new Error(`--baseline: ${f} does not exist (run \`npm run build\` in ${root} first)`);
  }
  if (root === REPO_ROOT) throw new Error("--baseline: that is this checkout");
  return { label: "baseline", root };
}

/** The commit a checkout is at (short), or null when it is not a git checkout. */
export function commitOf(root: string): string | null {
  try {
    return execFileSync("git", ["-C", root, "rev-parse", "--short", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

/**
 * Where the files under `dir` (e.g. "shared") that moved between the build's commit and ours were
 * at the build's commit: our path -> its path, both relative to the checkout root, from git's
 * rename detection. Empty when either is not a git checkout of the same repository.
 */
export function movedSince(b: Build, dir: string): Map<string, string> {
  const moved = new Map<string, string>();
  const base = commitOf(b.root);
  if (!base) return moved;
  let out: string;
  try {
    out = execFileSync("git", ["-C", REPO_ROOT, "diff", "--find-renames", "--name-status", "-z", base, "HEAD", "--", dir], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 << 20 });
  } catch {
    return moved;
  }
  const fields = out.split("\0");
  for (let i = 0; i < fields.length; ) {
    const status = fields[i] ?? "";
    if (status.startsWith("R") || status.startsWith("C")) {
      moved.set(fields[i + 2] as string, fields[i + 1] as string);
      i += 3;
    } else i += status ? 2 : 1;
  }
  return moved;
}
