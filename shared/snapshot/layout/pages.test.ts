import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildCardModel, type CardBuildParams } from "../build-model.js";
import { EXAMPLE_NOW, exampleInputs } from "../../../test/helpers/example-inputs.js";
import { elementText } from "../fonts.js";
import { renderCard, renderPages, MAX_PAGE_HEIGHT_PX } from "../render.js";
import { cardElement } from "./card.js";
import { cardParts, packPages } from "./pages.js";

const params = (p: Partial<CardBuildParams>): CardBuildParams => ({ detail: "standard", range: "24h", theme: "dark", lang: "en", generatedAt: EXAMPLE_NOW, demo: false, degradedSources: [], ...p });
const size = (png: Buffer): { width: number; height: number } => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

test("packPages: whole parts in order, a new page when the next would not fit, a continued block pays for its heading", () => {
  const o = { maxHeight: 800, fixed: 100, gap: 20, continuedHeight: 30 };
  // 100 + 300 + 20 + 300 = 720 fits; + 20 + 300 would be 1040.
  // Page 2 continues block 0: 100 + 30 + 20 + 300 = 450; + 20 + 900 is over, so 900 goes alone (over, by itself).
  // Page 4: the part of no block after it.
  assert.equal(packPages([300, 300, 300, 900, 100], [null, 0, 0, 0, null], o), [[0, 1], [2], [3], [4]]);
  assert.equal(packPages([100, 100], [null, null], o), [[0, 1]], "a short card is one page");
  assert.equal(packPages([], [], o), []);
});

test("the parts are the card's content in the card's order", () => {
  for (const detail of ["compact", "standard", "full"] as const) {
    const model = buildCardModel(exampleInputs(), params({ detail }));
    const whole = elementText(cardElement(model)).join("");
    const parts = cardParts(model).parts.map((p) => elementText(p.el).join("")).join("");
    // The card is its parts and then its footer.
    assert.ok(whole.startsWith(parts), `${detail}: the parts in order`);
    assert.ok(whole.length - parts.length < 80, `${detail}: nothing but the footer is left out`);
  }
});

test("renderPages: a tall card becomes pages no taller than the limit, at the card's width; a short one is one page", async () => {
  const full = buildCardModel(exampleInputs(), params({ detail: "full" }));
  const single = size(await renderCard(full, "png"));
  assert.ok(single.height > 2 * MAX_PAGE_HEIGHT_PX, `the full card is tall (${single.height} px)`);
  const pages = (await renderPages(full)).map(size);
  assert.ok(pages.length >= 3, `${pages.length} pages`);
  for (const p of pages) {
    assert.is(p.width, single.width, "same width and scale as the card");
    assert.ok(p.height <= MAX_PAGE_HEIGHT_PX, `a page of ${p.height} px`);
  }
  // The pages hold the card: together about its height (each has its own padding and page line).
  const sum = pages.reduce((n, p) => n + p.height, 0);
  assert.ok(sum >= single.height && sum < single.height + pages.length * 200, `${sum} px of pages for a ${single.height} px card`);
  const compact = buildCardModel(exampleInputs("24h", EXAMPLE_NOW, ["codex"]), params({ detail: "compact" }));
  const one = await renderPages(compact);
  assert.is(one.length, 1, "a card that fits is one page");
  assert.ok(size(one[0] as Buffer).height <= MAX_PAGE_HEIGHT_PX);
});

test("renderPages: many health checks (15 on the demo) go over several pages, none taller than the limit", async () => {
  const full = buildCardModel(exampleInputs(), params({ detail: "full" }));
  const health = full.health;
  assert.ok(health && health.checks.length > 0, "the example has health checks");
  // 30 checks: one section of them alone is taller than a page.
  const checks = Array.from({ length: 30 }, (_, i) => ({ ...health.checks[i % health.checks.length]!, name: `check-${i}` }));
  const many = { ...full, health: { ...health, checks } };
  const pages = (await renderPages(many)).map(size);
  for (const p of pages) assert.ok(p.height <= MAX_PAGE_HEIGHT_PX, `a page of ${p.height} px (${pages.map((x) => x.height).join(", ")})`);
  const text = cardParts(many).parts.map((p) => elementText(p.el).join("")).join("");
  for (const c of checks) assert.ok(text.includes(c.name), `${c.name} is on a page`);
});

test.run();
