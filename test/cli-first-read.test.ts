// The first read without a daemon (issue 23 item 1), as a user meets it: the built bin, HOME
// holding copies of the Claude Code and Codex fixtures plus enough copies of the Claude Code
// transcripts (each its own session) that reading them takes seconds. The first `usage` prints
// whole figures, whatever collectTimeoutSeconds says; a --timeout too short, or a file that
// cannot be read, is exit 4 with the reason on stderr and nothing on stdout; a pipe never sees a
// progress bar, a terminal does, and stdout stays clean JSON either way.
import { execFile } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ExportReport } from "../shared/queries/export.js";
import type { UsageReport } from "../shared/queries/usage-report.js";
import { copyClaudeHome } from "./helpers/claude-code-fixture.js";
import { fillClaudeHistory } from "./helpers/claude-code-filler.js";
import { CTL, ctl, sandbox, type Sandbox } from "./helpers/cli.js";
import { copyCodexHome } from "./helpers/codex-fixture.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { claudeResponses, codexResponses, figuresOf, sums, type ExpectedResponse } from "./helpers/usage-expectations.js";

/** Copies of the fixture's transcripts: ~175 MB, a read of seconds (1,000 ms is the smallest collectTimeoutSeconds). */
const COPIES = 150;
/** The smallest collect budget: the old in-process path printed whatever it had after it. */
const SHORT_COLLECT = { INSIGHTS_COLLECT_TIMEOUT_SECONDS: "1" };

let big: Sandbox;
let expected: ExpectedResponse[];

test.before(async () => {
  big = await sandbox();
  const home = big.env.HOME as string;
  cpSync(copyClaudeHome().home, home, { recursive: true });
  cpSync(copyCodexHome().home, home, { recursive: true });
  fillClaudeHistory(join(home, ".claude"), COPIES);
  expected = [...claudeResponses(join(home, ".claude")), ...codexResponses(join(home, ".codex"))];
});

test.after(async () => {
  await big.cleanup();
  removeTempDirs();
});

/** An empty store: the next run is a first read again. */
const forgetStore = (box: Sandbox): void => rmSync(box.stateDir, { recursive: true, force: true });

test("the first run without a daemon reads to the end: whole figures, exit 0, no progress bar on a pipe", async () => {
  const r = await ctl(big, ["usage", "--json", "-z", "UTC"], SHORT_COLLECT);
  assert.is(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as UsageReport;
  assert.is(report.scanComplete, true);
  assert.equal(figuresOf(report.totals), sums(expected));
  // stderr is a pipe here: the one line saying where it read, no bar, no partial-figures note.
  assert.equal(r.stderr.trimEnd().split("\n"), ["gateway-insights is not running; read the store in-process from claude-code, codex"]);
});

test("a --timeout the read cannot meet: exit 4, the reason on stderr, nothing on stdout; the next run goes on to whole figures", async () => {
  forgetStore(big);
  const usage = await ctl(big, ["usage", "--json", "--timeout", "0.05"]);
  assert.is(usage.code, 4, usage.stderr);
  assert.is(usage.stdout, "");
  assert.match(usage.stderr, /insightsctl: the first read of the providers' files did not finish within --timeout 0\.05 s.*no figures are printed/);
  assert.match(usage.stderr, /Run it again: what was read is kept/);

  const exported = await ctl(big, ["export", "--since", "2026-11-01", "--timeout", "0.05"]);
  assert.is(exported.code, 4, exported.stderr);
  assert.is(exported.stdout, "");
  assert.match(exported.stderr, /did not finish within --timeout 0\.05 s/);

  // A budget that is not a positive number is a usage error (exit 2), before anything is read.
  for (const bad of ["0", "-1", "soon", "1e3"]) {
    const r = await ctl(big, ["usage", "--json", `--timeout=${bad}`]);
    assert.is(r.code, 2, `${bad}: ${r.stderr}`);
    assert.match(r.stderr, /--timeout takes a number of seconds above 0/);
  }

  // Without the flag the read resumes from what was kept and ends: whole figures (export's rows too).
  const whole = await ctl(big, ["export", "--since", "2026-01-01", "--until", "2026-12-31"], SHORT_COLLECT);
  assert.is(whole.code, 0, whole.stderr);
  const rows = (JSON.parse(whole.stdout) as ExportReport).rows;
  assert.is((JSON.parse(whole.stdout) as ExportReport).scanComplete, true);
  assert.is(
    rows.reduce((n, x) => n + x.responses, 0),
    expected.length,
  );
  assert.is(
    rows.reduce((n, x) => n + x.cacheReadTokens, 0),
    sums(expected).cacheRead,
  );
});

test("on a terminal the bar goes to stderr while stdout stays plain JSON", async () => {
  if (!existsSync("/usr/bin/script")) return; // util-linux's script makes the terminal
  forgetStore(big);
  const out = join(big.dir, "usage.json");
  const typescript = join(big.dir, "typescript");
  // stdout to a file, stderr to the pseudo-terminal `script` records.
  const started = Date.now();
  const code = await new Promise<number>((resolve) => {
    execFile("script", ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(CTL)} usage --json -z UTC > ${JSON.stringify(out)}`, typescript], { env: { ...big.env, ...SHORT_COLLECT }, timeout: 120_000 }, (err) => resolve(err ? (typeof err.code === "number" ? err.code : 1) : 0));
  });
  const took = Date.now() - started;
  assert.is(code, 0, readFileSync(typescript, "utf8"));
  const report = JSON.parse(readFileSync(out, "utf8")) as UsageReport;
  assert.equal(figuresOf(report.totals), sums(expected));
  const terminal = readFileSync(typescript, "utf8");
  // The bar waits half a second before it shows: only a run that took longer must have drawn it.
  if (took > 2000) assert.match(terminal, /reading transcripts \[[#.]{24}\] +\d+%/);
  // ...and it is cleared before the note (erase-line), so the terminal ends with the note alone.
  assert.match(terminal, /gateway-insights is not running; read the store in-process from claude-code, codex/);
});

test("a transcript that cannot be read (a link to /proc/self/mem): exit 4 naming it, nothing on stdout", async () => {
  if (!existsSync("/proc/self/mem")) return; // Linux only
  const box = await sandbox();
  try {
    const home = box.env.HOME as string;
    cpSync(copyClaudeHome().home, home, { recursive: true });
    const bad = join(home, ".claude", "projects", "-home-op-code-web-ui", "0badf11e-0000-4000-8000-000000000000.jsonl");
    symlinkSync("/proc/self/mem", bad);
    const r = await ctl(box, ["usage", "--json"]);
    assert.is(r.code, 4, r.stderr);
    assert.is(r.stdout, "");
    assert.match(r.stderr, /insightsctl: the providers' files could not all be read, so no figures are printed \(they would be partial\): .*0badf11e-0000-4000-8000-000000000000\.jsonl/);
  } finally {
    await box.cleanup();
  }
});

test.run();
