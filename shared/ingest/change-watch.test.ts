// Change detection (issue 13): the watcher over each provider's watch targets, and the collector
// that refreshes only the source whose files changed, falls back to polling when a watch fails and
// says so in the `detection` health check. Watches are injected (a fake that the test fires) except
// in the last test, which appends to a real copy of the Claude Code fixture with the poll set to
// an hour, so only the real fs.watch can make it pass. No fixed sleeps: every wait polls a
// condition with a deadline.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { LogHub } from "../base/log/logger.js";
import { Pricer } from "../pricing/pricer.js";
import { ReadModel } from "../queries/read-model.js";
import { ClaudeCodeProvider } from "../providers/claude-code/provider.js";
import { copyClaudeHome } from "../../test/helpers/claude-code-fixture.js";
import { CodexProvider } from "../providers/codex/provider.js";
import { copyCodexHome, installOf as codexInstall } from "../../test/helpers/codex-fixture.js";
import type { Install, Provider } from "../providers/contract.js";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { Store } from "../store/store.js";
import { sessionIdOf, transcripts, type RawLine } from "../../test/helpers/claude-code-oracle.js";
import { ChangeWatcher, MAX_HINT_PATHS, type DetectionState, type WatchEventType, type WatchFactory } from "./change-watch.js";
import { Collector } from "./collector.js";

test.after(removeTempDirs);

const HOUR = 3_600_000;
const logger = new LogHub({ console: "off" }).logger;

/** Polls `cond` until it holds or the deadline passes (no fixed sleeps). */
async function until(cond: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

interface FakeWatch {
  onEvent: (type: WatchEventType, name: string | null) => void;
  onError: (err: Error) => void;
}

/** Watches the test fires by hand; `failWith` makes creation throw (ENOSPC, EMFILE). */
class FakeWatches {
  readonly open = new Map<string, FakeWatch>();
  failWith: Error | null = null;
  readonly factory: WatchFactory = (dir, onEvent, onError) => {
    if (this.failWith) throw this.failWith;
    const w: FakeWatch = { onEvent, onError };
    this.open.set(dir, w);
    return {
      close: () => {
        if (this.open.get(dir) === w) this.open.delete(dir);
      },
    };
  };

  fire(dir: string, type: WatchEventType, name: string | null): void {
    const w = this.open.get(dir);
    if (!w) throw new Error(`no watch on ${dir}; watched: ${[...this.open.keys()].join(", ")}`);
    w.onEvent(type, name);
  }

  fail(dir: string, err: Error): void {
    const w = this.open.get(dir);
    if (!w) throw new Error(`no watch on ${dir}`);
    w.onError(err);
  }
}

const errno = (code: string, message: string): Error => Object.assign(new Error(message), { code });

// ---------------------------------------------------------------------------------------------
// The watcher over Codex's targets (date-nested rollout dirs): bursts, new day dirs, failures.
// ---------------------------------------------------------------------------------------------

function codexTree(): { home: string; day: string; month: string; install: Install; targets: ReturnType<NonNullable<Provider["watchTargets"]>> } {
  const home = makeTempDir("gi-watch-");
  const month = path.join(home, "sessions", "2026", "11");
  const day = path.join(month, "23");
  fs.mkdirSync(day, { recursive: true });
  const install = codexInstall(home);
  const provider = new CodexProvider({ env: {}, home, dirs: [home], pricer: new Pricer() });
  return { home, day, month, install, targets: provider.watchTargets(install) };
}

function watcherOf(fake: FakeWatches, opts: { maxDirs?: number } = {}) {
  const clock = manualClock();
  const changes: string[] = [];
  const states: Array<DetectionState | null> = [];
  const watcher = new ChangeWatcher({ watch: fake.factory, clock, logger, debounceMs: 0, retryMs: 60_000, onChange: (id) => changes.push(id), onState: (_id, s) => states.push(s), ...opts });
  return { watcher, clock, changes, states };
}

test("a burst of writes to one rollout is one change; other names are ignored; a new day's dir is watched as it appears", async () => {
  const fake = new FakeWatches();
  const { home, day, month, targets } = codexTree();
  const { watcher, changes } = watcherOf(fake);
  watcher.sync("codex:default", targets);
  assert.is(watcher.state("codex:default")?.mode, "watching");
  // sessions, 2026, 11, 23; and the home for archived_sessions, which does not exist yet.
  assert.equal([...fake.open.keys()].sort(), [home, path.join(home, "sessions"), path.join(home, "sessions", "2026"), month, day].sort());

  const rollout = "rollout-2026-11-23T10-00-00-0199a0b1-0000-7000-8000-000000000001.jsonl";
  fake.fire(day, "change", rollout);
  fake.fire(day, "change", rollout);
  fake.fire(day, "change", rollout);
  await until(() => changes.length >= 1, "the burst's change");
  // Not a rollout: no refresh. The next rollout write is the second change, so the burst was one.
  fake.fire(day, "change", "notes.txt");
  fake.fire(day, "change", rollout);
  await until(() => changes.length >= 2, "the second change");
  assert.equal(changes, ["codex:default", "codex:default"]);

  // A new day: its dir is watched from the event that names it, and read at once.
  const next = path.join(month, "24");
  fs.mkdirSync(next);
  fake.fire(month, "rename", "24");
  assert.ok(fake.open.has(next), "the new day dir is watched");
  await until(() => changes.length >= 3, "the change for the new day");
  // Not a date dir: not entered.
  fs.mkdirSync(path.join(month, "tmp"));
  fake.fire(month, "rename", "tmp");
  assert.not.ok(fake.open.has(path.join(month, "tmp")));
  // The day dir removed: its watch goes.
  fs.rmSync(next, { recursive: true });
  fake.fire(month, "rename", "24");
  assert.not.ok(fake.open.has(next));

  // archived_sessions appears: it was waited for in its parent, and is watched now.
  fs.mkdirSync(path.join(home, "archived_sessions"));
  fake.fire(home, "rename", "archived_sessions");
  assert.ok(fake.open.has(path.join(home, "archived_sessions")));
  watcher.close();
  assert.is(fake.open.size, 0, "close ends every watch");
});

test("each burst hands over the files it named; a nameless event, a new dir or too many names make it null (read everything)", async () => {
  const fake = new FakeWatches();
  const { month, day, targets } = codexTree();
  const clock = manualClock();
  const got: Array<{ id: string; paths: string[] | null }> = [];
  const watcher = new ChangeWatcher({
    watch: fake.factory,
    clock,
    logger,
    debounceMs: 0,
    onChange: (id, hint) => got.push({ id, paths: hint ? [...hint.paths].sort() : null }),
  });
  watcher.sync("codex:default", targets);
  const a = "rollout-2026-11-23T10-00-00-0199a0b1-0000-7000-8000-000000000001.jsonl";
  const b = "rollout-2026-11-23T11-00-00-0199a0b1-0000-7000-8000-000000000002.jsonl";
  fake.fire(day, "change", a);
  fake.fire(day, "rename", b);
  fake.fire(day, "change", a);
  fake.fire(day, "change", "notes.txt");
  await until(() => got.length >= 1, "the first burst");
  assert.equal(got[0], { id: "codex:default", paths: [path.join(day, a), path.join(day, b)].sort() }, "both files named, once each, absolute");
  // The next burst starts anew.
  fake.fire(day, "change", b);
  await until(() => got.length >= 2, "the second burst");
  assert.equal(got[1]?.paths, [path.join(day, b)]);
  // A nameless event anywhere in a burst: not known.
  fake.fire(day, "change", a);
  fake.fire(day, "change", null);
  await until(() => got.length >= 3, "the nameless burst");
  assert.is(got[2]?.paths, null);
  // A new dir: what was written in it before its watch is not named by any event.
  fs.mkdirSync(path.join(month, "24"));
  fake.fire(day, "change", a);
  fake.fire(month, "rename", "24");
  await until(() => got.length >= 4, "the new dir's burst");
  assert.is(got[3]?.paths, null);
  // More names than a hint holds.
  for (let i = 0; i <= MAX_HINT_PATHS; i++) fake.fire(day, "change", `rollout-2026-11-23T10-00-00-0199a0b1-0000-7000-8000-${String(i).padStart(12, "0")}.jsonl`);
  await until(() => got.length >= 5, "the long burst");
  assert.is(got[4]?.paths, null);
  fake.fire(day, "change", a);
  await until(() => got.length >= 6, "a burst after the long one");
  assert.equal(got[5]?.paths, [path.join(day, a)]);
  watcher.close();
});

test("a watch that errors falls back to polling with the reason; watching is tried again after retryMs", () => {
  const fake = new FakeWatches();
  const { day, targets } = codexTree();
  const { watcher, clock, states } = watcherOf(fake);
  watcher.sync("codex:default", targets);
  fake.fail(day, errno("EIO", "watch broke"));
  const state = watcher.state("codex:default");
  assert.is(state?.mode, "polling");
  assert.match(state?.reason ?? "", /a watch failed: watch broke/);
  assert.is(fake.open.size, 0, "every watch of the source is closed");
  assert.is(watcher.watchedDirs, 0);
  // Not yet: the poll goes on.
  watcher.sync("codex:default", targets);
  assert.is(watcher.state("codex:default")?.mode, "polling");
  clock.advance(60_000);
  watcher.sync("codex:default", targets);
  assert.is(watcher.state("codex:default")?.mode, "watching");
  assert.ok(fake.open.has(day));
  assert.equal(states.map((s) => s?.mode), ["watching", "polling", "watching"]);
});

test("inotify limits: ENOSPC or EMFILE when watching, or more dirs than allowed, mean polling, and say which limit", () => {
  const { targets } = codexTree();
  for (const [code, want] of [["ENOSPC", /max_user_watches/], ["EMFILE", /max_user_instances/]] as const) {
    const fake = new FakeWatches();
    fake.failWith = errno(code, `${code}: System limit reached, watch '/x'`);
    const { watcher } = watcherOf(fake);
    watcher.sync("codex:default", targets);
    assert.is(watcher.state("codex:default")?.mode, "polling", code);
    assert.match(watcher.state("codex:default")?.reason ?? "", want);
    assert.is(watcher.watchedDirs, 0);
  }
  const fake = new FakeWatches();
  const { watcher } = watcherOf(fake, { maxDirs: 3 });
  watcher.sync("codex:default", targets);
  assert.equal(watcher.state("codex:default")?.reason, "more than 3 directories to watch");
  assert.is(fake.open.size, 0);
});

test("an install past the limit is found so without making (and closing) a watch per allowed dir, at every retry", () => {
  // A polled install's watching is tried again every retryMs; it must not cost maxDirs watches each time.
  const home = makeTempDir("gi-watch-wide-");
  const dirs = 40;
  for (let i = 0; i < dirs; i++) fs.mkdirSync(path.join(home, `d${i}`));
  let made = 0;
  const fake = new FakeWatches();
  const counted: WatchFactory = (dir, onEvent, onError) => {
    made++;
    return fake.factory(dir, onEvent, onError);
  };
  const maxDirs = 10;
  const clock = manualClock();
  const watcher = new ChangeWatcher({ watch: counted, clock, logger, debounceMs: 0, retryMs: 60_000, maxDirs, onChange: () => undefined });
  const targets = [{ dir: home, depth: 1 }];
  watcher.sync("claude-code:wide", targets);
  assert.equal(watcher.state("claude-code:wide")?.reason, `more than ${maxDirs} directories to watch`);
  clock.advance(60_000);
  made = 0;
  watcher.sync("claude-code:wide", targets);
  assert.is(watcher.state("claude-code:wide")?.mode, "polling");
  // The root's own watch is made before its dirs are counted; none of the 40 below it.
  assert.ok(made <= 1, `${made} watches made by a retry of ${dirs + 1} dirs past a limit of ${maxDirs}`);
  assert.is(fake.open.size, 0);
});

test("the watched dir itself removed: its watch is dropped and its parent waits for it to come back", () => {
  const fake = new FakeWatches();
  const { home, targets } = codexTree();
  const { watcher } = watcherOf(fake);
  watcher.sync("codex:default", targets);
  const sessions = path.join(home, "sessions");
  fs.rmSync(sessions, { recursive: true });
  fake.fire(sessions, "rename", "sessions");
  assert.not.ok(fake.open.has(sessions));
  assert.ok(fake.open.has(home));
  assert.is(watcher.state("codex:default")?.mode, "watching");
  fs.mkdirSync(path.join(sessions, "2026"), { recursive: true });
  fake.fire(home, "rename", "sessions");
  assert.ok(fake.open.has(path.join(sessions, "2026")));

  // Moved away and made anew at the same path (a watch follows the inode, not the path): the
  // next sync watches the new dir and what is in it.
  fs.renameSync(sessions, `${sessions}.old`);
  fs.mkdirSync(path.join(sessions, "2027"), { recursive: true });
  assert.not.ok(fake.open.has(path.join(sessions, "2027")));
  watcher.sync("codex:default", targets);
  assert.ok(fake.open.has(path.join(sessions, "2027")), "the new sessions dir is watched");
  assert.not.ok(fake.open.has(path.join(sessions, "2026")), "the moved one's watches are gone");
});

test("a root replaced, or one that appeared, seen only by a sync (its events missed): the source is read as well as watched", async () => {
  const fake = new FakeWatches();
  const { home, targets } = codexTree();
  const { watcher, changes } = watcherOf(fake);
  watcher.sync("codex:default", targets);
  const sessions = path.join(home, "sessions");
  // Replaced with a rollout already in it, and no event seen (a watch follows the old inode).
  fs.renameSync(sessions, `${sessions}.old`);
  fs.mkdirSync(path.join(sessions, "2027", "01", "02"), { recursive: true });
  fs.writeFileSync(path.join(sessions, "2027", "01", "02", "rollout-2027-01-02T10-00-00-0199a0b1-0000-7000-8000-000000000002.jsonl"), "{}\n");
  watcher.sync("codex:default", targets);
  // The rollout written before the new watch existed: only a refresh of the source reads it.
  await until(() => changes.length >= 1, "a refresh after the replaced root is watched again");
  // archived_sessions appeared without the event (its parent waits for sessions only, or the event was lost).
  fs.mkdirSync(path.join(home, "archived_sessions"));
  fs.rmSync(sessions, { recursive: true });
  watcher.sync("codex:default", targets);
  // The removal is a replacement too (the watched inode is gone): that refresh first.
  await until(() => changes.length >= 2, "a refresh after the root went");
  const after = changes.length;
  fs.mkdirSync(sessions);
  watcher.sync("codex:default", targets);
  await until(() => changes.length > after, "a refresh after the root that appeared is watched");
  watcher.close();
});

// ---------------------------------------------------------------------------------------------
// The collector: a change refreshes that source only; a failure shows in the health check.
// ---------------------------------------------------------------------------------------------

/** The provider, counting the refreshes of each install (AgentSource.refresh asks identity first). */
function counting(p: Provider, refreshes: Map<string, number>): Provider {
  return {
    name: p.name,
    discover: () => p.discover(),
    identity: (i) => {
      refreshes.set(i.id, (refreshes.get(i.id) ?? 0) + 1);
      return p.identity(i);
    },
    open: (i) => p.open(i),
    price: (i, r) => p.price(i, r),
    ...(p.watchTargets ? { watchTargets: (i: Install) => p.watchTargets?.(i) ?? [] } : {}),
  };
}

function collectorOver(watch: WatchFactory | undefined, refreshes = new Map<string, number>(), watchedPollEvery?: number, wrap: (p: Provider) => Provider = (p) => p) {
  const claude = copyClaudeHome();
  const codex = copyCodexHome();
  const clock = manualClock(Date.parse("2026-11-25T00:00:00Z"));
  const store = Store.open(path.join(makeTempDir("gi-watch-store-"), "insights.db"), { clock });
  const pricer = new Pricer();
  const providers = [
    counting(wrap(new ClaudeCodeProvider({ env: {}, home: claude.home, dirs: null, pricer })), refreshes),
    counting(wrap(new CodexProvider({ env: {}, home: codex.home, dirs: null, pricer })), refreshes),
  ];
  const collector = new Collector({
    providers,
    gatewaySide: null,
    stateDir: makeTempDir("gi-watch-state-"),
    store,
    clock,
    logger,
    gatewayUrl: () => null,
    sampleMs: HOUR,
    // The poll would take an hour: only a watch event can refresh within the test.
    scanMs: HOUR,
    ...(watch ? { watch } : {}),
    watchDebounceMs: 0,
    ...(watchedPollEvery ? { watchedPollEvery } : {}),
  });
  const model = new ReadModel({ store, collector, clock, appVersion: "0.1.0", startedAt: clock.now(), demo: false, openclawDir: null, timeZone: "UTC", rawDays: () => 7 });
  const close = async (): Promise<void> => {
    await collector.stop();
    store.close();
  };
  return { claude, codex, collector, model, close, refreshes };
}

const detectionOf = (model: ReadModel, provider: "claude-code" | "codex") => model.systemOf(provider).health.checks.find((c) => c.name === "detection");

test("a change seen in one source's files refreshes that source only", async () => {
  const fake = new FakeWatches();
  const c = collectorOver(fake.factory);
  try {
    c.collector.start();
    await until(() => c.collector.registry.ready && c.collector.registry.agentSnapshots().every((a) => a.detection?.mode === "watching"), "the first pass and the watches");
    const before = new Map(c.refreshes);
    const claudeProject = path.dirname(transcripts(c.claude.claudeDir)[0]?.file as string);
    const claudeFile = path.basename(transcripts(c.claude.claudeDir)[0]?.file as string);
    const claudeBefore = before.get("claude-code:default") ?? 0;
    const codexBefore = before.get("codex:default") ?? 0;
    fake.fire(claudeProject, "change", claudeFile);
    await until(() => c.refreshes.get("claude-code:default") === claudeBefore + 1, "the first Claude Code refresh");
    // A second one: once it ran, any pass the first event started elsewhere has ended too.
    fake.fire(claudeProject, "change", claudeFile);
    await until(() => c.refreshes.get("claude-code:default") === claudeBefore + 2, "the second Claude Code refresh");
    assert.is(c.refreshes.get("codex:default") ?? 0, codexBefore, "Codex was not read again");
    // And the other way round.
    const day = [...fake.open.keys()].find((d) => /sessions\/\d{4}\/\d{2}\/\d{2}$/.test(d)) as string;
    assert.ok(day, "a Codex day dir is watched");
    fake.fire(day, "change", "rollout-x.jsonl");
    await until(() => c.refreshes.get("codex:default") === codexBefore + 1, "the Codex refresh");
    fake.fire(day, "change", "rollout-x.jsonl");
    await until(() => c.refreshes.get("codex:default") === codexBefore + 2, "the second Codex refresh");
    assert.is(c.refreshes.get("claude-code:default"), claudeBefore + 2, "Claude Code was not read again");
  } finally {
    await c.close();
  }
});

test("a watch that fails: that source is polled, and its provider's detection check says so and why", async () => {
  const fake = new FakeWatches();
  const c = collectorOver(fake.factory);
  try {
    c.collector.start();
    await until(() => c.collector.registry.ready && c.collector.registry.agentSnapshots().every((a) => a.detection?.mode === "watching"), "the first pass and the watches");
    assert.equal(detectionOf(c.model, "claude-code"), { name: "detection", status: "PASS", message: "watching 1 source for changes", text: { id: "health.detection.watching", params: { n: 1 } } });
    const projects = path.join(c.claude.claudeDir, "projects");
    fake.fail(projects, errno("ENOSPC", "ENOSPC: System limit for number of file watchers reached, watch"));
    const check = detectionOf(c.model, "claude-code");
    assert.is(check?.status, "WARN");
    assert.is(check?.message, "polling only (changes seen at the next poll): claude-code:default: a watch failed: the system's inotify watch limit is reached (raise fs.inotify.max_user_watches)");
    // The daemon's one verdict (/health, insightsctl status) carries it, under the provider's name.
    const overall = c.model.overallHealth();
    assert.is(overall.checks.find((x) => x.name === "claude-code/detection")?.status, "WARN");
    assert.is(overall.verdict, "DEGRADED");
    // Codex is still watched.
    assert.is(detectionOf(c.model, "codex")?.status, "PASS");
    assert.not.ok([...fake.open.keys()].some((d) => d.startsWith(c.claude.claudeDir)), "the failed source's watches are closed");
  } finally {
    await c.close();
  }
});

test("the poll is the fallback: a watched source is read by every third pass only, a polled one by every pass", async () => {
  const fake = new FakeWatches();
  const c = collectorOver(fake.factory, new Map(), 3);
  try {
    c.collector.start();
    await until(() => c.collector.registry.ready && c.collector.registry.agentSnapshots().every((a) => a.detection?.mode === "watching"), "the first pass and the watches");
    const count = (id: string): number => c.refreshes.get(id) ?? 0;
    const claude0 = count("claude-code:default");
    const codex0 = count("codex:default");
    for (let i = 0; i < 3; i++) await c.collector.run("agents");
    assert.equal({ claude: count("claude-code:default") - claude0, codex: count("codex:default") - codex0 }, { claude: 1, codex: 1 }, "both watched: one read in three passes");
    fake.fail(path.join(c.claude.claudeDir, "projects"), errno("EIO", "watch broke"));
    for (let i = 0; i < 3; i++) await c.collector.run("agents");
    assert.equal({ claude: count("claude-code:default") - claude0, codex: count("codex:default") - codex0 }, { claude: 4, codex: 2 }, "Claude Code polled only: read by every pass");
  } finally {
    await c.close();
  }
});

test("a watched source sitting out a pass still sees a process end (no file event tells it): its live session is gone at the next pass", async () => {
  const fake = new FakeWatches();
  const c = collectorOver(fake.factory, new Map(), 15);
  // A running Claude Code process (node started as `claude`: only the provider's program counts as
  // a live session) and its record; killed later as a crash would (the record stays).
  const bin = path.join(makeTempDir(), "claude");
  fs.symlinkSync(process.execPath, bin);
  const child = spawn(bin, ["-e", "setInterval(() => {}, 60000)"], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    const pid = child.pid as number;
    // Until the exec is done, /proc shows the forking parent's names.
    await until(() => fs.readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("setInterval"), "the child's exec");
    const sessionsDir = path.join(c.claude.claudeDir, "sessions");
    fs.mkdirSync(sessionsDir, { recursive: true });
    fs.writeFileSync(path.join(sessionsDir, `${pid}.json`), JSON.stringify({ pid, sessionId: "5f0c8a52-0000-4000-8000-00000000live" }));
    c.collector.start();
    const claude = () => c.collector.registry.agentSnapshots().find((a) => a.id === "claude-code:default");
    await until(() => c.collector.registry.ready && c.collector.registry.agentSnapshots().every((a) => a.detection?.mode === "watching"), "the first pass and the watches");
    await c.collector.run("agents");
    assert.equal(claude()?.live.map((l) => l.pid), [pid], "the running process is seen");
    child.kill("SIGKILL");
    await exited;
    // One poll pass: before issue 13 every pass looked at who runs; a watched source sits 14 of 15 out.
    await c.collector.run("agents");
    assert.equal(claude()?.live.map((l) => l.pid), [], "the ended process is not live any more");
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await c.close();
  }
});

test("stop waits for the refreshes a change started (and one queued behind): none reads on, or opens a reader, after it", async () => {
  const fake = new FakeWatches();
  const c = collectorOver(fake.factory);
  let closed = false;
  try {
    c.collector.start();
    await until(() => c.collector.registry.ready && c.collector.registry.agentSnapshots().every((a) => a.detection?.mode === "watching"), "the first pass and the watches");
    const ended: string[] = [];
    // What a watch event starts (collector.ts: onChange): one pass running, one queued behind it.
    void c.collector.registry.refreshSource("codex:default").finally(() => ended.push("first"));
    void c.collector.registry.refreshSource("codex:default").finally(() => ended.push("queued"));
    await c.collector.stop();
    assert.equal(ended.sort(), ["first", "queued"], "both passes ended before stop did");
    assert.is(c.collector.registry.source("codex:default")?.openReader() ?? null, null, "no reader open after stop");
    await c.close();
    closed = true;
  } finally {
    if (!closed) await c.close();
  }
});

test("what was written after a source's read but before its watch existed is read by the next poll pass, not the 15th", async () => {
  const fake = new FakeWatches();
  const c = collectorOver(fake.factory, new Map(), 15);
  try {
    // The first pass reads every source, then their watches are made (after the whole pass: a big
    // install's first scan may take minutes). A response appended in between makes no event.
    c.collector.start();
    await until(() => c.collector.registry.ready && c.collector.registry.agentSnapshots().every((a) => a.detection?.mode === "watching"), "the first pass and the watches");
    const w1 = sessionIdOf("a192c37f", transcripts(c.claude.claudeDir));
    const before = c.model.session("claude-code:default", w1.key);
    const response = w1.lines.find((l) => l.type === "assistant") as RawLine;
    const line: RawLine = {
      ...response,
      uuid: "44444444-4444-4444-8444-444444444444",
      timestamp: "2026-11-23T22:00:02.000Z",
      requestId: "req_011Cgapgapgapgapgapgapgap",
      message: { ...response.message, id: "msg_01gapgapgapgapgapgapgap", usage: { ...response.message.usage, input_tokens: 5, output_tokens: 23, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 } } },
    };
    fs.appendFileSync(w1.file, `${JSON.stringify(line)}\n`);
    await c.collector.run("agents");
    assert.is(c.model.session("claude-code:default", w1.key)?.outputTokens, (before?.outputTokens ?? 0) + 23, "the response is read by the first pass after the watch began");
  } finally {
    await c.close();
  }
});

test("real fs.watch: a response appended to a copied Claude Code transcript is read without waiting for the (hour-long) poll", async () => {
  const c = collectorOver(undefined);
  try {
    c.collector.start();
    await until(() => c.collector.registry.ready && c.collector.registry.agentSnapshots().every((a) => a.detection?.mode === "watching"), "the first pass and the watches");
    const ts = transcripts(c.claude.claudeDir);
    const w1 = sessionIdOf("a192c37f", ts);
    const key = w1.key;
    const before = c.model.session("claude-code:default", key);
    assert.ok(before, "the session is read");
    const response = w1.lines.find((l) => l.type === "assistant") as RawLine;
    const line: RawLine = {
      ...response,
      uuid: "33333333-3333-4333-8333-333333333333",
      timestamp: "2026-11-23T22:00:01.000Z",
      requestId: "req_011Cwatchedwatchedwatched",
      message: { ...response.message, id: "msg_01watchedwatchedwatched", usage: { ...response.message.usage, input_tokens: 7, output_tokens: 11, cache_read_input_tokens: 13, cache_creation_input_tokens: 17, cache_creation: { ephemeral_5m_input_tokens: 17, ephemeral_1h_input_tokens: 0 } } },
    };
    const changes: string[] = [];
    c.collector.onChange((id) => changes.push(id));
    fs.appendFileSync(w1.file, `${JSON.stringify(line)}\n`);
    await until(() => (c.model.session("claude-code:default", key)?.outputTokens ?? 0) === (before?.outputTokens ?? 0) + 11, "the appended response in the session");
    const after = c.model.session("claude-code:default", key);
    assert.is(after?.inputTokens, (before?.inputTokens ?? 0) + 7);
    assert.is(after?.assistantMessages, (before?.assistantMessages ?? 0) + 1);
    // The read model sees the write as soon as the scanner commits it; the refresh announces it when it ends.
    await until(() => changes.includes("claude-code:default"), "dataChanged announced for the source");
    assert.not.ok(changes.includes("codex:default"), "nothing announced for a source that did not change");
  } finally {
    await c.close();
  }
});

/** A provider whose readers count full listings (per source id). */
function listingSpy(lists: Map<string, number>): (p: Provider) => Provider {
  return (p) => ({
    name: p.name,
    discover: () => p.discover(),
    identity: (i) => p.identity(i),
    open: (i) => {
      const opened = p.open(i);
      if (!opened.ok) return opened;
      const reader = opened.value;
      const count = (): void => void lists.set(i.id, (lists.get(i.id) ?? 0) + 1);
      const spy = new Proxy(reader, {
        get(target, prop) {
          if (prop === "listTranscripts") return () => (count(), target.listTranscripts());
          if (prop === "listTranscriptsPaced") return undefined; // every listing goes through listTranscripts, counted
          const v = Reflect.get(target, prop) as unknown;
          return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      return { ...opened, value: spy };
    },
    price: (i, r) => p.price(i, r),
    ...(p.watchTargets ? { watchTargets: (i: Install) => p.watchTargets?.(i) ?? [] } : {}),
  });
}

test("real fs.watch: an appended Claude Code line is read from that file alone (no listing of the install), and counted once", async () => {
  const lists = new Map<string, number>();
  const c = collectorOver(undefined, new Map(), undefined, listingSpy(lists));
  try {
    c.collector.start();
    await until(() => c.collector.registry.ready && c.collector.registry.agentSnapshots().every((a) => a.detection?.mode === "watching"), "the first pass and the watches");
    // The poll is an hour away: the first pass and the first pass after the watch began list; nothing else will.
    await c.collector.run("agents");
    const listsBefore = lists.get("claude-code:default") ?? 0;
    assert.ok(listsBefore >= 1, "the first pass lists");
    const w1 = sessionIdOf("a192c37f", transcripts(c.claude.claudeDir));
    const before = c.model.session("claude-code:default", w1.key);
    const response = w1.lines.find((l) => l.type === "assistant") as RawLine;
    const line = (n: number, output: number): RawLine => ({
      ...response,
      uuid: `44444444-4444-4444-8444-44444444444${n}`,
      timestamp: `2026-11-23T22:00:0${n}.000Z`,
      requestId: `req_011Cperfile${n}`,
      message: { ...response.message, id: `msg_01perfile${n}`, usage: { ...response.message.usage, input_tokens: 3, output_tokens: output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 } } },
    });
    fs.appendFileSync(w1.file, `${JSON.stringify(line(1, 19))}\n`);
    await until(() => (c.model.session("claude-code:default", w1.key)?.outputTokens ?? 0) === (before?.outputTokens ?? 0) + 19, "the first appended response");
    // The same response's second content-block line (same message id, whole usage again) counts once.
    fs.appendFileSync(w1.file, `${JSON.stringify({ ...line(1, 19), uuid: "44444444-4444-4444-8444-444444444449" })}\n${JSON.stringify(line(2, 5))}\n`);
    await until(() => (c.model.session("claude-code:default", w1.key)?.outputTokens ?? 0) === (before?.outputTokens ?? 0) + 24, "the second response");
    await c.collector.registry.settle();
    const after = c.model.session("claude-code:default", w1.key);
    assert.is(after?.inputTokens, (before?.inputTokens ?? 0) + 6);
    assert.is(after?.assistantMessages, (before?.assistantMessages ?? 0) + 2);
    assert.is(lists.get("claude-code:default") ?? 0, listsBefore, "no refresh after an appended line listed the install");
    // A refresh without a hint (the poll's, or the safety net's) polls the reader's kept listing (issue 18) and finds nothing more to count.
    await c.collector.registry.refreshSource("claude-code:default");
    assert.is(c.model.session("claude-code:default", w1.key)?.outputTokens, (before?.outputTokens ?? 0) + 24);
  } finally {
    await c.close();
  }
});

test.run();
