import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { DAEMON_GLIBC_TUNABLES, daemonEnv, startFailure } from "./daemon-process.js";

const logLine = (level: string, msg: string, extra: Record<string, unknown> = {}): string => JSON.stringify({ time: "2026-11-21T12:00:00.000Z", level, module: "daemon", msg, ...extra });

test("a failed start is told by the daemon's own last line, not its JSON log", () => {
  const stderr = [logLine("info", "generated a new API token"), logLine("error", "start failed", { error: "127.0.0.1:41080 is already in use" }), "insightsd: 127.0.0.1:41080 is already in use; choose another port", ""].join("\n");
  assert.is(startFailure(stderr, 1), "127.0.0.1:41080 is already in use; choose another port");
});

test("without that line: the last error record, then a thrown Error line, then the exit code", () => {
  assert.is(startFailure([logLine("info", "x"), logLine("error", "start failed", { error: "disk full" })].join("\n"), 1), "disk full");
  const crash = ["file:///x/dist/daemon/main.js:3", "import { nope } from 'y';", "         ^^^^", "SyntaxError: The requested module 'y' does not provide an export named 'nope'", "    at ModuleJob._instantiate"].join("\n");
  assert.is(startFailure(crash, 1), "SyntaxError: The requested module 'y' does not provide an export named 'nope'");
  assert.is(startFailure("", 7), "insightsd exited with code 7");
  assert.is(startFailure(logLine("info", "only info"), null), "");
});

test("the daemon starts with the fixed malloc threshold, as the systemd unit sets it; a setting of the user's own wins", () => {
  assert.is(daemonEnv({ PATH: "/bin" }).GLIBC_TUNABLES, DAEMON_GLIBC_TUNABLES);
  assert.is(daemonEnv({ PATH: "/bin" }).PATH, "/bin");
  assert.is(daemonEnv({ GLIBC_TUNABLES: "glibc.malloc.arena_max=1" }).GLIBC_TUNABLES, "glibc.malloc.arena_max=1");
  const unit = readFileSync(new URL("../systemd/gateway-insights.service", import.meta.url), "utf8");
  assert.ok(unit.split("\n").includes(`Environment=GLIBC_TUNABLES=${DAEMON_GLIBC_TUNABLES}`), "the unit sets the same");
});

test.run();
