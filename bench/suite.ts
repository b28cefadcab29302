// The shape every benchmark suite has, so `bench/run.ts` can run them in order and print one
// table. A suite is one file under bench/ exporting a `Suite`; add it to the list in run.ts.
//
// Figures are compared only within one run (shared, noisy machines): a suite that wants a ratio
// measures both sides itself, back to back, and returns the ratio as a row.

import type { Build } from "./build.js";

export interface BenchOptions {
  /** Small dataset, few repetitions: a smoke run that finishes in about a minute. */
  quick: boolean;
  /** Raw command-line flags after the runner's own, for suite-specific options (`--era files`). */
  flags: Readonly<Record<string, string | boolean | undefined>>;
  /** Whose built daemon, CLI and shared modules are measured: this checkout's, or --baseline's (bench/build.ts). */
  build: Build;
  /** Progress lines (stderr), so stdout stays the table. */
  log(message: string): void;
}

/** What a row is judged against. Rows without an aim are informative. */
export interface Aim {
  /** "<=": lower is better (latency, memory, slowdown); ">=": higher is better (throughput). */
  op: "<=" | ">=";
  limit: number;
}

export interface Row {
  /** What was measured, e.g. "first scan, real path". */
  metric: string;
  value: number;
  unit: string;
  aim?: Aim;
  /** How it was measured or what else to know: "median of 20, p95 31 ms". */
  note?: string;
}

/** Returned by `setup`: the measurements, with the state setup made (datasets, servers) in a closure. */
export interface Measurements {
  /** Context lines printed above the table (dataset, tools used). */
  context: string[];
  run(): Promise<Row[]>;
  /** Frees what setup made (temp dirs, child processes); runs even when `run` fails. */
  teardown?(): Promise<void>;
}

/** A command-line flag a suite understands; the runner parses them all and passes them on. */
export interface SuiteFlag {
  type: "string" | "boolean";
  description: string;
}

export interface Suite {
  /** Short id for `--only`. */
  name: string;
  /** One line for the table header. */
  title: string;
  /** Its own flags (`--era files`); names must not clash with other suites' or the runner's. */
  flags?: Readonly<Record<string, SuiteFlag>>;
  /** Prepares what the measurements need; not timed. */
  setup(options: BenchOptions): Promise<Measurements>;
}

export function verdict(row: Row): "ok" | "over" | "" {
  if (!row.aim || !Number.isFinite(row.value)) return "";
  const good = row.aim.op === "<=" ? row.value <= row.aim.limit : row.value >= row.aim.limit;
  return good ? "ok" : "over";
}
