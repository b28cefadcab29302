// The snapshot pipeline over a real fixture: counts that no list limit cuts, a source that fails
// named on the card, and the size ladder.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { FIXTURE_NOW } from "../../test/helpers/fixture-expectations.js";
import { fixtureReadModel } from "../../test/helpers/read-model.js";
import { InsightsError } from "../errors.js";
import { copyFixture, FILES_FIXTURE, removeTempDirs } from "../sources/openclaw/test-fixtures.js";
import type { CardModel } from "./card-model.js";
import { produceSnapshot } from "./pipeline.js";

test.after(removeTempDirs);
const NOW = FIXTURE_NOW;
const model = fixtureReadModel;

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
  assert.is(m.sessions("agent:main").length, 100, "the list itself stops at its default limit");
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
