// Signing in and out of the dashboard in a real browser: without a cookie the page explains how
// to sign in; when the cookie expires (keys rotated past their grace) the open page notices at
// its next request and shows a clear "session expired" message, and so does a reload; signing
// out ends the session.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../shared/base/clock.js";
import { removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import { launchBrowser, signIn, PAGE_WAIT_MS } from "./helpers/browser.js";
import { FIXTURE_NOW, startDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

const HOUR = 3_600_000;

test("without a session the page loads and says how to sign in, and asks the API for nothing else", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url);
  const graphql: string[] = [];
  b.page.on("request", (r) => {
    if (r.url().includes("/graphql")) graphql.push(r.url());
  });
  try {
    await b.page.goto(`${d.url}/`);
    const card = b.page.locator('[data-testid="signin"][data-reason="missing"]');
    await card.waitFor();
    assert.match((await card.textContent()) ?? "", /not signed in.*insightsctl url/s);
    assert.equal(graphql, [], "no data is requested before sign-in");
    // The theme and language switches work here too.
    await b.page.getByTestId("language-switch").locator('[data-value="zh"]').click();
    assert.match((await b.page.getByTestId("signin-message").textContent()) ?? "", /尚未登录/);
    assert.equal(b.foreignRequests, []);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("an expired cookie leads back to a clear sign-in message, live and after a reload", async () => {
  const clock = manualClock(FIXTURE_NOW);
  const d = await startDaemon({ fixture: SQLITE_FIXTURE, clock, env: { INSIGHTS_SESSION_ROTATE_HOURS: "1", INSIGHTS_SESSION_GRACE_HOURS: "1" } });
  const b = await launchBrowser(d.url);
  try {
    await signIn(b.page, d);
    await b.page.getByTestId("kpis").waitFor();
    clock.advance(2.5 * HOUR); // the cookie's key rotated out at +1 h and its grace ended at +2 h
    // The open page finds out at its next request: here, opening another view.
    await b.page.locator('a.tab[data-view="sessions"]').click();
    const expired = b.page.locator('[data-testid="signin"][data-reason="expired"]');
    await expired.waitFor({ timeout: PAGE_WAIT_MS });
    assert.match((await b.page.locator("h1").textContent()) ?? "", /session has expired/i);
    assert.match((await b.page.getByTestId("signin-message").textContent()) ?? "", /expired.*sign in again/i);
    await b.page.reload();
    await expired.waitFor();
    // Signing in again with the link works.
    await signIn(b.page, d);
    await b.page.getByTestId("sessions-table").or(b.page.getByTestId("kpis")).first().waitFor();
    assert.equal(b.foreignRequests, []);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("sign out ends the session: the page says so, and a reload is signed out", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url);
  try {
    await signIn(b.page, d);
    await b.page.getByRole("button", { name: "Sign out" }).click();
    await b.page.locator('[data-testid="signin"][data-reason="signed-out"]').waitFor();
    assert.equal(
      (await b.context.cookies(d.url)).filter((c) => c.name === "insights_session" && c.value),
      [],
      "the cookie is gone",
    );
    await b.page.reload();
    await b.page.locator('[data-testid="signin"][data-reason="missing"]').waitFor();
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("no-auth mode: the page works on loopback without any sign-in", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE, env: { INSIGHTS_NO_AUTH: "true" } });
  const b = await launchBrowser(d.url);
  try {
    await b.page.goto(`${d.url}/`);
    await b.page.locator('[data-testid="live-indicator"][data-state="live"]').waitFor({ timeout: PAGE_WAIT_MS });
    await b.page.getByTestId("kpis").waitFor();
    assert.is(await b.page.getByRole("button", { name: "Sign out" }).count(), 0, "nothing to sign out of");
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test.run();
