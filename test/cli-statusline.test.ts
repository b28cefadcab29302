// `insightsctl statusline` end to end with the built CLI and a real daemon (HOME in a temp dir
// holding a copy of the Claude Code fixture): the documented status-line JSON piped in prints one
// line and its windows reach GraphQL (ProviderBSystem.rateLimits), /metrics, the card JSON and
// `insightsctl status`; with no daemon the reading goes to the spool, and the next daemon start
// takes it in and empties it. Bad input prints a plain line and exits 0.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { copyClaudeHome } from "./helpers/claude-code-fixture.js";
import { CTL, ctl, sandbox, type Sandbox } from "./helpers/cli.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";

type Win = { used_percentage: number; resets_at: number };
const FIXTURE = JSON.parse(fs.readFileSync(join(import.meta.dirname, "fixtures/statusline/subscriber.json"), "utf8")) as Record<string, unknown> & {
  rate_limits: { five_hour: Win; seven_day: Win };
};

let box: Sandbox;

test.before(async () => {
  box = await sandbox();
  fs.cpSync(copyClaudeHome().home, box.env.HOME as string, { recursive: true });
});
test.after(async () => {
  await box.cleanup();
  removeTempDirs();
});

/** The fixture's input for this HOME, its windows resetting 1 h and 3 days from now. */
function input(fiveHourUsed = FIXTURE.rate_limits.five_hour.used_percentage): string {
  const now = Math.floor(Date.now() / 1000);
  return JSON.stringify({
    ...FIXTURE,
    transcript_path: join(box.env.HOME as string, ".claude", "projects", "-home-op-app", "s.jsonl"),
    rate_limits: { five_hour: { used_percentage: fiveHourUsed, resets_at: now + 3600 }, seven_day: { used_percentage: FIXTURE.rate_limits.seven_day.used_percentage, resets_at: now + 3 * 86400 } },
  });
}

function statusline(stdin: string, args: string[] = []): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CTL, "statusline", ...args], { env: box.env, stdio: ["pipe", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("close", (code) => resolve({ code, stdout }));
    child.stdin.on("error", () => undefined);
    child.stdin.end(stdin);
  });
}

const token = (): string => fs.readFileSync(join(box.stateDir, "token"), "utf8").trim();
async function gqlB(): Promise<{ primary: { usedPercent: number } | null; secondary: { usedPercent: number } | null; source: string } | null> {
  const res = await fetch(`http://127.0.0.1:${box.port}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token()}` },
    body: JSON.stringify({ query: "{ system(provider: PROVIDER_B) { ... on ProviderBSystem { rateLimits { source primary { usedPercent } secondary { usedPercent } } } } }" }),
  });
  const body = (await res.json()) as { data?: { system: { rateLimits: Awaited<ReturnType<typeof gqlB>> } } };
  return body.data?.system.rateLimits ?? null;
}

test("bad or missing input: a plain line and exit 0, always", async () => {
  for (const bad of ["", "not json", "[1]", "{}", "x".repeat(400 * 1024)]) {
    const r = await statusline(bad);
    assert.is(r.code, 0);
    assert.is(r.stdout.trim().split("\n").length, 1);
    assert.ok(r.stdout.includes("gateway-insights"), r.stdout);
  }
});

test("with a daemon: the line, and the windows in GraphQL, /metrics, the card JSON and status", async () => {
  const started = await ctl(box, ["start"]);
  assert.is(started.code, 0, started.stderr);
  // The install must be read before a reading can be tied to it.
  const w5 = FIXTURE.rate_limits.five_hour.used_percentage;
  const w7 = FIXTURE.rate_limits.seven_day.used_percentage;
  await pollUntil(
    async () => {
      const r = await statusline(input(), ["--color", "never"]);
      return r.code === 0 && r.stdout.includes("today $") && (await gqlB()) !== null ? r : null;
    },
    { timeoutMs: 90_000, intervalMs: 500, what: "the reading to reach GraphQL" },
  );
  const line = (await statusline(input(), ["--color", "never"])).stdout;
  assert.ok(line.includes(`5h ${Math.round(w5)}%`) && line.includes(`week ${Math.round(w7)}%`), line);
  assert.ok(line.includes("Sonnet 4.5") && line.includes("ctx 26%"), line);
  const coloured = (await statusline(input(), ["--color", "always"])).stdout;
  assert.ok(coloured.includes("\x1b["), "--color always: ANSI codes");

  const rl = await gqlB();
  assert.equal([rl?.source, rl?.primary?.usedPercent, rl?.secondary?.usedPercent], ["claude-code:default", w5, w7]);

  const metrics = await (await fetch(`http://127.0.0.1:${box.port}/metrics`, { headers: { authorization: `Bearer ${token()}` } })).text();
  const series = metrics.split("\n").filter((l) => l.startsWith("insights_rate_limit_used_ratio{") && l.includes('provider="claude-code"'));
  assert.equal(series.map((l) => [/window="(\w+)"/.exec(l)?.[1], Number(l.split(" ").pop())]).sort(), [
    ["primary", w5 / 100],
    ["secondary", w7 / 100],
  ]);

  const card = await ctl(box, ["snapshot", "--format", "json", "-o", "-"]);
  const parsed = JSON.parse(card.stdout) as { providers: Array<{ provider: string; rateLimits?: Array<{ primary: { usedPercent: number } | null }> }> };
  assert.is(parsed.providers.find((p) => p.provider === "claude-code")?.rateLimits?.[0]?.primary?.usedPercent, w5);

  const status = await ctl(box, ["status"]);
  const rateLine = status.stdout.split("\n").find((l) => l.includes("rate limits") && l.includes("Claude Code"));
  assert.ok(rateLine?.includes(`5h ${Math.round(w5)}%`) && rateLine.includes("as of"), status.stdout);
  const json = JSON.parse((await ctl(box, ["status", "--json"])).stdout) as { providers: Array<{ provider: string; rateLimits?: Array<{ primary: { usedPercent: number } }> }> };
  assert.is(json.providers.find((p) => p.provider === "claude-code")?.rateLimits?.[0]?.primary.usedPercent, w5);
});

async function activeAlerts(): Promise<Array<{ ruleId: string; severity: string; subject: string; value: number; threshold: number; label: string }>> {
  const res = await fetch(`http://127.0.0.1:${box.port}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token()}` },
    body: JSON.stringify({ query: "{ alerts(state: ACTIVE) { ruleId severity subject value threshold label } }" }),
  });
  const body = (await res.json()) as { data?: { alerts: Awaited<ReturnType<typeof activeAlerts>> } };
  return body.data?.alerts ?? [];
}

test("a Claude Code reading of 85 % raises the built-in rate-limit warning (80 %), not its critical (100 %)", async () => {
  // The daemon started by the test above still runs (box.cleanup stops it).
  const used = 85;
  const r = await statusline(input(used), ["--color", "never"]);
  assert.is(r.code, 0);
  const alert = await pollUntil(
    async () => (await activeAlerts()).find((a) => a.ruleId === "rate-limit") ?? null,
    { timeoutMs: 60_000, intervalMs: 500, what: "the rate-limit alert to fire" },
  );
  assert.equal([alert.severity, alert.value, alert.threshold], ["WARNING", used, 80]);
  assert.match(alert.label, /claude-code/);
});

test("no daemon: the reading goes to the private spool; the next start takes it in and empties it", async () => {
  assert.is((await ctl(box, ["stop"])).code, 0);
  const spool = join(box.stateDir, "statusline-spool.jsonl");
  const later = FIXTURE.rate_limits.five_hour.used_percentage + 10;
  const r = await statusline(input(later), ["--color", "never"]);
  assert.is(r.code, 0);
  assert.not.ok(r.stdout.includes("today"), "no daemon: no today part");
  assert.ok(r.stdout.includes(`5h ${Math.round(later)}%`), r.stdout);
  assert.is(fs.statSync(spool).mode & 0o777, 0o600);
  assert.is((await ctl(box, ["start"])).code, 0);
  await pollUntil(async () => ((await gqlB())?.primary?.usedPercent === later ? true : null), { timeoutMs: 90_000, intervalMs: 300, what: "the spooled reading in GraphQL" });
  assert.not.ok(fs.existsSync(spool), "the spool is emptied");
});

test.run();
