// docs/alerting-rules.yml, the Prometheus rules equivalent to the built-in alert rules: it passes
// `promtool check rules`, and `promtool test rules` shows it behaves like the built-ins (the
// gateway down for 2 minutes fires, the checks that only repeat a down gateway stay quiet, a
// rate-limit window over 80 % warns unless its figures are stale). promtool comes from Debian's
// prometheus package (.ci/run installs it); outside CI a machine without it skips with a message.
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { BUILTIN_RULES, resolveRule } from "../shared/alerts/rules.js";
import { makeTempDir, removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { ROOT } from "./helpers/cli.js";

test.after(removeTempDirs);

const RULES = join(ROOT, "docs", "alerting-rules.yml");

function promtool(args: string[]): Promise<{ code: number; output: string } | null> {
  return new Promise((resolve) => {
    execFile("promtool", args, { timeout: 120_000 }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === "ENOENT") return resolve(null);
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

/** null when promtool may be absent here (not CI); in CI its absence fails. */
async function havePromtool(): Promise<boolean> {
  const v = await promtool(["--version"]);
  if (v) return true;
  if (process.env.CI) throw new Error("promtool is missing in CI: .ci/run installs Debian's prometheus package");
  console.log("alerting-rules.test: skipped, promtool is not installed (apt-get install prometheus)");
  return false;
}

test("promtool check rules passes", async () => {
  if (!(await havePromtool())) return;
  const r = await promtool(["check", "rules", RULES]);
  assert.is(r?.code, 0, r?.output);
  assert.match(r?.output ?? "", /SUCCESS: 7 rules found/);
});

test("every built-in rule that is on by default has its Prometheus equivalent", () => {
  const text = readFileSync(RULES, "utf8");
  const on = BUILTIN_RULES.filter((b) => resolveRule(b, "builtin").enabled).map((b) => b.id);
  assert.equal(on, ["gateway-down", "health-check-failing", "rate-limit", "rate-limit-projection"]);
  // The projection is the daemon's own reckoning (no series to redo it from): the forwarding rule carries it.
  const mirrored = on.filter((id) => id !== "rate-limit-projection");
  for (const id of mirrored) assert.match(text, new RegExp(`rule: ${id}\\n`), id);
  // The forwarding rule leaves exactly these out, so no condition is told twice.
  assert.match(text, new RegExp(`insights_alert_active\\{rule!~"${mirrored.join("\\|")}"\\}`));
  // The durations match the built-ins' thresholds (seconds held).
  assert.match(text, /expr: last_over_time\(openclaw_gateway_up\[1h\]\) == 0\n\s+for: 2m/);
  assert.is(resolveRule(BUILTIN_RULES[0]!, "builtin").critical, 120);
  assert.is(resolveRule(BUILTIN_RULES[1]!, "builtin").critical, 300);
});

interface PromtoolCase {
  interval: string;
  input_series: Array<{ series: string; values: string }>;
  alert_rule_test: Array<{ eval_time: string; alertname: string; exp_alerts: Array<{ exp_labels: Record<string, string>; exp_annotations?: Record<string, string> }> }>;
}

async function promtoolTest(tests: PromtoolCase[]): Promise<void> {
  const dir = makeTempDir("gi-promtool-");
  const file = join(dir, "alerting-rules.test.yml");
  // JSON is YAML.
  writeFileSync(file, JSON.stringify({ rule_files: [RULES], evaluation_interval: "1m", tests }, null, 2));
  const r = await promtool(["test", "rules", file]);
  assert.is(r?.code, 0, r?.output);
  assert.match(r?.output ?? "", /SUCCESS/);
}

const GATEWAY_DOWN_DESCRIPTION = "The gateway has not answered /healthz for more than 2 minutes.";
type Expected = { exp_labels: Record<string, string>; exp_annotations: Record<string, string> };
const gatewayDown = (instance = "gi", extra: Record<string, string> = {}): Expected => ({
  exp_labels: { instance, severity: "critical", rule: "gateway-down", ...extra },
  exp_annotations: { summary: `OpenClaw gateway on ${instance} is down`, description: GATEWAY_DOWN_DESCRIPTION },
});
const insightsDown = (instance: string): Expected => ({
  exp_labels: { job: "gateway-insights", instance, severity: "critical", rule: "insights-down" },
  exp_annotations: { summary: `gateway-insights on ${instance} cannot be scraped`, description: "Prometheus has not scraped this daemon for more than 2 minutes; alerts about what it watches keep their last state for up to an hour." },
});

test("promtool test rules: the rules behave like the built-ins", async () => {
  if (!(await havePromtool())) return;
  const check = (c: string): Record<string, string> => ({ summary: `Health check ${c} failing on gi`, description: "The check has been FAIL for more than 5 minutes." });
  await promtoolTest([
    {
      // The gateway goes down at minute 0; "ready" fails with it; "disk" fails on its own.
      interval: "1m",
      input_series: [
        { series: 'openclaw_gateway_up{instance="gi"}', values: "0x10" },
        { series: 'openclaw_health_check_status{instance="gi",check="ready"}', values: "2x10" },
        { series: 'openclaw_health_check_status{instance="gi",check="disk"}', values: "2x10" },
      ],
      alert_rule_test: [
        { eval_time: "1m", alertname: "OpenClawGatewayDown", exp_alerts: [] },
        { eval_time: "3m", alertname: "OpenClawGatewayDown", exp_alerts: [gatewayDown()] },
        { eval_time: "4m", alertname: "OpenClawHealthCheckFailing", exp_alerts: [] },
        { eval_time: "6m", alertname: "OpenClawHealthCheckFailing", exp_alerts: [{ exp_labels: { instance: "gi", check: "disk", severity: "critical", rule: "health-check-failing" }, exp_annotations: check("disk") }] },
      ],
    },
    {
      // The gateway is up, but "ready" fails: now it is the check's own alert.
      interval: "1m",
      input_series: [
        { series: 'openclaw_gateway_up{instance="gi"}', values: "1x10" },
        { series: 'openclaw_health_check_status{instance="gi",check="ready"}', values: "2x10" },
      ],
      alert_rule_test: [{ eval_time: "6m", alertname: "OpenClawHealthCheckFailing", exp_alerts: [{ exp_labels: { instance: "gi", check: "ready", severity: "critical", rule: "health-check-failing" }, exp_annotations: check("ready") }] }],
    },
  ]);
});

test("promtool test rules: a daemon that goes away fires GatewayInsightsDown and does not resolve what it was alerting", async () => {
  if (!(await havePromtool())) return;
  await promtoolTest([
    {
      // Machine b: its gateway is down from minute 0; its daemon cannot be scraped from minute 5
      // to 14 (Prometheus writes staleness markers), then is back with the gateway still down.
      // Machine c: scraped until minute 3, then gone from service discovery (no `up` at all).
      interval: "1m",
      input_series: [
        { series: 'up{job="gateway-insights",instance="b"}', values: "1x4 0x9 1x10" },
        { series: 'openclaw_gateway_up{job="gateway-insights",instance="b"}', values: "0x4 stale _x8 0x10" },
        { series: 'insights_build_info{job="gateway-insights",instance="b"}', values: "1x4 stale _x8 1x10" },
        { series: 'up{job="gateway-insights",instance="c"}', values: "1x3 stale" },
        { series: 'insights_build_info{job="gateway-insights",instance="c"}', values: "1x3 stale" },
      ],
      alert_rule_test: [
        { eval_time: "3m", alertname: "OpenClawGatewayDown", exp_alerts: [gatewayDown("b", { job: "gateway-insights" })] },
        { eval_time: "3m", alertname: "GatewayInsightsDown", exp_alerts: [] },
        // b down since minute 5: its own alert after 2 minutes; the gateway alert holds.
        { eval_time: "8m", alertname: "GatewayInsightsDown", exp_alerts: [insightsDown("b"), insightsDown("c")] },
        { eval_time: "8m", alertname: "OpenClawGatewayDown", exp_alerts: [gatewayDown("b", { job: "gateway-insights" })] },
        { eval_time: "12m", alertname: "OpenClawGatewayDown", exp_alerts: [gatewayDown("b", { job: "gateway-insights" })] },
        // Back at minute 14 with the gateway still down: the alert never went quiet, so it fires
        // at once rather than after another 2 minutes.
        { eval_time: "15m", alertname: "OpenClawGatewayDown", exp_alerts: [gatewayDown("b", { job: "gateway-insights" })] },
        { eval_time: "15m", alertname: "GatewayInsightsDown", exp_alerts: [insightsDown("c")] },
      ],
    },
  ]);
});

test("promtool test rules: one rate-limit alert per account and window; unknown accounts per machine; expired windows quiet", async () => {
  if (!(await havePromtool())) return;
  const ratio = (instance: string, account: string, source: string, window: string): string => `insights_rate_limit_used_ratio{instance="${instance}",provider="codex",source="${source}",account="${account}",limit="codex",window="${window}"}`;
  const stale = (instance: string, account: string, source: string): string => `insights_rate_limit_stale{instance="${instance}",provider="codex",source="${source}",account="${account}",limit="codex"}`;
  const resets = (instance: string, account: string, source: string, window: string): string => `insights_rate_limit_resets_timestamp_seconds{instance="${instance}",provider="codex",source="${source}",account="${account}",limit="codex",window="${window}"}`;
  await promtoolTest([
    {
      interval: "1m",
      input_series: [
        // One account on two machines: 95 % and 96 % of the same window (the later reading).
        { series: ratio("a", "acct-1", "codex:default", "primary"), values: "0.95x10" },
        { series: stale("a", "acct-1", "codex:default"), values: "0x10" },
        { series: resets("a", "acct-1", "codex:default", "primary"), values: "100000x10" },
        { series: ratio("b", "acct-1", "codex:default", "primary"), values: "0.96x10" },
        { series: stale("b", "acct-1", "codex:default"), values: "0x10" },
        { series: resets("b", "acct-1", "codex:default", "primary"), values: "100000x10" },
        // Two machines whose account is unknown: two alerts.
        { series: ratio("a", "unknown", "codex:work", "secondary"), values: "1x10" },
        { series: stale("a", "unknown", "codex:work"), values: "0x10" },
        { series: ratio("c", "unknown", "codex:default", "secondary"), values: "1x10" },
        { series: stale("c", "unknown", "codex:default"), values: "0x10" },
        // A window that reset at minute 2 (its figures were not refreshed): quiet from then on,
        // although the daemon has not marked it stale yet.
        { series: ratio("d", "acct-2", "codex:default", "primary"), values: "0.97x10" },
        { series: stale("d", "acct-2", "codex:default"), values: "0x10" },
        { series: resets("d", "acct-2", "codex:default", "primary"), values: "120x10" },
        // A window whose figures are stale from minute 2 on.
        { series: ratio("e", "acct-3", "codex:default", "primary"), values: "0.99x10" },
        { series: stale("e", "acct-3", "codex:default"), values: "0 0 1x8" },
        // Over the built-in's 80 % warns; under it is quiet.
        { series: ratio("f", "acct-4", "codex:default", "primary"), values: "0.85x10" },
        { series: stale("f", "acct-4", "codex:default"), values: "0x10" },
        { series: resets("f", "acct-4", "codex:default", "primary"), values: "100000x10" },
        { series: ratio("g", "acct-5", "codex:default", "primary"), values: "0.75x10" },
        { series: stale("g", "acct-5", "codex:default"), values: "0x10" },
        { series: resets("g", "acct-5", "codex:default", "primary"), values: "100000x10" },
      ],
      alert_rule_test: [
        {
          eval_time: "1m",
          alertname: "RateLimitWindowAlmostUsed",
          exp_alerts: [
            { exp_labels: { provider: "codex", account: "acct-1", limit: "codex", window: "primary", severity: "warning", rule: "rate-limit" }, exp_annotations: { summary: "codex account acct-1: primary rate-limit window 96% used" } },
            { exp_labels: { provider: "codex", account: "acct-2", limit: "codex", window: "primary", severity: "warning", rule: "rate-limit" }, exp_annotations: { summary: "codex account acct-2: primary rate-limit window 97% used" } },
            { exp_labels: { provider: "codex", account: "acct-3", limit: "codex", window: "primary", severity: "warning", rule: "rate-limit" }, exp_annotations: { summary: "codex account acct-3: primary rate-limit window 99% used" } },
            { exp_labels: { provider: "codex", account: "acct-4", limit: "codex", window: "primary", severity: "warning", rule: "rate-limit" }, exp_annotations: { summary: "codex account acct-4: primary rate-limit window 85% used" } },
          ],
        },
        {
          eval_time: "5m",
          alertname: "RateLimitWindowAlmostUsed",
          exp_alerts: [
            { exp_labels: { provider: "codex", account: "acct-1", limit: "codex", window: "primary", severity: "warning", rule: "rate-limit" }, exp_annotations: { summary: "codex account acct-1: primary rate-limit window 96% used" } },
            { exp_labels: { provider: "codex", account: "acct-4", limit: "codex", window: "primary", severity: "warning", rule: "rate-limit" }, exp_annotations: { summary: "codex account acct-4: primary rate-limit window 85% used" } },
          ],
        },
        {
          eval_time: "5m",
          alertname: "RateLimitWindowUsedUp",
          exp_alerts: [
            { exp_labels: { instance: "a", provider: "codex", source: "codex:work", account: "unknown", limit: "codex", window: "secondary", severity: "critical", rule: "rate-limit" }, exp_annotations: { summary: "codex:work: secondary rate-limit window used up" } },
            { exp_labels: { instance: "c", provider: "codex", source: "codex:default", account: "unknown", limit: "codex", window: "secondary", severity: "critical", rule: "rate-limit" }, exp_annotations: { summary: "codex:default: secondary rate-limit window used up" } },
          ],
        },
      ],
    },
  ]);
});

test("promtool test rules: the forwarding rule does not repeat a built-in rule that has its own Prometheus rule", async () => {
  if (!(await havePromtool())) return;
  const fwd = (rule: string, severity: string): Expected => ({
    exp_labels: { instance: "gi", rule, severity, source: "gateway-insights" },
    exp_annotations: { summary: `gateway-insights alert ${rule} (${severity}) firing on gi` },
  });
  await promtoolTest([
    {
      interval: "1m",
      input_series: [
        { series: 'openclaw_gateway_up{instance="gi"}', values: "0x10" },
        { series: 'insights_alert_active{instance="gi",rule="gateway-down",severity="critical"}', values: "1x10" },
        { series: 'insights_alert_active{instance="gi",rule="daily-cost",severity="warning"}', values: "1x10" },
        { series: 'insights_alert_active{instance="gi",rule="daily-cost",severity="critical"}', values: "0x10" },
      ],
      alert_rule_test: [
        { eval_time: "3m", alertname: "OpenClawGatewayDown", exp_alerts: [gatewayDown()] },
        { eval_time: "3m", alertname: "GatewayInsightsAlert", exp_alerts: [fwd("daily-cost", "warning")] },
      ],
    },
  ]);
});

test.run();
