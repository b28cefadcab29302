// The shipped unit and what `insightsctl service install` writes from it: it must pass
// `systemd-analyze verify` with no warnings, score as hardened in `systemd-analyze security`, and
// the command must run the right systemctl steps (a fake systemctl on PATH records them).
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ctl, DAEMON, ROOT, sandbox, type Sandbox } from "./helpers/cli.js";

const template = readFileSync(join(ROOT, "systemd", "gateway-insights.service"), "utf8");
const hasAnalyze = spawnSync("systemd-analyze", ["--version"]).status === 0;
const dir = mkdtempSync(join(tmpdir(), "gi-unit-"));

/** True (and says so) when systemd-analyze is missing; in CI that is a failure (.ci/run installs systemd). */
function noAnalyze(): boolean {
  if (hasAnalyze) return false;
  if (process.env.CI) assert.unreachable("systemd-analyze is missing in CI (.ci/run installs systemd)");
  console.log("skipped: systemd-analyze not installed (apt-get install systemd)");
  return true;
}

/** `systemd-analyze <verb>` on a copy of the unit named as installed. */
function analyze(verb: "verify" | "security", text: string, scope: "user" | "system"): { status: number | null; output: string } {
  const sub = mkdtempSync(join(dir, `${scope}-`));
  const path = join(sub, "gateway-insights.service");
  writeFileSync(path, text);
  const args = verb === "verify" ? ["verify"] : ["security", "--offline=yes", "--no-pager"];
  if (scope === "user") args.push("--user");
  // --user needs a runtime dir even offline.
  const r = spawnSync("systemd-analyze", [...args, path], { env: { ...process.env, XDG_RUNTIME_DIR: sub }, encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}`.trim() };
}

function exposure(text: string, scope: "user" | "system"): number {
  const r = analyze("security", text, scope);
  const m = /Overall exposure level for gateway-insights\.service: (\d+(?:\.\d+)?)/.exec(r.output);
  assert.ok(m, r.output);
  return Number(m[1]);
}

let box: Sandbox;
let fakeBin: string;
let calls: string;
test.before(async () => {
  box = await sandbox();
  fakeBin = join(box.dir, "fake-bin");
  mkdirSync(fakeBin);
  calls = join(box.dir, "systemctl-calls");
  // Records each call; SYSTEMCTL_FAIL makes it fail the way systemctl does without a user session.
  writeFileSync(
    join(fakeBin, "systemctl"),
    `#!/bin/sh\necho "$*" >> "${calls}"\nif [ -n "$SYSTEMCTL_FAIL" ]; then echo "Failed to connect to bus: No medium found" >&2; exit 1; fi\nexit 0\n`,
  );
  chmodSync(join(fakeBin, "systemctl"), 0o755);
});
test.after(async () => box.cleanup());

const withFake = (extra: Record<string, string> = {}): Record<string, string> => ({ PATH: `${fakeBin}:/usr/bin:/bin`, ...extra });
const userUnit = (): string => join(box.dir, "config", "systemd", "user", "gateway-insights.service");
const recorded = (): string[] => (existsSync(calls) ? readFileSync(calls, "utf8").trim().split("\n").filter(Boolean) : []);

test("the template runs insightsd in the foreground, restarts it, and sandboxes it", () => {
  assert.match(template, /^Type=simple$/m);
  assert.match(template, /^Restart=on-failure$/m);
  assert.match(template, /^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
  for (const line of [
    "NoNewPrivileges=yes",
    "ProtectSystem=strict",
    "ProtectHome=read-only",
    "ReadWritePaths=%S/gateway-insights %t",
    "ReadWritePaths=-%h/.openclaw",
    "PrivateDevices=yes",
    "ProtectKernelTunables=yes",
    "ProtectKernelModules=yes",
    "ProtectKernelLogs=yes",
    "ProtectControlGroups=yes",
    "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
    "RestrictNamespaces=yes",
    "LockPersonality=yes",
    "SystemCallFilter=@system-service",
    "SystemCallErrorNumber=EPERM",
    "EnvironmentFile=-%E/gateway-insights/env",
  ]) {
    assert.ok(template.split("\n").includes(line), `missing ${line}`);
  }
  // The gateway's log lives in /tmp/openclaw by default: a private /tmp would hide it.
  assert.not.match(template, /^PrivateTmp=(yes|true)$/m);
  // V8's JIT needs memory it wrote to become executable.
  assert.not.match(template, /^MemoryDenyWriteExecute=/m);
  // A user manager has no network.target; and a user unit may not drop capabilities (218/CAPABILITIES).
  assert.not.match(template, /^After=network/m);
  assert.not.match(template, /^CapabilityBoundingSet=/m);
});

test("the template passes systemd-analyze verify as a user unit", () => {
  if (noAnalyze()) return;
  const good = analyze("verify", template, "user");
  assert.is(good.status, 0, good.output);
  assert.is(good.output, "", good.output);
  // The same check notices a broken unit (so it is not vacuous).
  assert.match(analyze("verify", template.replace("Restart=on-failure", "Restart=sometimes"), "user").output, /restart specifier/);
});

test("service install: writes the unit for this node and insightsd, then daemon-reload and enable --now", async () => {
  const r = await ctl(box, ["service", "install"], withFake());
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^wrote ${userUnit().replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\nenabled and started gateway-insights\\.service\\n`));
  assert.match(r.stdout, /loginctl enable-linger/);
  const unit = readFileSync(userUnit(), "utf8");
  assert.ok(unit.split("\n").includes(`ExecStart=${realpathSync(process.execPath)} ${realpathSync(DAEMON)}`), unit);
  assert.match(unit, /^# Written by `insightsctl service install`/);
  assert.equal(recorded(), ["--user daemon-reload", "--user enable --now gateway-insights.service"]);
  if (noAnalyze()) return;
  const verified = analyze("verify", unit, "user");
  assert.is(verified.status, 0, verified.output);
  assert.is(verified.output, "", verified.output);
  // 8.2 "EXPOSED" before the sandbox. What is left for a user unit is the analyser assuming root
  // (no User=) and the capabilities it would then hold; a user manager's services hold none and
  // may not set CapabilityBoundingSet=.
  const score = exposure(unit, "user");
  assert.ok(score <= 3.5, `user unit exposure ${score}`);
});

test("service install --no-enable only reloads; --dry-run prints the unit and changes nothing", async () => {
  writeFileSync(calls, "");
  const r = await ctl(box, ["service", "install", "--user", "--no-enable"], withFake());
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /start it with: systemctl --user enable --now gateway-insights/);
  assert.equal(recorded(), ["--user daemon-reload"]);

  writeFileSync(calls, "");
  const other = await sandbox();
  try {
    const dry = await ctl(other, ["service", "install", "--dry-run"], withFake());
    assert.is(dry.code, 0, dry.stderr);
    assert.match(dry.stderr, /would write .*systemd\/user\/gateway-insights\.service/);
    assert.match(dry.stdout, /^ExecStart=/m);
    assert.not.ok(existsSync(join(other.dir, "config", "systemd")), "nothing written");
    assert.equal(recorded(), []);
  } finally {
    await other.cleanup();
  }
});

test("no systemctl (a container): the unit is written, exit 1 with what to do instead", async () => {
  const empty = join(box.dir, "empty-bin");
  mkdirSync(empty, { recursive: true });
  const r = await ctl(box, ["service", "install"], { PATH: empty });
  assert.is(r.code, 1);
  assert.match(r.stderr, /^insightsctl: .*gateway-insights\.service is written, but systemctl is not on PATH: is systemd running here\?\n {2}Without systemd \(in a container, say\) run the daemon with `insightsctl start` instead\.\n$/);
  assert.ok(existsSync(userUnit()));
});

test("systemctl failing: its reason and exit 1", async () => {
  writeFileSync(calls, "");
  const r = await ctl(box, ["service", "install"], withFake({ SYSTEMCTL_FAIL: "1" }));
  assert.is(r.code, 1);
  assert.match(r.stderr, /^insightsctl: systemctl --user daemon-reload failed: Failed to connect to bus: No medium found\n/);
  // No user bus: systemd cannot run the unit here, so the way out is the daemon without it (as the README says).
  assert.match(r.stderr, /\n {2}.*gateway-insights\.service is written, but there is no systemd user session here: use `insightsctl start` here instead\.\n$/);
  assert.not.match(r.stderr, /journalctl/);
  assert.equal(recorded(), ["--user daemon-reload"], "stops at the first failure");
});

test("service install --system: a unit for the account given, with system directories and no capabilities", async () => {
  // An account that exists on any Debian: its name and home come from the passwd database.
  const account = spawnSync("getent", ["passwd", "daemon"], { encoding: "utf8" }).stdout.trim().split(":");
  if (account.length < 7) {
    console.log("skipped: no account named daemon");
    return;
  }
  const r = await ctl(box, ["service", "install", "--system", "--run-as", "daemon", "--dry-run"], withFake());
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stderr, /would write \/etc\/systemd\/system\/gateway-insights\.service/);
  const unit = r.stdout;
  for (const line of ["User=daemon", "CapabilityBoundingSet=", "RuntimeDirectory=gateway-insights", "WantedBy=multi-user.target", `ReadWritePaths=-${account[5]}/.openclaw`]) {
    assert.ok(unit.split("\n").includes(line), `missing ${line}`);
  }
  assert.not.match(unit, /%h/, "%h is root's home in a system unit");
  const both = await ctl(box, ["service", "install", "--user", "--system"], withFake());
  assert.is(both.code, 2);
  const runAsUser = await ctl(box, ["service", "install", "--run-as", "daemon"], withFake());
  assert.is(runAsUser.code, 2);
  assert.match(runAsUser.stderr, /--run-as is for a --system unit only/);
  const nobodyHere = await ctl(box, ["service", "install", "--system", "--run-as", "no-such-account-gi", "--dry-run"], withFake());
  assert.is(nobodyHere.code, 2);
  assert.match(nobodyHere.stderr, /no account named "no-such-account-gi"/);
  if (noAnalyze()) return;
  const verified = analyze("verify", unit, "system");
  assert.is(verified.status, 0, verified.output);
  assert.is(verified.output, "", verified.output);
  const score = exposure(unit, "system");
  assert.ok(score <= 2.0, `system unit exposure ${score}`); // 1.3 here
});

test.run();
