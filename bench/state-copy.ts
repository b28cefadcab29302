// A working copy of the cached synthetic state dir, for suites that run a real daemon on it:
// SQLite adds -wal/-shm files beside a database even when it only reads, and the graphql suite
// appends to transcripts, so the cache itself is never handed out.
import * as fs from "node:fs";
import * as path from "node:path";
import { removeStaleDirs } from "./proc.js";
import { paramsOf } from "./scan.js";
import type { BenchOptions } from "./suite.js";
import { BENCH_TMP, REPO_ROOT } from "./paths.js";
import { describeManifest, ensureSyntheticState, type SyntheticState } from "./synthetic-state.js";

export interface StateCopy {
  state: SyntheticState;
  /** The copy's state dir (what --openclaw-dir points at). */
  stateDir: string;
  /** The work dir holding it: .tmp/bench/work-<suite>-<pid>/. */
  work: string;
  /** Context lines describing the dataset. */
  context: string[];
  remove(): void;
}

export function copySyntheticState(o: BenchOptions, suite: string): StateCopy {
  const state = ensureSyntheticState(paramsOf(o), { rebuild: o.flags.rebuild === true, log: o.log });
  const m = state.manifest;
  // A 1 GB copy left by a runner that was killed: drop it.
  removeStaleDirs(BENCH_TMP, `work-${suite}-`);
  const work = path.join(BENCH_TMP, `work-${suite}-${process.pid}`);
  fs.rmSync(work, { recursive: true, force: true });
  const stateDir = path.join(work, "state");
  o.log(`copying the state dir to ${path.relative(REPO_ROOT, work)}`);
  fs.cpSync(state.dir, stateDir, { recursive: true });
  const ageH = (Date.now() - m.now) / 3_600_000;
  return {
    state,
    stateDir,
    work,
    context: [
      `dataset: ${describeManifest(m)}`,
      // The daemon runs on the wall clock: the older the dataset, the less of it falls in "the last 24 h".
      `dataset ${state.cached ? "from cache" : "built now"}, its "now" ${ageH < 1 ? `${Math.round(ageH * 60)} min` : `${ageH.toFixed(1)} h`} before this run (the daemon runs on the wall clock)`,
    ],
    remove: () => fs.rmSync(work, { recursive: true, force: true }),
  };
}
