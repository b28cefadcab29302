// The CLI's two commands that run most often stay lean (docs/benchmarks.md): `insightsctl
// statusline` (Claude Code runs it after every message) and `insightsctl usage` against a running
// daemon. Checked by what the built bin loads, not by timing it: a child process preloads
// test/helpers/load-recorder.cjs (the status line, which must not start Node's ESM loader: the
// recorder says whether it did) or load-recorder.mjs (usage, an ES module), which list every module
// loaded and every Intl formatter built (the first one loads ICU's locale data, as costly as
// Node's own start on a busy machine).
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { copyClaudeHome } from "./helpers/claude-code-fixture.js";
import { CTL, ctl, ROOT, sandbox, type RunResult, type Sandbox } from "./helpers/cli.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";

const RECORDER = join(ROOT, "test", "helpers", "load-recorder.mjs");
const RECORDER_CJS = join(ROOT, "test", "helpers", "load-recorder.cjs");
/** The status line's one file: the bin requires it (cli/bundle.mjs). */
const BUNDLE = join(ROOT, "dist", "cli", "statusline.cjs");
/** `usage --json`'s lean path against a running daemon (cli/usage-fast.ts). */
const USAGE_BUNDLE = join(ROOT, "dist", "cli", "usage.cjs");
/** The full command tree, as ES modules: what the bin imports for every call the bundles do not take. */
const MAIN = join(ROOT, "dist", "cli", "main.js");

/** `ctl`, but running `file` instead of the bin. */
function ctlAt(file: string, args: string[], env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file, ...args], { env: { ...box.env, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** What neither command may load: the store and its driver, the readers, pricing, GraphQL, the config, citty's tree for the status line. */
const NEVER: ReadonlyArray<[string, RegExp]> = [
  ["the store", /\/dist\/shared\/store\//],
  ["better-sqlite3", /\/node_modules\/better-sqlite3\//],
  ["the ingest", /\/dist\/shared\/ingest\//],
  ["a provider's reader", /\/dist\/shared\/providers\/[^/]+\/(?!identity\.js)[^/]+\.js$/],
  ["the JSONL kit", /\/dist\/shared\/providers\/jsonl\//],
  ["pricing", /\/dist\/shared\/pricing\/|\/node_modules\/@pydantic\//],
  ["GraphQL", /\/node_modules\/graphql\/|\/dist\/daemon\//],
  ["the config", /\/dist\/shared\/config\/(?!argv\.js|help-fit\.js)|\/node_modules\/(zod|json5)\//],
  ["the in-process usage", /\/dist\/cli\/(context|usage-local)\.js$/],
  // node:crypto only names a temp file when the status line's spool is full.
  ["node:crypto", /^node:crypto$/],
];

let box: Sandbox;

function localtimeIsLink(): boolean {
  try {
    return fs.readlinkSync("/etc/localtime").includes("/zoneinfo/");
  } catch {
    return false;
  }
}
const input = fs.readFileSync(join(ROOT, "test", "fixtures", "statusline", "subscriber.json"), "utf8");

test.before(async () => {
  box = await sandbox();
  fs.cpSync(copyClaudeHome().home, box.env.HOME as string, { recursive: true });
});
test.after(async () => {
  await box.cleanup();
  removeTempDirs();
});

interface Recorded {
  code: number | null;
  stdout: string;
  modules: string[];
  intl: string[];
  /** Whether Node's ESM loader ran (known only with the CommonJS recorder: --import starts it). */
  esmLoader: boolean;
}

/**
 * Runs `command` (by default the built bin with `args`, on this node) with a recorder preloaded
 * through NODE_OPTIONS, as an installed status-line command would be run; what it loaded and
 * built, in order.
 */
function recorded(args: string[], stdin: string, env: Record<string, string> = box.env, preload: "require" | "import" = "import", command: string[] = [process.execPath, CTL, ...args]): Promise<Recorded> {
  const file = join(box.dir, `record-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  fs.writeFileSync(file, "");
  const nodeOptions = preload === "require" ? `--require ${RECORDER_CJS}` : `--import ${RECORDER}`;
  return new Promise((resolve) => {
    const [exe, ...rest] = command as [string, ...string[]];
    const child = spawn(exe, rest, { env: { ...env, LOAD_RECORD: file, NODE_OPTIONS: nodeOptions }, stdio: ["pipe", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("close", (code) => {
      const lines = fs.readFileSync(file, "utf8").split("\n");
      const of = (kind: string): string[] => lines.filter((l) => l.startsWith(`${kind} `)).map((l) => l.slice(kind.length + 1));
      resolve({ code, stdout, modules: of("load"), intl: of("intl"), esmLoader: lines.includes("esm-loader started") });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(stdin);
  });
}

function assertLean(r: Recorded, what: string, alsoNever: ReadonlyArray<[string, RegExp]> = []): void {
  // The recorder works: the bin itself is in the list (an empty list would pass everything).
  assert.ok(
    r.modules.some((m) => m.endsWith("/dist/cli/main.js")),
    `${what}: the recorder saw no module:\n${r.modules.join("\n")}`,
  );
  for (const [name, re] of [...NEVER, ...alsoNever]) {
    const hit = r.modules.find((m) => re.test(m));
    assert.is(hit, undefined, `${what} loads ${name}: ${hit ?? ""}`);
  }
  assert.equal(r.intl, [], `${what} builds an Intl formatter (ICU's locale data)`);
}

/**
 * The status line's fast path: the bin and its bundle are the only files it loads, as CommonJS,
 * and Node's ESM loader never starts; no node:crypto (only for a full spool), no node:util
 * (importing it loads every export it has), no Intl formatter.
 */
function assertFastStatusline(r: Recorded, what: string): void {
  assert.is(r.code, 0, what);
  // The fixture's model, as its input names it.
  const fixture = JSON.parse(input) as { model: { display_name: string } };
  assert.ok(r.stdout.includes(fixture.model.display_name), `${what}: ${r.stdout}`);
  const files = r.modules.filter((m) => !m.startsWith("node:"));
  assert.equal(files, [fs.realpathSync(CTL), BUNDLE], `${what} loads other files than the bin and its bundle`);
  assert.is(r.esmLoader, false, `${what} starts Node's ESM loader`);
  for (const builtin of ["node:crypto", "node:util"]) assert.not.ok(r.modules.includes(builtin), `${what} loads ${builtin}`);
  assert.equal(r.intl, [], `${what} builds an Intl formatter (ICU's locale data)`);
}

test("statusline with no daemon: prints its line from the input and spools, loading only the bin and its bundle", async () => {
  const r = await recorded(["statusline"], input, box.env, "require");
  assertFastStatusline(r, "statusline (no daemon)");
  assert.ok(!r.modules.includes("node:net"), "no socket file: node:net (and its streams) never loads");
  assert.ok(fs.existsSync(join(box.stateDir, "statusline-spool.jsonl")), "the reading is spooled");
});

test("statusline install writes a command that takes the fast path", async () => {
  const configDir = join(box.dir, "claude-config");
  fs.mkdirSync(configDir);
  const env = { ...box.env, CLAUDE_CONFIG_DIR: configDir };
  const installed = await ctl(box, ["statusline", "install"], { CLAUDE_CONFIG_DIR: configDir });
  assert.is(installed.code, 0, installed.stderr);
  const settings = JSON.parse(fs.readFileSync(join(configDir, "settings.json"), "utf8")) as { statusLine: { command: string } };
  assert.match(settings.statusLine.command, /insightsctl\.cjs' statusline$/);
  // As Claude Code runs it: through a shell.
  assertFastStatusline(await recorded([], input, env, "require", ["/bin/sh", "-c", settings.statusLine.command]), "the installed status line");
});

test("statusline and usage against a running daemon: the control socket only", async () => {
  const started = await ctl(box, ["start"]);
  assert.is(started.code, 0, started.stderr);
  try {
    const line = await recorded(["statusline"], input, box.env, "require");
    assertFastStatusline(line, "statusline (daemon)");
    assert.ok(line.modules.includes("node:net"), "the status line talks to the daemon over its socket");

    // Without TZ (the machine's zone by /etc/localtime's link), with TZ, and with --timezone: the
    // lean path's bundle alone. With no TZ and an /etc/localtime that is a copy, not a link, only
    // Intl can name the zone: the full command (ES modules) answers, still without the store.
    const { TZ: _tz, ...noTz } = box.env;
    for (const [args, env] of [
      [["usage", "daily", "--json"], noTz],
      [["usage", "daily", "--json"], { ...box.env, TZ: "Asia/Tokyo" }],
      [["usage", "--json", "-z", "UTC"], box.env],
      [["usage", "-j", "weekly", "--since=2026-01-05", "--breakdown"], box.env],
    ] as const) {
      const what = `${args.join(" ")}${env.TZ !== undefined ? ` TZ=${env.TZ}` : ""}`;
      const lean = env.TZ !== undefined || localtimeIsLink();
      const r = await recorded([...args], "", env, lean ? "require" : "import");
      assert.is(r.code, 0, what);
      const report = JSON.parse(r.stdout) as { report: string; timeZone: string };
      assert.is(report.report, (args as readonly string[]).includes("weekly") ? "weekly" : "daily");
      if (env.TZ !== undefined) assert.is(report.timeZone, env.TZ);
      if (!lean) {
        assertLean({ ...r, intl: [] }, what);
        continue;
      }
      assert.equal(r.modules.filter((m) => !m.startsWith("node:")), [fs.realpathSync(CTL), USAGE_BUNDLE], `${what} loads other files than the bin and its bundle`);
      assert.is(r.esmLoader, false, `${what} starts Node's ESM loader`);
      assert.equal(r.intl, [], `${what} builds an Intl formatter (ICU's locale data)`);
      for (const builtin of ["node:crypto", "node:util"]) assert.not.ok(r.modules.includes(builtin), `${what} loads ${builtin}`);
    }

    // Every call the lean path does not take goes to the full command, which answers exactly as
    // it does run by itself (dist/cli/main.js): bad values, unknown or odd flags, help, a zone the
    // daemon refuses.
    for (const [args, env] of [
      [["usage", "--json", "--since", "2026-13-01"], {}],
      [["usage", "-j", "--since", "2026-11-24", "--until", "2026-11-23"], {}],
      [["usage", "--json", "--timezone", "Mars/Olympus"], {}],
      [["usage", "--json", "--provider", "gemini"], {}],
      [["usage", "dialy", "--json"], {}],
      [["usage", "daily", "session", "--json"], {}],
      [["usage", "--json", "--sinse", "2026-11-01"], {}],
      [["usage", "--json", "--since"], {}],
      [["usage", "--json", "--json"], {}],
      [["usage", "--json", "--timeout", "0"], {}],
      [["usage", "--json", "-jb"], {}],
      [["usage", "--json", "--help"], {}],
      [["usage", "--json"], { TZ: "Mars/Olympus" }],
    ] as const) {
      const what = `${args.join(" ")}${"TZ" in env ? ` TZ=${env.TZ}` : ""}`;
      const [bin, full] = await Promise.all([ctl(box, [...args], env), ctlAt(MAIN, [...args], env)]);
      assert.equal(bin, full, `${what}: the bin answers otherwise than the full command`);
    }
    // The zone the daemon refuses is then checked here, as without a daemon: a TZ that names no
    // zone is UTC, said on stderr; a bad --timezone is a usage error.
    const odd = await ctl(box, ["usage", "--json"], { TZ: "Mars/Olympus" });
    assert.is(odd.code, 0, odd.stderr);
    assert.is((JSON.parse(odd.stdout) as { timeZone: string }).timeZone, "UTC");
    assert.match(odd.stderr, /this machine's time zone \(TZ=Mars\/Olympus\) is not one Intl knows; days are in UTC \(pass --timezone\)/);
    assert.not.match(odd.stderr, /in-process/);
    const bad = await ctl(box, ["usage", "--timezone", "Mars/Olympus"]);
    assert.is(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /^insightsctl: invalid --timezone "Mars\/Olympus": not an IANA time zone/);
    assert.is(bad.stdout, "");
  } finally {
    await ctl(box, ["stop"]);
  }
});

test.run();
