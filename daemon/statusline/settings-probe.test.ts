import fs from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { statusLineSet } from "./settings-probe.js";

test.after(removeTempDirs);

/** A Claude Code config dir whose settings.json runs `command` as its status line. */
function dirWith(command: string): string {
  const dir = makeTempDir("gi-probe-");
  fs.writeFileSync(join(dir, "settings.json"), JSON.stringify({ statusLine: { type: "command", command } }));
  return dir;
}

test("the status line counts as ours by the bin install writes, by the bin on PATH and by an earlier version's main.js", () => {
  for (const command of [
    "'/usr/bin/node' '/opt/gi/dist/cli/insightsctl.cjs' statusline",
    "'/usr/bin/node' '/opt/gi/dist/cli/insightsctl.cjs' statusline --chain 'echo mine'",
    "insightsctl statusline --format model,5h",
    "'/usr/bin/node' '/opt/gi/dist/cli/main.js' statusline",
  ]) {
    assert.ok(statusLineSet(dirWith(command)), command);
  }
});

test("another program's status line, or none, is not ours", () => {
  for (const command of ["bunx ccusage statusline", "bash ~/bin/insightsctl-like.sh"]) assert.not.ok(statusLineSet(dirWith(command)), command);
  assert.not.ok(statusLineSet(makeTempDir("gi-probe-")));
});

test.run();
