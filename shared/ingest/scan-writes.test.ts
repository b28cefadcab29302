// What a scan costs the store and the event loop: its groups commit without an fsync each
// (synchronous=NORMAL: they can be read again), a transcript's per-model sums take one write per
// batch, not one per response, to the same bits as adding the responses one by one, and a group
// closes once its time slice is spent (the clock injected).
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import type { ActivityEvent, ResponseEvent, SourceReader, TranscriptRef } from "../providers/contract.js";
import { ok } from "../providers/result.js";
import { Store } from "../store/store.js";
import { TranscriptScanner } from "./transcript-scanner.js";

const clock = manualClock();
test.after(removeTempDirs);

const ref: TranscriptRef = { id: "t1", sessionKey: "s1", parentKey: null, changeToken: "1", sizeBytes: null };

/** Costs whose float sums depend on the order they are added in (0.1 + 0.2 + 0.3 != 0.1 + (0.2 + 0.3)). */
const COSTS = [0.1, 0.2, 0.3, 1e-17, 0.7, 1 / 3, 2 / 3];

function response(i: number, model: string): ResponseEvent {
  const usage = { input: 1000 + i, output: 7 * i, cacheRead: 50_000 + i, cacheWrite: 300 * i, cacheWrite1h: 0, reasoning: i };
  return { kind: "response", ts: 1_700_000_000_000 + i * 1000, pos: i, key: `r${i}`, model, modelProvider: "anthropic", usage, costUsd: COSTS[i % COSTS.length] as number, toolCalls: 0, error: null };
}

/** A reader of one transcript whose batches are given; `onRead` runs inside the scan's transaction. */
function readerOf(batches: ActivityEvent[][], onRead: () => void = () => undefined): SourceReader {
  return {
    listTranscripts: () => ok([ref]),
    readTranscript: (_r, cursor) => {
      onRead();
      const at = typeof cursor === "number" ? cursor : 0;
      return ok({ events: batches[at] ?? [], cursor: at + 1, done: at + 1 >= batches.length, restarted: false });
    },
    readMessages: () => ok({ messages: [], bytes: 0 }),
    liveSessions: () => ok([]),
    appVersion: () => ok(null),
    changeStamp: () => ok("1"),
    close: () => undefined,
  };
}

test("a scan's groups commit with synchronous=NORMAL; the store is back at FULL after", async () => {
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const levels: unknown[] = [];
  const reader = readerOf([[response(1, "m")], [response(2, "m")]], () => levels.push(store.db.pragma("synchronous", { simple: true })));
  const r = await new TranscriptScanner(store, { clock }).scan({ id: "claude-code:default", provider: "claude-code", reader, price: () => null });
  assert.ok(r.done);
  // 1 is NORMAL, 2 FULL (SQLite's numbers).
  assert.equal(levels, [1, 1]);
  assert.is(store.db.pragma("synchronous", { simple: true }), 2);
  store.close();
});

test("per-model sums: one write per model and batch, equal to the bit to adding each response in turn, across batches", async () => {
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  store.db.exec(`CREATE TEMP TABLE writes (n INTEGER);
    CREATE TEMP TRIGGER tm_ins AFTER INSERT ON main.transcript_models BEGIN INSERT INTO writes VALUES (1); END;
    CREATE TEMP TRIGGER tm_upd AFTER UPDATE ON main.transcript_models BEGIN INSERT INTO writes VALUES (1); END;`);
  const batches = [
    [0, 1, 2, 3, 4, 5].map((i) => response(i, i % 3 === 2 ? "b" : "a")),
    [6, 7, 8, 9, 10].map((i) => response(i, i % 3 === 2 ? "b" : "a")),
  ];
  const r = await new TranscriptScanner(store, { clock, batchEvents: 6 }).scan({ id: "claude-code:default", provider: "claude-code", reader: readerOf(batches), price: () => null });
  assert.ok(r.done);
  // Expected: each model's responses added one by one, in file order, from the test's own inputs.
  const expected = new Map<string, { input: number; output: number; cacheRead: number; cacheWrite: number; reasoning: number; costUsd: number; messages: number }>();
  for (const e of batches.flat()) {
    const x = expected.get(e.model as string) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, costUsd: 0, messages: 0 };
    const u = e.usage as NonNullable<ResponseEvent["usage"]>;
    x.input += u.input;
    x.output += u.output;
    x.cacheRead += u.cacheRead;
    x.cacheWrite += u.cacheWrite;
    x.reasoning += u.reasoning;
    x.costUsd += e.costUsd as number;
    x.messages++;
    expected.set(e.model as string, x);
  }
  const rows = store.db
    .prepare("SELECT model, input, output, cache_read AS cacheRead, cache_write AS cacheWrite, reasoning, cost_usd AS costUsd, messages FROM transcript_models ORDER BY model")
    .all() as Array<{ model: string }>;
  assert.equal(rows, [...expected].sort(([a], [b]) => (a < b ? -1 : 1)).map(([model, x]) => ({ model, ...x })));
  // Two batches, two models in each: four writes (an upsert per response made eleven).
  assert.is((store.db.prepare("SELECT count(*) AS n FROM temp.writes").get() as { n: number }).n, 4);
  store.close();
});

test("a group closes once its slice of time is spent: 4 ms per batch, a 10 ms slice, a turn of the loop after every third batch", async () => {
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  let t = 0;
  const trace: string[] = [];
  // Each read takes 4 ms on the injected clock and notes whether the loop turned since (an immediate set then has run).
  let fired = true;
  const batches = Array.from({ length: 9 }, (_, i) => [response(i, "m")]);
  const reader = readerOf(batches, () => {
    t += 4;
    trace.push(fired ? "turn" : "read");
    if (fired) {
      fired = false;
      setImmediate(() => (fired = true));
    }
  });
  const r = await new TranscriptScanner(store, { clock, batchEvents: 1, slice: { ms: 10, now: () => t } }).scan({ id: "claude-code:default", provider: "claude-code", reader, price: () => null });
  assert.ok(r.done);
  // A group holds the reads until 10 ms have passed: 3 reads (12 ms), then the loop turns.
  assert.equal(trace, ["turn", "read", "read", "turn", "read", "read", "turn", "read", "read"]);
  store.close();
});

test("commits a power loss undoes (the store as it was a few commits back) are read again: every response counted once", async () => {
  const path = join(makeTempDir(), "insights.db");
  const batches = Array.from({ length: 6 }, (_, b) => [0, 1, 2].map((i) => response(b * 3 + i, "m")));
  const target = { id: "claude-code:default", provider: "claude-code" as const, reader: readerOf(batches), price: () => null };
  let store = Store.open(path, { clock });
  await new TranscriptScanner(store, { clock, batchEvents: 3, maxBatches: 2 }).scan(target);
  // The file as the disk holds it after those commits; later ones are never synced before the "power loss".
  store.db.pragma("wal_checkpoint(TRUNCATE)");
  copyFileSync(path, `${path}.synced`);
  await new TranscriptScanner(store, { clock, batchEvents: 3 }).scan(target);
  store.close();
  copyFileSync(`${path}.synced`, path);
  for (const suffix of ["-wal", "-shm"]) rmSync(path + suffix, { force: true });
  store = Store.open(path, { clock });
  const r = await new TranscriptScanner(store, { clock, batchEvents: 3 }).scan(target);
  assert.ok(r.done);
  const all = batches.flat();
  const sum = store.db.prepare("SELECT count(*) AS n, sum(input) AS input FROM token_usage WHERE role = 'assistant'").get();
  assert.equal(sum, { n: all.length, input: all.reduce((a, e) => a + (e.usage?.input ?? 0), 0) });
  const totals = store.db.prepare("SELECT assistant_messages AS n, input FROM transcript_totals").all();
  assert.equal(totals, [{ n: all.length, input: all.reduce((a, e) => a + (e.usage?.input ?? 0), 0) }]);
  store.close();
});

test.run();
