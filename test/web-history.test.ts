// History older than a day, in a real headless Chromium (issue 19): a daemon whose data is five
// (Claude Code, Codex) to seven (OpenClaw) days old. The 24-hour overview says when the last
// activity was instead of reading as an empty dashboard, on "All providers" and on one provider;
// the 7-day range shows the week's figures; the all-providers view shows lifetime and month-to-date
// totals. Expected figures come from the fixture files or from GraphQL, never from the page.
import type { Page } from "playwright-core";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { expectedTotals, fixtureTranscripts } from "./helpers/fixture-expectations.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { ALL_PROVIDERS_NOW, claudeProjects, codexProjects, startAllProviders, type AllProviders } from "./helpers/all-providers.js";
import { launchBrowser, signIn } from "./helpers/browser.js";
import { gqlData } from "./helpers/daemon.js";

test.after(removeTempDirs);

const DAY = 86_400_000;
/** Five days after the Claude Code and Codex recordings end (ALL_PROVIDERS_NOW is twenty minutes after them). */
const NOW = ALL_PROVIDERS_NOW + 5 * DAY;
const int = (n: number): string => new Intl.NumberFormat("en-US").format(n);
const four = (p: { input: number; output: number; cacheRead: number; cacheWrite: number }): number => p.input + p.output + p.cacheRead + p.cacheWrite;
const projectsTotal = (m: Map<string, { input: number; output: number; cacheRead: number; cacheWrite: number }>): number => [...m.values()].reduce((n, p) => n + four(p), 0);

interface SourceFigures {
  metrics: { from: string; to: string; lastActivityAt: string | null; buckets: Array<{ tokens: number }> };
  usageCost: { totalUsd: number; monthUsd: number; monthTokens: number };
  lifetimeStats: { totalTokens: number };
}

async function figures(d: AllProviders, id: string, range: string): Promise<SourceFigures> {
  const q = `query($id: String!) { source(selector: { id: $id }, context: { timezone: "UTC" }) { ... on AgentNamespace {
    metrics(range: ${range}) { from to lastActivityAt buckets { tokens } }
    usageCost { totalUsd monthUsd monthTokens }
    lifetimeStats { totalTokens }
  } } }`;
  return (await gqlData<{ source: SourceFigures }>(d, q, { id })).source;
}

const rangeButton = (page: Page, range: string) => page.getByTestId("range-switch").locator(`[data-value="${range}"]`);
const hint = (page: Page) => page.getByTestId("idle-hint");

test("data 5-7 days old: the 24 h overview names the last activity; 7 days shows the week; lifetime and month-to-date over every provider", async () => {
  const d = await startAllProviders({ now: NOW });
  const b = await launchBrowser(d.url);
  try {
    const ids = ["agent:main", d.claudeSource, d.codexSource];
    const claude = projectsTotal(claudeProjects(d.claudeDir));
    const codex = projectsTotal(codexProjects(d.codexDir));
    const openclawAll = expectedTotals(fixtureTranscripts(d.openclawDir)).total;
    assert.ok(claude > 0 && codex > 0 && openclawAll > 0);

    await signIn(b.page, d);
    await b.page.getByTestId("all-kpis").waitFor();

    // 24 hours: nothing in the range, and the page says when the last activity was.
    await rangeButton(b.page, "TWENTY_FOUR_HOUR").click();
    const day = await Promise.all(ids.map((id) => figures(d, id, "TWENTY_FOUR_HOUR")));
    assert.is(day.reduce((n, f) => n + f.metrics.buckets.reduce((s, x) => s + x.tokens, 0), 0), 0, "the premise: no usage in the last 24 h");
    const newest = day.map((f) => f.metrics.lastActivityAt ?? "").sort().at(-1) ?? "";
    // The newest activity is the CLI recordings' end: within the hour before ALL_PROVIDERS_NOW.
    assert.ok(Date.parse(newest) <= ALL_PROVIDERS_NOW && Date.parse(newest) > ALL_PROVIDERS_NOW - 3_600_000, newest);
    await hint(b.page).waitFor();
    assert.is(await hint(b.page).getAttribute("data-last"), newest);
    assert.match((await hint(b.page).textContent()) ?? "", /^No activity in the last 24h; last activity 5 days ago \(/);

    // Lifetime and month to date, summed over every provider (they do not depend on the range).
    const lifetime = claude + codex + openclawAll;
    await pollUntil(async () => Number(await b.page.getByTestId("all-lifetime-tokens").getAttribute("data-value")) === lifetime, { what: `lifetime tokens ${lifetime}`, timeoutMs: 20_000 });
    assert.is(await b.page.getByTestId("all-lifetime-tokens").locator(".kpi-value").getAttribute("title"), int(lifetime));
    // Every recording is from November, as NOW is: the month holds all of it.
    assert.is(Number(await b.page.getByTestId("all-month-tokens").getAttribute("data-value")), lifetime);
    const near = (a: number, b2: number): boolean => Math.abs(a - b2) < 1e-6;
    const lifetimeUsd = day.reduce((n, f) => n + f.usageCost.totalUsd, 0);
    const monthUsd = day.reduce((n, f) => n + f.usageCost.monthUsd, 0);
    assert.ok(lifetimeUsd > 0 && monthUsd > 0);
    assert.ok(near(Number(await b.page.getByTestId("all-lifetime-cost").getAttribute("data-value")), lifetimeUsd));
    assert.ok(near(Number(await b.page.getByTestId("all-month-cost").getAttribute("data-value")), monthUsd));

    // 7 days: the week's figures, and no hint.
    await rangeButton(b.page, "SEVEN_DAY").click();
    const week = await figures(d, "agent:main", "SEVEN_DAY");
    const from = Date.parse(week.metrics.from);
    const to = Date.parse(week.metrics.to);
    assert.ok(to - from === 7 * DAY && to > NOW);
    const openclawWeek = expectedTotals(fixtureTranscripts(d.openclawDir), (ts) => ts >= from && ts < to).total;
    const want = claude + codex + openclawWeek;
    await pollUntil(async () => Number(await b.page.getByTestId("all-tokens").getAttribute("data-value")) === want, { what: `7-day tokens ${want}`, timeoutMs: 20_000 });
    assert.is(await b.page.getByTestId("all-tokens").locator(".kpi-value").getAttribute("title"), int(want));
    assert.is(await hint(b.page).count(), 0);

    // One provider (Claude Code) at 24 hours: the same hint, its own last activity.
    await b.page.getByTestId("provider-switch").locator('[data-value="PROVIDER_B"]').click();
    await rangeButton(b.page, "TWENTY_FOUR_HOUR").click();
    const cc = await figures(d, d.claudeSource, "TWENTY_FOUR_HOUR");
    await hint(b.page).waitFor();
    assert.is(await hint(b.page).getAttribute("data-last"), cc.metrics.lastActivityAt);
    assert.match((await hint(b.page).textContent()) ?? "", /^No activity in the last 24h; last activity 5 days ago/);
    // Its 7 days: every Claude Code token of the fixture.
    await rangeButton(b.page, "SEVEN_DAY").click();
    await pollUntil(async () => (await b.page.getByTestId("kpi-tokens").locator(".kpi-value").getAttribute("title")) === int(claude), { what: `Claude Code 7-day tokens ${claude}`, timeoutMs: 20_000 });
    assert.is(await hint(b.page).count(), 0);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test.run();
