// Issue 18 item 5: `insightsctl stop` must never report success ("stopped", "not running", exit 0)
// while the daemon's process still lives. A stand-in plays a daemon whose event loop is blocked:
// it holds the control socket without ever answering and ignores SIGTERM (a blocked loop never
// runs the handler), and its command line names insightsd, as the real one's does.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { InsightsError } from "../shared/base/errors.js";
import { isAlive } from "../shared/base/lifecycle/process-check.js";
import { resolvePaths, type Paths } from "../shared/base/paths.js";
import { stopDaemon, type SendSignal } from "./daemon-process.js";

const children: ChildProcess[] = [];
test.after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
});

/** A hung "insightsd": listening on `socket` (never answering), deaf to SIGTERM. Resolves once it listens. */
async function hungDaemon(paths: Paths, writePid: boolean): Promise<ChildProcess> {
  fs.mkdirSync(paths.runtimeDir, { recursive: true, mode: 0o700 });
  const script = `process.on("SIGTERM", () => {}); require("net").createServer(() => {}).listen(${JSON.stringify(paths.socketFile)}, () => process.stdout.write("ready\\n"));`;
  // The trailing argument puts "insightsd" in its /proc cmdline, as isInsightsDaemon expects of ours.
  const child = spawn(process.execPath, ["-e", script, "insightsd"], { stdio: ["ignore", "pipe", "ignore"] });
  children.push(child);
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  await pollUntil(() => out.includes("ready"), { timeoutMs: 30_000, what: "the stand-in to listen" });
  if (writePid) fs.writeFileSync(paths.pidFile, `${child.pid}\n`);
  return child;
}

const box = (): Paths => {
  const dir = mkdtempSync(join(tmpdir(), "gi-stop-"));
  return resolvePaths({ HOME: dir, XDG_STATE_HOME: join(dir, "s"), XDG_RUNTIME_DIR: join(dir, "r"), XDG_CONFIG_HOME: join(dir, "c") });
};

async function stopFailed(run: Promise<unknown>): Promise<InsightsError> {
  try {
    const outcome = await run;
    assert.unreachable(`stop reported ${JSON.stringify(outcome)} while the daemon still lives`);
  } catch (err) {
    if (!(err instanceof InsightsError)) throw err;
    assert.is(err.code, "STOP_FAILED");
    return err;
  }
  throw new Error("unreachable");
}

test("a hung daemon deaf to SIGTERM is killed, and stop returns only once its process is gone", async () => {
  const paths = box();
  const child = await hungDaemon(paths, true);
  const outcome = await stopDaemon(paths, { controlMs: 500, termMs: 1000, killMs: 30_000 });
  assert.equal(outcome, { result: "killed", pid: child.pid as number });
  assert.not.ok(isAlive(child.pid as number), "the process is gone when stop returns");
});

test("a daemon that outlives SIGKILL (stuck in the kernel) is reported still running, never stopped", async () => {
  const paths = box();
  const child = await hungDaemon(paths, true);
  // SIGTERM is really sent (and ignored); SIGKILL stands for one that a process in D state does not obey yet.
  const sent: string[] = [];
  const signal: SendSignal = (pid, sig) => {
    sent.push(sig);
    if (sig !== "SIGKILL") process.kill(pid, sig);
  };
  const err = await stopFailed(stopDaemon(paths, { controlMs: 500, termMs: 1000, killMs: 2000 }, signal));
  assert.equal(sent, ["SIGTERM", "SIGKILL"]);
  assert.match(err.message, new RegExp(`pid ${child.pid}\\) is still running`));
  assert.ok(isAlive(child.pid as number));
  assert.ok(fs.existsSync(paths.pidFile), "the pid file of a live daemon is kept");
});

test("a process holding the control socket without answering and with no pid file is not 'not running'", async () => {
  const paths = box();
  const child = await hungDaemon(paths, false);
  const err = await stopFailed(stopDaemon(paths, { controlMs: 500, termMs: 1000, killMs: 2000 }));
  assert.ok(err.message.includes(paths.socketFile), err.message);
  assert.ok(isAlive(child.pid as number));
  assert.ok(fs.existsSync(paths.socketFile), "its socket is not removed as a leftover");
});

test.run();
