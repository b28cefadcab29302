import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { isClaudeCodeProgram } from "./claude-code/program.js";
import { isCodexProgram } from "./codex/program.js";
import { isOwnProgram, readProcIdentity } from "./own-process.js";

const roots: string[] = [];
test.after(() => {
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

interface FakeProc {
  comm: string;
  exe: string | null;
  argv: string[];
}

/** A fake procfs tree: <root>/<pid>/{comm,cmdline,exe}, as the kernel lays them out. */
function fakeProc(procs: Record<number, FakeProc>): { root: string; uid: number } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "fake-proc-"));
  roots.push(root);
  for (const [pid, p] of Object.entries(procs)) {
    const dir = path.join(root, pid);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "comm"), `${p.comm}\n`);
    fs.writeFileSync(path.join(dir, "cmdline"), p.argv.map((a) => `${a}\0`).join(""));
    if (p.exe !== null) fs.symlinkSync(p.exe, path.join(dir, "exe"));
  }
  return { root, uid: fs.statSync(root).uid };
}

const CC_BIN = "/home/op/.npm/lib/node_modules/@anthropic-ai/claude-code-linux-x64/claude";
const procs: Record<number, FakeProc> = {
  1: { comm: "systemd", exe: "/usr/lib/systemd/systemd", argv: ["/sbin/init", "splash"] },
  // As seen on Claude Code 2.1.330's native binary.
  100: { comm: "claude", exe: CC_BIN, argv: [CC_BIN, "-p", "hi"] },
  101: { comm: "node", exe: "/usr/bin/node", argv: ["node", "/home/op/.npm/lib/node_modules/@anthropic-ai/claude-code/cli.js", "--resume"] },
  102: { comm: "2.1.330", exe: "/home/op/.local/share/claude/versions/2.1.330", argv: ["/home/op/.local/share/claude/versions/2.1.330"] },
  103: { comm: "node", exe: "/usr/bin/node", argv: ["node", "/srv/app/server.js"] },
  104: { comm: "bash", exe: "/usr/bin/bash", argv: ["bash", "-c", "claude"] },
  // Codex 0.169's native binary holds the thread lock.
  200: { comm: "codex", exe: "/home/op/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex", argv: ["codex", "exec", "hi"] },
  201: { comm: "node", exe: "/usr/bin/node", argv: ["node", "/home/op/node_modules/@openai/codex/bin/codex.js", "exec"] },
  202: { comm: "flock", exe: "/usr/bin/flock", argv: ["flock", "-x", "x.lock", "sleep", "600"] },
  // A binary replaced while it ran: the kernel appends " (deleted)".
  203: { comm: "codex", exe: "/opt/codex/bin/codex (deleted)", argv: ["/opt/codex/bin/codex"] },
  // The TUI's app-server daemon: a copy of the binary in CODEX_HOME (format doc §1), whatever its name.
  204: { comm: "codex-app-serv", exe: "/home/op/.codex/packages/app-server-daemon/releases/0.169.0-x86_64-unknown-linux-musl/codex-app-server", argv: ["/home/op/.codex/packages/app-server-daemon/releases/0.169.0-x86_64-unknown-linux-musl/codex-app-server", "app-server"] },
  205: { comm: "sh", exe: "/usr/bin/dash", argv: ["sh", "-c", "/home/op/.codex/packages/app-server-daemon/releases/x/codex"] },
};

test("reads comm, exe and argv from a procfs tree", () => {
  const { root, uid } = fakeProc(procs);
  assert.equal(readProcIdentity(100, root), { uid, comm: "claude", exe: CC_BIN, argv: [CC_BIN, "-p", "hi"] });
  assert.is(readProcIdentity(999, root), null);
  assert.is(readProcIdentity(0, root), null);
});

test("Claude Code: the native binary, the installer's versions, npm's cli.js; not another node, shell or init", () => {
  const { root, uid } = fakeProc(procs);
  const claude = Object.keys(procs).map(Number).filter((pid) => isOwnProgram(pid, isClaudeCodeProgram, { procRoot: root, uid }));
  assert.equal(claude, [100, 101, 102]);
});

test("Codex: the native binary (even replaced on disk), the app-server daemon's copy; not its Node launcher, flock(1) or a shell naming it", () => {
  const { root, uid } = fakeProc(procs);
  const codex = Object.keys(procs).map(Number).filter((pid) => isOwnProgram(pid, isCodexProgram, { procRoot: root, uid }));
  assert.equal(codex, [200, 203, 204]);
});

test("another user's process is never ours, whatever it runs", () => {
  const { root, uid } = fakeProc(procs);
  assert.ok(isOwnProgram(100, isClaudeCodeProgram, { procRoot: root, uid }));
  assert.not.ok(isOwnProgram(100, isClaudeCodeProgram, { procRoot: root, uid: uid + 1 }));
  assert.not.ok(isOwnProgram(200, isCodexProgram, { procRoot: root, uid: uid + 1 }));
});

test("the real /proc: pid 1 is no provider's program, this node process neither", () => {
  if (!fs.existsSync("/proc/self/comm")) return;
  assert.not.ok(isOwnProgram(1, isClaudeCodeProgram));
  assert.not.ok(isOwnProgram(process.pid, isClaudeCodeProgram));
  assert.not.ok(isOwnProgram(process.pid, isCodexProgram));
});

test.run();
