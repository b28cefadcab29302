// The registry (shared/providers/registry.ts) against what it stands for elsewhere: the GraphQL
// schema's Provider enum and system types, the config keys each provider names, the card's
// catalogs. Every expected value is read from those files, never from the registry itself.
import { readFileSync } from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { OPTIONS } from "../config/options.js";
import { CATALOG, LANGS } from "../snapshot/messages.js";
import { hasCapability, isProviderName, parseProviderWord, PROVIDER_ENUM, PROVIDER_IDENTITIES, PROVIDER_NAMES, providerOfEnum, providerOfSourceId, providerOrder, providersWith, providersWithout } from "./registry.js";

const schema = readFileSync(new URL("../../daemon/graphql/schema.graphql", import.meta.url), "utf8");

test("the enum values are the schema's Provider enum, in its order (the interface's order)", () => {
  const body = /enum Provider \{([^}]*)\}/.exec(schema)?.[1] ?? "";
  const values = body.split(/\s+/).filter(Boolean);
  assert.ok(values.length > 0, "the schema has a Provider enum");
  assert.equal(PROVIDER_IDENTITIES.map((p) => p.enumValue), values);
  assert.equal(PROVIDER_NAMES.map(providerOrder), values.map((_, i) => i));
});

test("each provider's system type is a SystemNamespace of the schema", () => {
  const types = [...schema.matchAll(/type (\w+) implements SystemNamespace/g)].map((m) => m[1]);
  assert.equal(PROVIDER_IDENTITIES.map((p) => p.systemType).sort(), [...types].sort());
});

test("names, enum values, source-id prefixes and CSS keys are unique; each maps back", () => {
  for (const field of ["name", "enumValue", "sourcePrefix", "cssKey", "displayName", "systemType"] as const) {
    const all = PROVIDER_IDENTITIES.map((p) => p[field]);
    assert.is(new Set(all).size, all.length, field);
  }
  for (const p of PROVIDER_IDENTITIES) {
    assert.is(PROVIDER_ENUM[p.name], p.enumValue);
    assert.is(providerOfEnum(p.enumValue), p.name);
    assert.is(providerOfSourceId(`${p.sourcePrefix}main`), p.name);
    assert.is(parseProviderWord(p.enumValue.toLowerCase()), p.name);
    assert.is(parseProviderWord(p.name.toUpperCase()), p.name);
    assert.ok(isProviderName(p.name));
  }
  assert.is(providerOfSourceId("dashboard:self"), null);
  assert.is(parseProviderWord("toString"), null);
  assert.not.ok(isProviderName("constructor"));
});

test("each provider's config keys exist: a mode (auto, on, off) and its dirs", () => {
  const options = OPTIONS as Record<string, { kind: { type: string; values?: readonly string[] } }>;
  for (const p of PROVIDER_IDENTITIES) {
    assert.equal(options[p.config.mode]?.kind, { type: "enum", values: ["auto", "on", "off"] }, `${p.name} mode ${p.config.mode}`);
    assert.ok(["path", "paths"].includes(options[p.config.dirs]?.kind.type ?? ""), `${p.name} dirs ${p.config.dirs}`);
  }
});

test("a provider's options are its identity's: in OPTIONS as declared, in the registry's order, each key once", () => {
  const keys = Object.keys(OPTIONS);
  const declared = PROVIDER_IDENTITIES.flatMap((p) => Object.entries(p.options));
  assert.ok(declared.length >= 2 * PROVIDER_IDENTITIES.length, "each provider declares at least its mode and dirs");
  for (const [key, def] of declared) assert.is((OPTIONS as Record<string, unknown>)[key], def, key);
  // One block, where the providers' options always were, so config.json's key list reads as before.
  const at = keys.indexOf(declared[0]?.[0] ?? "");
  assert.equal(keys.slice(at, at + declared.length), declared.map(([key]) => key));
  for (const p of PROVIDER_IDENTITIES) assert.ok(p.config.mode in p.options && p.config.dirs in p.options, `${p.name}: its mode and dirs are among its own options`);
});

test("the card's catalogs name every provider in every language", () => {
  for (const lang of LANGS) for (const p of PROVIDER_IDENTITIES) assert.ok((CATALOG[lang] as Record<string, string>)[`provider.${p.name}`], `${lang} provider.${p.name}`);
});

test("capabilities split the providers: with and without each, in the interface's order", () => {
  for (const cap of ["gateway", "rateLimits", "projects", "usageBlocks"] as const) {
    const withIt = PROVIDER_IDENTITIES.filter((p) => p.capabilities[cap]).map((p) => p.name);
    assert.equal(providersWith(cap), withIt, cap);
    assert.equal(providersWithout(cap), PROVIDER_NAMES.filter((n) => !withIt.includes(n)), cap);
    for (const n of PROVIDER_NAMES) assert.is(hasCapability(n, cap), withIt.includes(n));
  }
});

test.run();
