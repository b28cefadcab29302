// `npm run bench`: runs the benchmark suites in order and prints one table of figures, with
// ratios measured side by side in the same run (never against numbers from another run).
//
//   npm run bench -- [--only scan] [--quick] [suite flags...]     (--help lists them)
//   npm run bench -- --baseline <checkout> [--baseline-rounds 2] ...  (each suite on that build and ours)
//
// A new suite is one file under bench/ exporting a `Suite` (bench/suite.ts); add it to SUITES.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { baselineBuild, commitOf, OUR_BUILD, type Build } from "./build.js";
import { describeMachine, machineInfo } from "./machine.js";
import { graphqlSuite } from "./graphql.js";
import { idleSuite } from "./idle.js";
import { memorySuite } from "./memory-suite.js";
import { providersSuite } from "./providers.js";
import { scanSuite } from "./scan.js";
import { snapshotSuite } from "./snapshot.js";
import { statuslineSuite } from "./statusline.js";
import type { BenchOptions, Measurements, Row, Suite } from "./suite.js";
import { BENCH_TMP, REPO_ROOT } from "./paths.js";
import { renderSideBySide, type SideRuns } from "./side-by-side.js";
import { renderTable, type SuiteRows } from "./table.js";

const SUITES: readonly Suite[] = [scanSuite, graphqlSuite, snapshotSuite, memorySuite, providersSuite, idleSuite, statuslineSuite];

type Options = NonNullable<ParseArgsConfig["options"]>;

function flagConfig(): Options {
  const options: Options = {
    only: { type: "string" },
    quick: { type: "boolean", default: false },
    baseline: { type: "string" },
    "baseline-rounds": { type: "string" },
    help: { type: "boolean", default: false },
  };
  for (const s of SUITES) for (const [name, f] of Object.entries(s.flags ?? {})) options[name] = { type: f.type };
  return options;
}

function usage(): string {
  const lines = [
    "usage: npm run bench -- [--only <suite>] [--quick] [flags]",
    `${"  --only <suite>".padEnd(26)}run one suite: ${SUITES.map((s) => s.name).join(", ")}`,
    `${"  --quick".padEnd(26)}small dataset, few repetitions (smoke run)`,
    `${"  --baseline <dir>".padEnd(26)}a built checkout of another commit: each suite runs on its build and on ours, alternating, one table side by side`,
    `${"  --baseline-rounds <n>".padEnd(26)}rounds of that pair, the order alternating each round (default 2: baseline, ours, ours, baseline)`,
  ];
  for (const s of SUITES) {
    for (const [name, f] of Object.entries(s.flags ?? {})) lines.push(`  --${name}${f.type === "string" ? " <value>" : ""}`.padEnd(26) + `${f.description} (${s.name})`);
  }
  return lines.join("\n");
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: flagConfig(), allowPositionals: false });
  if (values.help) {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  const only = typeof values.only === "string" ? values.only : null;
  const suites = only ? SUITES.filter((s) => s.name === only) : SUITES;
  if (suites.length === 0) throw new Error(`no suite named ${JSON.stringify(only)}; there are: ${SUITES.map((s) => s.name).join(", ")}`);
  const log = (m: string): void => void process.stderr.write(`${m}\n`);
  const flags: Record<string, string | boolean | undefined> = {};
  for (const [k, v] of Object.entries(values)) if (!Array.isArray(v)) flags[k] = v;
  const options: BenchOptions = { quick: values.quick === true, flags, build: OUR_BUILD, log };
  const baseline = typeof values.baseline === "string" ? baselineBuild(values.baseline) : null;
  const roundsFlag = values["baseline-rounds"];
  const rounds = typeof roundsFlag === "string" ? Number(roundsFlag) : 2;
  if (!Number.isInteger(rounds) || rounds < 1) throw new RangeError("--baseline-rounds must be a positive integer");
  const before = machineInfo();
  const results: SuiteRows[] = [];
  const sides: SideRuns[] = [];
  /** Context lines in order; with --baseline, the builds that printed each (a line both printed is shown once). */
  const context = new Map<string, Set<string>>();
  let failed = 0;
  /** One run of a suite on one build: its rows, or null when it failed (logged). */
  const runOnce = async (suite: Suite, build: Build): Promise<Row[] | null> => {
    const tag = baseline ? ` (${build.label})` : "";
    let m: Measurements;
    try {
      m = await suite.setup({ ...options, build });
    } catch (err) {
      failed++;
      log(`${suite.name}${tag} setup failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return null;
    }
    try {
      for (const c of m.context) {
        const line = `${suite.name}: ${c}`;
        context.set(line, (context.get(line) ?? new Set()).add(build.label));
      }
      return await m.run();
    } catch (err) {
      failed++;
      log(`${suite.name}${tag} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return null;
    } finally {
      await m.teardown?.();
    }
  };
  for (const suite of suites) {
    log(`== ${suite.name}: ${suite.title}`);
    if (!baseline) {
      const rows = await runOnce(suite, OUR_BUILD);
      if (rows) results.push({ suite: suite.name, rows });
      continue;
    }
    // Alternating order, so a drift in the machine's load weighs on both sides alike. The
    // datasets are cached by their parameters: built once, read by both sides.
    const side: SideRuns = { suite: suite.name, baseline: [], ours: [] };
    for (let r = 0; r < rounds; r++) {
      for (const build of r % 2 === 0 ? [baseline, OUR_BUILD] : [OUR_BUILD, baseline]) {
        log(`-- ${suite.name}, round ${r + 1} of ${rounds}: ${build.label}`);
        const rows = await runOnce(suite, build);
        if (rows) side[build.label].push(rows);
      }
    }
    sides.push(side);
  }
  const after = machineInfo();
  const builds = baseline
    ? [`baseline: ${path.relative(REPO_ROOT, baseline.root) || baseline.root} at ${commitOf(baseline.root) ?? "?"}; ours: this checkout at ${commitOf(REPO_ROOT) ?? "?"}; ${rounds} round(s) each, alternating; figures are the median over the rounds`]
    : [];
  const contextLines = [...context].map(([line, labels]) => (baseline && labels.size === 1 ? line.replace(": ", ` (${[...labels].join("")} only): `) : line));
  const out = [
    `gateway-insights benchmark, ${before.date}${options.quick ? " (--quick)" : ""}`,
    `machine: ${describeMachine(before)} (at the end: ${after.loadAverage.join(" / ")})`,
    ...builds,
    ...contextLines,
    "",
    baseline ? renderSideBySide(sides) : renderTable(results),
    "",
  ].join("\n");
  process.stdout.write(out);
  fs.mkdirSync(BENCH_TMP, { recursive: true });
  const file = path.join(BENCH_TMP, "last-run.json");
  const record = baseline ? { baseline: baseline.root, rounds, sides } : { results };
  fs.writeFileSync(file, JSON.stringify({ machine: before, loadAverageAfter: after.loadAverage, quick: options.quick, context: contextLines, ...record }, null, 2));
  log(`(also written to ${path.relative(process.cwd(), file)})`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
