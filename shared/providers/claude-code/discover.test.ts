import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { claudeCodeLookedAt, discoverClaudeCodeInstalls } from "./discover.js";
import { copyClaudeHome, makeTempDir, removeTempDirs } from "../../../test/helpers/claude-code-fixture.js";

test.after(removeTempDirs);

/** A dir Claude Code has written to (a projects/ dir), under `root`. */
function claudeDir(root: string, ...segments: string[]): string {
  const dir = path.join(root, ...segments);
  fs.mkdirSync(path.join(dir, "projects"), { recursive: true });
  return dir;
}

const summary = (r: ReturnType<typeof discoverClaudeCodeInstalls>) => r.installs.map((i) => [i.id, i.dir]);

test("the fixture as HOME: ~/.claude is the default install, with the ids and tags of design §9", () => {
  const { home, claudeDir: dir } = copyClaudeHome();
  const r = discoverClaudeCodeInstalls({ env: {}, home });
  assert.equal(r.problems, []);
  assert.equal(r.installs, [{ provider: "claude-code", id: "claude-code:default", localId: "default", name: "default", tags: ["claude-code", "default"], dir }]);
});

test("both default dirs when both exist; neither, or one Claude Code never wrote to, is nothing", () => {
  const home = makeTempDir();
  assert.equal(discoverClaudeCodeInstalls({ env: {}, home }).installs, []);
  fs.mkdirSync(path.join(home, ".claude"));
  fs.writeFileSync(path.join(home, ".claude", "settings.json"), "{}");
  assert.equal(discoverClaudeCodeInstalls({ env: {}, home }).installs, [], "settings only: not an install yet");
  const a = claudeDir(home, ".claude");
  const b = claudeDir(home, ".config", "claude");
  assert.equal(summary(discoverClaudeCodeInstalls({ env: {}, home })), [
    ["claude-code:default", a],
    ["claude-code:config-claude", b],
  ]);
  // sessions/ alone also counts (a first session still running).
  fs.rmSync(path.join(b, "projects"), { recursive: true });
  fs.mkdirSync(path.join(b, "sessions"));
  assert.is(discoverClaudeCodeInstalls({ env: {}, home }).installs.length, 2);
});

test("one dir reached twice (a symlink) is one install", () => {
  const home = makeTempDir();
  const a = claudeDir(home, ".claude");
  fs.mkdirSync(path.join(home, ".config"));
  fs.symlinkSync(a, path.join(home, ".config", "claude"));
  assert.equal(summary(discoverClaudeCodeInstalls({ env: {}, home })), [["claude-code:default", a]]);
});

test("CLAUDE_CONFIG_DIR: a comma-separated list replaces the defaults; names from the paths, stable in any order", () => {
  const home = makeTempDir();
  claudeDir(home, ".claude");
  const root = makeTempDir();
  const work = claudeDir(root, "work", ".claude");
  const other = claudeDir(root, "other", ".claude");
  const team = claudeDir(root, "Team Space");
  const empty = path.join(root, "empty");
  fs.mkdirSync(empty);
  const env = { CLAUDE_CONFIG_DIR: ` ${work},${other},, relative/dir ,${path.join(root, "missing")},${empty},${team},${work}/` };
  const r = discoverClaudeCodeInstalls({ env, home });
  assert.equal(r.problems, [], "the environment is not config: unusable entries are skipped");
  // A named dir Claude Code has not written to yet is read already: its sessions appear as they are written.
  assert.equal(summary(r), [
    ["claude-code:work-claude", work],
    ["claude-code:other-claude", other],
    ["claude-code:empty", empty],
    ["claude-code:team-space", team],
  ]);
  const reversed = discoverClaudeCodeInstalls({ env: { CLAUDE_CONFIG_DIR: [team, other, work].join(",") }, home });
  assert.equal(summary(reversed), [
    ["claude-code:team-space", team],
    ["claude-code:other-claude", other],
    ["claude-code:work-claude", work],
  ]);
  // The only entry is named by its last segment alone.
  assert.equal(summary(discoverClaudeCodeInstalls({ env: { CLAUDE_CONFIG_DIR: work }, home })), [["claude-code:claude", work]]);
});

test("lookedAt: the configured dirs, else CLAUDE_CONFIG_DIR's entries, else the two home dirs, each with what is there", () => {
  const home = makeTempDir();
  const data = claudeDir(home, "data");
  const empty = path.join(home, "empty");
  fs.mkdirSync(empty);
  const file = path.join(home, "file");
  fs.writeFileSync(file, "");
  const env = { CLAUDE_CONFIG_DIR: `${data},${empty},${file}` };
  assert.equal(claudeCodeLookedAt({ env, home }).map((l) => [l.dir, l.from, l.named, l.found]), [
    [data, "env CLAUDE_CONFIG_DIR", true, "data"],
    [empty, "env CLAUDE_CONFIG_DIR", true, "empty"],
    [file, "env CLAUDE_CONFIG_DIR", true, "not-a-directory"],
  ]);
  assert.equal(claudeCodeLookedAt({ env, home, dirs: [empty] }).map((l) => [l.dir, l.from, l.found]), [[empty, "config claudeCodeDirs", "empty"]]);
  claudeDir(home, ".claude");
  assert.equal(claudeCodeLookedAt({ env: {}, home }).map((l) => [l.dir, l.from, l.named, l.found]), [
    [path.join(home, ".claude"), "default", false, "data"],
    [path.join(home, ".config", "claude"), "default", false, "missing"],
  ]);
});

test("CLAUDE_CONFIG_DIR naming ~/.claude keeps the id `default`; a reserved name is not taken by another path", () => {
  const home = makeTempDir();
  const a = claudeDir(home, ".claude");
  const root = makeTempDir();
  const named = claudeDir(root, "default");
  const r = discoverClaudeCodeInstalls({ env: { CLAUDE_CONFIG_DIR: `${named},${a}` }, home });
  const ids = r.installs.map((i) => i.id);
  assert.is(r.installs.find((i) => i.dir === a)?.id, "claude-code:default");
  assert.is(new Set(ids).size, 2);
  assert.not.equal(r.installs.find((i) => i.dir === named)?.id, "claude-code:default");
});

test("paths equal but for characters a name cannot hold still get distinct ids", () => {
  const home = makeTempDir();
  const root = makeTempDir();
  const x = claudeDir(root, "a b");
  const y = claudeDir(root, "a_b");
  const z = claudeDir(root, "a.b");
  const ids = discoverClaudeCodeInstalls({ env: { CLAUDE_CONFIG_DIR: [x, y, z].join(",") }, home }).installs.map((i) => i.id);
  assert.is(new Set(ids).size, 3, ids.join(" "));
  for (const id of ids) assert.match(id, /^claude-code:[a-z0-9_-]+$/);
});

test("configured dirs: read even when empty; missing, not a dir or relative are problems for the caller", () => {
  const home = makeTempDir();
  claudeDir(home, ".claude");
  const root = makeTempDir();
  const fresh = path.join(root, "fresh");
  fs.mkdirSync(fresh);
  const file = path.join(root, "file");
  fs.writeFileSync(file, "");
  const r = discoverClaudeCodeInstalls({ env: { CLAUDE_CONFIG_DIR: path.join(home, ".claude") }, home, dirs: [fresh, path.join(root, "nope"), file, "rel/dir"] });
  assert.equal(summary(r), [["claude-code:fresh", fresh]], "env and defaults are not looked at");
  assert.equal(r.problems.map((p) => p.dir), [path.join(root, "nope"), file, "rel/dir"]);
});

test.run();
