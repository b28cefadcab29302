// The daemon's message catalog: Chinese has every English key with the same parameters, plural
// entries have both forms, and nothing is left in English by mistake.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { en, zh, type MessageId, type Template } from "./catalog.js";

const forms = (t: Template): string[] => (typeof t === "string" ? [t] : [t.one, t.other]);
const placeholders = (t: Template): string[] => [...new Set(forms(t).flatMap((f) => [...f.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string)))].sort();

test("zh has exactly the en keys", () => {
  assert.equal(Object.keys(zh).sort(), Object.keys(en).sort());
});

test("every zh entry uses the parameters of its en entry", () => {
  // Over both forms of a plural: en's "one" may leave `n` out ("the only channel").
  for (const id of Object.keys(en) as MessageId[]) assert.equal(placeholders(zh[id]), placeholders(en[id]), `${id}: zh parameters`);
});

test("plural entries give both forms, and `{n}` is what selects them", () => {
  for (const [id, t] of Object.entries(en) as Array<[MessageId, Template]>) {
    if (typeof t === "string") continue;
    assert.ok(t.one && t.other, `${id} has one and other`);
    assert.ok(t.other.includes("{n}"), `${id}: the other form shows the count`);
  }
});

test("every zh sentence is Chinese (a copied English string would slip through otherwise)", () => {
  const han = /[\u4e00-\u9fff]/;
  // Pure parameters and separators carry no words of their own.
  const wordless: MessageId[] = ["health.sources.agentError", "list.comma", "list.semicolon"];
  for (const id of Object.keys(en) as MessageId[]) {
    if (wordless.includes(id)) continue;
    for (const f of forms(zh[id])) assert.ok(han.test(f), `${id}: ${JSON.stringify(f)} has no Chinese`);
  }
});

test.run();
