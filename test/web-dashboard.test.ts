// The dashboard in a real headless Chromium: the token link becomes a cookie session and the
// overview shows the fixture's numbers (computed from the fixture files, not by the code under
// test), every view renders without errors or requests past the daemon, the page and its assets
// carry the right headers, and the page can be driven from the keyboard.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import { inPage, launchBrowser, signIn } from "./helpers/browser.js";
import { ROOT } from "./helpers/cli.js";
import { startDaemon } from "./helpers/daemon.js";
import { byKey, expectedTotals, fixtureCronJobs, fixtureTranscripts } from "./helpers/fixture-expectations.js";

test.after(removeTempDirs);

const en = new Intl.NumberFormat("en-US");
/** US dollars as the page prints them (docs/dashboard.md): cents, four decimals below a cent. */
const usd = (n: number): string => `$${n.toFixed(n !== 0 && Math.abs(n) < 0.00995 ? 4 : 2)}`;

test("the token link signs in, leaves the address bar, and the overview shows the fixture's numbers", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url);
  try {
    const transcripts = fixtureTranscripts(d.openclawDir);
    const totals = expectedTotals(transcripts);
    assert.ok(totals.total > 0 && transcripts.length > 0, "the fixture has data");

    await b.page.goto(`${d.url}/?token=${encodeURIComponent(d.token)}`);
    assert.is(new URL(b.page.url()).search, "", "the token is gone from the address bar");
    const cookies = await b.context.cookies(d.url);
    const session = cookies.find((c) => c.name === "insights_session");
    assert.ok(session?.httpOnly, "an HttpOnly session cookie");

    await b.page.locator('[data-testid="live-indicator"][data-state="live"]').waitFor();
    const lifetime = b.page.getByTestId("lifetime");
    await lifetime.waitFor();
    // Wait for the first transcript scan to finish: the totals grow until then.
    await b.page.getByTestId("lifetime-tokens").filter({ hasText: en.format(totals.total) }).waitFor();
    assert.is(await b.page.getByTestId("lifetime-sessions").textContent(), en.format(transcripts.length));
    assert.is(await b.page.getByTestId("lifetime-user-messages").textContent(), en.format(totals.userMessages));
    assert.is(await b.page.getByTestId("lifetime-cost").textContent(), usd(totals.costUsd));
    // The fixture ends minutes before the daemon's "now": the 24 h range holds all of it.
    await b.page.getByTestId("range-switch").locator('[data-value="TWENTY_FOUR_HOUR"]').click();
    await b.page.getByTestId("kpi-turns").locator(".kpi-value", { hasText: new RegExp(`^${totals.userMessages}$`) }).waitFor();
    await b.page.getByTestId("kpi-cost").locator(".kpi-value", { hasText: usd(totals.costUsd) }).waitFor();
    assert.is(await b.page.getByTestId("tokens-chart").locator("xpath=ancestor::section").locator(".panel-head .num").textContent(), en.format(totals.total));
    // The gateway is not running beside the fixture: the page says so.
    assert.match((await b.page.getByTestId("gateway-card").textContent()) ?? "", /Gateway down/);

    // Sessions: one row per session key of the fixture.
    await b.page.locator('a.tab[data-view="sessions"]').click();
    const rows = b.page.getByTestId("sessions-table").locator("tbody tr");
    await rows.first().waitFor();
    const keys = [...byKey(transcripts).keys()].sort();
    assert.equal((await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-key") ?? ""))).sort(), keys);

    // Cron: every job of the state DB that belongs to this agent (or to none).
    await b.page.locator('a.tab[data-view="cron"]').click();
    await b.page.getByTestId("cron-job").first().waitFor();
    const ids = await b.page.getByTestId("cron-job").evaluateAll((els) => els.map((e) => e.getAttribute("data-job-id") ?? ""));
    const jobs = fixtureCronJobs(d.openclawDir).filter((j) => (j.agentId ?? "main") === "main");
    assert.equal(ids.sort(), jobs.map((j) => j.id).sort());

    assert.equal(b.foreignRequests, [], "no request leaves the daemon's origin");
    assert.equal(b.errors, [], "no page errors, no CSP violations");
  } finally {
    await b.close();
    await d.stop();
  }
});

test("every view renders in both themes without errors", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url);
  try {
    await signIn(b.page, d);
    const cronKey = [...byKey(fixtureTranscripts(d.openclawDir)).keys()].find((k) => k.includes(":cron:")) as string;
    const views: Array<[string, string, string]> = [
      ["", "overview", '[data-testid="kpis"]'],
      ["#/sessions", "sessions", '[data-testid="sessions-table"]'],
      [`#/sessions/${encodeURIComponent(cronKey)}`, "session", '[data-testid="message"]'],
      ["#/events", "events", '[data-testid="density-strip"]'],
      ["#/cron", "cron", '[data-testid="cron-job"]'],
      ["#/logs", "logs", ".log-line"],
      ["#/control", "control", '[data-testid="restart-button"]'],
    ];
    for (const scheme of ["dark", "light"] as const) {
      await b.page.emulateMedia({ colorScheme: scheme });
      for (const [hash, name, ready] of views) {
        await b.page.goto(`${d.url}/${hash}`);
        await b.page.locator(`main[data-view="${name}"]`).waitFor();
        await b.page.locator(ready).first().waitFor();
        assert.is(await inPage(b.page, "document.documentElement.dataset.theme"), scheme, `${name} follows the ${scheme} system theme`);
        assert.is(await b.page.locator("h1").count(), 1, `${name} has one h1`);
      }
    }
    await b.page.goto(`${d.url}/#/no-such-view`);
    await b.page.getByText("Nothing here").waitFor();
    await b.page.goto(`${d.url}/#/sessions/${encodeURIComponent("agent:main:nope")}`);
    await b.page.getByText("Session not found").waitFor();
    assert.equal(b.foreignRequests, []);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("the page and its assets: strict CSP, long-lived hashed assets, nothing outside assets/", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  try {
    const page = await fetch(`${d.url}/`);
    assert.is(page.status, 200, "the page is public: it must load to explain sign-in");
    const csp = page.headers.get("content-security-policy") ?? "";
    for (const part of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]) assert.ok(csp.includes(part), `CSP has ${part}`);
    assert.not.match(csp, /https?:|unsafe-inline|unsafe-eval|\*/, "no external hosts, no inline code");
    assert.is(page.headers.get("cache-control"), "no-store");
    const html = await page.text();
    assert.not.match(html, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline script");
    assert.not.match(html, /\bstyle=|<style/, "no inline style");
    assert.not.match(html, /https?:\/\//, "no absolute URLs");
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
    assert.ok(assets.some((a) => a.endsWith(".js")) && assets.some((a) => a.endsWith(".css")), "script and stylesheet under /assets/");
    for (const a of assets) {
      const res = await fetch(`${d.url}${a}`, { headers: { "accept-encoding": "gzip" } });
      assert.is(res.status, 200, a);
      assert.is(res.headers.get("cache-control"), "public, max-age=31536000, immutable", a);
      assert.ok(res.headers.get("x-content-type-options"), "the server's security headers too");
    }
    const js = assets.find((a) => a.endsWith(".js")) as string;
    const body = await (await fetch(`${d.url}${js}`)).text();
    assert.not.match(body, /https?:\/\/(?!www\.w3\.org\/)[a-z]/i, "the bundle names no external host (the SVG namespace aside)");
    for (const bad of ["/assets/", "/assets/..%2Fpackage.json", "/assets/%2e%2e/index.html", "/assets/.hidden", "/assets/nope.js"]) {
      assert.is((await fetch(`${d.url}${bad}`)).status, 404, bad);
    }
    const head = await fetch(`${d.url}${js}`, { method: "HEAD" });
    assert.is(head.status, 200);
    assert.is((await head.text()).length, 0, "HEAD has no body");
  } finally {
    await d.stop();
  }
});

test("the package ships the built dashboard: npm pack lists the page and every file it loads", () => {
  // npm's cache and logs go to a temp dir: by default npm writes them into ~/.npm.
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--cache", makeTempDir("gi-npm-")], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  const files = new Set((JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((f) => f.path));
  assert.ok(files.has("dist/web/index.html"));
  const html = readFileSync(join(ROOT, "dist", "web", "index.html"), "utf8");
  const css = readdirSync(join(ROOT, "dist", "web", "assets")).filter((n) => n.endsWith(".css"));
  const referenced = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => `dist/web/${m[1] as string}`);
  for (const name of css) for (const m of readFileSync(join(ROOT, "dist", "web", "assets", name), "utf8").matchAll(/url\(\/?(assets\/[^)]+)\)/g)) referenced.push(`dist/web/${m[1] as string}`);
  assert.ok(referenced.length >= 3, "script, stylesheet, icon (and fonts)");
  for (const f of referenced) assert.ok(files.has(f), `${f} is in the package`);
});

test("keyboard: skip link, tabs, range buttons and the chart respond to Tab, Enter, Space and arrows", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url);
  try {
    await signIn(b.page, d);
    await b.page.getByTestId("kpis").waitFor();
    await b.page.keyboard.press("Tab");
    assert.is(await inPage(b.page, "document.activeElement?.textContent"), "Skip to content");
    await b.page.keyboard.press("Enter");
    assert.is(await inPage(b.page, "document.activeElement?.id"), "main");

    await b.page.locator('a.tab[data-view="events"]').focus();
    await b.page.keyboard.press("Enter");
    await b.page.getByTestId("density-strip").waitFor();
    // One tab stop for the strip; arrows move between hours, Enter filters the list to one.
    await b.page.getByTestId("density-strip").locator('button[tabindex="0"]').focus();
    await b.page.keyboard.press("ArrowLeft");
    await b.page.keyboard.press("Enter");
    await b.page.getByTestId("hour-filter").waitFor();

    await b.page.locator('a.tab[data-view="overview"]').focus();
    await b.page.keyboard.press("Enter");
    const twelve = b.page.getByTestId("range-switch").locator('[data-value="TWELVE_HOUR"]');
    await twelve.focus();
    await b.page.keyboard.press("Space");
    assert.is(await twelve.getAttribute("aria-pressed"), "true");
    const chart = b.page.getByTestId("tokens-chart").locator(".chart-frame");
    await chart.focus();
    await b.page.keyboard.press("End");
    await b.page.getByTestId("tokens-chart").locator(".chart-tip").waitFor();
    const focusRing = await inPage(b.page, "getComputedStyle(document.activeElement).outlineStyle");
    assert.is(focusRing, "solid", "a visible focus ring");
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test.run();
