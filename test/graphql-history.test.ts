// History older than a day over GraphQL (issue 19): a daemon reading the three recorded fixtures
// five days after the CLI recordings end. metrics(range: SEVEN_DAY / THIRTY_DAY) counts every
// token of the week and month, lastActivityAt says when the newest activity was while the day is
// empty, and usageCost gives month-to-date spend. Expected figures come from the fixture files.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectedTotals, fixtureTranscripts } from "./helpers/fixture-expectations.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { ALL_PROVIDERS_NOW, claudeProjects, codexProjects, startAllProviders } from "./helpers/all-providers.js";
import { gql, gqlData } from "./helpers/daemon.js";

test.after(removeTempDirs);

const DAY = 86_400_000;
const NOW = ALL_PROVIDERS_NOW + 5 * DAY;
const four = (p: { input: number; output: number; cacheRead: number; cacheWrite: number }): number => p.input + p.output + p.cacheRead + p.cacheWrite;

interface Answer {
  day: { lastActivityAt: string | null; buckets: Array<{ tokens: number }> };
  week: { from: string; to: string; buckets: Array<{ tokens: number; label: string; start: number; end: number }> };
  month: { from: string; to: string; buckets: Array<{ tokens: number; label: string; start: number; end: number }> };
  usageCost: { monthTokens: number; monthUsd: number; totalUsd: number };
  lifetimeStats: { totalTokens: number };
}

const ask = (id: string): string => `{ source(selector: { id: "${id}" }, context: { timezone: "UTC" }) { ... on AgentNamespace {
  day: metrics(range: TWENTY_FOUR_HOUR) { lastActivityAt buckets { tokens } }
  week: metrics(range: SEVEN_DAY) { from to buckets { tokens label start end } }
  month: metrics(range: THIRTY_DAY) { from to buckets { tokens label start end } }
  usageCost { monthTokens monthUsd totalUsd }
  lifetimeStats { totalTokens }
} } }`;

const tokens = (m: { buckets: Array<{ tokens: number }> }): number => m.buckets.reduce((n, b) => n + b.tokens, 0);

test("SEVEN_DAY and THIRTY_DAY count the fixtures' tokens; lastActivityAt on an empty day; month to date", async () => {
  const d = await startAllProviders({ now: NOW });
  try {
    const claude = [...claudeProjects(d.claudeDir).values()].reduce((n, p) => n + four(p), 0);
    const codex = [...codexProjects(d.codexDir).values()].reduce((n, p) => n + four(p), 0);
    const oc = fixtureTranscripts(d.openclawDir);
    for (const [id, all] of [
      [d.claudeSource, claude],
      [d.codexSource, codex],
      ["agent:main", expectedTotals(oc).total],
    ] as const) {
      const a = (await gqlData<{ source: Answer }>(d, ask(id))).source;
      assert.is(tokens(a.day), 0, `${id}: nothing in the last 24 h`);
      assert.ok(a.day.lastActivityAt && Date.parse(a.day.lastActivityAt) < NOW - 4 * DAY, `${id}: last activity ${a.day.lastActivityAt}`);
      for (const [name, m, count, step] of [
        ["week", a.week, 28, 6 * 3600],
        ["month", a.month, 30, 24 * 3600],
      ] as const) {
        assert.is(m.buckets.length, count, `${id} ${name} buckets`);
        assert.ok(m.buckets.every((b) => b.end - b.start === step && b.start % step === 0), `${id} ${name}: buckets on UTC boundaries of ${step}s`);
        const from = Date.parse(m.from);
        const to = Date.parse(m.to);
        // OpenClaw's recording is two days older than the CLIs': count what falls in the window.
        const want = id === "agent:main" ? expectedTotals(oc, (ts) => ts >= from && ts < to).total : all;
        assert.is(tokens(m), want, `${id} ${name} tokens`);
      }
      assert.is(a.month.buckets[0]?.label, "10/30", "a day bucket's label is its date");
      // Every recording is from November, as NOW is.
      assert.is(a.usageCost.monthTokens, all, `${id} month-to-date tokens`);
      assert.is(a.lifetimeStats.totalTokens, all, `${id} lifetime tokens`);
      assert.ok(a.usageCost.monthUsd > 0 && a.usageCost.monthUsd <= a.usageCost.totalUsd + 1e-6);
    }
    // Ranges the enum does not have are refused as before.
    const bad = await gql(d, `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { metrics(range: NINETY_DAY) { from } } } }`);
    assert.match(bad.body.errors?.[0]?.message ?? "", /NINETY_DAY/, "an unknown range is a validation error");
  } finally {
    await d.stop();
  }
});

test.run();
