// `npm run bench`: runs the benchmark suites in order and prints one table of figures, with
// ratios measured side by side in the same run (never against numbers from another run).
//
//   npm run bench -- [--only scan] [--quick] [suite flags...]     (--help lists them)
//
// A new suite is one file under bench/ exporting a `Suite` (bench/suite.ts); add it to SUITES.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { describeMachine, machineInfo } from "./machine.js";
import { graphqlSuite } from "./graphql.js";
import { idleSuite } from "./idle.js";
import { memorySuite } from "./memory-suite.js";
import { providersSuite } from "./providers.js";
import { scanSuite } from "./scan.js";
import { snapshotSuite } from "./snapshot.js";
import { statuslineSuite } from "./statusline.js";
import type { BenchOptions, Measurements, Suite } from "./suite.js";
import { BENCH_TMP } from "./paths.js";
import { renderTable, type SuiteRows } from "./table.js";

const SUITES: readonly Suite[] = [scanSuite, graphqlSuite, snapshotSuite, memorySuite, providersSuite, idleSuite, statuslineSuite];

type Options = NonNullable<ParseArgsConfig["options"]>;

function flagConfig(): Options {
  const options: Options = {
    only: { type: "string" },
    quick: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  };
  for (const s of SUITES) for (const [name, f] of Object.entries(s.flags ?? {})) options[name] = { type: f.type };
  return options;
}

function usage(): string {
  const lines = [
    "usage: npm run bench -- [--only <suite>] [--quick] [flags]",
    `${"  --only <suite>".padEnd(22)}run one suite: ${SUITES.map((s) => s.name).join(", ")}`,
    `${"  --quick".padEnd(22)}small dataset, few repetitions (smoke run)`,
  ];
  for (const s of SUITES) {
    for (const [name, f] of Object.entries(s.flags ?? {})) lines.push(`  --${name}${f.type === "string" ? " <value>" : ""}`.padEnd(22) + `${f.description} (${s.name})`);
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
  const options: BenchOptions = { quick: values.quick === true, flags, log };
  const before = machineInfo();
  const results: SuiteRows[] = [];
  const context: string[] = [];
  let failed = 0;
  for (const suite of suites) {
    log(`== ${suite.name}: ${suite.title}`);
    let m: Measurements;
    try {
      m = await suite.setup(options);
    } catch (err) {
      failed++;
      log(`${suite.name} setup failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      continue;
    }
    try {
      context.push(...m.context.map((c) => `${suite.name}: ${c}`));
      results.push({ suite: suite.name, rows: await m.run() });
    } catch (err) {
      failed++;
      log(`${suite.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    } finally {
      await m.teardown?.();
    }
  }
  const after = machineInfo();
  const out = [
    `gateway-insights benchmark, ${before.date}${options.quick ? " (--quick)" : ""}`,
    `machine: ${describeMachine(before)} (at the end: ${after.loadAverage.join(" / ")})`,
    ...context,
    "",
    renderTable(results),
    "",
  ].join("\n");
  process.stdout.write(out);
  fs.mkdirSync(BENCH_TMP, { recursive: true });
  const file = path.join(BENCH_TMP, "last-run.json");
  fs.writeFileSync(file, JSON.stringify({ machine: before, loadAverageAfter: after.loadAverage, quick: options.quick, context, results }, null, 2));
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
