import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { defaultLiveProbe, liveProbeAt, procStartFromStat, readLiveSessions } from "./live.js";
import type { LiveProbe } from "./live.js";
import { makeTempDir, removeTempDirs } from "../../../test/helpers/claude-code-fixture.js";

test.after(removeTempDirs);

const SECRET = "peer-token-5d77edbb-never-shown";
const DOMAIN = "linux:3d1219c7c4c5404aaa1f6d2a48adfda4:pid:[4026531836]";

/** A record as the real CLI 2.1.330 wrote it (format doc §1; procStart checked against /proc). */
const record = (pid: number, extra: Record<string, unknown> = {}) => ({
  pid,
  sessionId: `session-${pid}`,
  cwd: "/home/op/code/api-server",
  startedAt: 1795474934233,
  procStart: "155897",
  version: "2.1.330",
  peerProtocol: 1,
  kind: "interactive",
  entrypoint: "sdk-cli",
  pidDomain: DOMAIN,
  messagingSocketPath: "/tmp/cc-socks/x.sock",
  status: "busy",
  updatedAt: 1795474934215,
  ...extra,
});

function installWith(files: Record<string, string>): string {
  const dir = makeTempDir();
  fs.mkdirSync(path.join(dir, "sessions"));
  for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dir, "sessions", name), body);
  return dir;
}

const probe = (alive: number[], starts: Record<number, string> = {}, own: string | null = DOMAIN): LiveProbe => ({
  isPidAlive: (pid) => alive.includes(pid),
  isProviderProcess: (pid) => alive.includes(pid),
  procStartOf: (pid) => starts[pid] ?? null,
  ownPidDomain: () => own,
});

function live(dir: string, p: LiveProbe) {
  const r = readLiveSessions(dir, p);
  if (!r.ok) throw r.error;
  return r;
}

test("a live record: pid alive, same start time, same pid domain", () => {
  const dir = installWith({ "100.json": JSON.stringify(record(100)) });
  const r = live(dir, probe([100], { 100: "155897" }));
  assert.equal(r.value, [{ pid: 100, sessionKey: "session-100", startedAt: 1795474934233, status: "busy", cwd: "/home/op/code/api-server", cliVersion: "2.1.330" }]);
  assert.equal(r.warnings, []);
});

test("stale records: dead pid, pid reused (other start time), another machine or namespace", () => {
  const dir = installWith({ "100.json": JSON.stringify(record(100)) });
  assert.equal(live(dir, probe([])).value, [], "dead");
  assert.equal(live(dir, probe([100], { 100: "999" })).value, [], "reused pid");
  assert.equal(live(dir, probe([100], { 100: "155897" }, "linux:ffff:pid:[1]")).value, [], "other pid domain");
  // What cannot be checked is not held against the record: no /proc, or our domain unknown.
  assert.is(live(dir, probe([100], {}, null)).value.length, 1);
});

test("the .key files are never read: their secret is in nothing returned", () => {
  const key = JSON.stringify({ peerToken: SECRET, procStart: "155897", pidDomain: DOMAIN });
  const dir = installWith({
    "100.json": JSON.stringify(record(100)),
    [`100.${"5d".repeat(32)}.key`]: key,
    [`101.${"ab".repeat(32)}.key`]: key,
    // A key file shaped like a record, under a key file's name.
    [`102.${"cd".repeat(32)}.key`]: JSON.stringify(record(102, { status: SECRET })),
  });
  // A record that is a symlink to a key file is not followed.
  fs.symlinkSync(path.join(dir, "sessions", `100.${"5d".repeat(32)}.key`), path.join(dir, "sessions", "103.json"));
  fs.symlinkSync(path.join(dir, "sessions", `102.${"cd".repeat(32)}.key`), path.join(dir, "sessions", "102.json"));
  const r = readLiveSessions(dir, probe([100, 101, 102, 103], { 100: "155897", 102: "155897" }));
  assert.ok(r.ok);
  assert.not.ok(JSON.stringify(r).includes(SECRET));
  if (r.ok) assert.equal(r.value.map((s) => s.pid), [100]);
});

test("hostile records: bad JSON warned, pid not matching the name or missing sessionId skipped, huge file ignored", () => {
  const dir = installWith({
    "200.json": "{not json",
    "201.json": JSON.stringify(record(999)),
    "202.json": JSON.stringify({ ...record(202), sessionId: 5 }),
    "203.json": JSON.stringify(record(203, { padding: "x".repeat(100_000) })),
    "204.json": JSON.stringify(record(204, { status: "s".repeat(500), cwd: 7, startedAt: -1 })),
    "abc.json": JSON.stringify(record(1)),
    "0205.json.tmp": JSON.stringify(record(205)),
  });
  const r = live(dir, probe([200, 201, 202, 203, 204, 999, 1], { 204: "155897" }));
  assert.equal(r.warnings.map((w) => [w.code, path.basename(w.where)]), [
    ["BAD_JSON", "200.json"],
    ["BAD_ROW", "201.json"],
    ["BAD_ROW", "202.json"],
  ]);
  assert.equal(r.value, [{ pid: 204, sessionKey: "session-204", startedAt: null, status: null, cwd: null, cliVersion: "2.1.330" }]);
});

test("no sessions/ dir is no live session", () => {
  assert.equal(readLiveSessions(makeTempDir(), probe([])), { ok: true, value: [], warnings: [] });
});

test("procStart is field 22 of /proc/<pid>/stat, even when the command name has spaces and parentheses", () => {
  const fields = Array.from({ length: 50 }, (_, i) => String(i + 3)); // fields 3..52
  fields[19] = "155897"; // field 22
  assert.is(procStartFromStat(`11653 (claude) x) ${fields.join(" ")}`), "155897");
  assert.is(procStartFromStat("garbage"), null);
});

const children: ChildProcess[] = [];
test.after(() => {
  for (const c of children) c.kill("SIGKILL");
});

/** A node child idling, started under `name` (a symlink to node) when given; resolves once it has exec'd. */
async function idleChild(dir: string, name: string | null): Promise<number> {
  let bin = process.execPath;
  if (name !== null) {
    bin = path.join(dir, name);
    fs.symlinkSync(process.execPath, bin);
  }
  const child = spawn(bin, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  children.push(child);
  const pid = child.pid as number;
  const deadline = Date.now() + 20_000;
  // Until the exec is done, /proc shows the forking parent's names.
  while (!fs.readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("setInterval")) {
    if (Date.now() > deadline) throw new Error("the child did not start");
    await new Promise((r) => setTimeout(r, 25));
  }
  return pid;
}

const startOf = (pid: number) => procStartFromStat(fs.readFileSync(`/proc/${pid}/stat`, "latin1"));

test("the default probe on real processes: a node process is no Claude Code session, one started as `claude` is; pid 1 never", async () => {
  if (!fs.existsSync("/proc/self/stat")) return; // the program check exists where /proc does
  const bins = makeTempDir();
  const node = await idleChild(bins, null);
  const claude = await idleChild(bins, "claude");
  const dir = installWith({
    [`${node}.json`]: JSON.stringify({ ...record(node, { procStart: startOf(node) }), pidDomain: undefined }),
    [`${claude}.json`]: JSON.stringify({ ...record(claude, { procStart: startOf(claude) }), pidDomain: undefined }),
    // Planted: pid 1 with its real start time, and this test's own process (node).
    "1.json": JSON.stringify({ ...record(1, { procStart: startOf(1) }), pidDomain: undefined }),
    [`${process.pid}.json`]: JSON.stringify({ ...record(process.pid, { procStart: startOf(process.pid) }), pidDomain: undefined }),
  });
  assert.equal(live(dir, defaultLiveProbe).value.map((s) => s.pid), [claude]);
  // The same process under another uid (the probe told another daemon user) is not ours.
  const uid = fs.statSync(`/proc/${claude}`).uid;
  assert.equal(live(dir, liveProbeAt({ uid: uid + 1 })).value, []);
  // A record whose start time is not the process's (pid reused) is stale.
  fs.writeFileSync(path.join(dir, "sessions", `${claude}.json`), JSON.stringify({ ...record(claude, { procStart: `${startOf(claude)}1` }), pidDomain: undefined }));
  assert.equal(live(dir, defaultLiveProbe).value, []);
});

test.run();
