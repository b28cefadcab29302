// docs/alerting-rules.yml, the Prometheus rules equivalent to the built-in alert rules: it passes
// `promtool check rules`, and `promtool test rules` shows it behaves like the built-ins (the
// gateway down for 2 minutes fires, the checks that only repeat a down gateway stay quiet, a
// rate-limit window over 90 % warns unless its figures are stale). promtool comes from Debian's
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
  assert.match(r?.output ?? "", /SUCCESS: 5 rules found/);
});

test("every built-in rule that is on by default has its Prometheus equivalent", () => {
  const text = readFileSync(RULES, "utf8");
  const on = BUILTIN_RULES.filter((b) => resolveRule(b, "builtin").enabled).map((b) => b.id);
  assert.equal(on, ["gateway-down", "health-check-failing", "rate-limit"]);
  for (const id of on) assert.match(text, new RegExp(`rule: ${id}\\n`), id);
  // The durations match the built-ins' thresholds (seconds held).
  assert.match(text, /expr: openclaw_gateway_up == 0\n\s+for: 2m/);
  assert.is(resolveRule(BUILTIN_RULES[0]!, "builtin").critical, 120);
  assert.is(resolveRule(BUILTIN_RULES[1]!, "builtin").critical, 300);
});

test("promtool test rules: the rules behave like the built-ins", async () => {
  if (!(await havePromtool())) return;
  const dir = makeTempDir("gi-promtool-");
  const gw = { summary: "OpenClaw gateway on gi is down", description: "The gateway has not answered /healthz for more than 2 minutes." };
  const check = (c: string) => ({ summary: `Health check ${c} failing on gi`, description: "The check has been FAIL for more than 5 minutes." });
  const spec = {
    rule_files: [RULES],
    evaluation_interval: "1m",
    tests: [
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
          { eval_time: "3m", alertname: "OpenClawGatewayDown", exp_alerts: [{ exp_labels: { instance: "gi", severity: "critical", rule: "gateway-down" }, exp_annotations: gw }] },
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
      {
        interval: "1m",
        input_series: [
          { series: 'insights_rate_limit_used_ratio{instance="gi",provider="codex",source="codex:default",limit="codex",window="primary"}', values: "0.95x3" },
          { series: 'insights_rate_limit_stale{instance="gi",provider="codex",source="codex:default",limit="codex"}', values: "0 0 1 1" },
          { series: 'insights_rate_limit_used_ratio{instance="gi",provider="codex",source="codex:work",limit="codex",window="secondary"}', values: "1x3" },
          { series: 'insights_rate_limit_stale{instance="gi",provider="codex",source="codex:work",limit="codex"}', values: "0x3" },
        ],
        alert_rule_test: [
          { eval_time: "1m", alertname: "RateLimitWindowAlmostUsed", exp_alerts: [{ exp_labels: { instance: "gi", provider: "codex", source: "codex:default", limit: "codex", window: "primary", severity: "warning", rule: "rate-limit" }, exp_annotations: { summary: "codex:default: primary rate-limit window 95% used" } }] },
          { eval_time: "3m", alertname: "RateLimitWindowAlmostUsed", exp_alerts: [] },
          { eval_time: "1m", alertname: "RateLimitWindowUsedUp", exp_alerts: [{ exp_labels: { instance: "gi", provider: "codex", source: "codex:work", limit: "codex", window: "secondary", severity: "critical", rule: "rate-limit" }, exp_annotations: { summary: "codex:work: secondary rate-limit window used up" } }] },
        ],
      },
    ],
  };
  const file = join(dir, "alerting-rules.test.yml");
  // JSON is YAML.
  writeFileSync(file, JSON.stringify(spec, null, 2));
  const r = await promtool(["test", "rules", file]);
  assert.is(r?.code, 0, r?.output);
  assert.match(r?.output ?? "", /SUCCESS/);
});

test.run();
