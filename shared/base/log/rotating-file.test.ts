import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { InsightsError } from "../errors.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { LogHub } from "./logger.js";
import { RotatingFile } from "./rotating-file.js";
import { readLastRecords } from "./tail.js";

test("the log is size-capped and rotated, never unbounded", () => {
  const dir = mkdtempSync(join(tmpdir(), "gi-log-"));
  const path = join(dir, "daemon.log");
  const file = new RotatingFile(path, { maxBytes: 4096, maxFiles: 3 });
  const line = JSON.stringify({ pad: "x".repeat(100) });
  for (let i = 0; i < 1000; i++) file.write(line);
  file.close();
  for (const p of [path, `${path}.1`, `${path}.2`, `${path}.3`]) {
    assert.ok(existsSync(p), p);
    assert.ok(statSync(p).size <= 4096, `${p} is ${statSync(p).size} bytes`);
  }
  assert.not.ok(existsSync(`${path}.4`));
  assert.is(statSync(path).mode & 0o777, 0o600);
});

test("records go to the file as JSON lines and are read back across rotation", () => {
  const dir = mkdtempSync(join(tmpdir(), "gi-log-"));
  const path = join(dir, "daemon.log");
  const hub = new LogHub({ level: "debug", console: "off", file: new RotatingFile(path, { maxBytes: 2048, maxFiles: 5 }) });
  const log = hub.logger.child("test");
  for (let i = 0; i < 60; i++) log.info(`line ${i}`, { i });
  log.debug("a debug line");
  log.trace("not written at debug level");
  log.warn("last warning", { code: 7 });
  hub.close();
  const first = JSON.parse(readFileSync(path, "utf8").trim().split("\n")[0] as string) as Record<string, unknown>;
  assert.is(typeof first.time, "string");
  assert.is(first.module, "test");
  assert.ok(existsSync(`${path}.1`), "rotated at least once");
  const last = readLastRecords(path, 5, 30);
  assert.is(last.length, 30);
  assert.is(last.at(-1)?.msg, "last warning");
  assert.is(last.at(-1)?.code, 7);
  assert.is(last.at(-2)?.msg, "a debug line");
  assert.is(last[0]?.msg, "line 32");
  assert.ok(!last.some((r) => r.msg.includes("not written")));
  const warnings = readLastRecords(path, 5, 10, "warn");
  assert.equal(warnings.map((r) => r.msg), ["last warning"]);
});

test("subscribers and the ring see records; level changes apply at once", () => {
  const hub = new LogHub({ level: "info", console: "off", ringSize: 5 });
  const seen: string[] = [];
  const off = hub.subscribe((r) => seen.push(r.msg));
  for (let i = 0; i < 8; i++) hub.logger.info(`m${i}`);
  hub.logger.debug("hidden");
  hub.setLevel("debug");
  hub.logger.debug("shown");
  off();
  hub.logger.info("after unsubscribe");
  assert.equal(seen, ["m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "shown"]);
  assert.equal(hub.recent(3).map((r) => r.msg), ["m7", "shown", "after unsubscribe"]);
  // `logs -f -n 0`: no past line at all, not the whole ring (slice(-0) is everything).
  assert.equal(hub.recent(0), []);
  assert.equal(hub.recent(0, "info"), []);
});

test("json console mode writes one object per line", () => {
  const chunks: string[] = [];
  const stream = { write: (s: string) => chunks.push(s), isTTY: false } as unknown as NodeJS.WriteStream;
  const hub = new LogHub({ level: "info", stream });
  hub.logger.child("mod").info("hello", { n: 1 });
  assert.is(chunks.length, 1);
  const rec = JSON.parse(chunks[0] as string) as Record<string, unknown>;
  assert.equal({ level: rec.level, module: rec.module, msg: rec.msg, n: rec.n }, { level: "info", module: "mod", msg: "hello", n: 1 });
});

test("a linked daemon.log is refused and its target never appended to or chmodded", () => {
  const dir = mkdtempSync(join(tmpdir(), "gi-log-"));
  const target = join(mkdtempSync(join(tmpdir(), "gi-elsewhere-")), "bashrc");
  writeFileSync(target, "original\n");
  chmodSync(target, 0o644);
  const path = join(dir, "daemon.log");
  symlinkSync(target, path);
  try {
    const file = new RotatingFile(path, { maxBytes: 4096, maxFiles: 3 });
    file.write("appended through the link");
    file.close();
    assert.unreachable("a linked log must be refused");
  } catch (err) {
    assert.is((err as InsightsError).code, "UNSAFE_PATH");
  }
  assert.is(readFileSync(target, "utf8"), "original\n");
  assert.is(statSync(target).mode & 0o777, 0o644);
});

test("the log and its rotated generations are made private when opened", () => {
  const dir = mkdtempSync(join(tmpdir(), "gi-log-"));
  const path = join(dir, "daemon.log");
  for (const p of [path, `${path}.1`, `${path}.2`]) {
    writeFileSync(p, "{}\n");
    chmodSync(p, 0o644);
  }
  const file = new RotatingFile(path, { maxBytes: 4096, maxFiles: 3 });
  file.close();
  for (const p of [path, `${path}.1`, `${path}.2`]) assert.is(statSync(p).mode & 0o777, 0o600, p);
});

test.run();
