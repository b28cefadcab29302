// Where the benchmarks live and write: everything generated goes under .tmp/bench (git-ignored).
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const BENCH_TMP = path.join(REPO_ROOT, ".tmp", "bench");
