// Issue 18 items 5, 6 and 7 against a real daemon process (the built bins): files an agent or a
// script can plant in ~/.codex or ~/.claude must never freeze the daemon. A FIFO at Codex's
// logs_2.sqlite-wal (before start and while running), a Claude Code transcript swapped between a
// regular file and a FIFO in a loop, and a transcript that stats as a regular file but cannot be
// read (a link to /proc/self/mem). Each time /health and the control socket must keep answering,
// and SIGTERM must stop the daemon. Needs `npm run build` first.
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { isAlive } from "../shared/base/lifecycle/process-check.js";
import { ctl, sandbox, type Sandbox } from "./helpers/cli.js";
import { copyClaudeHome, transcriptFiles } from "./helpers/claude-code-fixture.js";
import { copyCodexHome } from "./helpers/codex-fixture.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";

const boxes: Sandbox[] = [];
/** How long the transcript is swapped with a FIFO. */
const SWAP_MS = 20_000;
test.after(async () => {
  for (const b of boxes) {
    const pid = pidOf(b);
    if (pid !== null && isAlive(pid)) process.kill(pid, "SIGKILL");
    await b.cleanup();
  }
  removeTempDirs();
});

const pidOf = (b: Sandbox): number | null => {
  try {
    return Number.parseInt(fs.readFileSync(path.join(b.runtimeDir, "daemon.pid"), "utf8"), 10);
  } catch {
    return null;
  }
};

/** Lines of the daemon's log (JSON records) that mention `needle`. */
const logMentions = (b: Sandbox, needle: string): string[] => {
  try {
    return fs.readFileSync(path.join(b.stateDir, "daemon.log"), "utf8").split("\n").filter((l) => l.includes(needle));
  } catch {
    return [];
  }
};

/**
 * /health and the control socket (`insightsctl status`) both answer within a generous deadline: a
 * loaded 2-core machine (or a flood of watch events) may be slow, a daemon blocked in open(2) never
 * answers at all.
 */
async function answering(b: Sandbox, deadlineMs = 60_000): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${b.port}/health`, { signal: AbortSignal.timeout(deadlineMs) });
  assert.is(res.status, 200);
  await pollUntil(async () => (await ctl(b, ["status", "--json"])).code === 0, { timeoutMs: deadlineMs, what: "the control socket to answer" });
}

interface Status {
  sources: Array<{ id: string; status: string }>;
  healthReasons: Array<{ name: string; status: string; message: string | null }>;
}
const status = async (b: Sandbox): Promise<Status> => JSON.parse((await ctl(b, ["status", "--json"])).stdout) as Status;

/** SIGTERM stops it (a blocked event loop would never run the handler). */
async function sigtermStops(b: Sandbox): Promise<void> {
  const pid = pidOf(b);
  assert.ok(pid !== null && isAlive(pid), "the daemon runs");
  process.kill(pid as number, "SIGTERM");
  await pollUntil(() => !isAlive(pid as number), { timeoutMs: 30_000, what: "the daemon to exit on SIGTERM" });
}

test("a FIFO at ~/.codex/logs_2.sqlite-wal, planted before start and again while running, never blocks the daemon", async () => {
  const { codexDir } = copyCodexHome();
  const wal = path.join(codexDir, "logs_2.sqlite-wal");
  execFileSync("mkfifo", [wal]);
  const b = await sandbox({ INSIGHTS_CODEX: "on", INSIGHTS_CODEX_DIRS: codexDir, INSIGHTS_CLAUDE_CODE: "off", INSIGHTS_LOG_LEVEL: "debug" });
  boxes.push(b);
  const started = await ctl(b, ["start"]);
  assert.is(started.code, 0, `start succeeds: ${started.stderr}`);
  // The logs reader met the FIFO and said so (naming it), rather than waiting in open(2).
  await pollUntil(() => logMentions(b, `${wal} is a FIFO`).length > 0, { timeoutMs: 60_000, what: "the daemon to refuse the FIFO at the -wal" });
  await answering(b);

  // Planted while running: gone, then back as a new FIFO (a new inode the reader has not seen).
  const seen = logMentions(b, `${wal} is a FIFO`).length;
  fs.rmSync(wal);
  await pollUntil(async () => (await status(b)).sources.some((s) => s.id.startsWith("codex:") && s.status === "CONNECTED"), { timeoutMs: 60_000, what: "codex connected" });
  execFileSync("mkfifo", [wal]);
  await pollUntil(() => logMentions(b, `${wal} is a FIFO`).length > seen, { timeoutMs: 90_000, what: "the daemon to refuse the FIFO planted while it runs" });
  for (let i = 0; i < 3; i++) await answering(b);
  await sigtermStops(b);
});

test("a Claude Code transcript swapped between a regular file and a FIFO in a loop never blocks the daemon", async () => {
  const { claudeDir } = copyClaudeHome();
  const target = path.join(claudeDir, (transcriptFiles(claudeDir)[0] as string));
  const dir = path.dirname(target);
  const regular = path.join(dir, ".regular");
  const fifo = path.join(dir, ".fifo");
  const tmp = path.join(dir, ".swap");
  fs.copyFileSync(target, regular);
  execFileSync("mkfifo", [fifo]);
  const b = await sandbox({ INSIGHTS_CLAUDE_CODE: "on", INSIGHTS_CLAUDE_CODE_DIRS: claudeDir, INSIGHTS_CODEX: "off" });
  boxes.push(b);
  const started = await ctl(b, ["start"]);
  assert.is(started.code, 0, started.stderr);
  await pollUntil(async () => (await status(b)).sources.some((s) => s.id.startsWith("claude-code:") && s.status === "CONNECTED"), { timeoutMs: 60_000, what: "the first scan" });

  // Another process swaps in a tight loop, bounded in time and count, while the daemon reads (the
  // watch sees every rename) and is asked between. Each swap is one atomic rename over the
  // transcript: the FIFO (a hard link), or a fresh copy of the transcript (a new inode, so the
  // daemon's change token moves and it opens the file again).
  const script = `const fs = require("fs"); const end = Date.now() + ${SWAP_MS}; let i = 0;
    const text = fs.readFileSync(${JSON.stringify(regular)});
    for (; Date.now() < end && i < 2000000; i++) { if (i % 2) fs.writeFileSync(${JSON.stringify(tmp)}, text); else fs.linkSync(${JSON.stringify(fifo)}, ${JSON.stringify(tmp)}); fs.renameSync(${JSON.stringify(tmp)}, ${JSON.stringify(target)}); }
    fs.linkSync(${JSON.stringify(regular)}, ${JSON.stringify(tmp)}); fs.renameSync(${JSON.stringify(tmp)}, ${JSON.stringify(target)}); process.stdout.write(String(i));`;
  const swapper = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let swaps = "";
  swapper.stdout?.on("data", (d: Buffer) => (swaps += d.toString()));
  while (swapper.exitCode === null) {
    await answering(b);
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.is(swapper.exitCode, 0);
  assert.ok(Number(swaps) > 100, `the loop swapped the file ${swaps} times`);
  // The regular file back in place: the daemon reads on.
  await answering(b);
  await sigtermStops(b);
});

test("a transcript linked to /proc/self/mem (stats as a file, reads EIO) is skipped: the first scan completes and health names it", async () => {
  if (!fs.existsSync("/proc/self/mem")) return;
  const { claudeDir } = copyClaudeHome();
  const bad = path.join(claudeDir, (transcriptFiles(claudeDir)[0] as string));
  fs.rmSync(bad);
  fs.symlinkSync("/proc/self/mem", bad);
  const b = await sandbox({ INSIGHTS_CLAUDE_CODE: "on", INSIGHTS_CLAUDE_CODE_DIRS: claudeDir, INSIGHTS_CODEX: "off" });
  boxes.push(b);
  const started = await ctl(b, ["start"]);
  assert.is(started.code, 0, started.stderr);
  const s = await pollUntil(
    async () => {
      const st = await status(b);
      return st.sources.some((x) => x.id.startsWith("claude-code:") && x.status === "CONNECTED") ? st : null;
    },
    { timeoutMs: 60_000, what: "the first scan to complete despite the unreadable file" },
  );
  const named = s.healthReasons.find((r) => r.name.endsWith("sources") && r.message?.includes(bad));
  assert.ok(named, `a health check names the skipped file: ${JSON.stringify(s.healthReasons)}`);
  await answering(b);
  // Rate-limited: a few warnings about it, not one per 2 s poll.
  const before = logMentions(b, bad).filter((l) => l.includes('"warn"')).length;
  await new Promise((r) => setTimeout(r, 10_000));
  const after = logMentions(b, bad).filter((l) => l.includes('"warn"')).length;
  assert.ok(before <= 3 && after === before, `warnings about it: ${before} then ${after}`);
  await sigtermStops(b);
});

test.run();
