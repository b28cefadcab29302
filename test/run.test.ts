// test/run.mjs itself: every test file runs in a sandbox of its own (HOME, XDG dirs, TMPDIR), and a
// file that leaves anything in that HOME or those XDG dirs fails, by name, even when its tests pass.
// The runner runs here on small test files written into a temp dir (TEST_DIRS), with a HOME of
// its own, so nothing the runner or the files do can reach the developer's.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { ROOT } from "./helpers/cli.js";

test.after(removeTempDirs);

const UVU = import.meta.resolve("uvu");

/** A test file that passes after running `body` (with fs, os and path in scope). */
const passingFile = (body: string): string => `
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from ${JSON.stringify(UVU)};
test("does its thing", () => {
${body}
});
test.run();
`;

interface RunnerResult {
  code: number | null;
  stdout: string;
  /** The HOME the runner itself ran with, to check it stayed as it was. */
  home: string;
}

/** Runs test/run.mjs on the given test files (name -> source) in a fresh dir. */
function runRunner(files: Record<string, string>, env: NodeJS.ProcessEnv = {}): Promise<RunnerResult> {
  const root = makeTempDir("gi-runner-");
  const dir = path.join(root, "tests");
  const home = path.join(root, "home");
  fs.mkdirSync(dir);
  fs.mkdirSync(home);
  for (const [name, src] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), src);
  }
  const childEnv: NodeJS.ProcessEnv = { ...process.env, HOME: home, TMPDIR: root, TEST_DIRS: dir, TEST_CONCURRENCY: "1", ...env };
  for (const k of Object.keys(childEnv)) if (k.startsWith("XDG_") || k === "OC_CACHE" || /^npm_config_userconfig$/i.test(k)) delete childEnv[k];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "test", "run.mjs")], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stdout += d));
    child.on("close", (code) => resolve({ code, stdout, home }));
  });
}

test("a file that writes into its HOME fails, named, with what it wrote; the runner's own HOME is untouched", async () => {
  const r = await runRunner({
    "writes-home.test.ts": passingFile(`
  const state = path.join(os.homedir(), ".openclaw", "state");
  fs.mkdirSync(state, { recursive: true });
  fs.writeFileSync(path.join(state, "openclaw.sqlite"), "");`),
  });
  assert.is(r.code, 1, r.stdout);
  assert.match(r.stdout, /FAIL .*writes-home\.test\.ts {2}1 passed, 1 failed/);
  assert.match(r.stdout, /writes-home\.test\.ts wrote outside its temp dirs/);
  assert.match(r.stdout, /HOME\/\.openclaw\/state\/openclaw\.sqlite/);
  assert.equal(fs.readdirSync(r.home), []);
});

test("test files in a provider's demo/ folder run (its demo writer's tests)", async () => {
  const r = await runRunner({ "providers/p/demo/writer.test.ts": passingFile("") });
  assert.is(r.code, 0, r.stdout);
  assert.match(r.stdout, /ok {3}.*providers\/p\/demo\/writer\.test\.ts {2}1 passed/);
  assert.match(r.stdout, /1 passed, 0 failed/);
});

test("writes into an XDG dir fail too; writes into TMPDIR do not, and the sandbox is removed", async () => {
  const r = await runRunner({
    "writes-xdg.test.ts": passingFile(`  fs.mkdirSync(path.join(process.env.XDG_STATE_HOME, "app"));`),
    "writes-tmp.test.ts": passingFile(`  fs.writeFileSync(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "x-")), "f"), "");`),
  });
  assert.is(r.code, 1, r.stdout);
  assert.match(r.stdout, /FAIL .*writes-xdg\.test\.ts/);
  assert.match(r.stdout, /XDG_STATE_HOME\/app\//);
  assert.match(r.stdout, /ok {3}.*writes-tmp\.test\.ts {2}1 passed/);
  assert.match(r.stdout, /2 passed, 1 failed/);
  const tmp = path.dirname(r.home);
  assert.equal(fs.readdirSync(tmp).filter((n) => n.startsWith("gi-r-")), [], "no sandbox left behind");
});

test("each file gets fresh HOME, XDG dirs and TMPDIR of its own; the openclaw cache and npm config by explicit path", async () => {
  const probe = makeTempDir("gi-runner-probe-");
  const writer = (name: string) =>
    passingFile(`  const keys = ["HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "TMPDIR", "OC_CACHE", "npm_config_userconfig"];
  fs.writeFileSync(path.join(${JSON.stringify(probe)}, ${JSON.stringify(name)}), JSON.stringify(Object.fromEntries(keys.map((k) => [k, process.env[k] ?? null]))));`);
  const dir = makeTempDir("gi-runner-home-");
  fs.writeFileSync(path.join(dir, ".npmrc"), "fund=false\n");
  const r = await runRunner({ "a.test.ts": writer("a.json"), "b.test.ts": writer("b.json") });
  assert.is(r.code, 0, r.stdout);
  const a = JSON.parse(fs.readFileSync(path.join(probe, "a.json"), "utf8")) as Record<string, string | null>;
  const b = JSON.parse(fs.readFileSync(path.join(probe, "b.json"), "utf8")) as Record<string, string | null>;
  const tmp = path.dirname(r.home);
  for (const k of ["HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "TMPDIR"]) {
    assert.ok(a[k] && a[k]!.startsWith(tmp + path.sep) && a[k] !== r.home, `${k}=${a[k]} is a fresh dir`);
    assert.ok(b[k] && a[k] !== b[k], `${k} differs between files`);
  }
  assert.is(a.OC_CACHE, path.join(r.home, ".cache", "openclaw-e2e"), "the install cache of the runner's HOME");
  assert.is(a.npm_config_userconfig, null, "no .npmrc in the runner's HOME: none passed");
  // With a .npmrc in the runner's HOME, npm gets it by path.
  const withNpmrc = await runRunner({ "c.test.ts": writer("c.json") }, { HOME: dir });
  assert.is(withNpmrc.code, 0, withNpmrc.stdout);
  const c = JSON.parse(fs.readFileSync(path.join(probe, "c.json"), "utf8")) as Record<string, string | null>;
  assert.is(c.npm_config_userconfig, path.join(dir, ".npmrc"));
  assert.is(c.OC_CACHE, path.join(dir, ".cache", "openclaw-e2e"));
  assert.equal(fs.readdirSync(dir), [".npmrc"]);
});

test.run();
