// The command line itself, as a user types it (the built insightsctl, a throwaway HOME, no daemon):
// unknown flags and stray words are refused with exit 2 and the nearest valid flag or command,
// help is plain text unless it goes to a terminal, a closed stdout ends a command quietly, and
// `logs -f` follows daemon.log across rotation when no daemon runs.
import { execFile, spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { CTL, ctl, ctlSpawn, DAEMON, exitOf, sandbox, type Sandbox } from "./helpers/cli.js";

let box: Sandbox;
test.before(async () => {
  box = await sandbox();
});
test.after(async () => box.cleanup());

const record = (msg: string, level = "info"): string => JSON.stringify({ time: "2026-11-21T12:00:00.000Z", level, module: "test", msg });

/** Runs insightsctl with its stdout pipe closed before it writes anything (like `| head -0`). */
function runWithClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CTL, ...args], { env: box.env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

test("an unknown flag is refused with exit 2 and the nearest valid one, for every command", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["start", "--prot", "5"], /unknown flag --prot for insightsctl start \(did you mean --port\?\)/],
    [["restart", "--forground"], /unknown flag --forground for insightsctl restart/],
    [["stop", "--force"], /unknown flag --force for insightsctl stop \(insightsctl stop takes no flags\)/],
    [["status", "--jsno"], /unknown flag --jsno for insightsctl status \(did you mean --json\?\)/],
    [["logs", "--folow"], /unknown flag --folow for insightsctl logs \(did you mean --follow\?\)/],
    [["url", "--copy"], /unknown flag --copy for insightsctl url \(insightsctl url takes no flags\)/],
    [["snapshot", "--them", "light"], /unknown flag --them for insightsctl snapshot \(did you mean --theme\?\)/],
    [["service", "install", "--sytem"], /unknown flag --sytem for insightsctl service install \(did you mean --system\?\)/],
  ];
  for (const [args, pattern] of cases) {
    const r = await ctl(box, args);
    assert.is(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`^insightsctl: ${pattern.source}\\n  See \`insightsctl .*--help\` for what it accepts\\.\\n$`), args.join(" "));
    assert.is(r.stdout, "", args.join(" "));
  }
});

test("snapshot --formt json -o x.json writes nothing (it used to write a PNG there)", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "gi-args-"));
  const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CTL, "snapshot", "--formt", "json", "-o", "x.json"], { env: box.env, cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stderr }));
  });
  assert.is(r.code, 2);
  assert.match(r.stderr, /did you mean --format\?/);
  assert.not.ok(existsSync(join(cwd, "x.json")));
});

test("values and words: a missing value, a value on a switch, an extra argument, a flag before the command", async () => {
  const missing = await ctl(box, ["logs", "-n"]);
  assert.is(missing.code, 2);
  assert.match(missing.stderr, /^insightsctl: -n needs a value\n/);
  const switchValue = await ctl(box, ["status", "--json=yes"]);
  assert.is(switchValue.code, 2);
  assert.match(switchValue.stderr, /--json is a switch and takes no value/);
  const extra = await ctl(box, ["status", "now"]);
  assert.is(extra.code, 2);
  assert.match(extra.stderr, /^insightsctl: unexpected argument "now" for insightsctl status\n/);
  const before = await ctl(box, ["--json", "status"]);
  assert.is(before.code, 2);
  assert.match(before.stderr, /^insightsctl: unknown flag --json before the command \(flags go after it/);
  const noSwitch = await ctl(box, ["start", "--no-port"]);
  assert.is(noSwitch.code, 2);
  assert.match(noSwitch.stderr, /unknown flag --no-port/);
});

test("an unknown command names the nearest one, exit 2; no command is exit 2 too", async () => {
  const r = await ctl(box, ["stats"]);
  assert.is(r.code, 2);
  assert.is(r.stderr, 'insightsctl: unknown command "stats" (did you mean status?)\n  See `insightsctl --help` for the commands.\n');
  assert.is(r.stdout, "");
  const sub = await ctl(box, ["service", "instal"]);
  assert.is(sub.code, 2);
  assert.match(sub.stderr, /^insightsctl: unknown command "instal" \(did you mean install\?\)/);
  const none = await ctl(box, []);
  assert.is(none.code, 2);
  assert.match(none.stderr, /^insightsctl: missing command \(one of start, stop, restart, status, logs, snapshot, usage, export, url, alerts, service, statusline, help\)\n/);
});

test("help: `help`, `help <command>` and --help print plain usage on stdout, exit 0", async () => {
  // citty colours help unless NO_COLOR=1, CI or TEST is set: clear them to see what a user sees.
  const env = { NO_COLOR: "", CI: "", TEST: "" };
  const top = await ctl(box, ["--help"], env);
  assert.not.ok(top.stdout.includes("\u001b["), "no colour codes in piped help");
  assert.is(top.code, 0);
  assert.match(top.stdout, /USAGE insightsctl\s+start\|stop\|restart\|status\|logs\|snapshot\|usage\|export\|url\|\s*alerts\|service\|statusline\|help/);
  const help = await ctl(box, ["help"], env);
  assert.is(help.code, 0);
  assert.is(help.stdout, top.stdout);
  const snap = await ctl(box, ["help", "snapshot"], env);
  assert.is(snap.code, 0);
  assert.match(snap.stdout, /USAGE insightsctl snapshot \[OPTIONS\]/);
  assert.match(snap.stdout, /--format=<format>/);
  assert.not.ok(snap.stdout.includes("\u001b["));
  assert.is((await ctl(box, ["snapshot", "--help"], env)).stdout, snap.stdout);
  const install = await ctl(box, ["help", "service", "install"], env);
  assert.match(install.stdout, /USAGE insightsctl service install \[OPTIONS\]/);
  const bad = await ctl(box, ["help", "snapshots"]);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /^insightsctl: unknown command "snapshots" \(did you mean snapshot\?\)/);
  const version = await ctl(box, ["--version"]);
  assert.is(version.stdout, "0.1.0\n");
  // insightsd's help too.
  const daemonHelp = await new Promise<string>((resolve) =>
    execFile(process.execPath, [DAEMON, "--help"], { env: { ...box.env, ...env } }, (_err, stdout) => resolve(stdout)),
  );
  assert.match(daemonHelp, /USAGE insightsd \[OPTIONS\]/);
  assert.not.ok(daemonHelp.includes("\u001b["), "no colour codes in insightsd's piped help");
});

test("help fits 80 columns, for every command and insightsd, with no padding at line ends", async () => {
  const env = { NO_COLOR: "", CI: "", TEST: "" };
  const commands = [[], ["start"], ["stop"], ["restart"], ["status"], ["logs"], ["snapshot"], ["usage"], ["export"], ["url"], ["alerts"], ["alerts", "list"], ["alerts", "test"], ["alerts", "mute"], ["service"], ["service", "install"]];
  const texts = await Promise.all(commands.map(async (c) => [c.join(" ") || "insightsctl", (await ctl(box, ["help", ...c], env)).stdout] as const));
  const daemonHelp = await new Promise<string>((resolve) => execFile(process.execPath, [DAEMON, "--help"], { env: { ...box.env, ...env } }, (_err, stdout) => resolve(stdout)));
  for (const [what, text] of [...texts, ["insightsd", daemonHelp] as const]) {
    assert.match(text, /USAGE/, what);
    for (const line of text.split("\n")) {
      assert.ok(line.length <= 80, `${what}: ${line.length} columns: ${line}`);
      assert.not.match(line, / $/, `${what}: trailing padding: ${JSON.stringify(line)}`);
    }
  }
  // Each option and its description are still there, the description beside or under its flag.
  const logs = texts.find(([w]) => w === "logs")?.[1] ?? "";
  assert.match(logs, /^ {2}-n, --lines=<N> +How many past lines to show \(default 50\)$/m);
});

test("a closed stdout ends `logs` quietly with exit 0 (no EPIPE stack trace)", async () => {
  mkdirSync(box.stateDir, { recursive: true });
  writeFileSync(join(box.stateDir, "daemon.log"), Array.from({ length: 2000 }, (_, i) => record(`line ${i}`)).join("\n") + "\n");
  const r = await runWithClosedStdout(["logs", "-n", "2000"]);
  assert.is(r.stderr, "");
  assert.is(r.code, 0);
  const help = await runWithClosedStdout(["--help"]);
  assert.is(help.stderr, "");
  assert.is(help.code, 0);
});

test("logs -f with no daemon follows daemon.log, across rotation, until Ctrl-C", async () => {
  const log = join(box.stateDir, "daemon.log");
  mkdirSync(box.stateDir, { recursive: true });
  writeFileSync(log, record("before the follower") + "\n");
  const follower = ctlSpawn(box, ["logs", "-f", "-n", "1", "--level", "info"]);
  try {
    await pollUntil(() => follower.output().includes("following"), { timeoutMs: 15_000, what: "the follower to start" });
    assert.match(follower.output(), /before the follower/);
    assert.match(follower.output(), /gateway-insights is not running; following .*daemon\.log \(Ctrl-C to stop\)/);
    appendFileSync(log, record("appended") + "\n" + record("too quiet", "debug") + "\n");
    await pollUntil(() => follower.output().includes("appended"), { timeoutMs: 15_000, what: "an appended line" });
    // Rotation as RotatingFile does it: a last line in the old file, rename, a new file.
    appendFileSync(log, record("last before rotation") + "\n");
    renameSync(log, `${log}.1`);
    writeFileSync(log, record("first after rotation") + "\n");
    await pollUntil(() => follower.output().includes("first after rotation"), { timeoutMs: 15_000, what: "the line after rotation" });
    const out = follower.output();
    assert.ok(out.indexOf("appended") < out.indexOf("last before rotation") && out.indexOf("last before rotation") < out.indexOf("first after rotation"), out);
    assert.not.match(out, /too quiet/);
    assert.is(out.split("first after rotation").length, 2, "each line once");
  } finally {
    follower.child.kill("SIGINT");
  }
  assert.is(await exitOf(follower.child), 0);
});

test.run();
