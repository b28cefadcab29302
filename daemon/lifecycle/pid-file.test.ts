import { existsSync, lstatSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InsightsError } from "../../shared/base/errors.js";
import { acquirePidFile } from "./pid-file.js";

const pidPath = (): string => join(mkdtempSync(join(tmpdir(), "gi-pid-")), "daemon.pid");

test("takes the pid file 0600 and gives it back", () => {
  const path = pidPath();
  const lock = acquirePidFile(path, 4242, () => false);
  assert.is(readFileSync(path, "utf8").trim(), "4242");
  assert.is(statSync(path).mode & 0o777, 0o600);
  assert.is(lock.replacedStalePid, null);
  lock.release();
  assert.not.ok(existsSync(path));
});

test("refuses while the recorded daemon runs", () => {
  const path = pidPath();
  writeFileSync(path, "777\n");
  try {
    acquirePidFile(path, 4242, (pid) => pid === 777);
    assert.unreachable();
  } catch (err) {
    assert.is((err as InsightsError).code, "ALREADY_RUNNING");
    assert.match((err as Error).message, /pid 777/);
  }
  assert.is(readFileSync(path, "utf8").trim(), "777", "the running daemon's file is untouched");
});

test("replaces a stale pid (dead, reused by another program, or garbage)", () => {
  for (const content of ["999999\n", "garbage", ""]) {
    const path = pidPath();
    writeFileSync(path, content);
    const lock = acquirePidFile(path, 4242, () => false);
    assert.is(readFileSync(path, "utf8").trim(), "4242");
    assert.is(lock.replacedStalePid, content === "999999\n" ? 999999 : null);
    lock.release();
  }
});

test("release leaves a file that is no longer ours", () => {
  const path = pidPath();
  const lock = acquirePidFile(path, 4242, () => false);
  writeFileSync(path, "5555\n");
  lock.release();
  assert.ok(existsSync(path));
});

test("a pid file that is a link is refused, and what it points at is not touched", () => {
  const path = pidPath();
  const target = join(mkdtempSync(join(tmpdir(), "gi-elsewhere-")), "victim");
  writeFileSync(target, "777\n");
  symlinkSync(target, path);
  try {
    acquirePidFile(path, 4242, (pid) => pid === 777);
    assert.unreachable();
  } catch (err) {
    assert.is((err as InsightsError).code, "UNSAFE_PATH");
  }
  assert.is(readFileSync(target, "utf8"), "777\n");
  assert.ok(lstatSync(path).isSymbolicLink(), "left for the operator to look at");
});

test.run();
