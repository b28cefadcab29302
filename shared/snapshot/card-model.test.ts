// The JSON format's documentation (docs/snapshot-json.md) names every field of the schema, and
// its example is a valid snapshot.
import { readFileSync } from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PROVIDER_NAMES } from "../providers/registry.js";
import { cardJsonSchema, cardModelSchema } from "./card-model.js";

const doc = readFileSync(new URL("../../docs/snapshot-json.md", import.meta.url), "utf8");

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
}

function paths(node: SchemaNode | undefined, prefix: string, out: Set<string>): Set<string> {
  if (!node) return out;
  for (const alt of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) paths(alt, prefix, out);
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.add(path);
    paths(child, path, out);
  }
  if (node.items) paths(node.items, `${prefix}[]`, out);
  return out;
}

test("the doc names every field of the JSON Schema", () => {
  const all = [...paths(cardJsonSchema as SchemaNode, "", new Set())];
  assert.ok(all.length > 100);
  // Every value field, by its full path; an object is named through its fields.
  const leaves = all.filter((p) => !all.some((q) => q.startsWith(`${p}.`) || q.startsWith(`${p}[]`)));
  assert.equal(
    leaves.filter((p) => !doc.includes(`\`${p}\``)),
    [],
  );
});

test("the doc's example is a valid snapshot", () => {
  const block = /```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
  assert.ok(block, "example block");
  const parsed = cardModelSchema.safeParse(JSON.parse(block as string));
  assert.ok(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 3)));
});

test("the JSON Schema is draft 2020-12 with schemaVersion pinned to 2 and one block per provider", () => {
  assert.is(cardJsonSchema.$schema, "https://json-schema.org/draft/2020-12/schema");
  const props = cardJsonSchema.properties as Record<string, { const?: unknown; items?: { oneOf?: Array<{ properties?: { provider?: { const?: unknown } } }> } }>;
  assert.is(props.schemaVersion?.const, 2);
  assert.ok((cardJsonSchema.required as string[]).includes("providers"));
  assert.equal(
    props.providers?.items?.oneOf?.map((b) => b.properties?.provider?.const),
    PROVIDER_NAMES,
  );
});

test("the doc's example has a block for each provider", () => {
  const block = /```json\n([\s\S]*?)\n```/.exec(doc)?.[1] ?? "{}";
  const card = cardModelSchema.parse(JSON.parse(block));
  assert.equal(card.providers.map((b) => b.provider), ["openclaw", "claude-code", "codex"]);
  assert.is(card.schemaVersion, 2);
});

test.run();
