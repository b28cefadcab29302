import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../clock.js";
import { InsightsError } from "../errors.js";
import { MIGRATIONS, type Migration } from "./migrations.js";
import { runRetention } from "./retention.js";
import { Store } from "./store.js";

const fresh = (): string => join(mkdtempSync(join(tmpdir(), "gi-store-")), "insights.db");
const clock = manualClock();

test("a new store is migrated to the latest version in WAL mode", () => {
  const store = Store.open(fresh(), { clock });
  const latest = Math.max(...MIGRATIONS.map((m) => m.version));
  assert.is(store.schemaVersion, latest);
  assert.is(store.db.pragma("user_version", { simple: true }), latest);
  assert.is(store.db.pragma("journal_mode", { simple: true }), "wal");
  const applied = store.db.prepare("SELECT version FROM schema_migrations ORDER BY version").all() as Array<{ version: number }>;
  assert.equal(applied.map((r) => r.version), MIGRATIONS.map((m) => m.version));
  store.setMeta("k", "v");
  assert.is(store.getMeta("k"), "v");
  store.close();
});

test("a later migration upgrades an existing store and keeps its data", () => {
  const path = fresh();
  const v1 = Store.open(path, { clock, migrations: MIGRATIONS.filter((m) => m.version === 1) });
  v1.db.prepare("INSERT INTO gateway_samples (ts, up) VALUES (1, 1)").run();
  v1.close();
  const extra: Migration = { version: 99, name: "test column", up: (db) => db.exec("ALTER TABLE gateway_samples ADD COLUMN note TEXT") };
  const v2 = Store.open(path, { clock, migrations: [...MIGRATIONS, extra] });
  assert.is(v2.schemaVersion, 99);
  assert.equal(v2.db.prepare("SELECT ts, up, note FROM gateway_samples").all(), [{ ts: 1, up: 1, note: null }]);
  v2.close();
});

test("a failing migration rolls back and leaves the previous version", () => {
  const path = fresh();
  Store.open(path, { clock }).close();
  const broken: Migration = {
    version: 100,
    name: "half done",
    up: (db) => {
      db.exec("CREATE TABLE half (x INTEGER)");
      throw new Error("boom");
    },
  };
  assert.throws(() => Store.open(path, { clock, migrations: [...MIGRATIONS, broken] }), /boom/);
  const db = new Database(path);
  assert.is(db.pragma("user_version", { simple: true }), Math.max(...MIGRATIONS.map((m) => m.version)));
  const half = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half'").get() as { n: number };
  assert.is(half.n, 0);
  db.close();
});

test("a store from a newer version is refused with STORE_TOO_NEW", () => {
  const path = fresh();
  Store.open(path, { clock }).close();
  const db = new Database(path);
  db.pragma("user_version = 999");
  db.close();
  try {
    Store.open(path, { clock });
    assert.unreachable("should refuse");
  } catch (err) {
    assert.instance(err, InsightsError);
    assert.is((err as InsightsError).code, "STORE_TOO_NEW");
  }
});

test("a file that is not a database is moved aside and a new store started", () => {
  const path = fresh();
  writeFileSync(path, "this is not sqlite at all, just text that fills the header ".repeat(100));
  let moved = "";
  const store = Store.open(path, { clock, onRecovered: (to) => (moved = to) });
  assert.ok(moved && existsSync(moved), "the bad file is kept for the operator");
  assert.is(store.health().ok, true);
  store.close();
});

test("kill -9 at any moment loses nothing committed and the next open is clean", async () => {
  const writer = fileURLToPath(new URL("../../test/fixtures/store-writer.ts", import.meta.url));
  for (const killAfter of [50, 333, 1200]) {
    const path = fresh();
    let reported = 0;
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", writer, path], { stdio: ["ignore", "pipe", "inherit"] });
      let buf = "";
      child.stdout.on("data", (d: Buffer) => {
        buf += d.toString();
        const lines = buf.split("\n");
        buf = lines.pop() ?? "";
        for (const l of lines) reported = Number(l.split(" ")[1]);
        if (reported >= killAfter) child.kill("SIGKILL");
      });
      child.on("exit", (_code, signal) => (signal === "SIGKILL" ? resolve() : reject(new Error(`writer exited on its own (${signal})`))));
    });
    const store = Store.open(path, { clock });
    const n = (store.db.prepare("SELECT count(*) AS n, max(ts) AS m FROM gateway_samples").get() as { n: number; m: number });
    // Every commit it reported is there; at most the one in flight after the last report may be too.
    assert.ok(n.n >= reported && n.n <= reported + 1, `reported ${reported}, found ${n.n}`);
    assert.is(n.m, n.n, "rows are contiguous: no torn transaction");
    assert.is(store.db.pragma("integrity_check", { simple: true }), "ok");
    store.close();
    assert.ok(readdirSync(join(path, "..")).includes("insights.db"));
  }
});

test("retention rolls samples up into hours and deletes what is past its days", () => {
  const store = Store.open(fresh(), { clock });
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const now = Date.UTC(2026, 10, 21, 12, 30);
  const policy = { rawDays: 7, rollupDays: 90 };
  const insert = store.db.prepare("INSERT INTO gateway_samples (ts, up, cpu_percent, rss_mb) VALUES (?, ?, ?, ?)");
  const usage = store.db.prepare("INSERT INTO token_usage (ts, role, agent_id, session_id, model, input, output, cache_read, cache_write, cost_usd) VALUES (?, 'assistant', 'main', 's1', 'm', ?, 1, 0, 0, 0.5)");
  const oldHour = now - 10 * DAY - (now % HOUR);
  insert.run(oldHour + 1000, 1, 10, 100);
  insert.run(oldHour + 2000, 0, 20, 300);
  usage.run(oldHour + 3000, 100);
  // Ten days ago the retention job ran an hour later and rolled that hour up while it was fresh.
  const thenRun = runRetention(store, policy, oldHour + HOUR + 60_000);
  assert.ok(thenRun.rolledUpHours >= 2);
  const recentHour = now - 2 * HOUR - (now % HOUR);
  insert.run(recentHour + 5, 1, 4, 50);
  insert.run(now - 60_000, 1, 1, 10); // current hour: not rolled up yet
  usage.run(recentHour + 9, 7);
  const r = runRetention(store, policy, now);
  assert.is(r.deleted.gateway_samples, 2);
  assert.is(r.deleted.token_usage, 1);
  const hours = store.db.prepare("SELECT * FROM gateway_samples_hourly ORDER BY hour").all() as Array<Record<string, number>>;
  assert.equal(hours, [
    { hour: oldHour, samples: 2, up_samples: 1, cpu_avg: 15, rss_max_mb: 300 },
    { hour: recentHour, samples: 1, up_samples: 1, cpu_avg: 4, rss_max_mb: 50 },
  ]);
  const usageHours = store.db.prepare("SELECT hour, messages, input, cost_usd FROM token_usage_hourly ORDER BY hour").all();
  assert.equal(usageHours, [
    { hour: oldHour, messages: 1, input: 100, cost_usd: 0.5 },
    { hour: recentHour, messages: 1, input: 7, cost_usd: 0.5 },
  ]);
  // Running again changes nothing: the old hour keeps its rollup though its raw rows are gone.
  runRetention(store, policy, now);
  assert.equal(store.db.prepare("SELECT * FROM gateway_samples_hourly ORDER BY hour").all(), hours);
  const later = runRetention(store, { rawDays: 7, rollupDays: 5 }, now);
  assert.is(later.deleted.gateway_samples_hourly, 1);
  assert.is(later.deleted.token_usage_hourly, 1);
  store.close();
});

test.run();
