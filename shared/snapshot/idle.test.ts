// A card made after the data went quiet (issue 19): the range is empty, but the JSON carries the
// last activity and the image says when it was, in both languages; with activity in the range it
// says nothing of the kind. Expected times come from the fixture's own lines.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { FIXTURE_NOW, fixtureTranscripts } from "../../test/helpers/fixture-expectations.js";
import { fixtureReadModel } from "../../test/helpers/read-model.js";
import { copyFixture, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";
import { cardModelSchema, type CardModel } from "./card-model.js";
import { produceSnapshot } from "./pipeline.js";
import { renderCard } from "./render.js";
import type { SnapshotLang } from "./params.js";

test.after(removeTempDirs);
const DAY = 86_400_000;

/** The fixture's newest message (user, assistant or tool result). */
function lastMessage(dir: string): number {
  let last = -Infinity;
  for (const t of fixtureTranscripts(dir))
    for (const e of t.events) {
      const m = e.message as { role?: string } | undefined;
      if (e.type === "message" && m && ["user", "assistant", "toolResult"].includes(String(m.role))) last = Math.max(last, Date.parse(String(e.timestamp)));
    }
  return last;
}

async function card(now: number, lang: SnapshotLang): Promise<{ json: CardModel; text: string; last: number }> {
  const dir = copyFixture(SQLITE_FIXTURE);
  const f = await fixtureReadModel(dir, now);
  try {
    const o = { model: f.model, clock: f.clock, collectTimeoutMs: 5000 };
    const r = await produceSnapshot({ detail: "standard", format: "json", range: "24h", theme: "dark", lang }, o);
    const json = cardModelSchema.parse(JSON.parse(r.body.toString("utf8")));
    const svg = (await renderCard(json, "svg", { textAsText: true })).toString("utf8");
    const text = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((x) => x[1] ?? "").join("");
    return { json, text, last: lastMessage(dir) };
  } finally {
    await f.collector.stop();
    f.store.close();
  }
}

test("five days after the last activity: 0 tokens, lastActivityAt, and the image says so (en, zh)", async () => {
  const now = FIXTURE_NOW + 5 * DAY;
  for (const lang of ["en", "zh"] as const) {
    const { json, text, last } = await card(now, lang);
    const oc = json.providers[0];
    assert.ok(oc);
    assert.is(oc.summary.tokens, 0);
    assert.is(oc.summary.lastActivityAt, new Date(last).toISOString());
    const days = Math.round((now - last) / DAY);
    assert.is(days, 5);
    const want = lang === "en" ? `No activity in the last 24h; last activity ${days}d ago` : `最近 24 小时内无活动；上次活动：${days}天前`;
    assert.ok(text.includes(want), `${lang}: "${want}" is drawn`);
  }
});

test("with activity in the range the card says nothing about the last activity", async () => {
  const { json, text, last } = await card(FIXTURE_NOW, "en");
  const oc = json.providers[0];
  assert.ok((oc?.summary.tokens ?? 0) > 0);
  assert.is(oc?.summary.lastActivityAt, new Date(last).toISOString());
  assert.not.ok(text.includes("No activity"));
});

test.run();
