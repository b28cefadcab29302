// Figures that read true, in a real headless Chromium: Codex's plan figures above 50 % reach their
// gauges (how the arc is drawn is tested in web-providers.test.ts), a token count in the millions keeps three significant digits (1,574,828 read "2M"), an axis tick
// of 2.5M reads 2.5M (it read "3M"), an empty chart's axis says 0 (it read "1, 1, 0"), and the
// `detection` health check has a name in both languages (it showed raw).
// The Codex fixture is copied with its plan figures set to 71 % and 99 % and its token counts
// scaled by 100; expected figures come from those inputs or from the page's exact digits.
import { join } from "node:path";
import type { Locator } from "playwright-core";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil, shiftedClock, systemClock } from "../shared/base/clock.js";
import { ALL_PROVIDERS_NOW } from "./helpers/all-providers.js";
import { launchBrowser, signIn } from "./helpers/browser.js";
import { copyCodexHome, rawLines, rolloutFiles, writeLines } from "./helpers/codex-fixture.js";
import { gqlData, startDaemon } from "./helpers/daemon.js";
import { FILES_FIXTURE, removeTempDirs } from "./helpers/openclaw-fixtures.js";

test.after(removeTempDirs);

const PRIMARY = 71;
const SECONDARY = 99;
// Under the reader's bound on one count (10M), big enough for totals in the millions.
const SCALE = 100;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null);

/** Every `*_tokens` count in a usage object (wherever one sits in a line), times SCALE. */
function scaleTokens(v: unknown): void {
  const o = obj(v);
  if (o) for (const [k, x] of Object.entries(o)) typeof x === "number" && k.endsWith("_tokens") ? (o[k] = x * SCALE) : scaleTokens(x);
  else if (Array.isArray(v)) v.forEach(scaleTokens);
}

/** The fixture's Codex home with every plan figure at PRIMARY / SECONDARY % and every token count × SCALE. */
function bigCodexHome(): string {
  const { codexDir } = copyCodexHome();
  for (const rel of rolloutFiles(codexDir)) {
    const file = join(codexDir, rel);
    const lines = rawLines(file);
    for (const l of lines) {
      scaleTokens(l.payload);
      const rl = obj(obj(l.payload)?.rate_limits);
      const primary = obj(rl?.primary);
      const secondary = obj(rl?.secondary);
      if (primary) primary.used_percent = PRIMARY;
      if (secondary) secondary.used_percent = SECONDARY;
    }
    writeLines(file, lines);
  }
  return codexDir;
}

/** A compact count by the documented rule, for the test's own figures: three significant digits. */
function threeDigits(n: number): string {
  for (const [size, unit] of [[1e9, "B"], [1e6, "M"], [1e3, "k"]] as const) if (n >= size) return `${Number((n / size).toPrecision(3))}${unit}`;
  return String(n);
}
const parseCompact = (s: string): number => Number(s.replace(/[kMB]$/, "")) * ({ k: 1e3, M: 1e6, B: 1e9 }[s.slice(-1)] ?? 1);

/** The y-axis labels of a bar chart, bottom to top. */
async function axisLabels(chart: Locator): Promise<string[]> {
  const labels = await chart.locator('text.axis-label[text-anchor="end"]').evaluateAll((ts) => ts.map((t) => [Number(t.getAttribute("y")), t.textContent ?? ""] as [number, string]));
  return labels.sort((a, b) => b[0] - a[0]).map(([, text]) => text);
}

test("plan figures above 50 %, token figures in the millions, their axis, and an empty chart's axis", async () => {
  const codexDir = bigCodexHome();
  const d = await startDaemon({ fixture: FILES_FIXTURE, clock: shiftedClock(systemClock, ALL_PROVIDERS_NOW), env: { INSIGHTS_CODEX_DIRS: codexDir } });
  const b = await launchBrowser(d.url);
  try {
    const codex = await pollUntil(
      async () => {
        const { sources } = await gqlData<{ sources: Array<{ id: string; status: string; attributes: { provider: string } }> }>(d, `{ sources(filter: { category: AGENT }) { id status attributes { provider } } }`);
        return sources.find((s) => s.attributes.provider === "PROVIDER_C" && s.status === "CONNECTED")?.id ?? null;
      },
      { what: "the Codex source", timeoutMs: 30_000 },
    );
    await signIn(b.page, d, `#/?source=${codex}`);
    await b.page.getByTestId("rate-limits").waitFor();
    for (const [slot, used] of [
      ["primary", PRIMARY],
      ["secondary", SECONDARY],
    ] as const) {
      // The figure reaches the gauge; how its arc is drawn is tested once, in web-providers.test.ts.
      assert.is(Number(await b.page.getByTestId(`gauge-${slot}`).getAttribute("data-used")), used);
    }

    // The health checks by name, in words: `detection` read raw and lower-case, in English and in Chinese.
    const checkNames = async (): Promise<string[]> => b.page.getByTestId("health-checks").locator(".check-name").allInnerTexts();
    await b.page.getByTestId("health-checks").locator(".check-name", { hasText: "Change detection" }).waitFor();
    assert.equal((await checkNames()).filter((n) => /^[a-z-]+$/.test(n)), [], "no check is named as the API spells it");
    // The plan windows, named as the card names them.
    assert.is(await b.page.getByTestId("gauge-secondary").locator(".gauge-label").textContent(), "Weekly window");

    // The tokens tile: its exact digits in the tooltip, three significant digits on the tile.
    const tile = b.page.getByTestId("kpi-tokens").locator(".kpi-value");
    const exact = await pollUntil(async () => {
      const title = await tile.getAttribute("title");
      return title && Number(title.replace(/,/g, "")) >= 1e6 ? Number(title.replace(/,/g, "")) : null;
    }, { what: "a token total in the millions", timeoutMs: 20_000 }).catch(async (e: unknown) => { throw new Error(`${String(e)}: ${await b.page.locator("main").innerText()}`); });
    assert.is(await tile.textContent(), threeDigits(exact), `${exact} tokens`);

    // The token chart's scale: each tick reads its value (the middle one is half the top one, 2.5M beside 5M).
    const chart = b.page.getByTestId("tokens-chart");
    const ticks = await axisLabels(chart);
    assert.is(ticks.length, 3, ticks.join(", "));
    assert.is(ticks[0], "0");
    const top = parseCompact(ticks[2] as string);
    assert.ok(top >= exact / 100, `the top tick ${ticks[2]} is on the figures' scale`);
    assert.is(parseCompact(ticks[1] as string) * 2, top, `ticks ${ticks.join(", ")}`);

    await b.page.getByTestId("language-switch").locator('[data-value="zh"]').click();
    await b.page.getByTestId("health-checks").locator(".check-name", { hasText: "变更检测" }).waitFor();
    assert.equal((await checkNames()).filter((n) => /[a-z]/.test(n)), [], "every check named in Chinese");
    await b.page.getByTestId("language-switch").locator('[data-value="en"]').click();
    await b.page.getByTestId("health-checks").locator(".check-name", { hasText: "Change detection" }).waitFor();

    // OpenClaw's agent has no turns in the last hour at this clock: its chart is empty, its axis says 0.
    await b.page.goto(`${d.url}#/?source=agent:main&range=ONE_HOUR`);
    const empty = b.page.getByTestId("tokens-chart");
    await empty.locator(".chart-empty").waitFor();
    assert.equal(await axisLabels(empty), ["0"]);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test.run();
