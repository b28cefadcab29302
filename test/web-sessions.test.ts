// The sessions view with a sub-agent tree (two sessions added to the file-era fixture while the
// page is open): nesting, collapsing, filtering with the parent kept for context, sorting, and
// the sub-agent's transcript with its spawn prompt, tool calls and per-message token use.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { FILES_FIXTURE, removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { addSubAgentSessions, launchBrowser, signIn, waitInPage, PAGE_WAIT_MS } from "./helpers/browser.js";
import { FIXTURE_NOW, startDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

test("sub-agents nest under their parent; collapse, filter, sort and open them", async () => {
  const d = await startDaemon({ fixture: FILES_FIXTURE });
  const b = await launchBrowser(d.url);
  try {
    await signIn(b.page, d, "#/sessions");
    const table = b.page.getByTestId("sessions-table");
    await table.locator('tr[data-key="agent:main:main"]').waitFor();
    const { child, grandchild } = addSubAgentSessions(d.openclawDir, FIXTURE_NOW - 10 * 60_000);
    // New sessions on disk appear without a reload, nested one level per generation.
    const childRow = table.locator(`tr[data-key="${child}"]`);
    const grandRow = table.locator(`tr[data-key="${grandchild}"]`);
    await grandRow.waitFor({ timeout: PAGE_WAIT_MS });
    assert.is(await childRow.getAttribute("data-depth"), "1");
    assert.is(await grandRow.getAttribute("data-depth"), "2");
    const keys = await table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-key")));
    assert.ok(keys.indexOf("agent:main:main") < keys.indexOf(child) && keys.indexOf(child) < keys.indexOf(grandchild), "children follow their parent");
    assert.match((await childRow.textContent()) ?? "", /Sub-agent/);

    // Collapse the parent: both descendants go; expand: they come back.
    const toggle = table.locator('tr[data-key="agent:main:main"] .tree-toggle');
    assert.is(await toggle.getAttribute("aria-expanded"), "true");
    await toggle.click();
    assert.is(await childRow.count(), 0);
    assert.is(await grandRow.count(), 0);
    await toggle.press("Enter");
    await grandRow.waitFor();

    // Filter on the grandchild: its ancestors stay, marked as context; the cron session goes.
    await b.page.getByTestId("sessions-filter").fill("changelog links");
    await waitInPage(b.page, `document.querySelectorAll('[data-testid="sessions-table"] tbody tr').length === 3`);
    assert.ok(await table.locator('tr[data-key="agent:main:main"].context-row').count());
    await b.page.getByTestId("sessions-filter").fill("");

    // Sort by cost, highest first: among the roots the main session (with its sub-agents under it) stays a unit.
    const costHeader = table.locator("th", { hasText: "Cost" });
    await costHeader.locator("button").click();
    assert.is(await costHeader.getAttribute("aria-sort"), "descending");
    await costHeader.locator("button").click();
    assert.is(await costHeader.getAttribute("aria-sort"), "ascending");

    // The sub-agent's transcript: who spawned it, the prompt, the tool call and its result, token use.
    await childRow.locator("a.session-link").click();
    await b.page.locator('[data-testid="message"][data-role="toolResult"]').waitFor();
    const head = (await b.page.locator(".transcript-head").textContent()) ?? "";
    assert.match(head, /Spawned by\s*main/);
    assert.match((await b.page.locator('[data-testid="message"][data-role="assistant"]').first().textContent()) ?? "", /web_fetch/);
    assert.match((await b.page.getByTestId("message-usage").first().textContent()) ?? "", /In 1,800.*Out 60.*Cache read 2,000.*Total 3,860.*\$0\.0061/);
    assert.is(await b.page.getByTestId("transcript-total").textContent(), "4");
    assert.equal(b.foreignRequests, []);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test.run();
