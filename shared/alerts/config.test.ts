// The `alerts` config key: validated with zod like every other key, errors naming the path, the
// value and what is allowed, and never printing a channel's secret back.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../base/errors.js";
import { loadConfig } from "../config/load.js";
import { parseAlertsConfig } from "./config.js";
import { BUILTIN_RULES, resolveRule } from "./rules.js";

const SECRET = "hmac-key-that-must-never-print";
const SLACK = "https://hooks.slack.com/services/T0/B0/SECRETPATH";

function error(raw: unknown): ConfigError {
  try {
    parseAlertsConfig(raw, "config.json");
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

test("a full config parses: zone, rules (a built-in changed by id), channels", () => {
  const c = parseAlertsConfig(
    {
      timeZone: "Europe/Berlin",
      evaluateSeconds: 5,
      rules: [{ id: "gateway-down", critical: 60 }, { id: "cc-day", metric: "cost", window: "day", budget: 25, scope: { provider: "claude-code" }, channels: ["ops"] }],
      channels: [
        { id: "ops", type: "webhook", url: "https://example.test/hook", secret: SECRET },
        { id: "team", type: "slack", url: SLACK, minSeverity: "critical" },
        { id: "page", type: "command", command: ["/usr/local/bin/page", "--now"] },
      ],
    },
    "config.json",
  );
  assert.is(c.timeZone, "Europe/Berlin");
  assert.is(c.evaluateSeconds, 5);
  assert.equal(c.rules.map((r) => r.id), ["gateway-down", "cc-day"]);
  assert.equal(c.channels.map((ch) => ch.type), ["webhook", "slack", "command"]);
  assert.equal(parseAlertsConfig(null, "x"), { timeZone: null, evaluateSeconds: 15, rules: [], channels: [], allowPrivateTargets: false, allowedHosts: [] });
});

test("bad values name the path, the value and what is allowed", () => {
  assert.match(error({ rules: [{ id: "a", metric: "cost", window: "fortnight" }] }).message, /alerts\.rules\[0\]\.window = "fortnight" .*expected/);
  assert.match(error({ rules: [{ id: "a", metric: "cost", window: "primary", budget: 1 }] }).message, /alerts\.rules\[0\]\.window .*one of hour, day, week, month for cost/);
  assert.match(error({ rules: [{ id: "a", metric: "errors", budget: 3 }] }).message, /alerts\.rules\[0\]\.budget .*only for cost and tokens/);
  assert.match(error({ rules: [{ id: "a", metric: "cost", budget: 10, warning: 12, critical: 11 }] }).message, /warning .*not above the critical/);
  assert.match(error({ rules: [{ id: "gateway-down", metric: "cost" }] }).message, /alerts\.rules\[0\]\.metric .*built-in rule gateway-down/);
  assert.match(error({ rules: [{ id: "a", metric: "cost", budget: 1 }, { id: "a", metric: "tokens", budget: 1 }] }).message, /alerts\.rules\[1\]\.id .*not already used/);
  assert.match(error({ rules: [{ id: "a", metric: "cost", colour: "red" }] }).message, /alerts\.rules\[0\]\.colour .*no such field/);
  assert.match(error({ timeZone: "Mars/Olympus" }).message, /alerts\.timeZone = "Mars\/Olympus"/);
  assert.match(error({ evaluateSeconds: 0 }).message, /alerts\.evaluateSeconds = 0/);
  assert.match(error({ channels: [{ id: "c", type: "command" }] }).message, /alerts\.channels\[0\]\.command .*argv array/);
  assert.match(error({ channels: [{ id: "c", type: "pager", url: "https://x.test" }] }).message, /alerts\.channels\[0\]\.type = "pager"/);
});

test("secrets are never printed back: a webhook's key, a Slack URL, a whole list", () => {
  const bad = [
    error({ channels: [{ id: "c", type: "webhook", url: "https://x.test/h", secret: 12345 }] }),
    error({ channels: [{ id: "c", type: "webhook", url: "ftp://x.test/h", secret: SECRET }] }),
    error({ channels: [{ id: "c", type: "slack", url: "hooks.slack.com/services/SECRETPATH" }] }),
    error({ channels: [{ id: "c", type: "slack", url: SLACK, secret: SECRET }] }),
    error({ channels: [{ id: "c", type: "slack", url: SLACK, extra: 1 }], rules: "no" }),
    error({ channels: "nope" }),
  ];
  for (const e of bad) {
    assert.not.ok(e.message.includes(SECRET), e.message);
    assert.not.ok(e.message.includes("SECRETPATH"), e.message);
  }
  assert.match(bad[0]!.message, /alerts\.channels\[0\]\.secret = "<hidden>"/);
  assert.match(bad[2]!.message, /alerts\.channels\[0\]\.url = "<hidden>"/);
});

test("the config loader: alerts from config.json and INSIGHTS_ALERTS; a value that is not an object is not printed back", () => {
  const dir = mkdtempSync(join(tmpdir(), "gi-alerts-cfg-"));
  try {
    const file = join(dir, "config.json");
    writeFileSync(file, JSON.stringify({ alerts: { rules: [{ id: "gateway-down", enabled: false }] } }));
    assert.equal(loadConfig({ configFile: file, env: {} }).config.alerts, { rules: [{ id: "gateway-down", enabled: false }] });
    const env = loadConfig({ configFile: join(dir, "none.json"), env: { INSIGHTS_ALERTS: JSON.stringify({ timeZone: "UTC" }) } });
    assert.equal(env.config.alerts, { timeZone: "UTC" });
    assert.is(env.origins.alerts, "env");
    writeFileSync(file, JSON.stringify({ alerts: [{ id: "c", type: "slack", url: SLACK }] }));
    assert.throws(() => loadConfig({ configFile: file, env: {} }), (e: unknown) => e instanceof ConfigError && /alerts = "<array>"/.test(e.message) && !e.message.includes("SECRETPATH"));
    assert.throws(() => loadConfig({ configFile: join(dir, "none.json"), env: { INSIGHTS_ALERTS: `{"channels": [{"url": "${SLACK}"` } }), (e: unknown) => e instanceof ConfigError && /not JSON/.test(e.message) && !e.message.includes("SECRETPATH"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the built-in daily-cost rule is off without a budget and on once one is given (config.json or the API)", () => {
  const builtin = BUILTIN_RULES.find((r) => r.id === "daily-cost");
  if (!builtin) throw new Error("no daily-cost built-in");
  assert.is(resolveRule(builtin, "builtin").enabled, false, "no budget: off");
  // The documented quick start: only the id and a budget.
  const set = resolveRule({ id: "daily-cost", metric: "cost", budget: 20 }, "config", builtin);
  assert.equal([set.enabled, set.warning, set.critical], [true, 16, 20]);
  assert.is(resolveRule({ id: "daily-cost", metric: "cost", budget: 20, enabled: false }, "api", builtin).enabled, false, "turned off on purpose");
});

test("allowedHosts and allowPrivateTargets: where API-made channels may send; off unless given", () => {
  const none = parseAlertsConfig({}, "config.json");
  assert.equal([none.allowPrivateTargets, none.allowedHosts], [false, []]);
  const c = parseAlertsConfig({ allowedHosts: ["hooks.lan", "10.0.0.5", "192.168.10.0/24", "[fd00::1]"], allowPrivateTargets: true }, "config.json");
  assert.equal([c.allowPrivateTargets, c.allowedHosts], [true, ["hooks.lan", "10.0.0.5", "192.168.10.0/24", "[fd00::1]"]]);
  assert.is(error({ allowedHosts: ["http://hooks.lan/x"] }).key, "alerts.allowedHosts[0]");
  assert.is(error({ allowPrivateTargets: "yes" }).key, "alerts.allowPrivateTargets");
});

test.run();
