// The snapshot pipeline over a real fixture: counts that no list limit cuts, a source that fails
// named on the card, and the size ladder.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../clock.js";
import { InsightsError } from "../errors.js";
import { Collector } from "../ingest/collector.js";
import { LogHub } from "../log/logger.js";
import { ReadModel } from "../queries/read-model.js";
import { copyFixture, FILES_FIXTURE, makeTempDir, removeTempDirs } from "../sources/openclaw/test-fixtures.js";
import { fail, SourceError } from "../sources/result.js";
import { Store } from "../store/store.js";
import type { CardModel } from "./card-model.js";
import { produceSnapshot } from "./pipeline.js";

test.after(removeTempDirs);
const NOW = Date.parse("2026-11-21T23:20:00.000Z");

async function model(dir: string): Promise<{ model: ReadModel; collector: Collector; clock: ReturnType<typeof manualClock> }> {
  const clock = manualClock(NOW);
  const store = Store.open(join(makeTempDir(), "i.db"), { clock });
  const collector = new Collector({
    openclawDir: dir,
    demo: false,
    stateDir: makeTempDir(),
    store,
    clock,
    logger: new LogHub({ console: "off" }).logger,
    env: {},
    gatewayUrl: () => null,
    sampleMs: 60_000,
    probeHttp: async () => fail(new SourceError("unreachable", "no gateway here")),
    channels: false,
    updates: false,
  });
  await collector.collectOnce(10_000);
  return { model: new ReadModel({ store, collector, clock, appVersion: "0.1.0", startedAt: NOW, demo: false, openclawDir: dir, timeZone: "UTC", rawDays: () => 7 }), collector, clock };
}

test("session counts on the card cover every session, past any list limit", async () => {
  const dir = copyFixture(FILES_FIXTURE);
  const file = join(dir, "agents", "main", "sessions", "sessions.json");
  const index = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const before = Object.keys(index).length;
  for (let i = 0; i < 150; i++) index[`agent:main:telegram:group:${i}`] = { sessionId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, updatedAt: NOW - 3_600_000, status: "done" };
  writeFileSync(file, JSON.stringify(index));
  const { model: m, collector, clock } = await model(dir);
  const r = await produceSnapshot({ detail: "standard", format: "json", range: "24h", theme: "dark", lang: "en" }, { model: m, clock, collectTimeoutMs: 5000 });
  const card = JSON.parse(r.body.toString("utf8")) as CardModel;
  assert.is(card.summary.totalSessions, before + 150);
  assert.is(m.sessions("main").length, 100, "the list itself stops at its default limit");
  await collector.stop();
});

test("a refresh that fails names its source; the rest of the card is made", async () => {
  const { model: m, collector, clock } = await model(copyFixture(FILES_FIXTURE));
  const r = await produceSnapshot(
    { detail: "full", format: "json", range: "24h", theme: "dark", lang: "en" },
    { model: m, clock, collectTimeoutMs: 1000, refresh: async (job) => (job === "cron" ? Promise.reject(new Error("cron store locked")) : undefined) },
  );
  const card = JSON.parse(r.body.toString("utf8")) as CardModel;
  assert.equal(r.degradedSources, ["cron"]);
  assert.is(card.cron, null);
  assert.ok((card.summary.tokens ?? 0) > 0);
  await collector.stop();
});

test("the ladder steps full -> standard -> compact to fit, and gives up with PAYLOAD_TOO_LARGE", async () => {
  const { model: m, collector, clock } = await model(copyFixture(FILES_FIXTURE));
  const sizes: Record<string, number> = {};
  for (const detail of ["full", "standard", "compact"] as const) {
    sizes[detail] = (await produceSnapshot({ detail, format: "json", range: "24h", theme: "dark", lang: "en" }, { model: m, clock, collectTimeoutMs: 1000 })).body.length;
  }
  const r = await produceSnapshot({ detail: "full", format: "json", range: "24h", theme: "dark", lang: "en" }, { model: m, clock, collectTimeoutMs: 1000, maxBytes: (sizes.compact as number) + 1 });
  assert.equal([r.requestedDetail, r.params.detail], ["full", "compact"]);
  assert.match(r.fileName, /^insights-compact-24h-dark-en-/);
  try {
    await produceSnapshot({ detail: "full", format: "json", range: "24h", theme: "dark", lang: "en" }, { model: m, clock, collectTimeoutMs: 1000, maxBytes: 100 });
    assert.unreachable("no card fits in 100 bytes");
  } catch (err) {
    assert.is((err as InsightsError).code, "PAYLOAD_TOO_LARGE");
  }
  await collector.stop();
});

test.run();
