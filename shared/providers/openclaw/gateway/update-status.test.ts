import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../../../base/clock.js";
import { UpdateStatusChecker, compareVersions, execFileRunner, extractJson, normalizeVersion, parseUpdateStatus } from "./update-status.js";
import type { CommandRunner, RunResult } from "./update-status.js";

/** `update status --json` in the shape the 2026.9.6 CLI writes (fields per its docs and output code). */
function statusJson(opts: { latest: string | null; available: boolean; registryLatest?: string | null; registryError?: string }) {
  return {
    update: {
      root: "/usr/lib/node_modules/openclaw",
      installKind: "package",
      packageManager: "npm",
      registry: { latestVersion: opts.registryLatest ?? opts.latest, tag: "latest", ...(opts.registryError ? { error: opts.registryError } : {}) },
    },
    channel: { value: "stable", source: "default", label: "stable (default)", config: null },
    availability: { available: opts.available, hasGitUpdate: false, hasRegistryUpdate: opts.available, latestVersion: opts.available ? opts.latest : null, gitBehind: null },
  };
}

function fakeRunner(answers: Record<string, () => Promise<RunResult> | RunResult>) {
  const calls: string[][] = [];
  const runner: CommandRunner = async (file, args) => {
    calls.push([file, ...args]);
    const key = args[0] === "--version" ? "version" : "status";
    const answer = answers[key];
    if (!answer) throw new Error(`unexpected call ${args.join(" ")}`);
    return answer();
  };
  return { runner, calls };
}

const out = (stdout: string, exitCode = 0): RunResult => ({ stdout, stderr: "", exitCode });

test("update available: versions, channel, and the current version from --version", async () => {
  const clock = manualClock();
  const { runner, calls } = fakeRunner({
    status: () => out(JSON.stringify(statusJson({ latest: "2026.10.2", available: true }))),
    version: () => out("OpenClaw 2026.9.6 (eb377ac)\n"),
  });
  const checker = new UpdateStatusChecker({ runner, clock, timeoutMs: 30_000 });
  const r = await checker.get();
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.is(r.value.currentVersion, "2026.9.6");
  assert.is(r.value.latestVersion, "2026.10.2");
  assert.is(r.value.updateAvailable, true);
  assert.is(r.value.channel, "stable");
  assert.is(r.value.checkedAt, clock.now());
  assert.equal(r.value.raw, statusJson({ latest: "2026.10.2", available: true }));
  assert.equal(calls, [
    ["openclaw", "update", "status", "--json", "--timeout", "25"],
    ["openclaw", "--version"],
  ]);
});

test("cache: reused within the TTL, refreshed after it, forced on demand; one run for concurrent callers", async () => {
  const clock = manualClock();
  let n = 0;
  const { runner, calls } = fakeRunner({
    status: () => {
      n++;
      return out(JSON.stringify({ ...statusJson({ latest: "2026.9.6", available: false }), currentVersion: "2026.9.6" }));
    },
  });
  const checker = new UpdateStatusChecker({ runner, clock, ttlMs: 3 * 3_600_000 });
  const [a, b] = await Promise.all([checker.get(), checker.get()]);
  assert.is(n, 1);
  assert.ok(a.ok && b.ok && a.value === b.value);
  clock.advance(3 * 3_600_000 - 1);
  await checker.get();
  assert.is(n, 1);
  assert.is(checker.peek()?.stale, false);
  clock.advance(1);
  assert.is(checker.peek()?.stale, true);
  await checker.get();
  assert.is(n, 2);
  await checker.get({ force: true });
  assert.is(n, 3);
  assert.is(calls.length, 3, "no --version call: the JSON had currentVersion");
});

test("up to date: latest from the registry, not available", () => {
  const s = parseUpdateStatus(statusJson({ latest: "2026.9.6", available: false }), 1, "OpenClaw 2026.9.6 (eb377ac)");
  assert.is(s.latestVersion, "2026.9.6");
  assert.is(s.updateAvailable, false);
  assert.is(s.currentVersion, "2026.9.6");
});

test("registry unreachable: availability unknown rather than 'no'", () => {
  const s = parseUpdateStatus(statusJson({ latest: null, available: false, registryError: "timeout" }), 1, "2026.9.6");
  assert.is(s.latestVersion, null);
  assert.is(s.updateAvailable, null);
});

// What a real 2026.9.6 `openclaw update status --json` printed with no network (run in an empty
// network namespace): exit 0 after ~3 s, the registry error inside, no running version.
const OFFLINE_2026_9_6 = {
  update: {
    root: "/root/.cache/openclaw-e2e/openclaw-2026.9.6/node_modules/openclaw",
    installKind: "package",
    packageManager: "unknown",
    deps: { manager: "unknown", status: "unknown", lockfilePath: null, markerPath: null, reason: "unknown package manager" },
    registry: { latestVersion: null, tag: "latest", error: "TypeError: fetch failed" },
  },
  channel: { value: "stable", source: "default", label: "stable (default)", config: null },
  availability: { available: false, hasGitUpdate: false, hasRegistryUpdate: false, latestVersion: null, gitBehind: null },
};

test("real offline answer: unknown availability, version from --version, channel stable", async () => {
  const { runner, calls } = fakeRunner({ status: () => out(JSON.stringify(OFFLINE_2026_9_6)), version: () => out("OpenClaw 2026.9.6 (eb377ac)\n") });
  const r = await new UpdateStatusChecker({ runner, clock: manualClock() }).get();
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal([r.value.currentVersion, r.value.latestVersion, r.value.updateAvailable, r.value.channel], ["2026.9.6", null, null, "stable"]);
  assert.is(calls.length, 2);
});

test("a CLI that refuses our Node (stderr only, exit 1) is unsupported, with its reason", async () => {
  // Exactly what both real launchers print when Node 20 is first on PATH.
  for (const stderr of [
    "openclaw: Node 20.20.2: node:sqlite is unavailable; use 24.16+/26.1+ or a build with the fix.\nIf you use nvm, run:\n  nvm install 26\n",
    "openclaw: Node.js >=22.22.3 <23, >=24.15.0 <25, or >=25.9.0 is required (current: v20.20.2).\nIf you use nvm, run:\n",
  ]) {
    const { runner } = fakeRunner({ status: () => ({ stdout: "", stderr, exitCode: 1 }) });
    const r = await new UpdateStatusChecker({ runner, clock: manualClock() }).get();
    assert.ok(!r.ok && r.error.kind === "unsupported", JSON.stringify(r));
    if (!r.ok) assert.match(r.error.message, /openclaw: Node/);
  }
});

test("unknown shapes: flat fields, version compare, string channel", () => {
  const s = parseUpdateStatus({ currentVersion: "v2026.9.6", latest: "2026.9.10", channel: "beta" }, 1);
  assert.is(s.currentVersion, "2026.9.6");
  assert.is(s.latestVersion, "2026.9.10");
  assert.is(s.updateAvailable, true, "9.10 > 9.6 numerically");
  assert.is(s.channel, "beta");
  const none = parseUpdateStatus({ something: "else" }, 1);
  assert.equal([none.currentVersion, none.latestVersion, none.updateAvailable, none.channel], [null, null, null, null]);
  assert.is(compareVersions("2026.9.6-beta.1", "2026.9.6"), -1);
  assert.is(compareVersions("2026.10.1", "2026.9.30"), 1);
  assert.is(compareVersions("x", "1.2.3"), null);
  assert.is(normalizeVersion("OpenClaw 2026.9.6 (eb377ac)"), "2026.9.6");
  assert.equal(extractJson('[warn] something\n{"a":1}\n'), { a: 1 });
  assert.is(extractJson("no json here"), undefined);
});

test("failures: timeout, missing CLI, no JSON; a failure is cached briefly and the last good answer stays readable", async () => {
  const clock = manualClock();
  let mode: "good" | "timeout" | "enoent" | "garbage" = "good";
  const { runner } = fakeRunner({
    status: () => {
      if (mode === "timeout") throw Object.assign(new Error("timed out"), { code: "ETIMEDOUT" });
      if (mode === "enoent") throw Object.assign(new Error("spawn openclaw ENOENT"), { code: "ENOENT" });
      if (mode === "garbage") return { stdout: "", stderr: "error: unknown command 'update'", exitCode: 1 };
      return out(JSON.stringify({ ...statusJson({ latest: "2026.9.6", available: false }), version: "2026.9.6" }));
    },
  });
  const checker = new UpdateStatusChecker({ runner, clock, ttlMs: 1000, errorTtlMs: 100 });
  assert.ok((await checker.get()).ok);
  const good = checker.peek()!.status;

  mode = "timeout";
  clock.advance(1000);
  const t = await checker.get();
  assert.ok(!t.ok && t.error.kind === "timeout");
  assert.is(checker.peek()!.status, good);
  assert.is(checker.peek()!.stale, true);
  mode = "enoent";
  const cached = await checker.get();
  assert.ok(!cached.ok && cached.error.kind === "timeout", "the failure is reused within errorTtlMs");
  clock.advance(100);
  const e = await checker.get();
  assert.ok(!e.ok && e.error.kind === "missing");
  mode = "garbage";
  clock.advance(100);
  const g = await checker.get();
  assert.ok(!g.ok && g.error.kind === "corrupt" && g.error.message.includes("unknown command"));
});

test("execFileRunner: exit codes resolve, timeouts and missing binaries reject", async () => {
  const r = await execFileRunner(process.execPath, ["-e", "console.log(JSON.stringify({a:1})); process.exit(3)"], { timeoutMs: 10_000 });
  assert.is(r.exitCode, 3);
  assert.equal(JSON.parse(r.stdout), { a: 1 });
  const slow = await execFileRunner(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { timeoutMs: 200 }).then(
    () => null,
    (err: NodeJS.ErrnoException) => err.code,
  );
  assert.is(slow, "ETIMEDOUT");
  const missing = await execFileRunner("/nonexistent/openclaw", [], { timeoutMs: 1000 }).then(
    () => null,
    (err: NodeJS.ErrnoException) => err.code,
  );
  assert.is(missing, "ENOENT");
});

test.run();
