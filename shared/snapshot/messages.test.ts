// The card's catalog: zh has every en key with the same placeholders, counted phrases have both
// forms, and the terms are the dashboard's (a usage token is "Token", never 令牌).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CATALOG, type MessageKey } from "./messages.js";

const keys = Object.keys(CATALOG.en) as MessageKey[];
const placeholders = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string).sort();

test("zh has exactly the en keys, with the same placeholders", () => {
  assert.equal(Object.keys(CATALOG.zh).sort(), [...keys].sort());
  for (const k of keys) assert.equal(placeholders(CATALOG.zh[k]), placeholders(CATALOG.en[k]), k);
});

test("every counted phrase has its one and other forms", () => {
  // (`cron.status.other` is "any other status", not a plural form.)
  for (const k of keys) if (k.endsWith(".one")) assert.ok(keys.includes(k.replace(/\.one$/, ".other") as MessageKey), `${k} without .other`);
});

test("zh terms: usage tokens are Token, sub-agents 子智能体, channels 渠道", () => {
  const zh = Object.values(CATALOG.zh).join("\n");
  for (const avoided of ["令牌", "子代理", "频道"]) assert.not.ok(zh.includes(avoided), avoided);
  assert.is(CATALOG.zh["kpi.tokens"], "Token");
});

test("every health check the daemon names has a name in words, in both languages", () => {
  // The names as shared/queries builds them (`check("detection", ...)`): `detection` had none and
  // showed raw and lower-case in English and in Chinese.
  const dir = fileURLToPath(new URL("../queries", import.meta.url));
  const names = new Set<string>();
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    for (const m of readFileSync(join(dir, f), "utf8").matchAll(/\b(?:check|pending)\("([a-z-]+)"/g)) names.add(m[1] as string);
  }
  assert.ok(names.has("detection") && names.has("sources"), [...names].join(", "));
  for (const n of names) {
    const en = (CATALOG.en as Record<string, string>)[`checkName.${n}`];
    const zh = (CATALOG.zh as Record<string, string>)[`checkName.${n}`];
    assert.ok(en && /^[A-Z]/.test(en), `${n}: en "${en}"`);
    assert.ok(zh && !/[a-z]/.test(zh), `${n}: zh "${zh}"`);
  }
});

test.run();
