// The store's file deleted or replaced under a running store: noticed, written back from the open
// copy (nothing lost), a file found in its place kept aside, health saying so; and a full disk
// reaching the caller as STORE_ERROR.
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { InsightsError } from "../base/errors.js";
import { Store, type StoreIncident } from "./store.js";

const fresh = (): string => join(mkdtempSync(join(tmpdir(), "gi-store-file-")), "insights.db");

const put = (store: Store, id: string): void => {
  store.transaction(() => store.db.prepare("INSERT INTO alert_channels (id, json, updated_at) VALUES (?, '{}', 0)").run(id));
};
const ids = (store: Store): string[] => (store.db.prepare("SELECT id FROM alert_channels ORDER BY id").all() as Array<{ id: string }>).map((r) => r.id);

test("deleted while open (with its -wal and -shm): noticed, written back from the open copy, nothing lost; what is written after is kept across a reopen", async () => {
  const file = fresh();
  const clock = manualClock();
  const seen: StoreIncident[] = [];
  const store = Store.open(file, { clock, onFileIncident: (i) => seen.push({ ...i }) });
  put(store, "before");
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(file + suffix)) unlinkSync(file + suffix);
  put(store, "while-gone"); // goes to the unlinked inode
  assert.equal(store.health().ok, false, "unhealthy while the copy is written back");
  assert.match(store.health().error ?? "", /was deleted while the daemon ran/);
  await store.settled();
  assert.equal(seen.map((i) => [i.kind, i.state]), [["deleted", "recovering"], ["deleted", "recovered"]]);
  assert.ok(existsSync(file));
  assert.is(statSync(file).mode & 0o777, 0o600);
  const h = store.health();
  assert.is(h.ok, true);
  assert.match(h.warning ?? "", /was deleted .* written back from the daemon's open copy: nothing was lost/);
  put(store, "after");
  assert.equal(ids(store), ["after", "before", "while-gone"]);
  store.close();
  const again = Store.open(file, { clock });
  assert.equal(ids(again), ["after", "before", "while-gone"]);
  assert.equal(again.health(), { ok: true });
  again.close();
});

test("replaced by another file: that file is kept aside, the store's data comes back, the check is one stat when nothing changed", async () => {
  const file = fresh();
  const clock = manualClock();
  const store = Store.open(file, { clock });
  put(store, "mine");
  writeFileSync(`${file}.other`, "not a database at all");
  renameSync(`${file}.other`, file);
  store.checkFile();
  await store.settled();
  const inc = store.incident;
  assert.equal([inc?.kind, inc?.state, inc?.lost], ["replaced", "recovered", null]);
  assert.ok(inc?.movedAside);
  assert.is(readFileSync(inc?.movedAside as string, "utf8"), "not a database at all");
  assert.match(store.health().warning ?? "", /replaced by another file.*kept as/);
  put(store, "later");
  store.close();
  const again = Store.open(file, { clock });
  assert.equal(ids(again), ["later", "mine"]);
  // Unchanged file: no incident.
  again.checkFile();
  assert.is(again.incident, null);
  again.close();
});

test("the copy cannot be written back: a new empty store, and health says what was lost", async () => {
  const file = fresh();
  const clock = manualClock();
  const store = Store.open(file, { clock });
  put(store, "mine");
  unlinkSync(file);
  // The backup fails as on a full disk.
  store.db.backup = async () => {
    throw new Error("database or disk is full");
  };
  store.checkFile();
  await store.settled();
  assert.equal([store.incident?.state], ["recreated-empty"]);
  assert.match(store.health().warning ?? "", /new empty store .*channels, rules and mutes made through the API.* are gone/);
  assert.equal(ids(store), []);
  put(store, "new");
  store.close();
  const again = Store.open(file, { clock });
  assert.equal(ids(again), ["new"]);
  again.close();
  rmSync(file);
});

test("a write on a full disk is STORE_ERROR saying the disk is full", () => {
  const store = Store.open(fresh(), { clock: manualClock() });
  store.db.pragma(`max_page_count = ${store.db.pragma("page_count", { simple: true }) as number}`);
  const big = "x".repeat(4000);
  let caught: unknown;
  try {
    for (let i = 0; i < 1000; i++) store.transaction(() => store.db.prepare("INSERT INTO alert_channels (id, json, updated_at) VALUES (?, ?, 0)").run(`c${i}`, big));
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof InsightsError, String(caught));
  assert.is((caught as InsightsError).code, "STORE_ERROR");
  assert.match((caught as Error).message, /the disk is full/);
  assert.not.match((caught as Error).message, /insights\.db/, "no path in a message clients see");
  store.close();
});

test.run();
