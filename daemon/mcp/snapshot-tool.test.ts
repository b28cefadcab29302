import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildCardModel, type CardBuildParams } from "../../shared/snapshot/build-model.js";
import { cardModelSchema } from "../../shared/snapshot/card-model.js";
import { EXAMPLE_NOW, exampleInputs } from "../../test/helpers/example-inputs.js";
import { fitCardJson, MAX_JSON_TEXT, SNAPSHOT_TOOL } from "./snapshot-tool.js";

const params = (p: Partial<CardBuildParams>): CardBuildParams => ({ detail: "full", range: "24h", theme: "dark", lang: "en", generatedAt: EXAMPLE_NOW, demo: false, degradedSources: [], ...p });

test("the JSON text fits Codex's limit whole: the least useful parts go first, named in omitted, and it stays a valid card", () => {
  const full = buildCardModel(exampleInputs(), params({}));
  assert.ok(JSON.stringify(full).length > MAX_JSON_TEXT, "the full card of three providers is longer than the limit");
  const text = fitCardJson(full);
  assert.ok(text.length <= MAX_JSON_TEXT, `${text.length} characters`);
  const copy = JSON.parse(text) as { omitted: string[] };
  assert.is(copy.omitted[0], "providers[].events");
  const card = cardModelSchema.parse(copy);
  assert.equal(card.providers.map((b) => b.summary), full.providers.map((b) => b.summary), "every provider's key numbers stay");
  assert.equal(card.allProviders, full.allProviders);
  const compact = buildCardModel(exampleInputs("24h", EXAMPLE_NOW, ["codex"]), params({ detail: "compact" }));
  assert.is(fitCardJson(compact), JSON.stringify(compact), "a card that fits is whole, with no omitted field");
});

test("every parameter says its default in words (Codex drops JSON Schema defaults), and the tool says what each format returns", () => {
  const props = SNAPSHOT_TOOL.inputSchema.properties as Record<string, { default: string; description: string }>;
  for (const [name, p] of Object.entries(props)) assert.match(p.description, `(default ${p.default})`, name);
  assert.match(SNAPSHOT_TOOL.description ?? "", "With no arguments: detail standard, format png, range 6h, theme dark, lang en.");
  for (const f of ["png", "svg", "json"]) assert.match(SNAPSHOT_TOOL.description ?? "", `${f}${f === "png" ? " (the default)" : ""}: `);
  // No outputSchema: it would demand structured content of every call, and Codex hands its model
  // the structured content instead of the images.
  assert.is(SNAPSHOT_TOOL.outputSchema, undefined);
});

test.run();
