import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { findGatewayLock, parseLockContent } from "./lock-file.js";

const FIXTURE_TMP = "/work/shared/fixtures/openclaw-2026.9.6/tmp";

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
  const r0 = findGatewayLock(empty, { uid: 0 });
  assert.ok(r0.ok && r0.value === null);

  const { stateDir, file } = stateWithFixtureLock();
  fs.writeFileSync(file, "\0\0\0 half-written {\"pid\":");
  const r = findGatewayLock(stateDir, { uid: 0 });
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
