// The shipped unit must pass `systemd-analyze verify` with no warnings once ExecStart points at
// a real insightsd, the way the README's install command writes it.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { DAEMON, ROOT } from "./helpers/cli.js";

const unit = readFileSync(join(ROOT, "systemd", "gateway-insights.service"), "utf8");
const hasAnalyze = spawnSync("systemd-analyze", ["--version"]).status === 0;
const dir = mkdtempSync(join(tmpdir(), "gi-unit-"));

function verify(text: string): { status: number | null; output: string } {
  const path = join(dir, "gateway-insights.service");
  writeFileSync(path, text);
  // --user needs a runtime dir even offline.
  const r = spawnSync("systemd-analyze", ["verify", "--user", path], { env: { ...process.env, XDG_RUNTIME_DIR: dir }, encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}`.trim() };
}

const installed = (): string => unit.replace(/^ExecStart=.*$/m, `ExecStart=${DAEMON}`);

test("the unit runs insightsd in the foreground with restart and hardening", () => {
  assert.match(unit, /^Type=simple$/m);
  assert.match(unit, /^Restart=on-failure$/m);
  assert.match(unit, /^NoNewPrivileges=yes$/m);
  assert.match(unit, /^ProtectSystem=strict$/m);
  assert.match(unit, /^ReadWritePaths=%S\/gateway-insights %t$/m);
  // The gateway's log lives in /tmp/openclaw by default: a private /tmp would hide it.
  assert.not.match(unit, /^PrivateTmp=(yes|true)$/m);
  assert.match(unit, /^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
});

test("systemd-analyze verify passes with no warnings", () => {
  if (!hasAnalyze) {
    if (process.env.CI) assert.unreachable("systemd-analyze is missing in CI (.ci/run installs systemd)");
    console.log("skipped: systemd-analyze not installed");
    return;
  }
  execFileSync("chmod", ["+x", DAEMON]);
  const good = verify(installed());
  assert.is(good.status, 0, good.output);
  assert.is(good.output, "", good.output);
  // The same check notices a broken unit (so it is not vacuous).
  const bad = verify(installed().replace("Restart=on-failure", "Restart=sometimes"));
  assert.match(bad.output, /restart specifier/);
});

test.run();
