// The dashboard's catalogs and formatters, without a browser: zh has every en key with the same
// placeholders, counted phrases have both forms, the terms match the card and the daemon's
// messages, and the formatters print one unit per figure, milliseconds under a second and the
// right plural. The browser tests (web-prefs) show the same on the page.
//
// The web sources are loaded at run time by path: they are typed for the browser (web/tsconfig),
// not for this Node typecheck, so the test declares the little it uses.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { formatCompact as cardCompact, formatUsd as cardUsd } from "../shared/snapshot/format.js";
import { CATALOG as CARD } from "../shared/snapshot/messages.js";
import { ROOT } from "./helpers/cli.js";

type Catalog = Record<string, string>;
interface Signal<T> {
  value: T;
}
interface WebI18n {
  lang: Signal<"en" | "zh">;
  tn(key: string, n: number, vars?: Record<string, string | number>): string;
}
interface WebFormat {
  fmtMB(mb: number): string;
  fmtMs(ms: number): string;
  fmtDuration(ms: number): string;
  fmtTokenCount(n: number): string;
  fmtCompact(n: number): string;
  fmtUsd(n: number): string;
}

const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(ROOT, path)).href)) as T;

// i18n.ts reads the browser's languages when it loads; Node 20 has no navigator.
if (!("navigator" in globalThis)) Object.defineProperty(globalThis, "navigator", { value: { languages: ["en-US"], language: "en-US" }, configurable: true });

const { en } = await load<{ en: Catalog }>("web/src/i18n/en.ts");
const { zh } = await load<{ zh: Catalog }>("web/src/i18n/zh.ts");
const i18n = await load<WebI18n>("web/src/i18n/i18n.ts");
const format = await load<WebFormat>("web/src/lib/format.ts");

const placeholders = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string).sort();

test("zh has every en key, with the same placeholders", () => {
  assert.equal(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const [k, text] of Object.entries(en)) assert.equal(placeholders(zh[k] ?? ""), placeholders(text), k);
});

test("counted phrases have both forms and show their count", () => {
  for (const k of Object.keys(en)) {
    if (!k.endsWith(".one")) continue;
    const other = k.replace(/\.one$/, ".other");
    assert.ok(other in en, `${k} without .other`);
    assert.ok(en[other]?.includes("{n}"), `${other} shows {n}`);
  }
});

test("zh terms match the card's: usage tokens are Token; 令牌 is only the sign-in credential", () => {
  for (const [k, text] of Object.entries(zh)) if (text.includes("令牌")) assert.ok(k.startsWith("signin."), `${k}: ${text}`);
  for (const k of ["kpi.tokens", "chart.tokensTitle", "sessions.tokens", "spend.tokens"]) assert.is(zh[k], "Token", k);
  assert.is(zh["kpi.tokens"], CARD.zh["kpi.tokens"]);
  assert.is(zh["kind.direct"], CARD.zh["kind.direct"]);
  assert.is(zh["kind.subagent"], CARD.zh["kind.subagent"]);
  assert.is(zh["channels.title"], CARD.zh["channels.title"]);
  assert.is(zh["check.eventLoop"], CARD.zh["checkName.event-loop"]);
  assert.is(zh["lifetime.sessions"], CARD.zh["totals.sessions"]);
  assert.is(en["lifetime.sessions"], CARD.en["totals.sessions"]);
  // Plan windows and health checks: one wording on the card and the page ("7d window" was "Weekly window").
  for (const k of ["weekly", "windowDays", "windowHours", "windowMinutes", "primary", "secondary"]) {
    assert.is(en[`quota.${k}`], CARD.en[`rate.${k}` as keyof typeof CARD.en], k);
    assert.is(zh[`quota.${k}`], CARD.zh[`rate.${k}` as keyof typeof CARD.zh], k);
  }
  assert.is(en["check.detection"], CARD.en["checkName.detection"]);
  assert.is(zh["check.detection"], CARD.zh["checkName.detection"]);
});

test("formatters: one size unit, milliseconds under a second, plurals, in both languages", () => {
  i18n.lang.value = "en";
  assert.is(format.fmtMB(52_344), "51.1 GB");
  assert.is(format.fmtMs(3.4), "3.4 ms");
  assert.is(format.fmtDuration(291), "291 ms");
  assert.is(format.fmtDuration(999.6), "1.0 s");
  assert.is(format.fmtDuration(59_700), "1 min");
  assert.is(format.fmtDuration(5_400), "5.4 s");
  assert.is(format.fmtTokenCount(1), "1 token");
  assert.is(format.fmtTokenCount(12_345), "12.3k tokens");
  assert.is(i18n.tn("count.assistantReplies", 1), "1 assistant reply");
  assert.is(i18n.tn("transcript.showing", 1, { shown: 1 }), "1 of 1 message");
  assert.is(i18n.tn("count.transcripts", 9), "9 transcripts");
  i18n.lang.value = "zh";
  assert.is(format.fmtMB(52_344), "51.1 GB");
  assert.is(format.fmtDuration(291), "291 毫秒");
  assert.is(format.fmtDuration(192_000), "3 分钟 12 秒");
  assert.is(format.fmtTokenCount(12_345), "1.23万 Token");
  assert.is(i18n.tn("count.assistantReplies", 1), "助手回复 1 条");
  i18n.lang.value = "en";
});

test("counts and money read as on the card and in the CLI: 1,574,828 is 1.57M, not 2M", () => {
  // The figures: a total of 1,574,828 read "2M", an axis tick of 2.5M read "3M", a cost
  // axis read "$0.5000" beside "$1.14".
  i18n.lang.value = "en";
  assert.is(format.fmtCompact(1_574_828), "1.57M");
  assert.is(format.fmtCompact(2_500_000), "2.5M");
  assert.is(format.fmtCompact(0.5), "0.5");
  assert.is(format.fmtUsd(0.5), "$0.50");
  assert.is(format.fmtUsd(0.9268), "$0.93");
  for (const lang of ["en", "zh"] as const) {
    i18n.lang.value = lang;
    for (const n of [0, 999, 1_000, 9_999, 99_999, 100_000, 999_999, 1_000_000, 1_574_828, 2_500_000, -1_574_828]) assert.is(format.fmtCompact(n), cardCompact(n, lang), `${lang} ${n}`);
    for (const n of [0, 0.0031, 0.5, 0.9268, 1.14, 1_234.5]) assert.is(format.fmtUsd(n), cardUsd(n, lang), `${lang} $${n}`);
  }
  i18n.lang.value = "en";
});

test.run();
