// One health rule everywhere, on the page: the gateway's label comes from Gateway.state (demo mode
// reads "Demo", never "down", and is not red), the health panel's badge from Health.verdict, and a
// cron job past its run is shown as overdue, in amber. Expected values come from GraphQL.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import { launchBrowser, signIn, PAGE_WAIT_MS } from "./helpers/browser.js";
import { FIXTURE_NOW, gqlData, startDaemon } from "./helpers/daemon.js";
import { shiftedClock, systemClock } from "../shared/base/clock.js";
import { fail, SourceError } from "../shared/providers/result.js";

test.after(removeTempDirs);

const GATEWAY = `{ system(provider: PROVIDER_A) { ... on ProviderASystem { demo gateway { state running } health { verdict } } } }`;
interface Gw {
  system: { demo: boolean; gateway: { state: string; running: boolean }; health: { verdict: string } };
}

test("demo mode: the gateway reads Demo in the header, on the card and on Control, never down", async () => {
  // No OpenClaw state dir anywhere: the daemon serves its bundled demo state.
  const d = await startDaemon({ env: { HOME: makeTempDir() }, daemon: { flags: {} } });
  const b = await launchBrowser(d.url);
  try {
    const gw = await pollUntil(async () => {
      const g = await gqlData<Gw>(d, GATEWAY);
      return g.system.gateway.state !== "UNKNOWN" ? g : null;
    }, { what: "the first probe" });
    assert.is(gw.system.demo, true);
    assert.is(gw.system.gateway.state, "DEMO");
    // The demo bundles four providers, so the dashboard opens on All: look at OpenClaw's agent.
    await signIn(b.page, d, "#/?source=agent:main");
    const pill = b.page.getByTestId("gateway-pill");
    await b.page.locator('[data-testid="gateway-pill"][data-state="DEMO"]').waitFor();
    const pillText = (await pill.textContent()) ?? "";
    assert.match(pillText, /Demo/);
    assert.not.match(pillText, /down/i);
    assert.match((await pill.getAttribute("class")) ?? "", /tone-accent/, "neutral accent, not red");
    const card = b.page.getByTestId("gateway-card");
    await b.page.locator('[data-testid="gateway-card"][data-state="DEMO"]').waitFor();
    assert.is(await card.locator(".gw-state-title").textContent(), "Demo gateway");
    assert.not.match((await card.getAttribute("class")) ?? "", /tone-err/);
    // What the probe found, if the demo gateway does not answer, is a note, not an error.
    if (!gw.system.gateway.running) assert.is(await b.page.getByTestId("gateway-why").getAttribute("class"), "gw-note");
    await b.page.locator('a.tab[data-view="control"]').click();
    const badge = b.page.getByTestId("control-gateway-state");
    await badge.waitFor();
    assert.is(await badge.getAttribute("data-state"), "DEMO");
    assert.not.match((await badge.textContent()) ?? "", /down/i);
    assert.not.match(await b.page.locator("body").innerText(), /Gateway down/);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("the health badge is Health.verdict; a gateway that is down reads Down in red; overdue cron jobs are amber", async () => {
  // A day after the recording: the gateway's scheduled runs have not happened (no gateway runs beside a fixture).
  const d = await startDaemon({ fixture: SQLITE_FIXTURE, clock: shiftedClock(systemClock, FIXTURE_NOW + 24 * 3_600_000) });
  const b = await launchBrowser(d.url);
  try {
    const gw = await pollUntil(async () => {
      const g = await gqlData<Gw>(d, GATEWAY);
      return g.system.gateway.state === "DOWN" ? g : null;
    }, { what: "the gateway probed down" });
    await signIn(b.page, d);
    await b.page.locator(`[data-testid="health-verdict"][data-verdict="${gw.system.health.verdict}"]`).waitFor();
    assert.is(gw.system.health.verdict, "UNHEALTHY");
    assert.is((await b.page.getByTestId("health-verdict").textContent())?.trim(), "Unhealthy");
    assert.match((await b.page.getByTestId("health-verdict").locator(".badge").getAttribute("class")) ?? "", /tone-err/);
    await b.page.locator('[data-testid="gateway-pill"][data-state="DOWN"]').waitFor();
    assert.match((await b.page.getByTestId("gateway-pill").textContent()) ?? "", /Gateway down/);
    assert.match((await b.page.getByTestId("gateway-pill").getAttribute("class")) ?? "", /tone-err/);

    const jobs = (await gqlData<{ source: { cronJobs: Array<{ id: string; overdue: boolean; overdueSeconds: number | null }> } }>(d, `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { cronJobs { id overdue overdueSeconds } } } }`)).source.cronJobs;
    const overdue = jobs.filter((j) => j.overdue);
    assert.ok(overdue.length > 0 && overdue.length < jobs.length + 1, `the premise: jobs past their run (${JSON.stringify(jobs)})`);
    await b.page.locator('a.tab[data-view="cron"]').click();
    await b.page.getByTestId("cron-job").first().waitFor();
    for (const j of jobs) {
      const card = b.page.locator(`[data-testid="cron-job"][data-job-id="${j.id}"]`);
      assert.is(await card.getByTestId("cron-overdue").count(), j.overdue ? 1 : 0, `${j.id}: overdue mark`);
      if (!j.overdue) continue;
      const badge = card.getByTestId("cron-overdue").locator(".badge");
      assert.match((await badge.getAttribute("class")) ?? "", /tone-warn/, "amber");
      assert.match((await badge.textContent()) ?? "", /^Overdue by \d/);
      assert.match((await card.getByTestId("cron-due").getAttribute("class")) ?? "", /tone-text-warn/);
      assert.match((await card.getByTestId("cron-due").textContent()) ?? "", /^was due (.+ ago|yesterday) · /);
    }
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("before the first probe: the gateway reads Checking and the verdict Starting, both grey; then Down", async () => {
  // A probe held open until the test lets it answer.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const d = await startDaemon({
    fixture: SQLITE_FIXTURE,
    daemon: {
      probeHttp: async () => {
        await held;
        return fail(new SourceError("unreachable", "connect ECONNREFUSED (no gateway in this test)"));
      },
    },
  });
  const b = await launchBrowser(d.url);
  try {
    const gw = await gqlData<Gw>(d, GATEWAY);
    assert.is(gw.system.gateway.state, "UNKNOWN", "the premise: not probed yet");
    assert.is(gw.system.health.verdict, "STARTING");
    await signIn(b.page, d);
    const pill = b.page.locator('[data-testid="gateway-pill"][data-state="UNKNOWN"]');
    await pill.waitFor();
    assert.match((await pill.textContent()) ?? "", /Checking gateway…/);
    assert.match((await pill.getAttribute("class")) ?? "", /tone-neutral/);
    const verdict = b.page.locator('[data-testid="health-verdict"][data-verdict="STARTING"]');
    await verdict.waitFor();
    assert.is((await verdict.textContent())?.trim(), "Starting");
    assert.match((await verdict.locator(".badge").getAttribute("class")) ?? "", /tone-neutral/);
    release();
    await b.page.locator('[data-testid="gateway-pill"][data-state="DOWN"]').waitFor({ timeout: PAGE_WAIT_MS });
    assert.equal(b.errors, []);
  } finally {
    release();
    await b.close();
    await d.stop();
  }
});

test.run();
