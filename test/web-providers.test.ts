// The dashboard over all three providers, in a real headless Chromium: the provider → source
// switcher (the address and localStorage carry the choice, the sessions view follows it), the "All
// providers" overview (its totals are the sum of each source's own GraphQL figures), a Claude Code
// transcript with its tool calls and its sub-agent, Codex's plan gauges (the figures and the reset
// countdown of ProviderCSystem.rateLimits; "stale" once the window has reset), and all of it in
// Chinese. Expected figures come from GraphQL or from the fixture files, never from the page.
import { join } from "node:path";
import type { Page } from "playwright-core";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { rawLines } from "./helpers/claude-code-fixture.js";
import { rawLines as codexLines, rolloutFiles } from "./helpers/codex-fixture.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { ALL_PROVIDERS_NOW, startAllProviders, type AllProviders } from "./helpers/all-providers.js";
import { addSubAgentSessions, inPage, launchBrowser, signIn, waitInPage, PAGE_WAIT_MS } from "./helpers/browser.js";
import { gqlData } from "./helpers/daemon.js";
import { PROVIDER_IDENTITIES } from "../shared/providers/registry.js";

const MIN = 60_000;

test.after(removeTempDirs);

const sourceOf = (url: string): string | null => new URLSearchParams(new URL(url).hash.split("?")[1] ?? "").get("source");

const RANGE = "SIX_HOUR";
const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9;

interface Figures {
  todayUsd: number;
  rangeUsd: number;
  tokens: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  active: number;
}

/** One source's own figures, as any GraphQL client gets them (in the page's time zone, UTC). */
async function figuresOf(d: AllProviders, id: string): Promise<Figures> {
  const q = `query($id: String!) { source(selector: { id: $id }, context: { timezone: "UTC" }) { ... on AgentNamespace {
    metrics(range: ${RANGE}) { costUsd buckets { tokens inputTokens outputTokens cacheReadTokens cacheWriteTokens } }
    usageCost { todayUsd }
    sessions(filter: { activeOnly: true, grouped: false, limit: 1000 }) { key }
  } } }`;
  const { source } = await gqlData<{ source: { metrics: { costUsd: number; buckets: Array<Record<string, number>> }; usageCost: { todayUsd: number }; sessions: unknown[] } }>(d, q, { id });
  const sum = (k: string): number => source.metrics.buckets.reduce((n, b) => n + (b[k] ?? 0), 0);
  return { todayUsd: source.usageCost.todayUsd, rangeUsd: source.metrics.costUsd, tokens: sum("tokens"), input: sum("inputTokens"), output: sum("outputTokens"), cacheRead: sum("cacheReadTokens"), cacheWrite: sum("cacheWriteTokens"), active: source.sessions.length };
}

const plus = (a: Figures, b: Figures): Figures => ({
  todayUsd: a.todayUsd + b.todayUsd,
  rangeUsd: a.rangeUsd + b.rangeUsd,
  tokens: a.tokens + b.tokens,
  input: a.input + b.input,
  output: a.output + b.output,
  cacheRead: a.cacheRead + b.cacheRead,
  cacheWrite: a.cacheWrite + b.cacheWrite,
  active: a.active + b.active,
});

const COLS: Record<string, keyof Figures> = { todayUsd: "todayUsd", rangeUsd: "rangeUsd", tokens: "tokens", input: "input", output: "output", cacheRead: "cacheRead", cacheWrite: "cacheWrite", active: "active" };

/** A row of the provider table as numbers (the cells' data-value) and as shown. */
async function row(page: Page, provider: string): Promise<Record<string, { value: number; text: string }>> {
  const cells = await page
    .locator(`[data-testid="provider-table"] tr[data-provider="${provider}"] td[data-col]`)
    .evaluateAll((tds) => tds.map((td) => [td.getAttribute("data-col") ?? "", td.getAttribute("data-value") ?? "", td.textContent ?? ""] as [string, string, string]));
  return Object.fromEntries(cells.map(([col, v, text]) => [col, { value: Number(v), text }]));
}

/** US dollars as the page prints them in English (docs/dashboard.md): cents, four decimals below a cent. */
/** The window Claude Code's own -p result reports for the fixture's models (format doc §9). */
const CLAUDE_WINDOW = 200_000;

/** A transcript's last real response: its input, cache read and cache write tokens (format doc §4). */
function lastPromptTokens(file: string): number {
  const responses = rawLines(file).filter((l) => l.type === "assistant" && l.message?.model !== "<synthetic>" && l.message?.usage);
  const u = responses[responses.length - 1]?.message.usage as Record<string, number>;
  return (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
}

const usd = (n: number): string => `$${n.toFixed(n !== 0 && Math.abs(n) < 0.00995 ? 4 : 2)}`;
const int = (n: number): string => new Intl.NumberFormat("en-US").format(n);

test("switcher, combined overview, Claude Code transcript: the address carries the choice; totals are the sources' own", async () => {
  const d = await startAllProviders();
  // OpenClaw usage inside the range too (the file-era recording is two days older): two sub-agents ten minutes ago.
  addSubAgentSessions(d.openclawDir, ALL_PROVIDERS_NOW - 10 * 60_000);
  const b = await launchBrowser(d.url);
  try {
    const ids = { PROVIDER_A: "agent:main", PROVIDER_B: d.claudeSource, PROVIDER_C: d.codexSource } as const;
    await signIn(b.page, d);
    // More than one provider: "All providers" by default, and the address says so.
    await b.page.getByTestId("all-kpis").waitFor();
    await pollUntil(async () => sourceOf(b.page.url()) === "all", { what: "source=all in the address" });
    assert.is(await b.page.getByTestId("provider-switch").locator('[aria-pressed="true"]').getAttribute("data-value"), "all");

    // Every figure of the combined view is the sum of each source's own GraphQL figures, per provider and in total.
    let last = "";
    await pollUntil(
      async () => {
        const per = { PROVIDER_A: await figuresOf(d, ids.PROVIDER_A), PROVIDER_B: await figuresOf(d, ids.PROVIDER_B), PROVIDER_C: await figuresOf(d, ids.PROVIDER_C) };
        const total = plus(plus(per.PROVIDER_A, per.PROVIDER_B), per.PROVIDER_C);
        const want = { ...per, total };
        for (const [prov, fig] of Object.entries(want)) {
          const got = await row(b.page, prov);
          for (const [col, key] of Object.entries(COLS)) {
            if (!got[col] || !near(got[col].value, fig[key])) {
              last = `${prov} ${col}: page ${got[col]?.value} != GraphQL ${fig[key]}`;
              return false;
            }
          }
        }
        // The premise: every provider has usage in the range, so a sum that dropped one would show.
        assert.ok(per.PROVIDER_A.tokens > 0 && per.PROVIDER_B.tokens > 0 && per.PROVIDER_C.tokens > 0, JSON.stringify(per));
        const totalRow = await row(b.page, "total");
        assert.is(totalRow.tokens?.text, int(total.tokens));
        assert.is(totalRow.rangeUsd?.text, usd(total.rangeUsd));
        assert.is(totalRow.todayUsd?.text, usd(total.todayUsd));
        assert.is(totalRow.active?.text, int(total.active));
        assert.is(await b.page.getByTestId("all-today").locator(".kpi-value").textContent(), usd(total.todayUsd));
        assert.is(await b.page.getByTestId("all-cost").locator(".kpi-value").textContent(), usd(total.rangeUsd));
        assert.is(await b.page.getByTestId("all-tokens").locator(".kpi-value").getAttribute("title"), int(total.tokens));
        assert.is(await b.page.getByTestId("all-active").locator(".kpi-value").textContent(), int(total.active));
        return true;
      },
      { what: `the combined figures; last difference: ${last}`, timeoutMs: PAGE_WAIT_MS },
    ).catch((e: Error) => {
      throw new Error(`${e.message}; last difference: ${last}`);
    });
    // The chart stacks one series per provider.
    assert.is(await b.page.getByTestId("tokens-by-provider").locator(".legend li").count(), 3);

    // Claude Code: the address and the switcher follow; the sessions view lists that install's sessions.
    await b.page.getByTestId("provider-switch").locator('[data-value="PROVIDER_B"]').click();
    await pollUntil(async () => sourceOf(b.page.url()) === ids.PROVIDER_B, { what: "the Claude Code source in the address" });
    await b.page.locator('[data-testid="cli-system"][data-provider="PROVIDER_B"]').waitFor();
    assert.is(await b.page.locator("a.tab[data-view=cron]").count(), 0, "no cron tab for Claude Code");
    await b.page.locator('a.tab[data-view="sessions"]').click();
    const table = b.page.getByTestId("sessions-table");
    const parent = "ae24cb29-2728-49b1-a664-ab5bcd4d2ced";
    await table.locator(`tr[data-key="${parent}"]`).waitFor();
    assert.is(sourceOf(b.page.url()), ids.PROVIDER_B);
    const want = (await gqlData<{ source: { sessions: Array<{ key: string }> } }>(d, `{ source(selector: { id: "${ids.PROVIDER_B}" }) { ... on AgentNamespace { sessions(filter: { grouped: false, limit: 1000 }) { key } } } }`)).source.sessions.map((s) => s.key).sort();
    const shown = async (): Promise<string[]> => (await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-key") ?? ""))).sort();
    assert.equal(await shown(), want);
    // The sessions are the fixture's transcript files, the sub-agent nested under the session that spawned it.
    assert.ok(want.includes("2e9c2371-da3e-47f6-90cb-2bbf8fb5defc") && want.includes(`${parent}:subagent:a166e0b902aacb7f6`));
    assert.is(await table.locator(`tr[data-key="${parent}:subagent:a166e0b902aacb7f6"]`).getAttribute("data-depth"), "1");
    assert.match((await table.locator(`tr[data-key="${parent}"]`).textContent()) ?? "", /api-server\s*main/, "the project and its branch");

    // Each session's context share: its last response's prompt (input + cache read + cache write)
    // over the model's window, 200,000 for both fixture models (what Claude Code's own -p result
    // reports, format doc §9). The failed session never got a response: no share.
    const projects = join(d.claudeDir, "projects");
    const shares = {
      "2e9c2371-da3e-47f6-90cb-2bbf8fb5defc": join(projects, "-home-op-code-api-server", "2e9c2371-da3e-47f6-90cb-2bbf8fb5defc.jsonl"),
      "5108af6e-f189-45e9-bdc7-b8ebdcc5714b": join(projects, "-home-op-code-api-server", "5108af6e-f189-45e9-bdc7-b8ebdcc5714b.jsonl"),
    };
    for (const [key, path] of Object.entries(shares)) {
      const tokens = lastPromptTokens(path);
      const meter = table.locator(`tr[data-key="${key}"] td.col-context [role="meter"]`);
      await meter.waitFor();
      assert.is(await meter.getAttribute("aria-valuenow"), String(Math.round((tokens / CLAUDE_WINDOW) * 1000) / 10), key);
      assert.is(await meter.locator(".meter-value").textContent(), pct((tokens / CLAUDE_WINDOW) * 100), key);
    }
    assert.is(await table.locator('tr[data-key="099ba3cc-161b-48e0-aab9-43167bb42fd3"] td.col-context').textContent(), "—", "no response, no share");

    // The transcript of a session with tool calls: each tool_use of the file as a chip, each result with its tool.
    const file = join(d.claudeDir, "projects", "-home-op-code-api-server", "2e9c2371-da3e-47f6-90cb-2bbf8fb5defc.jsonl");
    const lines = rawLines(file);
    const blocks = lines.filter((l) => l.type === "assistant" || l.type === "user").flatMap((l) => (Array.isArray(l.message?.content) ? (l.message.content as Array<Record<string, unknown>>) : []));
    const toolNames = blocks.filter((c) => c.type === "tool_use").map((c) => c.name as string);
    const results = blocks.filter((c) => c.type === "tool_result");
    assert.equal(toolNames, ["Bash", "Write"], "the fixture's tool calls");
    await table.locator('tr[data-key="2e9c2371-da3e-47f6-90cb-2bbf8fb5defc"] a.session-link').click();
    await b.page.locator('[data-testid="message"][data-role="toolResult"]').first().waitFor();
    assert.is(sourceOf(b.page.url()), ids.PROVIDER_B, "the transcript's address names its source");
    const chips = await b.page.locator('[data-testid="message"][data-role="assistant"] .tool-calls .chip').allTextContents();
    assert.equal(chips.map((c) => c.trim()), toolNames);
    const resultTools = await b.page.locator('[data-testid="message"][data-role="toolResult"] .msg-head .chip').allTextContents();
    assert.equal(resultTools, toolNames, "each result names the tool it answers");
    assert.is(await b.page.locator('[data-testid="message"][data-role="toolResult"]').count(), results.length);
    assert.match((await b.page.locator('[data-testid="message"][data-role="toolResult"]').first().textContent()) ?? "", /fixture-bash-ok/);
    assert.match((await b.page.getByTestId("transcript-project").textContent()) ?? "", /api-server\s*main/);
    const facts = b.page.locator(".facts-wide", { has: b.page.locator('[role="meter"]') });
    assert.match((await facts.textContent()) ?? "", new RegExp(`${int(lastPromptTokens(file))} / ${int(CLAUDE_WINDOW)}`), "the prompt over the window");

    // The parent of the sub-agent lists it, and opens it.
    await b.page.goto(`${d.url}/#/sessions/${parent}?source=${ids.PROVIDER_B}`);
    await b.page.getByTestId("sub-agents").locator("a", { hasText: "Sub-agent job" }).click();
    await b.page.locator(".transcript-head", { hasText: "Spawned by" }).waitFor();
    assert.match(new URL(b.page.url()).hash, /subagent%3Aa166e0b902aacb7f6/);

    // A reload keeps the choice (the address), and so does a new visit without one (localStorage).
    await b.page.reload();
    await b.page.locator('[data-testid="message"]').first().waitFor();
    const again = await b.context.newPage();
    await again.goto(`${d.url}/#/sessions`);
    await again.locator(`[data-testid="sessions-table"] tr[data-key="${parent}"]`).waitFor();
    await pollUntil(async () => sourceOf(again.url()) === ids.PROVIDER_B, { what: "the remembered source in the new page's address" });
    // A link that names another source opens that one: Codex's sessions.
    await again.goto(`${d.url}/#/sessions?source=${ids.PROVIDER_C}`);
    const codexKeys = (await gqlData<{ source: { sessions: Array<{ key: string }> } }>(d, `{ source(selector: { id: "${ids.PROVIDER_C}" }) { ... on AgentNamespace { sessions(filter: { grouped: false, limit: 1000 }) { key } } } }`)).source.sessions.map((s) => s.key).sort();
    await again.locator(`[data-testid="sessions-table"] tr[data-key="${codexKeys[0]}"]`).waitFor();
    assert.equal((await again.getByTestId("sessions-table").locator("tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-key") ?? ""))).sort(), codexKeys);
    assert.is(await again.getByTestId("provider-switch").locator('[aria-pressed="true"]').getAttribute("data-value"), "PROVIDER_C");
    await again.close();

    // "All" lists every provider's sessions, each saying its provider.
    await b.page.getByTestId("provider-switch").locator('[data-value="all"]').click();
    await b.page.locator('[data-testid="sessions-table"] tr[data-source="agent:main"]').first().waitFor();
    await waitInPage(b.page, `new Set([...document.querySelectorAll('[data-testid="sessions-table"] tbody tr')].map((tr) => tr.getAttribute("data-source"))).size === 3`);
    assert.equal(b.foreignRequests, []);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

/** The countdown as the page words it in English: whole minutes, two units at most. */
function countdown(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "<1m";
  const dd = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  return dd > 0 ? `${dd}d ${h}h` : h > 0 ? `${h}h ${m}m` : `${m}m`;
}

interface Window {
  usedPercent: number;
  windowMinutes: number | null;
  resetsAt: string | null;
}
interface Limits {
  system: { rateLimits: { primary: Window; secondary: Window; stale: boolean; history: Array<{ primaryUsedPercent: number | null }> } | null };
}
const LIMITS = `{ system(provider: PROVIDER_C) { ... on ProviderCSystem { rateLimits { stale primary { usedPercent windowMinutes resetsAt } secondary { usedPercent windowMinutes resetsAt } history(days: 7) { primaryUsedPercent } } } } }`;
const pct = (n: number): string => `${new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 }).format(n)}%`;

// The one test of the gauge's arc: what a real renderer draws (its length, lowest point and ends),
// not a reading of the path's commands. Above 50 % the large-arc flag once drew the rest of the circle,
// under the baseline; a share past 100 % (a plan used beyond its quota) is held to the full dial.
test("a gauge draws the arc of its share, never the rest of the circle: 0, 49, 51, 99, 100 and 130 %", async () => {
  const d = await startAllProviders();
  const b = await launchBrowser(d.url);
  let used = 0;
  try {
    // The daemon's answers with the 5-hour window's share set to the figure under test.
    await b.page.route("**/graphql", async (route) => {
      // Only the queries that read the rate limits; every other request (the live subscription) as it is.
      if (!(route.request().postData() ?? "").includes("rateLimits")) return route.continue();
      try {
        const res = await route.fetch();
        const text = (await res.text()).replace(/("primary":\{[^{}]*?"usedPercent":)[-\d.e+]+/g, `$1${used}`);
        await route.fulfill({ response: res, body: text });
      } catch {
        // The page went away meanwhile (the next figure's reload).
      }
    });
    for (const percent of [0, 49, 51, 99, 100, 130]) {
      used = percent;
      await signIn(b.page, d, `#/?source=${d.codexSource}&gauge=${percent}`);
      await b.page.reload();
      const gauge = b.page.locator(`[data-testid="gauge-primary"][data-used="${percent}"]`);
      await gauge.waitFor();
      // The arc runs from the left end (16, 80) over the top; centre (80, 80), radius 64. Whatever
      // the share, it stays above the baseline (sampled along the path, as the renderer lays it
      // out), covers its share of the track and ends at the share's angle.
      const drawn = await inPage<{ share: number; lowest: number; base: number; start: { x: number; y: number }; end: { x: number; y: number } } | null>(
        b.page,
        `(() => {
          const el = document.querySelector('[data-testid="gauge-primary"]');
          const fill = el && el.querySelector(".gauge-fill");
          const track = el && el.querySelector(".gauge-track");
          if (!fill || !track) return null;
          const len = fill.getTotalLength();
          const ys = Array.from({ length: 41 }, (_, i) => fill.getPointAtLength((len * i) / 40).y);
          const s = fill.getPointAtLength(0);
          const e = fill.getPointAtLength(len);
          return { share: len / track.getTotalLength(), lowest: Math.max(...ys), base: track.getPointAtLength(0).y, start: { x: s.x, y: s.y }, end: { x: e.x, y: e.y } };
        })()`,
      );
      if (percent === 0) {
        assert.is(drawn, null, "no arc at 0 %");
        continue;
      }
      assert.ok(drawn, `${percent} %: an arc`);
      const share = Math.min(percent, 100) / 100;
      const angle = Math.PI * share;
      assert.ok(Math.abs(drawn.share - share) < 0.005, `${percent} %: the fill covers ${drawn.share} of the dial`);
      assert.ok(drawn.lowest <= drawn.base + 0.01, `${percent} %: the fill dips to y=${drawn.lowest}, below the base line y=${drawn.base}`);
      assert.ok(Math.abs(drawn.start.x - 16) < 0.5 && Math.abs(drawn.start.y - 80) < 0.5, `${percent} %: starts at the left end (${JSON.stringify(drawn.start)})`);
      assert.ok(Math.abs(drawn.end.x - (80 - 64 * Math.cos(angle))) < 0.5 && Math.abs(drawn.end.y - (80 - 64 * Math.sin(angle))) < 0.5, `${percent} %: ends at its angle (${JSON.stringify(drawn.end)})`);
    }
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("Codex's plan gauges show ProviderCSystem.rateLimits with a live reset countdown; stale once the window has reset", async () => {
  const d = await startAllProviders();
  const b = await launchBrowser(d.url);
  try {
    const rl = (await gqlData<Limits>(d, LIMITS)).system.rateLimits;
    assert.ok(rl?.primary && rl.secondary && !rl.stale, "the fixture recorded both windows, fresh at this clock");
    await signIn(b.page, d, `#/?source=${d.codexSource}`);
    const panel = b.page.getByTestId("rate-limits");
    await panel.waitFor();
    for (const [slot, w, label] of [
      ["primary", rl.primary, "5-hour window"],
      ["secondary", rl.secondary, "Weekly window"],
    ] as const) {
      const gauge = b.page.getByTestId(`gauge-${slot}`);
      assert.is(await b.page.getByTestId(`gauge-${slot}-value`).textContent(), pct(w.usedPercent));
      assert.is(Number(await gauge.getAttribute("data-used")), w.usedPercent);
      assert.is(await gauge.getAttribute("data-tone"), w.usedPercent >= 100 ? "err" : w.usedPercent >= 80 ? "warn" : "ok");
      assert.is(await gauge.locator(".gauge-label").textContent(), label);
      assert.is(await gauge.locator('[role="meter"]').getAttribute("aria-valuenow"), String(Math.round(w.usedPercent * 10) / 10));
      // The countdown against the daemon's clock, read between two readings of it (a minute may turn meanwhile).
      const before = d.clock.now();
      const text = await b.page.getByTestId(`gauge-${slot}-reset`).textContent();
      const after = d.clock.now();
      const reset = Date.parse(w.resetsAt as string);
      const allowed = new Set([countdown(reset - before + 2000), countdown(reset - before), countdown(reset - after), countdown(reset - after - 2000)].map((c) => `resets in ${c}`));
      assert.ok(allowed.has(text ?? ""), `${slot}: "${text}" is one of ${[...allowed].join(" / ")}`);
    }
    assert.is(await b.page.getByTestId("quota-stale").count(), 0, "fresh figures are not marked stale");
    // The history: one point per recorded sample of the 5-hour window.
    const samples = rl.history.filter((h) => h.primaryUsedPercent !== null).length;
    assert.ok(samples > 1);
    assert.is(await b.page.getByTestId("quota-history").locator(".series-quota-primary circle").count(), samples);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }

  // Hours later the 5-hour window has reset with no newer figure: the daemon says stale, and so does the page.
  const late = await startAllProviders({ now: Date.parse("2026-11-24T02:00:00.000Z") });
  const c = await launchBrowser(late.url);
  try {
    const rl = (await gqlData<Limits>(late, LIMITS)).system.rateLimits;
    assert.ok(rl?.stale, "the daemon calls the figures stale");
    await signIn(c.page, late, `#/?source=${late.codexSource}`);
    await c.page.getByTestId("quota-stale").waitFor();
    assert.is(await c.page.getByTestId("quota-stale").textContent(), "Stale");
    assert.is(await c.page.getByTestId("gauge-primary-reset").textContent(), "window has reset");
    assert.match((await c.page.getByTestId("gauge-secondary-reset").textContent()) ?? "", /^resets in \dd \d+h$/);
    assert.equal(c.errors, []);
  } finally {
    await c.close();
    await late.stop();
  }
});

// The plan quota of every provider with the rateLimits capability (Claude Code's from its status
// line, Codex's from its rollouts), written straight into the daemon's store: a rising 5-hour
// window whose last half hour fills it before it resets. GraphQL projects it from those readings;
// each provider's page and the all-providers view show the gauges, the history and the warning.
const LIMITED = PROVIDER_IDENTITIES.filter((p) => p.capabilities.rateLimits);
const PROJECTION = `query($p: Provider!) { system(provider: $p) { ${LIMITED.map((p) => `... on ${p.systemType} { rateLimits { source primary { usedPercent resetsAt projection { status fullAt resetsAt beforeReset burnPercentPerHour } } history(days: 7) { primaryUsedPercent } } }`).join(" ")} } }`;
interface Projected {
  system: { rateLimits: { source: string; primary: { usedPercent: number; resetsAt: string; projection: { status: string; fullAt: string | null; resetsAt: string | null; beforeReset: boolean | null; burnPercentPerHour: number | null } }; history: Array<{ primaryUsedPercent: number | null }> } | null };
}

test("Claude Code's and Codex's plan gauges, history and 'full ≈…, resets …' on each page and on the all-providers view", async () => {
  assert.ok(LIMITED.length >= 2, "both CLIs declare rateLimits");
  const d = await startAllProviders();
  const b = await launchBrowser(d.url);
  try {
    // First Codex's own fixture readings: 11 rising figures within 35 seconds, 21 minutes before the
    // clock: too close together to tell a rate from, which the API says.
    const fixture = rolloutFiles(d.codexDir)
      .flatMap((rel) => codexLines(join(d.codexDir, rel)))
      .filter((l) => (l.payload as { rate_limits?: { primary?: unknown } } | undefined)?.rate_limits?.primary)
      .map((l) => Date.parse(l.timestamp as string));
    assert.ok(fixture.length > 1 && Math.max(...fixture) - Math.min(...fixture) < 5 * MIN && d.clock.now() - Math.min(...fixture) < 30 * MIN, "the fixture's readings: close together, within the last half hour");
    const own = (await gqlData<Projected>(d, PROJECTION, { p: "PROVIDER_C" })).system.rateLimits?.primary.projection;
    assert.equal([own?.status, own?.fullAt, own?.beforeReset], ["TOO_FEW_SAMPLES", null, null]);
    const db = d.daemon.store.db;
    const t0 = d.clock.now();
    const reset = t0 + 60 * MIN;
    const sources = { PROVIDER_B: d.claudeSource, PROVIDER_C: d.codexSource } as Record<string, string>;
    // 50, 60, 70 % at 21, 11 and 1 minutes ago: a point a minute; the fixture's own readings end
    // 20 minutes before the clock, so the last half hour is replaced to be only these.
    const readings: Array<[number, number]> = [[21, 50], [11, 60], [1, 70]];
    for (const p of LIMITED) {
      const src = sources[p.enumValue] as string;
      db.prepare("DELETE FROM rate_limit_samples WHERE source_id = ? AND ts > ?").run(src, t0 - 40 * MIN);
      const ins = db.prepare("INSERT INTO rate_limit_samples (ts, source_id, primary_used, primary_window_minutes, primary_resets_at, secondary_used, secondary_window_minutes, secondary_resets_at) VALUES (?, ?, ?, 300, ?, 30, 10080, ?)");
      for (const [ago, used] of readings) ins.run(t0 - ago * MIN, src, used, reset, t0 + 3 * 24 * 60 * MIN);
    }
    // A per-model weekly window beside Claude Code's plan (a limit of its own, as the status line's intake stores it).
    const opus = { limitId: "claude:seven_day_opus", used: 45 };
    db.prepare("INSERT INTO rate_limit_samples (ts, source_id, limit_id, secondary_used, secondary_window_minutes, secondary_resets_at) VALUES (?, ?, ?, ?, 10080, ?)").run(t0 - 2 * MIN, sources.PROVIDER_B, opus.limitId, opus.used, t0 + 4 * 24 * 60 * MIN);
    const fullAt = t0 - MIN + 30 * MIN; // 30 points left at a point a minute, from the last reading
    const hhmm = (ms: number): string => new Date(ms).toISOString().slice(11, 16); // the page's zone is UTC
    const line = `full ≈${hhmm(fullAt)}, resets ${hhmm(reset)}`;
    const history = new Map<string, number>();
    for (const p of LIMITED) {
      const rl = (await gqlData<Projected>(d, PROJECTION, { p: p.enumValue })).system.rateLimits;
      assert.ok(rl, `${p.displayName}: rate limits`);
      assert.is(rl.source, sources[p.enumValue]);
      assert.is(rl.primary.usedPercent, 70);
      const pr = rl.primary.projection;
      assert.is(pr.status, "PROJECTED");
      assert.is(Date.parse(pr.fullAt ?? ""), fullAt);
      assert.is(Date.parse(pr.resetsAt ?? ""), reset);
      assert.is(pr.beforeReset, true);
      assert.ok(near(pr.burnPercentPerHour ?? 0, 60), `${pr.burnPercentPerHour} points an hour`);
      history.set(p.enumValue, rl.history.filter((h) => h.primaryUsedPercent !== null).length);
    }
    // Each provider's own page.
    for (const p of LIMITED) {
      await signIn(b.page, d, `#/?source=${sources[p.enumValue]}`);
      const panel = b.page.locator(`[data-testid="rate-limits"][data-provider="${p.enumValue}"]`);
      await panel.waitFor({ timeout: PAGE_WAIT_MS });
      assert.is(await panel.getByTestId("gauge-primary-value").textContent(), pct(70));
      assert.is(await panel.getByTestId("gauge-secondary-value").textContent(), pct(30));
      assert.is(await panel.getByTestId("gauge-primary-projection").textContent(), line);
      assert.is(await panel.getByTestId("gauge-secondary-projection").count(), 0, "the flat weekly window warns of nothing");
      assert.is(await panel.getByTestId("quota-history").locator(".series-quota-primary circle").count(), history.get(p.enumValue));
      if (p.enumValue === "PROVIDER_B") {
        assert.is(await panel.getByTestId("gauge-model-opus-value").textContent(), pct(opus.used));
        assert.is(await panel.getByTestId("gauge-model-opus").locator(".gauge-label").textContent(), "Weekly window, opus");
      } else assert.is(await panel.locator('[data-testid^="gauge-model-"]').count(), 0, "no per-model window recorded");
    }
    // The all-providers view: one panel per provider with rate limits, named.
    await b.page.goto(`${d.url}/#/?source=all`);
    await b.page.getByTestId("all-rate-limits").waitFor({ timeout: PAGE_WAIT_MS });
    for (const p of LIMITED) {
      const panel = b.page.locator(`#rate-limits-${p.enumValue}`);
      await panel.getByTestId("gauge-primary-projection").waitFor({ timeout: PAGE_WAIT_MS });
      assert.is(await panel.locator("h2").textContent(), `${p.displayName} plan usage`);
      assert.is(await panel.getByTestId("gauge-primary-projection").textContent(), line);
      assert.is(await panel.getByTestId("quota-history").locator(".series-quota-primary circle").count(), history.get(p.enumValue));
    }
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("Chinese: the combined overview, the switcher's views and the gauges speak Chinese", async () => {
  const d = await startAllProviders();
  const b = await launchBrowser(d.url, { locale: "zh-CN" });
  try {
    await signIn(b.page, d);
    await b.page.getByTestId("all-kpis").waitFor();
    assert.is(await b.page.getByTestId("all-today").locator(".kpi-label").textContent(), "今日费用");
    assert.is(await b.page.getByTestId("all-tokens").locator(".kpi-label").textContent(), "Token（6小时）", "usage tokens are Token");
    assert.is(await b.page.locator("h1").textContent(), "所有提供方");
    assert.is(await b.page.getByTestId("provider-switch").locator('[data-value="all"]').textContent(), "全部");
    assert.match(await b.page.locator("#by-provider").innerText(), /按提供方[\s\S]*今日[\s\S]*合计/);
    await b.page.getByTestId("provider-switch").locator('[data-value="PROVIDER_C"]').click();
    await b.page.getByTestId("rate-limits").waitFor();
    assert.is(await b.page.getByTestId("gauge-primary").locator(".gauge-label").textContent(), "5 小时窗口");
    assert.is(await b.page.getByTestId("gauge-secondary").locator(".gauge-label").textContent(), "每周窗口");
    assert.match((await b.page.getByTestId("gauge-primary-reset").textContent()) ?? "", /^\d+小时\d+分钟后重置$/);
    assert.match((await b.page.getByTestId("gauge-secondary-reset").textContent()) ?? "", /^\d+天\d+小时后重置$/);
    // The daemon's own words follow the page's language (the query passes the locale): the rate-limit check.
    const verdict = b.page.getByTestId("health-verdict");
    assert.is((await verdict.textContent())?.trim(), "健康");
    const main = await b.page.locator("main").innerText();
    for (const english of ["resets in", "Plan usage", "Running now", "Health checks", "Projects", "window"]) assert.not.ok(main.includes(english), `no English "${english}" on the page`);
    assert.is(await inPage(b.page, "document.documentElement.lang"), "zh-CN");
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("on a phone (390 px) the switcher, the combined overview, Codex's gauges and the mixed session list fit without sideways scrolling", async () => {
  const d = await startAllProviders();
  const b = await launchBrowser(d.url, { viewport: { width: 390, height: 844 } });
  try {
    await signIn(b.page, d);
    for (const [hash, ready] of [
      ["#/?source=all", '[data-testid="provider-table"]'],
      [`#/?source=${d.codexSource}`, '[data-testid="rate-limits"]'],
      [`#/?source=${d.claudeSource}`, '[data-testid="projects"]'],
      ["#/sessions?source=all", '[data-testid="sessions-table"]'],
      [`#/sessions/2e9c2371-da3e-47f6-90cb-2bbf8fb5defc?source=${d.claudeSource}`, '[data-testid="message"]'],
    ] as const) {
      await b.page.goto(`${d.url}/${hash}`);
      await b.page.locator(ready).first().waitFor();
      for (const lang of ["en", "zh"] as const) {
        await b.page.getByTestId("language-switch").locator(`[data-value="${lang}"]`).click();
        const width = await inPage<number>(b.page, "document.documentElement.scrollWidth");
        assert.ok(width <= 390, `${hash} (${lang}) is ${width} px wide`);
      }
      // The switcher stays on screen, on its own row.
      const box = await b.page.getByTestId("provider-switch").boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the switcher fits (${JSON.stringify(box)})`);
    }
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test.run();
