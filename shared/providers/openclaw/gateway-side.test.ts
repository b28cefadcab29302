// OpenClaw's gateway capability as the layers above see it: one object, located and opened on a
// copy of the fixture state dir, whose provider, monitor, cron reader, log and default agent all
// read the same install. Expected values come from the fixture's files and the test's own edits.
import Database from "better-sqlite3";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../../base/clock.js";
import { LogHub } from "../../base/log/logger.js";
import { Store } from "../../store/store.js";
import { copyFixture, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "../../../test/helpers/openclaw-fixtures.js";
import type { GatewayLocation } from "../gateway-contract.js";
import { GATEWAY, GATEWAY_CAPABILITIES } from "../modules.js";
import { GATEWAY_PROVIDER, providersWith } from "../registry.js";
import { fail, SourceError } from "../result.js";
import { openclawGateway } from "./gateway-side.js";

test.after(removeTempDirs);

const cap = openclawGateway;
const located = (dir: string): GatewayLocation => ({ dir, demo: false, origin: "config" });
const editConfig = (dir: string, edit: (c: Record<string, unknown>) => void): void => {
  const file = join(dir, "openclaw.json");
  const config = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  edit(config);
  writeFileSync(file, JSON.stringify(config));
};

test("each provider declaring `gateway` registers its capability; the daemon's is the registry's gateway provider's", () => {
  assert.ok(providersWith("gateway").length > 0);
  for (const name of providersWith("gateway")) assert.type(GATEWAY_CAPABILITIES[name].open, "function");
  assert.ok(GATEWAY_PROVIDER !== null && GATEWAY === GATEWAY_CAPABILITIES[GATEWAY_PROVIDER]);
  assert.is(GATEWAY, cap);
});

test("locate: the configured dir, else OPENCLAW_STATE_DIR, else ~/.openclaw once it exists; forced on, ~/.openclaw", () => {
  const [home, configured, fromEnv] = [makeTempDir(), makeTempDir(), makeTempDir()];
  assert.equal(cap.locate({ configured, env: { HOME: home, OPENCLAW_STATE_DIR: fromEnv } }), { dir: configured, demo: false, origin: "config" });
  assert.equal(cap.locate({ configured: null, env: { HOME: home, OPENCLAW_STATE_DIR: fromEnv } }), { dir: fromEnv, demo: false, origin: "env" });
  assert.is(cap.locate({ configured: null, env: { HOME: home } }), null);
  assert.equal(cap.defaultLocation({ HOME: home }), { dir: join(home, ".openclaw"), demo: false, origin: "home" });
  mkdirSync(join(home, ".openclaw"));
  assert.equal(cap.locate({ configured: null, env: { HOME: home } }), { dir: join(home, ".openclaw"), demo: false, origin: "home" });
  assert.equal(cap.lookedAt({ configured, env: { HOME: home } }).dir, configured);
  assert.equal(cap.operations.env(located(configured)), { OPENCLAW_STATE_DIR: configured });
});

test("open: the provider reads the fixture's agents, and cron and the log file come from the same state dir", () => {
  const dir = copyFixture(SQLITE_FIXTURE);
  const side = cap.open(located(dir), { HOME: makeTempDir() });
  assert.equal(side.location, located(dir));
  const found = side.provider.discover();
  assert.equal(found.installs.map((i) => i.localId).sort(), readdirSync(join(dir, "agents")).sort());

  const db = new Database(join(dir, "state", "openclaw.sqlite"), { readonly: true });
  const jobIds = (db.prepare("SELECT job_id FROM cron_jobs").all() as Array<{ job_id: string }>).map((r) => r.job_id).sort();
  db.close();
  const cron = side.readCron({ nowMs: Date.parse("2026-11-22T00:00:00Z"), hostTimeZone: "UTC" });
  if (!cron.ok) throw cron.error;
  assert.ok(jobIds.length > 0);
  assert.equal(cron.value.jobs.map((j) => j.id).sort(), jobIds);

  // logging.file names a dated file: on its day, that file.
  const config = JSON.parse(readFileSync(join(dir, "openclaw.json"), "utf8")) as { logging: { file: string } };
  const active = side.activeLogPath(Date.parse("2026-11-21T12:00:00Z"));
  assert.is(active, join(dir, config.logging.file));
  const lines = readFileSync(active, "utf8").split("\n").filter((l) => l.trim() !== "").length;
  const first = side.log.follow(null, { resolveActivePath: () => active, clock: manualClock(Date.parse("2026-11-21T12:00:00Z")), maxBytes: 1 << 24 });
  if (!first.ok) throw first.error;
  assert.is(first.value.lines.length, lines);
  assert.ok(first.value.lines.every((l) => side.log.parse(l.text, l.file).ok));
  const again = side.log.follow(first.value.cursor, { resolveActivePath: () => active, clock: manualClock(Date.parse("2026-11-21T12:00:00Z")) });
  if (!again.ok) throw again.error;
  assert.is(again.value.lines.length, 0);
});

test("open: the default agent is the one the config marks, and the monitor probes the config's port", async () => {
  const dir = copyFixture(SQLITE_FIXTURE);
  const port = 18_999;
  editConfig(dir, (c) => {
    c.agents = { ...(c.agents as object), list: [{ id: "main" }, { id: "ops", default: true }] };
    c.gateway = { ...(c.gateway as object), port };
  });
  const side = cap.open(located(dir), { HOME: makeTempDir() });
  assert.is(side.configuredDefaultAgent(), null, "nothing is read before the first discovery");
  side.provider.discover();
  assert.is(side.configuredDefaultAgent(), "ops");

  const clock = manualClock(Date.parse("2026-11-22T00:00:00Z"));
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const asked: string[] = [];
  const monitor = side.monitor({
    store,
    clock,
    logger: new LogHub({ console: "off" }).logger,
    stateDir: makeTempDir(),
    gatewayUrl: () => null,
    sampleMs: 60_000,
    probeHttp: async (url) => {
      asked.push(url);
      return fail(new SourceError("unreachable", `connect ECONNREFUSED ${url}`));
    },
    channels: false,
    updates: false,
  });
  try {
    await monitor.tick({ record: false });
    assert.equal(asked, [`http://127.0.0.1:${port}`]);
    assert.is(monitor.snapshot().gateway.running, false);
    assert.is(monitor.snapshot().demo, false);
  } finally {
    await monitor.stop();
    store.close();
  }
});

test.run();
