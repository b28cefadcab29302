// `insightsctl usage` as a user runs it (the built bin, HOME holding copies of the Claude Code and
// Codex fixtures): in-process when no daemon runs (and it says so), through the daemon's control
// socket when one does, with the same JSON both ways; figures as the fixture lines sum up; a table
// that fits 80 columns; strict flags (exit 2); the machine's zone by default; a closed stdout.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { copyClaudeHome } from "./helpers/claude-code-fixture.js";
import { copyCodexHome } from "./helpers/codex-fixture.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import type { UsageReport } from "../shared/queries/usage-report.js";
import { ControlClient } from "../cli/control-client.js";
import { ControlServer } from "../daemon/control/server.js";
import { LogHub } from "../shared/base/log/logger.js";
import { InsightsError } from "../shared/base/errors.js";
import { resolvePaths } from "../shared/base/paths.js";
import { ensurePrivateDir } from "../shared/base/private-files.js";
import { CTL, ctl, exitOf, sandbox, type Sandbox } from "./helpers/cli.js";
import { claudeResponses, codexResponses, dayIn, figuresOf, groupBy, sums, type ExpectedResponse } from "./helpers/usage-expectations.js";

let box: Sandbox;
let expected: ExpectedResponse[];

test.before(async () => {
  box = await sandbox();
  const home = box.env.HOME as string;
  cpSync(copyClaudeHome().home, home, { recursive: true });
  cpSync(copyCodexHome().home, home, { recursive: true });
  expected = [...claudeResponses(join(home, ".claude")), ...codexResponses(join(home, ".codex"))];
});

test.after(async () => {
  await box.cleanup();
  removeTempDirs();
});

/** The command lines compared between the in-process and the daemon's answers. */
const JSON_RUNS: string[][] = [
  ["usage", "--json", "-z", "UTC"],
  ["usage", "daily", "--json", "--breakdown", "--timezone", "Asia/Tokyo", "--since", "20261124"],
  ["usage", "monthly", "--json", "-b", "-z", "UTC"],
  ["usage", "session", "--json", "--breakdown", "-z", "UTC"],
  ["usage", "session", "--json", "--provider", "PROVIDER_C", "-z", "UTC"],
  ["usage", "project", "--json", "--breakdown", "-z", "America/New_York", "-u", "2026-11-23"],
  ["usage", "weekly", "--json", "-z", "UTC", "--week-start", "sunday"],
  ["usage", "blocks", "--json", "-z", "UTC"],
];
const inProcess = new Map<string, string>();

test("no daemon: reads the store in-process and says so; the figures are the fixture lines' sums", async () => {
  for (const args of JSON_RUNS) {
    const r = await ctl(box, args);
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stderr, /gateway-insights is not running; read the store in-process from claude-code, codex/);
    inProcess.set(args.join(" "), r.stdout);
  }
  const daily = JSON.parse(inProcess.get(JSON_RUNS[0]?.join(" ") as string) as string) as UsageReport;
  assert.equal([daily.schemaVersion, daily.report, daily.timeZone, daily.demo, daily.scanComplete], [1, "daily", "UTC", false, true]);
  const byDay = groupBy(expected, (x) => dayIn(x.ts, "UTC"));
  assert.equal(
    daily.rows.map((x) => x.key),
    [...byDay.keys()],
  );
  for (const row of daily.rows) assert.equal(figuresOf(row), sums(byDay.get(row.key) ?? []), row.key);
  assert.equal(figuresOf(daily.totals), sums(expected));
  assert.ok(daily.totals.costUsd > 0);
  assert.equal(daily.totals.providers, ["claude-code", "codex"]);

  const codex = JSON.parse(inProcess.get(JSON_RUNS[4]?.join(" ") as string) as string) as UsageReport;
  const codexSessions = groupBy(
    expected.filter((x) => x.sourceId.startsWith("codex:")),
    (x) => x.session,
  );
  assert.equal(new Set(codex.rows.map((x) => x.key)), new Set(codexSessions.keys()));
  for (const row of codex.rows) assert.equal(figuresOf(row), sums(codexSessions.get(row.key) ?? []), row.key);

  // weekly from Sunday (--week-start): each week as its days sum up, split per provider.
  const weekly = JSON.parse(inProcess.get(JSON_RUNS[6]?.join(" ") as string) as string) as UsageReport;
  const sundayOf = (day: string): string => {
    let t = Date.parse(`${day}T00:00:00Z`);
    while (new Date(t).getUTCDay() !== 0) t -= 86_400_000;
    return new Date(t).toISOString().slice(0, 10);
  };
  const byWeek = groupBy(expected, (x) => sundayOf(dayIn(x.ts, "UTC")));
  assert.equal([weekly.report, weekly.weekStart, weekly.rows.map((x) => x.key)], ["weekly", "sunday", [...byWeek.keys()].sort()]);
  for (const row of weekly.rows) {
    assert.equal(figuresOf(row), sums(byWeek.get(row.key) ?? []), row.key);
    for (const p of row.byProvider ?? []) assert.equal(figuresOf(p), sums((byWeek.get(row.key) ?? []).filter((x) => x.sourceId.startsWith(`${p.provider}:`))), `${row.key} ${p.provider}`);
  }
  // blocks: Claude Code's, every response of it in some block.
  const blocks = JSON.parse(inProcess.get(JSON_RUNS[7]?.join(" ") as string) as string) as UsageReport;
  assert.is(blocks.provider, "claude-code");
  assert.equal(figuresOf(blocks.totals), sums(expected.filter((x) => x.sourceId.startsWith("claude-code:"))));
  assert.ok(blocks.rows.every((x) => x.block && Date.parse(x.block.end) - Date.parse(x.block.start) === 5 * 3_600_000 && !x.block.active));
});

test("weekStart from config.json when --week-start is not given (in-process)", async () => {
  const configFile = resolvePaths(box.env).configFile;
  mkdirSync(dirname(configFile), { recursive: true });
  writeFileSync(configFile, JSON.stringify({ weekStart: "saturday" }));
  try {
    const r = await ctl(box, ["usage", "weekly", "--json", "-z", "UTC"]);
    assert.is(r.code, 0, r.stderr);
    const weekly = JSON.parse(r.stdout) as UsageReport;
    assert.is(weekly.weekStart, "saturday");
    assert.ok(weekly.rows.every((x) => new Date(`${x.key}T00:00:00Z`).getUTCDay() === 6), r.stdout);
  } finally {
    rmSync(configFile);
  }
});

test("the table fits 80 columns, plain when stdout is no terminal, for every report", async () => {
  for (const report of ["daily", "weekly", "monthly", "session", "project", "blocks"]) {
    for (const extra of [[], ["--breakdown"]]) {
      const r = await ctl(box, ["usage", report, ...extra]);
      assert.is(r.code, 0, r.stderr);
      const lines = r.stdout.trimEnd().split("\n");
      assert.ok(lines.length >= 5, r.stdout);
      const longest = Math.max(...lines.map((l) => l.length));
      assert.ok(longest <= 80, `${report} ${extra.join(" ")}: ${longest} columns\n${r.stdout}`);
      assert.not.match(r.stdout, /\x1b\[/);
      assert.match(lines[lines.length - 1] as string, /^Total /);
    }
  }
  const session = await ctl(box, ["usage", "session", "-z", "UTC"]);
  // The sub-agent is folded into its parent.
  assert.match(session.stdout, /\nae24cb29-2728-49b1-a664-ab5bcd4d2ced .*\n {2}claude-code · \/home\/op\/code\/api-server · 11-23 21:19 · \+1 sub-agent/);
});

test("the machine's zone by default (TZ), named in the report", async () => {
  const r = await ctl(box, ["usage", "--json"], { TZ: "Asia/Tokyo" });
  assert.is(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as UsageReport;
  assert.is(report.timeZone, "Asia/Tokyo");
  assert.equal(
    report.rows.map((x) => x.key),
    [...groupBy(expected, (x) => dayIn(x.ts, "Asia/Tokyo")).keys()],
  );
  // A TZ that names no zone: UTC, and it says so (not a usage error: no flag was wrong).
  for (const tz of ["Mars/Olympus", ""]) {
    const odd = await ctl(box, ["usage", "--json"], { TZ: tz });
    assert.is(odd.code, 0, odd.stderr);
    assert.is((JSON.parse(odd.stdout) as UsageReport).timeZone, "UTC");
    assert.match(odd.stderr, /this machine's time zone \(TZ=.*\) is not one Intl knows; days are in UTC \(pass --timezone\)/);
  }
});

test("bad flags and values: exit 2, what is wrong and where to look, nothing printed on stdout", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["usage", "--since", "2026-13-01"], /^insightsctl: invalid --since "2026-13-01": expected a day as YYYY-MM-DD or YYYYMMDD\n {2}See `insightsctl usage --help`/],
    [["usage", "--until", "20261131"], /invalid --until "20261131"/],
    [["usage", "--since", "2026-11-24", "--until", "2026-11-23"], /--since 2026-11-24 is after --until 2026-11-23/],
    [["usage", "--timezone", "Mars/Olympus"], /invalid --timezone "Mars\/Olympus": not an IANA time zone/],
    [["usage", "--provider", "gemini"], /invalid --provider "gemini"; allowed: openclaw \(OpenClaw\), claude-code \(Claude Code\), codex \(Codex\), gemini-cli \(Gemini CLI\)\n/],
    [["usage", "dialy"], /invalid report "dialy"; allowed: daily, weekly, monthly, session, project, blocks \(did you mean daily\?\)/],
    [["usage", "weekly", "--week-start", "someday"], /invalid --week-start "someday"/],
    [["usage", "daily", "session"], /unexpected argument "session" for insightsctl usage/],
    [["usage", "--sinse", "2026-11-01"], /unknown flag --sinse for insightsctl usage \(did you mean --since\?\)/],
    [["usage", "--json=yes"], /--json is a switch and takes no value/],
    [["usage", "--since"], /--since needs a value/],
  ];
  for (const [args, message] of cases) {
    const r = await ctl(box, args);
    assert.is(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.is(r.stdout, "");
  }
});

test("a closed stdout ends the command quietly", async () => {
  const child = spawn(process.execPath, [CTL, "usage", "session", "--breakdown"], { env: box.env, stdio: ["ignore", "pipe", "pipe"] });
  // Closed before anything is written: the write meets EPIPE.
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  assert.is(await exitOf(child), 0);
  assert.not.match(stderr, /EPIPE|Error|at /);
});

test("a daemon of a version without the usage method: says to restart it, reads nothing in-process", async () => {
  const paths = resolvePaths(box.env);
  ensurePrivateDir(paths.runtimeDir, "runtime dir");
  const old = new ControlServer({ socketPath: paths.socketFile, logger: new LogHub({ console: "off" }).logger, calls: { ping: () => ({ pong: true }) } });
  await old.listen();
  try {
    const r = await ctl(box, ["usage"]);
    assert.is(r.code, 1);
    assert.match(r.stderr, /^insightsctl: the running daemon is an older version that has no usage report\n {2}Restart it \(`insightsctl restart`\)/);
    assert.not.match(r.stderr, /in-process/);
    assert.is(r.stdout, "");
  } finally {
    await old.close();
  }
});

test("with a daemon: asks it over the control socket, and the JSON is the same as in-process", async () => {
  const started = await ctl(box, ["start"]);
  assert.is(started.code, 0, started.stderr);
  try {
    for (const args of JSON_RUNS) {
      const r = await ctl(box, args);
      assert.is(r.code, 0, r.stderr);
      assert.not.match(r.stderr, /in-process/);
      assert.is(r.stdout, inProcess.get(args.join(" ")), `${args.join(" ")}: the daemon's answer differs from the in-process one`);
    }
    // The CLI's zone goes to the daemon (whose own may differ).
    const tokyo = await ctl(box, ["usage", "--json"], { TZ: "Asia/Tokyo" });
    assert.is((JSON.parse(tokyo.stdout) as UsageReport).timeZone, "Asia/Tokyo");
    // The socket checks what it is sent itself: the CLI is not the only client.
    const client = await ControlClient.connect(resolvePaths(box.env).socketFile);
    try {
      for (const [params, message] of [
        [{ timeZone: "Mars/Olympus" }, /invalid --timezone/],
        [{ report: "yearly" }, /invalid report "yearly"/],
        [{ since: 20261101 }, /--since must be a string/],
        [{ constructor: "x" }, /unknown usage parameter "constructor"/],
      ] as const) {
        const err = await client.call("usage", { ...params }).then(
          () => null,
          (e: unknown) => e,
        );
        assert.instance(err, InsightsError);
        assert.is((err as InsightsError).code, "INVALID_PARAM");
        assert.match((err as Error).message, message);
      }
      const direct = await client.call<UsageReport>("usage", { report: "monthly", timeZone: "UTC" });
      assert.equal(figuresOf(direct.totals), sums(expected));
    } finally {
      client.close();
    }
    const table = await ctl(box, ["usage", "project", "--breakdown"]);
    assert.ok(Math.max(...table.stdout.split("\n").map((l) => l.length)) <= 80, table.stdout);
    // Asking a daemon, the CLI does not load the config (the daemon runs with its own; loading it
    // was most of the CLI's start-up): a config file broken since the start does not stop it.
    const configFile = resolvePaths(box.env).configFile;
    const original = existsSync(configFile) ? readFileSync(configFile) : null;
    mkdirSync(dirname(configFile), { recursive: true });
    writeFileSync(configFile, '{ "retentionRawDays": "not a number" ');
    try {
      const r = await ctl(box, ["usage", "--json", "-z", "UTC"]);
      assert.is(r.code, 0, r.stderr);
      assert.is(r.stdout, inProcess.get("usage --json -z UTC"));
    } finally {
      if (original) writeFileSync(configFile, original);
      else rmSync(configFile);
    }
  } finally {
    await ctl(box, ["stop"]);
  }
});

test.run();
