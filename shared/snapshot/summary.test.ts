// The card's plain-text summary counts in the right number: "1 turn", not "1 turns".
import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildCardModel } from "./build-model.js";
import { EXAMPLE_NOW, exampleInputs } from "./example-inputs.js";
import { cardSummary } from "./summary.js";

const card = buildCardModel(exampleInputs(), { detail: "compact", range: "24h", theme: "dark", lang: "en", generatedAt: EXAMPLE_NOW, demo: false, degradedSources: [] });

test("counts take their plural only when they are not one", () => {
  const one = cardSummary({ ...card, summary: { ...card.summary, tokens: 1, turns: 1, errors: 1, warnings: 1 } });
  assert.match(one, "1 token, ");
  assert.match(one, ", 1 turn, 1 error, 1 warning;");
  const many = cardSummary({ ...card, summary: { ...card.summary, tokens: 0, turns: 2, errors: 0, warnings: 3 } });
  assert.match(many, "0 tokens, ");
  assert.match(many, ", 2 turns, 0 errors, 3 warnings;");
  const unknown = cardSummary({ ...card, summary: { ...card.summary, turns: null } });
  assert.match(unknown, "unknown turns");
});

test.run();
