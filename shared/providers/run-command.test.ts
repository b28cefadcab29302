import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../base/clock.js";
import { callViaCli, spawnRunner } from "./openclaw/gateway-rpc/cli-fallback.js";
import { UpdateStatusChecker, execFileRunner } from "./openclaw/gateway/update-status.js";
import { runCommand } from "./run-command.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gi-run-"));

/**
 * A stand-in for the openclaw launcher (openclaw.mjs), as it behaved when run for real: it re-spawns
 * itself as a second node process with inherited stdio, forwards SIGTERM to it and then exits 0 with
 * nothing printed. The re-spawned child writes its pid to `pidFile` and would run for a minute.
 */
function fakeLauncher(name: string): { script: string; pidFile: string } {
  const pidFile = path.join(tmp, `${name}.child.pid`);
  const child = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 60000);`;
  const script = path.join(tmp, `${name}.mjs`);
  fs.writeFileSync(
    script,
    `#!${process.execPath}
import { spawn } from "node:child_process";
const child = spawn(process.execPath, ["-e", ${JSON.stringify(child)}], { stdio: "inherit" });
process.on("SIGTERM", () => child.kill("SIGTERM"));
child.on("exit", () => process.exit(0));
`,
    { mode: 0o755 },
  );
  return { script, pidFile };
}

/** Live processes whose command line names `marker` (the launcher's child carries its pid file's path). */
function processesRunning(marker: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker) && alive(Number(name))) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

// Regression: spawnRunner SIGKILLed only the launcher, the re-spawned child kept the stdout pipe
// open, and callViaCli waited for it: 16 s past a 3 s timeout against the real CLI.
test("a timeout kills the launcher's re-spawned child too and returns at the deadline", async () => {
  const { script, pidFile } = fakeLauncher("kill-group");
  const started = Date.now();
  // Long enough for the launcher to start its child on a loaded machine (the pid file says it did).
  const r = await spawnRunner(script, [], { timeoutMs: 2500 });
  const took = Date.now() - started;
  assert.ok(r.timedOut);
  assert.ok(took < 6000, `took ${took} ms`);
  // Whether or not the child got as far as writing its pid, no process of this launcher may live on.
  await pollUntil(() => processesRunning(pidFile).length === 0, { timeoutMs: 3000, what: "re-spawned child gone" });
  if (fs.existsSync(pidFile)) assert.not.ok(alive(Number(fs.readFileSync(pidFile, "utf8"))));
});

test("callViaCli reports the cut-off run as a timeout", async () => {
  const { script } = fakeLauncher("cli-timeout");
  const started = Date.now();
  const r = await callViaCli("health", {}, { openclawBin: script, timeoutMs: 400 });
  assert.ok(Date.now() - started < 3000);
  assert.not.ok(r.ok);
  if (!r.ok) assert.is(r.error.kind, "timeout");
});

// Regression: execFile's own timeout sends SIGTERM; the launcher forwards it and exits 0 with no
// output, which execFile reports as success, so a timeout came back as "no JSON object (exit 0)".
test("update status: a launcher that exits 0 when signalled is still a timeout, not corrupt output", async () => {
  const { script } = fakeLauncher("update-timeout");
  const runner = await execFileRunner(script, ["update", "status", "--json"], { timeoutMs: 300 }).then(
    () => "resolved",
    (err: NodeJS.ErrnoException) => err.code,
  );
  assert.is(runner, "ETIMEDOUT");
  const checker = new UpdateStatusChecker({ command: script, timeoutMs: 300 });
  const r = await checker.get();
  assert.not.ok(r.ok);
  if (!r.ok) assert.is(r.error.kind, "timeout");
});

test("a descendant that left the process group cannot hold the result past the exit", async () => {
  // The program starts a detached (own session) grandchild with our pipes, then exits at once.
  const pidFile = path.join(tmp, "escaped.pid");
  const grandchild = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 60000);`;
  const program = `const c = require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(grandchild)}], { stdio: "inherit", detached: true }); c.unref(); console.log("done");`;
  const started = Date.now();
  const r = await runCommand(process.execPath, ["-e", program], { timeoutMs: 30_000, settleMs: 200 });
  const took = Date.now() - started;
  const escaped = await pollUntil(() => (fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, "utf8")) : null), { what: "grandchild pid" });
  try {
    assert.is(r.exitCode, 0);
    assert.not.ok(r.timedOut);
    assert.is(r.stdout.trim(), "done");
    assert.ok(took < 5000, `took ${took} ms`);
  } finally {
    process.kill(escaped, "SIGKILL");
  }
});

test("output past the cap is cut and the program stopped", async () => {
  const r = await runCommand(process.execPath, ["-e", "const b = 'x'.repeat(65536); setInterval(() => process.stdout.write(b), 1)"], { timeoutMs: 10_000, maxOutputBytes: 100_000 });
  assert.ok(r.truncated);
  assert.is(r.stdout.length, 100_000);
  assert.not.ok(r.timedOut);
});

test("a program that cannot start is a spawn error, not a hang", async () => {
  const r = await runCommand(path.join(tmp, "no-such-program"), [], { timeoutMs: 5000 });
  assert.is(r.spawnError?.code, "ENOENT");
  assert.is(r.exitCode, null);
});

test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test.run();
