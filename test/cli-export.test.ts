// `insightsctl export` as a user runs it (the built bin, HOME holding copies of the Claude Code and
// Codex fixtures): one row per (host, date, provider, source, model, project) with figures as the
// fixture lines sum up; the same rows in CSV; the same answer in-process and through the daemon;
// strict flags; and docs/fleet.md's merge recipe (sqlite3) run on two hosts' exports, twice, with
// no double counting.
import { execFile } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { EXPORT_COLUMNS, type ExportReport, type ExportRow } from "../shared/queries/export.js";
import { copyClaudeHome } from "./helpers/claude-code-fixture.js";
import { copyCodexHome } from "./helpers/codex-fixture.js";
import { makeTempDir, removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { ctl, ROOT, sandbox, type Sandbox } from "./helpers/cli.js";
import { claudeResponses, codexResponses, dayIn, groupBy, sums, type ExpectedResponse } from "./helpers/usage-expectations.js";

let box: Sandbox;
let expected: ExpectedResponse[];

test.before(async () => {
  box = await sandbox({ INSIGHTS_HOST_NAME: "alpha" });
  const home = box.env.HOME as string;
  cpSync(copyClaudeHome().home, home, { recursive: true });
  cpSync(copyCodexHome().home, home, { recursive: true });
  expected = [...claudeResponses(join(home, ".claude")), ...codexResponses(join(home, ".codex"))];
});

test.after(async () => {
  await box.cleanup();
  removeTempDirs();
});

const EXPORT = ["export", "--since", "2026-11-01", "--until", "2026-11-30"];
const provider = (source: string): string => source.slice(0, source.indexOf(":"));

/** A CSV text as records (RFC 4180 quoting), header included. */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      out.push(row);
      (row = []), (field = ""), i++;
    } else field += c;
  }
  assert.is(field + row.join(""), "", "the CSV ends with CRLF");
  return out;
}

let inProcess: ExportReport;
let csv: string;

test("no daemon: one row per day, source, model and project, with the fixture lines' figures", async () => {
  const r = await ctl(box, [...EXPORT, "--json"]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stderr, /gateway-insights is not running; read the store in-process/);
  inProcess = JSON.parse(r.stdout) as ExportReport;
  assert.equal([inProcess.schemaVersion, inProcess.host, inProcess.timeZone, inProcess.since, inProcess.until, inProcess.scanComplete], [1, "alpha", "UTC", "2026-11-01", "2026-11-30", true]);
  assert.equal(inProcess.key, ["host", "date", "provider", "source", "model", "project"]);
  const want = groupBy(expected, (x) => JSON.stringify([dayIn(x.ts, "UTC"), x.sourceId, x.model, x.project || "(no project)"]));
  assert.is(inProcess.rows.length, want.size, "one row per key");
  const keys = new Set<string>();
  for (const row of inProcess.rows) {
    const key = JSON.stringify([row.host, row.date, row.provider, row.source, row.model, row.project]);
    assert.not.ok(keys.has(key), `key ${key} is unique`);
    keys.add(key);
    const rs = want.get(JSON.stringify([row.date, row.source, row.model, row.project]));
    assert.ok(rs, `expected responses for ${key}`);
    const s = sums(rs);
    assert.equal(
      [row.provider, row.timeZone, row.inputTokens, row.outputTokens, row.cacheReadTokens, row.cacheWriteTokens, row.reasoningTokens, row.totalTokens, row.responses],
      [provider(row.source), "UTC", s.input, s.output, s.cacheRead, s.cacheWrite, s.reasoning, s.total, s.responses],
      key,
    );
  }
  // The cost is the usage report's, to the nano-dollar.
  const usage = JSON.parse((await ctl(box, ["usage", "--json", "-z", "UTC"])).stdout) as { totals: { costUsd: number } };
  const cost = inProcess.rows.reduce((n, r) => n + r.costUsd, 0);
  assert.ok(Math.abs(cost - usage.totals.costUsd) < 1e-6, `${cost} vs ${usage.totals.costUsd}`);
  // Days outside the range give no rows.
  const none = JSON.parse((await ctl(box, ["export", "--since", "2026-12-01"])).stdout) as ExportReport;
  assert.equal(none.rows, []);
});

test("--csv: a header of the documented columns, then the same rows", async () => {
  const r = await ctl(box, [...EXPORT, "--csv"]);
  assert.is(r.code, 0, r.stderr);
  csv = r.stdout;
  const [header, ...records] = parseCsv(csv);
  assert.equal(header, [...EXPORT_COLUMNS]);
  assert.is(records.length, inProcess.rows.length);
  records.forEach((rec, i) => {
    const row = inProcess.rows[i] as ExportRow;
    assert.equal(rec, EXPORT_COLUMNS.map((c) => String(row[c])), `row ${i}`);
  });
});

test("through the daemon: the same rows", async () => {
  const started = await ctl(box, ["start"]);
  assert.is(started.code, 0, started.stderr);
  try {
    const r = await ctl(box, [...EXPORT]);
    assert.is(r.code, 0, r.stderr);
    assert.not.match(r.stderr, /not running/);
    const viaDaemon = JSON.parse(r.stdout) as ExportReport;
    assert.equal(viaDaemon.rows, inProcess.rows);
    assert.is(viaDaemon.host, "alpha");
  } finally {
    await ctl(box, ["stop"]);
  }
});

test("strict flags: --since is required, days and zones are checked, --json and --csv exclude each other (exit 2)", async () => {
  for (const [args, message] of [
    [["export"], /--since is required/],
    [["export", "--since", "2026-02-30"], /invalid --since "2026-02-30"/],
    [["export", "--since", "2026-11-02", "--until", "2026-11-01"], /--since 2026-11-02 is after --until 2026-11-01/],
    [["export", "--since", "2026-11-01", "-z", "Mars/Olympus"], /invalid --timezone/],
    [["export", "--since", "2026-11-01", "--provider", "gemini"], /invalid --provider/],
    [["export", "--since", "2026-11-01", "--json", "--csv"], /--json and --csv exclude each other/],
    [["export", "--since", "2026-11-01", "--cvs"], /unknown flag --cvs.*did you mean --csv/],
  ] as Array<[string[], RegExp]>) {
    const r = await ctl(box, args);
    assert.is(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.is(r.stdout, "");
  }
});

function sqlite(cwd: string, script: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const p = execFile("sqlite3", ["fleet.db"], { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === "ENOENT") return resolve({ code: -1, out: "" });
      resolve({ code: err ? 1 : 0, out: stdout + stderr });
    });
    p.stdin?.end(script);
  });
}

test("docs/fleet.md's merge recipe: two hosts' exports merged, and merged again, count every row once", async () => {
  const doc = readFileSync(join(ROOT, "docs", "fleet.md"), "utf8");
  const recipe = /<!-- merge-recipe -->\n```sh\nsqlite3 fleet\.db <<'SQL'\n([\s\S]*?)\nSQL\n```/.exec(doc)?.[1];
  assert.ok(recipe, "docs/fleet.md has the merge recipe");
  const dir = makeTempDir("gi-merge-");
  // beta: the same data under another host name.
  writeFileSync(join(dir, "alpha.csv"), csv);
  const beta = await ctl(box, [...EXPORT, "--csv"], { INSIGHTS_HOST_NAME: "beta" });
  writeFileSync(join(dir, "beta.csv"), beta.stdout);
  const first = await sqlite(dir, recipe);
  if (first.code === -1) {
    if (process.env.CI) throw new Error("sqlite3 is missing in CI: .ci/run installs it");
    console.log("cli-export.test: merge recipe skipped, sqlite3 is not installed");
    return;
  }
  assert.is(first.code, 0, first.out);
  const query = "SELECT host, count(*), sum(totalTokens), sum(responses), round(sum(costUsd), 6) FROM usage_daily GROUP BY host ORDER BY host;";
  const once = await sqlite(dir, query);
  // Merged again (a re-export of the same days): nothing is counted twice.
  assert.is((await sqlite(dir, recipe)).code, 0);
  const twice = await sqlite(dir, query);
  assert.is(twice.out, once.out);
  const total = sums(expected);
  const cost = Math.round(inProcess.rows.reduce((n, r) => n + r.costUsd, 0) * 1e6) / 1e6;
  assert.is(once.out.trim(), [`alpha|${inProcess.rows.length}|${total.total}|${total.responses}|${cost}`, `beta|${inProcess.rows.length}|${total.total}|${total.responses}|${cost}`].join("\n"));
});

test.run();
