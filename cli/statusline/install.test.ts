import fs from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InsightsError } from "../../shared/base/errors.js";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { BACKUP_SUFFIX, install, uninstall } from "./install.js";

const SELF = "'/usr/bin/node' '/opt/gi/dist/cli/insightsctl.cjs'";
const settingsOf = (dir: string): Record<string, unknown> => JSON.parse(fs.readFileSync(join(dir, "settings.json"), "utf8")) as Record<string, unknown>;

test.after(removeTempDirs);

test("install into a missing settings.json, then uninstall: the status line comes and goes, nothing else is made", () => {
  const dir = makeTempDir("gi-cc-");
  const env = { CLAUDE_CONFIG_DIR: dir };
  assert.is(install(env, SELF).action, "installed");
  assert.equal(settingsOf(dir).statusLine, { type: "command", command: `${SELF} statusline`, padding: 0 });
  assert.is(fs.statSync(join(dir, "settings.json")).mode & 0o777, 0o600);
  assert.is(install(env, SELF).action, "already", "a second install changes nothing");
  assert.is(uninstall(env, SELF).action, "removed");
  assert.equal(settingsOf(dir), {});
});

test("an existing statusLine is kept and chained (its output first), the file backed up; uninstall puts it back and keeps later edits", () => {
  const dir = makeTempDir("gi-cc-");
  const env = { CLAUDE_CONFIG_DIR: dir };
  const mine = { type: "command", command: "bash ~/bin/it's-mine.sh", padding: 2 };
  const before = { model: "opus", statusLine: mine, permissions: { allow: ["Bash(ls)"] } };
  const text = JSON.stringify(before, null, 4);
  fs.writeFileSync(join(dir, "settings.json"), text, { mode: 0o644 });
  const r = install(env, SELF);
  assert.is(r.action, "chained");
  assert.is(r.previous, mine.command);
  assert.is(fs.readFileSync(join(dir, "settings.json") + BACKUP_SUFFIX, "utf8"), text, "the backup is the file as it was");
  const after = settingsOf(dir);
  assert.equal(after.permissions, before.permissions);
  assert.is(after.model, before.model);
  assert.equal(after.statusLine, { type: "command", command: `${SELF} statusline --chain 'bash ~/bin/it'\\''s-mine.sh'`, padding: mine.padding });
  assert.is(fs.statSync(join(dir, "settings.json")).mode & 0o777, 0o644, "the file's mode is kept");
  // The user changes something else meanwhile: uninstall keeps it.
  fs.writeFileSync(join(dir, "settings.json"), JSON.stringify({ ...after, model: "sonnet" }));
  const u = uninstall(env, SELF);
  assert.is(u.action, "restored");
  assert.equal(settingsOf(dir), { ...before, model: "sonnet" });
  assert.not.ok(fs.existsSync(join(dir, "settings.json") + BACKUP_SUFFIX));
});

test("a status line an earlier version installed (dist/cli/main.js) is updated to this bin, its --chain kept; uninstall still puts back the user's own", () => {
  const dir = makeTempDir("gi-cc-");
  const env = { CLAUDE_CONFIG_DIR: dir };
  const mine = { type: "command", command: "echo mine", padding: 1 };
  const text = JSON.stringify({ statusLine: mine });
  fs.writeFileSync(join(dir, "settings.json"), text);
  const earlier = "'/usr/bin/node' '/opt/old/dist/cli/main.js'";
  assert.is(install(env, earlier).action, "chained");
  const chained = (settingsOf(dir).statusLine as { command: string }).command;
  const r = install(env, SELF);
  assert.is(r.action, "updated");
  assert.is(r.previous, chained);
  assert.equal(settingsOf(dir).statusLine, { ...mine, command: `${SELF} statusline --chain 'echo mine'` });
  assert.is(install(env, SELF).action, "already");
  assert.is(uninstall(env, SELF).action, "restored");
  assert.equal(settingsOf(dir), { statusLine: mine });
});

test("a settings.json that is not a JSON object is refused with SETTINGS_INVALID and left byte for byte", () => {
  for (const bad of ["{ \"statusLine\": ", "[1, 2]", "\"text\""]) {
    const dir = makeTempDir("gi-cc-");
    fs.writeFileSync(join(dir, "settings.json"), bad);
    for (const run of [install, uninstall]) {
      try {
        run({ CLAUDE_CONFIG_DIR: dir }, SELF);
        assert.unreachable(`${run.name} took ${bad}`);
      } catch (err) {
        assert.instance(err, InsightsError);
        assert.is((err as InsightsError).code, "SETTINGS_INVALID");
      }
      assert.is(fs.readFileSync(join(dir, "settings.json"), "utf8"), bad);
      assert.equal(fs.readdirSync(dir), ["settings.json"], "no backup, no temp file");
    }
  }
});

test("a settings.json that is a link (a dotfile manager's) is written through to its target, the link kept", () => {
  const dir = makeTempDir("gi-cc-");
  const real = join(dir, "dotfiles-settings.json");
  fs.writeFileSync(real, "{}");
  fs.mkdirSync(join(dir, "cc"));
  fs.symlinkSync(real, join(dir, "cc", "settings.json"));
  install({ CLAUDE_CONFIG_DIR: join(dir, "cc") }, SELF);
  assert.ok(fs.lstatSync(join(dir, "cc", "settings.json")).isSymbolicLink());
  assert.is((JSON.parse(fs.readFileSync(real, "utf8")) as { statusLine: { command: string } }).statusLine.command, `${SELF} statusline`);
});

test.run();
