// The dashboard stays live without reloads: a transcript event appended on disk shows up in the
// open transcript, a new gateway log line shows up in the log view (and pausing holds it back),
// and when the daemon goes away the page says so with the time of the data it still shows.
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { FILES_FIXTURE, removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import { inPage, launchBrowser, signIn, waitInPage, PAGE_WAIT_MS } from "./helpers/browser.js";
import { FIXTURE_NOW, startDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

/** Appends a user turn and the assistant's reply to a session's JSONL transcript (file era). */
function appendTurn(stateDir: string, sessionKey: string, text: string, n: number): void {
  const dir = join(stateDir, "agents", "main", "sessions");
  const index = JSON.parse(readFileSync(join(dir, "sessions.json"), "utf8")) as Record<string, { sessionId: string }>;
  const sessionId = index[sessionKey]?.sessionId;
  if (!sessionId) throw new Error(`no session ${sessionKey} in the fixture`);
  const ts = new Date(FIXTURE_NOW - 60_000 + n * 1000).toISOString();
  const user = { type: "message", id: `web${n}u`, parentId: null, timestamp: ts, message: { role: "user", content: text, timestamp: Date.parse(ts) } };
  const reply = {
    type: "message",
    id: `web${n}a`,
    parentId: `web${n}u`,
    timestamp: ts,
    message: { role: "assistant", content: [{ type: "text", text: `reply to ${text}` }], provider: "fakellm", model: "fake-model", usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100, cost: { total: 0.0045 } }, stopReason: "stop", timestamp: Date.parse(ts) },
  };
  appendFileSync(join(dir, `${sessionId}.jsonl`), JSON.stringify(user) + "\n" + JSON.stringify(reply) + "\n");
}

test("a transcript event appended on disk appears in the open transcript without a reload", async () => {
  const d = await startDaemon({ fixture: FILES_FIXTURE });
  const b = await launchBrowser(d.url);
  try {
    const key = "agent:main:main";
    await signIn(b.page, d, `#/sessions/${encodeURIComponent(key)}`);
    const messages = b.page.getByTestId("message");
    await messages.first().waitFor();
    const before = await messages.count();
    await inPage(b.page, "window.__sameDocument = true");

    appendTurn(d.openclawDir, key, "written while the page was open", 1);
    await b.page.locator('[data-testid="message"][data-role="user"]', { hasText: "written while the page was open" }).waitFor({ timeout: PAGE_WAIT_MS });
    await b.page.locator('[data-testid="message"][data-role="assistant"]', { hasText: "reply to written while the page was open" }).waitFor();
    assert.is(await messages.count(), before + 2);
    // Token use per message: the appended reply's usage.
    assert.match((await b.page.getByTestId("message").last().getByTestId("message-usage").textContent()) ?? "", /In 1,000.*Out 100.*Total 1,100.*\$0\.0045/);
    assert.is(await inPage(b.page, "window.__sameDocument"), true, "the page was not reloaded");
    assert.equal(b.foreignRequests, []);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("a long transcript opens on its newest 50 messages and loads older pages on request", async () => {
  const d = await startDaemon({ fixture: FILES_FIXTURE });
  const b = await launchBrowser(d.url);
  try {
    const key = "agent:main:main";
    for (let i = 1; i <= 30; i++) appendTurn(d.openclawDir, key, `turn number ${i}`, i);
    await signIn(b.page, d, `#/sessions/${encodeURIComponent(key)}`);
    // The fixture's 2 messages plus 60 appended ones.
    await b.page.getByTestId("transcript-total").filter({ hasText: /^62$/ }).waitFor({ timeout: PAGE_WAIT_MS });
    const messages = b.page.getByTestId("message");
    await waitInPage(b.page, `document.querySelectorAll('[data-testid="message"]').length === 50`);
    assert.match((await messages.last().textContent()) ?? "", /reply to turn number 30/, "newest last");
    const older = b.page.getByRole("button", { name: "Load older messages" });
    assert.match((await b.page.locator(".load-older").textContent()) ?? "", /50 of 62 messages/);
    await older.click();
    await waitInPage(b.page, `document.querySelectorAll('[data-testid="message"]').length === 62`);
    assert.is(await older.count(), 0, "nothing older left");
    assert.match((await messages.first().textContent()) ?? "", /hi from legacy probe/, "the session's first message is first");
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("an agent whose database turns unreadable is flagged, and its last data stays on screen", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url);
  try {
    await signIn(b.page, d);
    await b.page.getByTestId("kpis").waitFor();
    const dir = join(d.openclawDir, "agents", "main", "agent");
    for (const f of readdirSync(dir)) rmSync(join(dir, f));
    writeFileSync(join(dir, "openclaw-agent.sqlite"), "not a database ".repeat(200));
    const notice = b.page.locator(".notice", { hasText: "Agent main cannot be read" });
    await notice.waitFor({ timeout: PAGE_WAIT_MS });
    assert.match((await notice.textContent()) ?? "", /not a valid SQLite database/);
    assert.ok(await b.page.getByTestId("kpis").isVisible(), "the figures read before stay");
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("the gateway log view streams new lines; pause holds them back, resume shows them", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url);
  try {
    await signIn(b.page, d, "#/logs");
    await b.page.locator('[data-testid="logs-state"][data-state="live"]').waitFor();
    await b.page.locator(".log-line").first().waitFor();
    const logFile = join(d.openclawDir, "logs", "openclaw-2026-11-21.log");
    const line = (level: string, subsystem: string, message: string): string => {
      const time = new Date(FIXTURE_NOW - 30_000).toISOString();
      return JSON.stringify({ "0": JSON.stringify({ subsystem }), "1": message, _meta: { logLevelName: level, date: time }, time, message }) + "\n";
    };
    appendFileSync(logFile, line("WARN", "gateway/ws", "browser sees this warning"));
    await b.page.locator(".log-line", { hasText: "browser sees this warning" }).waitFor({ timeout: PAGE_WAIT_MS });

    await b.page.getByTestId("log-pause").click();
    appendFileSync(logFile, line("ERROR", "gateway/ws", "held back while paused"));
    await b.page.getByTestId("log-pause").filter({ hasText: "(1 new)" }).waitFor({ timeout: PAGE_WAIT_MS });
    assert.is(await b.page.locator(".log-line", { hasText: "held back while paused" }).count(), 0, "paused: not shown");
    await b.page.getByTestId("log-pause").click();
    await b.page.locator(".log-line", { hasText: "held back while paused" }).waitFor();

    // A minimum level of ERROR goes to the server's filter: a new WARN line no longer arrives.
    await b.page.getByTestId("log-level").selectOption("ERROR");
    await b.page.locator('[data-testid="logs-state"][data-state="live"]').waitFor();
    appendFileSync(logFile, line("WARN", "gateway/ws", "filtered out warning") + line("ERROR", "gateway/ws", "an error that passes"));
    await b.page.locator(".log-line", { hasText: "an error that passes" }).waitFor({ timeout: PAGE_WAIT_MS });
    assert.is(await b.page.locator(".log-line", { hasText: "filtered out warning" }).count(), 0);
    assert.equal(b.foreignRequests, []);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test("when the daemon goes away the page shows that it is unreachable and the time of its data", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const b = await launchBrowser(d.url);
  try {
    await signIn(b.page, d);
    await b.page.getByTestId("kpis").waitFor();
    assert.is(await b.page.getByTestId("connection-banner").count(), 0, "no banner while live");
    await d.stop();
    const banner = b.page.getByTestId("connection-banner");
    await banner.waitFor({ timeout: PAGE_WAIT_MS });
    assert.match((await banner.textContent()) ?? "", /(unreachable|reconnecting).*Showing data as of \d\d:\d\d/);
    await b.page.locator('[data-testid="connection-banner"][data-state="unreachable"]').waitFor({ timeout: PAGE_WAIT_MS });
    await b.page.locator('[data-testid="live-indicator"][data-state="offline"]').waitFor();
    // The last data stays on screen.
    assert.ok(await b.page.getByTestId("kpis").isVisible());
    assert.equal(b.foreignRequests, []);
  } finally {
    await b.close();
  }
});

test.run();
