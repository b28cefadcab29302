import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { findGatewayLock, lockFileName, parseLockContent } from "./lock-file.js";
import { FIXTURES_DIR } from "../../../../test/helpers/openclaw-fixtures.js";

const FIXTURE_TMP = path.join(FIXTURES_DIR, "openclaw-2026.9.6", "tmp");

function stateWithFixtureLock(): { stateDir: string; raw: Record<string, unknown>; file: string } {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  fs.cpSync(FIXTURE_TMP, path.join(stateDir, "tmp"), { recursive: true });
  const dir = path.join(stateDir, "tmp", "openclaw-0");
  const name = fs.readdirSync(dir).find((n) => n.endsWith(".lock"))!;
  const file = path.join(dir, name);
  fs.chmodSync(file, 0o644);
  return { stateDir, raw: JSON.parse(fs.readFileSync(file, "utf8")), file };
}

test("fixture lock: pid, port, createdAt, startTime", () => {
  const { stateDir, raw, file } = stateWithFixtureLock();
  const r = findGatewayLock(stateDir, { uid: 0 });
  assert.ok(r.ok);
  if (!r.ok || !r.value) throw new Error("no lock");
  assert.is(r.value.file, file);
  assert.is(r.value.pid, raw.pid);
  assert.is(r.value.port, raw.port);
  assert.is(r.value.createdAt, raw.createdAt);
  assert.is(r.value.createdAtMs, Date.parse(raw.createdAt as string));
  assert.is(r.value.startTime, raw.startTime);
  assert.is(r.value.ownerId, raw.ownerId);
  assert.equal(r.warnings, []);
});

test("the file name is sha256(config path) cut to 8 hex digits, as both real gateways named it", () => {
  // Names and paths of the locks a real 2026.9.6 and a real 2026.7.1 gateway wrote for these configs.
  assert.is(lockFileName("/tmp/gi-e2e/run1/state/openclaw.json"), "gateway.97316282.lock");
  assert.is(lockFileName("/tmp/gi-e2e/run2/state/openclaw.json"), "gateway.2c83d326.lock");
});

// Regression: a 2026.7.1 gateway keeps its lock in <os tmp>/openclaw-<uid>/, not under $STATE/tmp,
// so the lock (and with it the pid for CPU/RSS) was never found for a file-era gateway.
test("2026.7.1: the lock in the OS temp dir is found by the config path's hash; other gateways' are not", () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  const osTmp = fs.mkdtempSync(path.join(os.tmpdir(), "gi-ostmp-"));
  const dir = path.join(osTmp, "openclaw-0");
  fs.mkdirSync(dir);
  const configPath = path.join(stateDir, "openclaw.json");
  // Content exactly as 2026.7.1 wrote it: one compact line, no ownerId, no stateDir.
  const line = `{"pid":12457,"createdAt":"2026-11-23T14:37:53.111Z","configPath":${JSON.stringify(configPath)},"port":42455,"startTime":78030}`;
  fs.writeFileSync(path.join(dir, lockFileName(configPath)), line);
  fs.writeFileSync(path.join(dir, lockFileName("/elsewhere/openclaw.json")), JSON.stringify({ pid: 99, configPath: "/elsewhere/openclaw.json", port: 1, createdAt: "2026-11-23T15:00:00Z" }));
  const r = findGatewayLock(stateDir, { uid: 0, osTmpDirs: [osTmp] });
  assert.ok(r.ok);
  if (!r.ok || !r.value) throw new Error("no lock");
  assert.is(r.value.pid, 12457);
  assert.is(r.value.port, 42455);
  assert.is(r.value.startTime, 78030);
  assert.is(r.value.createdAtMs, Date.parse("2026-11-23T14:37:53.111Z"));
  assert.is(r.value.stateDir, null);
  assert.is(r.value.location, "os-tmp");
  // An OPENCLAW_CONFIG_PATH elsewhere names a different lock.
  const other = findGatewayLock(stateDir, { uid: 0, osTmpDirs: [osTmp], configPath: "/not/ours/openclaw.json" });
  assert.ok(other.ok && other.value === null);
  // A lock under another name still counts when its content names our config.
  fs.renameSync(path.join(dir, lockFileName(configPath)), path.join(dir, "gateway.0badc0de.lock"));
  const renamed = findGatewayLock(stateDir, { uid: 0, osTmpDirs: [osTmp] });
  assert.ok(renamed.ok && renamed.value?.pid === 12457);
});

test("a lock under $STATE/tmp wins over one in the OS temp dir", () => {
  const { stateDir, raw } = stateWithFixtureLock();
  const osTmp = fs.mkdtempSync(path.join(os.tmpdir(), "gi-ostmp-"));
  fs.mkdirSync(path.join(osTmp, "openclaw-0"));
  fs.writeFileSync(path.join(osTmp, "openclaw-0", lockFileName(path.join(stateDir, "openclaw.json"))), JSON.stringify({ pid: 5, port: 1 }));
  const r = findGatewayLock(stateDir, { uid: 0, osTmpDirs: [osTmp] });
  assert.ok(r.ok && r.value?.pid === raw.pid && r.value?.location === "state");
});

// Regression: with OPENCLAW_ALLOW_MULTI_GATEWAY=1 a real 2026.9.6 gateway writes no per-config lock,
// only gateway.state.lock, which was skipped by name, so the running gateway had no pid or port.
test("multi-gateway mode: gateway.state.lock (the only lock there) is used", () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  const dir = path.join(stateDir, "tmp", "openclaw-0");
  fs.mkdirSync(dir, { recursive: true });
  // Bytes as that gateway wrote them, its tab/space padding line included.
  const content =
    JSON.stringify(
      {
        pid: 30486,
        ownerId: "a5f44813-1f7c-40a1-8eed-c6db04da59e6",
        cronOwnerProjection: "dynamic-default-v1",
        createdAt: "2026-11-23T14:55:10.934Z",
        configPath: path.join(stateDir, "openclaw.json"),
        stateDir,
        port: 46621,
        startTime: 180936,
      },
      null,
      2,
    ) +
    "\n\t\t\t\t\t\t\t\t  \t \t\t\t\t \t \t  \t \t\t\t\t \t  \t   \t \t       \t\t \t     \t\t\t\t\t \t \t\t\t\t\t\t   \t\t   \t\t \t\t  \t\t\t\t\t\t \t \t\t\t    \t\t\t\t \t\t\t\t \t     \t\t \t\t \t   \t \t\t  \t\t\t \n";
  fs.writeFileSync(path.join(dir, "gateway.state.lock"), content);
  for (const f of ["gateway.state.lock.sqlite", "gateway.a45a75d2.lock.sqlite", "device-identity.dabb1aea.lock.sqlite"]) fs.writeFileSync(path.join(dir, f), "");
  const r = findGatewayLock(stateDir, { uid: 0, osTmpDirs: [stateDir] });
  assert.ok(r.ok);
  if (!r.ok || !r.value) throw new Error("no lock");
  assert.equal([r.value.pid, r.value.port, r.value.startTime, r.value.kind, r.value.location], [30486, 46621, 180936, "state-owner", "state"]);
  assert.equal(r.warnings, []);
  // With both present (the normal case) the per-config lock is the answer.
  fs.writeFileSync(path.join(dir, "gateway.a45a75d2.lock"), JSON.stringify({ pid: 30486, port: 46621, createdAt: "2026-11-23T14:55:10.935Z", startTime: 180936 }));
  const both = findGatewayLock(stateDir, { uid: 0, osTmpDirs: [stateDir] });
  assert.ok(both.ok && both.value?.kind === "config");
});

test("padding after the JSON (newline, tabs, spaces, NULs) is tolerated", () => {
  const { stateDir, raw, file } = stateWithFixtureLock();
  fs.writeFileSync(file, JSON.stringify(raw, null, 2) + "\n\t\t    \t  \n" + "\0".repeat(16));
  const r = findGatewayLock(stateDir, { uid: 0 });
  assert.ok(r.ok && r.value?.pid === raw.pid);
  assert.is(parseLockContent('{"pid": 7, "port": 1}\n  garbage')?.pid, 7);
});

test("another uid's dir is scanned when ours has no lock", () => {
  const { stateDir, raw } = stateWithFixtureLock();
  const r = findGatewayLock(stateDir, { uid: 4242 });
  assert.ok(r.ok && r.value?.pid === raw.pid);
});

test("our uid's dir wins; among several locks the newest createdAt wins", () => {
  const { stateDir } = stateWithFixtureLock();
  const own = path.join(stateDir, "tmp", "openclaw-1000");
  fs.mkdirSync(own);
  fs.writeFileSync(path.join(own, "gateway.aaaaaaaa.lock"), JSON.stringify({ pid: 11, port: 1, createdAt: "2026-11-21T10:00:00Z", startTime: 1 }));
  fs.writeFileSync(path.join(own, "gateway.bbbbbbbb.lock"), JSON.stringify({ pid: 22, port: 2, createdAt: "2026-11-21T11:00:00Z", startTime: 2 }));
  fs.writeFileSync(path.join(own, "gateway.state.lock"), "not json");
  fs.writeFileSync(path.join(own, "gateway.aaaaaaaa.lock.sqlite"), "sqlite");
  const r = findGatewayLock(stateDir, { uid: 1000 });
  assert.ok(r.ok);
  if (r.ok) {
    assert.is(r.value?.pid, 22);
    assert.equal(r.warnings, []);
  }
});

test("no tmp dir or no lock -> null; unparsable lock -> warning and null", () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  const r0 = findGatewayLock(empty, { uid: 0, osTmpDirs: [empty] });
  assert.ok(r0.ok && r0.value === null);

  const { stateDir, file } = stateWithFixtureLock();
  fs.writeFileSync(file, "\0\0\0 half-written {\"pid\":");
  const r = findGatewayLock(stateDir, { uid: 0, osTmpDirs: [stateDir] });
  assert.ok(r.ok);
  if (r.ok) {
    assert.is(r.value, null);
    assert.equal(r.warnings.map((w) => w.code), ["UNKNOWN_FORMAT"]);
    assert.is(r.warnings[0]!.where, file);
  }
  assert.is(parseLockContent('{"pid":"5283"}'), null);
  assert.is(parseLockContent("[1]"), null);
});

test.run();
