import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock, pollUntil } from "./clock.js";
import { ProcessTreeSampler, isProcessAlive, parseProcStat, processStartTicks, processStartedAtMs, processTree, readProcStat } from "./proc-stats.js";

interface FakeProc {
  pid: number;
  comm: string;
  state?: string;
  ppid: number;
  utime: number;
  stime: number;
  starttime: number;
  rssPages: number;
  vmRssKb?: number;
}

/** One /proc/<pid>/stat line with the real field layout (52 fields). */
function statLine(p: FakeProc): string {
  const f = new Array<string | number>(53).fill(0);
  f[1] = p.pid;
  f[2] = `(${p.comm})`;
  f[3] = p.state ?? "S";
  f[4] = p.ppid;
  f[14] = p.utime;
  f[15] = p.stime;
  f[22] = p.starttime;
  f[24] = p.rssPages;
  return f.slice(1).join(" ") + "\n";
}

function writeProc(root: string, procs: FakeProc[], btime = 1_795_000_000) {
  for (const name of fs.readdirSync(root)) if (/^\d+$/.test(name)) fs.rmSync(path.join(root, name), { recursive: true });
  fs.writeFileSync(path.join(root, "stat"), `cpu  1 2 3 4\nbtime ${btime}\nprocesses 9\n`);
  for (const p of procs) {
    fs.mkdirSync(path.join(root, String(p.pid)));
    fs.writeFileSync(path.join(root, String(p.pid), "stat"), statLine(p));
    if (p.vmRssKb !== undefined) fs.writeFileSync(path.join(root, String(p.pid), "status"), `Name:\t${p.comm}\nVmRSS:\t  ${p.vmRssKb} kB\nThreads:\t1\n`);
  }
}

test("parseProcStat copes with spaces and parentheses in the command name", () => {
  const st = parseProcStat(statLine({ pid: 7, comm: "spawn (broker) x)", ppid: 3, utime: 11, stime: 22, starttime: 333, rssPages: 44 }));
  assert.ok(st);
  assert.is(st!.comm, "spawn (broker) x)");
  assert.is(st!.ppid, 3);
  assert.is(st!.utime, 11);
  assert.is(st!.stime, 22);
  assert.is(st!.starttime, 333);
  assert.is(st!.rssPages, 44);
  assert.is(parseProcStat("garbage"), null);
});

test("fake procfs: tree, CPU % between two samples, RSS, pid reuse, zombies", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  const t0: FakeProc[] = [
    { pid: 100, comm: "openclaw-gateway", ppid: 1, utime: 50, stime: 50, starttime: 1000, rssPages: 0, vmRssKb: 200_000 },
    { pid: 101, comm: "spawn (broker)", ppid: 100, utime: 10, stime: 0, starttime: 1010, rssPages: 2560 },
    { pid: 102, comm: "npm", ppid: 101, utime: 5, stime: 5, starttime: 1020, rssPages: 0, vmRssKb: 30_000 },
    { pid: 200, comm: "unrelated", ppid: 1, utime: 999, stime: 999, starttime: 5, rssPages: 0, vmRssKb: 1 },
  ];
  writeProc(root, t0);
  assert.equal(processTree(100, { procRoot: root }).map((s) => s.pid), [100, 101, 102]);
  assert.equal(processTree(999, { procRoot: root }), []);

  const clock = manualClock(1_000_000);
  const sampler = new ProcessTreeSampler({ procRoot: root, clock });
  const s1 = sampler.sample(100);
  assert.ok(s1.ok);
  if (!s1.ok) return;
  assert.is(s1.value.cpuPercent, null);
  const expectedRss0 = 200_000 * 1024 + 2560 * 4096 + 30_000 * 1024;
  assert.is(s1.value.rssBytes, expectedRss0);
  assert.is(s1.value.rssMb, expectedRss0 / 1024 / 1024);

  // Two seconds later: 100 used 100 more ticks, 101 used 10, 102 exited, 104 started with 20 ticks.
  writeProc(root, [
    { ...t0[0]!, utime: 150 },
    { ...t0[1]!, stime: 10 },
    { pid: 104, comm: "node", ppid: 100, utime: 15, stime: 5, starttime: 1200, rssPages: 0, vmRssKb: 10_000 },
    t0[3]!,
  ]);
  clock.advance(2000);
  const s2 = sampler.sample(100);
  assert.ok(s2.ok);
  if (!s2.ok) return;
  const deltaTicks = 100 + 10 + 20;
  assert.is(s2.value.cpuPercent, (deltaTicks / 100 / 2) * 100);
  assert.equal(s2.value.pids, [100, 101, 104]);

  // The gateway exits: missing, and the next sample after a restart starts a fresh interval.
  writeProc(root, [t0[3]!]);
  const s3 = sampler.sample(100);
  assert.ok(!s3.ok && s3.error.kind === "missing");
  writeProc(root, [{ ...t0[0]!, utime: 5000, starttime: 9000 }]);
  const s4 = sampler.sample(100);
  assert.ok(s4.ok && s4.value.cpuPercent === null);

  // Liveness and pid reuse.
  assert.is(isProcessAlive(100, { procRoot: root }), true);
  assert.is(isProcessAlive(100, { procRoot: root, startTime: 9000 }), true);
  assert.is(isProcessAlive(100, { procRoot: root, startTime: 1000 }), false, "same pid, other process");
  assert.is(isProcessAlive(555, { procRoot: root }), false);
  writeProc(root, [{ ...t0[0]!, state: "Z" }]);
  assert.is(isProcessAlive(100, { procRoot: root }), false, "zombie");
  assert.is(processStartTicks(100, { procRoot: root }), 1000);
  assert.is(processStartedAtMs(100, { procRoot: root }), 1_795_000_000_000 + 10_000);
});

test("a pid reused inside the tree between samples is counted as a new process", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  const gw = { pid: 100, comm: "gw", ppid: 1, utime: 0, stime: 0, starttime: 10, rssPages: 1 };
  writeProc(root, [gw, { pid: 101, comm: "a", ppid: 100, utime: 500, stime: 0, starttime: 20, rssPages: 1 }]);
  const clock = manualClock(0);
  const sampler = new ProcessTreeSampler({ procRoot: root, clock });
  sampler.sample(100);
  // 101 exited and a new 101 (other start time) used 30 ticks; a naive pid diff would say -470.
  writeProc(root, [gw, { pid: 101, comm: "b", ppid: 100, utime: 30, stime: 0, starttime: 90, rssPages: 1 }]);
  clock.advance(1000);
  const s = sampler.sample(100);
  assert.ok(s.ok && s.value.cpuPercent === 30);
});

test("a sample sooner than the minimum interval keeps the baseline instead of reading one tick as 1000 %", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
  const gw = { pid: 100, comm: "gw", ppid: 1, utime: 0, stime: 0, starttime: 10, rssPages: 1 };
  writeProc(root, [gw]);
  const clock = manualClock(0);
  const sampler = new ProcessTreeSampler({ procRoot: root, clock, minIntervalMs: 500 });
  sampler.sample(100);
  writeProc(root, [{ ...gw, utime: 1 }]);
  clock.advance(1);
  const soon = sampler.sample(100);
  assert.ok(soon.ok && soon.value.cpuPercent === null, "no figure yet: 1 tick over 1 ms is noise");
  // 600 ms after the first sample, measured from the first sample's baseline: 30 ticks = 300 ms.
  writeProc(root, [{ ...gw, utime: 30 }]);
  clock.advance(599);
  const later = sampler.sample(100);
  assert.ok(later.ok && later.value.cpuPercent === 50, JSON.stringify(later));
  // Another quick one repeats the last figure.
  clock.advance(10);
  const again = sampler.sample(100);
  assert.ok(again.ok && again.value.cpuPercent === 50);
});

test("real /proc: this process and a busy child", async () => {
  assert.ok(isProcessAlive(process.pid));
  const own = readProcStat(process.pid);
  assert.ok(own);
  assert.is(own!.pid, process.pid);
  assert.is(isProcessAlive(process.pid, { startTime: own!.starttime }), true);
  assert.is(isProcessAlive(process.pid, { startTime: own!.starttime + 1 }), false);
  const startedAt = processStartedAtMs(process.pid)!;
  assert.ok(Math.abs(startedAt - (Date.now() - process.uptime() * 1000)) < 2000, "start time matches process.uptime()");

  const child = spawn(process.execPath, ["-e", "const end = Date.now() + 20000; while (Date.now() < end) {}"], { stdio: "ignore" });
  try {
    const sampler = new ProcessTreeSampler();
    await pollUntil(() => processTree(process.pid).some((s) => s.pid === child.pid), { what: "child in tree" });
    const first = sampler.sample(process.pid);
    assert.ok(first.ok);
    if (first.ok) {
      assert.ok(first.value.pids.includes(child.pid!));
      // The tree's RSS covers at least this process's own resident set.
      assert.ok(first.value.rssBytes >= process.memoryUsage().rss * 0.5, "rss plausible");
    }
    // The child spins one core: CPU % over an interval approaches 100.
    const busy = await pollUntil(
      () => {
        const s = sampler.sample(process.pid);
        return s.ok && s.value.cpuPercent !== null && s.value.cpuPercent > 30 ? s.value : null;
      },
      { timeoutMs: 15_000, intervalMs: 200, what: "busy child CPU" },
    );
    // Tick rounding over short intervals can overshoot a little; a unit slip (x100) cannot hide here.
    assert.ok(busy.cpuPercent! < 200 * os.cpus().length, `cpu ${busy.cpuPercent}`);
  } finally {
    child.kill("SIGKILL");
  }
  await pollUntil(() => !isProcessAlive(child.pid!), { what: "child gone" });
});

test.run();
