// Gemini CLI's layout as the demo uses it: the slug rule (a collision gets "-1"), the registry, and
// the bundled demo moved in time the way the demo install moves the others (shiftProviderTree)
// followed by renameSessionsToStart: every session file then carries its header's new minute, the
// times move by the offset, and the counts stay as they were.
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "../../../../test/helpers/openclaw-fixtures.js";
import { expected, sessionFiles } from "../../../../test/helpers/gemini-oracle.js";
import { shiftProviderTree } from "../../demo-kit/tree-shift.js";
import { recordingShift } from "../../demo-kit/time-shift.js";
import { ensureProject, renameSessionsToStart, sessionFileName, slugFor } from "./layout.js";

test.after(removeTempDirs);

const DEMO = join(import.meta.dirname, "..", "..", "..", "demo");

test("slugs: basename lower-cased, other characters one dash, '-N' on a collision; the registry keeps them", () => {
  assert.is(slugFor("/home/op/My App!!", new Set()), "my-app");
  assert.is(slugFor("/home/op/x/app", new Set(["app", "app-1"])), "app-2");
  assert.is(slugFor("/", new Set()), "project");
  const dir = makeTempDir();
  assert.equal([ensureProject(dir, "/a/app"), ensureProject(dir, "/b/app"), ensureProject(dir, "/a/app")], ["app", "app-1", "app"]);
  assert.equal(JSON.parse(readFileSync(join(dir, "projects.json"), "utf8")), { projects: { "/a/app": "app", "/b/app": "app-1" } });
  assert.is(readFileSync(join(dir, "tmp", "app-1", ".project_root"), "utf8"), "/b/app");
  assert.is(sessionFileName(Date.parse("2027-01-02T03:04:59.999Z"), "abcdef12-3456"), "session-2027-01-02T03-04-abcdef12.jsonl");
});

test("the bundle moved in time: names follow the headers' minutes, times move by the offset, counts stay", () => {
  const manifest = JSON.parse(readFileSync(join(DEMO, "demo-state.json"), "utf8")) as { geminiCli: { home: string; configDir: string; recordedFrom: number; recordedUntil: number } };
  const rec = manifest.geminiCli;
  const home = makeTempDir();
  cpSync(join(DEMO, rec.home), home, { recursive: true });
  const gemini = join(home, rec.configDir);
  const before = sessionFiles(gemini);
  const now = Date.parse("2027-06-15T08:17:31.000Z");
  const shift = recordingShift(rec.recordedFrom, rec.recordedUntil, now);
  shiftProviderTree(home, shift, { seconds: false });
  renameSessionsToStart(gemini);
  const after = sessionFiles(gemini);
  assert.is(after.length, before.length);
  for (const f of after.filter((x) => x.kind === "main")) {
    assert.is(basename(f.file), sessionFileName(Date.parse(String(f.lines[0]?.startTime)), f.sessionId), f.rel);
  }
  const t = (fs: typeof before): number[] => fs.flatMap((f) => f.lines.filter((l) => typeof l.timestamp === "string").map((l) => Date.parse(String(l.timestamp)))).sort((a, b) => a - b);
  assert.equal(t(after), t(before).map((x) => x + shift.offsetMs));
  assert.ok(Math.max(...t(after)) <= now, "the recording ends by now");
  const a = expected(after).total;
  const b = expected(before).total;
  assert.equal(a, b);
  // Nothing but session files was renamed.
  assert.equal(readdirSync(gemini).sort(), ["history", "projects.json", "settings.json", "tmp", "trustedFolders.json"]);
});

test.run();
