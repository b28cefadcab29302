// Display preferences in a real browser: the theme follows the system until the user picks one,
// the language switches at runtime (English / Chinese), both survive a reload, a first visit
// follows the browser's language, and every view fits a 390 px wide screen.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import type { Page } from "playwright-core";
import { inPage, launchBrowser, signIn, waitInPage } from "./helpers/browser.js";
import { startDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

const bg = (p: Page): Promise<string> => inPage(p, "getComputedStyle(document.body).backgroundColor");

test("theme: follows the system by default, a choice overrides it and is remembered", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url, { colorScheme: "light" });
  try {
    await signIn(b.page, d);
    const theme = (): Promise<string | undefined> => inPage(b.page, "document.documentElement.dataset.theme");
    assert.is(await theme(), "light");
    const light = await bg(b.page);
    await b.page.emulateMedia({ colorScheme: "dark" });
    await waitInPage(b.page, "document.documentElement.dataset.theme === 'dark'");
    const dark = await bg(b.page);
    assert.is.not(dark, light, `the colours change with the theme (${light} → ${dark})`);

    const sw = b.page.getByTestId("theme-switch");
    await sw.locator('[data-value="light"]').click();
    assert.is(await theme(), "light", "the choice beats the system");
    assert.is(await sw.locator('[data-value="light"]').getAttribute("aria-pressed"), "true");
    await b.page.reload();
    await b.page.getByTestId("kpis").waitFor();
    assert.is(await theme(), "light", "remembered across a reload");
    assert.is(await bg(b.page), light);

    await sw.locator('[data-value="system"]').click();
    assert.is(await theme(), "dark", "back to following the system");
    await b.page.reload();
    await b.page.getByTestId("kpis").waitFor();
    assert.is(await theme(), "dark");
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("language: English and Chinese switch at runtime and the choice is remembered", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url);
  try {
    await signIn(b.page, d);
    const tab = b.page.locator('a.tab[data-view="overview"]');
    assert.is(await tab.textContent(), "Overview");
    await b.page.getByTestId("language-switch").locator('[data-value="zh"]').click();
    assert.is(await tab.textContent(), "概览");
    assert.is(await inPage(b.page, "document.documentElement.lang"), "zh-CN");
    assert.is(await b.page.getByTestId("kpi-cost").locator(".kpi-label").textContent(), "费用");
    // Data loaded before the switch is relabelled in place, and the rest follows on the next view.
    await b.page.locator('a.tab[data-view="sessions"]').click();
    await b.page.getByTestId("sessions-table").waitFor();
    assert.match((await b.page.locator("h1").textContent()) ?? "", /会话/);
    // CJK glyphs render with a real font (the page asks for none from the network).
    const cjkWidth = await b.page.locator("h1").evaluate((h) => h.getBoundingClientRect().width);
    assert.ok(cjkWidth > 20);
    await b.page.reload();
    await b.page.getByTestId("sessions-table").waitFor();
    assert.is(await tab.textContent(), "概览", "remembered across a reload");
    await b.page.getByTestId("language-switch").locator('[data-value="en"]').click();
    assert.is(await tab.textContent(), "Overview");
    assert.equal(b.foreignRequests, []);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("a first visit from a Chinese browser opens in Chinese", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url, { locale: "zh-CN" });
  try {
    await signIn(b.page, d);
    assert.is(await b.page.locator('a.tab[data-view="overview"]').textContent(), "概览");
  } finally {
    await b.close();
    await d.stop();
  }
});

test("every view fits a 390 px wide screen without sideways scrolling", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url, { viewport: { width: 390, height: 844 } });
  try {
    await signIn(b.page, d);
    for (const [hash, ready] of [
      ["", '[data-testid="kpis"]'],
      ["#/sessions", '[data-testid="sessions-table"]'],
      [`#/sessions/${encodeURIComponent("agent:main:main")}`, '[data-testid="message"]'],
      ["#/events", '[data-testid="density-strip"]'],
      ["#/cron", '[data-testid="cron-job"]'],
      ["#/logs", ".log-line"],
      ["#/control", '[data-testid="restart-button"]'],
    ] as const) {
      await b.page.goto(`${d.url}/${hash}`);
      await b.page.locator(ready).first().waitFor();
      for (const lang of ["en", "zh"] as const) {
        await b.page.getByTestId("language-switch").locator(`[data-value="${lang}"]`).click();
        const width = await inPage<number>(b.page, "document.documentElement.scrollWidth");
        assert.ok(width <= 390, `${hash || "overview"} (${lang}) is ${width} px wide`);
      }
    }
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test.run();
