import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { LiveSession } from "../contract.js";
import { LOCKS_DIR, parseProcLocks, readLiveSessions, splitDev } from "./live.js";
import type { HeldLock, LiveProbe } from "./live.js";
import { openCodexReader } from "./reader.js";
import { copyCodexHome, installOf, makeTempDir, rawLines, removeTempDirs, rolloutFiles } from "../../../test/helpers/codex-fixture.js";
import type { RawLine } from "../../../test/helpers/codex-fixture.js";

const children: ChildProcess[] = [];
function stopChild(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL"); // its whole group: flock and the command it runs
  } catch {
    // already gone
  }
}
test.after(() => {
  for (const c of children) stopChild(c);
  removeTempDirs();
});

const TUI = "01a20a4f-fdf8-7f63-ac60-18abdb48f090";

test("parses /proc/locks: exclusive holders only, waiters and shared locks left out", () => {
  const text = [
    "1: FLOCK  ADVISORY  WRITE 27293 fe:00:2318385 0 EOF",
    "1: -> FLOCK  ADVISORY  WRITE 27300 fe:00:2318385 0 EOF",
    "2: POSIX  ADVISORY  READ 26696 fe:00:2524916 128 128",
    "3: OFDLCK ADVISORY  WRITE -1 08:02:131352 0 EOF",
    "4: POSIX  ADVISORY  WRITE 12 103:1f:18446744073709551615 0 EOF",
    "5: LEASE  ACTIVE    READ 700 08:02:99 0 EOF",
    "garbage",
  ].join("\n");
  assert.equal(parseProcLocks(text), [
    { major: 0xfe, minor: 0, inode: "2318385", pid: 27293 },
    { major: 8, minor: 2, inode: "131352", pid: null },
    { major: 0x103, minor: 0x1f, inode: "18446744073709551615", pid: 12 },
  ]);
});

test("splits st_dev like glibc", () => {
  assert.equal(splitDev(0xfe00n), { major: 254, minor: 0 });
  // makedev(8, 300): minor's high bits live above the major.
  const dev = (8n << 8n) | (300n & 0xffn) | ((300n & ~0xffn) << 12n);
  assert.equal(splitDev(dev), { major: 8, minor: 300 });
  const big = ((0x1234n & 0xfffn) << 8n) | ((0x1234n & ~0xfffn) << 32n) | 5n;
  assert.equal(splitDev(big), { major: 0x1234, minor: 5 });
});

function lockFile(codexDir: string, id: string): string {
  const dir = path.join(codexDir, LOCKS_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${id}.lock`);
  fs.writeFileSync(file, "");
  return file;
}

const rolloutOf = (codexDir: string) => (id: string): string | null => {
  const rel = rolloutFiles(codexDir).find((r) => r.includes(id));
  return rel ? path.join(codexDir, rel) : null;
};

test("an inode match on another device counts only when the holder has the file open", () => {
  const { codexDir } = copyCodexHome();
  const file = lockFile(codexDir, TUI);
  const st = fs.statSync(file, { bigint: true });
  const { major, minor } = splitDev(st.dev);
  const elsewhere: HeldLock = { major: major + 1, minor, inode: st.ino.toString(), pid: 4242 };
  const probe = (hasOpen: boolean): LiveProbe => ({ heldLocks: () => [elsewhere], hasOpen: (pid, f) => hasOpen && pid === 4242 && f === fs.realpathSync(file), isProviderProcess: (pid) => pid === 4242 });
  const without = readLiveSessions(codexDir, rolloutOf(codexDir), probe(false));
  assert.ok(without.ok && without.value.length === 0);
  const withOpen = readLiveSessions(codexDir, rolloutOf(codexDir), probe(true));
  assert.ok(withOpen.ok && withOpen.value.length === 1 && withOpen.value[0]?.pid === 4242);
  // A read lock, or no /proc/locks at all, says nothing.
  const none = readLiveSessions(codexDir, rolloutOf(codexDir), { heldLocks: () => null, hasOpen: () => true, isProviderProcess: () => true });
  assert.ok(none.ok && none.value.length === 0);
  // No lock dir: nothing live.
  const empty = readLiveSessions(makeTempDir(), () => null);
  assert.ok(empty.ok && empty.value.length === 0);
});

/** A program under another name: a symlink `name` to it, in a temp dir. */
function named(program: string, name: string): string {
  const found = spawnSync("sh", ["-c", `command -v ${program}`], { encoding: "utf8" }).stdout.trim();
  const link = path.join(makeTempDir(), name);
  fs.symlinkSync(found, link);
  return link;
}

/**
 * Holds an exclusive flock on `file` in a child process (flock(1), else python3's fcntl.flock),
 * started under the name `as` when given (Codex's binary is `codex`).
 */
function holdLock(file: string, as: string | null = "codex"): ChildProcess {
  const hasFlock = spawnSync("flock", ["--version"]).status === 0;
  const program = hasFlock ? "flock" : "python3";
  const bin = as === null ? program : named(program, as);
  const child = hasFlock
    ? spawn(bin, ["-x", file, "-c", "exec sleep 600"], { detached: true, stdio: "ignore" })
    : spawn(bin, ["-c", "import fcntl,sys,time\nf=open(sys.argv[1])\nfcntl.flock(f, fcntl.LOCK_EX)\ntime.sleep(600)", file], { detached: true, stdio: "ignore" });
  children.push(child);
  return child;
}

async function until<T>(what: string, probe: () => T | null): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = probe();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test("a real flock held by a child process is live (pid, cwd, version, idle/busy); released, it is not", async () => {
  const { codexDir } = copyCodexHome();
  const file = lockFile(codexDir, TUI);
  lockFile(codexDir, "01a20a4f-8ada-7c40-a2c4-78459390a270"); // a lock file left behind by an exited writer
  const opened = openCodexReader(installOf(codexDir));
  assert.ok(opened.ok);
  if (!opened.ok) return;
  const reader = opened.value;
  const live = (): LiveSession[] => {
    const r = reader.liveSessions();
    if (!r.ok) throw r.error;
    return r.value;
  };
  assert.equal(live(), []);
  const child = holdLock(file);
  const sessions = await until("the lock to show", () => (live().length > 0 ? live() : null));
  const meta = (rawLines(rolloutOf(codexDir)(TUI) as string)[0] as RawLine).payload;
  assert.equal(sessions, [{ pid: child.pid ?? null, sessionKey: TUI, startedAt: null, status: "idle", cwd: meta.cwd, cliVersion: meta.cli_version }]);
  // A turn in flight: the last task_started has no task_complete.
  const rollout = rolloutOf(codexDir)(TUI) as string;
  fs.appendFileSync(rollout, `${JSON.stringify({ timestamp: "2026-11-23T21:50:00.000Z", ordinal: 99, type: "event_msg", payload: { type: "task_started", turn_id: "t-new" } })}\n`);
  assert.is(live()[0]?.status, "busy");
  stopChild(child);
  await until("the lock to go", () => (live().length === 0 ? true : null));
});

test("a lock held by a program that is not Codex (flock(1) itself) is no live session", async () => {
  const { codexDir } = copyCodexHome();
  const file = lockFile(codexDir, TUI);
  const opened = openCodexReader(installOf(codexDir));
  assert.ok(opened.ok);
  if (!opened.ok) return;
  const reader = opened.value;
  const other = holdLock(file, null);
  // Wait until /proc/locks shows the lock, so "not live" is the program check, not a lock not yet taken.
  const st = fs.statSync(file, { bigint: true });
  await until("the lock in /proc/locks", () => (parseProcLocks(fs.readFileSync("/proc/locks", "latin1")).some((l) => l.inode === st.ino.toString() && l.pid === other.pid) ? true : null));
  const r = reader.liveSessions();
  assert.ok(r.ok);
  if (r.ok) assert.equal(r.value, []);
  stopChild(other);
});

test.run();
