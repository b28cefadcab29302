// Alerts in the dashboard, end to end in a real Chromium against a real daemon over the OpenClaw
// fixture (clock at FIXTURE_NOW, alerts' zone UTC): add a webhook channel to a local receiver and
// press "Send test" (the receiver checks the signature); add a daily cost budget that the
// fixture's spend today crosses, with a field error from the daemon on the way; the banner shows it
// with its value, threshold and pace, the receiver gets one signed warning; mute it for an hour
// and the rule says until when. The secret never reaches the page nor any GraphQL answer, and the
// status card's JSON carries the alert. Then the quick start's config.json budget, in Chinese, on
// a phone. Expected figures come from the fixture's own lines.
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil, shiftedClock, systemClock } from "../shared/base/clock.js";
import { BUILTIN_RULES, METRIC_INFO } from "../shared/alerts/rules.js";
import { FIXTURES_DIR, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import { inPage, launchBrowser, signIn, PAGE_WAIT_MS } from "./helpers/browser.js";
import { ROOT } from "./helpers/cli.js";
import { gqlData, startDaemon } from "./helpers/daemon.js";
import { expectedTotals, fixtureTranscripts, FIXTURE_NOW } from "./helpers/fixture-expectations.js";

test.after(removeTempDirs);

const SECRET = "whsec-dashboard-7c1d9e5a3b";

interface Hook {
  event: string;
  valid: boolean;
  alert: { rule: { id: string }; severity: string; value: number; threshold: number; projection: { target: number; reachesAt: string | null } | null };
}

/** A webhook receiver that checks each request's signature as a real one would. */
async function receiver(): Promise<{ url: string; got: Hook[]; close(): Promise<void> }> {
  const got: Hook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const want = Buffer.from(`sha256=${createHmac("sha256", SECRET).update(`${String(req.headers["x-insights-timestamp"])}.${raw}`).digest("hex")}`);
      const have = Buffer.from(String(req.headers["x-insights-signature"] ?? ""));
      const body = JSON.parse(raw) as Omit<Hook, "valid">;
      got.push({ ...body, valid: want.length === have.length && timingSafeEqual(want, have) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/alerts`, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** What the fixture's agent spent on its last day (UTC), from its own transcript lines. */
function spentToday(): number {
  const dayStart = Date.parse(new Date(FIXTURE_NOW).toISOString().slice(0, 10));
  return expectedTotals(fixtureTranscripts(join(FIXTURES_DIR, SQLITE_FIXTURE)), (ts) => ts >= dayStart && ts < FIXTURE_NOW).costUsd;
}

test("the page's rule metadata matches the daemon's rules (metrics, windows, scopes, defaults, built-in names)", async () => {
  if (!("navigator" in globalThis)) Object.defineProperty(globalThis, "navigator", { value: { languages: ["en-US"], language: "en-US" }, configurable: true });
  const web = (await import(pathToFileURL(join(ROOT, "web/src/lib/alerts.ts")).href)) as {
    METRIC_META: Record<string, { unit: string; windows: string[]; defaultWindow: string | null; budget: boolean; defaults: { warning: number | null; critical: number | null }; scopes: string[] }>;
    BUILTIN_NAMES: Record<string, string>;
  };
  const up = (s: string | null): string | null => (s === null ? null : s.toUpperCase());
  const daemon = Object.fromEntries(
    Object.entries(METRIC_INFO).map(([m, i]) => [m.toUpperCase(), { unit: i.unit, windows: i.windows.map((w) => w.toUpperCase()), defaultWindow: up(i.defaultWindow), budget: i.budget, defaults: i.defaults, scopes: [...i.scopes] }]),
  );
  assert.equal(web.METRIC_META, daemon);
  assert.equal(web.BUILTIN_NAMES, Object.fromEntries(BUILTIN_RULES.map((r) => [r.id, r.name])));
});

test("a webhook with a test, a daily budget the fixture crosses, the banner, a mute with its end; the secret never shows", async () => {
  const spent = spentToday();
  assert.ok(spent > 0.0096 && spent < 0.0107, `the fixture spent ${spent} today`);
  const rx = await receiver();
  const clock = shiftedClock(systemClock, FIXTURE_NOW);
  const ran = join(makeTempDir("gi-web-hook-"), "ran");
  const d = await startDaemon({
    clock,
    // gateway-down off (config.json): no gateway runs beside the fixture, and this test is about budgets.
    // The receiver is on loopback: config.json allows it for channels made here. A command channel
    // can only come from config.json: the page lists it read-only.
    env: { INSIGHTS_ALERTS: JSON.stringify({ timeZone: "UTC", evaluateSeconds: 1, allowedHosts: ["127.0.0.1"], rules: [{ id: "gateway-down", enabled: false }], channels: [{ id: "log", type: "command", command: ["/bin/sh", "-c", `cat > ${ran}`], sendResolved: false, minSeverity: "critical" }] }) },
    daemon: { alertDebounceMs: 50, alertDelivery: { backoffMs: 50 } },
  });
  const b = await launchBrowser(d.url);
  // Every GraphQL answer the page gets (the JSON ones; the event streams stay open).
  const answers: Array<Promise<string>> = [];
  b.page.on("response", (r) => {
    if (r.url().endsWith("/graphql") && (r.headers()["content-type"] ?? "").includes("json")) answers.push(r.text().catch(() => ""));
  });
  try {
    await signIn(b.page, d, "#/alerts");
    const rule = (id: string) => b.page.locator(`[data-testid="alert-rule"][data-rule="${id}"]`);
    await rule("daily-cost").waitFor();
    assert.match((await rule("daily-cost").getByTestId("rule-status").textContent()) ?? "", /Off until it has a budget/);
    // config.json's rules: read-only but for mute.
    assert.match((await rule("gateway-down").textContent()) ?? "", /config\.json/);
    assert.is(await rule("gateway-down").getByTestId("rule-edit").count(), 0);
    assert.is(await rule("gateway-down").getByTestId("rule-mute").count(), 1);
    assert.is(await b.page.getByTestId("alert-banner").count(), 0, "no banner while nothing fires");

    // config.json's command channel: listed, tested, never edited here; the form does not offer the type.
    const log = b.page.locator('[data-testid="alert-channel"][data-channel="log"]');
    await log.waitFor();
    assert.match((await log.textContent()) ?? "", /config\.json/);
    assert.is(await log.getByTestId("channel-edit").count(), 0);
    assert.is(await log.getByTestId("channel-delete").count(), 0);
    await log.getByTestId("channel-test").click();
    await log.locator('[data-testid="channel-test-result"][data-outcome="SENT"]').waitFor({ timeout: PAGE_WAIT_MS });
    assert.match(readFileSync(ran, "utf8"), /"event":"test"/);

    // A webhook channel with a secret: after saving it says "Secret set", never the secret.
    await b.page.getByTestId("add-channel").click();
    const types = await b.page.locator("#channel-type option").evaluateAll((os) => os.map((o) => o.getAttribute("value")));
    assert.equal(types, ["WEBHOOK", "SLACK", "DISCORD", "NTFY"], "no COMMAND: programs come from config.json only");
    await b.page.locator("#channel-id").fill("hook");
    await b.page.locator("#channel-url").fill(rx.url);
    await b.page.locator("#channel-secret").fill(SECRET);
    await b.page.getByTestId("channel-save").click();
    const channel = b.page.locator('[data-testid="alert-channel"][data-channel="hook"]');
    await channel.waitFor();
    assert.is((await channel.getByTestId("channel-secret").textContent())?.trim(), "Secret set");
    assert.is(await b.page.locator("#channel-secret").count(), 0, "the form is gone");

    // Send test: the receiver gets a signed test event, the page says how it went.
    await channel.getByTestId("channel-test").click();
    await channel.locator('[data-testid="channel-test-result"][data-outcome="SENT"]').waitFor({ timeout: PAGE_WAIT_MS });
    assert.match((await channel.getByTestId("channel-test-result").textContent()) ?? "", /Sent after 1 try/);
    const tested = rx.got.filter((h) => h.event === "test");
    assert.is(tested.length, 1);
    assert.ok(tested[0]?.valid, "the test is signed with the channel's secret");

    // A rule the daemon refuses: its message shows on the field it names.
    await b.page.getByTestId("add-rule").click();
    await b.page.locator("#rule-id").fill("Budget Today");
    await b.page.locator("#rule-budget").fill("0.0107");
    await b.page.getByTestId("rule-save").click();
    await b.page.getByTestId("error-rule-id").waitFor();
    assert.match((await b.page.getByTestId("error-rule-id").textContent()) ?? "", /lower-case letters/);
    assert.is(await b.page.locator("#rule-id").getAttribute("aria-invalid"), "true");

    // The daily cost budget: $0.0107 (warning at 80 %, $0.00856); the fixture spent between them today.
    await b.page.locator("#rule-id").fill("budget-today");
    await b.page.locator("#rule-name").fill("Budget today");
    await b.page.locator('input[name="channels"][value="hook"]').check();
    await b.page.getByTestId("rule-save").click();
    await rule("budget-today").waitFor();
    assert.match((await rule("budget-today").textContent()) ?? "", /Cost · per day · everything · budget \$0\.0107 · warning at \$0\.0086 · critical at \$0\.0107 · to hook/);

    // The banner, on every view: severity, name, value against threshold, since, the pace.
    const item = b.page.locator('[data-testid="alert-banner-item"][data-rule="budget-today"]');
    await item.waitFor({ timeout: PAGE_WAIT_MS });
    assert.is(await item.getAttribute("data-severity"), "WARNING");
    const text = (await item.textContent()) ?? "";
    assert.match(text, /Warning/);
    assert.match(text, /Budget today/);
    assert.ok(text.includes(`$${spent.toFixed(4)}, threshold $0.0086`), text);
    assert.match(text, /since \d\d:\d\d/);
    assert.match(text, /at this pace \$0\.0107 is reached at \d\d:\d\d/);
    assert.is((await b.page.getByTestId("alerts-tab-count").textContent())?.trim(), "1");
    await b.page.goto(`${d.url}/#/sessions`);
    await b.page.locator('[data-testid="alert-banner-item"][data-rule="budget-today"]').waitFor();
    await b.page.getByTestId("alert-banner-link").click();
    await rule("budget-today").waitFor();
    assert.is(await b.page.locator('[data-testid="alert-active"][data-rule="budget-today"]').count(), 1);

    // One signed warning with the pace, to the channel; in the history with its delivery.
    const fired = await pollUntil(() => rx.got.find((h) => h.event === "firing"), { timeoutMs: PAGE_WAIT_MS, what: "the warning webhook" });
    assert.ok(fired.valid);
    assert.equal([fired.alert.rule.id, fired.alert.severity, fired.alert.value, fired.alert.threshold], ["budget-today", "warning", spent, 0.0107 * 0.8]);
    assert.is(fired.alert.projection?.target, 0.0107);
    assert.ok(fired.alert.projection?.reachesAt, "reached today at this pace");
    await b.page.locator('[data-testid="alert-event"][data-kind="FIRING"] [data-testid="alert-delivery"][data-channel="hook"][data-outcome="SENT"]').waitFor({ timeout: PAGE_WAIT_MS });

    // The built-in daily budget, set from its Edit button: on, with its budget, its name kept.
    await rule("daily-cost").getByTestId("rule-edit").click();
    assert.is(await b.page.locator("#rule-metric").isDisabled(), true, "a rule's metric stays");
    await b.page.locator("#rule-budget").fill("50");
    await b.page.getByTestId("rule-save").click();
    await b.page.getByTestId("rule-form").waitFor({ state: "detached" });
    await pollUntil(async () => /On/.test((await rule("daily-cost").getByTestId("rule-status").textContent()) ?? ""), { what: "daily-cost on" });
    assert.match((await rule("daily-cost").textContent()) ?? "", /Daily cost budget.*budget \$50\.00 · warning at \$40\.00 · critical at \$50\.00 · every channel/);

    // Mute for an hour: the rule and the banner say until when (the daemon's clock, the page's zone: UTC).
    const before = clock.now();
    await rule("budget-today").getByTestId("rule-mute").click();
    await rule("budget-today").getByTestId("mute-1h").click();
    await rule("budget-today").getByTestId("rule-muted-until").waitFor();
    const after = clock.now();
    const rules = await gqlData<{ alertRules: Array<{ id: string; muted: boolean; mutedUntil: string | null }> }>(d, "{ alertRules { id muted mutedUntil } }");
    const muted = rules.alertRules.find((r) => r.id === "budget-today");
    const until = Date.parse(muted?.mutedUntil ?? "");
    assert.ok(muted?.muted && until >= before + 3_600_000 - 1000 && until <= after + 3_600_000 + 1000, JSON.stringify(muted));
    const hhmm = new Date(until).toISOString().slice(11, 16);
    assert.is((await rule("budget-today").getByTestId("rule-muted-until").textContent())?.trim(), `muted until ${hhmm}`);
    assert.match((await rule("budget-today").getByTestId("rule-status").textContent()) ?? "", /Muted/);
    await b.page.locator('[data-testid="alert-banner-item"][data-rule="budget-today"] .alert-muted').waitFor();
    assert.is((await b.page.locator('[data-testid="alert-banner-item"][data-rule="budget-today"] .alert-muted').textContent())?.trim(), `muted until ${hhmm}`);

    // The status card (REST, JSON) shows the alert too, with its mute.
    const snap = await fetch(`${d.url}/api/snapshot`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${d.token}` }, body: JSON.stringify({ format: "json", detail: "compact" }) });
    assert.is(snap.status, 200);
    const card = (await snap.json()) as { alerts?: { total: number; items: Array<{ ruleId: string; severity: string; value: number; mutedUntil: string | null }> } };
    assert.equal(
      card.alerts?.items.map((a) => [a.ruleId, a.severity, a.value, a.mutedUntil]),
      [["budget-today", "warning", spent, new Date(until).toISOString()]],
    );

    // The secret: not in the page, not in any GraphQL answer it got.
    assert.not.ok((await b.page.content()).includes(SECRET), "not in the page");
    const bodies = await Promise.all(answers);
    assert.ok(bodies.some((x) => x.includes('"secretSet":true')), "the answers were seen");
    assert.not.ok(bodies.some((x) => x.includes(SECRET)), "not in any GraphQL answer");
    assert.equal(rx.got.filter((h) => h.event === "firing").length, 1, "one notification for the crossing");
    assert.equal(b.foreignRequests, []);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
    await rx.close();
  }
});

test("config.json's daily-cost budget fires; in Chinese on a phone the banner and the view fit, light theme", async () => {
  const d = await startDaemon({
    clock: shiftedClock(systemClock, FIXTURE_NOW),
    // The documented quick start: the built-in rule's id and a budget.
    env: { INSIGHTS_ALERTS: JSON.stringify({ timeZone: "UTC", evaluateSeconds: 1, rules: [{ id: "gateway-down", enabled: false }, { id: "daily-cost", budget: 0.0107 }] }) },
    daemon: { alertDebounceMs: 50 },
  });
  const b = await launchBrowser(d.url, { viewport: { width: 390, height: 844 }, colorScheme: "light", locale: "zh-CN" });
  try {
    await signIn(b.page, d, "#/alerts");
    const item = b.page.locator('[data-testid="alert-banner-item"][data-rule="daily-cost"]');
    await item.waitFor({ timeout: PAGE_WAIT_MS });
    const text = (await item.textContent()) ?? "";
    for (const words of ["警告", "每日费用预算", "阈值 $0.0086", "按此速度将于"]) assert.ok(text.includes(words), `${words}: ${text}`);
    const rule = b.page.locator('[data-testid="alert-rule"][data-rule="daily-cost"]');
    assert.match((await rule.textContent()) ?? "", /config\.json/);
    assert.is(await rule.getByTestId("rule-edit").count(), 0, "config.json's rule is not edited here");
    const fits = async (what: string): Promise<void> => {
      const width = await inPage<number>(b.page, "document.documentElement.scrollWidth");
      assert.ok(width <= 390, `${what} is ${width} px wide`);
    };
    await fits("the alerts view");
    // No channel is set up: the history says so, never "sent".
    const firing = b.page.locator('[data-testid="alert-event"][data-kind="FIRING"]').first();
    await firing.waitFor({ timeout: 20_000 });
    const firingText = (await firing.textContent()) ?? "";
    assert.ok(firingText.includes("无通知渠道"), firingText);
    assert.not.ok(firingText.includes("已发送"), firingText);
    await b.page.getByTestId("add-rule").click();
    await b.page.getByTestId("rule-form").waitFor();
    await fits("the rule editor");
    await rule.getByTestId("rule-mute").click();
    await fits("the mute menu");
    await b.page.goto(`${d.url}/#/`);
    await b.page.locator('[data-testid="kpis"]').waitFor();
    await fits("the overview with the banner");
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test.run();
