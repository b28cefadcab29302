import { spawn } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { InsightsError } from "../base/errors.js";
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

test("a rederivable transaction commits with synchronous=NORMAL; every other write, before and after, with FULL", () => {
  const store = Store.open(fresh(), { clock });
  // SQLite's numbers: 1 NORMAL, 2 FULL.
  const level = (): unknown => store.db.pragma("synchronous", { simple: true });
  const seen: unknown[] = [];
  store.transaction(() => seen.push(level()));
  store.transaction(() => seen.push(level()), { rederivable: true });
  store.transaction(() => seen.push(level()));
  // Nested: the outer transaction's level stands (SQLite refuses a change inside one).
  store.transaction(() => store.transaction(() => seen.push(level()), { rederivable: true }));
  // A throw inside still puts FULL back.
  assert.throws(() => store.transaction(() => { throw new Error("boom"); }, { rederivable: true }), /boom/);
  seen.push(level());
  assert.equal(seen, [2, 1, 2, 2, 2]);
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
  const usage = store.db.prepare("INSERT INTO token_usage (ts, role, source_id, session_id, session_key, model, input, output, cache_read, cache_write, cost_usd) VALUES (?, 'assistant', 'claude-code:default', 's1', 'k1', 'm', ?, 1, 0, 0, 0.5)");
  // The session's project is what its transcripts said (session_meta): the rollup keeps it.
  store.db.prepare("INSERT INTO session_meta (source_id, session_key, project) VALUES ('claude-code:default', 'k1', '/home/op/code/api')").run();
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
  const usageHours = store.db.prepare("SELECT hour, source_id, project, messages, input, cost_usd FROM token_usage_hourly ORDER BY hour").all();
  assert.equal(usageHours, [
    { hour: oldHour, source_id: "claude-code:default", project: "/home/op/code/api", messages: 1, input: 100, cost_usd: 0.5 },
    { hour: recentHour, source_id: "claude-code:default", project: "/home/op/code/api", messages: 1, input: 7, cost_usd: 0.5 },
  ]);
  // Running again changes nothing: the old hour keeps its rollup though its raw rows are gone.
  runRetention(store, policy, now);
  assert.equal(store.db.prepare("SELECT * FROM gateway_samples_hourly ORDER BY hour").all(), hours);
  const later = runRetention(store, { rawDays: 7, rollupDays: 5 }, now);
  assert.is(later.deleted.gateway_samples_hourly, 1);
  assert.is(later.deleted.token_usage_hourly, 1);
  store.close();
});

/** An Error shaped like Node's when a native module was built for another Node (ERR_DLOPEN_FAILED). */
function dlopenError(): Error {
  const err = new Error(
    "The module '/usr/lib/node_modules/gateway-insights/node_modules/better-sqlite3/build/Release/better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 137.",
  ) as NodeJS.ErrnoException;
  err.code = "ERR_DLOPEN_FAILED";
  return err;
}

/** The dir's files, for "nothing was moved or added". */
const listing = (path: string): string[] => readdirSync(dirname(path)).sort();

test("SQLite not loading (another Node's native module) leaves a good store alone and says to rebuild", () => {
  const path = fresh();
  const good = Store.open(path, { clock });
  good.db.prepare("INSERT INTO gateway_samples (ts, up) VALUES (1, 1)").run();
  good.close();
  const before = readFileSync(path);
  const files = listing(path);
  try {
    Store.open(path, {
      clock,
      open: () => {
        throw dlopenError();
      },
    });
    assert.unreachable("must not start");
  } catch (err) {
    assert.instance(err, InsightsError);
    assert.is((err as InsightsError).code, "STORE_ERROR");
    assert.match((err as Error).message, "npm rebuild better-sqlite3");
    assert.match((err as Error).message, "NODE_MODULE_VERSION");
  }
  assert.equal(listing(path), files, "nothing moved aside or created");
  assert.ok(readFileSync(path).equals(before), "the store's bytes are untouched");
  const again = Store.open(path, { clock });
  assert.equal(again.db.prepare("SELECT ts, up FROM gateway_samples").all(), [{ ts: 1, up: 1 }]);
  again.close();
});

test("only SQLite's own not-a-database / corrupt verdict moves a store aside; other open failures leave it", () => {
  const path = fresh();
  Store.open(path, { clock }).close();
  const files = listing(path);
  for (const code of ["SQLITE_CANTOPEN", "SQLITE_BUSY", "SQLITE_IOERR_READ", "SQLITE_FULL"]) {
    let moved = "";
    try {
      Store.open(path, {
        clock,
        onRecovered: (to) => (moved = to),
        open: (file) => {
          if (file !== ":memory:") throw new Database.SqliteError(`simulated ${code}`, code);
          return new Database(file);
        },
      });
      assert.unreachable(code);
    } catch (err) {
      assert.is((err as InsightsError).code, "STORE_ERROR", code);
      assert.match((err as Error).message, path);
    }
    assert.is(moved, "", `${code} moved nothing aside`);
    assert.equal(listing(path), files, code);
  }
  // SQLITE_CORRUPT from SQLite itself still recovers.
  let moved = "";
  let calls = 0;
  const store = Store.open(path, {
    clock,
    onRecovered: (to) => (moved = to),
    open: (file) => {
      if (file !== ":memory:" && calls++ === 0) throw new Database.SqliteError("database disk image is malformed", "SQLITE_CORRUPT");
      return new Database(file);
    },
  });
  assert.ok(moved.includes(".corrupt-"), "moved aside on SQLITE_CORRUPT");
  store.close();
});

test("the store and its -wal/-shm are 0600 and the dir 0700, even in an existing 0755 dir under umask 022", () => {
  const dir = mkdtempSync(join(tmpdir(), "gi-store-"));
  chmodSync(dir, 0o755);
  const path = join(dir, "insights.db");
  const previous = process.umask(0o022);
  try {
    const store = Store.open(path, { clock });
    store.setMeta("k", "v");
    for (const f of [path, `${path}-wal`, `${path}-shm`]) assert.is(statSync(f).mode & 0o777, 0o600, f);
    assert.is(statSync(dir).mode & 0o777, 0o700);
    // Files left readable by an earlier version are tightened on the next open.
    const { db } = store;
    for (const f of [path, `${path}-wal`, `${path}-shm`]) chmodSync(f, 0o644);
    const second = Store.open(path, { clock });
    for (const f of [path, `${path}-wal`, `${path}-shm`]) assert.is(statSync(f).mode & 0o777, 0o600, f);
    second.close();
    db.close();
  } finally {
    process.umask(previous);
  }
});

test("a store file that is a link is refused; its target is not opened as a database", () => {
  const path = fresh();
  const target = join(mkdtempSync(join(tmpdir(), "gi-elsewhere-")), "passwd");
  writeFileSync(target, "root:x:0:0:root:/root:/bin/bash\n");
  chmodSync(target, 0o644);
  symlinkSync(target, path);
  try {
    Store.open(path, { clock });
    assert.unreachable();
  } catch (err) {
    assert.is((err as InsightsError).code, "UNSAFE_PATH");
  }
  assert.is(readFileSync(target, "utf8"), "root:x:0:0:root:/root:/bin/bash\n");
  assert.is(statSync(target).mode & 0o777, 0o644);
  assert.ok(lstatSync(path).isSymbolicLink(), "not moved aside as if corrupt");
});

/** Caps the database at its current size: the next write that needs a page fails with SQLITE_FULL, as on a full disk. */
function fillDisk(store: Store): void {
  const pages = store.db.pragma("page_count", { simple: true }) as number;
  store.db.pragma(`max_page_count = ${pages}`);
}

test("failed writes (disk full) make the store unhealthy, 'ingestion stalled', until a write commits again", () => {
  const t = manualClock();
  const seen: Array<string | null> = [];
  const store = Store.open(fresh(), { clock: t, onWriteHealth: (f) => seen.push(f ? f.code : null) });
  assert.equal(store.health(), { ok: true });
  fillDisk(store);
  const big = "x".repeat(4000);
  const write = (): void => {
    store.transaction(() => store.db.prepare("INSERT INTO log_events (ts, level, type, module, message) VALUES (?, 'warn', NULL, 'm', ?)").run(t.now(), big));
  };
  const since = t.now();
  assert.throws(() => {
    for (let i = 0; i < 1000; i++) write();
  }, /full/);
  t.advance(60_000);
  assert.throws(write, /full/);
  const h = store.health();
  assert.is(h.ok, false);
  assert.is(h.stalledSince, since, "since the first failure of the outage");
  assert.match(h.error ?? "", /^ingestion stalled: writes to .* fail since .*SQLITE_FULL/);
  assert.equal(seen, ["SQLITE_FULL"], "reported once per outage");
  // A bug (a constraint) is not a storage failure and does not clear one either.
  assert.throws(() => store.transaction(() => store.db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (1, 'dup', 0)").run()));
  assert.is(store.health().ok, false);
  // Space again: the next committed write ends the outage.
  store.db.pragma("max_page_count = 1073741823");
  write();
  assert.equal(store.health(), { ok: true });
  assert.equal(seen, ["SQLITE_FULL", null]);
  store.close();
});

test.run();
