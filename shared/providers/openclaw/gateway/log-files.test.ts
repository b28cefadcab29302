import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  defaultLogDirs,
  existingLogFamily,
  listDatedLogFiles,
  localDate,
  logFamilyPaths,
  logPathResolver,
  resolveLogFile,
  rotatedLogPath,
} from "./log-files.js";
import { FIXTURES_DIR } from "../../../../test/helpers/openclaw-fixtures.js";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
// 2026-11-21 23:30 UTC is already 2026-11-22 in Tokyo and still 2026-11-21 in New York.
const LATE = Date.UTC(2026, 10, 21, 23, 30);

test("localDate uses the given time zone, else host-local", () => {
  assert.is(localDate(LATE, "UTC"), "2026-11-21");
  assert.is(localDate(LATE, "Asia/Tokyo"), "2026-11-22");
  assert.is(localDate(LATE, "America/New_York"), "2026-11-21");
  const d = new Date(LATE);
  assert.is(localDate(LATE), `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`);
});

test("rotated names put the number before the extension", () => {
  assert.is(rotatedLogPath("/tmp/openclaw/openclaw-2026-11-21.log", 1), "/tmp/openclaw/openclaw-2026-11-21.1.log");
  assert.is(rotatedLogPath("/var/log/gw.log", 5), "/var/log/gw.5.log");
  assert.is(rotatedLogPath("/var/log/gateway", 2), "/var/log/gateway.2");
  assert.equal(logFamilyPaths("/a/x.log"), ["/a/x.5.log", "/a/x.4.log", "/a/x.3.log", "/a/x.2.log", "/a/x.1.log", "/a/x.log"]);
});

test("default path: <tmpRoot>/openclaw/openclaw-<local date>.log, uid fallback dir when only that exists", () => {
  const root = tmp();
  const opts = { tmpRoot: root, uid: 1234, timeZone: "Asia/Tokyo" };
  assert.equal(defaultLogDirs(opts), [path.join(root, "openclaw"), path.join(root, "openclaw-1234")]);
  const none = resolveLogFile(LATE, opts);
  assert.is(none.path, path.join(root, "openclaw", "openclaw-2026-11-22.log"));
  assert.is(none.exists, false);
  assert.is(none.dated, true);
  assert.is(none.origin, "default");

  fs.mkdirSync(path.join(root, "openclaw-1234"));
  fs.writeFileSync(path.join(root, "openclaw-1234", "openclaw-2026-11-22.log"), "");
  const fallback = resolveLogFile(LATE, opts);
  assert.is(fallback.path, path.join(root, "openclaw-1234", "openclaw-2026-11-22.log"));
  assert.is(fallback.exists, true);

  fs.mkdirSync(path.join(root, "openclaw"));
  fs.writeFileSync(path.join(root, "openclaw", "openclaw-2026-11-22.log"), "");
  assert.is(resolveLogFile(LATE, opts).path, path.join(root, "openclaw", "openclaw-2026-11-22.log"));
});

test("profile goes into the default name", () => {
  const root = tmp();
  assert.is(resolveLogFile(LATE, { tmpRoot: root, profile: "dev", timeZone: "UTC" }).path, path.join(root, "openclaw", "openclaw-dev-2026-11-21.log"));
  assert.is(resolveLogFile(LATE, { tmpRoot: root, profile: "default", timeZone: "UTC" }).path, path.join(root, "openclaw", "openclaw-2026-11-21.log"));
});

test("logging.file: a dated rolling name is re-dated, any other name is fixed", () => {
  const root = tmp();
  const dated = resolveLogFile(LATE, { configuredFile: path.join(root, "logs", "openclaw-2026-11-21.log"), timeZone: "Asia/Tokyo" });
  assert.is(dated.path, path.join(root, "logs", "openclaw-2026-11-22.log"));
  assert.is(dated.dated, true);
  assert.is(dated.origin, "config");

  const fixed = resolveLogFile(LATE, { configuredFile: path.join(root, "gw.log"), timeZone: "Asia/Tokyo" });
  assert.is(fixed.path, path.join(root, "gw.log"));
  assert.is(fixed.dated, false);
  const resolve = logPathResolver({ configuredFile: path.join(root, "gw.log") });
  assert.is(resolve(LATE), resolve(LATE + 86_400_000));
});

test("the fixture's logging.file resolves to the fixture log on its own date", () => {
  const fixture = path.join(FIXTURES_DIR, "openclaw-2026.9.6");
  const cfg = JSON.parse(fs.readFileSync(path.join(fixture, "openclaw.json"), "utf8")) as { logging: { file: string } };
  const configuredFile = path.resolve(fixture, cfg.logging.file);
  const loc = resolveLogFile(Date.UTC(2026, 10, 21, 12), { configuredFile, timeZone: "UTC" });
  assert.is(loc.path, path.join(fixture, "logs", "openclaw-2026-11-21.log"));
  assert.is(loc.exists, true);
});

test("existingLogFamily lists archives oldest first, then the active file; listDatedLogFiles sorts dates", () => {
  const root = tmp();
  const active = path.join(root, "openclaw-2026-11-21.log");
  fs.writeFileSync(active, "a\n");
  fs.writeFileSync(rotatedLogPath(active, 1), "bb\n");
  fs.writeFileSync(rotatedLogPath(active, 3), "ccc\n");
  fs.writeFileSync(path.join(root, "openclaw-2026-11-20.log"), "");
  fs.writeFileSync(path.join(root, "openclaw-dev-2026-11-19.log"), "");
  const fam = existingLogFamily(active);
  assert.equal(fam.map((f) => [path.basename(f.path), f.rotation, f.size]), [
    ["openclaw-2026-11-21.3.log", 3, 4],
    ["openclaw-2026-11-21.1.log", 1, 3],
    ["openclaw-2026-11-21.log", 0, 2],
  ]);
  assert.equal(listDatedLogFiles(active).map((f) => f.date), ["2026-11-20", "2026-11-21"]);
});

test.run();
