// Alerting through a real daemon over a fixture state dir: the GraphQL API (rules, channels with
// write-only secrets, mute, delete, test, history, errors with their codes), the audit lines in
// the daemon log, a built-in rule firing to a real local webhook receiver with a valid signature,
// `/metrics` insights_alert_active, persistence across a restart (no second notification), the
// `alerts` config key on SIGHUP, and `insightsctl alerts` through the control socket.
import { execFile } from "node:child_process";
import { createClient as createSseClient } from "graphql-sse";
import { createHmac } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil, systemClock } from "../shared/base/clock.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { ROOT } from "./helpers/cli.js";
import { gql, gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

const SECRET = "whsec-test-0123456789-abcdef";

interface Hook {
  url: string;
  got: Array<{ headers: http.IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

async function hookReceiver(): Promise<Hook> {
  const got: Hook["got"] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A receiver that never answers. */
async function hungReceiver(): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer(() => undefined);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

const signed = (h: Hook["got"][number], secret: string): boolean =>
  h.headers["x-insights-signature"] === `sha256=${createHmac("sha256", secret).update(`${String(h.headers["x-insights-timestamp"])}.${h.body}`).digest("hex")}`;

const bodyOf = (h: Hook["got"][number]) => JSON.parse(h.body) as { event: string; alert: { rule: { id: string }; severity: string; value: number; threshold: number } };

function ctl(d: TestDaemon, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", join(ROOT, "cli", "main.ts"), ...args], { env: { ...d.env, NO_COLOR: "1" }, cwd: ROOT }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const RULES = `{ alertRules { id enabled metric window unit budget warning critical origin editable overridden muted mutedUntil } }`;
const CHANNELS = `{ alertChannels { id type name enabled target secretSet origin editable } }`;

test("the alerts API: rules, channels with write-only secrets, mute, test, errors; the built-in gateway-down rule fires once to a signed webhook", async () => {
  const hook = await hookReceiver();
  const hung = await hungReceiver();
  // The fixture daemon's gateway probe always fails: the gateway is down. The built-in rule's
  // threshold is made 1 s here (config.json's way of changing a built-in rule).
  const d = await startDaemon({
    // The receivers listen on loopback, which channels made through the API may reach only because config.json says so.
    env: { INSIGHTS_ALERTS: JSON.stringify({ evaluateSeconds: 1, allowedHosts: ["127.0.0.1"], rules: [{ id: "gateway-down", critical: 1 }, { id: "errors-cfg", metric: "errors", window: "day", warning: 1000000 }] }) },
    daemon: { alertDebounceMs: 50, alertDelivery: { backoffMs: 50 } },
  });
  try {
    const rules = await gqlData<{ alertRules: Array<Record<string, unknown>> }>(d, RULES);
    const byId = new Map(rules.alertRules.map((r) => [r.id, r]));
    assert.equal([...byId.keys()], ["gateway-down", "health-check-failing", "rate-limit", "rate-limit-projection", "daily-cost", "errors-cfg"]);
    assert.equal(byId.get("gateway-down"), { id: "gateway-down", enabled: true, metric: "GATEWAY_DOWN", window: null, unit: "seconds", budget: null, warning: null, critical: 1, origin: "BUILTIN", editable: false, overridden: true, muted: false, mutedUntil: null });
    assert.equal(byId.get("daily-cost")?.enabled, false, "budgets are off until an amount is set");
    assert.equal(byId.get("rate-limit")?.warning, 80);

    // A webhook channel: its secret goes in, and never comes out again.
    const added = await gql<{ addAlertChannel: Record<string, unknown> }>(d, `mutation($i: AlertChannelInput!) { addAlertChannel(input: $i) { id type target secretSet origin editable } }`, { i: { id: "ops", type: "WEBHOOK", url: hook.url, secret: SECRET } });
    assert.equal(added.body.data?.addAlertChannel, { id: "ops", type: "WEBHOOK", target: new URL(hook.url).origin, secretSet: true, origin: "API", editable: true });
    const listed = await gql(d, CHANNELS);
    assert.not.ok(JSON.stringify(listed.body).includes(SECRET), "no query returns the secret");
    assert.not.ok(JSON.stringify(listed.body).includes("/hook"), "nor the URL's path");

    // The gateway is down: after 1 s, one firing notification, signed.
    await pollUntil(() => hook.got.find((h) => bodyOf(h).event === "firing"), { timeoutMs: 30_000, what: "the gateway-down webhook" });
    const firing = hook.got.filter((h) => bodyOf(h).event === "firing");
    assert.is(firing.length, 1);
    assert.ok(signed(firing[0]!, SECRET), "the signature checks out");
    assert.equal([bodyOf(firing[0]!).alert.rule.id, bodyOf(firing[0]!).alert.severity, bodyOf(firing[0]!).alert.threshold], ["gateway-down", "critical", 1]);
    const active = await gqlData<{ alerts: Array<{ ruleId: string; severity: string; active: boolean; notified: boolean; delivery: string; rule: { id: string } | null }> }>(d, `{ alerts { ruleId severity active notified delivery rule { id } } }`);
    assert.equal(active.alerts.map((a) => [a.ruleId, a.severity, a.active, a.notified, a.delivery, a.rule?.id]), [["gateway-down", "CRITICAL", true, true, "SENT", "gateway-down"]]);
    const metrics = await (await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${d.token}` } })).text();
    assert.match(metrics, /^insights_alert_active\{rule="gateway-down",severity="critical"\} 1$/m);
    assert.match(metrics, /^insights_alert_active\{rule="rate-limit",severity="warning"\} 0$/m);
    assert.not.match(metrics, /rule="daily-cost"/, "a rule that is off has no series");
    // The evaluation goes on every second; no second notification for the same crossing.
    const evaluations = d.daemon.alerts.stats.evaluations;
    await pollUntil(() => d.daemon.alerts.stats.evaluations >= evaluations + 3, { what: "three more evaluations" });
    assert.is(hook.got.filter((h) => bodyOf(h).event === "firing").length, 1);

    // Test through the channel: answered, signed, and in the history with its delivery.
    const t = await gqlData<{ testAlertChannel: { channelId: string; outcome: string; attempts: number; error: string | null } }>(d, `mutation { testAlertChannel(id: "ops") { channelId outcome attempts error } }`);
    assert.equal(t.testAlertChannel, { channelId: "ops", outcome: "SENT", attempts: 1, error: null });
    const testHook = hook.got.find((h) => bodyOf(h).event === "test");
    assert.ok(testHook && signed(testHook, SECRET));
    const history = await gqlData<{ alertHistory: Array<{ kind: string; notified: boolean; deliveries: Array<{ channelId: string; outcome: string }> }> }>(d, `{ alertHistory(limit: 10) { kind notified deliveries { channelId outcome } } }`);
    assert.equal(history.alertHistory.map((e) => [e.kind, e.notified, e.deliveries.map((x) => `${x.channelId}:${x.outcome}`)]), [
      ["TEST", true, ["ops:SENT"]],
      ["FIRING", true, ["ops:SENT"]],
    ]);

    // alertChanged: live once a mute of the subscriber's own shows up; then every change arrives.
    const changes: Array<{ kind: string; ruleId: string | null }> = [];
    const sse = createSseClient({ url: `${d.url}/graphql`, headers: { authorization: `Bearer ${d.token}` }, retryAttempts: 0 });
    const stop = sse.subscribe<{ alertChanged: { kind: string; ruleId: string | null } }>({ query: "subscription { alertChanged { kind ruleId alertId ts } }" }, { next: (v) => v.data && changes.push(v.data.alertChanged), error: () => undefined, complete: () => undefined });
    const soon = new Date(Date.now() + 600_000).toISOString();
    await pollUntil(async () => {
      if (changes.some((c) => c.kind === "MUTED" && c.ruleId === "health-check-failing")) return true;
      await gqlData(d, `mutation($u: String!) { muteAlertRule(id: "health-check-failing", until: $u) { id } }`, { u: soon });
      return false;
    }, { what: "the alertChanged stream" });
    await gqlData(d, `mutation { unmuteAlertRule(id: "health-check-failing") { muted } }`);

    // Rules through the API: add a budget, change it, mute it, errors with codes.
    const add = await gql<{ addAlertRule: Record<string, unknown> }>(d, `mutation { addAlertRule(input: { id: "cc-daily", metric: COST, window: DAY, budget: 20, scope: { provider: "claude-code" } }) { id enabled warning critical origin editable } }`);
    assert.equal(add.body.data?.addAlertRule, { id: "cc-daily", enabled: true, warning: 16, critical: 20, origin: "API", editable: true });
    const upd = await gqlData<{ updateAlertRule: { budget: number; warning: number; critical: number } }>(d, `mutation { updateAlertRule(id: "cc-daily", input: { budget: 50 }) { budget warning critical } }`);
    assert.equal(upd.updateAlertRule, { budget: 50, warning: 40, critical: 50 });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const muted = await gqlData<{ muteAlertRule: { muted: boolean; mutedUntil: string } }>(d, `mutation($u: String!) { muteAlertRule(id: "errors-cfg", until: $u) { muted mutedUntil } }`, { u: until });
    assert.equal(muted.muteAlertRule, { muted: true, mutedUntil: until }, "a config rule can be muted");
    const code = async (q: string): Promise<unknown> => (await gql(d, q)).body.errors?.[0]?.extensions?.code;
    assert.is(await code(`mutation { updateAlertRule(id: "errors-cfg", input: { warning: 5 }) { id } }`), "BAD_USER_INPUT", "config rules are read-only");
    assert.is(await code(`mutation { updateAlertRule(id: "nope", input: { warning: 5 }) { id } }`), "NOT_FOUND");
    assert.is(await code(`mutation { addAlertRule(input: { id: "cc-daily", metric: COST, budget: 1 }) { id } }`), "BAD_USER_INPUT", "the id exists");
    assert.is(await code(`mutation { addAlertRule(input: { id: "w", metric: COST, window: PRIMARY, budget: 1 }) { id } }`), "BAD_USER_INPUT", "a rate-limit window for a cost rule");
    assert.is(await code(`mutation { addAlertRule(input: { id: "Bad Id", metric: ERRORS }) { id } }`), "BAD_USER_INPUT");
    assert.is(await code(`mutation { muteAlertRule(id: "cc-daily", until: "yesterday") { id } }`), "BAD_USER_INPUT");
    assert.is(await code(`mutation { addAlertChannel(input: { id: "s", type: SLACK }) { id } }`), "BAD_USER_INPUT", "a Slack channel needs its URL");
    assert.is(await code(`mutation { testAlertChannel(id: "none") { outcome } }`), "NOT_FOUND");
    // Issue 18: no program from the API, no private target beyond what config.json allows.
    assert.is(await code(`mutation { addAlertChannel(input: { id: "x", type: COMMAND, command: ["/bin/sh", "-c", "id"] }) { id } }`), "FORBIDDEN_CHANNEL_TYPE");
    assert.is(await code(`mutation { updateAlertChannel(id: "ops", input: { command: ["id"] }) { id } }`), "FORBIDDEN_CHANNEL_TYPE");
    assert.is(await code(`mutation { addAlertChannel(input: { id: "md", type: WEBHOOK, url: "http://169.254.169.254/latest/meta-data/" }) { id } }`), "TARGET_REFUSED");
    assert.is(await code(`mutation { addAlertChannel(input: { id: "lo", type: NTFY, url: "http://[::ffff:127.0.0.2]/t" }) { id } }`), "TARGET_REFUSED", "only 127.0.0.1 is allowed");
    assert.is(await code(`{ alerts(limit: 0) { id } }`), "BAD_USER_INPUT");
    // Without a credential, nothing changes.
    const anon = await fetch(`${d.url}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: `mutation { deleteAlertRule(id: "cc-daily") { id } }` }) });
    assert.is(anon.status, 401);
    const del = await gqlData<{ deleteAlertRule: { id: string; reset: boolean } }>(d, `mutation { deleteAlertRule(id: "cc-daily") { id reset } }`);
    assert.equal(del.deleteAlertRule, { id: "cc-daily", reset: false });
    await pollUntil(() => changes.filter((c) => c.ruleId === "cc-daily" && c.kind === "RULES_CHANGED").length >= 3, { what: "add, change and delete on alertChanged" });
    assert.ok(changes.some((c) => c.kind === "UNMUTED" && c.ruleId === "health-check-failing"));
    assert.ok(changes.some((c) => c.kind === "MUTED" && c.ruleId === "errors-cfg"));
    stop();
    sse.dispose();

    // The daemon log audits who changed what, naming the channel by id, never its secret or URL.
    const log = readFileSync(d.paths.logFile, "utf8");
    assert.match(log, /"msg":"alert channel added".*"channel":"ops".*"by":"bearer"/);
    assert.match(log, /"msg":"alert rule muted".*"rule":"errors-cfg"/);
    assert.match(log, /"msg":"alert rule deleted".*"rule":"cc-daily"/);
    assert.not.ok(log.includes(SECRET), "the secret is never logged");

    // insightsctl alerts, through the control socket.
    const listOut = await ctl(d, ["alerts", "list"]);
    assert.is(listOut.code, 0, listOut.stderr);
    assert.match(listOut.stdout, /CRITICAL +gateway-down: \d+ s of 1 s, since /);
    assert.match(listOut.stdout, /errors-cfg +on +errors per day: warning 1000000 \[config\], muted until \d{4}-/);
    assert.match(listOut.stdout, /ops +on +webhook http:\/\/127\.0\.0\.1:\d+ \(secret set\) \[api\]/);
    assert.not.ok(listOut.stdout.includes(SECRET));
    const json = JSON.parse((await ctl(d, ["alerts", "list", "--json"])).stdout) as { active: unknown[]; channels: Array<Record<string, unknown>> };
    assert.is(json.active.length, 1);
    assert.not.ok(JSON.stringify(json).includes(SECRET));
    const testOut = await ctl(d, ["alerts", "test", "ops"]);
    assert.is(testOut.code, 0, testOut.stderr);
    assert.match(testOut.stdout, /sent a test notification through ops/);
    // A test waits as long as the channel's timeout (7 s here, past the old fixed 5 s) and says why it failed.
    await gqlData(d, `mutation($i: AlertChannelInput!) { addAlertChannel(input: $i) { id } }`, { i: { id: "slow", type: "WEBHOOK", url: hung.url, timeoutSeconds: 7 } });
    const slowOut = await ctl(d, ["alerts", "test", "slow"]);
    assert.is(slowOut.code, 1, slowOut.stderr);
    assert.match(slowOut.stdout, /the test notification through slow failed: http:\/\/127\.0\.0\.1:\d+ did not answer within 7 s/);
    const muteOut = await ctl(d, ["alerts", "mute", "rate-limit", "--for", "2h"]);
    assert.is(muteOut.code, 0, muteOut.stderr);
    assert.match(muteOut.stdout, /^muted rate-limit until \d{4}-/);
    // --off says what it did: the mute ended, or there was none.
    assert.is((await ctl(d, ["alerts", "mute", "rate-limit", "--off"])).stdout, "unmuted rate-limit\n");
    assert.is((await ctl(d, ["alerts", "mute", "rate-limit", "--off"])).stdout, "rate-limit was not muted\n");
    const badMute = await ctl(d, ["alerts", "mute", "rate-limit", "--for", "soon"]);
    assert.is(badMute.code, 2);
    assert.match(badMute.stderr, /--for "soon" is not a duration/);
    const missing = await ctl(d, ["alerts", "mute", "no-such-rule"]);
    assert.is(missing.code, 1);
    // The way to see the rules is a command here, not a GraphQL field.
    assert.is(missing.stderr, 'insightsctl: no alert rule "no-such-rule"\n  See `insightsctl alerts list` for the rules there are.\n');
    const noChannel = await ctl(d, ["alerts", "test", "no-such-channel"]);
    assert.is(noChannel.stderr, 'insightsctl: no alert channel "no-such-channel"\n  See `insightsctl alerts list` for the channels there are.\n');
  } finally {
    await d.stop();
    await hook.close();
    hung.server.closeAllConnections();
    hung.server.close();
  }
});

test("restart: rules, channels (with their secret) and active alerts survive; the firing is not sent again", async () => {
  const hook = await hookReceiver();
  const cfg = JSON.stringify({ evaluateSeconds: 1, allowedHosts: ["127.0.0.1"], rules: [{ id: "gateway-down", critical: 1 }] });
  // Real time, carried across the restart (the fixture's shifted clock would start over at the fixture's time).
  const opts = { clock: systemClock, daemon: { alertDebounceMs: 50, alertDelivery: { backoffMs: 50 } } };
  let d = await startDaemon({ env: { INSIGHTS_ALERTS: cfg }, ...opts });
  try {
    await gqlData(d, `mutation($i: AlertChannelInput!) { addAlertChannel(input: $i) { id } }`, { i: { id: "ops", type: "WEBHOOK", url: hook.url, secret: SECRET } });
    await gqlData(d, `mutation { addAlertRule(input: { id: "tok", metric: TOKENS, window: MONTH, budget: 1000000000000 }) { id } }`);
    await pollUntil(() => hook.got.some((h) => bodyOf(h).event === "firing"), { timeoutMs: 30_000, what: "the firing" });
    await d.stop({ keep: true });
    d = await startDaemon({ again: d, ...opts });
    const rules = await gqlData<{ alertRules: Array<{ id: string; budget: number | null }> }>(d, `{ alertRules { id budget } }`);
    assert.equal(rules.alertRules.find((r) => r.id === "tok"), { id: "tok", budget: 1e12 });
    const chans = await gqlData<{ alertChannels: Array<{ id: string; secretSet: boolean }> }>(d, `{ alertChannels { id secretSet } }`);
    assert.equal(chans.alertChannels, [{ id: "ops", secretSet: true }]);
    const active = await gqlData<{ alerts: Array<{ ruleId: string }> }>(d, `{ alerts { ruleId } }`);
    assert.equal(active.alerts.map((a) => a.ruleId), ["gateway-down"]);
    const evaluations = d.daemon.alerts.stats.evaluations;
    await pollUntil(() => d.daemon.alerts.stats.evaluations >= evaluations + 3, { what: "evaluations after the restart" });
    assert.equal(hook.got.map((h) => bodyOf(h).event), ["firing"], "neither a resolve nor a second firing");
    // The stored secret still signs.
    await gqlData(d, `mutation { testAlertChannel(id: "ops") { outcome } }`);
    assert.ok(signed(hook.got.at(-1)!, SECRET));
  } finally {
    await d.stop();
    await hook.close();
  }
});

test("an alert with no channel to take it reads 'no channel', never 'sent': GraphQL, history, insightsctl alerts list (text and JSON)", async () => {
  // No channel at all; the gateway is down (the fixture's probe fails), so gateway-down fires after 1 s.
  const d = await startDaemon({ env: { INSIGHTS_ALERTS: JSON.stringify({ evaluateSeconds: 1, rules: [{ id: "gateway-down", critical: 1 }] }) }, daemon: { alertDebounceMs: 50 } });
  try {
    const active = await pollUntil(
      async () => (await gqlData<{ alerts: Array<{ ruleId: string; notified: boolean; delivery: string }> }>(d, `{ alerts { ruleId notified delivery } }`)).alerts.find((a) => a.ruleId === "gateway-down"),
      { timeoutMs: 30_000, what: "gateway-down firing" },
    );
    assert.equal(active, { ruleId: "gateway-down", notified: false, delivery: "NO_CHANNEL" });
    const history = await gqlData<{ alertHistory: Array<{ kind: string; notified: boolean; withheld: string | null; deliveries: unknown[] }> }>(d, `{ alertHistory(limit: 10) { kind notified withheld deliveries { channelId } } }`);
    assert.equal(history.alertHistory.find((e) => e.kind === "FIRING"), { kind: "FIRING", notified: false, withheld: "NO_CHANNEL", deliveries: [] });
    const list = await ctl(d, ["alerts", "list"]);
    assert.match(list.stdout, /CRITICAL +gateway-down: .*\[no channel\]$/m);
    const json = JSON.parse((await ctl(d, ["alerts", "list", "--json"])).stdout) as { active: Array<{ ruleId: string; sent: boolean; delivery: string }> };
    assert.equal(json.active.map((a) => [a.ruleId, a.sent, a.delivery]), [["gateway-down", false, "no_channel"]]);
  } finally {
    await d.stop();
  }
});

test("SIGHUP reload: the alerts key applies live; a reload of an unchanged file changes nothing", async () => {
  const d = await startDaemon({ daemon: { alertDebounceMs: 50 } });
  try {
    mkdirSync(dirname(d.paths.configFile), { recursive: true });
    const write = (alerts: unknown): void => writeFileSync(d.paths.configFile, JSON.stringify({ alerts, prices: { "my-model": { input: 1, output: 2 } } }));
    write({ rules: [{ id: "tokens-hour", metric: "tokens", window: "hour", budget: 5000 }] });
    const first = d.daemon.reload();
    assert.ok(first.applied.includes("alerts"));
    assert.equal(first.needsRestart, ["prices"]);
    assert.ok(d.daemon.alerts.rule("tokens-hour"), "the new rule is in force");
    // Same file again: nothing changed (objects are compared by content).
    const again = d.daemon.reload();
    assert.equal(again, { applied: [], needsRestart: [] });
    // A bad rule is refused and the running rules stay.
    write({ rules: [{ id: "tokens-hour", metric: "tokens", window: "fortnight" }] });
    assert.throws(() => d.daemon.reload(), /alerts\.rules\[0\]\.window/);
    assert.ok(d.daemon.alerts.rule("tokens-hour"));
  } finally {
    await d.stop();
  }
});

test.run();
