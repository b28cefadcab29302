// Running `gemini` sessions from a fake procfs (live.ts): expected values come from the fake
// processes and files the test makes, never from the reader.
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "../../../test/helpers/openclaw-fixtures.js";
import type { SessionFile } from "./files.js";
import { readLiveSessions } from "./live.js";

test.after(removeTempDirs);

const OWN = process.getuid?.() ?? 0;

interface FakeProc {
  pid: number;
  ppid: number;
  cwd: string;
  argv: string[];
  /** Start, in clock ticks after boot (boot is at epoch 0 here, 100 ticks a second). */
  ticks: number;
}

function fakeProc(root: string, p: FakeProc): void {
  const dir = path.join(root, String(p.pid));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(root, "stat"), "cpu 0\nbtime 0\n");
  fs.writeFileSync(path.join(dir, "comm"), `${path.basename(p.argv[0] as string)}\n`);
  fs.writeFileSync(path.join(dir, "cmdline"), `${p.argv.join("\0")}\0`);
  fs.writeFileSync(path.join(dir, "stat"), `${p.pid} (${path.basename(p.argv[0] as string)}) S ${p.ppid} 1 1 0 -1 0 0 0 0 0 1 1 0 0 20 0 1 0 ${p.ticks} 0 100 0`);
  fs.symlinkSync(p.cwd, path.join(dir, "cwd"));
}

/** A Gemini CLI package on disk (its bundle and package.json), as npm installs it. */
function geminiPackage(version: string): string {
  const pkg = path.join(makeTempDir(), "node_modules", "@google", "gemini-cli");
  fs.mkdirSync(path.join(pkg, "bundle"), { recursive: true });
  fs.writeFileSync(path.join(pkg, "bundle", "gemini.js"), "");
  fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "@google/gemini-cli", version }));
  return path.join(pkg, "bundle", "gemini.js");
}

/** A main session file of project `slugDir` last written at `mtimeMs`. */
function sessionFile(slugDir: string, id: string, mtimeMs: number): SessionFile {
  fs.mkdirSync(path.join(slugDir, "chats"), { recursive: true });
  const abs = path.join(slugDir, "chats", `session-2026-11-29T10-00-${id.slice(0, 8)}.jsonl`);
  fs.writeFileSync(abs, "{}\n");
  fs.utimesSync(abs, mtimeMs / 1000, mtimeMs / 1000);
  return { rel: path.relative(path.dirname(path.dirname(slugDir)), abs), sessionId: id, parentId: null, slugDir, abs, stat: fs.statSync(abs) };
}

const ID_A = "aaaaaaaa-0000-4000-8000-000000000001";
const ID_B = "bbbbbbbb-0000-4000-8000-000000000002";

test("a run (the relaunch pair) is one live session, shown as the child, with its project's session and its package's version", () => {
  const root = makeTempDir();
  const bundle = geminiPackage("0.61.0");
  const slug = path.join(makeTempDir(), "tmp", "app");
  const files = [sessionFile(slug, ID_A, 5_000), sessionFile(slug, ID_B, 9_000)];
  fakeProc(root, { pid: 700, ppid: 1, cwd: "/work/app", argv: ["node", bundle, "-p", "hi"], ticks: 100 });
  fakeProc(root, { pid: 701, ppid: 700, cwd: "/work/app", argv: ["node", "--max-old-space-size=8192", bundle, "-p", "hi"], ticks: 200 });
  const r = readLiveSessions(files, () => "/work/app", { procRoot: root, uid: OWN });
  assert.ok(r.ok);
  // The newest file of the project: B, written at 9 s, after the run started (1 s after boot).
  assert.equal(r.ok ? r.value : null, [{ pid: 701, sessionKey: ID_B, startedAt: 1000, status: null, cwd: "/work/app", cliVersion: "0.61.0" }]);
});

test("not shown: another user's gemini, a plain node, a gemini in another project, and a run that wrote nothing since it started", () => {
  const root = makeTempDir();
  const bundle = geminiPackage("0.61.0");
  const slug = path.join(makeTempDir(), "tmp", "app");
  const files = [sessionFile(slug, ID_A, 5_000)];
  const project = (): string => "/work/app";
  fakeProc(root, { pid: 800, ppid: 1, cwd: "/work/app", argv: ["node", "/srv/other/server.js"], ticks: 100 });
  fakeProc(root, { pid: 801, ppid: 1, cwd: "/work/elsewhere", argv: ["node", bundle], ticks: 100 });
  assert.equal(readLiveSessions(files, project, { procRoot: root, uid: OWN }), { ok: true, value: [], warnings: [] });
  fakeProc(root, { pid: 802, ppid: 1, cwd: "/work/app", argv: ["node", bundle], ticks: 100 });
  assert.equal(readLiveSessions(files, project, { procRoot: root, uid: OWN + 1 }), { ok: true, value: [], warnings: [] }, "another uid");
  // Started at 60 s, the project's newest file was last written at 5 s: a new session not written yet.
  fs.rmSync(path.join(root, "802"), { recursive: true });
  fakeProc(root, { pid: 803, ppid: 1, cwd: "/work/app", argv: ["node", bundle], ticks: 6000 });
  assert.equal(readLiveSessions(files, project, { procRoot: root, uid: OWN }), { ok: true, value: [], warnings: [] }, "nothing written since the start");
});

test("two runs in one project take its newest files in turn; npm's `gemini` link counts as the bundle", () => {
  const root = makeTempDir();
  const slug = path.join(makeTempDir(), "tmp", "app");
  const files = [sessionFile(slug, ID_A, 5_000), sessionFile(slug, ID_B, 9_000)];
  fakeProc(root, { pid: 900, ppid: 1, cwd: "/work/app", argv: ["node", "/usr/local/bin/gemini"], ticks: 100 });
  fakeProc(root, { pid: 910, ppid: 1, cwd: "/work/app", argv: ["node", "/usr/local/bin/gemini", "-i"], ticks: 300 });
  const r = readLiveSessions(files, () => "/work/app", { procRoot: root, uid: OWN });
  assert.equal(r.ok ? r.value.map((s) => [s.pid, s.sessionKey, s.cliVersion]) : null, [[910, ID_B, null], [900, ID_A, null]]);
});

test.run();
