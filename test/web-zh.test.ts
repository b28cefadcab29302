// The dashboard in Chinese, in a real browser: what the daemon itself writes (the health checks'
// messages, why the gateway is down, demo mode) is Chinese too, and so are its units; counted
// phrases take the right form; sizes have one unit per figure; a run under a second shows its
// milliseconds; the lifetime figure and the Sessions view say what each counts. Switching to
// English brings the daemon's English back. Expected figures come from the fixture files.
import Database from "better-sqlite3";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Page } from "playwright-core";
import { pollUntil } from "../shared/base/clock.js";
import { makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import { launchBrowser, signIn, PAGE_WAIT_MS } from "./helpers/browser.js";
import { startDaemon } from "./helpers/daemon.js";
import { byKey, expectedTotals, fixtureTranscripts } from "./helpers/fixture-expectations.js";

test.after(removeTempDirs);

/** The health panel as [check name, message] rows. */
const healthRows = (page: Page): Promise<Array<[string, string]>> =>
  page.getByTestId("health-checks").locator("li").evaluateAll((lis) => lis.map((li) => [li.querySelector(".check-name")?.textContent ?? "", li.querySelector(".check-msg")?.textContent ?? ""] as [string, string]));

/** Polls until the health panel's rows satisfy `ok`, and returns them as a map. */
async function healthWhen(page: Page, ok: (rows: Map<string, string>) => boolean, what: string): Promise<Map<string, string>> {
  let rows = new Map<string, string>();
  await pollUntil(
    async () => {
      rows = new Map(await healthRows(page));
      return ok(rows);
    },
    { timeoutMs: PAGE_WAIT_MS, what: `${what}; last seen ${JSON.stringify([...rows])}` },
  );
  return rows;
}

/** The gateway card's figure under `label`. */
const fact = (page: Page, label: string): Promise<string> =>
  page
    .getByTestId("gateway-card")
    .locator(".facts > div", { has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
    .locator("dd")
    .innerText();

/** Each cron job's last run time in ms, as the state DB stores it. */
function lastDurations(stateDir: string): Map<string, number> {
  const db = new Database(join(stateDir, "state", "openclaw.sqlite"), { readonly: true });
  try {
    const out = new Map<string, number>();
    for (const r of db.prepare("SELECT job_id, state_json FROM cron_jobs").all() as Array<{ job_id: string; state_json: string }>) {
      const ms = (JSON.parse(r.state_json) as { lastDurationMs?: unknown }).lastDurationMs;
      if (typeof ms === "number") out.set(r.job_id, ms);
    }
    return out;
  } finally {
    db.close();
  }
}

test("Chinese: the daemon's health messages, units and counts are Chinese; English comes back on a switch", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url, { locale: "zh-CN" });
  try {
    const transcripts = fixtureTranscripts(d.openclawDir);
    const keys = byKey(transcripts).size;
    const totals = expectedTotals(transcripts);
    assert.ok(keys < transcripts.length, "the fixture has sessions with more than one transcript");
    await signIn(b.page, d);

    // No gateway runs beside the fixture: the stub probe's error is quoted inside Chinese.
    const zh = await healthWhen(b.page, (r) => r.get("数据源") === "1 个智能体已连接", "the first scan ends");
    assert.is(zh.get("网关"), "网关无响应：connect ECONNREFUSED (no gateway in this test)");
    assert.is(zh.get("就绪状态"), "网关已停止");
    assert.is(zh.get("事件循环"), "没有事件循环数据（readyz）");
    // The stubbed daemon never probes channels (channels: false): no check, rather than a pending one.
    assert.not.ok(zh.has("渠道"), JSON.stringify([...zh]));
    assert.is(zh.get("存储"), "");
    // Free disk: the same figure, in the same unit, in the health check and on the gateway card.
    const freeZh = await fact(b.page, "可用磁盘");
    assert.match(freeZh, /^[\d,.]+ (MB|GB|TB)$/);
    assert.is(zh.get("磁盘"), `可用 ${freeZh}`);
    assert.is(await b.page.getByTestId("gateway-why").innerText(), zh.get("网关"), "the gateway card says why in Chinese");

    // Lifetime counts transcripts, labelled as such; the Sessions view counts session keys and says both.
    const lifetime = b.page.getByTestId("lifetime");
    await b.page.getByTestId("lifetime-sessions").filter({ hasText: new RegExp(`^${transcripts.length}$`) }).waitFor();
    const sessionsStat = lifetime.locator("div", { has: b.page.getByTestId("lifetime-sessions") });
    assert.is(await sessionsStat.locator("dt").innerText(), "对话记录");
    assert.match(await lifetime.innerText(), new RegExp(`助手回复 ${totals.assistantMessages} 条`));
    assert.is(await b.page.getByTestId("kpi-tokens").locator(".kpi-label").innerText(), "Token");

    await b.page.locator('a.tab[data-view="sessions"]').click();
    await b.page.getByTestId("sessions-table").waitFor();
    await b.page.locator(".view-sub", { hasText: `${keys} 个会话 · ${transcripts.length} 份对话记录` }).first().waitFor();

    // A run under a second shows its milliseconds (it read "0s" on the card).
    const quick = [...lastDurations(d.openclawDir)].find(([, ms]) => ms < 1000);
    assert.ok(quick, "the fixture has a run under a second");
    await b.page.locator('a.tab[data-view="cron"]').click();
    const job = b.page.locator(`[data-job-id="${quick[0]}"]`);
    await job.waitFor();
    assert.is(await job.locator(".facts > div", { has: b.page.locator("dt", { hasText: /^耗时$/ }) }).locator("dd").innerText(), `${quick[1]} 毫秒`);

    // English again: the daemon's messages follow at once, with the plain words and one size unit.
    await b.page.locator('a.tab[data-view="overview"]').click();
    await b.page.getByTestId("language-switch").locator('[data-value="en"]').click();
    const en = await healthWhen(b.page, (r) => r.get("Readiness") === "the gateway is down", "the English messages");
    assert.is(en.get("Gateway"), "connect ECONNREFUSED (no gateway in this test)");
    assert.is(en.get("Data sources"), "1 agent connected", "one agent, not '1 agents'");
    const freeEn = await fact(b.page, "Free disk");
    assert.is(en.get("Disk"), `${freeEn} free`);
    assert.is(await b.page.getByTestId("lifetime").locator("div", { has: b.page.getByTestId("lifetime-sessions") }).locator("dt").innerText(), "Transcripts");
    assert.match(await b.page.getByTestId("lifetime").innerText(), new RegExp(`${totals.assistantMessages} assistant repl${totals.assistantMessages === 1 ? "y" : "ies"}`));
    assert.equal(b.foreignRequests, []);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("Chinese demo mode: the gateway card and its health check say so in Chinese", async () => {
  // No OpenClaw state dir anywhere: the daemon serves its bundled demo state.
  const d = await startDaemon({ env: { HOME: makeTempDir() }, daemon: { flags: {} } });
  const b = await launchBrowser(d.url, { locale: "zh-CN" });
  try {
    // The demo bundles four providers, so the dashboard opens on All: look at OpenClaw's agent.
    await signIn(b.page, d, "#/?source=agent:main");
    const rows = await healthWhen(b.page, (r) => r.has("网关"), "the health checks");
    assert.is(rows.get("网关"), "演示模式：没有演示网关应答");
    assert.is(await b.page.getByTestId("gateway-why").innerText(), "演示模式：没有演示网关应答");
    const text = await b.page.locator("main").innerText();
    assert.not.match(text, /demo mode/i, "no English 'demo mode' on the page");
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test.run();
