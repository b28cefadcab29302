// How the providers suite reads `insightsctl usage daily --json` (bench/providers-hooks.ts
// dailyFromUsage): the real CLI's output on copies of the real fixtures, against the independent
// checkers (bench/synthetic/expected-*.ts); and the reports it must refuse.
//   npm run build && node --import tsx bench/usage-json.test.ts
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { REPO_ROOT } from "./paths.js";
import { dailyFromUsage } from "./providers-hooks.js";
import { diffDaily } from "./synthetic/daily.js";
import { checkClaudeCode } from "./synthetic/expected-claude-code.js";
import { checkCodex } from "./synthetic/expected-codex.js";

const FIXTURES = "/work/shared/fixtures";

/** `insightsctl usage daily --json` with no daemon (it reads the store in-process), HOME at a copy of a fixture. */
function usageJson(fixture: string, provider: string): { json: unknown; home: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "gi-bench-usage-"));
  fs.cpSync(path.join(FIXTURES, fixture), home, { recursive: true });
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, XDG_CONFIG_HOME: path.join(home, ".cfg"), XDG_STATE_HOME: path.join(home, ".state"), XDG_RUNTIME_DIR: path.join(home, ".run"), INSIGHTS_OPENCLAW: "off", NO_COLOR: "1" };
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist", "cli", "main.js"), "usage", "daily", "--json", "--provider", provider, "-z", "UTC"], { env, encoding: "utf8" });
  assert.is(r.status, 0, r.stderr);
  return { json: JSON.parse(r.stdout) as unknown, home };
}

test("Claude Code fixture: the CLI's rows are the checker's days, to the token", async () => {
  const { json, home } = usageJson("claude-code-2.1.330", "claude-code");
  try {
    const { daily, responses } = dailyFromUsage(json);
    const check = await checkClaudeCode(path.join(home, ".claude"));
    assert.ok(daily.length > 0 && responses > 0);
    assert.equal(diffDaily(check.daily, daily), []);
    assert.is(responses, check.responses);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test("Codex fixture: input is without cached input, as the checker counts it", async () => {
  const { json, home } = usageJson("codex-0.169.0", "codex");
  try {
    const { daily } = dailyFromUsage(json);
    const check = await checkCodex(path.join(home, ".codex"));
    assert.ok(daily.length > 0);
    assert.equal(diffDaily(check.daily, daily), []);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

const report = (over: Record<string, unknown> = {}, row: Record<string, unknown> = {}): Record<string, unknown> => ({
  report: "daily",
  timeZone: "UTC",
  demo: false,
  scanComplete: true,
  rows: [{ key: "2026-11-23", inputTokens: 1, outputTokens: 2, cacheWriteTokens: 3, cacheReadTokens: 4, responses: 1, ...row }],
  ...over,
});

test("maps the fields; refuses a partial, demo, non-UTC or malformed report", () => {
  assert.equal(dailyFromUsage(report()).daily, [{ date: "2026-11-23", input: 1, output: 2, cacheRead: 4, cacheWrite: 3 }]);
  for (const bad of [
    report({ scanComplete: false }),
    report({ demo: true }),
    report({ timeZone: "Europe/Berlin" }),
    report({ report: "monthly" }),
    report({ rows: null }),
    report({}, { key: "2026-11" }),
    report({}, { inputTokens: 1.5 }),
    report({}, { cacheReadTokens: "4" }),
  ]) {
    assert.throws(() => dailyFromUsage(bad), JSON.stringify(bad).slice(0, 120));
  }
});

test.run();
