// The document cache of the subscription transports: one parse per text, one validation per
// document, our limits applied, bounded by entries and by text.
import { GraphQLError } from "graphql";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { DocumentCache } from "./documents.js";
import { loadSchema, VALIDATION_RULES } from "./schema.js";

const schema = loadSchema();
const nest = (n: number): string => (n === 0 ? "key" : `subAgents { ${nest(n - 1)} }`);
const query = (depth: number): string => `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { sessions { ${nest(depth)} } } } }`;

test("a text is parsed once and its document validated once; the verdict is the same every time", () => {
  const docs = new DocumentCache(schema, VALIDATION_RULES);
  const a = docs.parse(query(1));
  assert.is(docs.parse(query(1)), a);
  assert.is(docs.stats.parsed, 1);
  assert.equal(docs.validate(schema, a), []);
  assert.equal(docs.validate(schema, a), []);
  assert.is(docs.stats.validated, 1);
  const deep = docs.parse(query(10));
  for (let i = 0; i < 2; i++) {
    const errors = docs.validate(schema, deep);
    assert.is(errors.length, 1);
    assert.match(errors[0]?.message ?? "", /13 levels deep; at most 12/);
  }
  // The caller may keep or change what it gets: the kept verdict is not its array.
  docs.validate(schema, deep).length = 0;
  assert.is(docs.validate(schema, deep).length, 1);
  const unknown = docs.validate(schema, docs.parse("{ nope }"));
  assert.match(unknown[0]?.message ?? "", /Cannot query field "nope"/);
});

test("a text that does not parse throws graphql's syntax error and is not kept", () => {
  const docs = new DocumentCache(schema, VALIDATION_RULES);
  for (let i = 0; i < 2; i++) assert.throws(() => docs.parse("{ source("), (e: unknown) => e instanceof GraphQLError && /Syntax Error/.test(e.message));
  assert.is(docs.stats.parsed, 2);
});

test("bounded by entries and by text length, least recently used out first", () => {
  const docs = new DocumentCache(schema, VALIDATION_RULES, { entries: 2, chars: 1000 });
  const texts = ["{ sources { id } }", "{ systems { provider } }", "{ alertRules { id } }"];
  const first = docs.parse(texts[0] as string);
  docs.parse(texts[1] as string);
  docs.parse(texts[0] as string); // used again: the second is now the oldest
  docs.parse(texts[2] as string);
  assert.is(docs.parse(texts[0] as string), first, "kept");
  const parsed = docs.stats.parsed;
  docs.parse(texts[1] as string);
  assert.is(docs.stats.parsed, parsed + 1, "dropped, parsed again");
  // A text longer than the whole budget is parsed every time, never kept.
  const long = `{ sources { id } }${" ".repeat(1000)}`;
  docs.parse(long);
  docs.parse(long);
  assert.is(docs.stats.parsed, parsed + 3);
});

test.run();
