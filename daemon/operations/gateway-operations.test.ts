import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil, systemClock } from "../../shared/base/clock.js";
import { LogHub } from "../../shared/base/log/logger.js";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { GatewayOperations } from "./gateway-operations.js";

test.after(removeTempDirs);
const logger = new LogHub({ console: "off" }).logger;
/** The fakes below ignore their arguments; these only fill the option. */
const args = { restart: ["gateway", "restart"], update: ["update", "--yes"] };
const isAlive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));

test("a timed-out operation kills what the launcher started too, and frees the slot at once", async () => {
  const dir = makeTempDir();
  const pidFile = join(dir, "child.pid");
  const fake = join(dir, "openclaw");
  // Like the real launcher: it starts a second process that ignores SIGTERM and keeps the pipes.
  writeFileSync(fake, `#!/bin/sh\n( trap '' TERM; echo started; while :; do sleep 1; done ) &\necho $! > "${pidFile}"\nwait\n`);
  chmodSync(fake, 0o755);
  const ops = new GatewayOperations({ clock: systemClock, logger, args, command: () => fake, env: () => process.env, timeoutsMs: { restart: 500 } });
  const started = Date.now();
  const r = await ops.run("restart", { auth: "bearer", peer: "127.0.0.1" });
  assert.is(r.ok, false);
  assert.match(r.message, /did not finish within \d+ s and was stopped/);
  assert.match(r.output, /started/);
  assert.ok(Date.now() - started < 5000, `returned after ${Date.now() - started} ms`);
  const child = Number(readFileSync(pidFile, "utf8"));
  await pollUntil(() => !isAlive(child), { what: "the launcher's child to be gone" });
  assert.is(ops.running, null);
});

test("only the tail of a long output is kept", async () => {
  const dir = makeTempDir();
  const fake = join(dir, "openclaw");
  writeFileSync(fake, `#!/bin/sh\ni=0\nwhile [ $i -lt 20000 ]; do echo "line $i of the update"; i=$((i+1)); done\necho done\n`);
  chmodSync(fake, 0o755);
  const ops = new GatewayOperations({ clock: systemClock, logger, args, command: () => fake, env: () => process.env });
  const r = await ops.run("update", { auth: "cookie", peer: "127.0.0.1" });
  assert.is(r.ok, true);
  assert.ok(r.output.length <= 64 * 1024);
  assert.match(r.output, /line 19999 of the update\ndone\n$/);
});

test("demo mode refuses without running anything", async () => {
  const ops = new GatewayOperations({ clock: systemClock, logger, args, command: () => "/nonexistent", env: () => process.env, refuse: () => "demo mode: there is no gateway to control" });
  assert.equal(await ops.run("restart", { auth: "bearer", peer: "::1" }), { ok: false, message: "demo mode: there is no gateway to control", output: "", durationMs: 0 });
});

test.run();
