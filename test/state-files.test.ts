// The daemon's own files against a real daemon: a state dir or file another user could have
// planted is refused before anything is trusted or written, the files it makes are private
// whatever the umask, sign-in survives a restart (and a corrupt or outdated key file does not stop
// a start), and a store that cannot be written (a full disk) is reported as stalled ingestion, not
// as a healthy store or a gateway that went down; nothing read meanwhile is lost.
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Daemon } from "../daemon/daemon.js";
import { ControlClient } from "../cli/control-client.js";
import { manualClock, pollUntil, shiftedClock, systemClock } from "../shared/base/clock.js";
import type { DaemonStatus } from "../shared/control/protocol.js";
import { InsightsError } from "../shared/base/errors.js";
import { resolvePaths } from "../shared/base/paths.js";
import { copyFixture, FILES_FIXTURE, removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import type { GatewayProbe } from "../shared/providers/openclaw/gateway/http-probe.js";
import { fail, ok, SourceError, type SourceResult } from "../shared/providers/result.js";
import { freePort } from "./helpers/cli.js";
import { FIXTURE_NOW, gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

const HOUR = 3_600_000;
const mode = (p: string): number => statSync(p).mode & 0o777;

/** HOME/XDG dirs under a fresh root, and the paths the daemon will use there. */
function layout(): { root: string; env: Record<string, string>; paths: ReturnType<typeof resolvePaths> } {
  const root = mkdtempSync(join(tmpdir(), "gi-sf-"));
  const env = { HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "config"), XDG_STATE_HOME: join(root, "state"), XDG_RUNTIME_DIR: join(root, "run"), PATH: process.env.PATH ?? "/usr/bin:/bin" };
  return { root, env, paths: resolvePaths(env) };
}

/** Starts a daemon on prepared dirs (startDaemon makes its own), with no gateway to probe. */
async function startOn(l: ReturnType<typeof layout>): Promise<Daemon> {
  return Daemon.start({
    paths: l.paths,
    env: { ...l.env, INSIGHTS_PORT: String(await freePort()) },
    flags: { openclawDir: copyFixture(SQLITE_FIXTURE) },
    clock: shiftedClock(systemClock, FIXTURE_NOW),
    console: "off",
    probeHttp: async () => fail(new SourceError("unreachable", "connect ECONNREFUSED (no gateway in this test)")),
    channels: false,
    updates: false,
  });
}

async function expectRefused(l: ReturnType<typeof layout>, pattern: RegExp): Promise<void> {
  let daemon: Daemon | undefined;
  try {
    daemon = await startOn(l);
  } catch (err) {
    assert.instance(err, InsightsError);
    assert.is((err as InsightsError).code, "UNSAFE_PATH");
    assert.match((err as Error).message, pattern);
    return;
  }
  await daemon.stop("test");
  assert.unreachable("the daemon started on an unsafe state dir");
}

/** A file elsewhere standing for one a root daemon must never touch. */
function victim(): { path: string; check(): void } {
  const path = join(mkdtempSync(join(tmpdir(), "gi-victim-")), "precious");
  const text = "a file that is not ours, longer than any token check of 32 characters\n";
  writeFileSync(path, text);
  chmodSync(path, 0o644);
  return {
    path,
    check: () => {
      assert.is(readFileSync(path, "utf8"), text, "the link's target was not written");
      assert.is(mode(path), 0o644, "the link's target was not chmodded");
    },
  };
}

test("a world-writable state dir holding a planted token is refused, naming the dir and the fix", async () => {
  const l = layout();
  mkdirSync(l.paths.stateDir, { recursive: true });
  chmodSync(l.paths.stateDir, 0o777);
  writeFileSync(l.paths.tokenFile, "planted-by-someone-else-0123456789abcdef\n", { mode: 0o644 });
  await expectRefused(l, new RegExp(`${l.paths.stateDir} is writable by other users.*chmod 700`));
  assert.is(readFileSync(l.paths.tokenFile, "utf8"), "planted-by-someone-else-0123456789abcdef\n");

  const r = layout();
  mkdirSync(r.paths.runtimeDir, { recursive: true });
  chmodSync(r.paths.runtimeDir, 0o777);
  await expectRefused(r, new RegExp(`runtime dir ${r.paths.runtimeDir} is writable by other users`));
});

test("a token, log, key file or store that is a symlink stops the start; what it points at is untouched", async () => {
  for (const which of ["tokenFile", "logFile", "sessionKeysFile", "dbFile"] as const) {
    const l = layout();
    mkdirSync(l.paths.stateDir, { recursive: true, mode: 0o700 });
    const v = victim();
    symlinkSync(v.path, l.paths[which]);
    await expectRefused(l, /symbolic link/);
    v.check();
  }
});

test("in an existing 0755 state dir under umask 022, every file the daemon makes is 0600 and the dir 0700", async () => {
  const l = layout();
  mkdirSync(l.paths.stateDir, { recursive: true });
  chmodSync(l.paths.stateDir, 0o755);
  const previous = process.umask(0o022);
  let daemon: Daemon | undefined;
  try {
    daemon = await startOn(l);
    const db = l.paths.dbFile;
    await pollUntil(() => existsSync(`${db}-wal`) && existsSync(`${db}-shm`), { what: "the store's WAL files" });
    for (const f of [db, `${db}-wal`, `${db}-shm`, l.paths.logFile, l.paths.tokenFile, l.paths.sessionKeysFile]) assert.is(mode(f), 0o600, f);
    assert.is(mode(l.paths.stateDir), 0o700);
  } finally {
    await daemon?.stop("test");
    process.umask(previous);
  }
});

async function signIn(d: TestDaemon): Promise<string> {
  const res = await fetch(`${d.url}/?token=${encodeURIComponent(d.token)}`, { redirect: "manual" });
  assert.is(res.status, 303);
  return (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

const sessionStatus = async (d: TestDaemon, cookie: string): Promise<number> => (await fetch(`${d.url}/api/session`, { headers: { cookie } })).status;

test("sign-in survives restarts; rotation and grace run on across them", async () => {
  const clock = manualClock(FIXTURE_NOW);
  const env = { INSIGHTS_SESSION_ROTATE_HOURS: "1", INSIGHTS_SESSION_GRACE_HOURS: "1" };
  let d = await startDaemon({ clock, env });
  try {
    const cookie = await signIn(d);
    assert.is(await sessionStatus(d, cookie), 200);
    assert.is(mode(d.paths.sessionKeysFile), 0o600);
    await d.stop({ keep: true });
    clock.advance(0.5 * HOUR);
    d = await startDaemon({ clock, again: d });
    assert.is(await sessionStatus(d, cookie), 200, "still signed in after a restart");

    clock.advance(HOUR); // +1.5 h: rotated at +1 h, the first key verifies until +2 h
    const newer = await signIn(d);
    await d.stop({ keep: true });
    d = await startDaemon({ clock, again: d });
    assert.is(await sessionStatus(d, cookie), 200, "within grace across a restart");
    assert.is(await sessionStatus(d, newer), 200);
    clock.advance(HOUR); // +2.5 h: the first key is gone, the second signs until +3 h
    await d.stop({ keep: true });
    d = await startDaemon({ clock, again: d });
    assert.is(await sessionStatus(d, cookie), 401, "expired keys stay expired after a restart");
    assert.is(await sessionStatus(d, newer), 200);
  } finally {
    await d.stop();
  }
});

test("a corrupt key file is replaced and logged, not fatal; a new token signs earlier sessions out", async () => {
  const clock = manualClock(FIXTURE_NOW);
  let d = await startDaemon({ clock });
  try {
    const cookie = await signIn(d);
    await d.stop({ keep: true });
    writeFileSync(d.paths.sessionKeysFile, "{ this is not json");
    d = await startDaemon({ clock, again: d });
    assert.is(await sessionStatus(d, cookie), 401, "keys that could not be read sign nobody in");
    const saved = JSON.parse(readFileSync(d.paths.sessionKeysFile, "utf8")) as { version: number; keys: unknown[] };
    assert.is(saved.version, 1);
    assert.is(saved.keys.length, 1, "replaced with a fresh ring");
    assert.match(readFileSync(d.paths.logFile, "utf8"), /session key file is unreadable; replaced it/);

    const second = await signIn(d);
    await d.stop({ keep: true });
    writeFileSync(d.paths.tokenFile, "a-brand-new-token-after-the-old-one-leaked-0123\n", { mode: 0o600 });
    d = await startDaemon({ clock, again: d });
    assert.is(d.token, "a-brand-new-token-after-the-old-one-leaked-0123");
    assert.is(await sessionStatus(d, second), 401, "replacing the token signs browsers out");
  } finally {
    await d.stop();
  }
});

/** A gateway that answers: the probe stub says live. */
const liveGateway = async (): Promise<SourceResult<GatewayProbe>> =>
  ok({ live: { live: true, status: "live", httpStatus: 200, roundTripMs: 1 }, ready: null, readyError: null });

function warnLine(i: number): string {
  const message = `disk-full test line ${i} ${"x".repeat(4000)}`;
  return JSON.stringify({ "0": '{"subsystem":"diagnostic"}', "1": message, _meta: { logLevelName: "WARN" }, time: "2026-11-21T23:19:40.000+00:00", message }) + "\n";
}

async function warnings(d: TestDaemon): Promise<number> {
  const r = await gqlData<{ source: { eventCounts: { warning: number } } }>(d, `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { eventCounts { warning } } } }`);
  return r.source.eventCounts.warning;
}

test("a full disk: /health and status say the store fails and ingestion stalled, the gateway stays up, nothing is lost", async () => {
  const d = await startDaemon({
    fixture: FILES_FIXTURE,
    env: { INSIGHTS_SAMPLE_INTERVAL_SECONDS: "1", INSIGHTS_GATEWAY_URL: "http://127.0.0.1:9" },
    daemon: { probeHttp: liveGateway, channels: false },
  });
  const log = join(d.openclawDir, "logs", "openclaw-2026-11-21.log");
  const health = async (): Promise<{ gateway: string; store: string }> => (await (await fetch(`${d.url}/health`)).json()) as { gateway: string; store: string };
  try {
    await pollUntil(async () => (await health()).gateway === "up", { what: "the gateway up" });
    const before = await pollUntil(async () => {
      const w = await warnings(d);
      return d.daemon.model.ready ? { w } : null;
    }, { what: "the first scan" });
    assert.is((await health()).store, "ok");

    // The disk fills: the store cannot get another page (SQLITE_FULL), as when the filesystem is full.
    const db = d.daemon.store.db;
    db.pragma(`max_page_count = ${db.pragma("page_count", { simple: true }) as number}`);
    for (let i = 0; i < 60; i++) appendFileSync(log, warnLine(i));

    const h = await pollUntil(async () => {
      const x = await health();
      return x.store === "error" ? x : null;
    }, { what: "/health to report the store failing" });
    assert.is(h.gateway, "up", "a full disk is not blamed on the gateway");
    const client = await ControlClient.connect(d.paths.socketFile);
    const status = await client.call<DaemonStatus>("status").finally(() => client.close());
    assert.is(status.store.ok, false);
    assert.match(status.store.error ?? "", /^ingestion stalled: .*SQLITE_FULL/);
    assert.is(status.gateway.up, true);
    const checks = d.daemon.model.systemOf("openclaw").health.checks;
    assert.is(checks.find((c) => c.name === "store")?.status, "FAIL");
    assert.is(checks.find((c) => c.name === "gateway")?.status, "PASS");
    assert.match(readFileSync(d.paths.logFile, "utf8"), /writes to the store fail: ingestion stalled/);

    // Space again: ingestion resumes where it stopped and every line written meanwhile is counted once.
    db.pragma("max_page_count = 1073741823");
    await pollUntil(async () => (await health()).store === "ok", { what: "the store to recover" });
    await pollUntil(async () => (await warnings(d)) === before.w + 60, { what: "the 60 lines written during the outage" });
  } finally {
    await d.stop();
  }
});

test.run();
