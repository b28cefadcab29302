// A real daemon whose store file is deleted or replaced while it runs: /health says so, the daemon
// keeps working, and a channel made through the API after the recovery is there after a restart.
// A full disk answers a channel's creation with STORE_ERROR saying so, not "internal error".
import { existsSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil, systemClock } from "../shared/base/clock.js";
import type { HealthBody } from "../daemon/http/routes/health.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { gql, gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

const ADD = `mutation($i: AlertChannelInput!) { addAlertChannel(input: $i) { id } }`;
const channel = (id: string) => ({ i: { id, type: "WEBHOOK", url: `https://hooks.example.com/${id}` } });
const health = async (d: TestDaemon): Promise<HealthBody> => (await (await fetch(`${d.url}/health`)).json()) as HealthBody;
const channels = async (d: TestDaemon): Promise<string[]> => (await gqlData<{ alertChannels: Array<{ id: string; origin: string }> }>(d, `{ alertChannels { id origin } }`)).alertChannels.filter((c) => c.origin === "API").map((c) => c.id).sort();

for (const how of ["deleted", "replaced"] as const) {
  test(`the store file ${how} while the daemon runs: /health says so, nothing is lost, a channel added after it survives a restart`, async () => {
    const opts = { clock: systemClock };
    let d = await startDaemon(opts);
    try {
      const file = d.paths.dbFile;
      await gqlData(d, ADD, channel("before"));
      if (how === "deleted") {
        for (const suffix of ["", "-wal", "-shm"]) if (existsSync(file + suffix)) unlinkSync(file + suffix);
      } else {
        writeFileSync(`${file}.other`, "someone else's file");
        renameSync(`${file}.other`, file);
      }
      const h = await pollUntil(async () => {
        const x = await health(d);
        return x.storeIncident?.state === "recovered" ? x : null;
      }, { timeoutMs: 30_000, what: `/health to report the ${how} store recovered` });
      assert.equal(h.storeIncident && [h.storeIncident.kind, h.storeIncident.lost], [how, false]);
      assert.is(h.store, "ok");
      assert.not.equal(h.status, "ok", "degraded while it says so");
      const check = d.daemon.model.systemOf("openclaw").health.checks.find((c) => c.name === "store");
      assert.is(check?.status, "WARN");
      // The daemon keeps working: the API answers and writes land in the recreated file.
      await gqlData(d, ADD, channel("after"));
      assert.equal(await channels(d), ["after", "before"]);
      await d.stop({ keep: true });
      d = await startDaemon({ again: d, ...opts });
      assert.equal(await channels(d), ["after", "before"]);
      assert.is((await health(d)).storeIncident, undefined);
    } finally {
      await d.stop();
    }
  });
}

test("adding a channel on a full disk answers STORE_ERROR saying the disk is full", async () => {
  const d = await startDaemon({ clock: systemClock });
  try {
    // As on a full filesystem: the store cannot get another page (SQLITE_FULL).
    const db = d.daemon.store.db;
    db.pragma(`max_page_count = ${db.pragma("page_count", { simple: true }) as number}`);
    // Channels until one needs a page the store cannot have (the first may still fit in free space).
    let r: Awaited<ReturnType<typeof gql>> | null = null;
    for (let i = 0; i < 500 && !r; i++) {
      const x = await gql(d, ADD, { i: { id: `full-${i}`, type: "WEBHOOK", url: `https://hooks.example.com/${"x".repeat(1500)}` } });
      if (x.body.errors?.length) r = x;
    }
    if (!r) throw new Error("no write was refused");
    assert.is(r.body.errors?.[0]?.extensions?.code, "STORE_ERROR", JSON.stringify(r.body));
    assert.match(r.body.errors?.[0]?.message ?? "", /the disk is full/);
  } finally {
    await d.stop();
  }
});

test.run();
