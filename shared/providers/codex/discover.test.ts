import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { codexLookedAt, discoverCodexInstalls } from "./discover.js";
import { makeTempDir, removeTempDirs } from "../../../test/helpers/codex-fixture.js";

test.after(removeTempDirs);

function codexHome(root: string, rel: string, what: "sessions" | "archived_sessions" | "state_5.sqlite" | "nothing" = "sessions"): string {
  const dir = path.join(root, rel);
  fs.mkdirSync(dir, { recursive: true });
  if (what === "state_5.sqlite") fs.writeFileSync(path.join(dir, what), "");
  else if (what !== "nothing") fs.mkdirSync(path.join(dir, what));
  return dir;
}

test("~/.codex is the default install once Codex wrote sessions there", () => {
  const home = makeTempDir();
  assert.equal(discoverCodexInstalls({ env: {}, home }), { installs: [], problems: [] });
  codexHome(home, ".codex", "nothing");
  assert.equal(discoverCodexInstalls({ env: {}, home }).installs, [], "an empty ~/.codex is not an install");
  for (const what of ["sessions", "archived_sessions", "state_5.sqlite"] as const) {
    const h = makeTempDir();
    const dir = codexHome(h, ".codex", what);
    assert.equal(discoverCodexInstalls({ env: {}, home: h }).installs, [{ provider: "codex", id: "codex:default", localId: "default", name: "default", tags: ["codex", "default"], dir }], what);
  }
});

test("$CODEX_HOME replaces ~/.codex as the default; a relative one is not guessed", () => {
  const home = makeTempDir();
  codexHome(home, ".codex");
  const other = codexHome(home, "elsewhere/codex-home");
  const found = discoverCodexInstalls({ env: { CODEX_HOME: other }, home });
  assert.equal(found.installs.map((i) => [i.id, i.dir]), [["codex:default", other]]);
  assert.equal(discoverCodexInstalls({ env: { CODEX_HOME: "relative/dir" }, home }).installs, []);
});

test("a $CODEX_HOME that exists is read before Codex wrote there; lookedAt says where it looked and what it found", () => {
  const home = makeTempDir();
  const named = codexHome(home, "named", "nothing");
  assert.equal(discoverCodexInstalls({ env: { CODEX_HOME: named }, home }).installs.map((i) => [i.id, i.dir]), [["codex:default", named]]);
  const data = codexHome(home, "with-data");
  const gone = path.join(home, "typo");
  assert.equal(codexLookedAt({ env: { CODEX_HOME: named }, home, dirs: [data, gone, "rel"] }), [
    { provider: "codex", dir: named, from: "env CODEX_HOME", named: true, found: "empty" },
    { provider: "codex", dir: data, from: "config codexDirs", named: true, found: "data" },
    { provider: "codex", dir: gone, from: "config codexDirs", named: true, found: "missing" },
    { provider: "codex", dir: "rel", from: "config codexDirs", named: true, found: "not-absolute" },
  ]);
  assert.equal(codexLookedAt({ env: {}, home }), [{ provider: "codex", dir: path.join(home, ".codex"), from: "default", named: false, found: "missing" }]);
});

test("configured dirs are added with names from their paths, de-collided, order-independent; missing ones are problems", () => {
  const home = makeTempDir();
  const def = codexHome(home, ".codex");
  const a = codexHome(home, "ci/a/.codex", "nothing");
  const b = codexHome(home, "ci/b/.codex");
  const c = codexHome(home, "work/codex-home");
  const missing = path.join(home, "nope");
  const one = discoverCodexInstalls({ env: {}, home, dirs: [a, b, c, missing, "rel/path", def] });
  assert.equal(one.installs.map((i) => [i.id, i.dir]), [
    ["codex:default", def],
    ["codex:a-codex", a],
    ["codex:b-codex", b],
    ["codex:codex-home", c],
  ]);
  assert.equal(one.problems.map((p) => p.dir), [missing, "rel/path"]);
  const reversed = discoverCodexInstalls({ env: {}, home, dirs: [c, b, a] });
  assert.equal(new Map(reversed.installs.map((i) => [i.dir, i.id])), new Map(one.installs.map((i) => [i.dir, i.id])));
  for (const i of one.installs) assert.equal(i.tags, ["codex", i.name]);
});

test("a configured dir named like the default does not take its name; the same dir twice is one install", () => {
  const home = makeTempDir();
  codexHome(home, ".codex");
  const x = codexHome(home, "srv/default");
  const link = path.join(home, "link");
  fs.symlinkSync(x, link);
  const found = discoverCodexInstalls({ env: {}, home, dirs: [x, link] });
  assert.equal(found.installs.map((i) => i.id), ["codex:default", "codex:srv-default"]);
});

test.run();
