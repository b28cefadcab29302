#!/usr/bin/env node
// Runs every uvu test file (`*.test.ts` beside the modules and under test/) in its own
// `node --import tsx` process, a few at a time, and ends with one line `N passed, N failed`.
// Each file runs with HOME, the XDG dirs and TMPDIR in a fresh sandbox of its own; a file that
// leaves anything in that HOME or those XDG dirs wrote outside its temp dirs and fails (see sandbox).
// Usage: node test/run.mjs [path-substring ...]   (TEST_CONCURRENCY, TEST_FILE_TIMEOUT_S; TEST_DIRS,
// path-separated, searches other dirs than shared/ daemon/ cli/ test/: test/run.test.ts uses it)
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const roots = process.env.TEST_DIRS ? process.env.TEST_DIRS.split(delimiter).filter(Boolean) : ["shared", "daemon", "cli", "test"];
const filters = process.argv.slice(2);
const concurrency = Number(process.env.TEST_CONCURRENCY || 2);
const fileTimeoutMs = Number(process.env.TEST_FILE_TIMEOUT_S || 600) * 1000;

// shared/demo is the recorded demo bundle (data, no tests). Only that folder is passed over: the
// providers' demo writers and their tests live in shared/providers/<p>/demo/.
const bundleDir = resolve(root, "shared", "demo");

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (path === bundleDir) continue;
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith(".test.ts")) out.push(relative(root, path));
  }
  return out;
}

const files = roots
  .filter((r) => existsSync(resolve(root, r)))
  .flatMap((r) => walk(resolve(root, r), []))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();

// uvu prints "Total: N / Passed: N / Skipped: N" once per process; colours are stripped first.
function summarize(output) {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const num = (label) => {
    const m = plain.match(new RegExp(`${label}:\\s+(\\d+)`));
    return m ? Number(m[1]) : null;
  };
  const total = num("Total"), passed = num("Passed"), skipped = num("Skipped") ?? 0;
  if (total === null || passed === null) return null;
  // uvu's Total counts the tests that ran; skipped ones are reported apart.
  return { passed, skipped, failed: Math.max(0, total - passed) };
}

// Each file runs as the leader of its own process group, so whatever it started can be stopped
// with it: a child it spawned (such as the store test's writer) that outlived it would otherwise
// hold the output pipes open and keep this runner waiting for ever.
const running = new Set();
function killGroup(child) {
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // the group is already empty
  }
}
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    for (const child of running) killGroup(child);
    process.exit(130);
  });
}

/** How long a file's pipes may stay open after it exited. */
const EXIT_GRACE_MS = 2000;

function runFile(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const box = makeSandbox();
    const child = spawn(process.execPath, ["--import", "tsx", file], {
      cwd: root,
      env: { ...process.env, ...caches, ...box.env, FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    running.add(child);
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => {
      output += `\n[run] ${file} exceeded ${fileTimeoutMs / 1000}s and was killed\n`;
      killGroup(child);
    }, fileTimeoutMs);
    let leftovers = null;
    child.on("exit", (_code, signal) => {
      if (signal) output += `\n[run] ${file} was ended by ${signal}\n`;
      // Nothing a test file started may outlive it.
      killGroup(child);
      leftovers = setTimeout(() => {
        // A descendant that left the group (its own session) is out of reach: stop listening to it.
        output += `\n[run] ${file} exited but something it started still holds its output\n`;
        child.stdout.destroy();
        child.stderr.destroy();
      }, EXIT_GRACE_MS);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      clearTimeout(leftovers);
      running.delete(child);
      let s = summarize(output);
      // A file that crashed before uvu could summarize counts as one failure.
      if (!s) s = { passed: 0, skipped: 0, failed: 1 };
      else if (code !== 0 && s.failed === 0) s.failed = 1;
      const outside = wroteOutside(box);
      if (outside.length) {
        s.failed += 1;
        output += `\n[run] ${file} wrote outside its temp dirs (into the HOME/XDG dirs it was given):${describe(outside)}\n`;
      }
      removeSandbox(box);
      resolve({ file, code, output, ms: Date.now() - started, ...s });
    });
  });
}

// ---- The sandbox each file runs in ----------------------------------------------------------
// Tests must write only inside their own temp dirs. A test that forgets to point HOME (or the
// OpenClaw CLI, or a browser) at one would write into the developer's home: a run once left
// ~/.openclaw/state/openclaw.sqlite behind. So every file gets its own HOME and XDG dirs, which it
// must leave empty, and its own TMPDIR (where its temp dirs go; removed with the sandbox).

const realHome = process.env.HOME || homedir();
const realTmp = tmpdir();

/** Per-user caches a test may use, passed by path, because HOME no longer leads to them. */
function cacheEnv() {
  const env = {};
  // The real-gateway tests' install of openclaw and Node 24 (test/helpers/openclaw-gateway.ts).
  env.OC_CACHE = process.env.OC_CACHE || join(realHome, ".cache", "openclaw-e2e");
  // The real-CLI tests' installs of Claude Code, Codex and Gemini CLI (test/helpers/claude-code-runner.ts,
  // codex-runner.ts, gemini-runner.ts): without these, each run would install them again into its sandbox HOME.
  env.CC_CACHE = process.env.CC_CACHE || join(realHome, ".cache", "claude-code-e2e");
  env.CODEX_CACHE = process.env.CODEX_CACHE || join(realHome, ".cache", "codex-e2e");
  env.GEMINI_CACHE = process.env.GEMINI_CACHE || join(realHome, ".cache", "gemini-cli-e2e");
  // npm's user config (registry, proxy) for that install; npm reads it from HOME otherwise.
  const set = (k) => process.env[`npm_config_${k}`] || process.env[`NPM_CONFIG_${k.toUpperCase()}`];
  if (!set("userconfig") && existsSync(join(realHome, ".npmrc"))) env.npm_config_userconfig = join(realHome, ".npmrc");
  return env;
}
const caches = cacheEnv();

/** Where a file's HOME and XDG dirs are, by the variable that points there. */
const SANDBOXED = {
  HOME: "home",
  XDG_CONFIG_HOME: "xdg/config",
  XDG_CACHE_HOME: "xdg/cache",
  XDG_DATA_HOME: "xdg/data",
  XDG_STATE_HOME: "xdg/state",
  XDG_RUNTIME_DIR: "xdg/run",
};

function makeSandbox() {
  // Short: sockets under TMPDIR must fit in 107 bytes.
  const dir = mkdtempSync(join(realTmp, "gi-r-"));
  const env = { TMPDIR: join(dir, "tmp") };
  mkdirSync(env.TMPDIR);
  for (const [name, sub] of Object.entries(SANDBOXED)) {
    env[name] = join(dir, sub);
    mkdirSync(env[name], { recursive: true, mode: 0o700 });
  }
  return { dir, env };
}

/** Every path under `dir`, relative to it (a directory only when it is empty). */
function leftovers(dir, rel = "") {
  let names;
  try {
    names = readdirSync(join(dir, rel), { withFileTypes: true });
  } catch {
    return rel ? [rel] : [];
  }
  if (names.length === 0) return rel ? [rel + "/"] : [];
  return names.flatMap((e) => (e.isDirectory() ? leftovers(dir, join(rel, e.name)) : [join(rel, e.name)]));
}

/** What the file left in its HOME and XDG dirs, as `HOME/…` paths. */
function wroteOutside(box) {
  return Object.entries(SANDBOXED).flatMap(([name, sub]) => leftovers(join(box.dir, sub)).map((p) => `${name}/${p}`));
}

/** Gives every directory under `dir` owner rwx, so what a test locked down can be removed. */
function openUp(dir) {
  try {
    chmodSync(dir, 0o700);
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) openUp(join(dir, e.name));
  } catch {
    // not ours, or gone
  }
}

/** The paths, one a line; a folder with many in it (a cache) as one line with a count. */
function describe(paths) {
  const groups = new Map();
  for (const p of paths) {
    const top = p.split("/").slice(0, 2).join("/");
    groups.set(top, [...(groups.get(top) ?? []), p]);
  }
  return [...groups].map(([top, ps]) => (ps.length <= 5 ? ps.map((p) => `\n[run]   ${p}`).join("") : `\n[run]   ${top}/ (${ps.length} files, e.g. ${ps[0]})`)).join("");
}

function removeSandbox(box) {
  try {
    rmSync(box.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  } catch {
    openUp(box.dir);
    rmSync(box.dir, { recursive: true, force: true });
  }
}

const results = [];
const queue = [...files];
async function worker() {
  while (queue.length) {
    const file = queue.shift();
    const r = await runFile(file);
    results.push(r);
    const mark = r.failed ? "FAIL" : "ok  ";
    console.log(`${mark} ${file}  ${r.passed} passed${r.failed ? `, ${r.failed} failed` : ""}  ${(r.ms / 1000).toFixed(1)}s`);
    if (r.failed) console.log(r.output.replace(/^/gm, "     | "));
  }
}
await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));

const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const skipped = results.reduce((n, r) => n + r.skipped, 0);
if (files.length === 0) console.log("no test files matched");
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed || files.length === 0 ? 1 : 0);
