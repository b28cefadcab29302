// The card's plain-text summary: counts in the right number ("1 turn", not "1 turns"), one part
// per provider, and a cost that is never "$0" for responses that could not be priced.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildCardModel } from "./build-model.js";
import type { CardModel } from "./card-model.js";
import { EXAMPLE_NOW, exampleInputs } from "../../test/helpers/example-inputs.js";
import { cardSummary } from "./summary.js";

const params = { detail: "compact", range: "24h", theme: "dark", lang: "en", generatedAt: EXAMPLE_NOW, demo: false, degradedSources: [] } as const;
const card = buildCardModel(exampleInputs("24h", EXAMPLE_NOW, ["openclaw"]), params);
const withSummary = (over: Partial<CardModel["providers"][number]["summary"]>): CardModel => ({
  ...card,
  providers: card.providers.map((b) => ({ ...b, summary: { ...b.summary, ...over } })),
});

test("counts take their plural only when they are not one", () => {
  const one = cardSummary(withSummary({ tokens: 1, turns: 1, errors: 1, warnings: 1 }));
  assert.match(one, "1 token, ");
  assert.match(one, ", 1 turn, 1 error, 1 warning, ");
  const many = cardSummary(withSummary({ tokens: 0, turns: 2, errors: 0, warnings: 3 }));
  assert.match(many, "0 tokens, ");
  assert.match(many, ", 2 turns, 0 errors, 3 warnings, ");
  assert.match(cardSummary(withSummary({ turns: null })), "unknown turns");
});

test("one part per provider, the verdict, Codex's rate limits, and no $0 for unpriced responses", () => {
  const all = cardSummary(buildCardModel(exampleInputs(), params));
  assert.match(all, "health degraded; all providers: ");
  assert.match(all, /OpenClaw: gateway running, version 2026\.9\.6, up 76h 17m; /);
  assert.match(all, /Claude Code: CLI 2\.1\.330, 2 sessions running; .* \+ 14 unpriced responses, /);
  assert.match(all, /Codex: CLI 0\.169\.0, 1 session running, rate limits primary 62%, secondary 84%; /);
  const unpriced = cardSummary(withSummary({ costUsd: 0, unpricedResponses: 3 }));
  assert.match(unpriced, "unpriced (3 responses)");
  assert.not.match(unpriced, "$0.0000");
});

test("the demo gateway is a demo gateway, not a stopped one", () => {
  const demo = cardSummary({ ...card, demo: true, providers: card.providers.map((b) => (b.provider === "openclaw" ? { ...b, gateway: { ...b.gateway, state: "DEMO", running: false } } : b)) });
  assert.match(demo, "DEMO data");
  assert.match(demo, "OpenClaw: demo gateway");
  assert.not.match(demo, "stopped");
});

test("a Chinese card has a Chinese summary, with the same figures", () => {
  const en = cardSummary(buildCardModel(exampleInputs(), params));
  const zh = cardSummary(buildCardModel(exampleInputs(), { ...params, lang: "zh" }));
  assert.match(zh, "健康状态 降级；全部提供方：");
  assert.match(zh, /Codex：CLI 0\.169\.0，1 个会话运行中，用量限额 5 小时 62%，每周 84%；/);
  assert.not.match(zh, /\b(tokens?|turns?|errors?|health|running)\b/, "no English words");
  // The same numbers as the English one, in the same order (Codex's primary window is named by its
  // length); token counts are compared apart, since Chinese counts them in 万 (the test below).
  const numbers = (t: string): string[] => t.match(/\$?\d+(?:[.,]\d+)*[k%]?/g) ?? [];
  const en2 = en.replace(/\d[\d.,]*[kMBT]? tokens/g, "TOKENS");
  const zh2 = zh.replace(/Token \d[\d.,]*(?:万|亿)?/g, "TOKENS").replaceAll("5 小时", "primary");
  assert.is(zh2.split("TOKENS").length, en2.split("TOKENS").length, "a token count per part in both");
  assert.equal(numbers(zh2), numbers(en2));
});

test("figures are worded as on the card: one count rule and one money rule, in each language", () => {
  const en = cardSummary(withSummary({ tokens: 1_574_828, costUsd: 1.14, turns: 12_345 }));
  assert.match(en, "1.57M tokens, $1.14, 12.3k turns");
  assert.not.match(en, "1574.8k");
  assert.not.match(en, "$1.1400");
  assert.match(cardSummary(withSummary({ costUsd: 0.9268, unpricedResponses: 0 })), /, \$0\.93, /);
  assert.match(cardSummary(withSummary({ costUsd: 0.0031, unpricedResponses: 0 })), /, \$0\.0031, /, "below a cent, four decimals");
  const zh = cardSummary({ ...withSummary({ tokens: 1_574_828, costUsd: 1.14 }), lang: "zh" });
  assert.match(zh, "Token 157万，$1.14，");
});

test.run();
