// Alerting end to end against the real things, with a real local webhook receiver that checks
// every signature:
// (a) a real OpenClaw gateway (run-openclaw.sh) watched by a daemon whose built-in gateway-down
//     rule is made 10 s: killing the gateway delivers one firing within the rule's window, starting
//     it again one resolve;
// (b) real Claude Code turns (run-claude-code.sh's fake API) push a daily cost budget over its
//     warning, then its critical threshold: one webhook per crossing, two in all, however many
//     transcript lines each turn writes, the projection in the first.
// Required in CI; a developer may skip (a) with GI_SKIP_REAL_GATEWAY=1 and (b) with GI_SKIP_REAL_CLI=1.
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil, systemClock } from "../shared/base/clock.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { realCliSkipReason, startClaudeCode, type ClaudeCodeRun } from "./helpers/claude-code-runner.js";
import { gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { realGatewaySkipReason, startOpenClawGateway, type OpenClawGateway } from "./helpers/openclaw-gateway.js";

test.after(removeTempDirs);

const SLOW = { timeoutMs: 180_000, intervalMs: 250 };
const SECRET = "e2e-webhook-secret-3f9a1c";

interface Delivery {
  body: { event: string; alert: { rule: { id: string }; severity: string; value: number; threshold: number; escalated: boolean; projection: { target: number; reachesAt: string | null; ratePerHour: number } | null } };
  valid: boolean;
  at: number;
}

/** A webhook receiver that checks each request's signature as a real one would. */
async function receiver(): Promise<{ url: string; got: Delivery[]; close(): Promise<void> }> {
  const got: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const want = Buffer.from(`sha256=${createHmac("sha256", SECRET).update(`${String(req.headers["x-insights-timestamp"])}.${raw}`).digest("hex")}`);
      const have = Buffer.from(String(req.headers["x-insights-signature"] ?? ""));
      got.push({ body: JSON.parse(raw) as Delivery["body"], valid: want.length === have.length && timingSafeEqual(want, have), at: Date.now() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/alerts`, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const of = (got: Delivery[], rule: string, event?: string): Delivery[] => got.filter((d) => d.body.alert.rule.id === rule && (event === undefined || d.body.event === event));

test("(a) the real gateway killed: gateway-down delivered within its window, resolved once it is back", async () => {
  const skip = realGatewaySkipReason();
  if (skip) {
    console.log(`e2e-alerts (a) skipped: ${skip}`);
    return;
  }
  const rx = await receiver();
  let gw: OpenClawGateway | undefined;
  let d: TestDaemon | undefined;
  try {
    gw = await startOpenClawGateway();
    const g = gw;
    const alerts = { evaluateSeconds: 1, rules: [{ id: "gateway-down", critical: 10 }], channels: [{ id: "ops", type: "webhook", url: rx.url, secret: SECRET }] };
    d = await startDaemon({
      openclawDir: g.stateDir,
      clock: systemClock,
      env: { OPENCLAW_CONFIG_PATH: g.configPath, PATH: `${g.nodeBinDir}:${process.env.PATH ?? ""}`, INSIGHTS_OPENCLAW_COMMAND: g.openclawBin, INSIGHTS_SAMPLE_INTERVAL_SECONDS: "1", INSIGHTS_ALERTS: JSON.stringify(alerts) },
      daemon: { alertDelivery: { backoffMs: 200 } },
    });
    const daemon = d;
    await pollUntil(async () => (await gqlData<{ system: { gateway?: { running: boolean } } }>(daemon, `{ system { ... on ProviderASystem { gateway { running } } } }`)).system.gateway?.running, { ...SLOW, what: "the daemon to see the gateway up" });
    assert.equal(of(rx.got, "gateway-down"), [], "nothing while the gateway is up");

    const killedAt = Date.now();
    await g.stop();
    const fired = await pollUntil(() => of(rx.got, "gateway-down", "firing")[0], { ...SLOW, what: "the gateway-down webhook" });
    assert.ok(fired.valid, "signed with the channel's secret");
    assert.equal([fired.body.alert.severity, fired.body.alert.threshold], ["critical", 10]);
    assert.ok(fired.body.alert.value >= 10, `held ${fired.body.alert.value} s`);
    // Within the rule's window: not before 10 s of downtime, and well before a minute more
    // (the probe runs every second, evaluation every second; generous for a loaded machine).
    assert.ok(fired.at - killedAt >= 10_000, `fired ${fired.at - killedAt} ms after the kill`);
    assert.ok(fired.at - killedAt < 70_000, `fired ${fired.at - killedAt} ms after the kill`);
    const active = await gqlData<{ alerts: Array<{ ruleId: string; severity: string }> }>(daemon, `{ alerts { ruleId severity } }`);
    assert.equal(active.alerts.filter((a) => a.ruleId === "gateway-down"), [{ ruleId: "gateway-down", severity: "CRITICAL" }]);

    await g.start();
    const resolved = await pollUntil(() => of(rx.got, "gateway-down", "resolved")[0], { ...SLOW, what: "the resolve webhook" });
    assert.ok(resolved.valid);
    // One firing and one resolve, however many evaluations ran meanwhile.
    const evaluations = daemon.daemon.alerts.stats.evaluations;
    await pollUntil(() => daemon.daemon.alerts.stats.evaluations >= evaluations + 3, { ...SLOW, what: "more evaluations" });
    assert.equal(of(rx.got, "gateway-down").map((x) => x.body.event), ["firing", "resolved"]);
    const after = await gqlData<{ alerts: Array<{ ruleId: string }> }>(daemon, `{ alerts { ruleId } }`);
    assert.equal(after.alerts.filter((a) => a.ruleId === "gateway-down"), []);
  } finally {
    await d?.stop();
    await gw?.down();
    await rx.close();
  }
});

test("(b) real Claude Code turns push a daily cost budget over warning, then critical: one webhook per crossing", async () => {
  const skip = realCliSkipReason();
  if (skip) {
    console.log(`e2e-alerts (b) skipped: ${skip}`);
    return;
  }
  const rx = await receiver();
  let cc: ClaudeCodeRun | undefined;
  let d: TestDaemon | undefined;
  try {
    cc = await startClaudeCode();
    const run = cc;
    const alerts = { timeZone: "UTC", evaluateSeconds: 1, channels: [{ id: "ops", type: "webhook", url: rx.url, secret: SECRET }] };
    // Claude Code makes its config dir on its first turn; a named dir must exist when the daemon
    // starts (a missing one is a typo, exit 2), so it exists, empty, as after `mkdir` by the operator.
    mkdirSync(run.claudeDir, { recursive: true });
    d = await startDaemon({
      clock: systemClock,
      env: { INSIGHTS_ALERTS: JSON.stringify(alerts) },
      daemon: { flags: { openclaw: "off", codex: "off", claudeCode: "on", claudeCodeDirs: run.claudeDir }, alertDelivery: { backoffMs: 200 } },
    });
    const daemon = d;
    // The rule is made through the API, as the dashboard would: any spend crosses its warning; its
    // budget is set from the first turn's cost below.
    await gqlData(daemon, `mutation { addAlertRule(input: { id: "cc-daily", name: "Claude Code daily cost", metric: COST, window: DAY, scope: { provider: "claude-code" }, warning: 0.000001, critical: 1000 }) { id } }`);
    const cwd = join(run.dir, "proj");
    const t1 = await run.turn("Say hello. @@BASH@@", { cwd });
    assert.is(t1.exitCode, 0, t1.stderr.slice(-600));
    const warn = await pollUntil(() => of(rx.got, "cc-daily", "firing")[0], { ...SLOW, what: "the warning webhook" });
    assert.ok(warn.valid);
    assert.is(warn.body.alert.severity, "warning");
    const spent = warn.body.alert.value;
    assert.ok(spent > 0, `the first turn cost something: ${spent}`);
    // The burn-rate projection toward the critical threshold is in the body.
    assert.ok(warn.body.alert.projection, "projection present");
    assert.is(warn.body.alert.projection?.target, 1000);
    assert.ok((warn.body.alert.projection?.ratePerHour ?? 0) > 0);

    // A budget the second turn will cross: 80 % of it is below what was spent (still a warning,
    // nothing new to send), 100 % just above it. The margin is 2 %: the fake server's usage is
    // random per request, and a second turn's cache writes can be as low as 150 tokens, so its
    // cost can be under a sixth of the first turn's (a margin of 1/0.85 failed that way in CI).
    // Its cache reads alone (over 14k tokens) are always far more than 2 % of the first turn.
    const budget = spent * 1.02;
    await gqlData(daemon, `mutation($b: Float!) { updateAlertRule(id: "cc-daily", input: { budget: $b, warning: null, critical: null }) { id } }`, { b: budget });
    const t2 = await run.turn("Now say goodbye.", { cwd, continue: true });
    assert.is(t2.exitCode, 0, t2.stderr.slice(-600));
    const crit = await pollUntil(() => of(rx.got, "cc-daily", "firing").find((x) => x.body.alert.severity === "critical"), { ...SLOW, what: "the critical webhook" });
    assert.ok(crit.valid);
    assert.ok(crit.body.alert.escalated);
    assert.ok(crit.body.alert.value >= budget);
    // Let the daemon read and evaluate on: still exactly two deliveries for the rule.
    const evaluations = daemon.daemon.alerts.stats.evaluations;
    await pollUntil(() => daemon.daemon.alerts.stats.evaluations >= evaluations + 3, { ...SLOW, what: "more evaluations" });
    assert.equal(of(rx.got, "cc-daily").map((x) => `${x.body.event}:${x.body.alert.severity}`), ["firing:warning", "firing:critical"]);
  } finally {
    await d?.stop();
    await cc?.stop();
    await rx.close();
  }
});

test.run();
