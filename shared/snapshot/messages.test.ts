// The card's catalog: zh has every en key with the same placeholders, counted phrases have both
// forms, and the terms are the dashboard's (a usage token is "Token", never 令牌).
import { test } from "uvu";
import * as assert from "uvu/assert";
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

test.run();
