// The rule that keeps a provider a module (issue 21, docs/providers.md "Adding a provider"): no
// provider's name or enum value is written as a literal outside its own folder, the registry, the
// GraphQL schema with the generated types and the dashboard's fragment, and the catalogs. Code above
// the providers asks the registry for a capability instead. The names come from the registry, so a
// new provider is covered as soon as it is registered.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PROVIDER_IDENTITIES } from "../shared/providers/registry.js";
import { ROOT, sourceFiles } from "./helpers/source-files.js";

const names = PROVIDER_IDENTITIES.map((p) => p.name);
const enums = PROVIDER_IDENTITIES.map((p) => p.enumValue);
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
/** A string literal that is exactly a name (any quote), or an enum value anywhere in code. */
const LITERAL = new RegExp(`(["'\`])(?:${names.map(escape).join("|")})\\1|\\b(?:${enums.map(escape).join("|")})\\b`);

/** Where the names belong. */
const ALLOWED: readonly RegExp[] = [
  // Each provider's own folder: its reader and its demo writer (demo/).
  ...names.map((n) => new RegExp(`^shared/providers/${escape(n)}/`)),
  /^shared\/providers\/registry\.ts$/,
  // The GraphQL types generated from the schema, and the dashboard's queries (its fragment).
  /^daemon\/graphql\/generated\//,
  /^web\/src\/api\/(schema\.generated|queries)\.ts$/,
  // The catalogs.
  /^shared\/snapshot\/messages\.ts$/,
  /^web\/src\/i18n\//,
];

/**
 * Files that still write a name, each for a reason; the list can only shrink (a file here that no
 * longer has one fails the test, so its line is removed).
 */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  // Issue 21 item 4: hand-run scripts leave the product (this one fakes the openclaw program).
  "web/scripts/screenshots.ts": "issue 21 item 4: hand-run screenshot script",
  // For good: a past migration's SQL is the history of stores already migrated, never rewritten.
  "shared/store/migrations.ts": "store v5 backfilled the gateway's rows under its name",
};

/** Lines of code (comments left out: they may name a provider to explain). */
function codeLines(file: string): Array<{ n: number; text: string }> {
  return readFileSync(resolve(ROOT, file), "utf8")
    .split("\n")
    .map((text, i) => ({ n: i + 1, text }))
    .filter(({ text }) => !/^\s*(\/\/|\/\*|\*)/.test(text))
    .map(({ n, text }) => ({ n, text: text.replace(/\s\/\/\s.*$/, "") }));
}

const files = ["shared", "daemon", "cli", "web/src", "web/scripts"].flatMap(sourceFiles);

test("the rule sees a name where one is written (it is not vacuous)", () => {
  assert.ok(files.length > 100, `${files.length} files scanned`);
  assert.ok(LITERAL.test(`x === "${names[0]}"`) && LITERAL.test(`p !== ${enums[2]}`));
  assert.not.ok(LITERAL.test(`"${names[0]}-agent.sqlite"`), "a longer string is not a name");
});

test("no provider name or enum value is written outside its provider's folders, the registry, the schema and the catalogs", () => {
  const found = new Map<string, string[]>();
  for (const file of files) {
    if (ALLOWED.some((r) => r.test(file))) continue;
    const hits = codeLines(file).filter((l) => LITERAL.test(l.text));
    if (hits.length) found.set(file, hits.map((h) => `${file}:${h.n}: ${h.text.trim().slice(0, 120)}`));
  }
  const offending = [...found].filter(([f]) => !(f in EXCEPTIONS)).flatMap(([, lines]) => lines);
  assert.equal(offending, [], "ask the registry (shared/providers/registry.ts) for the set or a capability instead");
  const stale = Object.keys(EXCEPTIONS).filter((f) => !found.has(f));
  assert.equal(stale, [], "these exceptions no longer write a name: remove them from the list");
});

/**
 * Lines that still name several providers by display name, each for a reason; the list can only
 * shrink. A sentence that lists the providers goes stale with the next one: build it from the
 * registry (displayNames) instead.
 */
const LIST_EXCEPTIONS: Readonly<Record<string, string>> = {
  // For good: a past migration's SQL (its comments included) is the history of stores already migrated, never rewritten.
  "shared/store/migrations.ts": "store migrations' SQL comments",
};

test("no list of the providers' display names is written by hand in the product's code", () => {
  const display = PROVIDER_IDENTITIES.map((p) => p.displayName);
  const NAME = new RegExp(`\\b(?:${display.map(escape).join("|")})\\b`, "g");
  const found = new Map<string, string[]>();
  for (const file of files) {
    if (ALLOWED.some((r) => r.test(file))) continue;
    const hits = codeLines(file).filter((l) => new Set(l.text.match(NAME) ?? []).size >= 2);
    if (hits.length) found.set(file, hits.map((h) => `${file}:${h.n}: ${h.text.trim().slice(0, 140)}`));
  }
  assert.equal([...found].filter(([f]) => !(f in LIST_EXCEPTIONS)).flatMap(([, lines]) => lines), [], "build the list from the registry (displayNames) or say it by capability");
  assert.equal(Object.keys(LIST_EXCEPTIONS).filter((f) => !found.has(f)), [], "these exceptions no longer list providers: remove them");
});

test("the demo engine names no provider, not even inside an identifier: it iterates the registered modules' demos", () => {
  const engine = files.filter((f) => f.startsWith("shared/demo-replay/"));
  assert.ok(engine.length >= 3, `${engine.length} files of the demo engine scanned`);
  // A name, its config key (claudeCode) or its display name without spaces (ClaudeCode), in any case and inside longer words.
  const words = PROVIDER_IDENTITIES.flatMap((p) => [p.name, p.config.mode, p.displayName.replace(/\s+/g, "")]);
  const NAMED = new RegExp(words.map(escape).join("|"), "i");
  const hits = engine.flatMap((f) => codeLines(f).filter((l) => NAMED.test(l.text)).map((l) => `${f}:${l.n}: ${l.text.trim().slice(0, 120)}`));
  assert.equal(hits, []);
});

test.run();
