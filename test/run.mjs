#!/usr/bin/env node
// Runs every uvu test file (`*.test.ts` beside the modules and under test/) in its own
// `node --import tsx` process, a few at a time, and ends with one line `N passed, N failed`.
// Usage: node test/run.mjs [path-substring ...]   (TEST_CONCURRENCY, TEST_FILE_TIMEOUT_S)
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const roots = ["shared", "daemon", "cli", "test"];
const filters = process.argv.slice(2);
const concurrency = Number(process.env.TEST_CONCURRENCY || 2);
const fileTimeoutMs = Number(process.env.TEST_FILE_TIMEOUT_S || 600) * 1000;

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name === "demo" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith(".test.ts")) out.push(relative(root, path));
  }
  return out;
}

const files = roots
  .filter((r) => existsSync(join(root, r)))
  .flatMap((r) => walk(join(root, r), []))
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
    const child = spawn(process.execPath, ["--import", "tsx", file], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: "0" },
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
      resolve({ file, code, output, ms: Date.now() - started, ...s });
    });
  });
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
