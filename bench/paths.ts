// Where the benchmarks live and write: everything generated goes under .tmp/bench (git-ignored).
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const BENCH_TMP = path.join(REPO_ROOT, ".tmp", "bench");

/** A new folder for one run's CPU profiles: .tmp/bench/profiles/<time>/. */
export function newProfileDir(): string {
  const dir = path.join(BENCH_TMP, "profiles", new Date().toISOString().replace(/[:.]/g, "-"));
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
